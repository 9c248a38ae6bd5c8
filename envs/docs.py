"""The environments' reference page (`docs/environments.md`), written from the classes' docstrings.

python -m rummyai.envs.docs > docs/environments.md
"""

from __future__ import annotations

import textwrap

from rummyai.envs.candidates import COLUMN_MEANINGS, FEATURE_WIDTHS, FEATURES
from rummyai.envs.variant_envs import CURRENT, CURRENT_IDS, DESCRIPTIONS, ENV_CLASSES, reference

INTRO = """# Environments

Seven Gymnasium environments, one per variant, registered by `import rummyai.envs`. Each step is
one decision of the learner among at most K candidate moves (`Discrete(K)`, default 32); the
observation is a flat `Dict` of arrays with the action mask and a `(K, F)` feature matrix of the
candidates beside it, so one scoring network with shared weights can rank candidates, and
`MaskablePPO("MultiInputPolicy", gym.make(id))` trains on it without wrappers. `aec_env(id)`
gives the PettingZoo AEC view (every seat an agent, for self-play); `rummyai.envs.PolicyAgent`
turns any trained policy into an agent for `rummyai tournament` (the registered `policy` agent).
This page is generated from the classes' docstrings: `python -m rummyai.envs.docs` (each class's
own docstring, `help(RummikubEnv)`, holds the whole reference below for its variant).

```python
import gymnasium as gym
import numpy as np
import rummyai.envs  # registers the seven ids below

env = gym.make("rummyai/Rummikub-v2", opponents="random")
obs, info = env.reset(seed=0)
rng, done = np.random.default_rng(0), False
while not done:  # a learner choosing uniformly among the valid candidates
    obs, reward, terminated, truncated, info = env.step(rng.choice(np.flatnonzero(obs["action_mask"])))
    done = terminated or truncated
print(info["scores"])
```

Worker processes started by *spawn* or *forkserver* (the default on macOS and Windows, and
`AsyncVectorEnv(..., context="spawn")`) have not imported `rummyai.envs`; name the module in the
id so that `gym.make` imports it there: `gym.make("rummyai.envs:rummyai/Rummikub-v2")`.

| id | class | the game | example `options` |
| --- | --- | --- | --- |
"""

COMMON = """
## Every environment

The learner plays one seat of a match against seeded opponents that move inside `step`. Each
step is one decision of the learner (a whole turn in the tile games; one operation - draw, meld,
lay-off, swap, discard - in the draw-meld-discard games). The environments differ only in their
variant; everything below holds for all seven.
"""

SPEED_TABLE = """
| variant | one core, per CPU second | one core, per second | AsyncVectorEnv x2, per second | AsyncVectorEnv x2, per CPU second | target (one core) |
| --- | --- | --- | --- | --- | --- |
| rummikub | 521 / 397 | 518 / 397 | 337 / 279 | 250 / 198 | 2,000: not met |
| rummy-board | 474 / 364 | 474 / 364 | 348 / 246 | 256 / 173 | 300: met |
| rummy-tiles | 77 / 62 | 76 / 62 | 85 / 62 | 68 / 49 | 300: not met |
| rhine | 14 / 29 | 14 / 29 | 33 / 29 | 29 / 25 | 300: not met |
| rummy-palace | 768 / 538 | 768 / 538 | 490 / 387 | 375 / 295 | 300: met |
| standard | 670 / 482 | 670 / 481 | 478 / 409 | 356 / 301 | 300: met |
| black-heart | 339 / 343 | 339 / 343 | 335 / 325 | 263 / 257 | 300: met |
"""


SELF_PLAY = """
## Self-play: the PettingZoo view

`aec_env(id, num_players=N)` plays one match with every seat an agent (`player_0` ...), each
seeing the match from its own seat with the same observation and candidates as above; only the
acting agent's mask offers moves. Rewards reach every seat when scores change (a round's end),
so an agent's return is its match total. It passes PettingZoo's `api_test`.

```python
import numpy as np
from rummyai.envs import aec_env

env = aec_env("rummyai/Rummikub-v2", num_players=2)  # agents player_0, player_1
env.reset(seed=0)
rng = np.random.default_rng(0)
returns = dict.fromkeys(env.possible_agents, 0.0)
for agent in env.agent_iter():
    obs, reward, terminated, truncated, info = env.last()
    returns[agent] += reward
    done = terminated or truncated
    env.step(None if done else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
print(returns)  # each agent's return is its match total
```
"""

COLUMNS = """
## Candidate columns

Every environment's candidate matrix has these columns (v1 ids: the first 30), one row per
candidate slot, zeros in empty slots:

| column | what it holds |
| --- | --- |
"""

