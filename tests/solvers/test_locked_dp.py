"""Tile Rummy's opened turns by the dynamic program (`rummyai.solvers.locked_dp`): the best score
of an independent exhaustive search on small positions and of the CP-SAT model on mid-game ones,
and every answer a legal move by the engine's judge."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummyai.cards import JOKER
from rummyai.solvers import make_position, solve
from rummyai.solvers.check import check_solution
from rummyai.solvers.locked_dp import locked_dp_applies, solve_locked_dp
from rummyai.solvers.position import Solution, score_key
from rummyai.solvers.random_positions import joker_positions, random_position
from rummyai.solvers.reference import reference_solve
from rummyai.solvers.tile_solve import solve_tile
from rummyai.variants import get_variant

TILES = get_variant("rummy-tiles")


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    objective=st.sampled_from(["cards", "points", "penalty"]),
    tidy=st.booleans(),
)
def test_matches_exhaustive_search(seed: int, objective: str, tidy: bool) -> None:
    rng = random.Random(seed)
    hand, table = random_position(TILES, seed, rng.randint(3, 7), rng.randint(2, 5), 0.35, 0.8)
    position = make_position(TILES, hand, table)
    found = solve_locked_dp(position, objective, tidy)
    exact = reference_solve(TILES, hand, table, objective=objective)
    if found is not None:
        check_solution(position, found)
        assert score_key(position, objective, found.played) == score_key(position, objective, exact.played)
    answer = solve(TILES, hand, table, objective=objective)
    check_solution(position, answer)
    assert score_key(position, objective, answer.played) == score_key(position, objective, exact.played)


@pytest.mark.parametrize("objective", ["cards", "points"])
def test_matches_the_cp_sat_model_on_joker_positions(objective: str) -> None:
    answered = 0
    for hand, table in joker_positions(TILES, 25, 7 if objective == "cards" else 8):
        position = make_position(TILES, hand, table)
        found = solve_locked_dp(position, objective)
        if found is None:
            continue
        answered += 1
        check_solution(position, found)
        model = solve_tile(position, objective, None, None)
        assert model.status == "optimal"
        assert score_key(position, objective, found.played) == score_key(position, objective, model.played)
    assert answered >= 20  # the program proves most of them (the CP-SAT model answers the rest)


def test_a_locked_meld_keeps_its_joker_without_a_rack_replacement() -> None:
    # with free jokers JD QD JK and 5S 6S 7S would play both cards; T3 keeps the joker meld
    # whole and the hand has no 8S to take the joker (T4 b): nothing can be played
    hand, table = "JD QD", "5S 6S 7S JK=8S"
    position = make_position(TILES, hand, table)
    found = solve_locked_dp(position, "cards")
    assert found is not None and found.played == ()
    assert reference_solve(TILES, hand, table).played == ()
    assert len(solve("rummikub", hand, table).played) == 2


def _checked(hand: str, table: str, objective: str = "cards") -> Solution:
    """The program's answer, which it must give, as a legal move by the engine's judge."""
    position = make_position(TILES, hand, table)
    found = solve_locked_dp(position, objective)
    assert found is not None
    check_solution(position, found)
    return found


def test_a_joker_is_taken_with_its_natural_from_the_rack() -> None:
    hand, table = "6S 8H 9H", "4S 5S JK=6S"
    found = _checked(hand, table)
    assert len(found.played) == len(reference_solve(TILES, hand, table).played) == 3


@pytest.mark.parametrize(
    ("hand", "table"),
    [
        ("TS JS QD 3C", "QS QH JK=Q QC"),  # the relaxation adds the taken joker to a start meld
        ("9H 6D 9D 6C", "JK=6C 7C 8C 9C"),
        ("2S 8S JS KS 7D 5C", "TS JK=JS QS | AC 2C 3C"),
        ("AH 2H 2H 9C JK JK", "7S 8S 9S | 8S 8H 8C"),  # and lays both hand jokers in one meld
    ],
)
def test_a_joker_the_relaxation_lays_where_the_rules_refuse_it_is_laid_elsewhere(
    hand: str, table: str
) -> None:
    # T2 and T4 c-d: the same cards with the joker moved make a legal play at the bound
    found = _checked(hand, table)
    assert len(found.played) == len(reference_solve(TILES, hand, table).played)
    assert found.status == "optimal"


def test_a_locked_run_grows_at_both_ends() -> None:
    hand, table = "2S 3S 7S 8S KD", "4S 5S JK=6S"
    position = make_position(TILES, hand, table)
    found = solve_locked_dp(position, "cards")
    assert found is not None and sorted(found.played) == sorted(make_position(TILES, "2S 3S 7S 8S").hand)
    assert any(len(meld) == 7 for meld in found.melds)


@pytest.mark.parametrize(
    ("variant", "opened"),
    [("rummy-tiles", False), ("rhine", True), ("rummikub", True), ("standard", True)],
)
def test_applies_to_opened_tile_rummy_turns_only(variant: str, opened: bool) -> None:
    position = make_position(variant, "5H 6H 7H", "", opened)
    assert not locked_dp_applies(position, None)


def test_does_not_apply_under_a_cap_on_cards() -> None:
    position = make_position(TILES, "5H 6H 7H", "")
    assert locked_dp_applies(position, None)
    assert not locked_dp_applies(position, 2)


def test_a_locked_group_grows_with_a_card_of_a_taken_joker_meld() -> None:
    # 5S takes the run's joker (5S 5H JK=5), 6S 6D 6C, and the run's 7S joins the locked 7s
    found = _checked("5S 5H QH 6D 6C", "JK=7 7D 7H | JK=5S 6S 7S", "points")
    assert sorted(found.played) == sorted(make_position(TILES, "5S 5H 6D 6C").hand)


def test_a_second_copy_on_the_table_is_read_as_section_7_1_says() -> None:
    # JK=8C 9C TC JC QC holds the joker meld's card kinds, but the copy reading that keeps most
    # start pairs puts the run's 9C TC there (with its JC QC): the joker meld is split (T3)
    hand, table = "8S 8D 9S 9H TS TH", "JK=8C 9C TC | 8C 9C TC JC QC"
    position = make_position(TILES, hand, table)
    found = solve_locked_dp(position, "cards")
    if found is not None:
        check_solution(position, found)
    answer = solve(TILES, hand, table)
    check_solution(position, answer)
    assert len(answer.played) == len(reference_solve(TILES, hand, table).played) == 4


def test_a_passed_deadline_leaves_the_position_to_cp_sat() -> None:
    """The program checks the call's deadline: past it, it gives no answer (CP-SAT answers with
    the time left) rather than a search that overruns the limit."""
    hand, table = "6S 8H 9H", "4S 5S JK=6S"
    position = make_position(TILES, hand, table)
    assert solve_locked_dp(position, "cards") is not None
    assert solve_locked_dp(position, "cards", deadline=time.perf_counter() - 1) is None


def test_joker_positions_hold_a_table_joker_and_repeat_with_their_seed() -> None:
    """The mid-game recipe the tests above and the benchmarks share."""
    cases = joker_positions(TILES, 12, 5)
    assert len(cases) == 12 and cases == joker_positions(TILES, 12, 5)
    for hand, table in cases:
        assert any(slot.card == JOKER for meld in table for slot in meld)
        assert 8 <= len(hand) <= 16 and 13 <= sum(len(meld) for meld in table) <= 45
        make_position(TILES, hand, table)  # valid melds, copies within the deck
    assert joker_positions("standard", 3, 5)  # a deck without jokers: any table
