"""Rummy Palace joker swaps read off a solved move (§4.4-4.5), for answers and hints.

The solver finds swaps (the CP-SAT model on opened turns, `opening_swaps` on an opening turn) but
its `Solution` shows them only as a table: the joker's old place now holds the natural card, and
the joker lies somewhere else. `joker_swaps` names each swap: the start meld and the hand card put
in the joker's place, and where the joker went. In Rummy Palace a joker never returns to the
hand: it goes back on the table in the same action, into a new meld or as a lay-off (§4.5).

Draw-and-discard tables only grow, and the solver keeps every start meld at its own index of the
new table (`Solution.melds[i]` continues start meld i), so a swap shows as:

* a run: a joker's stated card lies in the run as a natural card (a run holds each rank once, so
  only a swap can have put it there);
* a group: the group holds fewer jokers than before (jokers leave a meld only by a swap); the
  group's added naturals of a missing suit replaced them ("either missing suit", §4.5).

A group that keeps its jokers while gaining naturals got lay-offs, even if the solver's model took
a joker out and put it back: the table is the same, and the plain reading needs no swap.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations, permutations
from typing import NamedTuple

from rummyai.cards import JOKER, Slot, card_str, meld_str
from rummyai.errors import MeldError, RummyError
from rummyai.melds import MeldInfo, analyze_meld, opening_value
from rummyai.solvers.position import Position, Solution
from rummyai.variants import Variant


class JokerSwap(NamedTuple):
    """One Palace joker swap: the joker in slot `slot` of start meld `meld` gives way to hand card
    `replacement` (a card kind) and is laid as `placed` (its new meaning) into meld `to_meld` of
    the new table. `lay_off` says whether that meld is already on the table when the joker joins
    it (a start meld, the swapped meld itself, on an opening turn one of the opening's melds, or
    a new meld an earlier swap's joker started) rather than laid down new with it and hand cards. Indexes are 0-based; start meld i is meld i
    of the new table too."""

    meld: int
    slot: int
    replacement: int
    to_meld: int
    placed: Slot
    lay_off: bool

    def to_json(self) -> dict[str, object]:
        """The solve contract's entry (``"joker"`` where Black Heart's entries say ``"diamond"``)."""
        return {
            "meld": self.meld,
            "joker": card_str(JOKER),
            "replacement": card_str(self.replacement),
            "to_meld": self.to_meld,
            "placed_as": str(self.placed),
            "lay_off": self.lay_off,
        }


def joker_swaps(position: Position, solution: Solution) -> tuple[JokerSwap, ...]:
    """The joker swaps that turn `position`'s table into `solution.melds` (none outside Palace).

    Each swapped joker is paired with a joker slot of the new table that no start joker fills
    (the hand's own jokers fill the others), the first in table order (in a meld, from the inside
    out). On an opening turn swaps come only after the 30 (§4.4): the pairing leaves new melds
    worth the opening without a swapped joker, or failing that new melds with a part worth laying
    first (`read_swaps` names the parts; the joker is laid off onto them after the opening).
    Swaps come in start-meld order, except that a meld gives up its own jokers before it takes
    swapped ones (`_in_order`). Raises `RummyError` when `solution` is not an answer for this
    position (its table does not continue the start table, or the jokers do not add up).
    """
    return read_swaps(position, solution)[0]


def read_swaps(
    position: Position, solution: Solution
) -> tuple[tuple[JokerSwap, ...], dict[int, tuple[Slot, ...]]]:
    """`joker_swaps`, and on an opening turn the part of each new meld laid in the opening before
    a swapped joker joins it (by new-table index; whole melds of the opening are not listed)."""
    variant = position.variant
    if not variant.joker_rules.exact_swaps or not solution.played:
        return (), {}
    start = position.table
    new = [analyze_meld(variant, meld) for meld in solution.melds]
    if len(new) < len(start):
        raise RummyError(f"the new table has {len(new)} melds, fewer than the {len(start)} it starts from")
    taken: list[tuple[int, int, int]] = []  # (start meld, slot, replacement)
    fresh: list[tuple[int, int]] = []  # (new meld, slot) of jokers no start joker fills
    for i, before in enumerate(start):
        after = new[i]
        if not _continues(before, after):
            raise RummyError(f"new meld {i + 1} ({after}) does not continue table meld {i + 1} ({before})")
        out = _swapped_out(before, after)
        taken.extend((i, slot, card) for slot, card in out)
        fresh.extend((i, k) for k in _fresh_wilds(before, after, len(out)))
    for j in range(len(start), len(new)):
        fresh.extend((j, k) for k, w in enumerate(new[j].as_wild) if w)
    fresh = _inside_out(new, fresh)
    hand_jokers = sum(1 for c in solution.played if c == JOKER)
    if len(fresh) != len(taken) + hand_jokers:
        raise RummyError(
            f"the new table holds {len(fresh)} jokers beyond the start table's, but the move frees "
            f"{len(taken)} by swaps and plays {hand_jokers} from the hand"
        )
    if not taken:
        return (), {}
    opening_met = False
    for spots, parts in _destinations(position, new, fresh, len(taken)):
        opening_met = True
        pairs = _in_order(list(zip(taken, spots, strict=True)))
        if _lay_in_order(variant, start, new, pairs, parts):
            break
    else:
        table = " | ".join(meld_str(m.slots) for m in new)
        if not opening_met:
            raise SwapOrderError(
                "the move swaps jokers on an opening turn, but no new melds without a swapped joker "
                f"are worth the opening's {variant.opening_points} points: {table}"
            )
        raise SwapOrderError(
            "the move needs two swapped jokers in one meld at once, but each swap puts its joker "
            f"back on the table on its own (rules 4.5): {table}"
        )
    swaps: list[JokerSwap] = []
    laid = set(range(len(start))) | set(parts)  # melds on the table before a joker joins them
    for (i, slot, card), (j, k) in pairs:
        swaps.append(JokerSwap(i, slot, card, j, new[j].slots[k], j in laid))
        laid.add(j)
    return tuple(swaps), {j: tuple(new[j].slots[k] for k in piece) for j, piece in parts.items()}


class SwapOrderError(RummyError):
    """A table that only several swapped jokers laid at once could make: no legal Palace move."""


def swaps_in_order(position: Position, played: Sequence[int], melds: Sequence[Sequence[Slot]]) -> bool:
    """Whether the joker swaps that turn `position`'s table into `melds` (playing the hand cards
    `played`) can be made one at a time, each joker going straight back on the table with hand
    cards beside it (the engine's atomic SWAP, §4.5)."""
    table = tuple(tuple(meld) for meld in melds)
    try:
        read_swaps(position, Solution(tuple(played), table, "feasible", "cards", 0, len(played), 0, 0.0))
    except SwapOrderError:
        return False
    return True


def _lay_in_order(
    variant: Variant,
    start: Sequence[MeldInfo],
    new: Sequence[MeldInfo],
    pairs: list[Pair],
    parts: dict[int, list[int]],
) -> bool:
    """Order the swapped jokers going into one meld so that each lay-off leaves a valid meld
    (`pairs` rewritten in place); False when some meld has no such order."""
    into: dict[int, list[int]] = {}  # meld -> the pairs laying a joker into it, in order
    for n, (_, (j, _)) in enumerate(pairs):
        into.setdefault(j, []).append(n)
    for j, ns in into.items():
        there = set(parts.get(j, ()))
        if j < len(start):
            there = _start_slots(
                start[j], new[j], {pairs[n][1][1] for n in ns}, [c for (i, _, c), _ in pairs if i == j]
            )
        order = _feasible(variant, new[j], there, [pairs[n][1][1] for n in ns])
        if order is None:
            return False
        for n, k in zip(ns, order, strict=True):
            pairs[n] = (pairs[n][0], (j, k))
    return True


def _start_slots(before: MeldInfo, after: MeldInfo, fresh: set[int], replacements: list[int]) -> set[int]:
    """Slots of `after` holding the start meld's cards (its naturals, the cards swapped in, the
    jokers that stay): what is on the table before any joker is laid into it."""
    kinds = set(_naturals(before)) | set(replacements)
    return {
        k for k, slot in enumerate(after.slots) if k not in fresh and (after.as_wild[k] or slot.card in kinds)
    }


def _feasible(variant: Variant, info: MeldInfo, there: set[int], slots: list[int]) -> list[int] | None:
    """An order for laying jokers into `slots` of `info` (whose slots `there` lie on the table
    already) in which each joker, with hand cards beside it, leaves a valid meld: a run grows
    from the inside out. None when no order does (the jokers would have to come at once)."""
    for order in permutations(slots):
        if all(
            _layable(variant, info, there | set(order[: t + 1]), set(order[t + 1 :]))
            for t in range(len(order))
        ):
            return list(order)
    return None


def _layable(variant: Variant, info: MeldInfo, need: set[int], later: set[int]) -> bool:
    """Whether some valid meld holds the slots `need` of `info` and none of `later`."""
    return layable_piece(variant, info, need, later) is not None


def layable_piece(variant: Variant, info: MeldInfo, need: set[int], later: set[int]) -> list[int] | None:
    """The slots of `info` of the first valid meld that holds the slots `need` and none of
    `later` (a stretch of a run; a group with all the naturals it may have), or None: what a
    swapped joker is laid with, the later ones still to come (the hint's steps read it too)."""
    if info.kind == "run":
        low, high = min(need), max(need)
        pieces = [list(range(a, b + 1)) for a in range(low + 1) for b in range(high, len(info.slots))]
        pieces = [p for p in pieces if not later & set(p)]
    else:
        pieces = [sorted(need | {k for k, w in enumerate(info.as_wild) if not w and k not in later})]
    for piece in pieces:
        try:
            analyze_meld(variant, tuple(info.slots[k] for k in piece))
        except MeldError:
            continue
        return piece
    return None


Pair = tuple[tuple[int, int, int], tuple[int, int]]  # ((start meld, slot, replacement), (new meld, slot))


def _in_order(pairs: list[Pair]) -> list[Pair]:
    """Swaps in start-meld order, except that a meld gives up its own jokers before it takes
    swapped ones (fewer jokers beside its naturals), and jokers going into one meld keep their
    order (from the inside out)."""
    left, out = list(pairs), []
    while left:
        # a meld's own jokers leave before another joins it (its slots are placed afresh later,
        # `_lay_in_order`), and otherwise jokers going into one meld keep their order
        giving = [p for p in left if not any(q[0][0] == p[1][0] and q is not p for q in left)]
        ready = [
            p for n, p in enumerate(left) if p in giving and not any(q[1][0] == p[1][0] for q in left[:n])
        ]
        pick = ready[0] if ready else giving[0] if giving else left[0]
        left.remove(pick)
        out.append(pick)
    return out


def _naturals(info: MeldInfo) -> Counter[int]:
    return Counter(s.card for s, w in zip(info.slots, info.as_wild, strict=True) if not w)


def _continues(before: MeldInfo, after: MeldInfo) -> bool:
    """Whether `after` can be `before` grown: same kind, its naturals all still there."""
    return before.kind == after.kind and not _naturals(before) - _naturals(after)


def _swapped_out(before: MeldInfo, after: MeldInfo) -> list[tuple[int, int]]:
    """The start meld's swapped jokers as (slot, replacement card)."""
    wild = [k for k, w in enumerate(before.as_wild) if w]
    naturals = _naturals(after)
    if before.kind == "run":
        return [(k, card) for k in wild if (card := before.meant(k)) is not None and naturals[card]]
    count = max(0, len(wild) - after.wild_count)
    added = sorted((naturals - _naturals(before)).elements())
    if count > len(added):
        raise RummyError(f"{count} jokers left the group {before} but only {len(added)} cards joined it")
    return list(zip(wild[:count], added[:count], strict=True))


def _fresh_wilds(before: MeldInfo, after: MeldInfo, out: int) -> list[int]:
    """Slots of `after`'s jokers that are not start jokers left in place (`out` of them were
    swapped): in a run the jokers whose card no staying joker stands for, in a group the last
    ones beyond the staying count."""
    wild = [k for k, w in enumerate(after.as_wild) if w]
    if after.kind != "run":
        return wild[len([w for w in before.as_wild if w]) - out :]
    staying = Counter(before.meant(k) for k, w in enumerate(before.as_wild) if w)
    fresh = []
    for k in wild:
        card = after.meant(k)
        if staying[card]:
            staying[card] -= 1
        else:
            fresh.append(k)
    return fresh


def _inside_out(new: Sequence[MeldInfo], fresh: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Fresh joker slots by meld, nearest to the meld's other cards first, so that jokers added at
    a run's end are laid from the inside out (each lay-off leaves a valid run)."""
    spots = set(fresh)

    def key(spot: tuple[int, int]) -> tuple[int, int, int]:
        j, k = spot
        return j, min(abs(k - n) for n in range(len(new[j].slots)) if (j, n) not in spots), k

    return sorted(fresh, key=key)


def _destinations(
    position: Position, new: Sequence[MeldInfo], fresh: list[tuple[int, int]], count: int
) -> Iterator[tuple[list[tuple[int, int]], dict[int, list[int]]]]:
    """The choices of `count` fresh joker slots for the swapped jokers (the hand's jokers fill the
    others), with the opening's parts (slot indexes) of new melds that receive one later (none on
    an opened turn): on an opening turn only choices that leave melds worth the opening without a
    swapped joker, whole ones first. Nearest slots first (`fresh` is in `_inside_out` order)."""
    if position.opened:
        for chosen in combinations(fresh, count):
            yield list(chosen), {}
        return
    variant = position.variant
    need = variant.opening_points
    for lay_off in (False, True):
        for chosen in combinations(fresh, count):
            values: list[int] = []
            parts: dict[int, list[int]] = {}
            for j in range(len(position.table), len(new)):
                mine = {k for m, k in chosen if m == j}
                if not mine:
                    values.append(opening_value(variant, new[j]))
                elif lay_off and (part := _best_part(variant, new[j], mine)) is not None:
                    values.append(opening_value(variant, part[0]))
                    parts[j] = part[1]
            if max(values, default=0) >= need if variant.opening_single_meld else sum(values) >= need:
                yield list(chosen), parts


def _best_part(variant: Variant, info: MeldInfo, skip: set[int]) -> tuple[MeldInfo, list[int]] | None:
    """The valid meld worth most toward the opening made of `info`'s slots but `skip` (a stretch
    of a run, or some cards of a group), with those slots' indexes. None when there is none."""
    keep = [k for k in range(len(info.slots)) if k not in skip]
    if info.kind == "run":
        pieces = [keep[a:b] for a in range(len(keep)) for b in range(a + 1, len(keep) + 1)]
        pieces = [p for p in pieces if p[-1] - p[0] == len(p) - 1]  # no gap where a skipped joker lies
    else:
        pieces = [list(c) for n in range(1, len(keep) + 1) for c in combinations(keep, n)]
    best: tuple[MeldInfo, list[int]] | None = None
    for piece in pieces:
        if len(piece) < variant.min_meld:
            continue
        try:
            part = analyze_meld(variant, tuple(info.slots[k] for k in piece))
        except MeldError:
            continue
        if best is None or opening_value(variant, part) > opening_value(variant, best[0]):
            best = (part, piece)
    return best
