"""Outside-checker audit of the draw-meld-discard variants against VARIANTS.md §4 (Rummy Palace),
§5 (Standard Rummy) and §6 (Black Heart Rum): each case is a position, a move and the result the
rules text asks for (table, hand, score) or the rule section a refusal must name. Cases already
pinned by the older rule tests are not repeated here."""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from rummyai.cards import Meaning, card_str, rank_of
from rummyai.cli import main
from rummyai.engine.discard import (
    DeclineKnock,
    DiamondSwap,
    Discard,
    DrawStock,
    JokerSwap,
    Knock,
    LayOff,
    Opening,
    TakeDiscard,
    move_from_json,
    move_to_json,
)
from rummyai.engine.discard_setup import build_state, hand_ids, hand_layoff
from rummyai.engine.game import apply, legal_moves, new_match, view
from rummyai.engine.state import GameState
from rummyai.errors import IllegalMoveError, MeldError, RummyError
from rummyai.solvers import solve
from rummyai.variants import get_variant

from .discard_cases import meld, rule_of, table_id

BH = "black-heart"
PALACE = "rummy-palace"
STANDARD = "standard"


def tokens(state: GameState, ids: Sequence[int]) -> list[str]:
    """Sorted tokens of physical ids."""
    return sorted(card_str(state.variant.deck[i]) for i in ids)


def table_texts(state: GameState) -> list[str]:
    """The table as written melds, as a player sees it."""
    return [m["text"] for m in view(state, state.round.turn)["table"]]


def place_committed(state: GameState) -> GameState:
    """Play the generator's first non-discard move until no committed card is left in the hand."""
    for _ in range(6):
        pending = [c for c in state.round.family_data.committed if c in state.round.hands[state.round.turn]]
        if not pending:
            return state
        plays = [m for m in legal_moves(state) if not isinstance(m, Discard)]
        assert plays, "a committed card was taken but no play is offered"
        state = apply(state, plays[0])
    raise AssertionError("the committed card never reached the table")


# ---------------------------------------------------------------------------- §5.2 + §6.5 TAKE through a swap
def test_take_is_legal_when_a_free_diamond_swap_lets_the_card_meld() -> None:
    # 8S fits nowhere as the hand stands; taking K♦ back from 5H 6H K♦=7H with the 7H (a free
    # swap, §6.5) gives 8S 8C K♦=8x: a legal play of 8S this turn, so TAKE(8S) is legal (§5.2)
    s = build_state(
        BH, ["7H 8C 2C", "3S"], table=["5H 6H KD=7H"], table_credit=[1], discard="8S", phase="draw"
    )
    assert rule_of(s, TakeDiscard(0)) is None
    assert TakeDiscard(0) in legal_moves(s)
    s = apply(s, TakeDiscard(0))
    s = apply(s, DiamondSwap(0, table_id(s, 0, "KD"), hand_ids(s, 0, "7H")[0]))
    assert tokens(s, s.round.hands[0]) == ["2C", "8C", "8S", "KD"]
    s = apply(s, meld(s, "8S 8C KD=8H"))
    assert table_texts(s)[0] == "5H 6H 7H"
    assert s.round.credited == (5 + 5 + 5 + 20, 5 + 5)  # the K♦ now counts for seat 0
    # the generator finds the same way on its own
    s = place_committed(
        apply(
            build_state(
                BH, ["7H 8C 2C", "3S"], table=["5H 6H KD=7H"], table_credit=[1], discard="8S", phase="draw"
            ),
            TakeDiscard(0),
        )
    )
    assert tokens(s, s.round.hands[0]) == ["2C"]


@pytest.mark.parametrize(
    ("hand", "score", "opened", "rule"),
    [
        ("7H 9C 2C", 0, True, "5.2"),  # no second eight: even with the K♦ back, 8S has no meld
        ("7H 8C 2C", 0, False, None),  # a 3-card meld also meets the 0-99 opening line (§6.4)
        ("7H 8C 2C", 100, False, "5.2"),  # 3 cards miss the 100-199 line's 4: no play of 8S
        ("7H 8C 2C", -5, True, None),
    ],
)
def test_take_through_a_free_swap_follows_the_opening_chart(
    hand: str, score: int, opened: bool, rule: str | None
) -> None:
    s = build_state(
        BH,
        [hand, "3S"],
        table=["5H 6H KD=7H"],
        table_credit=[1],
        discard="8S",
        phase="draw",
        opened=[opened, True],
        scores=[score, 0],
    )
    assert rule_of(s, TakeDiscard(0)) == rule


