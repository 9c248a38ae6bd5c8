"""`make_position` takes the table as text, tokens or `Slot` tuples alike, and refuses more copies
of a card than the deck holds, naming the card, wherever the copies are, and a card kind out of
range in a `Slot` built by hand."""

from __future__ import annotations

import pytest

from rummyai.cards import Slot, parse_table
from rummyai.errors import DeckError, MeldError
from rummyai.solvers import make_position, solve


def test_slot_tuples_text_and_tokens_give_the_same_position() -> None:
    text = "3C 4C 5C | 8S 8D JK | 5S 5H 5C"
    as_slots = [tuple(meld) for meld in parse_table(text)]
    as_tokens = [meld.split() for meld in text.split(" | ")]
    positions = [make_position("rummikub", "7H 8H", table) for table in (text, as_slots, as_tokens)]
    assert positions[0] == positions[1] == positions[2]


@pytest.mark.parametrize(
    ("hand", "table", "message"),
    [
        ("7H 7H 7H", "", "3 copies of 7H in hand and table but the rummikub deck holds 2"),
        ("5C", "3C 4C 5C | 5S 5H 5C", "3 copies of 5C in hand and table"),
        ("JK", "JK 4C 5C | 5S 5H JK", "3 copies of JK in hand and table"),
    ],
)
def test_too_many_copies_name_the_card(hand: str, table: str, message: str) -> None:
    with pytest.raises(DeckError, match=message):
        make_position("rummikub", hand, table)


@pytest.mark.parametrize("card", [-1, 53, 99])
def test_a_slot_built_by_hand_with_a_kind_out_of_range_is_named(card: int) -> None:
    with pytest.raises(MeldError, match=f"table meld 1: .*card kind {card} is out of range 0..52"):
        make_position("rummikub", "7H", [(Slot(card), Slot(1), Slot(2))])
    with pytest.raises(MeldError, match=f"card kind {card} is out of range"):
        solve("rummikub", "7H", [(Slot(1), Slot(2), Slot(3, None, Slot(card)))])
