"""Rhine's meld program (`rummyai.solvers.rhine_dp`): the best score of an independent exhaustive
search under Rhine's meld rules with free jokers, and valid melds holding exactly the table's
cards and the play."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from rummyai.cards import JOKER, Slot, parse_cards, parse_table
from rummyai.melds import is_valid_meld
from rummyai.solvers import make_position
from rummyai.solvers.position import score_key
from rummyai.solvers.random_positions import random_position
from rummyai.solvers.reference import reference_solve
from rummyai.solvers.rhine_dp import playable, relaxed_play, rhine_dp_applies, rhine_dp_rules
from rummyai.variants import get_variant

RHINE = get_variant("rhine")
# Rhine's melds with free jokers: what the program solves before the judge looks at the history
FREE = replace(RHINE, joker_policy="free", harvested_joker="stay_on_table")


def _case(seed: int) -> tuple[list[int], list[tuple[Slot, ...]]]:
    """A small seeded position rich in jokers, aces and copies, sometimes with jokers in hand."""
    rng = random.Random(seed)
    hand, table = random_position(FREE, seed, rng.randint(0, 12), rng.randint(1, 7), 0.35, 0.8)
    jokers_left = 4 - sum(slot.card == JOKER for meld in table for slot in meld)
    return hand + [JOKER] * min(jokers_left, rng.choice((0, 0, 1, 2))), table


def _check_melds(
    hand: list[int], table: list[tuple[Slot, ...]], played: list[int], melds: list[tuple[Slot, ...]]
) -> None:
    """The melds are valid Rhine melds and hold the table's cards and the played ones, nothing
    else."""
    for meld in melds:
        assert is_valid_meld(FREE, meld), meld
    laid = Counter(slot.card for meld in melds for slot in meld)
    assert laid == Counter(slot.card for meld in table for slot in meld) + Counter(played)
    assert not Counter(played) - Counter(hand)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**9), objective=st.sampled_from(["cards", "points", "penalty"]))
def test_matches_exhaustive_search(seed: int, objective: str) -> None:
    hand, table = _case(seed)
    position = make_position(FREE, hand, table)
    exact = reference_solve(FREE, hand, table, objective=objective)
    found = relaxed_play(position, objective)
    assert found is not None
    _check_melds(hand, table, found.played, found.melds)
    assert score_key(position, objective, found.played) == score_key(position, objective, list(exact.played))


def test_aces_at_both_ends_and_wilds_one_per_meld() -> None:
    """A suit's two aces end one run low and another high; a run holds one wild, so the second
    joker goes to a group; a run of all fourteen places is laid as two runs."""
    hand = parse_cards("AS AS 2S 3S QS KS JK JK 9D 9C")
    table = parse_table("4S 5S 6S 7S 8S 9S TS JS")
    found = relaxed_play(make_position(FREE, hand, table), "cards")
    assert found is not None and sorted(found.played) == sorted(hand)
    _check_melds(hand, table, found.played, found.melds)


def test_playable_drops_cards_that_fit_no_meld() -> None:
    import numpy as np

    hand = np.bincount(parse_cards("5D KC AH"), minlength=JOKER + 1).astype(np.int32)
    table = np.bincount(parse_cards("QH KH 5S 5C"), minlength=JOKER + 1).astype(np.int32)
    kept = playable(hand, table)
    # AH ends Q-K-A, 5D makes a group of three fives; KC has nothing beside it
    assert kept[parse_cards("AH")[0]] == 1 and kept[parse_cards("5D")[0]] == 1
    assert kept[parse_cards("KC")[0]] == 0


def test_rules_it_covers() -> None:
    assert rhine_dp_rules(RHINE)
    assert not rhine_dp_rules(get_variant("rhine", ["rhine.wild_twos"]))
    assert not rhine_dp_rules(get_variant("rhine", ["extra_packs=1"]))
    assert not rhine_dp_rules(get_variant("rummikub"))
    hand, table = parse_cards("5D 6D 7D"), parse_table("5S 6S 7S")
    assert rhine_dp_applies(make_position(RHINE, hand, table), None)
    assert not rhine_dp_applies(make_position(RHINE, hand, table, opened=False), None)
    assert not rhine_dp_applies(make_position(RHINE, hand, table), 2)


def test_two_runs_of_a_suit_end_with_the_high_ace() -> None:
    """Both club aces end runs high, one beside its table meld's wild and one with the hand's:
    `JC QC JK=KC AC | QC JK=KC AC` (found by the search at 47 points against the reference)."""
    hand, table = parse_cards("KS 3H 7D AC QC JK"), parse_table("JC QC JK=KC AC | 7D JK=8D 9D TD | 3H 4H 5H")
    position = make_position(FREE, hand, table)
    exact = reference_solve(FREE, hand, table, objective="points")
    found = relaxed_play(position, "points")
    assert found is not None
    _check_melds(hand, table, found.played, found.melds)
    assert score_key(position, "points", found.played) == score_key(position, "points", list(exact.played))
    assert sorted(found.played) == sorted(parse_cards("AC QC JK"))
