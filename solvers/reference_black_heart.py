"""Exhaustive Black Heart reference (small hands only), independent of the CP-SAT model.

It tries every sub-multiset of the hand as the cards laid off onto each table meld and as new
melds, judging each bundle of cards by every way of choosing its escorts and attaching them,
with `analyze_meld` resolving the wilds' meanings. The opening chart, the Royale and the Black
Heart (whole hand played) are checked on the finished play. Diamond swaps are not searched.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import cache
from itertools import combinations, permutations

from rummyai.cards import Slot
from rummyai.errors import IllegalMoveError, MeldError
from rummyai.melds import MeldInfo, analyze_meld
from rummyai.solvers.position import Position, Solution
from rummyai.variants import Variant

Bag = tuple[int, ...]  # sorted card kinds


def _arrangements(variant: Variant, bag: Bag, base: tuple[Slot, ...]) -> MeldInfo | None:
    """A valid meld of `base` plus the cards of `bag` (escorts chosen and attached), or None."""
    assert variant.escorts is not None
    rule = variant.escorts
    capable = {
        c
        for c in bag
        if c in rule.escorts or (c in variant.wild_map and variant.wild_map[c].stands_for & rule.escorts)
    }
    spots = [i for i, c in enumerate(bag) if c in capable]
    for k in range(len(bag) // 2 + 1):
        for chosen in combinations(spots, k):
            escorts = [bag[i] for i in chosen]
            cores = [bag[i] for i in range(len(bag)) if i not in chosen]
            courts = [i for i, c in enumerate(cores) if c in rule.needs_escort]
            wild = [i for i, c in enumerate(cores) if c in variant.wild_map]
            if len(courts) > k or len(courts) + len(wild) < k:
                continue
            for extra in combinations(wild, k - len(courts)):
                targets = courts + list(extra)
                for order in set(permutations(escorts)):
                    slots = [Slot(c) for c in cores]
                    for t, e in zip(targets, order, strict=True):
                        slots[t] = Slot(cores[t], None, Slot(e))
                    try:
                        info = analyze_meld(variant, (*base, *slots))
                    except MeldError:
                        continue
                    return info
    return None


def _sub_bags(bag: Bag) -> list[Bag]:
    out: set[Bag] = set()
    for k in range(1, len(bag) + 1):
        out.update(combinations(bag, k))
    return sorted(out)


def _minus(bag: Bag, part: Bag) -> Bag | None:
    rest = list(bag)
    for c in part:
        if c not in rest:
            return None
        rest.remove(c)
    return tuple(rest)


def reference_black_heart(
    position: Position,
    objective: str,
    max_cards: int | None,
    committed: Sequence[int] = (),
    score: int = 0,
) -> Solution:
    """Best play by exhaustive search (see the module doc); hands of up to about 8 cards."""
    from rummyai.solvers.black_heart import requirement

    start = time.perf_counter()
    v = position.variant
    hand: Bag = tuple(sorted(position.hand))
    hv = v.hand_values
    bonus = v.royale.value - sum(hv[c] for c in v.royale.cards) if v.royale is not None else 0
    req = None if position.opened else requirement(v, score)
    cap = len(hand) if max_cards is None else max_cards

    @cache
    def meld(bag: Bag, j: int) -> MeldInfo | None:
        base = () if j < 0 else tuple(position.table[j].slots)
        if j >= 0 and position.table[j].kind == "royale":
            return None
        info = _arrangements(v, bag, base)
        if info is not None and j >= 0 and info.kind == "royale":
            return None
        return info

    subs = _sub_bags(hand)
    best: tuple[tuple[int, int], Bag, list[MeldInfo]] | None = None

    def finish(rest: Bag, lays: list[MeldInfo | None], new: list[MeldInfo]) -> None:
        nonlocal best
        played = _minus(hand, rest)
        assert played is not None
        if len(played) > cap or _minus(played, tuple(sorted(committed))) is None:
            return
        royales = sum(1 for i in new if i.kind == "royale")
        if played and req is not None and rest != () and not royales:
            sizes = sorted((len(i.cards) for i in new), reverse=True)
            if len(sizes) < req[0] or sum(sizes[: req[0]]) < req[1]:
                return
        points = sum(hv[c] for c in played) + bonus * royales
        if objective == "penalty":
            points -= bonus * royales
        key = (len(played), points) if objective == "cards" else (points, len(played))
        if best is None or key > best[0]:
            table = [lay or info for lay, info in zip(lays, position.table, strict=True)]
            best = (key, played, table + new)

    def add_new(rest: Bag, lays: list[MeldInfo | None], new: list[MeldInfo], low: Bag) -> None:
        finish(rest, lays, new)
        for part in subs:
            if len(part) < 3 or part < low:
                continue
            left = _minus(rest, part)
            if left is None:
                continue
            info = meld(part, -1)
            if info is not None:
                add_new(left, lays, [*new, info], part)

    def lay(j: int, rest: Bag, lays: list[MeldInfo | None]) -> None:
        if j == len(position.table):
            add_new(rest, lays, [], ())
            return
        lay(j + 1, rest, [*lays, None])
        for part in subs:
            left = _minus(rest, part)
            if left is None:
                continue
            info = meld(part, j)
            if info is not None:
                lay(j + 1, left, [*lays, info])

    lay(0, hand, [])
    if best is None:
        raise IllegalMoveError("5.2", "the committed card cannot be placed on the table this turn")
    (_, _), played, infos = best
    points = sum(hv[c] for c in played) + bonus * sum(
        1 for i in infos[len(position.table) :] if i.kind == "royale"
    )
    value = len(played) if objective == "cards" else points
    if objective == "penalty":
        value = sum(hv[c] for c in hand) - sum(hv[c] for c in played)
    ms = (time.perf_counter() - start) * 1000
    melds = tuple(tuple(i.slots) for i in infos)
    return Solution(played, melds, "optimal", objective, value, len(played), points, ms)
