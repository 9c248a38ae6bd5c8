"""`no_play_proven` says 'no play' only where the solver finds none for an opened seat."""

from __future__ import annotations

from rummyai.playable import playable_cards
from rummyai.solvers import solve
from rummyai.solvers.candidate_search import has_joker
from rummyai.solvers.no_play import no_play_proven, relaxation_applies
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
