"""The batch Bradley-Terry fit: known answers, independence from game order, bootstrap intervals,
and a case where sequential OpenSkill and the batch fit order two agents differently."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from rummyai.arena.batch_ratings import ELO, PRIOR, batch_ratings, bradley_terry
from rummyai.arena.ratings import Rating, rate
from rummyai.arena.report import disagreements
from rummyai.arena.stats import pairwise


def duel(set_index: int, a_wins: bool) -> dict[str, object]:
    return {
        "set": set_index,
        "seating": 0,
        "seats": ["a", "b"],
        "ranks": [1, 2] if a_wins else [2, 1],
        "scores": [1, 0] if a_wins else [0, 1],
        "winners": [0] if a_wins else [1],
    }


def test_two_agents_have_the_closed_form_answer() -> None:
    records = [duel(s, s % 3 != 0) for s in range(30)]  # a wins 20, b wins 10
    ratings = {r.agent: r for r in batch_ratings(records, resamples=300)}
    expected = ELO * math.log((20 + PRIOR / 2) / (10 + PRIOR / 2))
    assert ratings["a"].mu - ratings["b"].mu == pytest.approx(expected, rel=1e-6)
    assert ratings["a"].mu == pytest.approx(-ratings["b"].mu)
    low, high = ratings["a"].interval
    assert low < ratings["a"].mu < high


def test_three_agents_satisfy_the_likelihood_equations() -> None:
    wins = np.array([[0.0, 7.0, 9.0], [3.0, 0.0, 6.0], [1.0, 4.0, 0.0]])
    count = wins + wins.T
    theta = bradley_terry(wins, count, prior=0.0)
    p = np.exp(theta)
    expected = (count * p[:, None] / (p[:, None] + p[None, :])).sum(axis=1)
    assert expected == pytest.approx(wins.sum(axis=1), rel=1e-8)  # score equations of the MLE
    assert theta.sum() == pytest.approx(0.0, abs=1e-9) and theta[0] > theta[1] > theta[2]


def test_the_fit_does_not_depend_on_the_order_of_games() -> None:
    records = [duel(s, s < 12) for s in range(22)]
    shuffled = records[:]
    random.Random(3).shuffle(shuffled)
    for record, number in zip(shuffled, range(22), strict=True):
        record["set"] = number  # game order changes, each set keeps one game
    one = {r.agent: r.mu for r in batch_ratings(records, resamples=200)}
    two = {r.agent: r.mu for r in batch_ratings(shuffled, resamples=200)}
    assert one == pytest.approx(two)


def test_openskill_and_the_batch_fit_disagree_where_order_matters() -> None:
    """a wins the first 12 sets, b the last 10: a won more, yet sequential OpenSkill ranks b first."""
    records = [duel(s, s < 12) for s in range(22)]
    sequential = rate(records, ["a", "b"])
    batch = batch_ratings(records, ["a", "b"], resamples=300)
    assert [r.agent for r in sequential] == ["b", "a"]
    assert [r.agent for r in batch] == ["a", "b"]
    assert batch[0].mu - batch[1].mu == pytest.approx(ELO * math.log(12.5 / 10.5), rel=1e-6)
    pairs = pairwise(records, low_wins=False, order=["a", "b"], resamples=300)
    warnings = disagreements(sequential, pairs)
    assert len(warnings) == 1 and warnings[0].startswith("`b` is rated above `a`")
    assert disagreements(batch, pairs) == []


@pytest.mark.parametrize("records", [[duel(0, True)], [duel(s, True) for s in range(8)]])
def test_an_interval_every_resample_agrees_on_is_reported_as_none(records: list[dict[str, object]]) -> None:
    """One set, or a sweep: resampling the sets changes nothing, so the report gives no interval
    (one of no width would read as certainty) and says how many sets the rating rests on."""
    from rummyai.arena.report import rating_lines

    ratings = batch_ratings(records, resamples=200)
    assert all(r.degenerate and r.sets == len(records) for r in ratings)
    lines = rating_lines(ratings, pairwise(records, low_wins=False, order=["a", "b"]))
    row = next(line for line in lines if line.startswith("| `a`"))
    assert "none: every resample of the sets is alike" in row and row.endswith(f"| {len(records)} |")
    # nor does the pairwise table, or a warning draw a verdict from it
    from rummyai.arena.report import _ci

    assert _ci(0.0, 0.0) == "none: every resample of the sets is alike" and _ci(0.1, 0.2) == "[0.100, 0.200]"


def test_sets_are_counted_per_agent() -> None:
    records = [duel(s, s % 2 == 0) for s in range(6)]
    records.append({**duel(6, True), "seats": ["a", "c"]})
    sets = {r.agent: r.sets for r in batch_ratings(records, resamples=100)}
    assert sets == {"a": 7, "b": 6, "c": 1}
    assert {r.agent: r.sets for r in rate(records)} == sets


def test_a_disagreement_from_one_set_draws_no_verdict() -> None:
    from rummyai.arena.stats import PairStats

    ratings = [Rating("a", 10.0, 1.0), Rating("b", 0.0, 1.0)]
    one = PairStats("a", "b", 2, 1, 0.0, (0.0, 0.0), -5.0, (-5.0, -5.0))
    (note,) = disagreements(ratings, [one])
    assert note.endswith("in none of their comparisons over one set (no interval)")
    assert "below one half" not in note
    many = PairStats("a", "b", 100, 50, 0.0, (0.0, 0.0), -5.0, (-5.0, -5.0))
    (note,) = disagreements(ratings, [many])
    assert note.endswith("[0.000, 0.000] (its 95% interval is below one half)")
