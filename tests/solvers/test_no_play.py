"""`no_play_proven` says 'no play' only where the solver finds none for an opened seat."""

from __future__ import annotations

from typing import Any

import pytest

from rummyai.playable import playable_cards
from rummyai.solvers import run_dp, solve
from rummyai.solvers.candidate_search import has_joker
from rummyai.solvers.locked_dp import solve_locked_dp
from rummyai.solvers.no_play import no_play_proven, relaxation_applies
from rummyai.solvers.position import Position, make_position
from rummyai.solvers.random_positions import random_position
from rummyai.variants import get_variant


def test_free_joker_variants_are_left_to_their_own_solver() -> None:
    assert not relaxation_applies(get_variant("rummikub"))
    assert not relaxation_applies(get_variant("standard"))
    assert relaxation_applies(get_variant("rummy-tiles"))


def test_proven_positions_have_no_play_for_the_solver() -> None:
    variant = get_variant("rummy-tiles")
    proven = playing = 0
    for seed in range(400):
        hand, table = random_position(variant, seed, table_cards=12, hand_cards=3, joker_rate=0.25)
        kinds = [slot.card for meld in table for slot in meld]
        hand = list(playable_cards(variant, hand, kinds, True))
        if not hand or not has_joker(hand, table):
            continue
        if no_play_proven(variant, hand, table):
            proven += 1
            answer = solve(variant, hand, table, opened=True, work_limit=5.0)
            assert answer.cards_played == 0, (seed, hand, table)
        elif playing < 10:
            playing += solve(variant, hand, table, opened=True, work_limit=5.0).cards_played > 0
        if proven >= 12 and playing >= 3:
            break
    assert proven >= 12 and playing >= 3, (proven, playing)


def test_the_locked_program_finds_the_proofs_question_answered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The relaxation a proof solves is the locked-joker program's root: asked once, not twice."""
    variant = get_variant("rummy-tiles")
    hand, table = ["8H", "9H", "3C", "4C", "5C"], "5H JK 7H | 9S 9D 9C"
    position = make_position(variant, hand, table)
    asked: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    search = run_dp._search

    def counted(p: Position, objective: str, cap: int, tidy: bool, on_table: list[int], guess: int) -> Any:
        asked.append((p.hand, tuple(sorted(on_table))))
        return search(p, objective, cap, tidy, on_table, guess)

    monkeypatch.setattr(run_dp, "_search", counted)
    slots = [info.slots for info in position.table]
    assert not no_play_proven(variant, list(position.hand), slots)
    assert len(asked) == 1
    answer = solve_locked_dp(position, "cards", minimize_changes=False)
    assert answer is not None and answer.cards_played == 5
    assert asked[0] not in asked[1:]