def test_take_is_legal_when_two_free_swaps_give_the_wilds_for_a_run() -> None:
    # 7S is played in 3S 4S Q♦=5S K♦=6S 7S once 3C and 5C have taken both diamonds back from
    # 2C K♦=3C 4C Q♦=5C 6C 7C (two swaps, §6.5); 3S 4S 7S then open with 5 cards (§6.4, 0-99)
    hand = "8H 9C 3S 3C 9H 5C KC KS TS 4S"
    table = ["2C KD=3C 4C QD=5C 6C 7C", "3H 4H 5H 6H"]
    s = build_state(
        BH, [hand, "AS"], table=table, table_credit=[1, 1], discard="7S", phase="draw", opened=[False, True]
    )
    assert rule_of(s, TakeDiscard(0)) is None
    s = apply(s, TakeDiscard(0))
    s = apply(s, DiamondSwap(0, table_id(s, 0, "KD"), hand_ids(s, 0, "3C")[0]))
    s = apply(s, DiamondSwap(0, table_id(s, 0, "QD"), hand_ids(s, 0, "5C")[0]))
    s = apply(s, meld(s, "3S 4S QD=5S KD=6S 7S"))
    assert table_texts(s) == ["2C 3C 4C 5C 6C 7C", "3H 4H 5H 6H", "3S 4S QD=5S KD=6S 7S"]
    assert s.round.opened[0] and s.round.family_data.committed == ()
    # without the 5C only the K♦ comes back: K♦ and 7S alone make no meld, so the take is refused
    s = build_state(
        BH,
        ["8H 9C 3S 3C 9H KC KS TS 2S", "AS"],
        table=table,
        table_credit=[1, 1],
        discard="7S",
        phase="draw",
        opened=[False, True],
    )
    assert rule_of(s, TakeDiscard(0)) == "5.2"
    assert TakeDiscard(0) not in legal_moves(s)


def test_take_is_legal_through_an_opening_then_a_lay_off_with_a_wild_below_a_run() -> None:
    # score 0, not opened: open with 3H 4H 5H 6H, then 2C K♦=3C go below 4C Q♦=5C 6C 7C (§6.4:
    # after the opening anything goes); the K♦ must not be spent on the opening
    s = build_state(
        BH,
        ["5H 4H JC 3H 6H 7S TC 4S KD 4H", "AS"],
        table=["4C QD=5C 6C 7C"],
        table_credit=[1],
        discard="2C",
        phase="draw",
        opened=[False, True],
    )
    assert rule_of(s, TakeDiscard(0)) is None
    s = place_committed(apply(s, TakeDiscard(0)))
    assert s.round.opened[0]
    assert "2C KD=3C 4C QD=5C 6C 7C" in table_texts(s)


# ---------------------------------------------------------------------------- §6.5 a diamond for a diamond
def test_q_diamond_replaces_a_k_diamond_that_stood_for_an_escorted_queen() -> None:
    # QS/2H QC/3H K♦=QS/4H: Q♦ is a card of the group's rank; the 4H escort stays with it, so it
    # plays as a wild black queen (as it may in a new meld, §6.2) and the swapper takes the K♦
    s = build_state(BH, ["QD 9C", "2S"], table=["QS/2H QC/3H KD=QS/4H"], table_credit=[1])
    swap = DiamondSwap(0, table_id(s, 0, "KD"), hand_ids(s, 0, "QD")[0])
    assert rule_of(s, swap) is None
    assert swap in legal_moves(s)
    s = apply(s, swap)
    assert table_texts(s) == ["QS/2H QC/3H QD=QS/4H"]
    assert tokens(s, s.round.hands[0]) == ["9C", "KD"]
    # Q♦ (15) is seat 0's; seat 1 keeps QS/2H QC/3H and the 4H escort, loses the K♦ (20)
    assert s.round.credited == (15, 10 + 5 + 10 + 5 + 5)
    assert view(s, 0)["table"][0]["escort_credit"] == [1, 1, 1]


