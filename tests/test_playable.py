"""`rummyai.playable`: the cards it keeps bound every play, so an empty answer means no play exists."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummyai.cards import parse_cards
from rummyai.playable import playable_cards
from rummyai.solvers import make_position
from rummyai.solvers.random_positions import random_position
from rummyai.solvers.reference import reference_solve
from rummyai.variants import get_variant


def _bound(variant: str, hand: list[int] | str, table: list | str) -> int:
    position = make_position(variant, hand, table)
    table_cards = [c for info in position.table for c in info.cards]
    return len(playable_cards(position.variant, position.hand, table_cards, opened=True))


@pytest.mark.parametrize("variant", ["rummikub", "rummy-board", "rummy-tiles", "rhine"])
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_bound_holds_against_the_reference(variant: str, seed: int) -> None:
    rng = random.Random(seed)
    hand, table = random_position(variant, seed, rng.choice([0, 3, 6, 9]), rng.randint(2, 6), related=0.5)
    best = reference_solve(variant, hand, table).cards_played
    bound = _bound(variant, hand, table)
    assert best <= bound <= len(hand)
    if bound == 0:
        assert best == 0


@pytest.mark.parametrize(
    ("hand", "table", "bound"),
    [
        ("2S 9H KD", "5C 6C 7C", 0),  # nothing fits anywhere
        ("8C 2S", "5C 6C 7C", 1),  # 8C extends the run
        ("4S 4H", "", 0),  # two of a kind and no joker: no meld
        ("4S 4H JK", "", 3),  # the joker completes the group
        ("JK", "5C 6C 7C", 1),  # a joker can always join a meld with room
        ("9S TS", "JK=5C 6C 7C", 2),  # the table joker may stand in: 9S TS JK
    ],
)
def test_fixed_bounds(hand: str, table: str, bound: int) -> None:
    assert _bound("rummikub", hand, table) == bound


def test_playable_cards_drops_cards_that_fit_nothing_to_a_fixed_point() -> None:
    rk = get_variant("rummikub")
    # 4S fits only with 5S and 6S; 6S fits nothing else, so neither is playable, nor is KD.
    hand = parse_cards("4S 5S KD 9H")
    assert playable_cards(rk, hand, parse_cards("9S 9D"), opened=True) == tuple(parse_cards("9H"))
    assert playable_cards(rk, hand, parse_cards("6S"), opened=True) == tuple(sorted(parse_cards("4S 5S")))
    # the table only counts once opened
    assert playable_cards(rk, hand, parse_cards("6S 9S 9D"), opened=False) == ()
    # a joker stays, and lets 4S 5S make a run
    assert playable_cards(rk, parse_cards("4S 5S JK"), (), opened=False) == tuple(
        sorted(parse_cards("4S 5S JK"))
    )
