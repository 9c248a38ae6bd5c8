"""The solver's named-option rules against the exhaustive reference, and hand-made cases per rule.

Options: Rummy Palace ``cyclic_laying`` (runs wrap K-A-2) and ``opening_single_meld`` (the 30
opening points from one meld); Rhine ``rhine.points_qualify`` (qualify with 30 points of new
melds, wilds valued as the cards they stand for) and ``rhine.wild_twos`` (every 2 is a wild).
Positions are small and drawn around the ranks where the option matters.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solver_checks import draw_hand, draw_table_meld, judged_legal, start_melds_grow

from rummyai.cards import JOKER, Meaning, Slot, make_card, parse_cards, parse_table
from rummyai.solvers import make_position, solve
from rummyai.solvers.check import check_solution
from rummyai.solvers.position import Solution
from rummyai.solvers.reference import reference_solve
from rummyai.variants import Variant, get_variant

CYCLIC = get_variant("rummy-palace").with_options(["cyclic_laying"])
SINGLE = get_variant("rummy-palace").with_options(["opening_single_meld"])
BOTH = get_variant("rummy-palace").with_options(["cyclic_laying", "opening_single_meld"])
POINTS = get_variant("rhine", {"rhine.points_qualify": True})
TWOS = get_variant("rhine", {"rhine.wild_twos": True})
TWOS_POINTS = get_variant("rhine", {"rhine.wild_twos": True, "rhine.points_qualify": True})


@st.composite
def positions(
    draw: st.DrawFn, variant: Variant, ranks: Sequence[int], suits: Sequence[int], max_hand: int = 7
) -> tuple[list[int], list[tuple[Slot, ...]], bool]:
    """A small position: up to two valid table melds and a hand, both from `ranks` x `suits`
    and the variant's wild cards."""
    wilds = [c for c in range(53) if variant.always_wild(c)]
    used: Counter[int] = Counter()
    table: list[tuple[Slot, ...]] = []
    for _ in range(draw(st.integers(0, 2))):
        rank = draw(st.sampled_from(ranks))
        if draw(st.booleans()):
            suit = draw(st.sampled_from(suits))
            length = draw(st.integers(3, 4))
            meld_ranks = [(rank - 1 + k) % 13 + 1 for k in range(length)]
            meanings = [Meaning(r, suit) for r in meld_ranks]
            cards = [make_card(r, suit) for r in meld_ranks]
        else:
            group_suits = draw(st.lists(st.sampled_from(range(4)), min_size=3, max_size=4, unique=True))
            meanings = [Meaning(rank)] * len(group_suits)
            cards = [make_card(rank, s) for s in group_suits]
        meld = draw_table_meld(draw, variant, cards, meanings, wilds, used)
        if meld is not None:
            table.append(meld)
    pool = [make_card(r, s) for r in ranks for s in suits] + wilds
    return draw_hand(draw, variant, pool, used, 3, max_hand), table, draw(st.booleans())


def _compare(
    variant: Variant, hand: list[int], table: list, opened: bool, objective: str, proven_only: bool = False
) -> Solution:
    """Solve with the model and the reference; the answers must score alike and be legal.

    `proven_only`: a Rhine answer whose judge repair ran out of cuts is labelled ``feasible``;
    it must then be legal and no better than the reference, and equal only when ``optimal``.
    """
    fast = solve(variant, hand, table, opened=opened, objective=objective)
    slow = reference_solve(variant, hand, table, opened=opened, objective=objective)
    score = (fast.cards_played, fast.points_played)
    best = (slow.cards_played, slow.points_played)
    if proven_only and fast.status == "feasible":
        assert score <= best if objective == "cards" else score[::-1] <= best[::-1]
    else:
        assert score == best
        assert fast.value == slow.value
    position = make_position(variant, hand, table, opened)
    check_solution(position, fast)
    if variant.tile_style:
        if fast.played:
            assert judged_legal(variant, hand, table, fast.melds, opened)
    else:
        assert fast.status == "optimal"
        assert start_melds_grow(position, fast.melds)
    return fast


OBJECTIVES = st.sampled_from(["cards", "points", "penalty"])


# ---------------------------------------------------------------------------- Palace: cyclic laying
@settings(max_examples=80, deadline=None)
@given(case=positions(CYCLIC, (11, 12, 13, 1, 2, 3), (0, 1)), objective=OBJECTIVES)
def test_cyclic_laying_matches_reference(case: tuple, objective: str) -> None:
    hand, table, opened = case
    _compare(CYCLIC, hand, table, opened, objective)


