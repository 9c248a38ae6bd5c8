"""Environment speed: learner steps per second for every variant, on one core and on two.

The learner picks uniformly among the masked candidates; opponents are `random` and `greedy`
(the solver's most-cards move). Candidates are the environments' default (``auto``: the solver's
for tile-style variants, the engine's for draw-meld-discard) or named (``engine``, ``solver``);
the table also counts the solver calls and the answers found without one (cache, no playable
card, known no play, opening out of reach, no play even under free jokers). Each
single-environment row plays one untimed episode first (loading the compiled solver and building
its tables) and runs pinned to one CPU; steps are counted per second of wall time and per second
of the process's own CPU time (the fairer figure on a shared machine). `--vector N` (default 2,
0 to skip) also measures `gymnasium.vector.AsyncVectorEnv` with N worker processes (not pinned;
3 untimed seconds first); its CPU figure divides the steps
by the CPU time of the workers and the main process together (so N idle cores give at most N
times it per second of wall time). `--clock cpu` counts `--seconds` in CPU time instead of wall
time (per worker for the vector rows): a fixed amount of work, so that a loaded machine still
gives samples of a useful size. The load average is printed
before and after, since the figures depend on it. RLCard's gin rummy (all seats random) is
measured in the same run when `rlcard` is installed.

    .venv/bin/python experiments/benchmarks/env_bench.py            # every variant: random, greedy, x2
    .venv/bin/python experiments/benchmarks/env_bench.py --seconds 20 --variants rummikub,rummy-board
    nice -n 19 .venv/bin/python experiments/benchmarks/env_bench.py --clock cpu --seconds 10  # shared machine
    .venv/bin/python experiments/benchmarks/env_bench.py --seconds 3 --variants rummikub --candidates engine
    nice -n 19 .venv/bin/python experiments/benchmarks/env_bench.py --episodes 40 --variants rummikub --vector 0
    .venv/bin/python experiments/benchmarks/env_bench.py --breakdown --variants rummikub --vector 0  # where time goes
    .venv/bin/python experiments/benchmarks/env_bench.py --soak 1000   # 1000 one-round episodes per variant
    .venv/bin/python experiments/benchmarks/env_bench.py --soak 1000 --max-turns 12 --variants standard

`--soak N` plays N one-round matches per variant to their end with the masked random learner and
counts errors (an exception anywhere in reset or step) and illegal actions; both must be 0.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import asdict, dataclass
from typing import Any, cast

import gymnasium as gym
import numpy as np

from rummyai.envs import CURRENT_IDS, RummyEnv
from rummyai.errors import RummyError
from rummyai.variants import ONE_ROUND, get_variant

ENV_OF = CURRENT_IDS


@dataclass
class Row:
    """One measurement: a variant, its candidate builder and opponents, and the speed."""

    variant: str
    candidates: str
    opponents: str
    episodes: int
    learner_steps: int
    seconds: float
    steps_per_second: float
    solver_calls: int = 0
    solver_answers_reused: int = 0
    steps_per_cpu_second: float = 0.0


def pin_one_core() -> None:
    """Run on a single CPU so the figure is per core (best effort: Linux only)."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def masked_random(obs: dict[str, Any], rng: np.random.Generator) -> int:
    """A uniformly random valid slot."""
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


