# Every target creates .venv on first use and reuses it afterwards.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
CORE := $(VENV)/.core
STAMP := $(VENV)/.installed
export NO_MKDOCS_2_WARNING := 1

.PHONY: run test bench lint docs docs-serve clean

# The core install (what `make run` needs), then the extras for tests, docs and training.
$(CORE): pyproject.toml Makefile
	test -d $(VENV) || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	# the solver's compiled kernels, built now rather than on the first solve (needs a C compiler)
	$(BIN)/python -m rummyai.solvers.dp_native >/dev/null || echo "kernels not built ahead of time: numba compiles them on first use"
	touch $(CORE)

$(STAMP): $(CORE)
	$(BIN)/pip install --quiet -e '.[dev,serve,ray,docs,learn]'
	touch $(STAMP)

# The main job: a short duplicate-deal tournament on rummikub (resumes if interrupted), its games
# recorded move by move for the web page's replays (`rummyai serve --runs runs/quick`).
run: $(CORE)
	$(BIN)/rummyai tournament --variant rummikub --agents $(RUN_AGENTS) --sets $(RUN_SETS) \
		--players 2 --seed 1 --workers 2 --record-moves --out $(RUN_OUT)

# Five agents that decide in milliseconds, ten sets per pair (under a minute on two cores); the
# search agents (mcts, mcts-pimc) take 0.2-1 s per move:
# make run RUN_AGENTS=greedy,mcts-pimc RUN_SETS=10 RUN_OUT=runs/search
RUN_AGENTS ?= random,greedy,greedy-points,holdback,learned
RUN_SETS ?= 100
RUN_OUT ?= runs/quick

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
