"""Game flow and scoring of the draw-meld-discard variants (docs/rules §4, §5, §6 and §0),
driven through the engine's public API from small hand-made positions: stock recycling and the
void round, knocks around the end of a round, the deal after a round, the empty draw pile, the
match end through real rounds and the Black Heart bonus per seat. Rules already pinned in
test_rules_*.py are not repeated here."""

from __future__ import annotations

import pytest

from rummyai.cards import parse_card
from rummyai.engine.discard import (
    DeclineKnock,
    Discard,
    DrawStock,
    EndDeal,
    Knock,
    LayOff,
    MeldCards,
    Opening,
    TakeDiscard,
)
from rummyai.engine.discard_melds import Requirement, requirement
from rummyai.engine.discard_setup import build_state, hand_ids, hand_layoff, hand_meld
from rummyai.engine.game import apply, legal_moves, new_match, validate
from rummyai.errors import IllegalMoveError, RummyError


def meld(state, text: str) -> MeldCards:
    return MeldCards(hand_meld(state, state.round.turn, text))


def discard(state, text: str) -> Discard:
    return Discard(hand_ids(state, state.round.turn, text)[0])


def kinds(state, ids) -> list[int]:
    return sorted(state.variant.deck[i] for i in ids)


def cards(text: str) -> list[int]:
    return sorted(parse_card(t) for t in text.split())


# ---------------------------------------------------------------------------- §4 Rummy Palace
def test_palace_4_6_each_recycle_keeps_the_top_discard_then_the_round_is_void() -> None:
    s = build_state(
        "rummy-palace",
        ["2C 3C", "4D 5D"],
        discard="9S 8S 7S",
        stock="KD",
        phase="draw",
        options=["max_stock_recycles=2"],
    )
    s = apply(s, DrawStock())  # the stock empties: recycle 1 at once, 7S stays up
    assert s.round.recycles == 1 and kinds(s, s.round.discard) == cards("7S")
    assert kinds(s, s.round.stock) == cards("9S 8S")
    s = apply(s, discard(s, "KD"))
    s = apply(s, DrawStock())  # seat 1
    s = apply(s, discard(s, "4D"))
    s = apply(s, DrawStock())  # seat 0 draws the last card: recycle 2 (7S KD under 4D)
    assert s.round.recycles == 2 and kinds(s, s.round.stock) == cards("7S KD")
    assert kinds(s, s.round.discard) == cards("4D")
    s = apply(s, discard(s, "2C"))
    s = apply(s, DrawStock())  # seat 1
    s = apply(s, discard(s, "5D"))
    s = apply(s, DrawStock())  # seat 0 empties the stock; no recycle is left
    assert not s.round.stock and s.round.recycles == 2 and not s.history
    s = apply(s, discard(s, "3C"))  # seat 1 would start with an empty stock: the round is void
    result = s.history[-1]
    assert result.reason == "void" and result.winner is None


def test_palace_4_6_void_round_is_never_doubled_and_nobody_gains() -> None:
    s = build_state(
        "rummy-palace",
        ["TS JS QS 4C 9D", "KH JK"],
        discard="7S",
        stock="",
        opened=[False, True],
        options=["max_stock_recycles=0"],
    )
    s = apply(s, Opening((meld(s, "TS JS QS"),)))  # a first meld this turn, no going out
    s = apply(s, discard(s, "9D"))
    result = s.history[-1]
    assert result.reason == "void" and result.detail == ""
    assert result.scores == (-4, -(10 + 20))


def test_palace_4_7_no_knock_after_a_discard_that_goes_out() -> None:
    s = build_state(
        "rummy-palace",
        ["9D", "2H 3H", "4S 6S"],
        stock="KD QD",
        opened=[True, True, True],
        options=["knocking"],
    )
    out = apply(s, discard(s, "9D"))
    assert out.history[-1].reason == "out" and out.history[-1].winner == 0
    assert out.round_index == 1 and out.round.family_data.phase == "draw"


