"""Reading a solved tile model back: the played cards and the new table (groups dealt from their
aggregates, jokers placed, Rhine's joker melds merged, qualifying melds added, wild kinds given back)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import combinations, product
from typing import TYPE_CHECKING, Any, Protocol

from rummyai.cards import JOKER, Meaning, Slot, make_card, rank_of, suit_of
from rummyai.errors import MeldError
from rummyai.melds import analyze_meld
from rummyai.runs import unrolled_rank
from rummyai.solvers.position import Position
from rummyai.solvers.tile_model_parts import (
    IntVar,
    _Qualifier,
)
from rummyai.variants import Variant

if TYPE_CHECKING:
    from rummyai.solvers.tile_model import TileModel


class Assignment(Protocol):
    """Values of a model's variables: a solver after its solve, or one solution kept on the way."""

    def value(self, var: Any) -> Any: ...


def _deal_groups(
    rank: int, count: int, naturals: dict[int, int], jokers: int, variant: Variant
) -> list[list[Slot]]:
    """Split aggregated groups of one rank into `count` real groups: naturals dealt round-robin,
    jokers to the smallest groups."""
    bins: list[list[Slot]] = [[] for _ in range(count)]
    order = [suit for suit in range(4) for _ in range(naturals.get(suit, 0))]
    for i, suit in enumerate(order):
        bins[i % count].append(Slot(make_card(rank, suit)))
    for _ in range(jokers):
        smallest = min(range(count), key=lambda b: len(bins[b]))
        bins[smallest].append(Slot(JOKER, Meaning(rank)))
    return bins


def decode(
    tm: TileModel, solver: Assignment, merge: bool = True
) -> tuple[list[int], list[tuple[Slot, ...]], int]:
    """The played cards, the new table and the number of start melds broken (`merge`: grow Rhine
    joker melds by wild-free ones, see `merge_joker_melds`)."""
    val = solver.value
    played, kept_slots, entries, broken = _entries(tm, val)
    for card, var in tm.allowance.items():
        _place_jokers(entries, card, int(val(var)))
    return played, _finish(tm, val, entries, played, kept_slots, merge), broken


Entry = tuple[str, list[Slot], list[bool]]  # meld kind, slots, which slots a pooled joker may take


def pooled_layouts(tm: TileModel, solver: Assignment, limit: int) -> list[list[tuple[Slot, ...]]]:
    """Other tables of the same assignment: pooled jokers only count the jokers standing for each
    card kind, so which meld's copy of that card a joker takes is free ('5H 6H 7H' with a joker
    in the group of fives, or a natural 5H there and the joker in the run). Up to `limit`
    tables, each once, `decode`'s own choice among them; empty when no joker is pooled."""
    val = solver.value
    picks: list[list[tuple[tuple[int, int], ...]]] = []
    cards: list[int] = []
    played, kept_slots, entries, _ = _entries(tm, val)
    for card, var in tm.allowance.items():
        if int(val(var)):
            spots = [
                (e, i)
                for e, (_, slots, flags) in enumerate(entries)
                for i, slot in enumerate(slots)
                if flags[i] and slot.card == card
            ]
            picks.append(list(combinations(spots, int(val(var)))))
            cards.append(card)
    out: list[list[tuple[Slot, ...]]] = []
    seen: set[tuple[str, ...]] = set()
    for choice in product(*picks) if picks else ():
        placed = [(kind, list(slots), list(flags)) for kind, slots, flags in entries]
        for card, chosen in zip(cards, choice, strict=True):
            for e, i in chosen:
                _put_joker(placed, e, i, card)
        melds = _finish(tm, val, placed, played, kept_slots, True)
        key = tuple(sorted(" ".join(map(str, meld)) for meld in melds))
        if key not in seen:
            seen.add(key)
            out.append(melds)
        if len(out) >= limit:
            break
    return out