SPEED = """
## Speed

Learner steps per second, measured by `experiments/benchmarks/env_bench.py`: a learner choosing
uniformly among the masked candidates, 2 players, one-round matches, default candidates
(`auto`), after one untimed episode (loading the compiled solver, building its tables). A
single environment runs pinned to one CPU; the `AsyncVectorEnv` rows run 2 worker processes
(both cores). The machine is a 2-core AMD EPYC virtual machine shared with other jobs, so the
rate per second of wall time partly measures the load; the comparable figure is steps per CPU
second (the environment process's own CPU time; for `AsyncVectorEnv`, the workers' and the main
process's together, so two idle cores give at most twice it per second of wall time).

```sh
nice -n 19 .venv/bin/python experiments/benchmarks/env_bench.py --clock cpu --seconds 10 \\
    --variants rummikub,rummy-board
nice -n 19 .venv/bin/python experiments/benchmarks/env_bench.py --clock cpu --seconds 10 \\
    --variants rummy-tiles,rhine
nice -n 19 .venv/bin/python experiments/benchmarks/env_bench.py --clock cpu --seconds 5 \\
    --variants rummy-palace,standard,black-heart
```

rummyai 0.2.0.dev0, Python 3.11.7, gymnasium 1.4.0, numpy 2.4.6, numba 0.68.1, ortools
9.15.6755; one run of each command above, load average 0.1-1.4 (the second command's run
1.0-1.2; the vector rows' own workers among it). Steps per CPU second and per second of wall time, learner
against `random` / `greedy` opponents; the last column holds them against the project's targets
(2,000 steps per CPU second on one core for rummikub, 300 for the others):

{table}

Rhine's rows cover 4-21 episodes, some positions taking CP-SAT and the judge's repair a second
or more, so they vary widely with the seeds. Twelve seeded episodes played with Rhine's program
and without it (`--clock cpu --episodes 12 --variants rhine --vector 0`, the program switched
off in the second run, load average about 1): against `greedy` 25 learner steps per CPU second
with it, 12 without; against `random` 17 both ways, where the learner's random plays leave
large tables with many jokers that the program hands to CP-SAT more often (48 of 205 solver
calls in four such episodes).

Even steps per CPU second move by a third or more from one run to the next on this machine
(black-heart against random gives 235 to 401 in runs of the same command), and the vector rows
most of all: their workers are not pinned and run at the lowest priority beside the machine's
other jobs. Run alone at normal priority, `env_bench.py --seconds 10 --variants rummikub
--opponents random` gave the two workers 620 rummikub steps per second (446 per CPU second),
and 579 (427) with `--clock cpu`. To compare two versions of the code, play a fixed set of
seeded episodes (`--episodes 60`) with both, one after the other.

Where a step's time goes (`--breakdown`, CPU time per learner step with timers around each part,
60 seeded episodes; rummyai 0.2.0.dev0, load average 1.1-1.4):

```sh
nice -n 19 .venv/bin/python experiments/benchmarks/env_bench.py --breakdown --episodes 60 \\
    --variants rummikub,rummy-board --vector 0
```

| part (CPU ms per learner step, share) | rummikub, random | rummikub, greedy | rummy-board, random | rummy-board, greedy |
| --- | --- | --- | --- | --- |
| the learner's candidates | 1.49 (74%) | 1.44 (50%) | 1.79 (71%) | 1.57 (49%) |
| - solver calls | 0.75 (37%) | 0.70 (25%) | 0.81 (32%) | 0.74 (23%) |
| - answers to engine plays | 0.28 (14%) | 0.23 (8%) | 0.43 (17%) | 0.27 (8%) |
| - legal moves | 0.12 (6%) | 0.13 (4%) | 0.14 (6%) | 0.15 (5%) |
| - ranking and features | 0.18 (9%) | 0.20 (7%) | 0.22 (9%) | 0.23 (7%) |
| opponents' turns | 0.25 (12%) | 1.10 (38%) | 0.40 (16%) | 1.26 (40%) |
| observation | 0.11 (5%) | 0.13 (5%) | 0.13 (5%) | 0.13 (4%) |
| whole step | 2.02 | 2.87 | 2.53 | 3.17 |
| the compiled search, wherever it runs | 0.43 (21%) | 0.59 (21%) | 0.45 (18%) | 0.65 (21%) |
| CP-SAT, wherever it runs | 0.00 (0%) | 0.00 (0%) | 0.02 (1%) | 0.06 (2%) |

Against `random`, the learner's candidate list is three quarters of the time and the solver
calls over a third of the step: about one fresh position per step, answered by the compiled
dynamic program (plus a most-points call where that can differ); turning its answers into
engine plays (the engine's bridge and check) an eighth; ranking and features, the engine's legal moves, the random
opponent's turn (its legal moves, the engine's apply) and the observation the rest. Against
`greedy`, the opponent's own solver calls take as long again. Answers are reused only where
that is exact, so the candidates and observations are those of a fresh solve (checked step by
step against seeded episodes recorded in `tests/envs/env_digests.json`): answers cached by
playable hand and table, and no call where no hand card fits any meld, where the seat's last
play was already the proven best, where an unopened seat's playable cards cannot reach the
opening points, or (official-jokers Rummikub) where the dynamic program finds no play even with
free jokers (Tile Rummy's own program makes that proof its first step).
The positions left are new ones, so further speed needs cheaper solver calls and engine checks.
The compiled search itself (the last rows; its calls from the learner's candidates and from a
greedy opponent alike) takes 0.43 ms of a rummikub step against random: with nothing else in
the step, about 2,300 steps per CPU second. The target of 2,000 would leave the rest of the step
(the engine's moves and checks, the candidates' features, the observation) 0.07 ms, which no
change that keeps the exact solver's candidates and the engine's checks in Python reaches.
Rhine's opened turns go first to its own program (`solvers/rhine_jokers.py`: Rhine's melds and a
search over the table jokers' choices); the turns it cannot prove, and the qualifying turns, go
to CP-SAT, whose table must also pass the engine's judge, and those still take most of the time. Rummy-tiles'
opened turns are answered by the locked-joker program (`solvers/locked_dp.py`), about three
compiled searches of a millisecond each per position, plus the engine's judge where a joker
meld's cards have second copies on the table: 7.1 ms of solver calls (2.6 ms of them the
compiled search) in a 9.9 ms learner step against random (`--breakdown --clock cpu --seconds 20
--vector 0 --opponents random --variants rummy-tiles`, load average 0.3-0.6); Rhine's solver
calls 52 ms of a 55 ms step, CP-SAT 22 ms of them (`--breakdown --clock cpu --episodes 12
--variants rhine --vector 0 --opponents random`, load average 1.0).
"""