def test_a_diamond_replacing_an_unescorted_slot_plays_as_itself() -> None:
    # JS/2H JC/3H K♦=J♦: the natural J♦ takes the slot as itself (no escort needed, §6.2)
    s = build_state(BH, ["JD 9C", "2S"], table=["JS/2H JC/3H KD=JD"], table_credit=[1])
    s = apply(s, DiamondSwap(0, table_id(s, 0, "KD"), hand_ids(s, 0, "JD")[0]))
    assert table_texts(s) == ["JS/2H JC/3H JD"]
    assert s.round.credited == (10, 30)
    # J♦ cannot take over an escorted slot: it never stands for a black jack (§6.2), so 4H has
    # no card to escort
    s = build_state(BH, ["JD 9C", "2S"], table=["JS/2H JC/3H KD=JS/4H"], table_credit=[1])
    assert rule_of(s, DiamondSwap(0, table_id(s, 0, "KD"), hand_ids(s, 0, "JD")[0])) == "6.5"


# ---------------------------------------------------------------------------- §0 bad input: recorded moves
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


# ---------------------------------------------------------------------------- §4.4/§4.7 Palace opening values
@pytest.mark.parametrize(
    ("hand", "text", "options", "rule"),
    [
        ("TS TH TD 9C", "TS TH TD", [], None),  # exactly 30
        ("9S 9H 9D 9C 2C", "9S 9H 9D", [], "4.4"),  # 27
        ("9S 9H 9D 9C 2C", "9S 9H 9D 9C", [], None),  # 36
        ("AS AH JK 9C", "AS AH JK=A", [], None),  # a group joker counts as the ace: 33
        ("JK QS KS 9C", "JK=JS QS KS", [], None),  # 10 + 10 + 10
        ("AS 2S 3S 4S 5S 9C", "AS 2S 3S 4S 5S", [], "4.4"),  # low ace: 15
        ("QS JK AS 9C", "QS JK=KS AS", ["cyclic_laying"], None),  # ace after a joker king: 31
        ("KS JK 2S 3S 4S 9C", "KS JK=AS 2S 3S 4S", ["cyclic_laying"], None),  # joker ace after K: 11
        ("JK 2S 3S 4S 5S 6S 9C", "JK=AS 2S 3S 4S 5S 6S", ["cyclic_laying"], "4.4"),  # ace first: 21
        ("JS QS KS AS 2S 9C", "JS QS KS AS 2S", ["cyclic_laying"], None),  # 43 across the wrap
        ("KS AS 2S 9C", "KS AS 2S", [], "4.3"),  # no wrap without the option
    ],
)
def test_palace_first_meld_values(hand: str, text: str, options: list[str], rule: str | None) -> None:
    s = build_state(PALACE, [hand, "2C"], opened=[False, True], options=options)
    assert rule_of(s, meld(s, text)) == rule


def test_palace_swapped_joker_goes_back_onto_the_meld_it_left() -> None:
    # 5H JK=6H 7H: the 6H takes the joker's place and the joker goes on at the top as 8H (§4.5)
    s = build_state(PALACE, ["6H 2C 3C", "2D"], table=["5H JK=6H 7H"], table_credit=[1])
    joker, six = table_id(s, 0, "JK"), hand_ids(s, 0, "6H")[0]
    old = s.round.table[0]
    ids = tuple(six if i == joker else i for i in old.ids)
    back = LayOff(0, replace(old, ids=(*ids, joker), meanings=(None, None, None, Meaning(8, 1))))
    s2 = apply(s, JokerSwap(0, joker, six, back))
    assert table_texts(s2) == ["5H 6H 7H JK=8H"]
    assert tokens(s2, s2.round.hands[0]) == ["2C", "3C"]
    # the joker's new place must be stated (§4.8.3)
    unstated = LayOff(0, replace(old, ids=(*ids, joker), meanings=(None, None, None, None)))
    assert rule_of(s, JokerSwap(0, joker, six, unstated)) == "4.3"


