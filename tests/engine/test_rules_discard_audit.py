"""Rule audit of the draw-meld-discard engine (VARIANTS.md §4 Rummy Palace, §5 Standard Rummy,
§6 Black Heart Rum): hand-made positions played through the public API, each rule with its legal
case (exact result) and its illegal case (the typed error naming the section)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rummyai.cards import parse_card
from rummyai.engine.discard import (
    DiamondSwap,
    Discard,
    LayOff,
    MeldCards,
    Opening,
    TakeDiscard,
)
from rummyai.engine.discard_rules import DiscardData
from rummyai.engine.discard_setup import build_state, hand_ids, hand_layoff, hand_meld
from rummyai.engine.game import apply, legal_moves, validate
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


# ---------------------------------------------------------------------------- §5.2 TAKE(i): any legal play
def test_take_is_legal_when_the_card_fits_after_laying_off_the_cards_between() -> None:
    # 9S fits 5S 6S 7S only once 8S is laid off first: still a legal play of 9S this turn
    s = build_state(
        "standard", ["8S 2C", "3D"], table=["5S 6S 7S"], table_credit=[1], discard="9S", phase="draw"
    )
    assert rule_of(s, TakeDiscard(0)) is None
    assert TakeDiscard(0) in legal_moves(s)
    s = apply(s, TakeDiscard(0))
    nine = hand_ids(s, 0, "9S")[0]
    offered = [m for m in legal_moves(s) if isinstance(m, LayOff)]
    assert offered and all(kinds(s, m.meld.ids) == cards("5S 6S 7S 8S") for m in offered)
    s = apply(s, offered[0])
    s = apply(s, LayOff(0, hand_layoff(s, 0, 0, "9S")))
    assert nine in s.round.table[0].ids and s.round.credited == (10, 15)
    assert rule_of(s, Discard(hand_ids(s, 0, "2C")[0])) is None
    # without the 8S in hand there is no play of 9S: the take is refused, naming §5.2
    s0 = build_state("standard", ["8C 2C", "3D"], table=["5S 6S 7S"], discard="9S", phase="draw")
    assert rule_of(s0, TakeDiscard(0)) == "5.2"
    assert TakeDiscard(0) not in legal_moves(s0)


def test_take_for_a_chain_below_a_run_and_a_play_stranding_the_card_is_refused() -> None:
    s = build_state("standard", ["4D 5D 7C", "KC"], table=["6D 7D 8D"], discard="3D", phase="draw")
    s = apply(s, TakeDiscard(0))
    # laying off 7C elsewhere is fine; discarding before 3D is down is not
    assert rule_of(s, Discard(hand_ids(s, 0, "7C")[0])) == "5.2"
    s = apply(s, LayOff(0, hand_layoff(s, 0, 0, "5D", front=True)))
    s = apply(s, LayOff(0, hand_layoff(s, 0, 0, "4D", front=True)))
    s = apply(s, LayOff(0, hand_layoff(s, 0, 0, "3D", front=True)))
    assert kinds(s, s.round.table[0].ids) == cards("3D 4D 5D 6D 7D 8D")
    assert s.round.family_data.committed == ()


# ---------------------------------------------------------------------------- §6.6 Black Heart by melds and lay-offs
def test_black_heart_by_a_meld_and_a_layoff_makes_the_take_legal() -> None:
    # score 300 asks two melds of 8 cards; 7S is playable only by going out at once (§5.2, §6.6)
    hands = ["5S 6S 8C", "2S 3S", "9H"]
    s = build_state(
        BH,
        hands,
        table=["5C 6C 7C"],
        table_credit=[1],
        discard="7S",
        phase="draw",
        opened=[False, True, True],
        scores=[300, 0, 0],
    )
    assert rule_of(s, TakeDiscard(0)) is None and TakeDiscard(0) in legal_moves(s)
    s = apply(s, TakeDiscard(0))
    outs = [m for m in legal_moves(s) if isinstance(m, Opening)]
    assert outs
    result = apply(s, outs[0]).history[-1]
    assert result.reason == "out" and result.detail == "Black Heart"
    # played 5S 6S 7S 8C (20) + 25 out + 25 x 3 players; seat 1: 15 on the table - 10 held
    assert result.scores == (20 + 25 + 75, 15 - 10, -5)
    bundle = Opening((meld(s, "5S 6S 7S"), LayOff(0, hand_layoff(s, 0, 0, "8C"))))
    assert rule_of(s, bundle) is None
    # with one more card that fits nowhere it is no Black Heart, and 3 cards miss the chart's 8
    s2 = build_state(
        BH,
        ["5S 6S 8C 9H", "2S 3S", "9H"],
        table=["5C 6C 7C"],
        discard="7S",
        phase="draw",
        opened=[False, True, True],
        scores=[300, 0, 0],
    )
    assert rule_of(s2, TakeDiscard(0)) == "5.2"
