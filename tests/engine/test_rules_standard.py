"""Standard Rummy rules (docs/rules §5): hand-made positions played through the public API, each
rule with its legal case (exact result) and its illegal case (the section a refusal names)."""

from __future__ import annotations

import pytest

from rummyai.cards import parse_card
from rummyai.engine.discard import (
    Discard,
    DrawStock,
    EndDeal,
    LayOff,
    TakeDiscard,
)
from rummyai.engine.discard_setup import build_state, hand_ids, hand_layoff
from rummyai.engine.game import apply, legal_moves, match_winners, new_match
from rummyai.engine.state import RoundResult
from rummyai.errors import RummyError
from rummyai.variants import get_variant

from .discard_cases import meld, rule_of
from .discard_views import cards, kinds


# ---------------------------------------------------------------------------- §5.1 deal
def test_deal_ten_each_one_upcard_left_of_dealer() -> None:
    s = new_match("standard", 4, seed=5)
    assert [len(h) for h in s.round.hands] == [10] * 4
    assert len(s.round.discard) == 1 and len(s.round.stock) == 52 - 41
    assert s.round.turn == (s.round.dealer + 1) % 4
    two_decks = new_match("standard", 6, seed=5, options=["decks=2"])
    assert len(two_decks.round.stock) == 104 - 61


def test_standard_deck_has_no_jokers() -> None:
    v = get_variant("standard")
    assert len(v.deck) == 52 and len(set(v.deck)) == 52
    with pytest.raises(RummyError):
        build_state("standard", ["JK 2C", "3D"])


# ---------------------------------------------------------------------------- §5.2 TAKE(i)
def test_take_card_and_every_later_discard() -> None:
    s = build_state("standard", ["7H 8H 2C", "3D"], discard="KS 9H 4D QC", phase="draw")
    after = apply(s, TakeDiscard(1))
    assert kinds(after, after.round.discard) == cards("KS")
    assert kinds(after, after.round.hands[0]) == cards("7H 8H 2C 9H 4D QC")
    assert after.round.family_data.committed == tuple(hand_ids(after, 0, "9H"))


def test_take_only_if_the_card_can_be_played() -> None:
    s = build_state("standard", ["7H 8H 2C", "3D"], discard="KS 9H 4D", phase="draw")
    assert rule_of(s, TakeDiscard(0)) == "5.2"  # KS has no play
    assert rule_of(s, TakeDiscard(1)) is None  # 7H 8H 9H
    offered = [m for m in legal_moves(s) if isinstance(m, TakeDiscard)]
    assert offered == [TakeDiscard(1)]


def test_take_for_a_layoff_on_the_table() -> None:
    s = build_state("standard", ["2C 3D", "4D"], table=["5S 6S 7S"], discard="8S KD", phase="draw")
    assert rule_of(s, TakeDiscard(0)) is None
    assert rule_of(s, TakeDiscard(1)) == "5.2"


def test_committed_card_cannot_be_discarded_others_can() -> None:
    s = build_state("standard", ["7H 8H 2C", "3D"], discard="KS 9H 4D", phase="draw")
    s = apply(s, TakeDiscard(1))
    nine = hand_ids(s, 0, "9H")[0]
    assert rule_of(s, Discard(nine)) == "5.2"
    assert rule_of(s, Discard(hand_ids(s, 0, "4D")[0])) == "5.2"  # 9H must be placed first
    s = apply(s, meld(s, "7H 8H 9H"))
    assert rule_of(s, Discard(hand_ids(s, 0, "4D")[0])) is None  # taken with it, may be discarded


def test_play_that_strands_the_committed_card_is_refused() -> None:
    s = build_state("standard", ["7H 8H 7S 7C 2C", "3D"], discard="9H", phase="draw")
    s = apply(s, TakeDiscard(0))
    # melding 7H in a group would leave 9H, which must be played this turn, without a play
    assert rule_of(s, meld(s, "7H 7S 7C")) == "5.2"
    assert rule_of(s, meld(s, "7H 8H 9H")) is None


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


