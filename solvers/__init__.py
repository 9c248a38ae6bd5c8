"""Exact meld-partition solvers: `solve` (CP-SAT) and `solve_json` (the CLI's JSON contract)."""

from rummyai.solvers.api import solve, solve_json
from rummyai.solvers.position import Position, Solution, make_position

__all__ = ["Position", "Solution", "make_position", "solve", "solve_json"]
