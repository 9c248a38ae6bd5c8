"""A study cell's endpoints (focal agent against reference), their tests and the Holm correction.

Endpoints, each per duplicate set and then averaged over sets (the resampling unit):
* ``margin``: the focal agent's match score minus the reference's, over every (focal seat,
  reference seat) pair of a game, signed so that positive favours the focal agent;
* ``placement``: how often the focal agent finished above a reference seat (ties half), the
  pairwise placement rate;
* ``deal_win``: the focal agent's chance of winning the deal (a shared win split) minus a
  reference seat's; with 2 players it carries the same information as the placement rate.
Intervals are 95% percentile bootstraps over sets; p-values two-sided z tests of the per-set
values (normal approximation, sound for the hundreds of sets a plan fixes; none below 30 sets).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from rummyai.arena.stats import CONFIDENCE, bootstrap_weights
from rummyai.errors import RummyError

#: Fewer sets than this get no p-value (the normal approximation would not hold).
MIN_SETS_FOR_TEST = 30

#: The value of each endpoint when the two agents are equally good.
NULL = {"margin": 0.0, "placement": 0.5, "deal_win": 0.0}


@dataclass(frozen=True)
class Estimate:
    """An endpoint's mean over sets, its 95% bootstrap interval and two-sided p-value against `NULL`."""

    value: float
    low: float
    high: float
    p: float


@dataclass(frozen=True)
class CellResult:
    """Everything the report says about one cell."""

    sets: int
    games: int
    endpoints: dict[str, Estimate]
    focal_win: Estimate  # the focal agent's probability of winning the deal
    reference_win: float  # a reference seat's probability of winning the deal
    seconds_per_move: dict[str, float]
    p99_seconds: dict[str, float]  # 99th percentile of one decision's seconds (nan: not recorded)
    versions: dict[str, int]


def per_set(
    records: Sequence[dict[str, Any]], focal: str, reference: str, low_wins: bool
) -> dict[str, np.ndarray]:
    """Per-set values of every endpoint (and the focal and reference win chances), in set order."""
    sense = -1.0 if low_wins else 1.0
    sums: dict[int, np.ndarray] = {}
    for record in records:
        seats, ranks, scores, winners = record["seats"], record["ranks"], record["scores"], record["winners"]
        mine = [s for s, name in enumerate(seats) if name == focal]
        theirs = [s for s, name in enumerate(seats) if name == reference]
        if not mine or not theirs:
            continue
        row = sums.setdefault(int(record["set"]), np.zeros(7))
        share = {w: 1.0 / len(winners) for w in winners}
        for p in mine:
            for q in theirs:
                row[0] += sense * (scores[p] - scores[q])
                row[1] += 1.0 if ranks[p] < ranks[q] else 0.5 if ranks[p] == ranks[q] else 0.0
                row[2] += 1.0
            row[3] += share.get(p, 0.0)
            row[4] += 1.0
        for q in theirs:
            row[5] += share.get(q, 0.0)
            row[6] += 1.0
    if not sums:
        raise RummyError(f"no game seats {focal!r} against {reference!r}")
    table = np.array([sums[s] for s in sorted(sums)])
    focal_win = table[:, 3] / table[:, 4]
    reference_win = table[:, 5] / table[:, 6]
    return {
        "margin": table[:, 0] / table[:, 2],
        "placement": table[:, 1] / table[:, 2],
        "deal_win": focal_win - reference_win,
        "focal_win": focal_win,
        "reference_win": reference_win,
    }


def estimate(values: np.ndarray, null: float, weights: np.ndarray) -> Estimate:
    """Mean of per-set values, percentile bootstrap interval (resampled sets) and z-test p-value."""
    n = len(values)
    mean = float(values.mean())
    draws = (weights @ values) / n
    alpha = (1 - CONFIDENCE) / 2
    low, high = np.quantile(draws, [alpha, 1 - alpha])
    spread = float(values.std(ddof=1)) if n > 1 else float("nan")
    if n < MIN_SETS_FOR_TEST:
        p = float("nan")
    elif spread == 0.0:
        p = 1.0 if mean == null else 0.0
    else:
        z = (mean - null) / (spread / math.sqrt(n))
        p = math.erfc(abs(z) / math.sqrt(2.0))
    return Estimate(mean, float(low), float(high), p)


def cell_result(
    records: Sequence[dict[str, Any]],
    focal: str,
    reference: str,
    low_wins: bool,
    resamples: int = 2000,
    seed: int = 0,
) -> CellResult:
    """The cell's endpoints with intervals and p-values, speeds and the code versions of its games."""
    values = per_set(records, focal, reference, low_wins)
    weights = bootstrap_weights(len(values["margin"]), resamples, seed)
    endpoints = {name: estimate(values[name], NULL[name], weights) for name in NULL}
    think: dict[str, list[float]] = {}
    moves: dict[str, list[float]] = {}
    versions: dict[str, int] = {}
    for record in records:
        for seat, name in enumerate(record["seats"]):
            entry = think.setdefault(name, [0.0, 0.0])
            entry[0] += record.get("think_s", [0.0] * len(record["seats"]))[seat]
            entry[1] += record.get("decisions", [0] * len(record["seats"]))[seat]
            if "move_s" in record:
                moves.setdefault(name, []).extend(record["move_s"][seat])
        label = version_of(record)
        versions[label] = versions.get(label, 0) + 1
    return CellResult(
        sets=len(values["margin"]),
        games=len(records),
        endpoints=endpoints,
        focal_win=estimate(values["focal_win"], 0.0, weights),
        reference_win=float(values["reference_win"].mean()),
        seconds_per_move={name: (t / d if d else float("nan")) for name, (t, d) in think.items()},
        p99_seconds={
            name: float(np.percentile(moves[name], 99)) if moves.get(name) else float("nan") for name in think
        },
        versions=versions,
    )


def version_of(record: dict[str, Any]) -> str:
    """The code version a record was played with, as one label."""
    from rummyai.arena.runner import version_label

    return version_label(record.get("code"))


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (family-wise error control), in the input order."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda i: pvalues[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted
