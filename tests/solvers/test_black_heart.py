"""Black Heart Rum in the CP-SAT solver: against the exhaustive reference, and fixed cases."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummyai.cards import card_str, parse_cards
from rummyai.errors import IllegalMoveError
from rummyai.melds import analyze_meld
from rummyai.solvers import Position, Solution, make_position, solve
from rummyai.solvers.check import check_solution
from rummyai.solvers.reference import reference_solve
from rummyai.variants import get_variant

BH = "black-heart"
TABLE_POOL = [
    "TC JC/2H QC/3H",
    "7S 7C 7H",
    "5H 6H 7H",
    "QS/4H QC/5H QD",
    "KS/AH AS 2S",
    "9S TS QD=JS/8H",
    "JD QD KD",
    "3C 3S KD=3H",
]


def _case(seed: int) -> tuple[list[str], list[str], bool, int, str, list[str]]:
    """A small random position: up to two table melds and a hand drawn near them."""
    rng = random.Random(seed)
    variant = get_variant(BH)
    left = Counter({c: n for c, n in enumerate(variant.copies) if n})
    table: list[str] = []
    for text in rng.sample(TABLE_POOL, rng.randint(0, 2)):
        need = Counter(c for slot in make_position(BH, "", [text]).table[0].slots for c in slot.cards())
        if all(left[c] >= n for c, n in need.items()):
            table.append(text)
            left -= need
    low = rng.randint(1, 10)
    near = [c for c in left.elements() if (c % 13 + 1 - low) % 13 < 4 or c in (36, 37, 38) or 13 <= c <= 22]
    hand = [card_str(c) for c in rng.sample(near, min(len(near), rng.randint(3, 7)))]
    opened = rng.random() < 0.4
    score = rng.choice([-20, 0, 50, 100, 200, 300, 400, 500])
    objective = rng.choice(["cards", "points"])
    committed = [rng.choice(hand)] if rng.random() < 0.2 else []
    return hand, table, opened, score, objective, committed


def _check_turn(position: Position, solution: Solution, score: int) -> None:
    """Old melds only grow (their slots kept, escorts included); the opening chart is met."""
    rest = list(solution.melds)
    for info in position.table:
        grown = [m for m in rest if not Counter(info.slots) - Counter(m)]
        assert grown, f"table meld {info} was broken"
        rest.remove(grown[0])
    if position.opened or not solution.played or len(solution.played) == len(position.hand):
        return
    infos = [analyze_meld(position.variant, m) for m in rest]
    if any(i.kind == "royale" for i in infos):
        return
    line = [step for step in position.variant.opening_chart if score >= step.min_score][-1]
    sizes = sorted((len(i.cards) for i in infos), reverse=True)
    assert len(sizes) >= line.melds and sum(sizes[: line.melds]) >= line.min_cards


def _key(solution: object, objective: str) -> tuple[int, int]:
    cards, points = solution.cards_played, solution.points_played  # type: ignore[attr-defined]
    return (cards, points) if objective == "cards" else (points, cards)


@settings(max_examples=70, deadline=None)
@given(st.integers(0, 10**9))
def test_matches_reference(seed: int) -> None:
    hand, table, opened, score, objective, committed = _case(seed)
    kwargs = {"opened": opened, "objective": objective, "score": score, "committed": committed}
    try:
        slow = reference_solve(BH, hand, table, **kwargs)  # type: ignore[arg-type]
    except IllegalMoveError:
        with pytest.raises(IllegalMoveError):
            solve(BH, hand, table, **kwargs)  # type: ignore[arg-type]
        return
    fast = solve(BH, hand, table, **kwargs)  # type: ignore[arg-type]
    assert _key(fast, objective) == _key(slow, objective), (
        hand,
        table,
        kwargs,
        fast.table_text(),
        slow.table_text(),
    )
    position = make_position(BH, hand, table, opened)
    check_solution(position, fast)
    _check_turn(position, fast, score)
    assert not Counter(parse_cards(" ".join(committed))) - Counter(fast.played)
    assert fast.status == "optimal"


def test_escorts_example() -> None:
    solution = solve(BH, "QS 6H KS 3H AS", opened=False, score=0)
    assert solution.cards_played == 5
    assert solution.points_played == 10 + 10 + 5 + 5 + 15
    (meld,) = solution.melds
    assert sorted(s.card for s in meld if s.escort is not None) == parse_cards("QS KS")


def test_royale_opens_at_any_score() -> None:
    solution = solve(BH, "JD QD KD 2S 9C", opened=False, score=600, objective="points")
    assert solution.table_text() == "JD QD KD"
    assert solution.points_played == 150
    # at 600 nothing else opens: two melds of 10 cards are out of reach
    assert solve(BH, "7S 7C 7H 2S 9C", opened=False, score=600).cards_played == 0


def test_layoff_of_black_court_card_with_escort() -> None:
    solution = solve(BH, "KC 5H 9S", "TC JC/2H QC/3H", opened=True)
    assert solution.table_text() == "TC JC/2H QC/3H KC/5H"
    assert solution.played_text() == "5H KC"
    # not opened at score 0: a lay-off cannot open; at a score below 0 it can
    assert solve(BH, "KC 5H 9S", "TC JC/2H QC/3H", opened=False).cards_played == 0
    assert solve(BH, "KC 5H 9S", "TC JC/2H QC/3H", opened=False, score=-5).cards_played == 2


def test_chart_lines_and_black_heart_out() -> None:
    hand = "4S 5S 6S 7S 8C 8S 8H QD 9C"
    assert solve(BH, hand, opened=False, score=300).cards_played == 8
    assert solve(BH, hand, opened=False, score=400).cards_played == 0
    # the whole hand played on the first play needs no chart line
    assert solve(BH, "4S 5S 6S 7S", opened=False, score=500).cards_played == 4


def test_committed_card_must_be_played() -> None:
    solution = solve(BH, "7S 7C 7H 8H 9H TH", opened=True, committed="7H", objective="cards")
    assert 19 in solution.played  # 7H
    with pytest.raises(IllegalMoveError):
        solve(BH, "7S 7C 2H", opened=True, committed="2H")


def test_diamond_wilds_stay_in_their_scopes() -> None:
    assert solve(BH, "7S 8S JD").cards_played == 0  # J♦ stands only for a heart
    assert solve(BH, "5H 6H QD").cards_played == 0  # Q♦ stands only for a spade or club
    assert solve(BH, "7S 7C JD").table_text() == "7S 7C JD=7H"
    assert solve(BH, "5H 6H KD").cards_played == 3  # K♦ stands for any card
    # a wild standing for a black court card takes an escort; J♦ may be that escort
    solution = solve(BH, "QS QC KD JD 3H", objective="cards")
    assert solution.cards_played == 5
    check_solution(make_position(BH, "QS QC KD JD 3H"), solution)


def test_json_takes_the_score() -> None:
    from rummyai.solvers import solve_json

    position = {"variant": BH, "hand": "7S 7C JD 2H", "opened": False}
    assert solve_json({**position, "score": 0})["cards_played"] == 3
    assert solve_json({**position, "score": 100})["cards_played"] == 0
    assert "error" in solve_json({**position, "score": "high"})
