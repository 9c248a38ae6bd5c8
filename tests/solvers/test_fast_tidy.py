"""The dynamic program's fewest-broken tie-break (`solve_dp(..., tidy=True)` and `tidy_layout`):
the same proven play as without it, a valid table, its broken count told right, and start melds
kept whole in crafted positions where the plain program's layout breaks them."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummyai.solvers import make_position, solve
from rummyai.solvers.check import check_solution
from rummyai.solvers.fast import _group_layouts, tidy_layout
from rummyai.solvers.position import count_broken
from rummyai.solvers.random_positions import random_position
from rummyai.solvers.reference import reference_solve
from rummyai.solvers.run_dp import solve_dp


@pytest.mark.parametrize("variant", ["rummikub", "rummy-board"])
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_tidy_pass_keeps_the_play_and_the_table_valid(variant: str, seed: int) -> None:
    rng = random.Random(seed)
    hand, table = random_position(variant, seed, rng.randint(0, 60), rng.randint(1, 12), related=0.6)
    position = make_position(variant, hand, table)
    objective = rng.choice(["cards", "points", "penalty"])
    plain = solve_dp(position, objective)
    tidy = solve_dp(position, objective, tidy=True)
    assert plain is not None and tidy is not None
    assert (tidy.cards_played, tidy.points_played, tidy.value) == (
        plain.cards_played,
        plain.points_played,
        plain.value,
    )
    check_solution(position, tidy)
    assert tidy.melds_broken == count_broken(position, tidy.melds)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_tie_break_never_beats_the_reference(seed: int) -> None:
    """On small positions the exhaustive reference finds the fewest broken melds among the best
    plays: the tie-break reaches the same play and never claims fewer."""
    rng = random.Random(seed)
    hand, table = random_position("rummikub", seed, rng.randint(3, 9), rng.randint(1, 4), related=0.8)
    answer = solve("rummikub", hand, table)
    best = reference_solve("rummikub", hand, table)
    assert (answer.cards_played, answer.points_played) == (best.cards_played, best.points_played)
    assert answer.melds_broken >= best.melds_broken


def test_two_groups_of_one_number_stay_whole() -> None:
    """Seven fives: a four and a three that hold both start groups."""
    answer = solve("rummikub", "5D", "5H 5S 5D | 5H 5S 5C")
    assert answer.cards_played == 1 and answer.melds_broken == 0


def test_lay_offs_keep_the_runs_whole() -> None:
    answer = solve("rummikub", "9H 8C", "3C 4C 5C | 6H 7H 8H | 5C 6C 7C")
    assert answer.cards_played == 2 and answer.melds_broken == 0
    assert "6H 7H 8H 9H" in answer.table_text() and "5C 6C 7C 8C" in answer.table_text()


def test_runs_that_meet_are_joined() -> None:
    position = make_position("rummikub", "", "3H 4H 5H 6H 7H 8H")
    halves = [position.table[0].slots[:3], position.table[0].slots[3:]]
    assert count_broken(position, halves) == 1
    joined = tidy_layout(position, [tuple(m) for m in halves])
    assert count_broken(position, joined) == 0


def test_a_spare_joker_moves_to_the_meld_that_needs_it() -> None:
    position = make_position("rummikub", "", "5H JK=6H 7H | 9S TS JS QS")
    laid = [position.table[0].slots, position.table[1].slots]
    # the same cards with the joker at the spade run's end instead of in the hearts
    moved = [
        make_position("rummikub", "", "5H 6H 7H").table[0].slots,
        make_position("rummikub", "", "9S TS JS QS JK=KS").table[0].slots,
    ]
    assert count_broken(position, laid) == 0
    tidy = tidy_layout(position, [tuple(m) for m in moved])
    assert Counter(c for m in tidy for s in m for c in s.cards()) == Counter(
        c for m in moved for s in m for c in s.cards()
    )
    assert count_broken(position, moved) == 1 and count_broken(position, tidy) == 0


@pytest.mark.parametrize(
    ("suits", "jokers", "count"),
    [([0, 1, 2], 0, 1), ([0, 1, 2, 3], 0, 1), ([0, 0, 1, 1, 2, 2], 0, 1), ([0, 1], 1, 1), ([0, 1], 0, 0)],
)
def test_group_layouts_use_every_card_once(suits: list[int], jokers: int, count: int) -> None:
    layouts = list(_group_layouts(sorted(suits), jokers, 3, 4))
    assert len(layouts) >= count
    for layout in layouts:
        assert sorted(s for group, _ in layout for s in group) == sorted(suits)
        assert sum(j for _, j in layout) == jokers
        assert all(3 <= len(group) + j <= 4 for group, j in layout)
