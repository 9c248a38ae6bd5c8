"""Solver benchmark: rummyai's solver against PyPI `rummikub-solver` 1.0.0 (GLPK_MI).

On rummikub's opened turns rummyai's answer comes from its compiled dynamic program
(`rummyai.solvers.run_dp`), CP-SAT standing by; the CP-SAT model alone is timed on the same
positions too, and the two exact methods must agree on every position (cards and points).

Both solve the same 200 deterministic `rummikub` positions (table empty or 3-60 tiles dealt as
random runs of 3-5 and groups of 3-4 with jokers anywhere, hand 6-20 tiles), warm (each solver
set up once, one untimed solve first). rummikub-solver runs in a subprocess from its own venv
(created on first use under the cache dir, never in the project venv), because OR-Tools and
its MILP back ends ship clashing native libraries. The script prints median / p90 / max
milliseconds per solve for both, checks that both find the same number of tiles (two independent
exact models), and plots solve time against table size (rummyai's cards-only solves, the mode
that matches rummikub-solver's tile count). It also times rummyai alone on
`rummy-board`, `rummy-tiles`, `rhine` and `rummy-palace` positions made the same way.

    .venv/bin/python experiments/solver_bench.py [--positions 200] [--seed 0] [--plot FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rummyai.cards import JOKER
from rummyai.solvers import make_position, solve
from rummyai.solvers.check import check_solution
from rummyai.solvers.fast import solve_fast
from rummyai.solvers.position import Position, Solution
from rummyai.solvers.random_positions import random_position

CACHE = Path(os.environ.get("RUMMYAI_CACHE", Path.home() / ".cache" / "rummyai"))
VENV = CACHE / "rummikub-solver-venv"

# Runs inside the rummikub-solver venv: reads positions (tile numbers) on stdin, prints results.
CHILD = r"""
import json, sys, time
from rummikub_solver import GameState, MILPSolver, RuleSet, SolverMode
rs = RuleSet(solver_backend=MILPSolver.GLPK_MI)
positions = json.load(sys.stdin)
def run(p):
    state = rs.new_game()
    state.initial = False
    state.add_rack(*p["rack"])
    if p["table"]:
        state.add_table(*p["table"])
    t = time.perf_counter()
    sol = rs.solve(state, SolverMode.TILE_COUNT)
    ms = (time.perf_counter() - t) * 1000
    return {"tiles": 0 if sol is None else len(sol.tiles), "ms": ms}
run(positions[0])
print(json.dumps([run(p) for p in positions]))
"""


@dataclass
class Args:
    """Benchmark arguments."""

    positions: int = 200  # number of rummikub positions
    seed: int = 0  # base seed of the positions
    plot: str = "experiments/solver_bench.png"  # where to save the time-vs-table-size plot
    no_baseline: bool = False  # skip rummikub-solver (no venv needed)


def positions(variant: str, count: int, seed: int) -> list[tuple[list[int], list]]:
    """Deterministic positions: table empty (1 in 10) or 3-60 tiles, hand 6-20 tiles."""
    out = []
    for i in range(count):
        rng = random.Random(seed * 100_003 + i)
        table_size = 0 if rng.random() < 0.1 else rng.randint(3, 60)
        out.append(random_position(variant, seed * 100_003 + i, table_size, rng.randint(6, 20)))
    return out


def ensure_venv() -> Path:
    """The baseline's own venv (created once under the cache dir)."""
    python = VENV / "bin" / "python"
    if not python.exists():
        print(f"creating {VENV} for rummikub-solver 1.0.0 + cvxopt ...", file=sys.stderr)
        VENV.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", "rummikub-solver==1.0.0", "cvxopt"], check=True
        )
    return python


def to_tiles(cards: list[int]) -> list[int]:
    """rummikub-solver tile numbers: colour-major 1..52, joker 53 (our kinds + 1)."""
    return [53 if c == JOKER else c + 1 for c in cards]


def baseline(cases: list[tuple[list[int], list]]) -> list[dict[str, float]]:
    """Solve every case with rummikub-solver (GLPK_MI) in its own process."""
    python = ensure_venv()
    payload = [
        {"rack": to_tiles(hand), "table": to_tiles([s.card for meld in table for s in meld])}
        for hand, table in cases
    ]
    done = subprocess.run(
        [str(python), "-c", CHILD], input=json.dumps(payload), capture_output=True, text=True
    )
    if done.returncode:
        raise SystemExit(f"rummikub-solver failed:\n{done.stderr[-2000:]}")
    result: list[dict[str, float]] = json.loads(done.stdout)
    return result


