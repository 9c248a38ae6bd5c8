"""CP-SAT model for Black Heart Rum (§6): diamond swaps, new melds from the hand and lay-offs.

Every meld core a hand can form (runs with wrap for spades and clubs, hearts runs A-10, groups
with repeated suits, the diamonds as themselves or as wilds within their scopes, the Royale) and
every way each table meld can grow are listed explicitly, each checked by `analyze_meld`. The
model picks how often each is used. Escorts are pooled: any heart (or J♦/K♦ standing for one)
escorts any black court card, so the model only counts how many escorts each choice needs and
which escort-capable hand cards supply them. The opening chart, the Royale opening and the
Black Heart (the whole hand played on the first play) are exact.

Diamond swaps (§6.5): each table meld has a list of swap states (none, or some of its non-Royale
diamonds replaced by a card of the group's rank, the exact card a run's diamond stands for, or a
natural heart for a diamond escort; a black court card without an escort brings a new one), and
its lay-offs are listed per state. A swapped diamond joins the hand and may be placed anywhere or
kept. "Cards played" is the net count of cards leaving the hand: a swap whose diamond is kept is
one card out and one in, so it counts 0 (points likewise count the diamond's value against it).
Swaps alone do not open; a committed card used in a swap passes its duty to the diamond; the
diamonds that serve other swaps (as replacement or new escort) must be freed in an order without
cycles. A swap's freed diamond may escort its own replacement when another diamond can stand in
its place for a moment (diamond for stand-in, then stand-in for the escorted replacement: two swaps
back to back). Ties go to the play with fewer swaps.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations, product
from typing import Any, Literal

from ortools.sat.python import cp_model

from rummyai.cards import Meaning, Slot, make_card, rank_of, suit_of
from rummyai.cpsat import cp_solver
from rummyai.errors import IllegalMoveError, MeldError
from rummyai.melds import MeldInfo, analyze_meld
from rummyai.solvers.position import Position, Solution, late_search_time, time_left
from rummyai.variants import Variant

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
#: seconds past the time limit allowed to find any play that places a committed card (within
#: the limit plus 0.3 s a caller may count on); past them the search goes on until it finds one
COMMITTED_GRACE = 0.25


@dataclass(frozen=True)
class Core:
    """Core slots (wild meanings stated, no escorts) that a new meld or a lay-off adds."""

    slots: tuple[Slot, ...]
    counts: tuple[tuple[int, int], ...]  # (card kind, copies) of the core cards
    escorts: int  # black court cards (natural or meant) needing an escort
    royale: bool = False

    @property
    def size(self) -> int:
        """Cards the meld holds, escorts included (for the opening chart)."""
        return len(self.slots) + self.escorts


def requirement(variant: Variant, score: int) -> tuple[int, int] | None:
    """(melds, cards) of the opening chart line for cumulative `score`, None if any play opens."""
    line = None
    for step in variant.opening_chart:
        if score >= step.min_score:
            line = step
    if line is None or line.melds == 0:
        return None
    return line.melds, line.min_cards


def _meanings(variant: Variant, wild: int, cards: Sequence[int]) -> list[int]:
    rule = variant.wild_map[wild]
    return [c for c in cards if c in rule.stands_for]


def _core(variant: Variant, slots: Sequence[Slot], base: Sequence[Slot] = ()) -> Core | None:
    """The core if `base` plus `slots` (escorts stubbed) is a valid meld, else None."""
    assert variant.escorts is not None
    needs = variant.escorts.needs_escort
    hearts = sorted(variant.escorts.escorts)
    stubbed: list[Slot] = []
    escorts = 0
    used = [s.escort.card for s in base if s.escort is not None]
    for slot in slots:
        meant = slot.meaning.card() if slot.meaning is not None else slot.card
        if meant in needs:
            stub = next(h for h in hearts if used.count(h) < 2)  # deck holds 2 of each heart
            used.append(stub)
            stubbed.append(Slot(slot.card, slot.meaning, Slot(stub)))
            escorts += 1
        else:
            stubbed.append(slot)
    try:
        info = analyze_meld(variant, (*base, *stubbed))
    except MeldError:
        return None
    if info.kind == "royale" and base:
        return None
    counts: dict[int, int] = {}
    for slot in slots:
        counts[slot.card] = counts.get(slot.card, 0) + 1
    return Core(tuple(slots), tuple(sorted(counts.items())), escorts, info.kind == "royale")


def _fill(
    variant: Variant, cards: Sequence[int], hand: Sequence[int], wilds: Sequence[int]
) -> Iterator[tuple[Slot, ...]]:
    """Every way to lay the exact `cards` (run positions) with hand naturals and wilds."""
    n = len(cards)
    fits = {w: [i for i in range(n) if cards[i] in variant.wild_map[w].stands_for] for w in wilds}
    for k in range(min(len(wilds), n) + 1):
        for chosen in combinations(wilds, k):
            # the positions each chosen wild may take, distinct (in the order of `permutations`)
            for spots in product(*(fits[w] for w in chosen)):
                if len(set(spots)) < k:
                    continue
                by = dict(zip(spots, chosen, strict=True))
                need: dict[int, int] = {}
                for i in range(n):
                    if i not in by:
                        need[cards[i]] = need.get(cards[i], 0) + 1
                if any(hand[c] < m for c, m in need.items()):
                    continue
                yield tuple(
                    Slot(by[i], Meaning(rank_of(cards[i]), suit_of(cards[i]))) if i in by else Slot(cards[i])
                    for i in range(n)
                )


def _group_cores(
    variant: Variant, rank: int, hand: Sequence[int], wilds: Sequence[int], minimum: int
) -> Iterator[tuple[Slot, ...]]:
    """Every multiset of rank-`rank` cores (naturals and wilds with each possible meaning)."""
    members = [c for c in range(52) if rank_of(c) == rank and variant.copies[c] > 0]
    naturals = [c for c in members if not variant.always_wild(c)]
    for numbers in product(*(range(hand[c] + 1) for c in naturals)):
        base = [Slot(c) for c, n in zip(naturals, numbers, strict=True) for _ in range(n)]
        free = [
            w for w in wilds if hand[w] - sum(n for c, n in zip(naturals, numbers, strict=True) if c == w) > 0
        ]
        for k in range(len(free) + 1):
            if len(base) + k < minimum:
                continue
            for chosen in combinations(free, k):
                options = [_meanings(variant, w, members) for w in chosen]
                for meant in product(*options):
                    extra = [Slot(w, Meaning(rank, suit_of(c))) for w, c in zip(chosen, meant, strict=True)]
                    yield tuple(base + extra)


def _run_cards(variant: Variant, suit: int, start: int, length: int) -> list[int] | None:
    rule = variant.run_rules[suit]
    if rule is None:
        return None
    cards = []
    for i in range(length):
        rank = start + i
        if rank > 13:
            if not rule.wrap:
                return None
            rank -= 13
        card = make_card(rank, suit)
        if variant.copies[card] == 0:
            return None
        cards.append(card)
    return cards


def new_meld_cores(variant: Variant, hand: Sequence[int]) -> list[Core]:
    """Every core a new meld from `hand` (counts by kind) can have, deduplicated."""
    wilds = [w for w in variant.wild_map if hand[w] > 0]
    found: dict[tuple[tuple[tuple[int, int], ...], int, bool], Core] = {}

    def add(slots: Sequence[Slot]) -> None:
        core = _core(variant, slots)
        if core is not None:
            found.setdefault((core.counts, core.escorts, core.royale), core)

    if variant.royale is not None and all(hand[c] > 0 for c in variant.royale.cards):
        add([Slot(c) for c in variant.royale.cards])
    for suit in range(4):
        for start in range(1, 14):
            for length in range(3, 14):
                cards = _run_cards(variant, suit, start, length)
                if cards is None:
                    continue
                if sum(1 for c in cards if hand[c] == 0) > len(wilds):
                    continue
                for slots in _fill(variant, cards, hand, wilds):
                    add(slots)
    for rank in range(1, 14):
        for slots in _group_cores(variant, rank, hand, wilds, 3):
            add(slots)
    return list(found.values())


def layoff_cores(variant: Variant, info: MeldInfo, hand: Sequence[int]) -> list[Core]:
    """Every non-empty core that can be laid off onto table meld `info` from `hand`."""
    if info.kind == "royale":
        return []
    wilds = [w for w in variant.wild_map if hand[w] > 0]
    found: dict[tuple[tuple[tuple[int, int], ...], int], Core] = {}

    def add(slots: Sequence[Slot]) -> None:
        core = _core(variant, slots, info.slots)
        if core is not None:
            found.setdefault((core.counts, core.escorts), core)

    if info.kind == "group":
        assert info.rank is not None
        for slots in _group_cores(variant, info.rank, hand, wilds, 1):
            add(slots)
        return list(found.values())
    assert info.suit is not None
    first = (info.positions[0] - 1) % 13 + 1
    length = len(info.slots)
    for before in range(0, 13 - length + 1):
        for after in range(0, 13 - length - before + 1):
            if before + after == 0:
                continue
            start = first - before
            if start < 1:
                start += 13
            cards = _run_cards(variant, info.suit, start, length + before + after)
            if cards is None:
                continue
            new = cards[:before] + cards[before + length :]
            if sum(1 for c in new if hand[c] == 0) > len(wilds):
                continue
            for slots in _fill(variant, new, hand, wilds):
                add(slots)
    return list(found.values())


# ------------------------------------------------------------------------ diamond swaps (§6.5)
@dataclass(frozen=True)
class SwapStep:
    """One diamond swap in a table meld: the diamond of core slot `index` (or its escort when
    `as_escort`) goes to the hand and hand card `replacement` takes its place; `new_escort` says
    the replacement is a black court card with no escort, so one more escort comes from the hand."""

    index: int
    as_escort: bool
    diamond: int
    replacement: int
    new_escort: bool


@dataclass(frozen=True)
class SwapState:
    """A table meld after some (or none) of its diamonds are swapped: the meld's analysis (new
    escorts stubbed with hearts, as the lay-off cores need) and the swaps made."""

    info: MeldInfo
    steps: tuple[SwapStep, ...]


def swappable_diamonds(variant: Variant, table: Sequence[MeldInfo]) -> list[int]:
    """Kinds of the table diamonds a swap may take back: every wild card, core or escort, that is
    not in a Royale (§6.5)."""
    out = []
    for info in table:
        if info.kind == "royale":
            continue
        for slot in info.slots:
            out += [c for c in slot.cards() if variant.is_wild(c)]
    return out


def _swap_steps(variant: Variant, info: MeldInfo, k: int, avail: Sequence[int]) -> list[SwapStep]:
    """The swaps open at core slot `k` of `info`: a card of the group's rank, exactly the card a
    run's diamond stands for, or a natural heart for a diamond escort; only kinds in `avail`."""
    assert variant.escorts is not None
    slot = info.slots[k]
    out = []
    if variant.is_wild(slot.card):
        if info.kind == "group":
            cards = [c for c in range(52) if rank_of(c) == info.rank and variant.copies[c] > 0]
        else:
            meant = info.meant(k)
            cards = [] if meant is None else [meant]
        for c in cards:
            if c != slot.card and avail[c] > 0:
                fresh = c in variant.escorts.needs_escort and slot.escort is None
                out.append(SwapStep(k, False, slot.card, c, fresh))
    if slot.escort is not None and variant.is_wild(slot.escort.card):
        for c in sorted(variant.escorts.escorts):
            if avail[c] > 0 and not variant.is_wild(c):
                out.append(SwapStep(k, True, slot.escort.card, c, False))
    return out


