"""The ``opening`` objective: the smallest play that meets the variant's opening requirement with
new melds from the hand alone, the table left as it is.

A player who has not opened asks how to come down while keeping the most cards back: the fewest
hand cards whose new melds reach the opening (30 points, or Rhine's meld of three naturals);
ties go to the fewest wilds (they are worth most kept), then to the most points. The tile model
of the hand against an empty table, unopened, already states the opening rule; here it must
play something and the fewest cards win.
"""

from __future__ import annotations

import time

from ortools.sat.python import cp_model

from rummyai.cards import JOKER, Slot
from rummyai.solvers.duties import check_opening_objective
from rummyai.solvers.position import Position, Solution, time_left
from rummyai.solvers.tile_decode import decode
from rummyai.solvers.tile_model import TileModel, solve_model


def solve_opening(position: Position, time_limit: float | None, work_limit: float | None) -> Solution:
    """The fewest hand cards, then wilds, then the most points, laid down as new melds that meet
    the opening requirement; nothing played (proven) when the hand cannot open. `position.opened`
    is not read: the answer is the opening the hand could make."""
    start = time.perf_counter()
    rules = position.variant
    check_opening_objective(rules, False)
    bare = Position(rules, position.hand, (), False)
    # a points opening is read as an exclusive opening turn: the new melds themselves must be
    # worth the points (Rhine's qualify-then-play model would let a joker counted at one end of a
    # run be written at the other); Rhine's one meld of naturals is its qualifying meld
    exclusive = rules.opening_turn_exclusive or rules.opening == "points"
    tm = TileModel(bare, "cards", None, False, opening=exclusive)
    hand_values = rules.hand_values
    points_room = sum(hand_values[c] for c in position.hand) + 1
    wilds = tm.played.get(JOKER, 0)  # every wild the hand plays (jokers, wild twos)
    wilds_room = sum(1 for c in position.hand if c == JOKER or rules.always_wild(c)) + 1
    tm.model.add(tm.cards_expr >= 1)
    tm.model.minimize((tm.cards_expr * wilds_room + wilds) * points_room - tm.points_expr)
    solver, status = solve_model(tm, time_left(start, time_limit), work_limit)
    played: list[int] = []
    new: list[tuple[Slot, ...]] = []
    label = "optimal" if status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) else "feasible"
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        played, new, _ = decode(tm, solver)
    melds = (*(tuple(info.slots) for info in position.table), *new)
    points = sum(hand_values[c] for c in played)
    ms = (time.perf_counter() - start) * 1000
    return Solution(tuple(sorted(played)), melds, label, "opening", len(played), len(played), points, ms)
