"""Rhine's strict witness model and the one deadline of the tile solver.

The strict model restricts the witness cards of R3/R4 to cards every copy assignment reads
alike (§7.1), so its tables pass the judge far more often; a table it finds at the relaxation's
bound is optimal. The witness model's claims exclude each other only within a role, which makes
it a relaxation with several joker melds: its optimum is never below the exhaustive reference's
(official Rummikub's witness model too, whose taken jokers ask only for their replacements).
Under a time limit every search stops at the limit and a cut search answers a judged-legal move
with status ``feasible`` (times are measured by `experiments/benchmarks/tiles_bench.py`, not here).
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solver_checks import judged_legal

from rummyai.cards import JOKER, Slot, parse_cards, parse_table
from rummyai.engine import judge_play
from rummyai.engine.copies import CopiesTimeout, canonical_tables, deadline_scope
from rummyai.engine.state import TableMeld
from rummyai.solvers import make_position, solve
from rummyai.solvers.check import check_solution
from rummyai.solvers.position import score_key
from rummyai.solvers.random_positions import random_position
from rummyai.solvers.reference import reference_solve
from rummyai.solvers.tile_decode import decode
from rummyai.solvers.tile_model import TileModel, solve_model
from rummyai.variants import get_variant

Case = tuple[list[int], list[tuple[Slot, ...]]]


def _small_joker_position(seed: int, joker_melds: int) -> Case | None:
    """A seeded small Rhine position (6-10 table cards, 3-5 hand cards near them) with at least
    `joker_melds` table melds holding a joker, or None."""
    rng = random.Random(seed)
    hand, table = random_position("rhine", seed, rng.randint(6, 10), rng.randint(3, 5), 0.35, 0.9)
    if sum(1 for meld in table if any(s.card == JOKER for s in meld)) < joker_melds:
        return None
    return hand, table


@pytest.mark.parametrize(
    ("hand", "table"),
    [
        ("5H 8H 6C", "3H 4H JK=5H 6H 7H"),
        ("3S TH 5D JD", "8C 8S JK=8 8H | JK=5D 6D 7D 8D"),
        ("9H TD JC", "9D TD JD QD | JD JK=J JS"),
        ("6S 6S 6H 6C TC", "JK=6C 7C 8C | 9S 9D 9C"),
        ("3S 8S QH 3D", "5S 6S 7S 8S | 5D JK=5 5H 5C"),
        ("4S 5H 3C 4C", "JK=TS JS QS KS | 3H 4H JK=5H"),
    ],
)
def test_strict_model_reaches_the_reference_value_with_a_legal_table(hand: str, table: str) -> None:
    """Positions whose relaxed table the judge refuses: the strict model's table at the
    reference's value is judged legal, and `solve` proves it."""
    cards, melds = parse_cards(hand), parse_table(table)
    position = make_position("rhine", cards, melds)
    best = reference_solve("rhine", cards, melds)
    tm = TileModel(position, "cards", None, False, strict=True)
    solver, _ = solve_model(tm, None)
    played, strict_melds, _ = decode(tm, solver)
    assert score_key(position, "cards", played) == (best.cards_played, best.points_played)
    assert judged_legal("rhine", cards, melds, strict_melds, True)
    sol = solve("rhine", cards, melds)
    check_solution(position, sol)
    assert sol.status == "optimal"
    assert (sol.cards_played, sol.points_played) == (best.cards_played, best.points_played)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_witness_model_bounds_tables_with_several_joker_melds(seed: int) -> None:
    """The witness model is a relaxation with two or more joker melds on the table: its optimum
    is never below the exhaustive reference's (a legal table it could not represent would be)."""
    case = _small_joker_position(seed, 2)
    if case is None:
        return
    hand, table = case
    position = make_position("rhine", hand, table)
    tm = TileModel(position, "cards", None, False, witnesses=True)
    solver, _ = solve_model(tm, None)
    played = decode(tm, solver)[0]
    best = reference_solve("rhine", hand, table)
    assert score_key(position, "cards", played) >= (best.cards_played, best.points_played)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**9), table_source=st.booleans())
def test_official_witness_model_bounds_tables_with_two_joker_melds(seed: int, table_source: bool) -> None:
    """Official Rummikub's witness model (taken jokers need their replacements) is a relaxation
    with both jokers on the table in different melds too, replacements from the rack or also
    from the table: never below the exhaustive reference."""
    source = "rack_or_table" if table_source else "rack"
    variant = get_variant("rummikub", {"official_jokers": True, "joker_replacement_from": source})
    rng = random.Random(seed)
    hand, table = random_position(variant, seed, rng.randint(6, 10), rng.randint(3, 5), 0.35, 0.9)
    if sum(1 for meld in table if any(s.card == JOKER for s in meld)) < 2:
        return
    position = make_position(variant, hand, table)
    tm = TileModel(position, "cards", None, False, witnesses=True)
    solver, _ = solve_model(tm, None)
    played = decode(tm, solver)[0]
    best = reference_solve(variant, hand, table)
    assert score_key(position, "cards", played) >= (best.cards_played, best.points_played)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), objective=st.sampled_from(["cards", "points"]))