def measure(
    variant: str,
    candidates: str,
    opponents: str,
    seconds: float,
    players: int,
    warmup: int = 1,
    clock: str = "wall",
    episodes_wanted: int = 0,
    parts: dict[str, float] | None = None,
) -> Row:
    """Learner steps per second over whole one-round episodes, for at least `seconds` (of wall time,
    or of the process's CPU time with `clock` ``cpu``), or exactly `episodes_wanted` episodes
    (seeds 0, 1, ...) when positive, after `warmup` untimed episodes. `parts` (the counter of
    `timed_parts`, if any) is cleared after the warm-up."""
    env = cast(
        RummyEnv,
        gym.make(
            ENV_OF[variant],
            num_players=players,
            opponents=opponents,
            candidates=candidates,
            options=ONE_ROUND.get(variant),
        ).unwrapped,
    )
    rng = np.random.default_rng(0)
    for episode in range(warmup):  # untimed: loading the compiled solver, building its tables
        obs, _ = env.reset(seed=10**6 + episode)
        done = False
        while not done:
            obs, _, terminated, truncated, _ = env.step(masked_random(obs, rng))
            done = terminated or truncated
    steps = episodes = 0
    if parts is not None:
        parts.clear()
    start, cpu = time.perf_counter(), time.process_time()
    budget = (lambda: time.process_time() - cpu) if clock == "cpu" else (lambda: time.perf_counter() - start)
    while (episodes < episodes_wanted) if episodes_wanted > 0 else (budget() < seconds):
        obs, _ = env.reset(seed=episodes)
        done = False
        while not done:
            obs, _, terminated, truncated, _ = env.step(masked_random(obs, rng))
            steps += 1
            done = terminated or truncated
        episodes += 1
    elapsed, used = time.perf_counter() - start, time.process_time() - cpu
    stats = getattr(env.builder, "stats", None)
    calls = getattr(stats, "calls", 0)
    reused = sum(
        getattr(stats, name, 0)
        for name in ("cache_hits", "skipped", "known_zero", "out_of_reach", "relaxed_zero")
    )
    return Row(
        variant, candidates, opponents, episodes, steps, elapsed, steps / elapsed, calls, reused, steps / used
    )


def measure_vector(
    variant: str,
    opponents: str,
    seconds: float,
    players: int,
    workers: int,
    warmup: float = 3.0,
    clock: str = "wall",
) -> Row:
    """Learner steps per second (all workers together) of `AsyncVectorEnv` with `workers` processes,
    counted after `warmup` untimed seconds, for `seconds` (with `clock` ``cpu``: seconds of CPU
    time per worker, the workers' and the main process's together, warm-up included)."""
    from functools import partial

    make = partial(
        gym.make, ENV_OF[variant], num_players=players, opponents=opponents, options=ONE_ROUND.get(variant)
    )
    envs = gym.vector.AsyncVectorEnv([make] * workers)
    rng = np.random.default_rng(0)
    obs, _ = envs.reset(seed=0)
    pids = [process.pid for process in getattr(envs, "processes", [])]
    steps = episodes = 0
    cpu = 0.0
    start = time.perf_counter() + warmup
    counting = False
    ended = np.zeros(workers, dtype=bool)
    if clock == "cpu":
        limit = process_cpu(pids) + time.process_time() + (seconds + warmup) * workers
        warm_cpu = process_cpu(pids) + time.process_time() + warmup * workers

        def going() -> bool:
            return process_cpu(pids) + time.process_time() < limit

        def warm() -> bool:
            return process_cpu(pids) + time.process_time() >= warm_cpu
    else:

        def going() -> bool:
            return time.perf_counter() - start < seconds

        def warm() -> bool:
            return time.perf_counter() >= start

    while going():
        actions = [masked_random({"action_mask": m}, rng) for m in obs["action_mask"]]
        obs, _, terminated, truncated, _ = envs.step(np.array(actions))
        if counting:
            # a worker whose episode ended last step only reset in this one (Gymnasium's next-step
            # autoreset): no learner step
            steps += int(workers - ended.sum())
            episodes += int(np.sum(terminated | truncated))
        elif warm():  # the first `warmup` seconds are untimed
            counting, start = True, time.perf_counter()
            cpu = process_cpu(pids) + time.process_time()
        ended = terminated | truncated
    elapsed = time.perf_counter() - start
    used = process_cpu(pids) + time.process_time() - cpu
    envs.close()
    return Row(
        variant,
        f"auto, AsyncVectorEnv x{workers}",
        opponents,
        episodes,
        steps,
        elapsed,
        steps / elapsed,
        steps_per_cpu_second=steps / used if used > 0 else 0.0,
    )


#: Parts of a step timed by `--breakdown`: (label, owner, attribute). Indented labels run inside
#: the one above them (the candidate list of the learner's next decision).
PARTS: tuple[tuple[str, str, str], ...] = (
    ("candidates", "rummyai.envs.rummy_env:RummyEnv", "_refresh"),
    ("  solver calls", "rummyai.envs.solver_candidates:SolverCandidates", "_call"),
    ("  answers to engine plays", "rummyai.envs.solver_candidates", "solution_play"),
    ("  legal moves", "rummyai.envs.solver_candidates", "legal_moves"),
    ("  ranking and features", "rummyai.envs.solver_candidates", "rank_moves"),
    ("opponents' turns", "rummyai.envs.rummy_env:RummyEnv", "_play_opponents"),
    ("observation", "rummyai.envs.rummy_env:RummyEnv", "_observation"),
    # wherever they run in the step (the candidates' solver calls, a greedy opponent's)
    ("compiled search", "rummyai.solvers.run_dp", "kernels"),
    ("CP-SAT", "ortools.sat.python.cp_model:CpSolver", "solve"),
)