def shapes() -> str:
    """The observation's arrays with their shapes in 2-player games, from the spaces themselves."""
    envs = {variant: ENV_CLASSES[env_id]() for variant, env_id in CURRENT_IDS.items()}
    spaces = {variant: env.observation_space for variant, env in envs.items()}
    first = next(iter(spaces.values()))
    lines = ["| array | dtype | shape (2 players) |", "| --- | --- | --- |"]
    for key, space in first.items():
        shown = {tuple(s[key].shape) for s in spaces.values()}
        shape = str(tuple(space.shape)) if len(shown) == 1 else "(M, 105)"
        lines.append(f"| `{key}` | `{space.dtype}` | {shape} |")
    rows = ", ".join(f"{variant} {spaces[variant]['melds'].shape[0]}" for variant in spaces)
    for env in envs.values():
        env.close()
    return (
        "### Shapes\n\n" + "\n".join(lines) + f"\n\nM, the table melds encoded at most: {rows}. "
        "Per-seat arrays have one row per seat (`num_players`), the candidates K rows (`max_candidates`).\n"
    )


def markdown() -> str:
    """The whole page."""
    current = {variant: (env_id, ENV_CLASSES[env_id]) for variant, env_id in CURRENT_IDS.items()}
    rows = "".join(
        f"| `{env_id}` | `{cls.__name__}` | {DESCRIPTIONS[variant][0]} | {DESCRIPTIONS[variant][1]} |\n"
        for variant, (env_id, cls) in current.items()
    )
    width = FEATURE_WIDTHS[CURRENT]
    body = textwrap.dedent(reference(width, "one of the table's examples above")).strip()
    listed = ", ".join(f"`{name}`" for name in FEATURES[:width])
    body = body.replace(listed, "the columns under [Candidate columns](#candidate-columns)")
    body = body.replace("## ", "### ").replace("### Starting State", shapes() + "\n### Starting State")
    columns = "".join(f"| `{name}` | {meaning} |\n" for name, meaning in COLUMN_MEANINGS.items())
    speed = SPEED.replace("{table}", SPEED_TABLE.strip())
    return INTRO + rows + COMMON + "\n" + body + "\n" + SELF_PLAY + COLUMNS + columns + speed


if __name__ == "__main__":
    print(markdown(), end="")