def test_palace_knock_order_wraps_round_the_table_and_the_card_is_the_knockers() -> None:
    # seat 2 discards 6S; q = seat 3; seats 0 then 1 are asked; seat 1 knocks: 6S and a stock card
    s = build_state(
        PALACE,
        ["5C 9D", "2H 3H", "4S 6S", "7C 8C"],
        turn=2,
        stock="KD QD AS",
        opened=[True, True, True, True],
        options=["knocking"],
    )
    s = apply(s, Discard(hand_ids(s, 2, "6S")[0]))
    assert s.round.family_data.knock_queue == (0, 1)
    assert legal_moves(s) == [Knock(0), DeclineKnock(0)]
    s = apply(apply(s, DeclineKnock(0)), Knock(1))
    assert tokens(s, s.round.hands[1]) == ["2H", "3H", "6S", "AS"]
    assert s.round.turn == 3 and s.round.family_data.phase == "draw"
    # round the table to seat 1's own turn: the knocked card is an ordinary card there (§4.7)
    for seat, card in ((3, "7C"), (0, "9D")):
        s = apply(s, DrawStock())
        s = apply(s, Discard(hand_ids(s, seat, card)[0]))
        while s.round.family_data.phase == "knock":
            s = apply(s, DeclineKnock(s.round.turn))
    assert s.round.turn == 1
    s = apply(s, DrawStock())
    assert rule_of(s, Discard(hand_ids(s, 1, "6S")[0])) is None


def test_palace_swapped_joker_may_become_the_high_ace_of_its_run() -> None:
    # TD JK=JD QD JK=KD: the KD takes the king joker's place, which goes on top as the ace (§4.3 Q-K-A)
    s = build_state(PALACE, ["2D 7S KD", "2C"], table=["TD JK=JD QD JK=KD"], table_credit=[1])
    old = s.round.table[0]
    king = next(i for i, m in zip(old.ids, old.meanings, strict=True) if m is not None and m.rank == 13)
    kd = hand_ids(s, 0, "KD")[0]
    ids = tuple(kd if i == king else i for i in old.ids)
    meanings = tuple(None if i == king else m for i, m in zip(old.ids, old.meanings, strict=True))
    place = LayOff(0, replace(old, ids=(*ids, king), meanings=(*meanings, Meaning(1, 2))))  # JK=AD
    s = apply(s, JokerSwap(0, king, kd, place))
    assert table_texts(s) == ["TD JK=JD QD KD JK=AD"]
    # the joker ace is high, so the 2D does not follow it (no wrap without cyclic_laying)
    assert rule_of(s, LayOff(0, hand_layoff(s, 0, 0, "2D"))) == "4.3"


def test_palace_going_rummy_needs_no_empty_table() -> None:
    # §4.8.5 [D]: others' melds on the table do not stop a Going Rummy; the first meld, a lay-off
    # on another player's run and the discard in one turn double every penalty and the gain
    s = build_state(
        PALACE,
        ["TS TH TD 8C 2D", "AS JK", "KC 3S"],
        table=["5C 6C 7C"],
        table_credit=[1],
        opened=[False, True, True],
    )
    s = apply(s, Opening((meld(s, "TS TH TD"), LayOff(0, hand_layoff(s, 0, 0, "8C")))))
    result = apply(s, Discard(hand_ids(s, 0, "2D")[0])).history[-1]
    assert result.detail == "Going Rummy"
    assert result.scores == (2 * (31 + 13), -2 * 31, -2 * 13)  # A 11 + JK 20; K 10 + 3


# ---------------------------------------------------------------------------- §6.5/§6.6 swaps across turns
def test_a_diamond_swapped_on_an_earlier_turn_keeps_the_black_heart() -> None:
    # turn 1: seat 0 (score 300) swaps 7H for the K♦ and discards; its next turn it goes out with
    # 8S 8C 8H K♦=8x by one meld: its first play, so a Black Heart (§6.6: swaps are not plays)
    s = build_state(
        BH,
        ["7H 8S 8C 9C", "3S 2S"],
        table=["5H 6H KD=7H"],
        table_credit=[1],
        opened=[False, True],
        scores=[300, 0],
        stock="5C 8H AC",
    )
    s = apply(s, DiamondSwap(0, table_id(s, 0, "KD"), hand_ids(s, 0, "7H")[0]))
    s = apply(s, Discard(hand_ids(s, 0, "9C")[0]))
    assert s.round.played_before == (False, False)
    s = apply(apply(s, DrawStock()), Discard(hand_ids(s, 1, "3S")[0]))
    s = apply(s, DrawStock())
    assert tokens(s, s.round.hands[0]) == ["8C", "8H", "8S", "KD"]
    result = apply(s, meld(s, "8S 8C 8H KD=8S")).history[-1]
    assert result.detail == "Black Heart"
    # seat 0: 7H (5) + 8S 8C 8H K♦ (5+5+5+20) + 25 out + 25 x 2 seats; seat 1: 5H 6H - (2S AC)
    assert result.scores == (5 + 35 + 25 + 50, 10 - 20)


