"""Random Rhine-style tables for the judge's property tests: a start table dealt from a narrow
band of cards (so identical copies repeat) and random rearrangements that keep every meld valid."""

from __future__ import annotations

import random

from rummyai.cards import JOKER, Slot, make_card
from rummyai.errors import MeldError
from rummyai.melds import analyze_meld
from rummyai.variants import Variant, get_variant

RHINE = get_variant("rhine")


def valid_slots(variant: Variant, cards: list[int]) -> tuple[Slot, ...] | None:
    """The meld these cards make (wild meanings filled in), or None."""
    try:
        return analyze_meld(variant, tuple(Slot(c) for c in cards)).slots
    except MeldError:
        return None


def deal(rng: random.Random, variant: Variant = RHINE) -> tuple[list[list[int]], list[int]]:
    """A start table of valid melds and a hand, from a narrow band of cards so copies repeat."""
    low = rng.randint(1, 8)  # spades and hearts only: clubs are left to the tests' filler runs
    pool = [make_card(r, s) for r in range(low, low + 5) for s in (0, 1) for _ in range(2)] + [JOKER] * 2
    rng.shuffle(pool)
    table: list[list[int]] = []
    for _ in range(60):
        if len(table) == 4 or len(pool) < 6:
            break
        size = rng.randint(3, 4)
        cards = pool[:size]
        if valid_slots(variant, cards) is not None:
            table.append(cards)
            del pool[:size]
        else:
            rng.shuffle(pool)
    hand = pool[: rng.randint(2, 4)]
    return table, hand


def rearrange(
    rng: random.Random, table: list[list[int]], hand: list[int], variant: Variant = RHINE
) -> list[list[int]]:
    """Random valid moves: add a hand card, move, split or merge melds, start a new meld."""
    melds = [list(m) for m in table]
    hand = list(hand)
    for _ in range(rng.randint(1, 6)):
        op = rng.randrange(5)
        trial = [list(m) for m in melds]
        rest = list(hand)
        if op == 0 and rest and trial:  # a hand card joins a meld
            trial[rng.randrange(len(trial))].append(rest.pop(rng.randrange(len(rest))))
        elif op == 1 and len(trial) >= 1:  # a card moves to another meld or starts one with hand cards
            a = rng.randrange(len(trial))
            card = trial[a].pop(rng.randrange(len(trial[a])))
            if len(trial) > 1 and rng.random() < 0.6:
                trial[rng.choice([k for k in range(len(trial)) if k != a])].append(card)
            elif len(rest) >= 2:
                trial.append([card, rest.pop(rng.randrange(len(rest))), rest.pop(rng.randrange(len(rest)))])
        elif op == 2 and trial:  # split a meld in two
            piece = trial.pop(rng.randrange(len(trial)))
            rng.shuffle(piece)
            cut = rng.randint(1, max(1, len(piece) - 1))
            trial += [piece[:cut], piece[cut:]]
        elif op == 3 and len(trial) >= 2:  # merge two melds
            piece = trial.pop(rng.randrange(len(trial)))
            trial[rng.randrange(len(trial))].extend(piece)
        elif op == 4 and len(rest) >= 3:  # a new meld from the hand
            trial.append([rest.pop(rng.randrange(len(rest))) for _ in range(3)])
        trial = [m for m in trial if m]
        if all(valid_slots(variant, m) is not None for m in trial):
            melds, hand = trial, rest
    return melds
