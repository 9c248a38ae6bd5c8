"""Exhaustive Black Heart reference (small hands only), independent of the CP-SAT model.

It first walks every sequence of diamond swaps (§6.5) open to the hand, one swap at a time on the
current table: the replacement must have the group's rank, be exactly the card a run's diamond
stands for, or be a natural heart for a diamond escort, and a black court card without an escort
takes one more from the hand. From each table and hand so reached it tries every sub-multiset of
the hand as the cards laid off onto each table meld and as new melds, judging each bundle by every
way of choosing its escorts and attaching them, with `analyze_meld` resolving the wilds' meanings.
The opening chart (swaps do not open), the Royale and the Black Heart (whole hand played) are
checked on the finished play; cards and points are counted net of the diamonds taken back.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, permutations, product

from rummyai.cards import Meaning, Slot, rank_of, suit_of
from rummyai.errors import IllegalMoveError, MeldError
from rummyai.melds import MeldInfo, analyze_meld
from rummyai.solvers.position import Position, Solution
from rummyai.variants import Variant

Bag = tuple[int, ...]  # sorted card kinds
Table = tuple[tuple[Slot, ...], ...]
Swap = tuple[int, int, int, int | None]


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


# ----------------------------------------------------------------------------- diamond swaps
@dataclass(frozen=True)
class _After:
    """A position reached by swaps: hand, table, committed cards, diamonds that must be placed
    again by a meld or lay-off (freed by a committed card), and the swaps made."""

    hand: Bag
    table: Table
    must: Bag
    locked: Bag
    swaps: tuple[Swap, ...]


def _escort_capable(variant: Variant, card: int) -> bool:
    assert variant.escorts is not None
    hearts = variant.escorts.escorts
    return card in hearts or (card in variant.wild_map and bool(variant.wild_map[card].stands_for & hearts))


def _replacements(
    variant: Variant, info: MeldInfo, k: int, hand: Bag
) -> Iterator[tuple[Slot, int, int, int | None]]:
    """(new slot, diamond, replacement, new escort) for each swap of a diamond at slot `k`."""
    assert variant.escorts is not None
    rule = variant.escorts
    slot = info.slots[k]
    if variant.is_wild(slot.card):
        for r in sorted(set(hand)):
            if info.kind == "group" and rank_of(r) != info.rank:
                continue
            if info.kind == "run" and (slot.meaning is None or r != slot.meaning.card()):
                continue
            meaning = Meaning(rank_of(r), suit_of(r)) if variant.is_wild(r) else None
            if r in rule.needs_escort and slot.escort is None:
                left = _minus(hand, (r,))
                assert left is not None
                for e in sorted(set(left)):
                    if _escort_capable(variant, e):
                        yield Slot(r, meaning, Slot(e)), slot.card, r, e
            else:
                yield Slot(r, meaning, slot.escort), slot.card, r, None
    if slot.escort is not None and variant.is_wild(slot.escort.card):
        for r in sorted(set(hand)):
            if r in rule.escorts and not variant.is_wild(r):
                yield Slot(slot.card, slot.meaning, Slot(r)), slot.escort.card, r, None


def _swap_children(variant: Variant, at: _After) -> Iterator[_After]:
    """Every position one more swap away from `at`."""
    for j, slots in enumerate(at.table):
        info = analyze_meld(variant, slots)
        if info.kind == "royale":
            continue
        for k in range(len(info.slots)):
            for new, d, r, e in _replacements(variant, info, k, at.hand):
                gained = (r,) if e is None else (r, e)
                if any(g in at.locked for g in gained):
                    continue  # a diamond that must be placed again cannot serve a swap
                changed = list(info.slots)
                changed[k] = new
                try:
                    after = analyze_meld(variant, tuple(changed))
                except MeldError:
                    continue
                rest = _minus(at.hand, gained)
                assert rest is not None
                hand = tuple(sorted((*rest, d)))
                table = (*at.table[:j], tuple(after.slots), *at.table[j + 1 :])
                swaps = (*at.swaps, (j, d, r, e))
                # each gained card may be a committed copy (the diamond then must be placed) or not
                for duty in product((False, True), repeat=len(gained)):
                    must = at.must
                    ok = True
                    for g, committed in zip(gained, duty, strict=True):
                        if committed:
                            left = _minus(must, (g,))
                            ok = ok and left is not None
                            must = left if left is not None else must
                        else:
                            ok = ok and at.hand.count(g) > at.must.count(g)
                    if not ok:
                        continue
                    # only a committed replacement (gained[0]) makes the diamond committed (§6.5)
                    locked = tuple(sorted((*at.locked, d))) if duty[0] else at.locked
                    yield _After(hand, table, tuple(sorted(must)), locked, swaps)


def _reachable(variant: Variant, start: _After) -> list[_After]:
    """`start` and every position reached from it by swaps, each (hand, table, duties) once."""
    seen = {(start.hand, start.table, start.must, start.locked)}
    out = [start]
    todo = [start]
    while todo:
        for child in _swap_children(variant, todo.pop()):
            key = (child.hand, child.table, child.must, child.locked)
            if key not in seen:
                seen.add(key)
                out.append(child)
                todo.append(child)
    return out


# ------------------------------------------------------------------------------------ search
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
    hand0: Bag = tuple(sorted(position.hand))
    hv = v.hand_values
    bonus = v.royale.value - sum(hv[c] for c in v.royale.cards) if v.royale is not None else 0
    req = None if position.opened else requirement(v, score)
    cap = len(hand0) if max_cards is None else max_cards

    @cache
    def meld(bag: Bag, base: tuple[Slot, ...]) -> MeldInfo | None:
        if base and analyze_meld(v, base).kind == "royale":
            return None
        info = _arrangements(v, bag, base)
        if info is not None and base and info.kind == "royale":
            return None
        return info

    best: tuple[tuple[int, int], _Found] | None = None

    def search(at: _After) -> None:
        table = [analyze_meld(v, slots) for slots in at.table]
        subs = _sub_bags(at.hand)
        duty = tuple(sorted((*at.must, *at.locked)))

        def finish(rest: Bag, lays: list[MeldInfo | None], new: list[MeldInfo]) -> None:
            nonlocal best
            placed = _minus(at.hand, rest)
            assert placed is not None
            cards = len(hand0) - len(rest)
            if cards > cap or _minus(placed, duty) is None:
                return
            royales = sum(1 for i in new if i.kind == "royale")
            if placed and req is not None and rest != () and not royales:
                sizes = sorted((len(i.cards) for i in new), reverse=True)
                if len(sizes) < req[0] or sum(sizes[: req[0]]) < req[1]:
                    return
            points = sum(hv[c] for c in hand0) - sum(hv[c] for c in rest) + bonus * royales
            gain = points - bonus * royales if objective == "penalty" else points
            key = (cards, points) if objective == "cards" else (gain, cards)
            if best is None or key > best[0]:
                layout = [lay or info for lay, info in zip(lays, table, strict=True)]
                best = (key, _Found(cards, points, tuple(_leaving(hand0, rest)), layout + new, at.swaps))

        def add_new(rest: Bag, lays: list[MeldInfo | None], new: list[MeldInfo], low: Bag) -> None:
            finish(rest, lays, new)
            for part in subs:
                if len(part) < 3 or part < low:
                    continue
                left = _minus(rest, part)
                if left is None:
                    continue
                info = meld(part, ())
                if info is not None:
                    add_new(left, lays, [*new, info], part)

        def lay(j: int, rest: Bag, lays: list[MeldInfo | None]) -> None:
            if j == len(table):
                add_new(rest, lays, [], ())
                return
            lay(j + 1, rest, [*lays, None])
            for part in subs:
                left = _minus(rest, part)
                if left is None:
                    continue
                info = meld(part, tuple(table[j].slots))
                if info is not None:
                    lay(j + 1, left, [*lays, info])

        lay(0, at.hand, [])

    table0: Table = tuple(tuple(info.slots) for info in position.table)
    for at in _reachable(v, _After(hand0, table0, tuple(sorted(committed)), (), ())):
        search(at)
    if best is None:
        raise IllegalMoveError("5.2", "the committed card cannot be placed on the table this turn")
    found = best[1]
    royales = sum(1 for i in found.infos[len(position.table) :] if i.kind == "royale")
    value = found.cards if objective == "cards" else found.points
    if objective == "penalty":
        value = sum(hv[c] for c in hand0) - found.points + bonus * royales
    ms = (time.perf_counter() - start) * 1000
    melds = tuple(tuple(i.slots) for i in found.infos)
    return Solution(
        found.played, melds, "optimal", objective, value, found.cards, found.points, ms, 0, found.swaps
    )


@dataclass(frozen=True)
class _Found:
    """The best play so far: net cards and points, start-hand cards played, table, swaps."""

    cards: int
    points: int
    played: Bag
    infos: list[MeldInfo]
    swaps: tuple[Swap, ...]


def _leaving(hand: Bag, rest: Bag) -> list[int]:
    """Cards of the start `hand` that are not in the final hand `rest` (diamonds taken back are
    in `rest` only)."""
    left = list(rest)
    out = []
    for c in hand:
        if c in left:
            left.remove(c)
        else:
            out.append(c)
    return out