def test_a_taken_card_that_is_not_committed_frees_the_diamond_it_replaces() -> None:
    # TAKE(0) takes 5S (committed) and 7H; the 7H swaps out K♦=7H: the K♦ is free, not committed
    # (§6.5 binds the diamond only to a committed replacement) and may even be discarded
    s = build_state(
        BH, ["5C 5H 2C", "3S"], table=["5H 6H KD=7H"], table_credit=[1], discard="5S 7H", phase="draw"
    )
    s = apply(s, TakeDiscard(0))
    s = apply(s, DiamondSwap(0, table_id(s, 0, "KD"), hand_ids(s, 0, "7H")[0]))
    assert tokens(s, s.round.family_data.committed) == ["5S"]
    assert rule_of(s, Discard(hand_ids(s, 0, "KD")[0])) == "5.2"  # 5S first
    s = apply(s, meld(s, "5S 5C 5H"))
    s = apply(s, Discard(hand_ids(s, 0, "KD")[0]))
    assert tokens(s, s.round.discard) == ["KD"]


def test_a_diamond_escort_is_taken_back_with_a_natural_heart_only() -> None:
    # QC/K♦ KC/2H AC: "any heart" (§6.5 [D]) replaces an escort diamond; J♦ standing for a heart
    # is no heart card. The 4H is the swapper's; the K♦ (20) leaves seat 1's credit
    s = build_state(BH, ["JD 4H 9C", "2S"], table=["QC/KD KC/2H AC"], table_credit=[1])
    kd = table_id(s, 0, "KD")
    assert rule_of(s, DiamondSwap(0, kd, hand_ids(s, 0, "JD")[0])) == "6.5"
    assert rule_of(s, DiamondSwap(0, kd, hand_ids(s, 0, "9C")[0])) == "6.5"
    s = apply(s, DiamondSwap(0, kd, hand_ids(s, 0, "4H")[0]))
    assert table_texts(s) == ["QC/4H KC/2H AC"]
    assert s.round.credited == (5, 10 + 10 + 5 + 15)


