"""Rule audit of the draw-meld-discard engine (VARIANTS.md §4 Rummy Palace, §5 Standard Rummy,
§6 Black Heart Rum): hand-made positions played through the public API, each rule with its legal
case (exact result) and its illegal case (the typed error naming the section)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rummyai.cards import parse_card
from rummyai.engine.discard import (
    DiamondSwap,
    MeldCards,
)
from rummyai.engine.discard_rules import DiscardData
from rummyai.engine.discard_setup import build_state, hand_ids, hand_meld
from rummyai.engine.game import apply, validate
from rummyai.engine.state import GameState
from rummyai.errors import IllegalMoveError

BH = "black-heart"


def rule_of(state: GameState, move) -> str | None:
    violation = validate(state, move)
    return None if violation is None else violation.rule


def meld(state: GameState, text: str) -> MeldCards:
    return MeldCards(hand_meld(state, state.round.turn, text))


def table_id(state: GameState, meld_index: int, token: str) -> int:
    kind = parse_card(token)
    for i in state.round.table[meld_index].all_ids():
        if state.variant.deck[i] == kind:
            return i
    raise AssertionError(token)


def pass_turn_to(state: GameState, seat: int) -> GameState:
    """The same position with `seat` to play (after its draw)."""
    data = DiscardData(phase="play", fresh=not state.round.played_before[seat], next_turn=seat)
    return replace(state, round=replace(state.round, turn=seat, family_data=data))


def kinds(state: GameState, ids) -> list[int]:
    return sorted(state.variant.deck[i] for i in ids)


def cards(text: str) -> list[int]:
    return sorted(parse_card(t) for t in text.split())


# ---------------------------------------------------------------------------- §6.5 swap credit
def test_escort_swap_keeps_the_core_card_credited_to_its_placer() -> None:
    # seat 0 placed TS JS/2H QD=QS/JD; seat 1 swaps the J♦ escort for 4H; seat 2 swaps the Q♦ for QS
    s = build_state(BH, ["9C 8C", "4H 9S", "QS 5S"], table=["TS JS/2H QD=QS/JD"], table_credit=[0], turn=1)
    assert s.round.credited == (10 + 10 + 5 + 15 + 10, 0, 0)
    s = apply(s, DiamondSwap(0, table_id(s, 0, "JD"), hand_ids(s, 1, "4H")[0]))
    assert s.round.credited == (50 - 10, 5, 0)
    assert s.round.table[0].credit == (0, 0, 0)  # the queen's slot is still seat 0's
    s = pass_turn_to(s, 2)
    s = apply(s, DiamondSwap(0, table_id(s, 0, "QD"), hand_ids(s, 2, "QS")[0]))
    # the Q♦ leaves seat 0's credit (who placed it), the natural queen is seat 2's
    assert s.round.credited == (40 - 15, 5, 10)
    with pytest.raises(IllegalMoveError, match=r"6\.5"):
        apply(s, DiamondSwap(0, table_id(s, 0, "QS"), hand_ids(s, 2, "5S")[0]))