def test_palace_4_7_a_knock_may_empty_the_pile_and_the_next_discard_is_offered_again() -> None:
    s = build_state(
        "rummy-palace",
        ["5C 9D", "TS JS QS 2H", "4S 6S"],
        stock="KD QD 3C",
        opened=[True, True, True],
        options=["knocking"],
    )
    s = apply(s, discard(s, "9D"))
    assert s.round.turn == 2 and legal_moves(s) == [Knock(2), DeclineKnock(2)]
    s = apply(s, Knock(2))  # seat 2 takes 9D and draws 3C as the penalty
    assert kinds(s, s.round.hands[2]) == cards("4S 6S 9D 3C")
    assert s.round.turn == 1 and not s.round.discard
    assert legal_moves(s) == [DrawStock()]  # q plays normally; the pile is empty now
    s = apply(s, DrawStock())  # seat 1 draws QD
    s = apply(s, meld(s, "TS JS QS"))
    s = apply(s, discard(s, "QD"))
    # q is now seat 2, the discarder is seat 1: only seat 0 may knock, and one stock card is left
    assert s.round.turn == 0 and legal_moves(s) == [Knock(0), DeclineKnock(0)]
    s = apply(s, DeclineKnock(0))
    assert s.round.turn == 2 and s.round.family_data.phase == "draw"
    assert TakeDiscard(0) in legal_moves(s)


def test_palace_4_1_match_ends_through_a_round_at_minus_500() -> None:
    s = build_state(
        "rummy-palace",
        ["TS JS QS 2C", "KH KD", "AS"],
        scores=[0, -480, 0],
        played=[True, True, True],
    )
    s = apply(s, meld(s, "TS JS QS"))
    s = apply(s, discard(s, "2C"))
    assert s.history[-1].scores == (31, -20, -11)
    assert s.scores == (31, -500, -11) and s.match_over and s.winners == (0,)
    # one point less and the match goes on with the next deal
    s = build_state(
        "rummy-palace",
        ["TS JS QS 2C", "KH KD", "AS"],
        scores=[0, -479, 0],
        played=[True, True, True],
    )
    s = apply(apply(s, meld(s, "TS JS QS")), discard(s, "2C"))
    assert not s.match_over and s.round_index == 1


# ---------------------------------------------------------------------------- §5 Standard
def test_standard_5_4_empty_draw_pile_ending_never_wins_the_match() -> None:
    s = build_state("standard", ["7H 8H 2C", "3D"], discard="9H", stock="", phase="draw", scores=[600, 10])
    ended = apply(s, EndDeal())
    assert not ended.match_over and ended.scores == (600 - 15, 10 - 5)
    # the next deal: dealt afresh, one seat further, with one up-card
    rs = ended.round
    assert ended.round_index == 1 and rs.dealer == (s.round.dealer + 1) % 2 and rs.turn == (rs.dealer + 1) % 2
    assert [len(h) for h in rs.hands] == [10, 10] and len(rs.discard) == 1 and len(rs.stock) == 52 - 21


def test_standard_5_4_going_out_with_500_wins_through_the_round() -> None:
    s = build_state("standard", ["7H 8H 9H", "3D"], scores=[480, 900])
    out = apply(s, meld(s, "7H 8H 9H"))  # out by playing the last card: 15 credited + 25
    assert out.history[-1].scores == (40, -5)
    assert out.match_over and out.winners == (0,) and out.scores == (520, 895)
    # under 500 after going out: the game goes on although seat 1 holds more than 500
    s = build_state("standard", ["7H 8H 9H", "3D"], scores=[400, 900])
    out = apply(s, meld(s, "7H 8H 9H"))
    assert not out.match_over and out.round_index == 1


def test_standard_5_4_take_from_the_row_on_an_empty_pile_and_go_out() -> None:
    s = build_state("standard", ["7H 8H", "3D"], discard="KS 9H", stock="", phase="draw")
    assert rule_of(s, DrawStock()) is not None
    s = apply(s, TakeDiscard(1))
    out = apply(s, meld(s, "7H 8H 9H"))
    result = out.history[-1]
    assert result.reason == "out" and result.winner == 0 and result.scores == (15 + 25, -5)


def test_standard_5_2_going_out_by_laying_off_the_last_card() -> None:
    s = build_state("standard", ["9S", "3D 4D"], table=["6S 7S 8S"], table_credit=[1], phase="play")
    out = apply(s, LayOff(0, hand_layoff(s, 0, 0, "9S")))
    result = out.history[-1]
    # seat 0: 9S credited (5) + 25; seat 1: 6S 7S 8S credited (15) - 3D 4D held (10)
    assert result.reason == "out" and result.scores == (30, 5)


