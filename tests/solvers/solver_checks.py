"""Checks shared by the solver tests: draw-and-discard tables only grow, and the engine's judge."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rummyai.cards import Slot, card_str
from rummyai.engine.judge import judge_play
from rummyai.solvers.position import Position
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
    verdict = judge_play(
        variant,
        [card_str(c) for c in hand],
        [[str(s) for s in meld] for meld in table],
        [[str(s) for s in meld] for meld in melds],
        opened=opened,
    )
    return bool(verdict.legal)