def test_answers_on_several_joker_melds_match_the_reference(seed: int, objective: str) -> None:
    """`solve` on small positions with two or more joker melds: judged legal, never better than
    the reference, and equal to it when called optimal."""
    case = _small_joker_position(seed, 2)
    if case is None:
        return
    hand, table = case
    sol = solve("rhine", hand, table, objective=objective)
    check_solution(make_position("rhine", hand, table), sol)
    best = reference_solve("rhine", hand, table, objective=objective)
    ours, theirs = (sol.cards_played, sol.points_played), (best.cards_played, best.points_played)
    if objective == "points":
        ours, theirs = ours[::-1], theirs[::-1]
    assert ours <= theirs
    if sol.status == "optimal":
        assert ours == theirs


def _hard_rhine(count: int) -> list[Case]:
    """Seeded large Rhine positions with a second pack (tables of 45-70 cards, many jokers)."""
    rules = get_variant("rhine", ["extra_packs=1"])
    rng = random.Random(7)
    out: list[Case] = []
    while len(out) < count:
        hand, table = random_position(rules, rng.randrange(10**9), rng.randint(45, 70), 14, 0.3, 0.7)
        if any(s.card == JOKER for meld in table for s in meld):
            out.append((hand, table))
    return out


def test_cut_search_answers_a_legal_feasible_move() -> None:
    """A work limit far too small to prove anything cuts every search (deterministically): the
    answer is still a legal move, with status ``feasible``."""
    rules = get_variant("rhine", ["extra_packs=1"])
    for hand, table in _hard_rhine(3):
        sol = solve(rules, hand, table, work_limit=0.001)
        check_solution(make_position(rules, hand, table), sol)
        assert sol.status == "feasible"


@pytest.mark.parametrize("variant", ["rhine", "rummy-tiles"])
def test_time_limited_answers_are_legal(variant: str) -> None:
    """With a short time limit the answer is legal, and ``optimal`` only when proven (it then
    plays as many cards as the unlimited solve)."""
    rules = get_variant(variant, ["extra_packs=1"] if variant == "rhine" else [])
    rng = random.Random(11)
    for _ in range(3):
        hand, table = random_position(rules, rng.randrange(10**9), rng.randint(30, 45), 14, 0.25, 0.7)
        sol = solve(rules, hand, table, time_limit=0.05)
        check_solution(make_position(rules, hand, table), sol)
        assert sol.status in ("optimal", "feasible")
        if sol.status == "optimal":
            full = solve(rules, hand, table)
            if full.status == "optimal":
                assert (sol.cards_played, sol.points_played) == (full.cards_played, full.points_played)


def test_copy_assignment_search_stops_at_its_deadline() -> None:
    """Within `deadline_scope` a passed deadline stops the canonical copy search with
    `CopiesTimeout` (never a partial answer); without it the same tables come back."""
    rules = get_variant("rhine")
    position = make_position(rules, "8H JK", "8S 8D 8H | 5H 6H 7H")
    judge_args = (rules, "8H JK", "8S 8D 8H | 5H 6H 7H", "8S 8D 8H JK | 5H 6H 7H 8H")
    assert judge_play(*judge_args).rule == "1.5 R5"  # §7.1's example, read on the canonical copies
    start = tuple(
        TableMeld(tuple(range(k * 3, k * 3 + 3)), tuple(s.meaning for s in info.slots))
        for k, info in enumerate(position.table)
    )
    deck = [s.card for info in position.table for s in info.slots] + list(position.hand)
    final = (TableMeld((0, 1, 2, 7), (None,) * 4), TableMeld((3, 4, 5, 6), (None,) * 4))
    assert canonical_tables(deck, rules.is_wild, start, [6, 7], final)
    with deadline_scope(time.perf_counter() - 1.0), pytest.raises(CopiesTimeout):
        canonical_tables(deck, rules.is_wild, start, [6, 7], final)


def test_judge_past_its_deadline_refuses_under_rule_time() -> None:
    """A judge whose deadline has passed refuses with rule ``time`` (the solver then keeps a
    move it could judge); the same play judged without a deadline is legal."""
    args = ("rhine", "9S 4H", "6S 7S 8S | 9H 9D 9C", "6S 7S 8S 9S | 9H 9D 9C")
    assert judge_play(*args).legal
    late = judge_play(*args, deadline=time.perf_counter() - 1.0)
    assert (late.legal, late.rule) == (False, "time")


@pytest.mark.parametrize(
    ("variant", "hand", "table", "opened"),
    [("rhine", "5H 6H 7H 2C", "8S 9S TS", False), ("rummy-palace", "5H 6H 7H 2C", "8S 9S TS", True)],
)
def test_a_search_the_limit_stops_before_any_play_goes_on_a_little(
    monkeypatch: pytest.MonkeyPatch, variant: str, hand: str, table: str, opened: bool
) -> None:
    """A limit that comes before the search finds any play (a short limit, a slow first build)
    gives the search a little longer past it (`late_search_time`) rather than answer no play.
    (Rhine's qualifying turn: its opened turns go to the compiled program first.)"""
    from ortools.sat.python import cp_model

    from rummyai.solvers import tile_solve

    real = tile_solve.solve_model
    calls: list[float | None] = []

    def cut_the_first(
        tm: TileModel, limit: float | None, work: float | None = None, first: bool = False
    ) -> Any:
        calls.append(limit)
        if len(calls) == 1:
            return cp_model.CpSolver(), cp_model.UNKNOWN  # as if the limit came first
        return real(tm, limit, work, first=first)

    monkeypatch.setattr(tile_solve, "solve_model", cut_the_first)
    answer = solve(variant, hand, table, opened=opened, time_limit=2.0)
    assert answer.cards_played == 3
    assert len(calls) >= 2 and calls[1] is not None and calls[1] <= 2.0 + 0.1