@contextmanager
def timed_parts() -> Iterator[dict[str, float]]:
    """CPU seconds spent in each of `PARTS` while inside (their functions wrapped, then restored)."""
    import importlib

    spent: dict[str, float] = {}
    undo: list[tuple[Any, str, Any]] = []

    def timer(label: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            begin = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                spent[label] = spent.get(label, 0.0) + time.process_time() - begin

        return timed

    def timed_kernels(label: str, kernels: Callable[..., Any]) -> Callable[..., Any]:
        """`dp_native.kernels` as the dynamic program reads it, its `search` timed."""

        def wrapped() -> Any:
            found = kernels()
            return found._replace(search=timer(label, found.search))

        return wrapped

    for label, where, name in PARTS:
        module, _, cls = where.partition(":")
        owner: Any = importlib.import_module(module)
        if cls:
            owner = getattr(owner, cls)
        original = owner.__dict__[name] if cls else getattr(owner, name)
        undo.append((owner, name, original))
        wrap = timed_kernels if name == "kernels" else timer
        setattr(owner, name, wrap(label.strip(), getattr(owner, name)))
    try:
        yield spent
    finally:
        for owner, name, original in reversed(undo):
            setattr(owner, name, original)


def print_breakdown(spent: dict[str, float], row: Row) -> None:
    """CPU milliseconds per learner step in each timed part, and its share of the row's CPU time."""
    total = row.learner_steps / row.steps_per_cpu_second if row.steps_per_cpu_second else 0.0
    for label, _, _ in PARTS:
        seconds = spent.get(label.strip(), 0.0)
        share = 100 * seconds / total if total else 0.0
        print(f"    {label:28s} {1000 * seconds / max(row.learner_steps, 1):7.3f} ms/step {share:5.1f}%")


def process_cpu(pids: list[int]) -> float:
    """CPU seconds (user + system) the processes `pids` have used so far (Linux; 0 elsewhere)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return total


def load_average() -> str:
    """The machine's 1-, 5- and 15-minute load averages (speed figures depend on them)."""
    if not hasattr(os, "getloadavg"):
        return "unknown"
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def rlcard_gin_rummy(seconds: float) -> Row | None:
    """RLCard's gin rummy with every seat random (each step is one player's action)."""
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("gin-rummy", config={"seed": 0})
    rng = np.random.default_rng(0)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"].keys())
            state, _ = env.step(int(rng.choice(legal)))
            steps += 1
        episodes += 1
    elapsed = time.perf_counter() - start
    return Row("rlcard gin-rummy", "-", "random (all seats)", episodes, steps, elapsed, steps / elapsed)


def soak(
    variants: list[str], episodes: int, players: int, max_turns: int | None = None, first_seed: int = 0
) -> list[dict[str, Any]]:
    """Play `episodes` one-round matches per variant to the end (or cut after `max_turns` turns);
    count errors and illegal actions."""
    results = []
    for variant in variants:
        env = cast(
            RummyEnv,
            gym.make(
                ENV_OF[variant], num_players=players, options=ONE_ROUND.get(variant), max_turns=max_turns
            ).unwrapped,
        )
        rng = np.random.default_rng(0)
        errors: list[str] = []
        steps = illegal = 0
        start = time.perf_counter()
        for episode in range(first_seed, first_seed + episodes):
            try:
                obs, _ = env.reset(seed=episode)
                done = False
                while not done:
                    obs, _, terminated, truncated, _ = env.step(masked_random(obs, rng))
                    steps += 1
                    done = terminated or truncated
                illegal += env.illegal_actions
            except (RummyError, AssertionError, ValueError, KeyError, IndexError) as error:
                errors.append(f"episode {episode}: {type(error).__name__}: {error}")
        row = {
            "variant": variant,
            "max_turns": max_turns,
            "episodes": episodes,
            "seeds": [first_seed, first_seed + episodes - 1],
            "learner_steps": steps,
            "errors": len(errors),
            "illegal_actions": illegal,
            "seconds": round(time.perf_counter() - start, 1),
            "first_errors": errors[:3],
        }
        print(json.dumps(row), flush=True)
        results.append(row)
    return results


def main(argv: list[str] | None = None) -> int:
    """Print the speed table (or the soak results)."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variants", default=",".join(ENV_OF), help="comma-separated variant ids")
    parser.add_argument("--candidates", default="auto", help="builders: auto, engine, solver")
    parser.add_argument(
        "--vector", type=int, default=2, help="also measure AsyncVectorEnv with N workers (0: do not)"
    )
    parser.add_argument("--opponents", default="random,greedy", help="opponent agents")
    parser.add_argument("--seconds", type=float, default=10.0, help="time per measurement")
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="what --seconds counts: wall time, or CPU time (a fixed amount of work on a loaded machine)",
    )
    parser.add_argument(
        "--episodes",
        type=int,
        default=0,
        help="single-environment rows: play exactly N episodes (seeds 0..N-1) instead of --seconds, "
        "the same work in every run (to compare two versions of the code)",
    )
    parser.add_argument(
        "--breakdown",
        action="store_true",
        help="single-environment rows: also print the CPU time per step of each part (timers around "
        "the functions in PARTS; they add a little time of their own)",
    )
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--soak", type=int, default=0, help="play N one-round episodes per variant")
    parser.add_argument("--json", help="also write the rows to this file")
    parser.add_argument("--max-turns", type=int, default=None, help="soak: cut each round after N turns")
    parser.add_argument("--first-seed", type=int, default=0, help="soak: seed of the first episode")
    parser.add_argument("--no-pin", action="store_true", help="do not pin the process to one CPU")
    args = parser.parse_args(argv)
    if not args.no_pin:
        pin_one_core()
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    if args.soak:
        results = soak(variants, args.soak, args.players, args.max_turns, args.first_seed)
        if args.json:
            with open(args.json, "w") as out:
                json.dump(results, out, indent=1)
        return 1 if any(r["errors"] or r["illegal_actions"] for r in results) else 0
    from rummyai.agents import AGENTS

    rows: list[Row] = []
    print(f"load average before: {load_average()}")
    print(
        "| variant | candidates | opponents | episodes | learner steps | steps/s | steps/CPU-s | solver calls "
        "| answers without a call |"
    )
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for variant in variants:
        tile = get_variant(variant).tile_style
        for candidates in args.candidates.split(","):
            if candidates == "solver" and not tile:
                continue  # solver candidates cover the tile-style turns
            for opponents in args.opponents.split(","):
                if opponents not in AGENTS:
                    continue
                with timed_parts() if args.breakdown else nullcontext() as spent:
                    row = measure(
                        variant,
                        candidates,
                        opponents,
                        args.seconds,
                        args.players,
                        clock=args.clock,
                        episodes_wanted=args.episodes,
                        parts=spent,
                    )
                rows.append(row)
                print(
                    f"| {row.variant} | {row.candidates} | {row.opponents} | {row.episodes} | "
                    f"{row.learner_steps} | {row.steps_per_second:.0f} | {row.steps_per_cpu_second:.0f} | "
                    f"{row.solver_calls} | {row.solver_answers_reused} |",
                    flush=True,
                )
                if spent is not None:
                    print_breakdown(spent, row)
            if args.vector:
                if hasattr(os, "sched_setaffinity"):
                    os.sched_setaffinity(0, range(os.cpu_count() or 1))
                for opponents in args.opponents.split(","):
                    row = measure_vector(
                        variant, opponents, args.seconds, args.players, args.vector, clock=args.clock
                    )
                    rows.append(row)
                    print(
                        f"| {row.variant} | {row.candidates} | {row.opponents} | {row.episodes} | "
                        f"{row.learner_steps} | {row.steps_per_second:.0f} | {row.steps_per_cpu_second:.0f} "
                        "| - | - |",
                        flush=True,
                    )
                if not args.no_pin:
                    pin_one_core()
    gin = rlcard_gin_rummy(args.seconds)
    if gin is not None:
        rows.append(gin)
        print(
            f"| {gin.variant} | - | {gin.opponents} | {gin.episodes} | {gin.learner_steps} | "
            f"{gin.steps_per_second:.0f} | - | - | - |"
        )
    print(f"load average after: {load_average()}")
    if args.json:
        with open(args.json, "w") as out:
            json.dump([asdict(r) for r in rows], out, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
