"""A simple move enumerator for the tile-style variants.

It lists new melds made from the hand (and, for a player who has not opened, openings made of
one or more such melds), plus single lay-offs of one hand card onto an end of a table run or
into a table group. The full rearrangement search is the solver's job; every move listed here
passes `tile_rules.check_play`.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, product

from rummyai.cards import Meaning, make_card, rank_of
from rummyai.engine.state import TableMeld
from rummyai.errors import MeldError
from rummyai.melds import analyze_meld, opening_value
from rummyai.variants import Variant

MAX_OPENINGS = 24
MAX_OPENING_NODES = 3000
MAX_CANDIDATES = 200


@dataclass(frozen=True)
class Candidate:
    """A meld that could be made from the hand: card kinds in meld order, wild meanings, value."""

    cards: tuple[int, ...]
    meanings: tuple[Meaning | None, ...]
    wilds: int
    value: int

    def counts(self) -> Counter[int]:
        """How many of each kind the meld uses (wild kinds included)."""
        return Counter(self.cards)


def _split_hand(variant: Variant, hand: Sequence[int]) -> tuple[dict[int, list[int]], list[int]]:
    deck = variant.deck
    naturals: dict[int, list[int]] = defaultdict(list)
    wilds: list[int] = []
    for i in hand:
        if variant.always_wild(deck[i]):
            wilds.append(i)
        else:
            naturals[deck[i]].append(i)
    return naturals, wilds


def candidate_value(
    variant: Variant, cards: tuple[int, ...], meanings: tuple[Meaning | None, ...]
) -> int | None:
    """Opening value of a candidate, or None when it is not a valid meld after all."""
    cache = variant.__dict__.setdefault("_tile_candidate_value", {})
    key = (cards, meanings)
    if key not in cache:
        from rummyai.cards import Slot

        try:
            info = analyze_meld(variant, tuple(Slot(c, m) for c, m in zip(cards, meanings, strict=True)))
            cache[key] = opening_value(variant, info)
        except MeldError:
            cache[key] = None
    value: int | None = cache[key]
    return value


def candidate_melds(variant: Variant, hand: Sequence[int]) -> list[Candidate]:
    """Groups and runs that the hand alone can make (wilds up to the variant's limit)."""
    naturals, wild_ids = _split_hand(variant, hand)
    deck = variant.deck
    limit = (
        len(wild_ids)
        if variant.max_wilds_per_meld is None
        else min(len(wild_ids), variant.max_wilds_per_meld)
    )
    # the wild kinds a meld of w wilds can take (Rhine's wild twos differ by suit and value)
    wild_sets = [sorted(set(combinations(sorted(deck[i] for i in wild_ids), w))) for w in range(limit + 1)]
    need_naturals = max(1, variant.min_naturals_per_meld)
    found: dict[tuple[tuple[int, ...], tuple[Meaning | None, ...]], Candidate] = {}

    def add(cards: list[int], meanings: list[Meaning | None], wilds: int) -> None:
        cap = variant.max_hand_cards_per_turn
        if cap is not None and len(cards) > cap:
            return
        key = (tuple(cards), tuple(meanings))
        if key in found:
            return
        value = candidate_value(variant, key[0], key[1])
        if value is not None:
            found[key] = Candidate(key[0], key[1], wilds, value)

    for rank in sorted({k % 13 + 1 for k in naturals}):
        kinds = [s * 13 + rank - 1 for s in range(4) if s * 13 + rank - 1 in naturals]
        if len(kinds) < need_naturals and variant.group_distinct_suits:
            continue
        if variant.group_distinct_suits:
            subsets = [sub for sub in _subsets(kinds) if len(sub) >= need_naturals]
        else:  # suits may repeat: every number of copies of each suit
            counts = product(*(range(len(naturals[k]) + 1) for k in kinds))
            subsets = [[k for k, n in zip(kinds, c, strict=True) for _ in range(n)] for c in counts]
            subsets = [sub for sub in subsets if len(sub) >= need_naturals]
        for subset in subsets:
            for w in range(limit + 1):
                size = len(subset) + w
                if size < variant.min_meld:
                    continue
                if variant.group_max is not None and size > variant.group_max:
                    break
                for wilds in wild_sets[w]:
                    add(list(subset) + list(wilds), [None] * len(subset) + [Meaning(rank)] * w, w)
    for suit in sorted({k // 13 for k in naturals}):
        rule = variant.run_rules[suit]
        if rule is None or rule.wrap:
            continue
        low = 1 if rule.ace_low else 2
        high = 14 if rule.ace_high and rule.max_rank == 13 else rule.max_rank
        base = suit * 13
        have = [False] * 16
        for p in range(low, high + 1):
            have[p] = (base + (p - 1) % 13) in naturals
        for start in range(low, high - 1):
            if not have[start] and limit == 0:
                continue
            missing = 0
            present = 0
            for end in range(start, min(high, start + 12) + 1):
                if have[end]:
                    present += 1
                else:
                    missing += 1
                    if missing > limit:
                        break
                if end - start + 1 < variant.min_meld or present < need_naturals:
                    continue
                for wilds in wild_sets[missing]:
                    cards: list[int] = []
                    meanings: list[Meaning | None] = []
                    w = 0
                    for p in range(start, end + 1):
                        if have[p]:
                            cards.append(base + (p - 1) % 13)
                            meanings.append(None)
                        else:
                            cards.append(wilds[w])
                            meanings.append(Meaning((p - 1) % 13 + 1, suit))
                            w += 1
                    add(cards, meanings, w)
    result = sorted(found.values(), key=lambda c: (-c.value, -len(c.cards), c.cards))
    return result[:MAX_CANDIDATES]


def _subsets(kinds: list[int]) -> list[list[int]]:
    out: list[list[int]] = [[]]
    for k in kinds:
        out += [[*s, k] for s in out]
    return [s for s in out if s]


def to_meld(candidate: Candidate, pools: dict[int, list[int]]) -> TableMeld:
    """Physical table meld for a candidate, taking ids from (and consuming) `pools` by kind."""
    ids = tuple(pools[c].pop() for c in candidate.cards)
    return TableMeld(ids, candidate.meanings)


def _pools(variant: Variant, hand: Sequence[int]) -> dict[int, list[int]]:
    deck = variant.deck
    pools: dict[int, list[int]] = defaultdict(list)
    for i in reversed(hand):
        pools[deck[i]].append(i)
    return pools


def opening_combos(variant: Variant, hand: Sequence[int], cands: list[Candidate]) -> list[list[Candidate]]:
    """Disjoint sets of candidate melds reaching the opening points (bounded backtracking)."""
    if variant.opening_wild_value == "forbidden":
        cands = [c for c in cands if c.wilds == 0]
    have = Counter(variant.deck[i] for i in hand)
    cap = variant.max_hand_cards_per_turn
    results: list[list[Candidate]] = []
    nodes = 0

    def rec(start: int, chosen: list[Candidate], used: Counter[int], total: int, cards: int) -> None:
        nonlocal nodes
        nodes += 1
        if total >= variant.opening_points:
            results.append(list(chosen))
            return
        for k in range(start, len(cands)):
            if len(results) >= MAX_OPENINGS or nodes >= MAX_OPENING_NODES:
                return
            c = cands[k]
            need = c.counts()
            if cap is not None and cards + len(c.cards) > cap:
                continue
            if any(used[kind] + n > have[kind] for kind, n in need.items()):
                continue
            chosen.append(c)
            # k, not k + 1: a meld may come twice when the hand holds two copies of its cards
            rec(k, chosen, used + need, total + c.value, cards + len(c.cards))
            chosen.pop()

    rec(0, [], Counter(), 0, 0)
    return results


def opening_plays(
    variant: Variant, table: tuple[TableMeld, ...], hand: Sequence[int]
) -> list[tuple[TableMeld, ...]]:
    """New-table layouts (and their opening melds) for a player who has not opened yet."""
    cands = candidate_melds(variant, hand)
    combos: list[list[Candidate]]
    if variant.opening == "natural_meld":
        combos = [[c] for c in cands if c.wilds == 0 and len(c.cards) >= variant.opening_min_naturals]
    else:
        combos = opening_combos(variant, hand, cands)
    plays = []
    for combo in combos:
        pools = _pools(variant, hand)
        plays.append(tuple(to_meld(c, pools) for c in combo))
    return plays


def new_meld_plays(variant: Variant, hand: Sequence[int]) -> list[TableMeld]:
    """Single new melds from the hand, as physical melds."""
    return [to_meld(c, _pools(variant, hand)) for c in candidate_melds(variant, hand)]


def layoffs(variant: Variant, table: Sequence[TableMeld], hand: Sequence[int]) -> list[tuple[int, TableMeld]]:
    """Single hand cards added to an end of a table run or into a table group: (meld index, new meld)."""
    from rummyai.engine.tile_rules import resolve

    deck = variant.deck
    naturals, wild_ids = _split_hand(variant, hand)
    wild_ok = bool(wild_ids) and variant.joker_rules.hand_joker_joins
    out: list[tuple[int, TableMeld]] = []
    for t, meld in enumerate(table):
        r = resolve(variant, meld)
        room_for_wild = wild_ok and (
            variant.max_wilds_per_meld is None or len(r.wild) < variant.max_wilds_per_meld
        )
        ids, means = r.meld.ids, r.meld.meanings
        if r.kind == "run":
            suit = r.info.suit
            assert suit is not None
            rule = variant.run_rules[suit]
            if rule is None or len(ids) >= 13:
                continue
            lo, hi = r.info.positions[0], r.info.positions[-1]
            top = 14 if rule.ace_high and rule.max_rank == 13 else rule.max_rank
            ends = []
            if hi + 1 <= top and not (hi + 1 == 14 and lo == 1):
                ends.append((hi + 1, False))
            if lo - 1 >= (1 if rule.ace_low else 2):
                ends.append((lo - 1, True))
            for pos, at_low in ends:
                kind = make_card(pos, suit)
                adds: list[tuple[int, Meaning | None]] = []
                if naturals.get(kind):
                    adds.append((naturals[kind][0], None))
                if room_for_wild:
                    adds.append((wild_ids[0], Meaning(rank_of(kind), suit)))
                for card_id, meaning in adds:
                    if at_low:
                        out.append((t, TableMeld((card_id, *ids), (meaning, *means))))
                    else:
                        out.append((t, TableMeld((*ids, card_id), (*means, meaning))))
        elif r.kind == "group":
            rank = r.info.rank
            assert rank is not None
            if variant.group_max is not None and len(ids) >= variant.group_max:
                continue
            used = {deck[i] // 13 for i in r.naturals}
            for suit in range(4):
                kind = make_card(rank, suit)
                if not naturals.get(kind) or (variant.group_distinct_suits and suit in used):
                    continue
                out.append((t, TableMeld((*ids, naturals[kind][0]), (*means, None))))
            if room_for_wild:
                out.append((t, TableMeld((*ids, wild_ids[0]), (*means, Meaning(rank)))))
    return out
