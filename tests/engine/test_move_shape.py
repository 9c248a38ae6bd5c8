"""Malformed move objects built in Python are refused by name, not with an exception from inside
a rule check, and a True or 1.0 never passes as a card index."""

from __future__ import annotations

import numpy as np
import pytest

from rummyai.engine.discard_moves import LayOff, MeldCards, TakeDiscard
from rummyai.engine.discard_setup import build_state, hand_ids
from rummyai.engine.game import apply, legal_moves, new_match, validate
from rummyai.engine.moves import Play
from rummyai.engine.state import TableMeld
from rummyai.errors import IllegalMoveError

PALACE = build_state("rummy-palace", ["5C 6C 7C 8D", "2C 3C 4C"], table=["6H 7H 8H"], phase="play")
RUMMIKUB = new_match("rummikub", 2, 1)
STANDARD = build_state("standard", ["5C 6C 7C 8D", "2C 3C 4C"], discard="9S 9H", stock="2D 3D", phase="draw")


@pytest.mark.parametrize(
    ("state", "move", "message"),
    [
        (
            PALACE,
            MeldCards(TableMeld(tuple(hand_ids(PALACE, 0, "5C 6C 7C")), ("x", None, None))),  # type: ignore[arg-type]
            "MeldCards.meld.meanings[0] is 'x'",
        ),
        (PALACE, LayOff(0, None), "LayOff.meld must be a TableMeld, got None"),  # type: ignore[arg-type]
        (STANDARD, TakeDiscard(1.0), "TakeDiscard.index must be a whole number, got 1.0"),  # type: ignore[arg-type]
        (STANDARD, TakeDiscard(True), "TakeDiscard.index must be a whole number, got True"),
        (STANDARD, "draw", "'draw' is not a move"),
        (RUMMIKUB, Play(("3C 4C 5C",)), "Play.table[0] must be a TableMeld"),  # type: ignore[arg-type]
    ],
)
def test_a_malformed_move_is_refused_naming_the_field(state: object, move: object, message: str) -> None:
    violation = validate(state, move)  # type: ignore[arg-type]
    assert violation is not None and violation.rule == "move" and message in violation.reason
    with pytest.raises(IllegalMoveError, match="malformed move"):
        apply(state, move)  # type: ignore[arg-type]


def test_numpy_integers_are_whole_numbers() -> None:
    assert validate(STANDARD, TakeDiscard(np.int64(0))) == validate(STANDARD, TakeDiscard(0))


@pytest.mark.parametrize("odd", [float, bool])
def test_a_meld_id_that_is_not_an_int_is_refused_even_after_its_play_was_checked(odd: type) -> None:
    """The rule checks remember their answers, and 11.0 == 11 (True == 1) as a key: the move's
    shape is checked first, so the same malformed play is refused however often it comes."""
    state = new_match("rummikub", 2, 0)  # its first seat can open
    play = next(m for m in legal_moves(state) if isinstance(m, Play))
    last = play.table[-1]
    bad_id = float(last.ids[0]) if odd is float else True
    bad = Play((*play.table[:-1], TableMeld((bad_id, *last.ids[1:]), last.meanings)))
    for _ in range(2):
        assert validate(state, play) is None
        violation = validate(state, bad)
        assert violation is not None and "must be a whole number" in violation.reason
