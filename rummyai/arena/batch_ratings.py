"""Order-independent ratings: a Bradley-Terry maximum-likelihood fit over every pair of places.

Each game contributes, for every two seats of different agents, one comparison won by the better
place (a tie counts half to each). The strengths maximise the Bradley-Terry likelihood of all
comparisons together (Hunter's MM algorithm), so the game order cannot change them, unlike
sequential OpenSkill updates. Every pair that met also gets `PRIOR` virtual comparisons split
evenly, which keeps an agent that never won finite. Ratings are on the Elo scale (400 log10 of the
odds; 0 = the mean agent), with 95% percentile intervals from resampling duplicate sets.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from rummyai.arena.ratings import Rating, rate
from rummyai.arena.stats import CONFIDENCE, bootstrap_weights, entrants
from rummyai.errors import RummyError

RatingMethod = Literal["bradley-terry", "openskill"]
RATING_METHODS: tuple[str, ...] = ("bradley-terry", "openskill")

#: Virtual comparisons per pair that met, half won by each side (a weak prior towards equality).
PRIOR = 1.0
ELO = 400.0 / math.log(10.0)


def comparison_arrays(
    records: Sequence[dict[str, Any]], names: Sequence[str]
) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Per-set placement wins W[a, b, s] (ties half) and comparisons N[a, b, s] between agents."""
    index = {name: i for i, name in enumerate(names)}
    sets = sorted({int(r["set"]) for r in records})
    column = {s: j for j, s in enumerate(sets)}
    wins = np.zeros((len(names), len(names), len(sets)))
    count = np.zeros_like(wins)
    for record in records:
        j = column[int(record["set"])]
        seats, ranks = record["seats"], record["ranks"]
        for p in range(len(seats)):
            for q in range(len(seats)):
                a, b = index[seats[p]], index[seats[q]]
                if a == b:
                    continue
                wins[a, b, j] += 1.0 if ranks[p] < ranks[q] else 0.5 if ranks[p] == ranks[q] else 0.0
                count[a, b, j] += 1.0
    return wins, count, sets


def bradley_terry(
    wins: np.ndarray, count: np.ndarray, prior: float = PRIOR, tol: float = 1e-10, max_iter: int = 20_000
) -> np.ndarray:
    """Log-strengths (mean 0) maximising the Bradley-Terry likelihood; batched over leading axes.

    `wins[..., a, b]` counts a's wins over b and `count[..., a, b]` their comparisons (symmetric).
    """
    met = (count + np.swapaxes(count, -1, -2)) > 0
    w = wins + prior / 2 * met
    n = count + prior * met
    total = w.sum(axis=-1)
    p = np.ones(w.shape[:-1])
    for _ in range(max_iter):
        denom = (n / (p[..., :, None] + p[..., None, :])).sum(axis=-1)
        with np.errstate(divide="ignore", invalid="ignore"):
            new = np.where(denom > 0, total / denom, 1.0)
        new /= np.exp(np.log(new).mean(axis=-1, keepdims=True))
        if np.max(np.abs(np.log(new) - np.log(p))) < tol:
            p = new
            break
        p = new
    return np.log(p)


def batch_ratings(
    records: Sequence[dict[str, Any]], order: Sequence[str] = (), resamples: int = 2000, seed: int = 0
) -> list[Rating]:
    """Bradley-Terry ratings (Elo scale) with bootstrap intervals over duplicate sets, best first."""
    if not records:
        raise RummyError("no games to rate")
    names = entrants(records, order)
    wins, count, sets = comparison_arrays(records, names)
    point = ELO * bradley_terry(wins.sum(axis=-1), count.sum(axis=-1))
    weights = bootstrap_weights(len(sets), resamples, seed)
    draws = ELO * bradley_terry(
        np.einsum("rs,abs->rab", weights, wins), np.einsum("rs,abs->rab", weights, count)
    )
    alpha = (1 - CONFIDENCE) / 2
    low, high = np.quantile(draws, [alpha, 1 - alpha], axis=0)
    spread = draws.std(axis=0)
    seen: dict[str, set[Any]] = {name: set() for name in names}  # per agent, the sets it sat in
    for record in records:
        for name in set(record["seats"]) & seen.keys():
            seen[name].add(record["set"])
    played = [len(seen[name]) for name in names]
    ratings = [
        Rating(
            name,
            float(point[i]),
            float(spread[i]),
            ci=(float(low[i]), float(high[i])),
            method="bradley-terry",
            sets=int(played[i]),
        )
        for i, name in enumerate(names)
    ]
    return sorted(ratings, key=lambda r: -r.mu)


def fit_ratings(
    records: Sequence[dict[str, Any]],
    order: Sequence[str] = (),
    method: RatingMethod = "bradley-terry",
    resamples: int = 2000,
    seed: int = 0,
) -> list[Rating]:
    """Ratings by the chosen method: the batch fit (default) or sequential OpenSkill."""
    if method == "bradley-terry":
        return batch_ratings(records, order, resamples, seed)
    if method == "openskill":
        return rate(records, order)
    raise RummyError(f"unknown rating method {method!r} (bradley-terry or openskill)")