def test_standard_5_4_deal_cap_reached_through_rounds() -> None:
    s = build_state(
        "standard", ["7H 8H 2C", "3D"], discard="9H", stock="", phase="draw", options=["max_deals=1"]
    )
    ended = apply(s, EndDeal())
    assert ended.match_over and ended.winners == (1,)  # -5 beats -15


# ---------------------------------------------------------------------------- §6 Black Heart
@pytest.mark.parametrize("players", [2, 3, 5])
def test_black_heart_6_6_bonus_is_25_per_seated_player(players: int) -> None:
    hands = ["7S 8S 9S", *["3H", "4C", "5C", "6C"][: players - 1]]
    s = build_state("black-heart", hands, opened=[False] * players)
    out = apply(s, meld(s, "7S 8S 9S"))
    result = out.history[-1]
    assert result.detail == "Black Heart"
    assert result.scores[0] == 15 + 25 + 25 * players


def test_black_heart_6_4_next_deal_uses_the_totals_after_this_deal() -> None:
    # the chart line is read from the total before each deal (§6.4): seat 1 falls below 0 and is
    # dealt opened; seat 0 climbs to 130 (one meld of 4); seat 2 drops to 390 (two melds, 8 cards)
    s = build_state(
        "black-heart",
        ["7S 8S 9S 2C", "3C", "4C 5C"],
        scores=[90, -40, 400],
        opened=[True, False, False],
        played=[True, False, False],
    )
    s = apply(s, meld(s, "7S 8S 9S"))
    s = apply(s, discard(s, "2C"))
    assert s.scores == (90 + 40, -45, 390)
    assert s.round.opened == (False, True, False)
    assert s.round.family_data.fresh
    v = s.variant
    assert requirement(v, s.scores[0]) == Requirement("chart", melds=1, min_cards=4)
    assert requirement(v, s.scores[2]) == Requirement("chart", melds=2, min_cards=8)


def rule_of(state, move) -> str | None:
    violation = validate(state, move)
    return None if violation is None else violation.rule


# ---------------------------------------------------------------------------- bad match settings
@pytest.mark.parametrize(
    ("players", "seed", "max_turns", "text"),
    [
        (2, -1, None, "seed must be a non-negative integer"),
        (2, 1.5, None, "seed must be an integer"),
        ("2", 0, None, "num_players must be an integer"),
        (True, 0, None, "num_players must be an integer"),
        (2, 0, "9", "max_turns must be an integer"),
    ],
)
def test_0_bad_match_settings_raise_typed_errors(players, seed, max_turns, text: str) -> None:
    with pytest.raises(RummyError, match=text):
        new_match("standard", players, seed, max_turns=max_turns)


def test_0_an_illegal_move_names_its_rule() -> None:
    s = new_match("rummy-palace", 2, seed=1)
    with pytest.raises(IllegalMoveError) as error:
        apply(s, Discard(s.round.hands[s.round.turn][0]))  # a turn starts with a draw
    assert error.value.rule == "4.2"


def test_palace_4_6_going_rummy_with_a_single_first_meld_and_later_layoffs() -> None:
    # the first meld (one meld of 30) and lay-offs on the same turn, then the last discard
    s = build_state("rummy-palace", ["TS JS QS KS 4H 9C", "AS JK"], table=["5H 6H 7H"], opened=[False, True])
    s = apply(s, meld(s, "TS JS QS"))
    s = apply(s, LayOff(1, hand_layoff(s, 0, 1, "KS")))
    s = apply(s, LayOff(0, hand_layoff(s, 0, 0, "4H", front=True)))
    out = apply(s, discard(s, "9C"))
    result = out.history[-1]
    assert result.detail == "Going Rummy" and result.scores == (62, -62)
    # the first meld on an earlier turn: going out later is a plain Rummy, not doubled
    s = build_state("rummy-palace", ["TS JS QS 4C 9S", "AS JK"], stock="8S 2D", opened=[False, True])
    s = apply(s, meld(s, "TS JS QS"))
    s = apply(s, discard(s, "4C"))
    s = apply(s, DrawStock())  # seat 1 draws 2D
    s = apply(s, discard(s, "2D"))
    s = apply(s, DrawStock())  # seat 0 draws 8S
    s = apply(s, LayOff(0, hand_layoff(s, 0, 0, "9S", front=True)))
    out = apply(s, discard(s, "8S"))
    result = out.history[-1]
    assert result.reason == "out" and result.detail == "" and result.scores == (31, -31)
