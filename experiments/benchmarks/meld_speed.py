"""Usage: python experiments/benchmarks/meld_speed.py [N per variant] [seed]

Throughput of rummyai.melds.analyze_meld without its cache, per variant.

Melds: random runs and groups from each variant's deck (lengths 3-8), with 0-2 wilds substituted
(unstated meanings), half of them shuffled, plus random 3-5 card draws (mostly invalid)."""

from __future__ import annotations

import random
import sys
import time

from rummyai.cards import Slot, make_card
from rummyai.errors import MeldError
from rummyai.melds import analyze_meld_uncached
from rummyai.variants import get_variant


def sample(variant, rng):
    deck = [k for k in range(52) if variant.copies[k]]
    wilds = [r.card for r in variant.wilds]
    pick = rng.random()
    if pick < 0.4:
        suit = rng.choice([s for s in range(4) if variant.run_rules[s] is not None])
        n = rng.randint(3, 8)
        start = rng.randint(1, 14 - n)
        cards = [make_card(r, suit) for r in range(start, start + n)]
    elif pick < 0.8:
        rank = rng.randint(1, 13)
        cards = [make_card(rank, s) for s in range(4)]
        cards = [c for c in cards if variant.copies[c]]
        rng.shuffle(cards)
        cards = cards[: rng.randint(3, max(3, len(cards)))]
    else:
        cards = rng.sample(deck, rng.randint(3, 5))
    if wilds:
        for _ in range(rng.randint(0, 2)):
            cards[rng.randrange(len(cards))] = rng.choice(wilds)
    if rng.random() < 0.5:
        rng.shuffle(cards)
    slots = []
    for c in cards:
        esc = None
        if variant.escorts is not None and c in variant.escorts.needs_escort:
            esc = Slot(make_card(rng.randint(1, 10), 1))
        slots.append(Slot(c, None, esc))
    return tuple(slots)


def main(n: int = 20000, seed: int = 1) -> None:
    rng = random.Random(seed)
    total_n = total_t = 0.0
    for vid in ["rummikub", "rhine", "rummy-tiles", "rummy-board", "rummy-palace", "standard", "black-heart"]:
        variant = get_variant(vid)
        melds = [sample(variant, rng) for _ in range(n)]
        valid = 0
        t0, c0 = time.perf_counter(), time.process_time()
        for m in melds:
            try:
                analyze_meld_uncached(variant, m)
                valid += 1
            except MeldError:
                pass
        dt, cpu = time.perf_counter() - t0, time.process_time() - c0
        total_n += n
        total_t += cpu
        print(f"{vid:14s} {n / cpu:9.0f} melds/s per CPU second ({n / dt:7.0f} wall)  {valid / n:4.0%} valid")
    print(f"{'all':14s} {total_n / total_t:9.0f} melds/s per CPU second")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:]))
