"""Pairwise statistics over game records, with 95% bootstrap intervals over duplicate sets.

For two agents a and b seated in the same game, a *beats* b when its finishing place is better
(a tie counts half). The *margin* is a's final match score minus b's, signed so that positive
always means a did better (negated for variants where the low score wins). Duplicate sets are the
resampling unit: the seatings of one deal are strongly correlated, the sets are independent.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rummyai.errors import RummyError

CONFIDENCE = 0.95


@dataclass(frozen=True)
class PairStats:
    """How agent `a` fared against agent `b`: win rate and mean score margin, each with a 95% CI."""

    a: str
    b: str
    comparisons: int
    sets: int
    win_rate: float
    win_ci: tuple[float, float]
    margin: float
    margin_ci: tuple[float, float]


@dataclass(frozen=True)
class AgentStats:
    """One agent's totals over every seat it played: games, wins, mean place, score and thinking time."""

    agent: str
    games: int
    wins: int
    mean_rank: float
    mean_score: float
    scores: tuple[int, ...]
    ms_per_decision: float

    @property
    def win_share(self) -> float:
        """Fraction of its games this agent won (shared wins included)."""
        return self.wins / self.games if self.games else float("nan")


def entrants(records: Iterable[dict[str, Any]], order: Sequence[str] = ()) -> list[str]:
    """Distinct agent specs: those in `order` first (as given), then any others in order of appearance."""
    seen = dict.fromkeys(order)
    for record in records:
        seen.update(dict.fromkeys(record["seats"]))
    return list(seen)


def agent_stats(records: Sequence[dict[str, Any]], order: Sequence[str] = ()) -> list[AgentStats]:
    """Per-agent totals over all seats it occupied."""
    names = entrants(records, order)
    games = dict.fromkeys(names, 0)
    wins = dict.fromkeys(names, 0)
    rank_sum = dict.fromkeys(names, 0)
    scores: dict[str, list[int]] = {name: [] for name in names}
    decisions = dict.fromkeys(names, 0)
    think = dict.fromkeys(names, 0.0)
    for record in records:
        for seat, name in enumerate(record["seats"]):
            games[name] += 1
            wins[name] += seat in record["winners"]
            rank_sum[name] += record["ranks"][seat]
            scores[name].append(record["scores"][seat])
            decisions[name] += record.get("decisions", [0] * len(record["seats"]))[seat]
            think[name] += record.get("think_s", [0.0] * len(record["seats"]))[seat]
    return [
        AgentStats(
            agent=name,
            games=games[name],
            wins=wins[name],
            mean_rank=rank_sum[name] / games[name] if games[name] else float("nan"),
            mean_score=float(np.mean(scores[name])) if scores[name] else float("nan"),
            scores=tuple(scores[name]),
            ms_per_decision=1000 * think[name] / decisions[name] if decisions[name] else float("nan"),
        )
        for name in names
    ]


def pair_arrays(
    records: Sequence[dict[str, Any]], names: Sequence[str], low_wins: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-set sums for every ordered pair: wins W, comparisons N and margins M, shape (K, K, S)."""
    index = {name: i for i, name in enumerate(names)}
    sets = sorted({int(r["set"]) for r in records})
    column = {s: j for j, s in enumerate(sets)}
    shape = (len(names), len(names), len(sets))
    wins, count, margin = np.zeros(shape), np.zeros(shape), np.zeros(shape)
    sense = -1.0 if low_wins else 1.0
    for record in records:
        j = column[int(record["set"])]
        seats, ranks, scores = record["seats"], record["ranks"], record["scores"]
        for p, q in ((p, q) for p in range(len(seats)) for q in range(len(seats))):
            a, b = index[seats[p]], index[seats[q]]
            if a == b:
                continue
            wins[a, b, j] += 1.0 if ranks[p] < ranks[q] else 0.5 if ranks[p] == ranks[q] else 0.0
            count[a, b, j] += 1
            margin[a, b, j] += sense * (scores[p] - scores[q])
    return wins, count, margin


def bootstrap_weights(sets: int, resamples: int, seed: int) -> np.ndarray:
    """How often each set is drawn in each bootstrap resample, shape (resamples, sets)."""
    rng = np.random.default_rng(seed)
    return rng.multinomial(sets, np.full(sets, 1.0 / sets), size=resamples).astype(float)


def ratio_ci(
    numerator: np.ndarray, denominator: np.ndarray, weights: np.ndarray
) -> tuple[float, float, float]:
    """Ratio of sums over sets and its percentile bootstrap interval (resampling sets)."""
    total = denominator.sum()
    if total == 0:
        return float("nan"), float("nan"), float("nan")
    point = float(numerator.sum() / total)
    with np.errstate(invalid="ignore", divide="ignore"):
        draws = (weights @ numerator) / (weights @ denominator)
    draws = draws[np.isfinite(draws)]
    alpha = (1 - CONFIDENCE) / 2
    low, high = np.quantile(draws, [alpha, 1 - alpha]) if draws.size else (np.nan, np.nan)
    return point, float(low), float(high)


def pairwise(
    records: Sequence[dict[str, Any]],
    low_wins: bool,
    order: Sequence[str] = (),
    resamples: int = 2000,
    seed: int = 0,
) -> list[PairStats]:
    """Win rate and margin of every ordered pair of agents that met, with bootstrap CIs."""
    if not records:
        raise RummyError("no games to summarise")
    names = entrants(records, order)
    wins, count, margin = pair_arrays(records, names, low_wins)
    weights: dict[int, np.ndarray] = {}  # by the number of sets resampled
    result = []
    for a, name_a in enumerate(names):
        for b, name_b in enumerate(names):
            n = count[a, b]
            if a == b or n.sum() == 0:
                continue
            met = n > 0  # resample the sets where the pair met (not every set of the tournament)
            k = int(met.sum())
            if k not in weights:
                weights[k] = bootstrap_weights(k, resamples, seed)
            rate, rate_low, rate_high = ratio_ci(wins[a, b][met], n[met], weights[k])
            mean, mean_low, mean_high = ratio_ci(margin[a, b][met], n[met], weights[k])
            result.append(
                PairStats(
                    name_a,
                    name_b,
                    int(n.sum()),
                    k,
                    rate,
                    (rate_low, rate_high),
                    mean,
                    (mean_low, mean_high),
                )
            )
    return result
