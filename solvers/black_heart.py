"""CP-SAT model for Black Heart Rum (§6): new melds from the hand and lay-offs, no rearrangement.

Every meld core a hand can form (runs with wrap for spades and clubs, hearts runs A-10, groups
with repeated suits, the diamonds as themselves or as wilds within their scopes, the Royale) and
every way each table meld can grow are listed explicitly, each checked by `analyze_meld`. The
model picks how often each is used. Escorts are pooled: any heart (or J♦/K♦ standing for one)
escorts any black court card, so the model only counts how many escorts each choice needs and
which escort-capable hand cards supply them. The opening chart, the Royale opening and the
Black Heart (the whole hand played on the first play) are exact. Diamond swaps are not modelled.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations, product
from typing import Any

from ortools.sat.python import cp_model

from rummyai.cards import Meaning, Slot, make_card, rank_of, suit_of
from rummyai.errors import IllegalMoveError, MeldError
from rummyai.melds import MeldInfo, analyze_meld
from rummyai.solvers.position import Position, Solution
from rummyai.variants import Variant

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3


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
    for k in range(min(len(wilds), n) + 1):
        for chosen in combinations(wilds, k):
            for spots in permutations(range(n), k):
                if any(
                    cards[i] not in variant.wild_map[w].stands_for for w, i in zip(chosen, spots, strict=True)
                ):
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


def solve_black_heart(
    position: Position,
    objective: str,
    time_limit: float | None,
    max_cards: int | None,
    committed: Sequence[int] = (),
    score: int = 0,
) -> Solution:
    """Best play of new melds and lay-offs for a Black Heart position (see the module doc)."""
    start_time = time.perf_counter()
    v = position.variant
    assert v.escorts is not None
    hand = position.hand_counts()
    m = cp_model.CpModel()
    new = new_meld_cores(v, hand)
    lay = [layoff_cores(v, info, hand) for info in position.table]
    n_var = [m.new_int_var(0, min(hand[c] for c, _ in core.counts), f"n{i}") for i, core in enumerate(new)]
    lay_var = [[m.new_bool_var(f"l{j}_{i}") for i in range(len(cores))] for j, cores in enumerate(lay)]
    for vars_ in lay_var:
        m.add(sum(vars_) <= 1)
    escort_kinds = sorted(
        v.escorts.escorts | {w for w, r in v.wild_map.items() if r.stands_for & v.escorts.escorts}
    )
    esc = {c: m.new_int_var(0, hand[c], f"e{c}") for c in escort_kinds if hand[c] > 0}
    demand: list[Any] = [core.escorts * var for core, var in zip(new, n_var, strict=True)]
    demand += [
        core.escorts * var
        for cores, vs in zip(lay, lay_var, strict=True)
        for core, var in zip(cores, vs, strict=True)
    ]
    m.add(sum(esc.values()) == sum(demand))
    played: dict[int, Any] = {}
    for card in range(52):
        if hand[card] == 0:
            continue
        terms: list[Any] = [
            n * var for core, var in zip(new, n_var, strict=True) for c, n in core.counts if c == card
        ]
        for cores, vs in zip(lay, lay_var, strict=True):
            terms += [
                n * var for core, var in zip(cores, vs, strict=True) for c, n in core.counts if c == card
            ]
        if card in esc:
            terms.append(esc[card])
        played[card] = sum(terms)
        m.add(played[card] <= hand[card])
    cards = sum(played.values())
    royales = sum(var for core, var in zip(new, n_var, strict=True) if core.royale)
    bonus = v.royale.value - sum(v.hand_values[c] for c in v.royale.cards) if v.royale is not None else 0
    points = sum(v.hand_values[c] * e for c, e in played.items()) + bonus * royales
    if max_cards is not None:
        m.add(cards <= max_cards)
    for card in set(committed):
        m.add(played.get(card, 0) >= list(committed).count(card))
    req = None if position.opened else requirement(v, score)
    if req is not None:
        melds_needed, cards_needed = req
        any_play = m.new_bool_var("play")
        m.add(cards <= len(position.hand) * any_play)
        chart = m.new_bool_var("chart")
        sel = [m.new_int_var(0, melds_needed, f"s{i}") for i in range(len(new))]
        for s, var in zip(sel, n_var, strict=True):
            m.add(s <= var)
        m.add(sum(sel) == melds_needed).only_enforce_if(chart)
        m.add(sum(core.size * s for core, s in zip(new, sel, strict=True)) >= cards_needed).only_enforce_if(
            chart
        )
        royal = m.new_bool_var("royale")
        m.add(royales >= 1).only_enforce_if(royal)
        out = m.new_bool_var("out")
        m.add(cards == len(position.hand)).only_enforce_if(out)
        m.add_bool_or([chart, royal, out]).only_enforce_if(any_play)
    max_points = sum(v.hand_values[c] for c in position.hand) + bonus + 1
    max_count = len(position.hand) + 1
    if objective == "cards":
        m.maximize(cards * max_points + points)
    else:  # the Royale's bonus is a table value only: in hand its cards count one by one
        gain = points if objective == "points" else points - bonus * royales
        m.maximize(gain * max_count + cards)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = float(time_limit)
    status = solver.solve(m)
    if status == cp_model.INFEASIBLE:  # only a committed card can make the empty play illegal
        raise IllegalMoveError("5.2", "the committed card cannot be placed on the table this turn")
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        if committed:
            raise IllegalMoveError("5.2", "no play of the committed card was found within the time limit")
        ms = (time.perf_counter() - start_time) * 1000
        kept = tuple(tuple(info.slots) for info in position.table)
        empty = sum(v.hand_values[c] for c in position.hand) if objective == "penalty" else 0
        return Solution((), kept, "feasible", objective, empty, 0, 0, ms)
    val = solver.value
    pool = [c for c in esc for _ in range(val(esc[c]))]
    melds: list[tuple[Slot, ...]] = []
    for info, cores, vs in zip(position.table, lay, lay_var, strict=True):
        chosen = [core for core, var in zip(cores, vs, strict=True) if val(var)]
        slots = tuple(info.slots) + (_escorted(v, chosen[0].slots, pool) if chosen else ())
        melds.append(tuple(analyze_meld(v, slots).slots) if chosen else tuple(info.slots))
    for core, var in zip(new, n_var, strict=True):
        for _ in range(val(var)):
            melds.append(tuple(analyze_meld(v, _escorted(v, core.slots, pool)).slots))
    got = sorted(c for c in played for _ in range(int(solver.value(played[c]))))
    hv = v.hand_values
    pts = int(solver.value(points))
    value = len(got) if objective == "cards" else pts
    if objective == "penalty":
        value = sum(hv[c] for c in position.hand) - sum(hv[c] for c in got)
    label = "optimal" if status == cp_model.OPTIMAL else "feasible"
    ms = (time.perf_counter() - start_time) * 1000
    return Solution(tuple(got), tuple(melds), label, objective, value, len(got), pts, ms)


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
