"""Warm start benchmark: the fast path's cards-only solve with and without `warm_start`'s hint.

On `solver_bench.py`'s positions (200 rummikub ones by default) each position is solved twice,
interleaved so both see the same machine load:

* plain: `rummyai.solvers.fast.solve_fast` as shipped (cards only, no fewest-broken phase);
* warm: the same phase, but first `warm_start` lays the hand greedily; when that layout plays
  every card `playable_cards` allows it is the answer (no CP-SAT call). Otherwise, three ways:
  "hinted" puts it into the universe proto as a complete solution hint (cleared after); "must
  beat it" bounds the objective to plays strictly better than it (an infeasible search proves
  the layout optimal); "skip only" solves as plain. A last mode, "oracle", bounds what any warm
  start could give: the optimum itself (solved beforehand, untimed) used the same way.

Reported: how often the heuristic alone is optimal and how often that is proven without
CP-SAT; the heuristic's CPU time; CP-SAT branches (deterministic) and CPU milliseconds of a
whole solve (`time.process_time`, the best of `--repeat` runs per position: the machine is
shared, so wall time lies) as median / p90 / max, both ways. Every answer is checked by
`check_solution`, must be proven optimal, and both ways must agree on cards and points.
`fast.py` is not edited: the warm solve is written here from its parts, and `fast._solve` is
wrapped only to count branches.

    .venv/bin/python experiments/warm_start_bench.py [--positions 200] [--seed 0] [--repeat 3]
        [--variant rummikub]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from ortools.sat.python import cp_model
from solver_bench import positions

from rummyai.playable import playable_cards
from rummyai.solvers import fast, make_position
from rummyai.solvers.check import check_solution
from rummyai.solvers.position import Position, Solution
from rummyai.solvers.tile_model import decode
from rummyai.solvers.warm_start import Values, hint_values, is_optimal_alone, warm_start

_ORIGINAL_SOLVE = fast._solve
_BRANCHES: list[int] = []


def _counting_solve(solver: cp_model.CpSolver, model: cp_model.CpModel, *limits: Any) -> Any:
    """`fast._solve`, recording the branches of each call."""
    status = _ORIGINAL_SOLVE(solver, model, *limits)
    _BRANCHES.append(solver.num_branches)
    return status


def plain(position: Position) -> tuple[Solution, int]:
    """The shipped fast path, cards only: the solution and CP-SAT's branches (0 if no call)."""
    _BRANCHES.clear()
    solution = fast.solve_fast(position, "cards", None, minimize_changes=False)
    return solution, sum(_BRANCHES)


def warm(position: Position, use: str = "hint", plans: int = 1) -> tuple[Solution, int]:
    """The fast path's cards-only phase with the warm start: no CP-SAT when the greedy layout is
    provably optimal; else the solve gets the layout as a complete hint (`use="hint"`), or a
    bound on the objective that only a strictly better play meets (`use="beat"`: infeasible
    means the layout is optimal), or nothing (`use="skip"`)."""
    start = time.perf_counter()
    universe = fast._universe(position.variant)
    table = [c for info in position.table for c in info.cards]
    if not playable_cards(position.variant, position.hand, table, True):
        return fast._solution(position, "cards", [], [], "optimal", start), 0
    base = universe.tm.model
    universe.prepare(base, position)
    layout = warm_start(position, plans)
    templates = dict(universe.templates)  # cards -> proto index (cached on the universe when wired in)
    size = len(base.proto.variables)
    values = hint_values(layout, templates, universe.allowance, universe.played, size)
    view = fast._View(universe, position, {})
    if is_optimal_alone(position, layout):
        played, melds, _ = decode(view, Values(values))
        return fast._solution(position, "cards", played, melds, "optimal", start), 0
    fast._set_objective(universe, base, position, "cards", 1)
    proto = base.proto
    if use == "hint":
        proto.solution_hint.vars.extend(range(size))
        proto.solution_hint.values.extend(values)
    elif use == "beat":
        objective = proto.objective
        reached = sum(c * values[v] for v, c in zip(objective.vars, objective.coeffs, strict=True))
        objective.domain.extend([-(1 << 62), reached - 1])  # minimised: strictly better than the layout
    solver = cp_model.CpSolver()
    try:
        status = fast._solve(solver, base, None, None)
    finally:
        proto.clear_solution_hint()
        proto.objective.domain.clear()
    if use == "beat" and status == cp_model.INFEASIBLE:
        played, melds, _ = decode(view, Values(values))
        return fast._solution(position, "cards", played, melds, "optimal", start), solver.num_branches
    assert status == cp_model.OPTIMAL, solver.status_name(status)
    played, melds, _ = decode(view, solver)
    return fast._solution(position, "cards", played, melds, "optimal", start), solver.num_branches


_OPTIMA: dict[int, list[int]] = {}  # id(position) -> the universe's values at an optimum


def optimum_values(position: Position) -> list[int]:
    """Every universe variable's value at an optimum (a plain solve, not timed)."""
    universe = fast._universe(position.variant)
    base = universe.tm.model
    universe.prepare(base, position)
    fast._set_objective(universe, base, position, "cards", 1)
    solver = cp_model.CpSolver()
    status = _ORIGINAL_SOLVE(solver, base, None, None)
    assert status == cp_model.OPTIMAL
    return [int(solver.value(base.get_int_var_from_proto_index(i))) for i in range(len(base.proto.variables))]


