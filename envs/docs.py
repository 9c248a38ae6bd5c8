"""The environments' reference page (`docs/environments.md`), written from the classes' docstrings.

python -m rummyai.envs.docs > docs/environments.md
"""

from __future__ import annotations

import inspect

from rummyai.envs.variant_envs import ENV_CLASSES

INTRO = """# Environments

Seven Gymnasium environments, one per variant, registered by `import rummyai.envs`. Each step is
one decision of the learner among at most K candidate moves (`Discrete(K)`, default 32); the
observation is a flat `Dict` of arrays with the action mask and a `(K, F)` feature matrix of the
candidates beside it, so one scoring network with shared weights can rank candidates, and
`MaskablePPO("MultiInputPolicy", gym.make(id))` trains on it without wrappers. `aec_env(id)`
gives the PettingZoo AEC view (every seat an agent, for self-play); `rummyai.envs.PolicyAgent`
turns any trained policy into an agent for `rummyai tournament` (the registered `policy` agent).
This page is generated from the classes' docstrings: `python -m rummyai.envs.docs`.

| id | variant | class |
| --- | --- | --- |
"""


SPEED_TABLE = """
| variant | one core, per CPU second | one core, per second | AsyncVectorEnv x2, per second | AsyncVectorEnv x2, per CPU second | target (one core) |
| --- | --- | --- | --- | --- | --- |
| rummikub | 286 / 171 | 127 / 85 | 117 / 89 | 237 / 147 | 2,000: not met |
| rummy-board | 325 / 153 | 142 / 103 | 125 / 66 | 222 / 129 | 300: met per CPU second against random only |
| rummy-tiles | 21 / 16 | 21 / 16 | 29 / 14 | 24 / 12 | 300: not met |
| rhine | 2 / 6 | 2 / 6 | 18 / 7 | 16 / 7 | 300: not met |
| rummy-palace | 1,116 / 920 | 1,115 / 918 | 1,021 / 894 | 709 / 625 | 300: met |
| standard | 1,007 / 828 | 1,004 / 826 | 731 / 637 | 512 / 443 | 300: met |
| black-heart | 597 / 500 | 595 / 499 | 503 / 481 | 375 / 351 | 300: met |
"""

SPEED = """
## Speed

Learner steps per second, measured by `experiments/benchmarks/env_bench.py`: a learner choosing
uniformly among the masked candidates, 2 players, one-round matches, default candidates
(`auto`), after one untimed episode (loading the compiled solver, building its tables). A
single environment runs pinned to one CPU; the `AsyncVectorEnv` rows run 2 worker processes
(both cores). The machine is 2 cores shared with other jobs (load average 3-4.6 during these
runs), so the rate per second of wall time partly measures the load; the comparable figure is
steps per CPU second (the environment process's own CPU time; for `AsyncVectorEnv`, the
workers' and the main process's together, so two idle cores give at most twice it per second
of wall time).

```sh
nice -n 19 .venv/bin/python experiments/benchmarks/env_bench.py --clock cpu --seconds 10 \\
    --variants rummikub,rummy-board
nice -n 19 .venv/bin/python experiments/benchmarks/env_bench.py --clock cpu --seconds 5 \\
    --variants rummy-palace,standard,black-heart
nice -n 19 .venv/bin/python experiments/benchmarks/env_bench.py --clock cpu --seconds 10 \\
    --variants rummy-tiles,rhine
```

Python 3.11.7, gymnasium 1.4.0, numpy 2.4.6, numba 0.68.1, ortools 9.15.6755. Steps per CPU
second and per second of wall time, learner against `random` / `greedy` opponents:

{table}

Rhine's one-core figures cover a single episode against random (seed 0: 26 steps in about 10
CPU seconds, some positions taking CP-SAT and the judge's repair seconds each) and three against
greedy; the vector rows (other seeds) show how widely Rhine episodes vary. For the fast
draw-and-discard variants, the observations the two workers send to the main process cost more
than the second core brings on this shared machine.

Where a step's time goes (rummikub against `random`, CPU time per learner step, timers around
each part): the solver about 55% (0.8 fresh most-cards calls per step, each about three passes
of the compiled dynamic program's search, which is a third of all the time; a most-points call
on 15% of the steps), turning solver answers into engine plays (the engine's bridge and check)
about 10%, the candidate ranking and features 6-9%, the learner's legal moves 4%, the random
opponent's turn 7-9% (its legal moves, the engine's apply), the observation 4-5%. Rhine and
rummy-tiles spend nearly all their time in CP-SAT: their jokers are locked, which the dynamic
program does not cover (positions with no joker in hand or on the table are answered by it).
"""


def markdown() -> str:
    """The whole page."""
    rows = "".join(
        f"| `{env_id}` | `{cls.variant_id}` | `{cls.__name__}` |\n" for env_id, cls in ENV_CLASSES.items()
    )
    sections = []
    for env_id, cls in ENV_CLASSES.items():
        doc = inspect.cleandoc(cls.__doc__ or "")
        body = doc.replace("\n## ", "\n### ")
        sections.append(f"## {env_id}\n\n{body}\n")
    return INTRO + rows + "\n" + "\n".join(sections) + SPEED.replace("{table}", SPEED_TABLE.strip())


if __name__ == "__main__":
    print(markdown(), end="")
