"""`opening_out_of_reach` says 'no opening' only where the solver finds no play for an unopened seat."""

from __future__ import annotations

import numpy as np
import pytest

from rummyai.cards import parse_cards
from rummyai.playable import playable_cards
from rummyai.solvers import solve
from rummyai.solvers.opening_reach import card_bounds, opening_out_of_reach
from rummyai.variants import get_variant


def test_thirty_points_open_and_twenty_nine_do_not() -> None:
    rummikub = get_variant("rummikub")
    assert not opening_out_of_reach(rummikub, parse_cards("8S 9S TS AH AS AD"))  # 27 + 3
    assert opening_out_of_reach(rummikub, parse_cards("7S 8S 9S AH AS AD"))  # 24 + 3
    # enough face value, but the only meld scores 6: the dynamic program's bound rules it out
    assert opening_out_of_reach(rummikub, parse_cards("AS 2S 3S KH QD JC TS"))
    # a joker may stand for a king
    assert not opening_out_of_reach(rummikub, parse_cards("JK QS KS 9H 9D 9C"))


def test_other_openings_are_never_ruled_out() -> None:
    hand = parse_cards("AS 2H")
    for variant in ("rhine", "standard", "rummy-palace"):  # not a points opening of new melds alone
        assert not opening_out_of_reach(get_variant(variant), hand)


def test_bounds_cover_every_card_value() -> None:
    for name in ("rummikub", "rummy-board", "rummy-tiles"):
        variant = get_variant(name)
        bounds = card_bounds(variant)
        for kind in range(52):
            rank = kind % 13 + 1
            assert bounds[kind] >= variant.opening_values[rank]
        if variant.opening_wild_value == "represented":
            assert bounds[52] >= max(variant.opening_values)


@pytest.mark.parametrize("name", ["rummikub", "rummy-board", "rummy-tiles"])
def test_out_of_reach_hands_have_no_play(name: str) -> None:
    variant = get_variant(name)
    rng = np.random.default_rng(7)
    deck = list(variant.deck)
    ruled_out = reachable = 0
    for _ in range(60):
        size = int(rng.integers(6, 17))
        hand = sorted(deck[i] for i in rng.choice(len(deck), size=size, replace=False))
        playable = list(playable_cards(variant, hand, [], False))
        if not playable:
            continue
        answer = solve(variant, playable, [], opened=False, objective="cards", work_limit=5.0)
        if opening_out_of_reach(variant, playable):
            ruled_out += 1
            assert answer.cards_played == 0, (name, hand)
        elif answer.cards_played:
            reachable += 1
    assert ruled_out >= 5 and reachable >= 1
