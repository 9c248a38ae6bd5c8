"""Seeded random positions for tests and benchmarks: a table dealt as valid melds, then a hand.

The table is built from one shuffled deck: random runs and groups (jokers in any position) are
drawn while cards last and kept only if `analyze_meld` accepts them; the hand is dealt from
what remains. Same seed, same position.
"""

from __future__ import annotations

import random

from rummyai.cards import JOKER, Meaning, Slot, make_card
from rummyai.errors import MeldError
from rummyai.melds import analyze_meld
from rummyai.variants import Variant, get_variant


def _try_meld(variant: Variant, pool: list[int], rng: random.Random, joker_rate: float) -> list[Slot] | None:
    jokers = pool.count(JOKER)
    if rng.random() < 0.55:
        suit = rng.randrange(4)
        length = rng.randint(3, 5)
        start = rng.randint(1, 14 - length + 1)
        positions = list(range(start, start + length))
        slots: list[Slot] = []
        used_jokers = 0
        for p in positions:
            card = make_card(p, suit)
            want_joker = jokers > used_jokers and rng.random() < joker_rate
            if card in pool and not want_joker:
                slots.append(Slot(card))
            elif jokers > used_jokers:
                used_jokers += 1
                slots.append(Slot(JOKER, Meaning(p if p <= 13 else 1, suit)))
            else:
                return None
    else:
        rank = rng.randint(1, 13)
        size = rng.randint(3, 4)
        suits = rng.sample(range(4), size)
        slots = []
        used_jokers = 0
        for suit in suits:
            card = make_card(rank, suit)
            want_joker = jokers > used_jokers and rng.random() < joker_rate
            if card in pool and not want_joker:
                slots.append(Slot(card))
            elif jokers > used_jokers:
                used_jokers += 1
                slots.append(Slot(JOKER, Meaning(rank)))
            else:
                return None
    try:
        analyze_meld(variant, tuple(slots))
    except MeldError:
        return None
    return slots


def random_position(
    variant: Variant | str,
    seed: int,
    table_cards: int,
    hand_cards: int,
    joker_rate: float = 0.12,
    related: float = 0.0,
) -> tuple[list[int], list[tuple[Slot, ...]]]:
    """A hand of `hand_cards` card kinds and a table of about `table_cards` cards in valid melds.

    `joker_rate` is the chance that a table meld's card is a joker; `related` the chance that a
    hand card is drawn among cards that fit next to the table's (same rank, or same suit within
    two ranks, jokers' meanings included), which makes rearrangements and joker rules matter.
    """
    rules = get_variant(variant)
    rng = random.Random(seed)
    pool = list(rules.deck)
    rng.shuffle(pool)
    table: list[tuple[Slot, ...]] = []
    size = 0
    attempts = 0
    while size < table_cards - 2 and attempts < 2000:
        attempts += 1
        meld = _try_meld(rules, pool, rng, joker_rate)
        if meld is None or size + len(meld) > table_cards:
            continue
        for slot in meld:
            pool.remove(slot.card)
        table.append(tuple(meld))
        size += len(meld)
    near: set[int] = set()
    for placed in table:
        for slot in placed:
            meant = slot.meaning.card() if slot.meaning is not None else slot.card
            if slot.meaning is not None and slot.meaning.suit is None:
                near.update(make_card(slot.meaning.rank, s) for s in range(4))
            if meant is None or meant == JOKER:
                continue
            rank, suit = meant % 13 + 1, meant // 13
            near.update(make_card(rank, s) for s in range(4))
            near.update(make_card(r, suit) for r in range(max(1, rank - 2), min(13, rank + 2) + 1))
    hand: list[int] = []
    for _ in range(min(hand_cards, len(pool))):
        choices = [c for c in pool if c in near] if rng.random() < related else []
        card = rng.choice(choices) if choices else pool[0]
        pool.remove(card)
        hand.append(card)
    return sorted(hand), table


def joker_positions(
    variant: Variant | str,
    count: int,
    seed: int,
    tables: tuple[int, int] = (15, 45),
    hands: tuple[int, int] = (8, 16),
    joker_rate: float = 0.2,
) -> list[tuple[list[int], list[tuple[Slot, ...]]]]:
    """`count` seeded positions with a joker on the table (any table where the deck has none):
    table and hand sizes drawn from `tables` and `hands`, hands drawn near the table
    (`related` 0.7). The defaults are the mid-game positions of the solver benchmarks."""
    rules = get_variant(variant)
    rng = random.Random(seed)
    out: list[tuple[list[int], list[tuple[Slot, ...]]]] = []
    while len(out) < count:
        s = rng.randrange(10**9)
        hand, table = random_position(rules, s, rng.randint(*tables), rng.randint(*hands), joker_rate, 0.7)
        if not rules.jokers or any(slot.card == JOKER for meld in table for slot in meld):
            out.append((hand, table))
    return out
