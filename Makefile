# Every target creates .venv on first use and reuses it afterwards.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench lint clean

$(STAMP): pyproject.toml Makefile
	test -d $(VENV) || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,serve,ray]'
	touch $(STAMP)

# The main job: a short duplicate-deal tournament of every agent on rummikub (resumes if interrupted).
run: $(STAMP)
	$(BIN)/rummyai tournament --variant rummikub --agents $(RUN_AGENTS) --games $(RUN_GAMES) \
		--players 2 --seed 1 --workers 2 --out runs/quick

RUN_AGENTS ?= random,greedy,greedy-points,holdback,mcts,mcts-pimc,learned
RUN_GAMES ?= 24

lint: $(STAMP)
	$(BIN)/ruff check rummyai solvers envs tests experiments
	$(BIN)/ruff format --check rummyai solvers envs tests experiments
	$(BIN)/mypy rummyai solvers envs

test: lint
	$(BIN)/pytest -n 2 --nbmake tests notebooks

bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[bench]'
	$(BIN)/python experiments/selfplay_bench.py
	$(BIN)/python experiments/discard_selfplay.py --matches 20
	$(BIN)/python experiments/meld_speed.py 20000 1
	$(BIN)/python experiments/solver_bench.py
	$(BIN)/python experiments/env_bench.py
	$(BIN)/python experiments/hint_bench.py --requests 200 --in-process

clean:
	rm -rf $(VENV) build *.egg-info