@pytest.mark.parametrize(
    ("hand", "table", "opened", "played", "meld"),
    [
        ("2H 5C", "QH KH AH", True, "2H", "QH KH AH 2H"),  # a lay-off past the high ace
        ("KH 5C", "AH 2H 3H", True, "KH", "KH AH 2H 3H"),  # before a low ace, which turns high
        ("2H 3H 5C", "JK=QH KH AH", True, "2H 3H", "JK KH AH 2H 3H"),  # jokers <= naturals
        ("QH KH AH 2H 5C", "", False, "QH KH AH 2H", "QH KH AH 2H"),  # 10+10+11+2 = 33
        ("KH AH 2H 3H 5C", "", False, "", ""),  # 10+11+2+3 = 26 < 30: no opening
        ("AH 2H 3H 4H 5H 6H 7H 5C", "", False, "", ""),  # a low ace counts 1: 28 < 30
    ],
)
def test_cyclic_laying_cases(hand: str, table: str, opened: bool, played: str, meld: str) -> None:
    sol = solve(CYCLIC, hand, table, opened=opened)
    assert sorted(sol.played) == sorted(parse_cards(played))
    if meld:
        assert any(Counter(s.card for s in m) == Counter(parse_cards(meld)) for m in sol.melds)
    check_solution(make_position(CYCLIC, hand, table, opened), sol)


def test_no_wrap_without_the_option() -> None:
    assert solve("rummy-palace", "2H 5C", "QH KH AH").cards_played == 0
    assert solve("rummy-palace", "KH 5C", "AH 2H 3H").cards_played == 0


# ---------------------------------------------------------------------------- Palace: single-meld opening
@settings(max_examples=80, deadline=None)
@given(case=positions(SINGLE, (8, 9, 10, 11, 12, 13, 1), (0, 1, 2), max_hand=7), objective=OBJECTIVES)
def test_single_meld_opening_matches_reference(case: tuple, objective: str) -> None:
    hand, table, _ = case
    _compare(SINGLE, hand, table, False, objective)


@settings(max_examples=40, deadline=None)
@given(case=positions(BOTH, (12, 13, 1, 2, 3), (0, 1), max_hand=7), objective=OBJECTIVES)
def test_cyclic_single_meld_matches_reference(case: tuple, objective: str) -> None:
    hand, table, opened = case
    _compare(BOTH, hand, table, opened, objective)


@pytest.mark.parametrize(
    ("hand", "table", "played"),
    [
        ("7H 8H 9H 7C 7D 7S 2C", "", ""),  # 24 + 21: 45 in two melds, none worth 30 alone
        ("TH JH QH 5C", "", "TH JH QH"),  # 30 in one run
        ("9H 9C 9D 5C", "", ""),  # 27
        ("9H 9C 9D JK 5C", "", "9H 9C 9D JK"),  # the joker counts as a 9: 36
        ("8H 8C 8D JK 7H 7C 7D 5C", "", "8H 8C 8D JK 7H 7C 7D"),  # 32 opens; the 7s follow
        ("TH JH QH 2S 3S 5C", "4S 5S 6S", "TH JH QH 2S 3S"),  # lay-offs after the opening
        ("2S 3S JH QH 5C", "4S 5S 6S | TH JK=JH QH", ""),  # lay-offs do not count toward it
    ],
)
def test_single_meld_opening_cases(hand: str, table: str, played: str) -> None:
    sol = solve(SINGLE, hand, table, opened=False)
    assert sorted(sol.played) == sorted(parse_cards(played))
    check_solution(make_position(SINGLE, hand, table, False), sol)
    # the default rule adds the melds up
    if hand.startswith("7H 8H 9H"):
        assert solve("rummy-palace", hand, table, opened=False).cards_played == 6


# ---------------------------------------------------------------------------- Rhine: points qualification
@settings(max_examples=60, deadline=None)
@given(case=positions(POINTS, (10, 11, 12, 13, 1), (0, 1), max_hand=6), objective=OBJECTIVES)
def test_points_qualify_matches_reference(case: tuple, objective: str) -> None:
    hand, table, _ = case
    _compare(POINTS, hand, table, False, objective, proven_only=True)


@pytest.mark.parametrize(
    ("hand", "table", "played"),
    [
        ("7H 8H 9H 5C", "", ""),  # 24
        ("7H 8H 9H TH 5C", "", "7H 8H 9H TH"),  # 34
        ("QH KH JK 5C", "", "QH KH JK"),  # the joker counts as the ace (15) or the jack: >= 36
        ("5H 6H JK 5C", "", ""),  # 5 + 6 + 7 = 18 at best
        ("QS QH JK 5C", "", "QS QH JK"),  # a group joker counts as a queen: 36
        ("AS AH 2C", "", ""),  # two cards make no meld
        ("9S 9H 9D 2C 3C 4C", "5C 6C JK", "9S 9H 9D 2C 3C 4C"),  # 27 + 9 = 36, then play on
        ("9S 9H 9D 4C", "5C 6C 7C", ""),  # 27: lay-offs do not count toward the 30
        ("5H 6H 7H 5S 6S 7S 8S", "", "5H 6H 7H 5S 6S 7S 8S"),  # two melds: 18 + 26
    ],
)
def test_points_qualify_cases(hand: str, table: str, played: str) -> None:
    sol = solve(POINTS, hand, table, opened=False)
    assert sorted(sol.played) == sorted(parse_cards(played))
    check_solution(make_position(POINTS, hand, table, False), sol)
    if sol.played:
        assert judged_legal(POINTS, parse_cards(hand), parse_table(table), sol.melds, False)