def test_taking_the_top_card_commits_it() -> None:
    s = build_state("standard", ["7H 8H 2C", "3D"], discard="KS 9H", phase="draw")
    s = apply(s, TakeDiscard(1))
    nine = hand_ids(s, 0, "9H")[0]
    assert s.round.family_data.committed == (nine,)
    assert rule_of(s, Discard(nine)) == "5.2"
    assert rule_of(s, Discard(hand_ids(s, 0, "2C")[0])) == "5.2"


def test_take_for_a_meld_with_cards_taken_after_it() -> None:
    # §5.2: the hand plus the cards taken: 8H is played with 7H from hand and 9H taken with it
    s = build_state("standard", ["7H 2C", "3D"], discard="KS 8H 9H", phase="draw")
    assert rule_of(s, TakeDiscard(1)) is None
    s = apply(s, TakeDiscard(1))
    assert rule_of(s, meld(s, "7H 8H 9H")) is None
    s2 = build_state("standard", ["7C 2C", "3D"], discard="KS 8H 9H", phase="draw")
    assert rule_of(s2, TakeDiscard(1)) == "5.2"


# ---------------------------------------------------------------------------- §5.2 lay-offs and credit
def test_layoff_on_any_players_meld_credits_the_layer() -> None:
    s = build_state("standard", ["8S 2C 3C", "4D"], table=["5S 6S 7S"], table_credit=[1])
    before = s.round.credited
    s = apply(s, LayOff(0, hand_layoff(s, 0, 0, "8S")))
    assert s.round.credited[0] - before[0] == 5
    assert s.round.credited[1] == before[1] == 15
    assert s.round.table[0].credit == (1, 1, 1, 0)
    # a lay-off must keep the meld valid
    s2 = build_state("standard", ["9D 2C 3C", "4D"], table=["5S 6S 7S"])
    assert rule_of(s2, LayOff(0, hand_layoff(s2, 0, 0, "9D"))) == "5.3"


def test_no_opening_requirement() -> None:
    s = build_state("standard", ["2C 3C 4C 9D", "4D"], opened=[True, True])
    assert rule_of(s, meld(s, "2C 3C 4C")) is None
    assert new_match("standard", 2, seed=1).round.opened == (True, True)


# ---------------------------------------------------------------------------- §5.3 melds
def test_groups_and_runs() -> None:
    s = build_state("standard", ["7H 7S 7C 7D QS KS AS 2S 9D", "4D"])
    assert rule_of(s, meld(s, "7H 7S 7C 7D")) is None
    assert rule_of(s, meld(s, "QS KS AS")) is None  # ace high
    assert rule_of(s, meld(s, "KS AS 2S")) == "5.3"  # no wrap


def test_two_decks_allow_duplicate_cards_in_a_group() -> None:
    hands = ["7H 7H 7S 2C", "4D", "4D", "5D", "6D"]
    s = build_state("standard", hands, options=["decks=2"])
    assert rule_of(s, meld(s, "7H 7H 7S")) is None
    s1 = build_state("standard", ["7H 7S 7C 2C", "4D"])
    assert rule_of(s1, meld(s1, "7H 7S 7C")) is None


def test_standard_two_decks_groups_without_cap_runs_without_repeats() -> None:
    hands = ["7H 7H 7S 7S 7C 7D 5H 6H 6H 2C", "4D", "4D", "5D", "6D"]
    s = build_state("standard", hands, options=["decks=2"])
    assert rule_of(s, meld(s, "7H 7H 7S 7S 7C 7D")) is None
    assert rule_of(s, meld(s, "5H 6H 6H 7H")) == "5.3"


def test_standard_group_of_one_deck_distinct_suits() -> None:
    s = build_state("standard", ["7H 7S 7C 2C", "7D"], table=["9S 9H 9D 9C"])
    assert rule_of(s, meld(s, "7H 7S 7C")) is None
    s = build_state("standard", ["9S 2C", "7D"], table=["9H 9D 9C"], stock="")
    assert rule_of(s, LayOff(0, hand_layoff(s, 0, 0, "9S"))) is None