def swapped_slots(
    variant: Variant, slots: Sequence[Slot], steps: Sequence[SwapStep], escorts: Sequence[Slot]
) -> list[Slot]:
    """`slots` after `steps`, the new escorts (one per step that needs one) taken from `escorts`."""
    out = list(slots)
    fresh = iter(escorts)
    for step in steps:
        old = out[step.index]
        if step.as_escort:
            out[step.index] = Slot(old.card, old.meaning, Slot(step.replacement))
            continue
        c = step.replacement
        meaning = Meaning(rank_of(c), suit_of(c)) if variant.is_wild(c) else None  # a diamond as itself
        out[step.index] = Slot(c, meaning, next(fresh) if step.new_escort else old.escort)
    return out


def _stub_escorts(variant: Variant, slots: Sequence[Slot], n: int) -> list[Slot]:
    """`n` natural hearts that `slots` do not already hold twice (the deck's copies), as escorts."""
    assert variant.escorts is not None
    held = [c for slot in slots for c in slot.cards()]
    out: list[Slot] = []
    for heart in sorted(variant.escorts.escorts):
        while len(out) < n and held.count(heart) < variant.copies[heart]:
            held.append(heart)
            out.append(Slot(heart))
    return out


def swap_states(variant: Variant, info: MeldInfo, avail: Sequence[int]) -> list[SwapState]:
    """Every way to swap some of `info`'s diamonds for cards of `avail`, the empty swap first;
    each resulting meld is checked with `analyze_meld`."""
    states = [SwapState(info, ())]
    if info.kind == "royale":
        return states
    spots: dict[tuple[int, bool], list[SwapStep]] = {}
    for k in range(len(info.slots)):
        for step in _swap_steps(variant, info, k, avail):
            spots.setdefault((step.index, step.as_escort), []).append(step)
    for choice in product(*([None, *steps] for steps in spots.values())):
        steps = tuple(s for s in choice if s is not None)
        if not steps:
            continue
        stubs = _stub_escorts(variant, info.slots, sum(s.new_escort for s in steps))
        try:
            after = analyze_meld(variant, tuple(swapped_slots(variant, info.slots, steps, stubs)))
        except MeldError:
            continue
        states.append(SwapState(after, steps))
    return states


