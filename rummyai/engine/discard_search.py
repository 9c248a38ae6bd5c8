"""Candidate plays for the draw-meld-discard family: new melds from a hand, single lay-offs, openings.

This is a simple generator, not an exhaustive search: groups and runs (with wilds filling gaps and
escorts attached where needed), single-card lay-offs at either end of a run or into a group, and
opening bundles of up to three melds, or more where no meld of the bundle can be left out (a
points opening of small melds). Every candidate returned is a valid meld in canonical form.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterator, Sequence
from dataclasses import replace
from functools import lru_cache
from itertools import combinations, combinations_with_replacement, permutations

from rummyai.cards import Meaning, make_card, rank_of, suit_of
from rummyai.engine.discard_melds import Illegal, Requirement, check_layoff, normalize
from rummyai.engine.state import TableMeld
from rummyai.melds import MeldInfo, card_count, opening_value
from rummyai.variants import RunRule, Variant

Candidate = tuple[TableMeld, MeldInfo]


def run_windows(rule: RunRule, length: int) -> Iterator[list[int]]:
    """Rank positions (1..14, 14 = high ace) of every run of this length the rule allows."""
    if length > 13:
        return
    if rule.wrap:
        for start in range(1, 14):
            seq = [(start - 1 + k) % 13 + 1 for k in range(length)]
            if any(r > rule.max_rank for r in seq):
                continue
            yield [14 if r == 1 and k > 0 and seq[k - 1] == 13 else r for k, r in enumerate(seq)]
        return
    low = 1 if rule.ace_low else 2
    high = 14 if rule.ace_high and rule.max_rank == 13 else rule.max_rank
    for start in range(low, high - length + 2):
        yield list(range(start, start + length))


@lru_cache(maxsize=4096)
def _window_kinds(rule: RunRule, length: int, suit: int) -> tuple[tuple[list[int], list[int]], ...]:
    """Each run window of this length with the card kinds it needs in `suit`."""
    return tuple((seq, [make_card(p, suit) for p in seq]) for seq in run_windows(rule, length))


def _may_escort(variant: Variant, kind: int) -> bool:
    """Whether a card of this kind can be an escort: a heart, or a wild standing for one (§6.2)."""
    rule = variant.escorts
    if rule is None:
        return False
    wild = variant.wild_map.get(kind)
    if wild is not None:
        return bool(wild.stands_for & rule.escorts)
    return kind in rule.escorts


class _Hand:
    """A hand split by role: naturals by kind, wilds, and hearts that may serve as escorts."""

    def __init__(self, variant: Variant, hand: Sequence[int], must: int | None, focus: bool = False) -> None:
        deck = variant.deck
        self.variant = variant
        self.must = must
        self.by_kind: dict[int, list[int]] = {}
        self.wilds: list[int] = []
        for i in hand:
            kind = deck[i]
            if variant.is_wild(kind):
                self.wilds.append(i)
            if not variant.always_wild(kind):
                self.by_kind.setdefault(kind, []).append(i)
        # restrictive wilds first; the card that must be used first of all
        self.wilds.sort(key=lambda i: (i != must, len(variant.wild_map[deck[i]].stands_for), i))
        for ids in self.by_kind.values():
            ids.sort(key=lambda i: (i != must, i))
        rule = variant.escorts
        self.focus: int | None = None
        if must is not None and focus:
            kind = deck[must]
            if not variant.is_wild(kind) and (rule is None or kind not in rule.escorts):
                self.focus = kind
        # escorts: natural hearts first, then wilds that may stand for a heart (J♦, K♦; §6.2)
        self.hearts = [] if rule is None else [i for i in hand if _may_escort(variant, deck[i])]
        self.hearts.sort(key=lambda i: (i != must, variant.is_wild(deck[i]), variant.hand_value(deck[i]), i))

    def needs_escort(self, card: int | None) -> bool:
        rule = self.variant.escorts
        return rule is not None and card is not None and card in rule.needs_escort

    def escorts_for(self, count: int, used: set[int]) -> list[int] | None:
        free = [i for i in self.hearts if i not in used]
        return free[:count] if len(free) >= count else None

    def escort_choices(self, count: int, used: set[int]) -> list[list[int]]:
        """Escorts for `count` cards: the preferred ones (the card that must be played first),
        and, when that spends the must-play card, also a choice without it, which leaves the
        card free to be a core card of another meld (an opening bundle's second meld)."""
        first = self.escorts_for(count, used)
        if first is None:
            return []
        if self.must is None or self.must not in first:
            return [first]
        other = self.escorts_for(count, used | {self.must})
        return [first] if other is None else [first, other]


def _build(hand: _Hand, core: list[tuple[int, Meaning | None, int]]) -> Iterator[Candidate]:
    """Candidates from (id, meaning, meant kind) triples, attaching escorts where needed (one per
    escort choice of `_Hand.escort_choices`)."""
    variant = hand.variant
    used = {i for i, _, _ in core}
    need = [k for k, (_, _, meant) in enumerate(core) if hand.needs_escort(meant)]
    for chosen in hand.escort_choices(len(need), used) if need else [[]]:
        escorts: list[int | None] = [None] * len(core)
        for k, e in zip(need, chosen, strict=True):
            escorts[k] = e
        meld = TableMeld(
            tuple(i for i, _, _ in core),
            tuple(m for _, m, _ in core),
            tuple(escorts) if variant.escorts is not None else (),
        )
        try:
            yield normalize(variant, meld)
        except Illegal:
            continue


def _wild_meaning_in_group(
    hand: _Hand, wild: int, rank: int, taken: set[int], escorted: bool = False
) -> tuple[Meaning, int] | None:
    """A meaning for a wild in a group of `rank`: preferring suits that need no escort, or with
    `escorted` those that do (an escort is one more card played, which an opening chart that
    counts cards may need, §6.4)."""
    variant = hand.variant
    rule = variant.wild_map[variant.deck[wild]]
    options = [make_card(rank, s) for s in range(4) if make_card(rank, s) in rule.stands_for]
    if variant.group_distinct_suits:
        options = [c for c in options if suit_of(c) not in taken]
    if not options:
        return None
    options.sort(key=lambda c: (hand.needs_escort(c) != escorted, suit_of(c)))
    card = options[0]
    suit = suit_of(card) if variant.escorts is not None else None
    return Meaning(rank, suit), card


def _count_ok(variant: Variant, naturals: int, wilds: int) -> bool:
    if naturals < max(1, variant.min_naturals_per_meld):
        return False
    if variant.max_wilds_per_meld is not None and wilds > variant.max_wilds_per_meld:
        return False
    return not (variant.wilds_le_naturals and wilds > naturals)


def _groups(hand: _Hand, limit: int) -> Iterator[Candidate]:
    variant = hand.variant
    deck = variant.deck
    for rank in range(1, 14):
        if hand.focus is not None and rank_of(hand.focus) != rank:
            continue
        naturals: list[int] = []
        for kind, ids in sorted(hand.by_kind.items()):
            if rank_of(kind) != rank:
                continue
            naturals.extend(ids[:1] if variant.group_distinct_suits else ids[:3])
        if not naturals:
            continue
        # wilds that may stand for a card of this rank (a restrictive one may not: §6.2's J♦)
        wilds = [
            w
            for w in hand.wilds
            if w not in naturals
            and any(make_card(rank, s) in variant.wild_map[deck[w]].stands_for for s in range(4))
        ]
        cap = variant.group_max or 6
        made = 0
        for m in range(min(len(naturals), cap), 0, -1):
            for chosen in combinations(naturals, m):
                for w in range(0, min(len(wilds), cap - m) + 1):
                    if m + w < variant.min_meld or not _count_ok(variant, m, w):
                        continue
                    cores: list[list[tuple[int, Meaning | None, int]]] = []
                    for escorted in (False, True) if w and variant.escorts is not None else (False,):
                        taken = {suit_of(deck[i]) for i in chosen}
                        core: list[tuple[int, Meaning | None, int]] = [(i, None, deck[i]) for i in chosen]
                        for wild in wilds:  # the first w wilds that find a suit still open
                            if len(core) == m + w:
                                break
                            picked = _wild_meaning_in_group(hand, wild, rank, taken, escorted)
                            if picked is not None:
                                taken.add(suit_of(picked[1]))
                                core.append((wild, picked[0], picked[1]))
                        if len(core) == m + w and core not in cores:
                            cores.append(core)
                    for core in cores:
                        for built in _build(hand, core):
                            yield built
                            made += 1
                    if made >= limit:
                        break
                if made >= limit:
                    break
            if made >= limit:
                break


def _runs(hand: _Hand, limit: int) -> Iterator[Candidate]:
    variant = hand.variant
    for suit in range(4):
        rule = variant.run_rules[suit]
        if rule is None or (hand.focus is not None and suit_of(hand.focus) != suit):
            continue
        made = 0
        in_suit = sum(1 for kind in hand.by_kind if suit_of(kind) == suit and not variant.is_wild(kind))
        if in_suit == 0:
            continue
        for length in range(min(13, in_suit + len(hand.wilds)), variant.min_meld - 1, -1):
            for _seq, kinds in _window_kinds(rule, length, suit):
                if hand.focus is not None and hand.focus not in kinds:
                    continue
                naturals = sum(1 for k in kinds if k in hand.by_kind)
                wild_need = length - naturals
                if (
                    naturals == 0
                    or wild_need > len(hand.wilds)
                    or not _count_ok(variant, naturals, wild_need)
                ):
                    continue
                present = [hand.by_kind.get(k, []) for k in kinds]
                core: list[tuple[int, Meaning | None, int]] = []
                free_wilds = list(hand.wilds)
                ok = True
                for kind, ids in zip(kinds, present, strict=True):
                    if ids and not variant.is_wild(kind):
                        core.append((ids[0], None, kind))
                        continue
                    wild = next(
                        (w for w in free_wilds if kind in variant.wild_map[variant.deck[w]].stands_for), None
                    )
                    if wild is None:
                        ok = False
                        break
                    free_wilds.remove(wild)
                    core.append((wild, Meaning(rank_of(kind), suit), kind))
                if not ok:
                    continue
                for built in _build(hand, core):
                    yield built
                    made += 1
                if made >= limit:
                    break
            if made >= limit:
                break


def _royale(hand: _Hand) -> Iterator[Candidate]:
    rule = hand.variant.royale
    if rule is None:
        return
    ids = []
    for kind in rule.cards:
        owned = hand.by_kind.get(kind, [])
        if not owned:
            return
        ids.append(owned[0])
    yield from _build(hand, [(i, None, hand.variant.deck[i]) for i in ids])


def meld_candidates(
    variant: Variant,
    hand: Sequence[int],
    must: int | None = None,
    limit: int = 40,
    prefer: int | None = None,
) -> list[Candidate]:
    """Valid new melds made of hand cards (containing `must` if given, using `prefer` before
    other copies of its card), deduplicated by cards and what their wilds stand for (a joker at
    either end of a run is worth a different card)."""
    split = _Hand(variant, hand, must if must is not None else prefer, focus=must is not None)
    seen: set[tuple[object, ...]] = set()
    out: list[Candidate] = []
    for meld, info in [*_royale(split), *_groups(split, limit), *_runs(split, limit)]:
        if must is not None and must not in meld.all_ids():
            continue
        meanings = sorted(str(m) for m in meld.meanings if m is not None)
        key = (*sorted(variant.deck[i] for i in meld.all_ids()), len(meld.ids), *meanings)
        if key in seen:
            continue
        seen.add(key)
        out.append((meld, info))
    return out


def layoff_candidates(
    variant: Variant,
    hand: Sequence[int],
    table: Sequence[TableMeld],
    seat: int,
    must: int | None = None,
) -> list[tuple[int, TableMeld]]:
    """Single-card lay-offs (with an escort where needed): (target index, meld after)."""
    split = _Hand(variant, hand, must)
    deck = variant.deck
    out: list[tuple[int, TableMeld]] = []
    seen: set[tuple[int, int, Meaning | None, bool]] = set()
    for t, old in enumerate(table):
        try:
            _, info = normalize(variant, old)
        except Illegal:
            continue
        if info.kind == "royale":
            continue
        options: list[tuple[int, Meaning | None, int, bool]] = []  # id, meaning, meant, at front
        if info.kind == "group":
            rank = info.rank or 0
            taken = {suit_of(m) for m in (info.meant(k) for k in range(len(info.slots))) if m is not None}
            for kind, ids in hand_kinds(split):
                if rank_of(kind) == rank:
                    options.append((ids[0], None, kind, False))
            for wild in split.wilds:
                picked = _wild_meaning_in_group(split, wild, rank, taken)
                if picked is not None:
                    options.append((wild, picked[0], picked[1], False))
        else:
            suit = info.suit if info.suit is not None else 0
            ends = [(info.positions[-1] % 13 + 1, False), (info.positions[0] - 1 or 13, True)]
            for position, front in ends:
                kind = make_card(position, suit)
                owned = split.by_kind.get(kind)
                if owned:
                    options.append((owned[0], None, kind, front))
                for wild in split.wilds:
                    if kind in variant.wild_map[deck[wild]].stands_for:
                        options.append((wild, Meaning(rank_of(kind), suit), kind, front))
        for card, meaning, meant, front in options:
            key = (t, deck[card], meaning, front)
            if key in seen:
                continue
            seen.add(key)
            escort: int | None = None
            if split.needs_escort(meant):
                chosen = split.escorts_for(1, {card})
                if chosen is None:
                    continue
                escort = chosen[0]
            if must is not None and must not in (card, escort):
                continue
            new = _extended(variant, old, card, meaning, escort, front)
            try:
                normalized, _, _ = check_layoff(variant, old, new, hand, seat)
            except Illegal:
                continue
            out.append((t, normalized))
    return out


def hand_kinds(hand: _Hand) -> list[tuple[int, list[int]]]:
    """(kind, ids) of the hand's cards that may play as themselves."""
    return sorted(hand.by_kind.items())


def _extended(
    variant: Variant, old: TableMeld, card: int, meaning: Meaning | None, escort: int | None, front: bool
) -> TableMeld:
    escorts = old.escorts or ((None,) * len(old.ids) if variant.escorts is not None else ())
    if front:
        ids, meanings = (card, *old.ids), (meaning, *old.meanings)
        new_escorts = (escort, *escorts) if variant.escorts is not None else ()
    else:
        ids, meanings = (*old.ids, card), (*old.meanings, meaning)
        new_escorts = (*escorts, escort) if variant.escorts is not None else ()
    return TableMeld(ids, meanings, new_escorts)


def opening_bundles(
    variant: Variant,
    requirement: Requirement,
    candidates: Sequence[Candidate],
    hand: Sequence[int],
    must: int | None = None,
    limit: int = 30,
) -> list[tuple[TableMeld, ...]]:
    """Bundles of up to three candidate melds that `hand` (physical ids) holds together and that
    meet the opening requirement (and contain `must` if given): the best-looking single melds, every
    other meld that opens alone (the Royale at a high score, ranked below two dozen larger melds),
    then pairs and triples of the best-looking; then, for a
    points opening, bundles of four or more that need every meld they hold (`_minimal_bundles`;
    any other is a smaller opening with melds added after it in the same turn). Candidates
    name one copy of each card; a bundle needing two copies of a card gets the hand's other copy
    (`_with_own_copies`), so melds that share a card kind still combine (§7.1). Two bundles are
    the same when they lay the same cards with the same wild meanings (a Palace joker's stated
    meaning binds its later swaps, §4.5)."""

    def weight(c: Candidate) -> int:
        return opening_value(variant, c[1]) if requirement.kind == "points" else card_count(c[1])

    deck = variant.deck
    have = Counter(deck[i] for i in hand)  # what every bundle's quick copy count reads
    ranked = sorted(candidates, key=weight, reverse=True)[:24]
    holders = [c for c in candidates if must is None or must in c[0].all_ids()]
    out: list[tuple[TableMeld, ...]] = []
    seen: set[tuple[tuple[int, int, int], ...]] = set()

    def add(bundle: Sequence[Candidate]) -> bool:
        """Record the bundle if it qualifies and the hand holds it; True once the limit is reached
        (the requirement reads the melds alone, so it is asked before the hand's copies are)."""
        if not requirement.met_by(variant, [info for _, info in bundle]):
            return False
        melds = _with_own_copies([m for m, _ in bundle], hand, have, variant, must)
        if melds is None:
            return False
        key = tuple(sorted(_laid(deck, m, k, i) for m in melds for k, i in enumerate(m.all_ids())))
        if key in seen or (must is not None and not any(must in m.all_ids() for m in melds)):
            return False
        seen.add(key)
        out.append(melds)
        return len(out) >= limit

    for c in ranked:
        if add([c]):
            return out
    kept = {id(c) for c in ranked}
    for c in candidates:  # one ranked too low that opens alone (Black Heart's Royale, §6.4)
        if id(c) not in kept and add([c]):
            return out
    for a, b in combinations_with_replacement(ranked, 2):  # a meld twice: two copies of each card
        if add([a, b]):
            return out
    if must is None:
        for a, b, c in combinations(ranked[:12], 3):
            if add([a, b, c]):
                return out
    else:
        for h in holders:
            for c in ranked:
                if add([c, h]):
                    return out
            for a, b in combinations(ranked[:12], 2):
                if add([a, b, h]):
                    return out
    if requirement.kind == "points" and not requirement.single_meld:
        small = [c for c in ranked if weight(c) < requirement.points]  # a larger one is needed alone
        values = [weight(c) for c in small]
        for bundle in _minimal_bundles(small, deck, have, values, requirement.points):
            if add(bundle):
                return out
    return out


def _laid(deck: Sequence[int], meld: TableMeld, k: int, card: int) -> tuple[int, int, int]:
    """A card of an opening as its kind and the rank and suit it stands for (-1: a natural, an
    escort, or a group wild's suit)."""
    mean = meld.meanings[k] if k < len(meld.meanings) else None
    if mean is None:
        return deck[card], -1, -1
    return deck[card], mean.rank, -1 if mean.suit is None else mean.suit


def _minimal_bundles(
    candidates: Sequence[Candidate],
    deck: Sequence[int],
    have: Counter[int],
    values: Sequence[int],
    points: int,
) -> Iterator[list[Candidate]]:
    """Bundles of four or more `candidates` (best first; `values` their opening values) whose
    cards the hand's kinds (`have`) cover together, worth `points` in all, from which no meld can
    be left out: a depth-first search that stops a branch as soon as it reaches the points."""
    kinds = [Counter(deck[i] for i in meld.all_ids()) for meld, _ in candidates]
    chosen: list[int] = []

    def grow(start: int, total: int, left: Counter[int]) -> Iterator[list[Candidate]]:
        for k in range(start, len(candidates)):
            if any(left[kind] < n for kind, n in kinds[k].items()):
                continue
            worth = total + values[k]
            chosen.append(k)
            if worth >= points:
                if len(chosen) >= 4 and worth - min(values[j] for j in chosen) < points:
                    yield [candidates[j] for j in chosen]
            else:
                yield from grow(k + 1, worth, left - kinds[k])
            chosen.pop()

    yield from grow(0, 0, have)


def _with_own_copies(
    melds: Sequence[TableMeld], hand: Sequence[int], have: Counter[int], variant: Variant, must: int | None
) -> tuple[TableMeld, ...] | None:
    """The melds with every card a physical card of its own from `hand` (`have`: its kinds
    counted); None when the hand cannot serve them all. The melds holding `must` are served first so that they keep it, then
    those whose escorts or wilds other cards can replace; when that order fails, the others
    (a heart one meld needs as a natural may be another's escort, a diamond a wild in one and
    itself in another: whichever is served first takes it)."""

    if not _may_serve(melds, len(hand), have, variant):
        return None

    def order(k: int) -> tuple[bool, bool]:
        meld = melds[k]
        flexible = any(e is not None for e in meld.escorts) or any(m is not None for m in meld.meanings)
        return must is None or must not in meld.all_ids(), flexible

    first = sorted(range(len(melds)), key=order)
    # the order matters only where a meld has escorts or wilds (others take their own kinds)
    orders = permutations(first) if any(order(k)[1] for k in first) else [first]
    for served in orders:
        free = set(hand)
        out = list(melds)
        for k in served:
            meld = copies_from(melds[k], free, variant)
            if meld is None:
                break
            free.difference_update(meld.all_ids())
            out[k] = meld
        else:
            return tuple(out)
    return None


def _may_serve(melds: Sequence[TableMeld], held: int, have: Counter[int], variant: Variant) -> bool:
    """A quick necessary test for `_with_own_copies`: the hand (`held` cards, `have` of each
    kind) holds a card for every place, a wild for every place a wild stands in (only wilds serve
    there), and a copy of its own kind for every place no other kind may take (a natural, a group
    wild)."""
    deck = variant.deck
    places = sum(len(m.ids) + sum(e is not None for e in m.escorts) for m in melds)
    if places > held:
        return False
    wild_places = sum(meaning is not None for m in melds for meaning in m.meanings)
    if wild_places and wild_places > sum(n for kind, n in have.items() if kind in variant.wild_map):
        return False
    need = Counter(
        deck[i]
        for m in melds
        for i, meaning in zip(m.ids, m.meanings, strict=True)
        if meaning is None or meaning.suit is None
    )
    return all(have[kind] >= n for kind, n in need.items())


def copies_from(meld: TableMeld, free: Collection[int], variant: Variant) -> TableMeld | None:
    """`meld` with every card from `free`: its own id where free, else another copy of its kind
    (identical copies are interchangeable, §7.1), else for a wild with a run meaning another free
    wild standing for that card, for an escort another free natural card that may escort (Black
    Heart's hearts, §6.2). None when `free` cannot serve it."""
    deck = variant.deck
    taken: set[int] = set()

    def own(i: int, serves: Callable[[int], bool]) -> int:
        """`i` if free, else another free card of its kind, else one `serves` accepts, else -1."""
        if i in free and i not in taken:
            taken.add(i)
            return i
        spare = [j for j in free if j not in taken]
        other = next((j for j in spare if deck[j] == deck[i]), None)
        if other is None:
            other = next((j for j in spare if serves(deck[j])), -1)
        taken.add(other)
        return other

    def wild_for(meaning: Meaning | None) -> Callable[[int], bool]:
        if meaning is None or meaning.suit is None:  # naturals, group wilds: the same kind only
            return lambda kind: False
        meant = make_card(meaning.rank, meaning.suit)
        return lambda kind: kind in variant.wild_map and meant in variant.wild_map[kind].stands_for

    rule = variant.escorts
    escort_kinds = frozenset() if rule is None else rule.escorts

    def escort(kind: int) -> bool:
        return kind in escort_kinds and not variant.is_wild(kind)

    ids = tuple(own(i, wild_for(m)) for i, m in zip(meld.ids, meld.meanings, strict=True))
    escorts = tuple(None if e is None else own(e, escort) for e in meld.escorts)
    if -1 in ids or -1 in escorts:
        return None
    return replace(meld, ids=ids, escorts=escorts)


def layoff_chain(
    variant: Variant,
    hand: Sequence[int],
    table: Sequence[TableMeld],
    seat: int,
    card: int,
    budget: int = 48,
) -> list[tuple[int, TableMeld]] | None:
    """Single lay-offs of other hand cards onto table runs, one after another, after which hand
    card `card` can be laid off too (the last step holds `card`); None if none is found. The
    caller has already found no direct lay-off of `card`.

    A run grows one card at a time, so a card two ranks beyond its end is playable once the card
    between is laid off first (§5.2: TAKE(i) needs *some* legal play of card i this turn).
    The search is depth-first over positions, at most `budget` of them.
    """
    seen: set[tuple[tuple[int, ...], tuple[TableMeld, ...]]] = set()
    left = [budget]
    kind = variant.deck[card]

    def search(cards: list[int], melds: tuple[TableMeld, ...]) -> list[tuple[int, TableMeld]] | None:
        key = (tuple(sorted(cards)), melds)
        if key in seen or left[0] <= 0:
            return None
        seen.add(key)
        left[0] -= 1
        if len(seen) > 1:  # the caller has tried `card` on the table as it stands
            direct = layoff_candidates(variant, cards, melds, seat, must=card)
            if direct:
                return [direct[0]]
        runs = [t for t, m in enumerate(melds) if _grows_toward(variant, m, kind)]
        if not runs:
            return None
        others = [c for c in cards if c != card]
        for j, new in layoff_candidates(variant, others, [melds[t] for t in runs], seat):
            t = runs[j]
            added = set(new.all_ids()) - set(melds[t].all_ids())
            rest = [c for c in cards if c not in added]
            found = search(rest, (*melds[:t], new, *melds[t + 1 :]))
            if found is not None:
                return [(t, new), *found]
        return None

    return search(list(hand), tuple(table))


def _grows_toward(variant: Variant, meld: TableMeld, kind: int) -> bool:
    """Whether growing table meld `meld` may open a lay-off for a card of `kind`: a run of its
    suit, or any run for a wild or a card that may escort (it can ride on a black court card)."""
    try:
        info = normalize(variant, meld)[1]
    except Illegal:
        return False
    if info.kind != "run":
        return False
    return variant.is_wild(kind) or _may_escort(variant, kind) or info.suit == suit_of(kind)
