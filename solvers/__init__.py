"""Exact meld-partition solvers: OR-Tools CP-SAT models and a compiled dynamic program.

`solve` answers one position (hand, table, opened) with a `Solution`; `solve_json` implements the
CLI's JSON contract. Modules: `position` (checked input, `Solution`), `tile_model` (the CP-SAT
model for the other variants) with `tile_solve` (its entry point), `rhine_repair` (Rhine's
judge-checked repair) and `opening_swaps` (Rummy Palace swaps on an opening turn),
`black_heart` (Black Heart Rum's model: escorts, diamond wilds, the Royale, the opening chart),
`fast` (cached model for the free-joker variants) with `run_dp` (the compiled dynamic program
that answers its opened turns first), `reference`
and `reference_black_heart` (exhaustive search for tests), `check` (independent validity check) and
`random_positions` (seeded positions for tests and benchmarks).
"""

from rummyai.solvers.api import solve, solve_json
from rummyai.solvers.position import Position, Solution, make_position

__all__ = ["Position", "Solution", "make_position", "solve", "solve_json"]
