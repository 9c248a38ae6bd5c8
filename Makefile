# Every target creates .venv on first use and reuses it afterwards.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench lint clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,serve,ray]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/rummyai variants
	$(BIN)/rummyai play --variant rummikub --players 2 --agents random,random --seed 1

lint: $(STAMP)
	$(BIN)/ruff check rummyai solvers envs tests experiments
	$(BIN)/ruff format --check rummyai solvers envs tests experiments
	$(BIN)/mypy rummyai solvers envs

test: lint
	$(BIN)/pytest -n 2 --nbmake tests notebooks

bench: $(STAMP)
	$(BIN)/python experiments/selfplay_bench.py

clean:
	rm -rf $(VENV) build *.egg-info
