"""Rummy Palace joker swaps on the opening turn, after the 30 (§4.4-4.5), against the reference.

The solver splits such a turn into a minimal opening from the hand and an opened turn
(`rummyai.solvers.opening_swaps`); the reference searches every opening set and then every
opened turn exhaustively. Positions hold a table joker and a hand card that can take its place.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from solver_checks import start_melds_grow

from rummyai.cards import card_str, make_card, parse_cards, rank_str
from rummyai.solvers import Position, Solution, make_position, solve
from rummyai.solvers.check import check_solution
from rummyai.solvers.opening_swaps import (
    minimal_openings,
    opening_swaps_possible,
    swap_cards,
    with_opening_swaps,
)
from rummyai.solvers.reference import reference_solve

SUITS = "SHDC"


@st.composite
def opening_positions(draw: st.DrawFn) -> tuple[str, str, str]:
    """A table run or group holding a joker, a hand with the card that fits it, high cards that
    may open (30 points) and a few others."""
    suit = draw(st.integers(0, 3))
    low = draw(st.integers(2, 10))
    if draw(st.booleans()):
        ranks = [low, low + 1, low + 2]
        at = draw(st.integers(0, 2))
        meld = [
            f"JK={rank_str(r)}{SUITS[suit]}" if k == at else f"{rank_str(r)}{SUITS[suit]}"
            for k, r in enumerate(ranks)
        ]
        fits = make_card(ranks[at], suit)
    else:
        suits = draw(st.lists(st.integers(0, 3), min_size=3, max_size=3, unique=True))
        meld = [f"{rank_str(low)}{SUITS[s]}" for s in suits[:2]] + [f"JK={rank_str(low)}"]
        fits = make_card(low, suits[2])
    deck = [make_card(r, s) for r in (1, 11, 12, 13) for s in range(4)] * 2
    high = draw(st.lists(st.sampled_from(deck), min_size=3, max_size=5))
    others = draw(st.lists(st.sampled_from(range(52)), min_size=0, max_size=3))
    jokers = ["JK"] * draw(st.integers(0, 1))
    hand_cards = [fits, *high, *others]
    naturals = parse_cards(" ".join(t for t in meld if not t.startswith("JK")))
    assume(all(n <= 2 for n in (Counter(hand_cards) + Counter(naturals)).values()))
    hand = " ".join([*(card_str(c) for c in hand_cards), *jokers])
    return hand, " ".join(meld), draw(st.sampled_from(["cards", "points", "penalty"]))


@settings(max_examples=150, deadline=None)
@given(case=opening_positions())
def test_opening_turn_swaps_match_reference(case: tuple[str, str, str]) -> None:
    hand, table, objective = case
    position = make_position("rummy-palace", hand, table, opened=False)
    fast = solve("rummy-palace", hand, table, opened=False, objective=objective)
    slow = reference_solve("rummy-palace", hand, table, opened=False, objective=objective)
    assert fast.status == "optimal"
    assert (fast.cards_played, fast.points_played) == (slow.cards_played, slow.points_played)
    assert fast.value == slow.value
    check_solution(position, fast)
    assert start_melds_grow(position, fast.melds)


@pytest.mark.parametrize(
    ("hand", "table", "played"),
    [
        # open with the kings, swap 6C for the joker, lay the joker off on the club run
        ("KS KH KD 6C 2D 9S", "5C JK=6C 7C", "KS KH KD 6C"),
        # the full group of fives leaves the joker only one home: the opening group of kings
        ("5C KS KH KD 2D 9S", "5S 5H 5D JK=5C", "5C KS KH KD"),
        # 7H frees the joker, which makes a new meld with 2C 3C after the opening
        ("7H 2C 3C 9D KS KH KD", "5H 6H JK=7H 8H", "7H 2C 3C KS KH KD"),
        # no 30 from the hand: no opening, so no swap either
        ("7H 2C 3C 9D", "5H 6H JK=7H 8H", ""),
    ],
)
def test_opening_turn_swap_cases(hand: str, table: str, played: str) -> None:
    sol = solve("rummy-palace", hand, table, opened=False)
    assert sol.status == "optimal"
    assert sorted(sol.played) == sorted(parse_cards(played))
    check_solution(make_position("rummy-palace", hand, table, False), sol)


def test_swap_cards_and_minimal_openings() -> None:
    position = make_position("rummy-palace", "5C 6C KS KH KD QS QH QD 2D", "5S 5H JK=5 | 5C JK=6C 7C", False)
    assert swap_cards(position) == set(parse_cards("5D 5C 6C"))
    assert opening_swaps_possible(position)
    openings = list(minimal_openings(position, swap_cards(position)))
    # kings (30) or queens (30) alone; never both (not minimal)
    assert sorted(sorted(c for info in o for c in info.cards) for o in openings) == sorted(
        [sorted(parse_cards("KS KH KD")), sorted(parse_cards("QS QH QD"))]
    )
    assert not opening_swaps_possible(make_position("rummy-palace", "5C", "5S 5H JK=5", True))
    assert not opening_swaps_possible(make_position("standard", "5C", "5S 5H 5D", False))


def test_past_the_deadline_no_opening_is_tried() -> None:
    """A time limit's deadline stops the search over openings: the base answer comes back,
    labelled feasible, and no opened turn is solved after the deadline."""
    position = make_position("rummy-palace", "KS KH KD 6C 2D 9S", "5C JK=6C 7C", False)
    base = solve("rummy-palace", "KS KH KD 6C 2D 9S", "5C JK=6C 7C", opened=False)
    calls: list[Position] = []

    def solve_opened(at: Position, cap: int | None, committed: Sequence[int], taken: int | None) -> Solution:
        calls.append(at)
        return base

    late = with_opening_swaps(position, base, "cards", None, solve_opened, deadline=time.perf_counter())
    assert (late.played, late.status, calls) == (base.played, "feasible", [])
    on_time = with_opening_swaps(position, base, "cards", None, solve_opened, deadline=None)
    assert calls and on_time.status == base.status


@pytest.mark.parametrize(
    ("hand", "taken", "cards"),
    [
        # a second KS: the opening's KS is the taken one, so the last KS may be discarded after
        # the swap lays the joker on the kings
        ("KS KS KH KD 6C", "KS", 4),
        # after the kings only the taken 6C would be left, which may not be discarded
        ("KS KH KD 6C", "6C", 0),
    ],
)
def test_the_taken_card_is_read_over_the_whole_opening_turn(hand: str, taken: str, cards: int) -> None:
    answer = solve("rummy-palace", hand, "5C JK=6C 7C", opened=False, taken=taken)
    assert (answer.cards_played, answer.status) == (cards, "optimal")
