"""Which lane of the worker pool a request joins: ``fast`` when it is cheap to answer, else ``hard``.

A hint or solve is cheap when the solver's fast path answers it (`rummyai.solvers.fast.fast_path_ok`:
an opened turn of a free-joker tile variant without duties, proven by the compiled dynamic program
in about a millisecond); a move check is cheap unless its new table leaves the meanings of many
wilds unstated (the judge tries their readings, twice as many for each one). The request is read
here with the same checks the worker makes, so bad input is answered at once, without a worker.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from rummyai.hint.pool import Lane

#: The extra keys each job reads besides the position (as its worker does).
JOB_KEYS: dict[str, tuple[str, ...]] = {
    "hint": ("objective", "alternatives", "time_limit"),
    "solve": ("objective", "time_limit", "max_cards", "minimize_changes"),
    "validate": ("new_table",),
}


#: Wilds a move check's new table may leave unstated and still go to the fast lane.
UNSTATED_WILDS_FAST = 4


def load() -> None:
    """Import what `lane_of` reads requests with (the hint reader and the solver's fast-path check)
    ahead of the first request; a service does it in a thread while its workers start."""
    import_module("rummyai.hint.api")
    import_module("rummyai.solvers.fast")


def lane_of(job: str, obj: dict[str, Any]) -> Lane:
    """The lane of a request; raises `RummyError` naming bad input (the worker's own message)."""
    from rummyai.hint.api import read_hint_request
    from rummyai.hint.position import position_from_json
    from rummyai.melds import read_table
    from rummyai.solvers.duties import check_duties, check_opening_objective
    from rummyai.solvers.fast import fast_path_ok
    from rummyai.solvers.position import Position

    position = read_hint_request(obj)[0] if job == "hint" else position_from_json(obj, JOB_KEYS[job])[0]
    if job == "validate":
        wilds = position.variant.is_wild
        unstated = sum(
            1
            for meld in read_table(obj["new_table"], "new table")
            for s in meld
            if s.meaning is None and wilds(s.card)
        )
        return "fast" if unstated <= UNSTATED_WILDS_FAST else "hard"
    max_cards = obj.get("max_cards")
    cap = None if max_cards is None or max_cards >= len(position.hand) else int(max_cards)
    if cap is not None:
        check_duties(position.variant, position.hand, position.committed, position.taken, position.score, cap)
    if job == "solve" and obj.get("objective") == "opening":
        duties = bool(position.committed) or position.taken is not None or cap is not None
        check_opening_objective(position.variant, duties)
    if position.committed or position.taken is not None:
        return "hard"
    quick = Position(position.variant, position.hand, (), position.opened)
    return "fast" if fast_path_ok(quick, cap) else "hard"