# ---------------------------------------------------------------------------- §5.2/5.4 going out and scoring
def test_going_out_by_playing_the_last_card() -> None:
    s = build_state("standard", ["8S", "AH KD 3C"], table=["5S 6S 7S"], table_credit=[1])
    out = apply(s, LayOff(0, hand_layoff(s, 0, 0, "8S")))
    result = out.history[-1]
    assert result.reason == "out" and result.winner == 0
    # seat 0: +5 played, +25 bonus; seat 1: +15 credited (5S 6S 7S) - (15 + 10 + 5) held
    assert result.scores == (30, 15 - 30)


def test_going_out_by_discarding_the_last_card() -> None:
    s = build_state("standard", ["8S", "AH"])
    out = apply(s, Discard(hand_ids(s, 0, "8S")[0]))
    assert out.history[-1].winner == 0 and out.history[-1].scores == (25, -15)


def test_card_values() -> None:
    v = get_variant("standard")
    values = {t: v.hand_value(parse_card(t)) for t in ("AS", "2H", "9D", "TC", "JS", "QH", "KD")}
    assert values == {"AS": 15, "2H": 5, "9D": 5, "TC": 10, "JS": 10, "QH": 10, "KD": 10}


def test_empty_draw_pile_take_or_end_the_deal() -> None:
    s = build_state("standard", ["7H 8H 2C", "3D"], discard="9H", stock="", phase="draw")
    assert rule_of(s, DrawStock()) == "5.2"
    assert rule_of(s, TakeDiscard(0)) is None
    moves = legal_moves(s)
    assert EndDeal() in moves and TakeDiscard(0) in moves
    ended = apply(s, EndDeal())
    result = ended.history[-1]
    assert result.reason == "stock_exhausted" and result.winner is None
    assert result.scores == (-(5 + 5 + 5), -5)  # held only, no bonus
    s2 = build_state("standard", ["7H 8H 2C", "3D"], discard="9H", stock="4C", phase="draw")
    assert rule_of(s2, EndDeal()) == "5.4"


def test_standard_low_ace_is_worth_fifteen_on_the_table() -> None:
    s = build_state("standard", ["AS 2S 3S KD", "4C"])
    s = apply(s, meld(s, "AS 2S 3S"))
    assert s.round.credited == (15 + 5 + 5, 0)
    result = apply(s, Discard(hand_ids(s, 0, "KD")[0])).history[-1]
    assert result.scores == (25 + 25, -5)  # no Black Heart bonus in the standard game


def test_empty_draw_pile_and_empty_row_leave_only_ending_the_deal() -> None:
    s = build_state("standard", ["7H 8H 2C", "3D"], discard="", stock="", phase="draw")
    assert legal_moves(s) == [EndDeal()]
    assert rule_of(s, TakeDiscard(0)) == "5.2"


# ---------------------------------------------------------------------------- §5.4 match end
def _result(winner: int | None, reason: str = "out") -> RoundResult:
    return RoundResult(winner, (0, 0), reason)  # type: ignore[arg-type]


def test_match_ends_when_the_player_going_out_has_500() -> None:
    v = get_variant("standard")
    assert match_winners(v, (510, 600), (_result(0),)) == (0,)
    # seat 1 has more but did not go out: the game continues
    assert match_winners(v, (300, 600), (_result(0),)) == ()
    assert match_winners(v, (300, 600), (_result(None, "stock_exhausted"),)) == ()


def test_match_capped_by_max_deals() -> None:
    v = get_variant("standard", {"max_deals": 2})
    history = (_result(None, "stock_exhausted"), _result(1))
    assert match_winners(v, (120, 80), history) == (0,)
    assert match_winners(v, (120, 80), history[:1]) == ()
