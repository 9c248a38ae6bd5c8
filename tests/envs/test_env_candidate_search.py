"""`solve_position` (the environments' solver entry) answers as `solve` does: the same proven count
and points on random positions, the cap on cards per turn respected."""

from __future__ import annotations

import pytest

from rummyai.cards import JOKER
from rummyai.solvers import solve
from rummyai.solvers.candidate_search import has_joker, opening_play, solve_position, uncapped
from rummyai.solvers.random_positions import random_position
from rummyai.variants import get_variant


@pytest.mark.parametrize("variant_id", ["rummikub", "rummy-board"])
@pytest.mark.parametrize("objective", ["cards", "points"])
def test_same_best_play_as_solve(variant_id: str, objective: str) -> None:
    variant = get_variant(variant_id)
    for seed in range(25):
        hand, table = random_position(variant, seed, table_cards=24, hand_cards=8 + seed % 12, related=0.6)
        for opened in (True, False):
            want = solve(variant, hand, table, opened=opened, objective=objective, minimize_changes=False)
            got = solve_position(
                variant,
                hand,
                table,
                opened=opened,
                objective=objective,
                work_limit=None,
                minimize_changes=False,
            )
            assert (got.cards_played, got.points_played, got.status) == (
                want.cards_played,
                want.points_played,
                want.status,
            ), (seed, opened)
            cap = variant.max_hand_cards_per_turn
            assert cap is None or got.cards_played <= cap


def test_uncapped_twin_differs_only_in_the_cap() -> None:
    board = get_variant("rummy-board")
    twin = uncapped(board)
    assert twin.max_hand_cards_per_turn is None and board.max_hand_cards_per_turn == 12
    assert twin is uncapped(board)
    assert (twin.deck, twin.copies, twin.min_meld) == (board.deck, board.copies, board.min_meld)


@pytest.mark.parametrize("variant_id", ["rummikub", "rummy-board"])
def test_openings_the_program_answers_match_solve(variant_id: str) -> None:
    """Unopened positions whose best play from the hand opens are answered by the program (and
    agree with `solve`); the others are left to `solve`."""
    variant = get_variant(variant_id)
    answered = 0
    for seed in range(40):
        hand, table = random_position(variant, seed, table_cards=15, hand_cards=14 + seed % 5)
        got = opening_play(variant, hand, table, "cards")
        if got is None:
            continue
        answered += 1
        want = solve(variant, hand, table, opened=False, objective="cards", minimize_changes=False)
        assert (got.cards_played, got.points_played) == (want.cards_played, want.points_played), seed
        assert got.melds[: len(table)] == tuple(tuple(m) for m in table)
    assert answered >= 5


@pytest.mark.parametrize("opened", [True, False])
def test_positions_without_jokers_under_locked_jokers_match_solve(opened: bool) -> None:
    """rummy-tiles locks jokers; a position with no joker in hand or on the table is answered as
    under free jokers, with the best count and points `solve` proves."""
    variant = get_variant("rummy-tiles")
    checked = 0
    for seed in range(24):
        hand, table = random_position(variant, seed, table_cards=21, hand_cards=9 + seed % 8, joker_rate=0.0)
        hand = [card for card in hand if card != JOKER]
        if has_joker(hand, table):
            continue
        want = solve(variant, hand, table, opened=opened, objective="cards", minimize_changes=False)
        got = solve_position(
            variant, hand, table, opened=opened, objective="cards", work_limit=None, minimize_changes=False
        )
        assert (got.cards_played, got.points_played) == (want.cards_played, want.points_played), seed
        checked += 1
    assert checked >= 12