def oracle(position: Position) -> tuple[Solution, int]:
    """A perfect warm start at no cost: the optimum itself (computed beforehand), as the answer
    when it plays every playable card, else as a complete hint. The ceiling of any warm start."""
    start = time.perf_counter()
    universe = fast._universe(position.variant)
    table = [c for info in position.table for c in info.cards]
    playable = playable_cards(position.variant, position.hand, table, True)
    if not playable:
        return fast._solution(position, "cards", [], [], "optimal", start), 0
    base = universe.tm.model
    universe.prepare(base, position)
    values = _OPTIMA[id(position)]
    view = fast._View(universe, position, {})
    if sum(values[i] for i in universe.played.values()) == len(playable):
        played, melds, _ = decode(view, Values(values))
        return fast._solution(position, "cards", played, melds, "optimal", start), 0
    fast._set_objective(universe, base, position, "cards", 1)
    base.proto.solution_hint.vars.extend(range(len(values)))
    base.proto.solution_hint.values.extend(values)
    solver = cp_model.CpSolver()
    try:
        status = fast._solve(solver, base, None, None)
    finally:
        base.proto.clear_solution_hint()
    assert status == cp_model.OPTIMAL, solver.status_name(status)
    played, melds, _ = decode(view, solver)
    return fast._solution(position, "cards", played, melds, "optimal", start), solver.num_branches


def timed(
    run: Callable[[Position], tuple[Solution, int]], position: Position, repeat: int
) -> tuple[Solution, int, float]:
    """The answer, branches and the least CPU milliseconds over `repeat` runs."""
    best = float("inf")
    for _ in range(repeat):
        cpu = time.process_time()
        solution, branches = run(position)
        best = min(best, (time.process_time() - cpu) * 1000)
    return solution, branches, best


def stats(values: list[float]) -> str:
    """median / p90 / max."""
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"{statistics.median(ordered):8.2f} {p90:8.2f} {ordered[-1]:8.2f}"


def heuristic_ms(position: Position, repeat: int, plans: int) -> float:
    """Least CPU milliseconds of `warm_start` alone over `repeat` runs."""
    best = float("inf")
    for _ in range(repeat):
        cpu = time.process_time()
        warm_start(position, plans)
        best = min(best, (time.process_time() - cpu) * 1000)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--plans", type=int, default=1, help="greedy card orders tried (1..3)")
    parser.add_argument("--variant", default="rummikub", choices=["rummikub", "rummy-board"])
    ns = parser.parse_args()
    fast._solve = _counting_solve
    cases = [make_position(ns.variant, h, t) for h, t in positions(ns.variant, ns.positions, ns.seed)]
    modes: dict[str, Callable[[Position], tuple[Solution, int]]] = {
        "plain": plain,
        "warm, hinted": lambda p: warm(p, "hint", ns.plans),
        "warm, must beat it": lambda p: warm(p, "beat", ns.plans),
        "warm, skip only": lambda p: warm(p, "skip", ns.plans),
        "oracle (optimum, free)": oracle,
    }
    for position in cases:
        _OPTIMA[id(position)] = optimum_values(position)
    for run in modes.values():
        run(cases[0])
    rows = [measure(position, modes, ns) for position in cases]
    report(ns, rows, list(modes))


def measure(
    position: Position, modes: dict[str, Callable[[Position], tuple[Solution, int]]], ns: argparse.Namespace
) -> dict[str, Any]:
    """Every mode on one position (interleaved), each answer checked against the plain one."""
    row: dict[str, Any] = {}
    reference: tuple[int, int] | None = None
    for name, run in modes.items():
        solution, branches, ms = timed(run, position, ns.repeat)
        check_solution(position, solution)
        assert solution.status == "optimal"
        key = (solution.cards_played, solution.points_played)
        assert reference is None or key == reference, (name, key, reference)
        reference = key
        row[name] = (branches, ms)
    assert reference is not None
    layout = warm_start(position, ns.plans)
    table = [c for info in position.table for c in info.cards]
    row["searched"] = bool(playable_cards(position.variant, position.hand, table, True))
    row["greedy_optimal"] = len(layout.played) == reference[0]
    row["alone"] = is_optimal_alone(position, layout)
    row["heuristic_ms"] = heuristic_ms(position, ns.repeat, ns.plans)
    return row


def report(ns: argparse.Namespace, rows: list[dict[str, Any]], modes: list[str]) -> None:
    """Print the figures."""
    n = len(rows)
    searched = [r for r in rows if r["searched"]]
    print(
        f"{n} {ns.variant} positions (seed {ns.seed}), cards only; CPU ms best of {ns.repeat}; plans {ns.plans}"
    )
    print(f"positions with a playable card (plain calls CP-SAT): {len(searched)}")
    print(f"greedy layout plays as many cards as the optimum: {sum(r['greedy_optimal'] for r in rows)}/{n}")
    print(f"proven optimal without CP-SAT (plays every playable card): {sum(r['alone'] for r in rows)}/{n}")
    print(f"heuristic CPU ms, median / p90 / max: {stats([r['heuristic_ms'] for r in rows])}")
    good = [r for r in searched if r["greedy_optimal"]]
    bad = [r for r in searched if not r["greedy_optimal"]]
    print(f"{'':34s} {'median':>8s} {'p90':>8s} {'max':>8s}")
    for name in modes:
        print(f"{name + ' branches':34s} {stats([r[name][0] for r in searched])}")
    for label, part in (("greedy optimal", good), ("greedy short", bad)):
        if part:
            for name in ("plain", "warm, hinted", "warm, must beat it"):
                text = f"  {name}, {label} ({len(part)})"
                print(f"{text:34s} {stats([r[name][0] for r in part])}")
    for name in modes:
        print(f"{name + ' CPU ms':34s} {stats([r[name][1] for r in rows])}")
    print(f"all {n} answers proven optimal and checked; every mode plays the same cards and points")


if __name__ == "__main__":
    main()