Swap = tuple[int, int, int, int | None]  # (table meld, diamond, replacement, new escort or None)


def swap_order(units: Sequence[Sequence[Swap]]) -> list[Swap]:
    """The swaps of `units` (each one swap, or a stand-in pair made back to back) in an order
    where a diamond serving as a replacement or escort is taken back before it is needed (the
    model forbids cycles, so an order exists)."""

    def needs(unit: Sequence[Swap]) -> set[int]:
        own: set[int] = set()
        out: set[int] = set()
        for _, diamond, replacement, escort in unit:
            out |= {c for c in (replacement, escort) if c is not None and c not in own}
            own.add(diamond)
        return out

    left = [tuple(unit) for unit in units]
    done: list[Swap] = []
    while left:
        ready = next(
            unit
            for unit in left
            if not needs(unit) & {d for other in left if other is not unit for _, d, _, _ in other}
        )
        left.remove(ready)
        done += ready
    return done


# ------------------------------------------------------------------------------------ model
class _Model:
    """The CP-SAT model of one position: new melds, each table meld's swap state and lay-off,
    pooled escorts, and the escorts of swaps (chosen per swap, for the swap order)."""

    def __init__(self, position: Position) -> None:
        v = self.v = position.variant
        assert v.escorts is not None
        self.position = position
        self.hand = position.hand_counts()
        self.loose = [0] * len(self.hand)
        for d in swappable_diamonds(v, position.table):
            self.loose[d] += 1
        ext = self.ext = [h + n for h, n in zip(self.hand, self.loose, strict=True)]
        m = self.m = cp_model.CpModel()
        self.new = new_meld_cores(v, ext)
        self.states = [swap_states(v, info, ext) for info in position.table]
        self.lay = [[layoff_cores(v, st.info, ext) for st in sts] for sts in self.states]
        self.n_var = [
            m.new_int_var(0, min(ext[c] for c, _ in core.counts), f"n{i}") for i, core in enumerate(self.new)
        ]
        self.st_var = [
            [m.new_bool_var(f"w{j}_{s}") for s in range(len(sts))] for j, sts in enumerate(self.states)
        ]
        self.lay_var = [
            [[m.new_bool_var(f"l{j}_{s}_{i}") for i in range(len(cores))] for s, cores in enumerate(row)]
            for j, row in enumerate(self.lay)
        ]
        for j, row in enumerate(self.lay_var):
            m.add_exactly_one(self.st_var[j])
            for s, vs in enumerate(row):
                m.add(sum(vs) <= self.st_var[j][s])
        self.escort_kinds = sorted(
            v.escorts.escorts | {w for w, r in v.wild_map.items() if r.stands_for & v.escorts.escorts}
        )
        self.esc = {c: m.new_int_var(0, ext[c], f"e{c}") for c in self.escort_kinds if ext[c] > 0}
        self._usage()

    def chosen_layoffs(self) -> Iterator[tuple[Core, Any]]:
        """Every (lay-off core, its variable) over all table melds and swap states."""
        for row, vrow in zip(self.lay, self.lay_var, strict=True):
            for cores, vs in zip(row, vrow, strict=True):
                yield from zip(cores, vs, strict=True)

    def swap_steps(self) -> Iterator[tuple[int, int, int, SwapStep]]:
        """Every (meld, state, step number, step) of the swap states."""
        for j, sts in enumerate(self.states):
            for s, st in enumerate(sts):
                for t, step in enumerate(st.steps):
                    yield j, s, t, step

    def _stand_ins(self, j: int, k: int) -> list[int]:
        """Diamonds that can take the place of the diamond at core slot `k` of table meld `j` for a
        moment (a swap of their own, no escort needed) so that the freed diamond can escort its
        swap's black court card: that swap then comes as two, diamond for stand-in and stand-in
        for replacement (§6.5)."""
        info = self.position.table[j]
        out = []
        for other in _swap_steps(self.v, info, k, self.ext):
            if other.as_escort or other.new_escort or not self.v.is_wild(other.replacement):
                continue
            try:
                analyze_meld(self.v, tuple(swapped_slots(self.v, info.slots, [other], [])))
            except MeldError:
                continue
            out.append(other.replacement)
        return out

    def _usage(self) -> None:
        """Cards used per kind (placements, swap replacements, swap escorts) within the hand plus
        the diamonds swapped back; the swap order's cycles forbidden."""
        m, v = self.m, self.v
        nonswap: dict[int, list[Any]] = {}
        by_swap: dict[int, list[Any]] = {}
        for core, var in zip(self.new, self.n_var, strict=True):
            for c, n in core.counts:
                nonswap.setdefault(c, []).append(n * var)
        for core, var in self.chosen_layoffs():
            for c, n in core.counts:
                nonswap.setdefault(c, []).append(n * var)
        for c, var in self.esc.items():
            nonswap.setdefault(c, []).append(var)
        demand: list[Any] = [core.escorts * var for core, var in zip(self.new, self.n_var, strict=True)]
        demand += [core.escorts * var for core, var in self.chosen_layoffs()]
        m.add(sum(self.esc.values()) == sum(demand))
        swapped: dict[int, list[Any]] = {}
        edges: dict[tuple[int, int], list[Any]] = {}
        self.z: dict[tuple[int, int, int], dict[int, Any]] = {}
        self.via: dict[tuple[int, int, int], dict[int, Any]] = {}
        needs_freed: list[tuple[int, Any]] = []
        stand_ins_at: dict[tuple[int, int], list[int]] = {}  # per (meld, slot): the same in every state
        for j, s, t, step in self.swap_steps():
            st = self.st_var[j][s]
            swapped.setdefault(step.diamond, []).append(st)
            by_swap.setdefault(step.replacement, []).append(st)
            if self.loose[step.replacement]:
                edges.setdefault((step.replacement, step.diamond), []).append(st)
            if not step.new_escort:
                continue
            kinds = [e for e in self.escort_kinds if self.ext[e] > 0 and e != step.diamond]
            options = {e: m.new_bool_var(f"z{j}_{s}_{t}_{e}") for e in kinds}
            stand_ins: list[int] = []
            if step.diamond in self.escort_kinds:
                if (j, step.index) not in stand_ins_at:
                    stand_ins_at[j, step.index] = self._stand_ins(j, step.index)
                stand_ins = stand_ins_at[j, step.index]
            if stand_ins:  # the freed diamond escorts its own replacement, by way of a stand-in
                options[step.diamond] = m.new_bool_var(f"z{j}_{s}_{t}_self")
                via = {w: m.new_bool_var(f"v{j}_{s}_{t}_{w}") for w in stand_ins}
                m.add(sum(via.values()) == options[step.diamond])
                self.via[j, s, t] = via
                for w, var in via.items():
                    if not self.hand[w]:  # a stand-in from the table is freed first
                        needs_freed.append((w, var))
                    if self.loose[w]:
                        edges.setdefault((w, step.diamond), []).append(var)
            m.add(sum(options.values()) == st)
            self.z[j, s, t] = options
            for e, var in options.items():
                by_swap.setdefault(e, []).append(var)
                if self.loose[e] and e != step.diamond:
                    edges.setdefault((e, step.diamond), []).append(var)
        self.nonswap = {c: sum(terms) for c, terms in nonswap.items()}
        self.swapped = {d: sum(terms) for d, terms in swapped.items()}
        for w, var in needs_freed:
            m.add(self.swapped.get(w, 0) >= var)
        self.by_swap = by_swap
        self.played: dict[int, Any] = {}
        for c in range(len(self.hand)):
            terms = nonswap.get(c, []) + by_swap.get(c, [])
            if terms:
                self.played[c] = sum(terms)
                m.add(self.played[c] <= self.hand[c] + self.swapped.get(c, 0))
        loose = [d for d in range(len(self.loose)) if self.loose[d]]
        for size in range(1, len(loose) + 1):
            for cycle in permutations(loose, size):
                if cycle[0] != min(cycle):
                    continue  # each cycle once
                arcs = [(cycle[i], cycle[(i + 1) % size]) for i in range(size)]
                if all(a in edges for a in arcs):
                    m.add(sum(x for a in arcs for x in edges[a]) <= size - 1)
        self.cards = sum(self.played.values()) - sum(self.swapped.values())
        self.swaps = sum(self.swapped.values())
        v_ = v.hand_values
        self.royales = sum(var for core, var in zip(self.new, self.n_var, strict=True) if core.royale)
        self.bonus = v.royale.value - sum(v_[c] for c in v.royale.cards) if v.royale is not None else 0
        self.points = (
            sum(v_[c] * e for c, e in self.played.items())
            - sum(v_[d] * e for d, e in self.swapped.items())
            + self.bonus * self.royales
        )

    def commit(self, committed: Sequence[int]) -> None:
        """Each committed card is placed; if it went into a swap, the diamond it freed is placed
        again by a meld or lay-off (§6.5), else that copy does not count."""
        m = self.m
        for k in set(committed):
            kept: list[Any] = []
            for j, s, t, step in self.swap_steps():
                # only the replacement passes the duty on (§6.5); a new escort is placed by the swap
                uses = [self.st_var[j][s]] if step.replacement == k else []
                for use in uses:
                    y = m.new_bool_var(f"k{k}_{j}_{s}_{t}")
                    m.add(y >= use - self.nonswap.get(step.diamond, 0))
                    kept.append(y)
            m.add(self.played.get(k, 0) - sum(kept) >= list(committed).count(k))

    def opening(self, req: tuple[int, int] | None, max_cards: int | None) -> None:
        """The card cap and, before opening, the chart line (swaps alone do not open, §6.4)."""
        m = self.m
        if max_cards is not None:
            m.add(self.cards <= max_cards)
        if req is None:
            return
        melds_needed, cards_needed = req
        any_play = m.new_bool_var("play")
        m.add(sum(self.nonswap.values()) <= sum(self.ext) * any_play)
        chart = m.new_bool_var("chart")
        sel = [m.new_int_var(0, melds_needed, f"s{i}") for i in range(len(self.new))]
        for s, var in zip(sel, self.n_var, strict=True):
            m.add(s <= var)
        m.add(sum(sel) == melds_needed).only_enforce_if(chart)
        sizes = sum(core.size * s for core, s in zip(self.new, sel, strict=True))
        m.add(sizes >= cards_needed).only_enforce_if(chart)
        royal = m.new_bool_var("royale")
        m.add(self.royales >= 1).only_enforce_if(royal)
        out = m.new_bool_var("out")
        m.add(self.cards == len(self.position.hand)).only_enforce_if(out)
        m.add_bool_or([chart, royal, out]).only_enforce_if(any_play)

    def objective(self, objective: str) -> None:
        """Lexicographic: the objective, then the other count, then the fewest swaps."""
        v = self.v
        spread = sum(v.hand_values[c] for c in self.position.hand) + self.bonus + 1
        spread += 2 * sum(v.hand_values[d] * n for d, n in enumerate(self.loose))
        count = len(self.position.hand) + 1
        last = sum(self.loose) + 1
        if objective == "cards":
            main = self.cards * spread + self.points
        else:  # the Royale's bonus is a table value only: in hand its cards count one by one
            gain = self.points if objective == "points" else self.points - self.bonus * self.royales
            main = gain * count + self.cards
        self.m.maximize(main * last - self.swaps)

    def decode(self, solver: cp_model.CpSolver, objective: str, label: str, ms: float) -> Solution:
        """The solution: the new table (swapped melds rebuilt with their real escorts), the start
        hand's cards that left it, and the swaps in a replayable order."""
        v, val, position = self.v, solver.value, self.position
        pool = [c for c in self.esc for _ in range(val(self.esc[c]))]
        melds: list[tuple[Slot, ...]] = []
        swaps: list[tuple[Swap, ...]] = []
        for j, info in enumerate(position.table):
            s = next(s for s, var in enumerate(self.st_var[j]) if val(var))
            state = self.states[j][s]
            escorts: list[int | None] = []
            for t in range(len(state.steps)):
                options = self.z.get((j, s, t), {})
                escorts.append(next((e for e, var in options.items() if val(var)), None))
            fresh = [Slot(e) for e in escorts if e is not None]
            for t, (step, e) in enumerate(zip(state.steps, escorts, strict=True)):
                via = self.via.get((j, s, t), {})
                w = next((w for w, var in via.items() if val(var)), None)
                if w is None or e != step.diamond:
                    swaps.append(((j, step.diamond, step.replacement, e),))
                else:  # the stand-in first, then the replacement escorted by the freed diamond
                    swaps.append(((j, step.diamond, w, None), (j, w, step.replacement, e)))
            chosen = [core for core, var in zip(self.lay[j][s], self.lay_var[j][s], strict=True) if val(var)]
            slots = swapped_slots(v, info.slots, state.steps, fresh)
            slots += _escorted(v, chosen[0].slots, pool) if chosen else ()
            melds.append(
                tuple(analyze_meld(v, tuple(slots)).slots) if slots != list(info.slots) else info.slots
            )
        for core, var in zip(self.new, self.n_var, strict=True):
            for _ in range(val(var)):
                melds.append(tuple(analyze_meld(v, _escorted(v, core.slots, pool)).slots))
        used = {c: int(val(e)) for c, e in self.played.items()}
        got = sorted(c for c in range(len(self.hand)) for _ in range(min(self.hand[c], used.get(c, 0))))
        hv = v.hand_values
        pts = int(val(self.points))
        cards = int(val(self.cards))
        value = cards if objective == "cards" else pts
        if objective == "penalty":
            value = sum(hv[c] for c in position.hand) - pts + self.bonus * int(val(self.royales))
        return Solution(
            tuple(got), tuple(melds), label, objective, value, cards, pts, ms, 0, tuple(swap_order(swaps))
        )