def _entries(tm: TileModel, val: Any) -> tuple[list[int], list[Slot], list[Entry], int]:
    """`decode`'s first step: the played cards, the wild slots of kept start melds, the melds
    before pooled jokers are placed, and the number of start melds broken."""
    wild_played: dict[int, IntVar] = getattr(tm, "wild_played", {})
    played = sorted(
        [c for c, var in tm.played.items() if not (c == JOKER and wild_played) for _ in range(int(val(var)))]
        + [c for c, var in wild_played.items() for _ in range(int(val(var)))]
    )
    kept_slots: list[Slot] = []  # wild slots of start melds kept whole (their cards stay put)
    # each entry: meld kind, slots, and which slots a pooled joker may take over
    entries: list[tuple[str, list[Slot], list[bool]]] = []
    broken = 0
    if tm.opening:
        entries.extend((i.kind, list(i.slots), [False] * len(i.slots)) for i in tm.position.table)
    for kept in tm.kept.values():
        if not val(kept.keep):
            broken += 1
            continue
        info = kept.info
        kept_slots.extend(s for s, w in zip(info.slots, info.as_wild, strict=True) if w)
        swapped = {i: card for i, card, var in kept.swaps if val(var)}
        if swapped:
            base = [Slot(swapped[i]) if i in swapped else s for i, s in enumerate(info.slots)]
            info = replace(
                info,
                slots=tuple(base),
                as_wild=tuple(w and i not in swapped for i, w in enumerate(info.as_wild)),
            )
        if info.kind == "run":
            assert info.suit is not None
            # keys are unrolled positions (see `run_sides`): sorted, they give the run's order
            first = info.positions[0]
            slots = {first + i: (s, False) for i, s in enumerate(info.slots)}
            for p, (filled, natural) in kept.ext.items():
                if val(filled):
                    card = make_card(unrolled_rank(p), info.suit)
                    joker = Slot(JOKER, Meaning(rank_of(card), info.suit))
                    slots[p] = (Slot(card), True) if val(natural) else (joker, False)
            order = sorted(slots)
            entries.append(("run", [slots[p][0] for p in order], [slots[p][1] for p in order]))
        else:
            assert info.rank is not None
            slots_list = list(info.slots)
            flags = [False] * len(slots_list)
            for suit, var in kept.group_nat.items():
                for _ in range(int(val(var))):
                    slots_list.append(Slot(make_card(info.rank, suit)))
                    flags.append(True)
            if kept.group_jok is not None:
                for _ in range(int(val(kept.group_jok))):
                    slots_list.append(Slot(JOKER, Meaning(info.rank)))
                    flags.append(False)
            if tm.variant.group_distinct_suits:
                _free_group_wilds(slots_list, kept_slots)
            entries.append(("group", slots_list, flags))
    for run in tm.runs:
        n = int(val(run.count))
        if n == 0:
            continue
        instances: list[list[Slot]] = [[Slot(c) for c in run.window.cards] for _ in range(n)]
        joker_load = [0] * n
        for i, jv in enumerate(run.jokers):
            if jv is None:
                continue
            for _ in range(int(val(jv))):
                choice = min(
                    (b for b in range(n) if instances[b][i].card != JOKER), key=lambda b: joker_load[b]
                )
                card = run.window.cards[i]
                instances[choice][i] = Slot(JOKER, Meaning(rank_of(card), suit_of(card)))
                joker_load[choice] += 1
        entries.extend(("run", inst, [True] * len(inst)) for inst in instances)
    for group in tm.groups:
        n = int(val(group.count))
        if n == 0:
            continue
        naturals = {s: int(val(var)) for s, var in group.naturals.items()}
        jokers = int(val(group.jokers)) if group.jokers is not None else 0
        for inst in _deal_groups(group.rank, n, naturals, jokers, tm.variant):
            entries.append(("group", inst, [s.card != JOKER for s in inst]))
    for cards, var in tm.group_sets:
        for _ in range(int(val(var))):
            entries.append(("group", [Slot(c) for c in cards], [True] * len(cards)))
    for ret in tm.retrievals:
        for _, slots_, var in ret.shapes:
            if val(var):
                is_group = any(x.meaning is not None and x.meaning.suit is None for x in slots_)
                entries.append(("group" if is_group else "run", list(slots_), [False] * len(slots_)))
    entries.extend(_witness_entries(tm, val))
    return played, kept_slots, entries, broken