def timed(
    variant: str, cases: list[tuple[list[int], list]], answer: Callable[[Position], Solution]
) -> list[tuple[Solution, float]]:
    """Each case's answer with its wall milliseconds (one untimed warm-up first); every answer checked."""
    run = [make_position(variant, hand, table) for hand, table in cases]
    answer(run[0])
    out = []
    for position in run:
        start = time.perf_counter()
        sol = answer(position)
        ms = (time.perf_counter() - start) * 1000
        check_solution(position, sol)
        out.append((sol, ms))
    return out


def ours(variant: str, cases: list[tuple[list[int], list]], **kwargs: Any) -> list[tuple[Solution, float]]:
    """rummyai's `solve` on every case (`kwargs` passed on)."""
    return timed(variant, cases, lambda p: solve(variant, p.hand, [i.slots for i in p.table], **kwargs))


def row(label: str, results: list[tuple[Solution, float]]) -> str:
    """One line of the table: median / p90 / max ms and how many answers are proven optimal."""
    proven = sum(sol.status == "optimal" for sol, _ in results)
    return f"{label:44s} {stats([ms for _, ms in results])}  {proven}/{len(results)}"


def stats(times: list[float]) -> str:
    """median / p90 / max in ms."""
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"{statistics.median(ordered):7.2f} {p90:7.2f} {ordered[-1]:7.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=Args.positions)
    parser.add_argument("--seed", type=int, default=Args.seed)
    parser.add_argument("--plot", default=Args.plot)
    parser.add_argument("--no-baseline", action="store_true")
    ns = parser.parse_args()
    cases = positions("rummikub", ns.positions, ns.seed)
    table_sizes = [sum(len(m) for m in table) for _, table in cases]
    print(f"{len(cases)} rummikub positions, seed {ns.seed}; times in ms per warm solve")
    print(f"{'solver':44s}  median     p90     max  optimal")
    mine = ours("rummikub", cases)
    print(row("rummyai (cards, fewest melds broken)", mine))
    plain = ours("rummikub", cases, minimize_changes=False)
    print(row("rummyai (cards only)", plain))
    cp = timed("rummikub", cases, lambda p: solve_fast(p, "cards", None, minimize_changes=False))
    print(row("rummyai CP-SAT model alone (cards only)", cp))
    agree = sum(
        (a.cards_played, a.points_played) == (b.cards_played, b.points_played)
        for (a, _), (b, _) in zip(plain, cp, strict=True)
    )
    print(f"dynamic program and CP-SAT agree (cards, points) on {agree}/{len(cases)} positions")
    base: list[dict[str, float]] = []
    if not ns.no_baseline:
        base = baseline(cases)
        print(f"{'rummikub-solver 1.0.0 GLPK_MI':44s} {stats([b['ms'] for b in base])}")
        more = [
            i for i, ((m, _), b) in enumerate(zip(mine, base, strict=True)) if m.cards_played > b["tiles"]
        ]
        fewer = [
            i for i, ((m, _), b) in enumerate(zip(mine, base, strict=True)) if m.cards_played < b["tiles"]
        ]
        print(
            f"tiles played: equal on {len(cases) - len(more) - len(fewer)}/{len(cases)}, rummyai more on "
            f"{len(more)} {more[:10]}, fewer on {len(fewer)} {fewer[:10]} (every rummyai answer is checked valid)"
        )
    for variant, offset in (("rummy-board", 1), ("rummy-tiles", 2), ("rhine", 3), ("rummy-palace", 4)):
        count = ns.positions if variant == "rummy-board" else max(ns.positions // 4, 1)
        res = ours(variant, positions(variant, count, ns.seed + offset))
        print(row(f"rummyai on {variant} ({count})", res))
    if ns.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(6, 4))
        ax.scatter(table_sizes, [ms for _, ms in plain], s=10, label="rummyai (cards only)")
        ax.scatter(table_sizes, [ms for _, ms in cp], s=10, marker="x", label="rummyai CP-SAT model alone")
        if base:
            ax.scatter(table_sizes, [b["ms"] for b in base], s=10, label="rummikub-solver GLPK_MI")
        ax.set_xlabel("tiles on the table")
        ax.set_ylabel("ms per solve")
        ax.set_yscale("log")
        ax.legend()
        fig.tight_layout()
        fig.savefig(ns.plot, dpi=120)
        print(f"plot saved to {ns.plot}")


if __name__ == "__main__":
    main()