def solve_black_heart(
    position: Position,
    objective: str,
    time_limit: float | None,
    max_cards: int | None,
    committed: Sequence[int] = (),
    score: int = 0,
    work_limit: float | None = None,
) -> Solution:
    """Best play of diamond swaps, new melds and lay-offs for a Black Heart position (module doc)."""
    start_time = time.perf_counter()
    v = position.variant
    model = _Model(position)
    model.commit(committed)
    model.opening(None if position.opened else requirement(v, score), max_cards)
    model.objective(objective)
    solver = cp_solver()
    left = time_left(start_time, time_limit)  # the model's build counts against the limit
    if left is not None:
        solver.parameters.max_time_in_seconds = left
    if work_limit is not None:
        solver.parameters.max_deterministic_time = float(work_limit)
    status = solver.solve(model.m)
    late = late_search_time(start_time, time_limit) if status == cp_model.UNKNOWN else None
    if late is not None:  # the limit came before any play: a little longer for a first one
        solver.parameters.max_time_in_seconds = late
        status = solver.solve(model.m)
    if status == cp_model.UNKNOWN and committed:
        # a limit cut the search before any play: playing nothing would leave the committed
        # card in hand, which is no legal turn; any play that places it is (the first one found,
        # within what is left of the time limit plus a grace of COMMITTED_GRACE seconds, else
        # however long it takes: a late legal move rather than an illegal one)
        left = time_left(start_time, time_limit)
        for grace in (None,) if left is None else (left + COMMITTED_GRACE, None):
            solver = cp_solver()
            solver.parameters.stop_after_first_solution = True
            if grace is not None:
                solver.parameters.max_time_in_seconds = grace
            status = solver.solve(model.m)
            if status != cp_model.UNKNOWN:
                break
    if status == cp_model.INFEASIBLE:  # only a committed card can make the empty play illegal
        raise IllegalMoveError("5.2", "the committed card cannot be placed on the table this turn")
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        ms = (time.perf_counter() - start_time) * 1000
        kept = tuple(tuple(info.slots) for info in position.table)
        empty = sum(v.hand_values[c] for c in position.hand) if objective == "penalty" else 0
        return Solution((), kept, "feasible", objective, empty, 0, 0, ms)
    label: Literal["optimal", "feasible"] = "optimal" if status == cp_model.OPTIMAL else "feasible"
    return model.decode(solver, objective, label, (time.perf_counter() - start_time) * 1000)


def _escorted(variant: Variant, slots: Sequence[Slot], pool: list[int]) -> tuple[Slot, ...]:
    """`slots` with an escort from `pool` attached to each black court card (natural or meant)."""
    assert variant.escorts is not None
    out = []
    for slot in slots:
        meant = slot.meaning.card() if slot.meaning is not None else slot.card
        if meant in variant.escorts.needs_escort:
            out.append(Slot(slot.card, slot.meaning, Slot(pool.pop())))
        else:
            out.append(slot)
    return tuple(out)
