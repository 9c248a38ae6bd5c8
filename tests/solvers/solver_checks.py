"""Checks shared by the solver tests: draw-and-discard tables only grow, and the engine's judge;
and the steps the position strategies share (a table meld with wilds drawn in, a hand dealt)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from hypothesis import strategies as st

from rummyai.cards import Meaning, Slot
from rummyai.errors import MeldError
from rummyai.melds import analyze_meld
from rummyai.solvers.check import judge
from rummyai.solvers.position import Position, make_position
from rummyai.variants import Variant


def start_melds_grow(position: Position, melds: Sequence[Sequence[Slot]]) -> bool:
    """Draw-and-discard tables never shrink: each start meld's natural cards stay together."""
    bags = [Counter(slot.card for slot in meld) for meld in melds]
    for info in position.table:
        need = Counter(s.card for s, wild in zip(info.slots, info.as_wild, strict=True) if not wild)
        if not any(all(bag[c] >= n for c, n in need.items()) for bag in bags):
            return False
    return True


def judged_legal(
    variant: Variant | str,
    hand: Sequence[int],
    table: Sequence,
    melds: Sequence[Sequence[Slot]],
    opened: bool,
) -> bool:
    """The engine's judge on a tile-style play written in card kinds and slots."""
    return bool(judge(make_position(variant, hand, table, opened), melds).legal)


def draw_table_meld(
    draw: st.DrawFn,
    variant: Variant,
    cards: Sequence[int],
    meanings: Sequence[Meaning],
    wilds: Sequence[int],
    used: Counter[int],
) -> tuple[Slot, ...] | None:
    """The meld of `cards` with some replaced by a drawn wild standing for its `meanings` entry
    (always for cards that are always wild), counted into `used`; None when it would need more
    copies than the deck holds or is not a valid meld."""
    slots = []
    for card, meaning in zip(cards, meanings, strict=True):
        wild = wilds and (variant.always_wild(card) or draw(st.integers(0, 4)) == 0)
        slots.append(Slot(draw(st.sampled_from(wilds)), meaning) if wild else Slot(card))
    return admit_meld(variant, slots, used)


def admit_meld(variant: Variant, slots: Sequence[Slot], used: Counter[int]) -> tuple[Slot, ...] | None:
    """`slots` as a table meld, its cards (escorts too) counted into `used`; None when the deck
    has too few copies left or it is not a valid meld."""
    counts = Counter(c for slot in slots for c in slot.cards())
    if any(used[c] + n > variant.copies[c] for c, n in counts.items()):
        return None
    try:
        analyze_meld(variant, tuple(slots))
    except MeldError:
        return None
    used.update(counts)
    return tuple(slots)


def draw_hand(
    draw: st.DrawFn, variant: Variant, pool: Sequence[int], used: Counter[int], min_size: int, max_size: int
) -> list[int]:
    """A sorted hand drawn from `pool`, skipping cards whose copies `used` has exhausted."""
    hand: list[int] = []
    for card in draw(st.lists(st.sampled_from(pool), min_size=min_size, max_size=max_size)):
        if used[card] < variant.copies[card]:
            used[card] += 1
            hand.append(card)
    return sorted(hand)