# ---------------------------------------------------------------------------- best play (rummyai.solvers.solve)
@pytest.mark.parametrize(
    ("variant", "hand", "table", "kwargs", "played", "cards", "value"),
    [
        # §4.4: Q-K-A is 31 and opens; 5C is kept for the discard
        (PALACE, "QS KS AS 5C", "", {"opened": False}, "AS QS KS", 3, 3),
        # §4.3: a low ace counts 1: A-5 is 15, no opening
        (PALACE, "AS 2S 3S 4S 5S 9C", "", {"opened": False}, "", 0, 0),
        # §4.2/§4.8.6: the taken 9C cannot be the discard, so it is laid off and a ten kept
        (PALACE, "TS TH TD 9C", "6C 7C 8C", {"taken": "9C"}, "9C", 1, 1),
        # §4.3: two jokers need two naturals; 5S is kept back
        (PALACE, "JK JK 5S 9D 9H", "", {}, "9H 9D JK JK", 4, 4),
        # §4.3: a group holds each suit once, at most 4 cards
        (PALACE, "7C 7C 2D", "7S 7H 7D", {}, "7C", 1, 1),
        # §4.6 penalty: K K JK down leaves 5S 6S (11); 5S 6S JK down would leave K K (20)
        (PALACE, "JK 5S 6S KD KH", "", {"objective": "penalty"}, "KH KD JK", 3, 11),
        # §4.3: a group of aces is 33 points
        (PALACE, "AS AH AD 2C", "", {"opened": False, "objective": "points"}, "AS AH AD", 3, 33),
        # §5.2: out by playing the last card onto two other players' melds
        (STANDARD, "9S 2C", "5S 6S 7S 8S | 2S 2H 2D", {}, "9S 2C", 2, 2),
        # §5.2: the committed 9S is played; the rest can wait
        (STANDARD, "9S 2C 3D", "5S 6S 7S 8S", {"committed": "9S"}, "9S", 1, 1),
        # §6.2: J♦ escorts a black jack as a heart
        (BH, "JS QS KS JD 2H 3H", "", {}, "JS QS KS 2H 3H JD", 6, 6),
        # §6.4: 100-199 asks one meld of 4 cards, escorts counted
        (BH, "5S 6S 7S 9C", "", {"opened": False, "score": 100}, "", 0, 0),
        (BH, "9S TS JS 2H 5C", "", {"opened": False, "score": 100}, "9S TS JS 2H", 4, 4),
        # §6.6: a Black Heart needs no chart line
        (BH, "5S 6S 7S 8C", "5C 6C 7C", {"opened": False, "score": 300}, "5S 6S 7S 8C", 4, 4),
        # §6.6: the Royale is 150 on the table
        (BH, "JD QD KD 5C", "", {"opened": False, "score": 300, "objective": "points"}, "JD QD KD", 3, 150),
    ],
)
def test_best_play_on_small_positions(
    variant: str, hand: str, table: str, kwargs: dict[str, Any], played: str, cards: int, value: int
) -> None:
    solution = solve(variant, hand, table, **kwargs)
    assert solution.status == "optimal"
    assert sorted(solution.played_text().split()) == sorted(played.split())
    assert (solution.cards_played, solution.value) == (cards, value)


def test_best_play_with_a_free_swap_for_a_committed_card_matches_the_engine() -> None:
    # the position of test_take_is_legal_when_a_free_diamond_swap_lets_the_card_meld
    solution = solve(BH, "7H 8C 2C 8S", "5H 6H KD=7H", committed="8S")
    assert solution.cards_played == 3 and len(solution.swaps) == 1
    assert sorted(solution.played_text().split()) == ["7H", "8C", "8S"]
    with pytest.raises(IllegalMoveError, match=r"5\.2"):
        solve(BH, "7H 9C 2C 8S", "5H 6H KD=7H", committed="8S")


def test_cyclic_laying_reaches_the_solver_and_the_command_line() -> None:
    cyclic = get_variant(PALACE, ["cyclic_laying"])
    assert solve(cyclic, "KS AS 2S 9D", "").cards_played == 3
    assert solve(PALACE, "KS AS 2S 9D", "").cards_played == 0
    out = io.StringIO()
    argv = ["solve", "--variant", PALACE, "--option", "cyclic_laying", "--hand", "KS AS 2S 9D", "--json"]
    assert main(argv, out=out) == 0
    answer = json.loads(out.getvalue())
    assert answer["cards_played"] == 3 and answer["melds"] == [["KS", "AS", "2S"]]


# ---------------------------------------------------------------------------- §6.6 scores over whole games
PASSIVE = ("DrawStock", "Discard", "EndDeal", "DeclineKnock")
BH_DIAMONDS = {"JD": 10, "QD": 15, "KD": 20}


def bh_value(kind: int) -> int:
    """Black Heart card value written out from the §6.6 table."""
    token = card_str(kind)
    if token in BH_DIAMONDS:
        return BH_DIAMONDS[token]
    rank = rank_of(kind)
    return 15 if rank == 1 else 5 if rank <= 9 else 10


