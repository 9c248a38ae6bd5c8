"""Recorded draw-and-discard moves (the JSON form of `move_to_json`): a malformed record raises a
typed error naming the field (docs/rules §0), and every generated move reads back whole."""

from __future__ import annotations

import pytest

from rummyai.engine.discard import DiamondSwap, move_from_json, move_to_json
from rummyai.engine.discard_setup import build_state
from rummyai.engine.game import apply, legal_moves
from rummyai.errors import RummyError

BH = "black-heart"


@pytest.mark.parametrize(
    ("data", "named"),
    [
        ({"type": "take"}, "'index'"),
        ({"type": "take", "index": "x"}, "whole number"),
        ({"type": "take", "index": 1.5}, "whole number"),
        ({"type": "take", "index": True}, "whole number"),
        ({"type": "discard", "card": None}, "whole number"),
        ({"type": "meld", "meld": {"ids": [1]}}, "'meanings'"),
        ({"type": "meld", "meld": 5}, "object"),
        ({"type": "meld", "meld": {"ids": [1], "meanings": [None], "escorts": ["a"]}}, "escort id"),
        ({"type": "meld", "meld": {"ids": [1], "meanings": [9]}}, "meaning"),
        ({"type": "layoff", "target": 0}, "'meld'"),
        ({"type": "opening", "plays": 5}, "list"),
        ({"type": "joker_swap", "target": 0, "joker": 1, "replacement": 2}, "'place'"),
        ({"type": "fly"}, "unknown move type"),
        ("discard", "object"),
    ],
)
def test_a_malformed_recorded_move_raises_a_typed_error_naming_the_field(data: object, named: str) -> None:
    with pytest.raises(RummyError, match=named):
        move_from_json(data)


def test_recorded_moves_read_back_whole() -> None:
    s = build_state(BH, ["QD 9C", "2S"], table=["QS/2H QC/3H KD=QS/4H"], table_credit=[1])
    moves = legal_moves(s)
    assert any(isinstance(m, DiamondSwap) for m in moves)
    for move in moves:  # the JSON form leaves out credits the engine works out itself
        assert apply(s, move_from_json(move_to_json(move))).round == apply(s, move).round
