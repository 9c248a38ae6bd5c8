"""Where the rummikub solver's time goes: CP-SAT branches under other settings and with hints.

On the benchmark's 200 rummikub positions (`solver_bench.positions`) this builds the cards-only
tile model of each position and solves it with the fast path's settings, then with one change
at a time, and reports CP-SAT's branch counts (deterministic, unlike wall time on a shared
machine) with its wall time. The hint probes solve each model again with a solution hint taken
from its own optimal answer: all of it, only the hand counts, or only the table layout. They
bound what a warm start could save: the search finds the answer in most of its branches and
proves it in few.

    .venv/bin/python experiments/benchmarks/solver_probe.py [--positions 200]
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Iterable
from typing import Any

from ortools.sat.python import cp_model
from solver_bench import positions

from rummyai.cpsat import cp_solver
from rummyai.solvers import make_position
from rummyai.solvers.tile_model import TileModel

BASE: dict[str, Any] = {
    "num_workers": 1,
    "cp_model_presolve": False,
    "cut_level": 0,
    "optimize_with_lb_tree_search": True,
}
SETTINGS: dict[str, dict[str, Any]] = {
    "fast path (as shipped)": {},
    "no lb tree search": {"optimize_with_lb_tree_search": False},
    "linearization 2": {"linearization_level": 2},
    "core-based": {"optimize_with_lb_tree_search": False, "optimize_with_core": True},
    "fixed search": {"search_branching": cp_model.FIXED_SEARCH},
    "pseudo-cost search": {
        "optimize_with_lb_tree_search": False,
        "search_branching": cp_model.PSEUDO_COST_SEARCH,
    },
}


def run(model: cp_model.CpModel, **changes: Any) -> tuple[int, float]:
    """Branches and wall milliseconds of one solve; the answer must be proven."""
    solver = cp_solver()
    for name, value in {**BASE, **changes}.items():
        setattr(solver.parameters, name, value)
    status = solver.solve(model)
    assert status == cp_model.OPTIMAL, solver.status_name(status)
    return solver.num_branches, solver.wall_time * 1000


def hinted(tm: TileModel, values: list[int], indices: Iterable[int]) -> cp_model.CpModel:
    """A copy of the model hinted with the optimal values of the variables at `indices`."""
    model = cp_model.CpModel()
    model.proto.copy_from(tm.model.proto)
    for index in indices:
        model.add_hint(model.get_int_var_from_proto_index(index), values[index])
    return model


def summary(rows: list[tuple[int, float]]) -> str:
    """median / p90 / max of branches, then of wall ms."""
    out = []
    for column in (0, 1):
        ordered = sorted(row[column] for row in rows)
        p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
        out.append(f"{statistics.median(ordered):7.1f} {p90:7.1f} {ordered[-1]:8.1f}")
    return "   ".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    args = parser.parse_args()
    models = []
    for hand, table in positions("rummikub", args.positions, 0):
        tm = TileModel(make_position("rummikub", hand, table), "cards", None, minimize_changes=False)
        if tm.played:  # positions with a playable card (the others never reach CP-SAT)
            models.append(tm)
    results: dict[str, list[tuple[int, float]]] = {name: [] for name in SETTINGS}
    hints: dict[str, list[tuple[int, float]]] = {
        "hint: whole optimal answer": [],
        "hint: hand counts only": [],
        "hint: table layout only": [],
    }
    for tm in models:
        for name, changes in SETTINGS.items():
            results[name].append(run(tm.model, **changes))
        solver = cp_solver()
        for name, value in BASE.items():
            setattr(solver.parameters, name, value)
        solver.solve(tm.model)
        count = len(tm.model.proto.variables)
        values = [solver.value(tm.model.get_int_var_from_proto_index(i)) for i in range(count)]
        hand_vars = {var.index for var in tm.played.values()}
        layout_vars = set(range(count)) - hand_vars
        hints["hint: whole optimal answer"].append(run(hinted(tm, values, range(count))))
        hints["hint: hand counts only"].append(run(hinted(tm, values, hand_vars)))
        hints["hint: table layout only"].append(run(hinted(tm, values, layout_vars)))
    print(f"{len(models)} rummikub positions with a playable card; cards-only model")
    print(f"{'setting':28s} {'branches: median     p90      max':34s}   wall ms: median / p90 / max")
    for name, rows in {**results, **hints}.items():
        print(f"{name:28s} {summary(rows)}")


if __name__ == "__main__":
    main()
