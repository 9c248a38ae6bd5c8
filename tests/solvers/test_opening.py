"""The ``opening`` objective: the fewest hand cards whose new melds meet the opening requirement,
checked against an exhaustive search over the hand's subsets and the engine's judge."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummyai.cards import JOKER, card_str, make_card
from rummyai.engine import judge_play
from rummyai.errors import RummyError
from rummyai.solvers import solve
from rummyai.solvers.reference import reference_solve
from rummyai.variants import Variant, get_variant

TABLE = "3C 4C 5C | 7S 7D 7H"


def _hand(seed: int) -> list[str]:
    """Seven or eight cards from a narrow band (8 to K in two suits, a joker now and then), so that
    openings of 30 points or of three naturals are often but not always within reach."""
    rng = random.Random(seed)
    band = [card_str(make_card(rank, suit)) for rank in range(8, 14) for suit in (1, 2)]
    cards = rng.sample(band * 2, rng.randint(7, 8))
    if rng.random() < 0.4:
        cards[0] = card_str(JOKER)
    return cards


def _fewest(variant: Variant, hand: list[str]) -> int:
    """The size of the smallest set of hand cards that opens: every card of it played as new
    melds by an unopened player on an empty table (the exhaustive reference), else 0."""
    for size in range(3, len(hand) + 1):
        for subset in combinations(hand, size):
            if reference_solve(variant, list(subset), (), opened=False).cards_played == size:
                return size
    return 0


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6))
@pytest.mark.parametrize("name", ["rummikub", "rhine", "rhine+rhine.points_qualify", "rummy-tiles"])
def test_the_opening_is_the_fewest_cards_that_open(name: str, seed: int) -> None:
    base, _, option = name.partition("+")
    variant = get_variant(base, [option] if option else None)
    hand = _hand(seed)
    answer = solve(variant, hand, TABLE, objective="opening", opened=False)
    assert answer.status == "optimal"
    assert answer.cards_played == answer.value == _fewest(variant, hand)
    if answer.played:
        verdict = judge_play(variant, hand, TABLE, answer.table_text(), opened=False)
        assert verdict.legal, verdict.reason
        assert answer.table_text().startswith(TABLE)  # the table is left as it is


def test_ties_keep_the_wilds_then_play_the_most_points() -> None:
    answer = solve("rummikub", "TH JH QH KH JK 9S", TABLE, objective="opening", opened=False)
    assert answer.played_text() == "JH QH KH"  # JK QH KH is as short and as high, but spends the joker


def test_a_hand_that_cannot_open_plays_nothing_proven() -> None:
    answer = solve("rummikub", "2H 3H 4H 5S", TABLE, objective="opening", opened=False)
    assert answer.status == "optimal" and not answer.played


@pytest.mark.parametrize("variant", ["standard", "black-heart"])
def test_variants_without_a_points_or_meld_opening_are_refused_by_name(variant: str) -> None:
    with pytest.raises(RummyError, match=f"{variant}'s opening is"):
        solve(variant, "TS JS QS", objective="opening")


def test_opening_plays_new_melds_only() -> None:
    with pytest.raises(RummyError, match="objective 'opening' takes no"):
        solve("rummikub", "TH JH QH KH", objective="opening", max_cards=3)


def test_a_points_opening_counts_a_run_joker_where_it_is_written() -> None:
    # the joker must stand for JS (9S TS JS: 30 points), not 8S (27), though the hand holds an 8S
    rules = get_variant("rhine", ["rhine.points_qualify"])
    answer = solve(rules, "7S 7S 8S 9S TS 8C 8C JK JK", objective="opening", opened=False)
    assert answer.table_text() == "9S TS JK=JS"
    assert judge_play(rules, "7S 7S 8S 9S TS 8C 8C JK JK", "", answer.table_text(), opened=False).legal