def test_points_qualify_keeps_one_wild_per_meld() -> None:
    sol = solve(POINTS, "KH QH JK JK 5C", opened=False)
    assert sol.cards_played == 3  # KH QH JK; a second joker has no meld of its own
    assert all(sum(s.card == JOKER for s in meld) <= 1 for meld in sol.melds)


# ---------------------------------------------------------------------------- Rhine: wild twos
@settings(max_examples=80, deadline=None)
@given(case=positions(TWOS, (1, 2, 3, 4, 5), (0, 1), max_hand=6), objective=OBJECTIVES)
def test_wild_twos_match_reference(case: tuple, objective: str) -> None:
    hand, table, opened = case
    _compare(TWOS, hand, table, opened, objective, proven_only=True)


@settings(max_examples=40, deadline=None)
@given(case=positions(TWOS_POINTS, (12, 13, 1, 2, 3), (0, 1), max_hand=6), objective=OBJECTIVES)
def test_wild_twos_points_qualify_match_reference(case: tuple, objective: str) -> None:
    hand, table, _ = case
    _compare(TWOS_POINTS, hand, table, False, objective, proven_only=True)


@pytest.mark.parametrize(
    ("variant", "hand", "table", "opened", "played"),
    [
        (TWOS, "AH 2C 3H 4H", "", True, "AH 2C 3H 4H"),  # a two stands in for 2H in A-2-3
        (TWOS, "AH 2H 2C 3H", "", True, "AH 2H 3H"),  # at most one wild per meld
        (TWOS, "2H 2S 2C 5D", "", True, ""),  # twos are never natural: no group of twos
        (TWOS, "8C JC", "7C 2D 9C", True, "8C JC"),  # a table two released by 8C (R4, R5)
        (TWOS, "8C", "7C 2D 9C", True, ""),  # ... but not without a new natural card (R5)
        (TWOS, "2D", "3H 4H 5H | 6H 7H 8H", True, "2D"),  # a two joins naturals of two melds
        (TWOS, "2D", "3H 4H 5H 6H", True, ""),  # a wild may not simply join a meld
        (TWOS, "5S 5H 2C 9D", "", False, ""),  # the qualifying set has 3 naturals, no wild two
        (TWOS, "5S 5H 5C 2C 9D", "", False, "5S 5H 5C"),
        (TWOS_POINTS, "KS KH 2C 9D", "", False, "KS KH 2C"),  # the two counts as a king: 39
        (TWOS_POINTS, "AS 2C 3S 9D", "", False, ""),  # the two counts as 2S: 15 + 2 + 3 = 20
    ],
)
def test_wild_twos_cases(variant: Variant, hand: str, table: str, opened: bool, played: str) -> None:
    sol = solve(variant, hand, table, opened=opened)
    assert sorted(sol.played) == sorted(parse_cards(played))
    check_solution(make_position(variant, hand, table, opened), sol)
    if sol.played:
        assert judged_legal(variant, parse_cards(hand), parse_table(table), sol.melds, opened)


def test_wild_twos_score_fifty_in_hand() -> None:
    """A two left in hand costs 50: the points objective plays it before a joker (20)."""
    sol = solve(TWOS, "5H 6H 2C JK", objective="points", max_cards=3)
    assert sorted(sol.played) == sorted(parse_cards("5H 6H 2C"))


def test_palace_opening_turn_searches_swaps_after_the_30() -> None:
    """Swaps after the opening's 30 in the same turn (§4.4-4.5) are searched."""
    swap_possible = solve("rummy-palace", "KS KH KD 6C 2D 9S", "5C JK=6C 7C", opened=False)
    assert (
        swap_possible.status == "optimal" and swap_possible.cards_played == 4
    )  # kings, swap, joker laid off
    no_card_for_it = solve("rummy-palace", "KS KH KD 2D 9S", "5C JK=6C 7C", opened=False)
    assert no_card_for_it.status == "optimal" and no_card_for_it.cards_played == 3
    opened = solve("rummy-palace", "KS KH KD 6C 2D 9S", "5C JK=6C 7C", opened=True)
    assert opened.status == "optimal" and opened.cards_played == 4  # the swap, then the joker laid off


def test_wild_twos_played_are_named_by_the_table() -> None:
    """The model counts wild twos alike; the answer names the kind the new table holds (here a
    2H goes to the aces, the table's 2S stays in its run), so the play passes the conservation check."""
    table = parse_table("AS AH AD AC | AS 2S=2S 3S 4S")
    hand = parse_cards("2S 2H 2H")
    sol = solve(TWOS, hand, table)
    check_solution(make_position(TWOS, hand, table, True), sol)
    assert sol.cards_played == 1


def test_minimize_changes_is_a_json_key() -> None:
    from rummyai.solvers import solve_json

    position = {"hand": ["8H", "9H"], "table": [["5H", "6H", "7H"], ["8S", "8D", "8C"]]}
    tidy = solve_json(position)
    fast = solve_json({**position, "minimize_changes": False})
    assert tidy["cards_played"] == fast["cards_played"] == 2
    assert solve_json({**position, "minimize_changes": "no"}) == {
        "error": "'minimize_changes' must be true or false, got 'no'"
    }
