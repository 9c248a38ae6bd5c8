"""The CP-SAT solver every model of the package runs on, configured in one place."""

from __future__ import annotations

from typing import Any


def cp_solver() -> Any:
    """A CP-SAT solver on one worker (deterministic answers under a work limit) that leaves
    Ctrl-C to Python. With OR-Tools' default `catch_sigint_signal`, SIGINT is left at the system
    default after a solve, so a later Ctrl-C killed the process outright instead of raising the
    `KeyboardInterrupt` with which tournaments and training stop cleanly and say how to resume."""
    from ortools.sat.python import cp_model  # OR-Tools loads on first use only

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.catch_sigint_signal = False
    return solver