def bh_expected(state: GameState, before: GameState) -> list[int]:
    """The finished deal's scores from its table, escorts and hands (§6.6 with §5.4)."""
    finished = state.finished
    assert finished is not None
    deck, n = state.variant.deck, state.num_players
    shown = view(replace(before, round=finished), 0)["table"]
    credit = [0] * n
    for meld_, seen in zip(finished.table, shown, strict=True):
        if [card_str(deck[i]) for i in meld_.ids] == ["JD", "QD", "KD"] and not any(meld_.meanings):
            credit[meld_.credit[0]] += 150  # the Royale, only while it stands as one
            continue
        for card, seat in zip(meld_.ids, meld_.credit, strict=True):
            credit[seat] += bh_value(deck[card])
        for escort, seat in zip(meld_.escorts, seen["escort_credit"], strict=True):
            if escort is not None:
                credit[seat] += bh_value(deck[escort])
    scores = [
        c - sum(bh_value(deck[i]) for i in hand) for c, hand in zip(credit, finished.hands, strict=True)
    ]
    result = state.history[-1]
    if result.reason == "out":
        assert result.winner is not None
        scores[result.winner] += 25 + (25 * n if result.detail == "Black Heart" else 0)
    return scores


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_black_heart_deal_scores_follow_the_value_table(seed: int) -> None:
    state = new_match(BH, 2 + seed, seed, options={"max_deals": 3}, max_turns=300)
    rng = np.random.default_rng(seed)
    deals = 0
    while not state.match_over:
        moves = legal_moves(state)
        plays = [m for m in moves if type(m).__name__ not in PASSIVE]
        pool = plays if plays and rng.random() < 0.85 else moves
        before, state = state, apply(state, pool[int(rng.integers(len(pool)))])
        if len(state.history) > len(before.history):
            deals += 1
            assert list(state.history[-1].scores) == bh_expected(state, before)
    assert deals >= 1


# ---------------------------------------------------------------------------- §5.2 TAKE(i): engine and solver agree
@pytest.mark.parametrize(("variant", "seed"), [(BH, 1), (BH, 4), (STANDARD, 0)])
def test_take_legality_agrees_with_the_solver_along_a_game(variant: str, seed: int) -> None:
    """Every TAKE(i) the engine refuses has no placement of card i in the exact solver either,
    and every one it allows has one (the solver searches swaps, openings and lay-offs at once)."""
    state = new_match(variant, 2 + seed % 3, seed, options={"max_deals": 1}, max_turns=120)
    rng = np.random.default_rng(seed)
    checked = 0
    while not state.match_over:
        r = state.round
        if r.family_data.phase == "draw":
            seat, deck = r.turn, state.variant.deck
            table = [m["text"] for m in view(state, seat)["table"]]
            for i in range(len(r.discard)):
                hand = [card_str(deck[c]) for c in (*r.hands[seat], *r.discard[i:])]
                must = [card_str(deck[r.discard[i]])]
                try:
                    solve(
                        state.variant,
                        hand,
                        table,
                        opened=r.opened[seat],
                        committed=must,
                        score=state.scores[seat],
                    )
                    placeable = True
                except IllegalMoveError:
                    placeable = False
                assert (rule_of(state, TakeDiscard(i)) is None) == placeable, (hand, table, must)
                checked += 1
        moves = legal_moves(state)
        plays = [m for m in moves if type(m).__name__ not in PASSIVE]
        pool = plays if plays and rng.random() < 0.7 else moves
        state = apply(state, pool[int(rng.integers(len(pool)))])
    assert checked > 20


# ---------------------------------------------------------------------------- §6.2 written escorts
@pytest.mark.parametrize(
    ("text", "legal"),
    [
        ("QC/JD=5H KC/2H AC", True),  # J♦ standing for a heart escorts
        ("QC/KD=5H KC/2H AC", True),  # so does K♦
        ("QC/5H=5H KC/2H AC", True),  # a heart written as itself
        ("QC/KD=QS KC/2H AC", False),  # K♦ standing for a spade is no escort
        ("QC/5H=6H KC/2H AC", False),  # a natural heart stands for nothing else
    ],
)
def test_a_written_escort_meaning_must_be_a_heart(text: str, legal: bool) -> None:
    # the table form keeps no escort meanings, so the written form is checked before it is dropped
    s = build_state(BH, ["QC KC AC JD KD 5H 2H 9C", "2S"])
    if legal:
        assert rule_of(s, meld(s, text)) is None
        assert build_state(BH, ["9C", "2S"], table=[text]).round.table
    else:
        with pytest.raises(MeldError, match=r"6\.2"):
            meld(s, text)
        with pytest.raises(MeldError, match=r"6\.2"):
            build_state(BH, ["9C", "2S"], table=[text])