def _free_group_wilds(slots: list[Slot], kept_slots: list[Slot]) -> None:
    """A kept group whose wild was written with a suit (`JK=7H`) and that now holds that natural
    too: the wild stands for the group's rank alone, so that it takes a suit still free (a group
    wild's suit binds nothing; rules §0, §4.5). `kept_slots` names the rewritten slot instead."""
    naturals = {suit_of(s.card) for s in slots if s.meaning is None}
    for k, slot in enumerate(slots):
        meaning = slot.meaning
        if meaning is not None and meaning.suit is not None and meaning.suit in naturals:
            slots[k] = Slot(slot.card, Meaning(meaning.rank))
            kept_slots[:] = [slots[k] if s is slot else s for s in kept_slots]


def _finish(
    tm: TileModel, val: Any, entries: list[Entry], played: list[int], kept_slots: list[Slot], merge: bool
) -> list[tuple[Slot, ...]]:
    """`decode`'s last step: the table of these melds (jokers placed), Rhine's joker melds merged,
    qualifying melds added and wild kinds given back."""
    melds = [list(e[1]) for e in entries]
    if tm.variant.joker_rules.accompaniment and merge:
        melds = merge_joker_melds(tm.variant, melds)
    virtual = getattr(tm, "virtual_qualify", True)  # fast.py's cached view has no qualifying
    for kind, cards, var, counts in () if virtual else tm.qualify:
        if val(var):
            if kind == "run":
                melds.append([Slot(c) for c in cards])
            else:
                melds.append([Slot(c) for c, q in counts.items() for _ in range(int(val(q)))])
    for q in () if virtual else tm.qualify_points:
        melds.extend(_qualifier_melds(q, val))
    if getattr(tm, "wild_kinds", ()):
        _relabel_wilds(tm.position, melds, kept_slots, played)
    return [tuple(x) for x in melds]


def _witness_entries(tm: TileModel, val: Any) -> list[tuple[str, list[Slot], list[bool]]]:
    """The Rhine witness melds in use (see `TileModel._run_witnesses`, `_group_witnesses`)."""
    out: list[tuple[str, list[Slot], list[bool]]] = []
    for w in getattr(tm, "witnesses", ()):
        slots: list[Slot] = []
        if w.kind == "run":
            for p in sorted(w.inside):
                if not val(w.inside[p]):
                    continue
                card = make_card(unrolled_rank(p), w.key)
                natural = w.naturals[p]
                wild = isinstance(natural, int) or not val(natural)
                slots.append(Slot(JOKER, Meaning(rank_of(card), w.key)) if wild else Slot(card))
        else:
            slots = [Slot(make_card(w.key, x)) for x, var in w.naturals.items() for _ in range(int(val(var)))]
            if slots and not isinstance(w.joker, int) and val(w.joker):
                slots.append(Slot(JOKER, Meaning(w.key)))
        if slots:
            out.append((w.kind, slots, [False] * len(slots)))
    return out


def _relabel_wilds(
    position: Position, melds: list[list[Slot]], kept_slots: list[Slot], played: list[int]
) -> None:
    """Give the model's wild slots (written as jokers) physical kinds: the table's wilds that
    left their kept melds first where a slot keeps their old meaning (R3), then the rest of the
    table's and the played wilds."""
    variant = position.variant
    kept_ids = {id(s) for s in kept_slots}
    pool: Counter[int] = Counter(c for c in played if variant.always_wild(c))
    moved: list[tuple[int, str, Meaning]] = []
    for info in position.table:
        for slot, wild in zip(info.slots, info.as_wild, strict=True):
            if wild and id(slot) not in kept_ids:
                assert slot.meaning is not None
                pool[slot.card] += 1
                moved.append((slot.card, info.kind, slot.meaning))
    spots = [
        (m, i)
        for m, meld in enumerate(melds)
        for i, slot in enumerate(meld)
        if slot.card == JOKER and id(slot) not in kept_ids
    ]
    kinds = [
        "run" if any(s.meaning is not None and s.meaning.suit is not None for s in meld) else "group"
        for meld in melds
    ]
    chosen: dict[tuple[int, int], int] = {}
    for card, kind, meaning in moved:
        for spot in spots:
            m, i = spot
            here = melds[m][i].meaning
            if spot in chosen or here is None or kinds[m] != kind or here.rank != meaning.rank:
                continue
            if kind == "run" and here.suit != meaning.suit:
                continue
            chosen[spot] = card
            pool[card] -= 1
            break
    rest = sorted(pool.elements())
    for spot in spots:
        if spot not in chosen and rest:
            chosen[spot] = rest.pop(0)
    for (m, i), card in chosen.items():
        melds[m][i] = Slot(card, melds[m][i].meaning)


