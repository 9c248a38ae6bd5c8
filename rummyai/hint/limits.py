"""Limits of the hint service: request size, cards per request, solve time and the worker pool.

Every request is bounded before it reaches a solver: the body's size, the number of cards it
names, and the seconds a solve may take (a request may ask for less, never for more; when the
limit cuts a search the answer is the best move found, with status ``feasible``). Solves run in
a pool of `workers` (see `rummyai.hint.pool`): every worker answers the fast lane, all but
`fast_workers` of them (by default half) also the hard lane, on a thread `hard_nice` steps nicer,
so cheap requests get the cores first when they are busy (nicer still, and a hard solve starved
of the cores overruns its limit on a busy machine); at
most `max_pending` further requests wait per lane, the rest are turned away at once with 503 so
that a burst cannot pile up without end. A worker that has not answered `grace` seconds after a
request's time limit is stopped and replaced (by one of `spare_workers` kept warm and idle, so
service is back at once); the request gets 503 with ``Retry-After``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from rummyai.errors import RummyError

PoolKind = Literal["process", "thread"]


@dataclass(frozen=True)
class Limits:
    """Bounds of one service instance (see the module docstring)."""

    max_body_bytes: int = 64 * 1024
    max_cards: int = 200
    time_limit: float = 2.0
    workers: int = 2
    max_pending: int = 64
    pool: PoolKind = "process"
    fast_workers: int | None = None
    spare_workers: int = 1
    hard_nice: int = 10
    grace: float = 0.3
    retry_after: int = 1

    def __post_init__(self) -> None:
        if self.max_body_bytes < 1 or self.max_cards < 1 or self.workers < 1 or self.max_pending < 0:
            raise ValueError(f"limits must be positive: {self}")
        if not self.time_limit > 0:
            raise ValueError(f"time_limit must be positive, got {self.time_limit}")
        if self.fast_workers is not None and not 0 <= self.fast_workers < self.workers:
            raise ValueError(f"fast_workers must be 0..workers-1, got {self.fast_workers}")
        if self.spare_workers < 0:
            raise ValueError(f"spare_workers must be >= 0, got {self.spare_workers}")
        if not 0 <= self.hard_nice <= 19:
            raise ValueError(f"hard_nice (--hard-nice) must be 0..19, got {self.hard_nice}")
        if not self.grace >= 0 or self.retry_after < 1:
            raise ValueError(f"grace must be >= 0 and retry_after >= 1: {self}")

    def fast_lane_workers(self) -> int:
        """Workers that answer only the fast lane: `fast_workers`, by default half of them (none of one)."""
        return self.workers // 2 if self.fast_workers is None else self.fast_workers

    def solve_time(self, requested: float | None) -> float:
        """Seconds a solve may take: the request's own limit, capped by the service's."""
        if requested is None:
            return self.time_limit
        return min(float(requested), self.time_limit)


_TOKEN = re.compile(r"[^\s,|]+")


def count_cards(values: Iterable[object]) -> int:
    """Card tokens in hand/table values (strings, or lists of strings or of lists of strings)."""
    total = 0
    for value in values:
        if isinstance(value, str):
            total += len(_TOKEN.findall(value))
        elif isinstance(value, list):
            total += count_cards(value)
    return total


def check_card_count(limits: Limits, values: Iterable[object]) -> None:
    """Raise `RummyError` when a request names more cards than the service accepts."""
    n = count_cards(values)
    if n > limits.max_cards:
        raise RummyError(
            f"too many cards in the request: {n} (this service accepts at most {limits.max_cards})"
        )
