"""Ratings and pairwise statistics on synthetic records with known answers."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from rummyai.arena.play import ranks_of
from rummyai.arena.ratings import rate
from rummyai.arena.stats import agent_stats, pairwise


def game(
    set_index: int, seating: int, seats: list[str], scores: list[int], low_wins: bool = False
) -> dict[str, Any]:
    best = min(scores) if low_wins else max(scores)
    winners = [i for i, s in enumerate(scores) if s == best]
    return {
        "set": set_index,
        "seating": seating,
        "seats": seats,
        "scores": scores,
        "winners": winners,
        "ranks": ranks_of(scores, winners, low_wins),
        "decisions": [2] * len(seats),
        "think_s": [0.004] * len(seats),
    }


def test_ranks_share_places_on_ties_and_follow_the_score_sense() -> None:
    assert ranks_of([10, 30, 20], [1], low_wins=False) == [3, 1, 2]
    assert ranks_of([10, 30, 10], [1], low_wins=False) == [2, 1, 2]
    assert ranks_of([10, 30, 20], [0], low_wins=True) == [1, 3, 2]
    assert ranks_of([5, 5], [0, 1], low_wins=True) == [1, 1]


def test_pairwise_win_rate_and_margin_match_a_hand_count() -> None:
    # set 0: a wins both seatings by 10; set 1: a wins one by 4, loses one by 6; set 2: tie (draw)
    records = [
        game(0, 0, ["a", "b"], [20, 10]),
        game(0, 1, ["b", "a"], [5, 15]),
        game(1, 0, ["a", "b"], [14, 10]),
        game(1, 1, ["b", "a"], [16, 10]),
        game(2, 0, ["a", "b"], [7, 7]),
        game(2, 1, ["b", "a"], [7, 7]),
    ]
    stats = {(p.a, p.b): p for p in pairwise(records, low_wins=False, resamples=500)}
    ab, ba = stats["a", "b"], stats["b", "a"]
    assert ab.comparisons == 6 and ab.sets == 3
    assert ab.win_rate == pytest.approx((2 + 1 + 1) / 6)
    assert ba.win_rate == pytest.approx(1 - ab.win_rate)
    assert ab.margin == pytest.approx((10 + 10 + 4 - 6 + 0 + 0) / 6)
    assert ba.margin == pytest.approx(-ab.margin)
    assert ab.win_ci[0] <= ab.win_rate <= ab.win_ci[1]
    # resampling whole sets bounds the interval by the best and worst set (set 0; sets 1-2)
    assert ab.win_ci[0] >= 0.5 - 1e-9 and ab.win_ci[1] <= 1.0 + 1e-9
    assert ab.margin_ci[0] >= -1 - 1e-9 and ab.margin_ci[1] <= 10 + 1e-9


def test_a_pairs_interval_resamples_only_the_sets_where_it_met() -> None:
    # a and b meet in sets 0-3 (a wins 1, 1, 1 and 0 of 2); c plays the others in sets 4-11:
    # those sets must not change a-b's interval
    met = [
        g
        for k, wins in enumerate([2, 2, 2, 1])
        for g in (
            game(k, 0, ["a", "b"], [20, 10] if wins >= 1 else [10, 20]),
            game(k, 1, ["b", "a"], [10, 20] if wins == 2 else [20, 10]),
        )
    ]
    others = [game(k, 0, ["c", "a" if k % 2 else "b"], [5, 9]) for k in range(4, 12)]
    alone = {(p.a, p.b): p for p in pairwise(met, low_wins=False, resamples=500)}["a", "b"]
    mixed = {(p.a, p.b): p for p in pairwise(met + others, low_wins=False, resamples=500)}["a", "b"]
    assert (mixed.sets, mixed.win_rate) == (alone.sets, alone.win_rate) == (4, 0.875)
    assert mixed.win_ci == alone.win_ci and mixed.margin_ci == alone.margin_ci


def test_margin_is_signed_so_positive_favours_the_agent_when_low_scores_win() -> None:
    records = [game(s, 0, ["a", "b"], [3, 9], low_wins=True) for s in range(5)]
    (ab,) = [p for p in pairwise(records, low_wins=True) if p.a == "a"]
    assert ab.win_rate == 1.0 and ab.win_ci == (1.0, 1.0)
    assert ab.margin == 6.0


def test_bootstrap_interval_width_matches_the_binomial_standard_error() -> None:
    rng = np.random.default_rng(3)
    sets = 800
    wins = rng.random(sets) < 0.6
    records = [game(s, 0, ["a", "b"], [1, 0] if w else [0, 1]) for s, w in enumerate(wins)]
    (ab,) = [p for p in pairwise(records, low_wins=False, resamples=2000, seed=1) if p.a == "a"]
    p = wins.mean()
    expected = 2 * 1.96 * math.sqrt(p * (1 - p) / sets)
    assert ab.win_rate == pytest.approx(p)
    assert ab.win_ci[1] - ab.win_ci[0] == pytest.approx(expected, rel=0.15)
    assert ab.win_ci[0] < 0.6 < ab.win_ci[1]


def test_pairs_that_never_met_are_absent_and_agent_totals_add_up() -> None:
    records = [game(0, 0, ["a", "b"], [2, 1]), game(1, 0, ["c", "b"], [2, 1]), game(1, 1, ["b", "c"], [3, 1])]
    pairs = {(p.a, p.b) for p in pairwise(records, low_wins=False)}
    assert ("a", "c") not in pairs and ("c", "a") not in pairs
    assert {("a", "b"), ("b", "a"), ("b", "c"), ("c", "b")} <= pairs
    totals = {s.agent: s for s in agent_stats(records, order=["a", "b", "c"])}
    assert totals["b"].games == 3 and totals["b"].wins == 1
    assert totals["b"].mean_rank == pytest.approx(5 / 3)
    assert totals["a"].ms_per_decision == pytest.approx(2.0)


def test_openskill_ratings_order_agents_by_strength() -> None:
    rng = np.random.default_rng(0)
    strength = {"strong": 2.0, "mid": 1.0, "weak": 0.0}
    records = []
    for s in range(150):
        seats = list(rng.permutation(list(strength)))
        scores = [int(100 * (strength[n] + rng.normal(0, 1))) for n in seats]
        records.append(game(s, 0, seats, scores))
    ratings = rate(records)
    assert [r.agent for r in ratings] == ["strong", "mid", "weak"]
    assert ratings[0].interval[0] > ratings[2].interval[1]
    assert all(r.sigma < 25 / 3 for r in ratings)


def test_ratings_do_not_depend_on_record_order_and_handle_repeated_agents() -> None:
    records = [game(s, k, ["a", "b", "a", "b"], [4 - k, 3, 2 + k, 1]) for s in range(6) for k in range(2)]
    forward, backward = rate(records), rate(list(reversed(records)))
    assert forward == backward
    assert forward[0].agent == "a"


def test_agents_without_games_are_reported_as_such_not_rated() -> None:
    from rummyai.arena.ratings import Rating
    from rummyai.arena.report import rating_lines
    from rummyai.arena.stats import PairStats

    def pair(a: str, b: str, comparisons: int) -> PairStats:
        rate = 1.0 if a == "greedy" else 0.0
        return PairStats(a, b, comparisons, 1, rate, (rate, rate), 0.0, (0.0, 0.0))

    ratings = [
        Rating("greedy", 139.8, 10.0, (120.5, 160.1), "bradley-terry", sets=1),
        Rating("holdback", 0.0, 0.0, (0.0, 0.0), "bradley-terry"),
        Rating("random", -139.8, 10.0, (-160.1, -120.5), "bradley-terry", sets=1),
    ]
    lines = rating_lines(ratings, [pair("greedy", "random", 2), pair("random", "greedy", 2)])
    assert "| `holdback` | n/a | no games yet | 0 |" in lines
    assert "| `greedy` | +139.8 | [120.5, 160.1] | 1 |" in lines
    rows = [line for line in lines if line.startswith("| `")]
    assert rows[-1].startswith("| `holdback`")  # after every rated agent, not among them
