"""Which hand cards could ever be played: a cheap, exact-in-the-safe-direction filter.

A hand card that completes no group and no 3-card run with the other available cards (and the
jokers) can never be part of a meld, so no search needs to consider it. The solver answers a
position whose whole hand is filtered out without a model; the environments key their cache on
the filtered hand. It lives below the solver and the environments so that both can use it
without importing OR-Tools.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rummyai.cards import JOKER
from rummyai.runs import run_positions, unrolled_rank
from rummyai.variants import Variant


def playable_cards(
    variant: Variant, hand: Sequence[int], table: Sequence[int], opened: bool
) -> tuple[int, ...]:
    """The hand cards (kinds, sorted) that could be part of some meld; the others can never be played.

    A card is kept when it completes a group or a 3-card run with other cards of the pool (the
    hand, plus the table once opened) and the pool's jokers; cards found unplayable leave the
    pool and the test repeats until nothing changes. Exact in the safe direction: every card the
    solver could play is kept (jokers always; the whole hand when the variant has other wilds).
    """
    ordered = tuple(sorted(hand))
    if any(w.card != JOKER for w in variant.wilds):
        return ordered
    present = [0] * 53
    for kind in ordered:
        present[kind] += 1
    if opened:
        for kind in table:
            present[kind] += 1
    kept = list(ordered)
    fit = _fit_table(variant)
    while True:
        jokers = min(present[JOKER], variant.max_wilds_per_meld or 3)
        unfit = [k for k in kept if k != JOKER and not _fits(fit, k, present, jokers)]
        if not unfit:
            return tuple(kept)
        for kind in unfit:
            present[kind] -= 1
            kept.remove(kind)


def could_play(variant: Variant, hand: Sequence[int], table: Sequence[int], opened: bool) -> bool:
    """False only when no hand card fits any group or 3-card run of table and hand cards together:
    then the solver would find no play, so a caller may skip the call."""
    return bool(playable_cards(variant, hand, table, opened))


@dataclass(frozen=True)
class _FitTable:
    """Per card kind of one variant: the kinds of its rank in other suits, and the other two
    cards of every 3-card run through it."""

    distinct_suits: bool
    same_rank: tuple[tuple[int, ...], ...]
    windows: tuple[tuple[tuple[int, int], ...], ...]


_FIT_TABLES: dict[int, tuple[Variant, _FitTable]] = {}


def _fit_table(variant: Variant) -> _FitTable:
    known = _FIT_TABLES.get(id(variant))
    if known is not None and known[0] is variant:
        return known[1]
    same_rank: list[tuple[int, ...]] = []
    windows: list[tuple[tuple[int, int], ...]] = []
    for kind in range(52):
        rank, suit = kind % 13 + 1, kind // 13
        same_rank.append(tuple(other * 13 + rank - 1 for other in range(4) if other != suit))
        rule = variant.run_rules[suit]
        pairs: list[tuple[int, int]] = []
        for window in (unrolled(w) for w in run_positions(rule, 3)) if rule is not None else []:
            if rank in window:
                a, b = (suit * 13 + r - 1 for r in window if r != rank)
                pairs.append((a, b))
        windows.append(tuple(pairs))
    table = _FitTable(variant.group_distinct_suits, tuple(same_rank), tuple(windows))
    if len(_FIT_TABLES) > 64:
        _FIT_TABLES.clear()
    _FIT_TABLES[id(variant)] = (variant, table)
    return table


def _fits(table: _FitTable, kind: int, present: Sequence[int], jokers: int) -> bool:
    """Whether `kind` completes a group or a 3-card run with the `present` cards and `jokers`."""
    if table.distinct_suits:
        others = sum(1 for other in table.same_rank[kind] if present[other])
    else:
        others = present[kind] - 1 + sum(present[other] for other in table.same_rank[kind])
    if others + jokers >= 2:
        return True
    return any((not present[a]) + (not present[b]) <= jokers for a, b in table.windows[kind])


def unrolled(positions: tuple[int, ...]) -> tuple[int, ...]:
    """Ranks 1..13 of run positions (a high ace is rank 1)."""
    return tuple(unrolled_rank(p) for p in positions)
