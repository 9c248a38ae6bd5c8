"""Run windows: every run a variant's run rules allow, by suit and length.

Positions are rank numbers 1..14 (14 is the high ace). Computed once per (variant, length range)
and cached, so the solver's per-position model building only filters them; the playable-cards
filter uses the 3-card ones. It sits below the solver so that both can use it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rummyai.cards import make_card
from rummyai.variants import RunRule, Variant


@dataclass(frozen=True)
class RunWindow:
    """A run of `suit` over rank `positions` (low to high; 14 = high ace) and its card kinds."""

    suit: int
    positions: tuple[int, ...]
    cards: tuple[int, ...]


def position_range(rule: RunRule) -> tuple[int, int]:
    """Lowest and highest rank position a non-wrapping run of this rule may use."""
    low = 1 if rule.ace_low else 2
    high = 14 if rule.ace_high and rule.max_rank == 13 else rule.max_rank
    return low, high


@lru_cache(maxsize=512)
def run_positions(rule: RunRule, length: int) -> tuple[tuple[int, ...], ...]:
    """Every legal sequence of rank positions of this length under `rule` (no ace twice), lowest
    start first."""
    if length > 13:
        return ()
    if rule.wrap:
        out = []
        for start in range(1, 14):
            seq = [(start - 1 + k) % 13 + 1 for k in range(length)]
            # an ace right after a king is the high ace
            out.append(tuple(14 if r == 1 and k > 0 and seq[k - 1] == 13 else r for k, r in enumerate(seq)))
        return tuple(out)
    low, high = position_range(rule)
    return tuple(tuple(range(start, start + length)) for start in range(low, high - length + 2))


def unrolled_rank(position: int) -> int:
    """Rank 1..13 of an unrolled run position (14 is the high ace, 15 a wrapped two, 0 a king)."""
    return (position - 1) % 13 + 1


def run_sides(rule: RunRule, positions: tuple[int, ...], reach: int) -> tuple[list[int], list[int]]:
    """The positions a run on `positions` may grow into, nearest first: below and above.

    Positions are unrolled (the run's own cards sit at first, first+1, ...), so a wrapping run's
    sides go on past 14 and below 1 without meeting; `unrolled_rank` gives each one's rank. A
    wrapping run may take 13 - len(positions) more cards in all, which the caller enforces.
    """
    first = positions[0]
    last = first + len(positions) - 1
    if rule.wrap:
        room = min(reach, 13 - len(positions))
        return [first - d for d in range(1, room + 1)], [last + d for d in range(1, room + 1)]
    low, high = position_range(rule)
    below = [first - d for d in range(1, reach + 1) if first - d >= low]
    above = [last + d for d in range(1, reach + 1) if last + d <= high]
    return below, above


@lru_cache(maxsize=64)
def _run_windows(run_rules: tuple[RunRule | None, ...], min_len: int, max_len: int) -> tuple[RunWindow, ...]:
    out: list[RunWindow] = []
    for suit, rule in enumerate(run_rules):
        if rule is None:
            continue
        for length in range(min_len, max_len + 1):
            for seq in run_positions(rule, length):
                out.append(RunWindow(suit, seq, tuple(make_card(p, suit) for p in seq)))
    return tuple(out)


def run_windows(variant: Variant, max_len: int) -> tuple[RunWindow, ...]:
    """Every run window of length min_meld..max_len in every suit the variant allows runs in."""
    return _run_windows(variant.run_rules, variant.min_meld, max_len)
