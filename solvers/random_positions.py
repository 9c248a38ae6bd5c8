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


def _try_meld(variant: Variant, pool: list[int], rng: random.Random) -> list[Slot] | None:
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
            want_joker = jokers > used_jokers and rng.random() < 0.12
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
            want_joker = jokers > used_jokers and rng.random() < 0.12
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
    variant: Variant | str, seed: int, table_cards: int, hand_cards: int
) -> tuple[list[int], list[tuple[Slot, ...]]]:
    """A hand of `hand_cards` card kinds and a table of about `table_cards` cards in valid melds."""
    rules = get_variant(variant)
    rng = random.Random(seed)
    pool = list(rules.deck)
    rng.shuffle(pool)
    table: list[tuple[Slot, ...]] = []
    size = 0
    attempts = 0
    while size < table_cards - 2 and attempts < 2000:
        attempts += 1
        meld = _try_meld(rules, pool, rng)
        if meld is None or size + len(meld) > table_cards:
            continue
        for slot in meld:
            pool.remove(slot.card)
        table.append(tuple(meld))
        size += len(meld)
    hand = pool[:hand_cards]
    return sorted(hand), table