def _qualifier_melds(q: _Qualifier, val: Any) -> list[list[Slot]]:
    """The melds of one points-qualification shape: each at most one wild (a joker)."""
    n = int(val(q.count))
    if n == 0:
        return []
    if q.kind == "run":
        out = [[Slot(c) for c in q.cards] for _ in range(n)]
        free = list(range(n))
        for i, var in q.jokers.items():
            for _ in range(int(val(var))):
                b = free.pop()
                card = q.cards[i]
                out[b][i] = Slot(JOKER, Meaning(rank_of(card), suit_of(card)))
        return out
    bins: list[list[Slot]] = [[] for _ in range(n)]
    order = [c for c, var in q.naturals.items() for _ in range(int(val(var)))]
    for i, card in enumerate(order):
        bins[i % n].append(Slot(card))
    wild_count = int(val(q.jokers[0])) if q.jokers else 0
    for b in sorted(range(n), key=lambda b: len(bins[b]))[:wild_count]:
        bins[b].append(Slot(JOKER, Meaning(q.rank)))
    return bins


def merge_joker_melds(variant: Variant, melds: list[list[Slot]]) -> list[list[Slot]]:
    """Join wild-free melds onto melds holding a wild where the union is a valid meld.

    Under Rhine's R3-R5 a bigger meld around a joker only helps (more natural cards beside it),
    so the decoded table grows each joker's meld as far as it can.
    """
    out = [list(x) for x in melds]
    changed = True
    while changed:
        changed = False
        infos = [analyze_meld(variant, tuple(x)) for x in out]
        for a, ia in enumerate(infos):
            if ia.wild_count == 0:
                continue
            for b, ib in enumerate(infos):
                if b == a or ib.wild_count or ib.kind != ia.kind:
                    continue
                if ia.kind == "group":
                    if ia.rank != ib.rank:
                        continue
                    merged = list(ia.slots) + list(ib.slots)
                else:
                    if ia.suit != ib.suit:
                        continue
                    if ib.positions[0] == ia.positions[-1] + 1:
                        merged = list(ia.slots) + list(ib.slots)
                    elif ib.positions[-1] == ia.positions[0] - 1:
                        merged = list(ib.slots) + list(ia.slots)
                    else:
                        continue
                try:
                    analyze_meld(variant, tuple(merged))
                except MeldError:
                    continue
                out[a] = merged
                del out[b]
                changed = True
                break
            if changed:
                break
    return out


def _place_jokers(entries: list[tuple[str, list[Slot], list[bool]]], card: int, count: int) -> None:
    """Pooled jokers: let `count` jokers take the place of natural `card` slots, spreading them
    over melds (fewest jokers first)."""
    for _ in range(count):
        spots = [
            (sum(s.card == JOKER for s in slots), e, i)
            for e, (_, slots, flags) in enumerate(entries)
            for i, slot in enumerate(slots)
            if flags[i] and slot.card == card
        ]
        _, e, i = min(spots)
        _put_joker(entries, e, i, card)


def _put_joker(entries: list[Entry], e: int, i: int, card: int) -> None:
    """A pooled joker in slot `i` of meld `e`, in place of natural `card`."""
    kind, slots, flags = entries[e]
    meaning = Meaning(rank_of(card), suit_of(card)) if kind == "run" else Meaning(rank_of(card))
    slots[i] = Slot(JOKER, meaning)
    flags[i] = False
