# Every target creates .venv on first use and reuses it afterwards.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export NO_MKDOCS_2_WARNING := 1

.PHONY: run test bench lint docs docs-serve clean

$(STAMP): pyproject.toml Makefile
	test -d $(VENV) || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,serve,ray,docs,learn]'
	# the solver's compiled kernels, built now rather than on the first solve (needs a C compiler)
	$(BIN)/python -m rummyai.solvers.dp_native >/dev/null || echo "kernels not built ahead of time: numba compiles them on first use"
	touch $(STAMP)

# The main job: a short duplicate-deal tournament of every agent on rummikub (resumes if interrupted).
run: $(STAMP)
	$(BIN)/rummyai tournament --variant rummikub --agents $(RUN_AGENTS) --sets $(RUN_SETS) \
		--players 2 --seed 1 --workers 2 --out runs/quick

RUN_AGENTS ?= random,greedy,greedy-points,holdback,mcts,mcts-pimc,learned
RUN_SETS ?= 24

lint: $(STAMP)
	$(BIN)/ruff check rummyai solvers envs tests experiments
	$(BIN)/ruff format --check rummyai solvers envs tests experiments
	$(BIN)/mypy rummyai solvers envs

test: lint
	$(BIN)/mkdocs build --strict --quiet --site-dir build/site
	$(BIN)/pytest -n 2 --nbmake tests notebooks

# The documentation site, built into build/site (`make docs-serve` previews it on localhost:8000).
docs: $(STAMP)
	$(BIN)/mkdocs build --strict --site-dir build/site

docs-serve: $(STAMP)
	$(BIN)/mkdocs serve

bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[bench]'
	$(BIN)/python experiments/benchmarks/selfplay_bench.py
	$(BIN)/python experiments/benchmarks/discard_selfplay.py --matches 20
	$(BIN)/python experiments/benchmarks/meld_speed.py 20000 1
	$(BIN)/python experiments/benchmarks/solver_bench.py
	$(BIN)/python experiments/benchmarks/env_bench.py
	$(BIN)/python experiments/benchmarks/hint_bench.py --requests 200 --in-process

clean:
	rm -rf $(VENV) build *.egg-info
