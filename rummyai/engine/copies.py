"""Canonical copy assignment: which physical copy of each card kind went where (rules §7.1).

Two copies of one card look the same, so a turn is judged on card kinds alone. Rules that speak
of "a card from meld M" (Rhine R3-R5b, Tile Rummy T3-T4, official Rummikub's table jokers) read
the turn on the *canonical* assignment of the start table's and the hand's copies to the final
table's places: the one that keeps the most pairs of cards that began the turn in one meld
together in one final meld. Where several assignments keep equally many pairs, each of them is
returned and the turn is legal if one of them passes.

`canonical_tables` gives those assignments as final tables of physical ids. The engine's
end-of-turn check, the text judge and the bridge from solver answers to engine plays all call it,
so every layer sees the same copies.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from itertools import islice, product
from math import comb
from typing import Any

import numpy as np

from rummyai.cards import Meaning, card_str
from rummyai.cpsat import cp_solver
from rummyai.engine.state import TableMeld

# Tied assignments kept per group of coupled card kinds: CP-SAT lists at most this many (one solve
# each); a group scored at once (`_scored`) keeps up to `MAX_TABLES`
MAX_ALTERNATIVES = 32
# Tied tables returned in all (each is judged): every combination of the groups' tied
# assignments up to here, so that a verdict never depends on the order melds are written in
# (ten independent two-way ties among melds with wilds are 1,024 tables)
MAX_TABLES = 1_024
# A group of coupled card kinds is scored over every combination of its choices at once (numpy)
# while combinations times the cells they touch stay below this (16 MB of counts), by CP-SAT past it
MAX_SCORED = 1 << 22

# Where a copy came from: (start meld index or HAND, its meaning there if it played as a wild).
Label = tuple[int, Meaning | None]
HAND = -1


# A `time.perf_counter()` value past which the exact search of `_exact` gives up (`deadline_scope`)
_DEADLINE: ContextVar[float | None] = ContextVar("copies_deadline", default=None)


class CopiesTimeout(Exception):
    """The deadline of `deadline_scope` passed before the canonical assignment was settled."""


@contextmanager
def deadline_scope(deadline: float | None) -> Iterator[None]:
    """Within this block the exact search for canonical assignments stops at `deadline` (a
    `time.perf_counter()` value) by raising `CopiesTimeout`: a caller under a time limit (the
    judge) can then refuse to decide instead of waiting. No answer is ever a partial one."""
    token = _DEADLINE.set(deadline)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def check_deadline() -> None:
    """`CopiesTimeout` once the deadline of `deadline_scope` has passed: for callers' long loops
    over the canonical assignments (nothing without a deadline)."""
    _time_left()


def _time_left() -> float | None:
    """Seconds left before the deadline of `deadline_scope`; `CopiesTimeout` once it has passed."""
    deadline = _DEADLINE.get()
    if deadline is None:
        return None
    left = deadline - time.perf_counter()
    if left <= 0:
        raise CopiesTimeout
    return left


@dataclass(frozen=True)
class ConservationProblem:
    """The final table's card kinds do not match the start table and the hand."""

    reason: str


def conservation_problem(
    deck: Sequence[int], before: Counter[int], hand: Counter[int], after: Counter[int]
) -> str | None:
    """Why the final table's kinds cannot come from the table (all of it) plus hand cards, or None."""
    for kind in sorted(set(before) | set(after)):
        if after[kind] < before[kind]:
            return f"{card_str(kind)} was on the table and must stay there"
        have = before[kind] + hand[kind]
        if after[kind] > have:
            if not have:
                return f"{card_str(kind)} is neither on the table nor in the hand"
            return (
                f"the new table holds {after[kind]} copies of {card_str(kind)}, but the table and hand "
                f"hold {have}"
            )
    return None


@dataclass
class _Kind:
    """One card kind: the final places holding it and the labelled copies that can fill them."""

    kind: int
    places: list[tuple[int, int]]  # (final meld, position)
    classes: list[tuple[int, ...]]  # places that the rules tell apart: a meld, or a wild's own place
    labels: list[Label]  # one per copy used: the table's copies, then the hand's played ones
    ids: dict[Label, list[int]]  # physical ids behind each label
    options: list[tuple[tuple[Label, ...], ...]]  # distinct distributions of labels over classes


def canonical_tables(
    deck: Sequence[int],
    is_wild: Callable[[int], bool],
    start: Sequence[TableMeld],
    hand: Sequence[int],
    final: Sequence[TableMeld],
    wild_ties_only: bool = False,
) -> list[tuple[TableMeld, ...]] | ConservationProblem:
    """`canonical_search`'s tables."""
    found = canonical_search(deck, is_wild, start, hand, final, wild_ties_only)
    return found if isinstance(found, ConservationProblem) else found[0]


def canonical_search(
    deck: Sequence[int],
    is_wild: Callable[[int], bool],
    start: Sequence[TableMeld],
    hand: Sequence[int],
    final: Sequence[TableMeld],
    wild_ties_only: bool = False,
) -> tuple[list[tuple[TableMeld, ...]], bool] | ConservationProblem:
    """The canonical assignments of copies to `final` (its ids are read as card kinds only).

    `start` is the table at the start of the turn (with its wilds' meanings), `hand` the hand's
    physical ids. Each returned table keeps `final`'s meanings and order and names, for each
    place, a physical copy from the start table or the hand.

    `wild_ties_only`: the caller's rules read origins only in melds that hold a wild, at the
    start or at the end (the joker rules of an opened turn). Ties within a group of kinds that
    has no place in a final meld with a wild and no copy from a start meld with one cannot change
    such a verdict, so only the first is returned: the `MAX_TABLES` tied tables are spent on the
    ties that matter (six independent ties among plain groups are 64 tables, not one).

    Also returned: whether the tables are every tied assignment that matters. Where
    `MAX_ALTERNATIVES` or `MAX_TABLES` cut them, which are kept depends on `final`'s order.
    """
    before = Counter(deck[i] for m in start for i in m.ids)
    in_hand = Counter(deck[i] for i in hand)
    after = Counter(deck[i] for m in final for i in m.ids)
    problem = conservation_problem(deck, before, in_hand, after)
    if problem is not None:
        return ConservationProblem(problem)
    loose, fixed, base = _kinds(deck, is_wild, start, hand, final)
    loose_kinds = list(loose)
    settled = _settle(loose, fixed)
    loose = [k for k in loose if k.kind not in settled]
    picks: list[list[dict[int, tuple[tuple[Label, ...], ...]]]] = [[settled]]
    wild_final = {m for m, meld in enumerate(final) if any(is_wild(deck[i]) for i in meld.ids)}
    wild_start = {
        u
        for u, meld in enumerate(start)
        if any(
            is_wild(deck[i]) or meaning is not None
            for i, meaning in zip(meld.ids, meld.meanings, strict=True)
        )
    }

    def touches_a_wild(group: list[_Kind]) -> bool:
        return any(m in wild_final for k in group for m, _ in k.places) or any(
            u in wild_start for k in group for u, _ in k.labels
        )

    complete = True
    for group in _coupled(loose):
        winners, every_tie = _best(group, fixed)
        if wild_ties_only and not touches_a_wild(group):
            winners = winners[:1]
        complete = complete and every_tie
        picks.append(winners)
    tables: list[tuple[TableMeld, ...]] = []
    for combo in islice(product(*picks), MAX_TABLES + 1):
        if len(tables) == MAX_TABLES:
            complete = False
            break
        if len(tables) % 16 == 15:
            _time_left()  # a thousand tied tables take a while to build
        chosen: dict[int, tuple[tuple[Label, ...], ...]] = {}
        for part in combo:
            chosen.update(part)
        tables.append(_build(final, base, loose_kinds, chosen))
    return tables, complete


def _kinds(
    deck: Sequence[int],
    is_wild: Callable[[int], bool],
    start: Sequence[TableMeld],
    hand: Sequence[int],
    final: Sequence[TableMeld],
) -> tuple[list[_Kind], Counter[tuple[int, int]], dict[tuple[int, int], int]]:
    """The kinds whose copies can be told apart by the rules (copies from two or more places: start
    melds, or a start meld and the hand) and that fill two or more final places, as `_Kind`s; for
    every other kind, whose copies have a single way to go, the pairs they keep ((final meld, start
    meld) -> cards) and the physical id each of its places gets (copies in start-table order, then
    the hand's, over its places in table order)."""
    places: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for m, meld in enumerate(final):
        for p, i in enumerate(meld.ids):
            places[deck[i]].append((m, p))
    table_ids: dict[int, dict[Label, list[int]]] = defaultdict(dict)
    for u, meld in enumerate(start):
        for i, meaning in zip(meld.ids, meld.meanings, strict=True):
            table_ids[deck[i]].setdefault((u, meaning), []).append(i)
    hand_ids: dict[int, list[int]] = defaultdict(list)
    for i in hand:
        hand_ids[deck[i]].append(i)
    loose: list[_Kind] = []
    fixed: Counter[tuple[int, int]] = Counter()
    base: dict[tuple[int, int], int] = {}
    for kind in sorted(places):
        spots = places[kind]
        ids: dict[Label, list[int]] = table_ids.get(kind, {})
        extra = len(spots) - sum(len(v) for v in ids.values())
        if extra:
            ids = {**ids, (HAND, None): hand_ids[kind][:extra]}
        if len(ids) == 1:  # one source: a single way to place the copies
            (((u, _), copies),) = ids.items()
            for spot, i in zip(spots, copies, strict=True):
                base[spot] = i
                if u != HAND:
                    fixed[(spot[0], u)] += 1
            continue
        labels = [label for label, v in ids.items() for _ in v]
        wild = is_wild(kind)
        by_class: dict[tuple[int, ...], int] = {}
        for m, p in spots:
            key = (m, p) if wild else (m,)
            by_class[key] = by_class.get(key, 0) + 1
        classes = list(by_class)
        if len(classes) == 1:  # every copy in one meld (or one place): nothing to choose
            sources = {u for u, _ in labels if u != HAND}
            for u in sources:
                fixed[(spots[0][0], u)] += sum(len(v) for (w, _), v in ids.items() if w == u)
            whole = (tuple(sorted(labels, key=_label_key)),)
            _place(base, _Kind(kind, spots, classes, labels, ids, [whole]), whole)
            continue
        sizes = [by_class[c] for c in classes]
        options: list[tuple[tuple[Label, ...], ...]] = []
        for option in _distributions(sorted(labels, key=_label_key), sizes):
            if len(options) % 256 == 0:
                _time_left()  # many wilds of one kind have thousands of distributions
            options.append(option)
        loose.append(_Kind(kind, spots, classes, labels, ids, options))
    return loose, fixed, base


def _label_key(label: Label) -> tuple[int, str]:
    return label[0], "" if label[1] is None else str(label[1])


def _distributions(labels: list[Label], sizes: list[int]) -> Iterator[tuple[tuple[Label, ...], ...]]:
    """Every distinct way to deal the multiset `labels` into classes of the given sizes, each
    class's labels in `_label_key` order, classes dealt first-to-last and each label's share
    from most to fewest (the order `_best` and `_settle` number the options in)."""
    if not sizes:
        yield ()
        return
    counts = Counter(labels)
    distinct = sorted(counts, key=_label_key)
    if len(distinct) == 1:  # one kind of copy: a single way to deal them
        (label,) = distinct
        yield tuple((label,) * size for size in sizes)
        return
    yield from _deal(distinct, [counts[label] for label in distinct], sizes, 0)


def _deal(
    distinct: list[Label], left: list[int], sizes: list[int], at: int
) -> Iterator[tuple[tuple[Label, ...], ...]]:
    """`_distributions` of the copies still in `left` (per label of `distinct`) over the classes
    from `at` on; the last class takes what is left."""
    if at == len(sizes) - 1:
        yield (tuple(label for label, n in zip(distinct, left, strict=True) for _ in range(n)),)
        return
    last = len(distinct)

    def parts(k: int, room: int) -> Iterator[tuple[Label, ...]]:
        if room == 0:
            yield ()
            return
        if k == last:
            return
        label = distinct[k]
        have = left[k]
        for take in range(min(room, have), -1, -1):
            left[k] = have - take
            for rest in parts(k + 1, room - take):
                yield (label,) * take + rest
        left[k] = have

    for part in parts(0, sizes[at]):
        for tail in _deal(distinct, left, sizes, at + 1):
            yield (part, *tail)


def _cells(k: _Kind, option: tuple[tuple[Label, ...], ...]) -> Counter[tuple[int, int]]:
    """(final meld, start meld) -> copies of this kind that stay together, for one distribution."""
    cells: Counter[tuple[int, int]] = Counter()
    for cls, labels in zip(k.classes, option, strict=True):
        for u, _ in labels:
            if u != HAND:
                cells[(cls[0], u)] += 1
    return cells


def _settle(loose: list[_Kind], fixed: Counter[tuple[int, int]]) -> dict[int, tuple[tuple[Label, ...], ...]]:
    """Kinds whose best distribution does not depend on the others' choices, settled (and added to
    `fixed`) until none is left: a large table couples most card kinds, but nearly every one of
    them keeps its copies in place whatever the others do.

    Moving a kind from distribution b to a changes the pairs by, per cell, (a's copies - b's
    copies) * (the others' copies there) + C(a's, 2) - C(b's, 2); with the others' copies
    bounded per cell, a distribution better than every other one at the worst bound is in every
    optimum. Only strict wins settle a kind, so tied optima all stay.
    """
    settled: dict[int, tuple[tuple[Label, ...], ...]] = {}
    options: dict[int, list[Counter[tuple[int, int]]]] = {}
    for k in loose:
        _time_left()
        options[k.kind] = [_cells(k, o) for o in k.options]
    ranges: dict[int, tuple[Counter[tuple[int, int]], Counter[tuple[int, int]]]] = {}
    for kind, counts in options.items():
        cells = {cell for c in counts for cell in c}
        ranges[kind] = (
            Counter({cell: min(c[cell] for c in counts) for cell in cells}),
            Counter({cell: max(c[cell] for c in counts) for cell in cells}),
        )
    changed = True
    while changed:
        changed = False
        open_kinds = [k for k in loose if k.kind not in settled]
        low: dict[tuple[int, int], int] = dict(fixed)
        high: dict[tuple[int, int], int] = dict(fixed)
        for k in open_kinds:
            lows, highs = ranges[k.kind]
            for cell, x in lows.items():
                low[cell] = low.get(cell, 0) + x
            for cell, x in highs.items():
                high[cell] = high.get(cell, 0) + x
        for k in open_kinds:
            mine = options[k.kind]
            own_low, own_high = ranges[k.kind]
            # the other kinds' copies per cell at the worst bounds, this kind's range taken out
            # (own_low and own_high name every cell any of its distributions touches)
            others_low = {cell: low[cell] - own_low[cell] for cell in own_low}
            others_high = {cell: high[cell] - own_high[cell] for cell in own_high}
            for a, counts_a in enumerate(mine):
                _time_left()  # a wild kind may have hundreds of distributions, compared pairwise
                if all(
                    _worst_gain(counts_a, counts_b, others_low, others_high) > 0
                    for b, counts_b in enumerate(mine)
                    if b != a
                ):
                    # the others' ranges only narrow as kinds settle: a win stays a win
                    settled[k.kind] = k.options[a]
                    fixed.update(counts_a)
                    changed = True
                    break
    return settled


def _worst_gain(
    a: Counter[tuple[int, int]],
    b: Counter[tuple[int, int]],
    others_low: dict[tuple[int, int], int],
    others_high: dict[tuple[int, int], int],
) -> int:
    """The least number of pairs gained by distribution `a` over `b`, whatever the other kinds do
    (their copies per cell between `others_low` and `others_high`). Called for every pair of a
    wild kind's distributions, so it reads plain dicts and counts C(n, 2) inline."""
    gain = 0
    for cell in a.keys() | b.keys():
        x = a.get(cell, 0)
        y = b.get(cell, 0)
        diff = x - y
        gain += (
            diff * (others_low[cell] if diff > 0 else others_high[cell]) + (x * (x - 1) - y * (y - 1)) // 2
        )
    return gain


def _coupled(loose: list[_Kind]) -> list[list[_Kind]]:
    """Kinds whose choices touch a common (final meld, start meld) cell, grouped together."""
    parent = list(range(len(loose)))

    def root(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    owner: dict[tuple[int, int], int] = {}
    for n, k in enumerate(loose):
        metas = {c[0] for c in k.classes}
        sources = {u for u, _ in k.labels if u != HAND}
        for cell in ((m, u) for m in metas for u in sources):
            if cell in owner:
                parent[root(n)] = root(owner[cell])
            else:
                owner[cell] = n
    groups: dict[int, list[_Kind]] = defaultdict(list)
    for n, k in enumerate(loose):
        groups[root(n)].append(k)
    return list(groups.values())


def _best(
    group: list[_Kind], fixed: Counter[tuple[int, int]]
) -> tuple[list[dict[int, tuple[tuple[Label, ...], ...]]], bool]:
    """The distributions of one group of coupled kinds that keep the most pairs together, and
    whether they are all of them: every combination scored (`_scored`) while there are few
    enough, else solved exactly by CP-SAT (large tables where one wild kind couples many
    duplicated cards)."""
    cells_of = [[_cells(k, o) for o in k.options] for k in group]
    touched = sorted({cell for options in cells_of for cells in options for cell in cells})
    base = Counter({cell: fixed[cell] for cell in touched})
    total = 1
    for k in group:
        total *= len(k.options)
    _time_left()
    if total * max(len(touched), 1) <= MAX_SCORED:
        winners = _scored(cells_of, touched, base)
        every_tie = len(winners) <= MAX_TABLES
    else:
        winners = _exact(cells_of, base)
        every_tie = len(winners) < MAX_ALTERNATIVES
    chosen = [{k.kind: k.options[c] for k, c in zip(group, choice, strict=True)} for choice in winners]
    return chosen[:MAX_TABLES], every_tie


def _scored(
    cells_of: list[list[Counter[tuple[int, int]]]],
    touched: list[tuple[int, int]],
    base: Counter[tuple[int, int]],
) -> list[tuple[int, ...]]:
    """Every combination of the kinds' choices scored at once: the copies per touched cell of each
    combination (rows in `itertools.product` order), the pairs they keep, and the first
    `MAX_TABLES` + 1 combinations that keep the most (one more than the caller keeps, to tell
    whether it has them all; the cells no choice touches are the same for every combination)."""
    if not touched:  # every combination keeps the same pairs
        return list(islice(product(*(range(len(options)) for options in cells_of)), MAX_TABLES + 1))
    column = {cell: n for n, cell in enumerate(touched)}
    counts = np.array([[base[cell] for cell in touched]], dtype=np.int32)
    for options in cells_of:
        adds = np.zeros((len(options), len(touched)), dtype=np.int32)
        for o, cells in enumerate(options):
            for cell, x in cells.items():
                adds[o, column[cell]] = x
        counts = (counts[:, None, :] + adds[None, :, :]).reshape(-1, len(touched))
    pairs = (counts * (counts - 1) // 2).sum(axis=1)
    ties = np.flatnonzero(pairs == pairs.max())[: MAX_TABLES + 1]
    picks = np.unravel_index(ties, [len(options) for options in cells_of])
    return [tuple(int(axis[t]) for axis in picks) for t in range(len(ties))]


def _exact(
    cells_of: list[list[Counter[tuple[int, int]]]], base: Counter[tuple[int, int]]
) -> list[tuple[int, ...]]:
    """The best choices of a group too large for `_scored`, found by CP-SAT: one option per
    kind, pairs per cell read from a table of C(x, 2); then every tied optimum (up to
    `MAX_ALTERNATIVES`)."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    picks = [[model.new_bool_var("") for _ in options] for options in cells_of]
    for row in picks:
        model.add_exactly_one(row)
    touched = sorted({cell for options in cells_of for counts in options for cell in counts})
    pairs = []
    for cell in touched:
        terms = [
            counts[cell] * picks[k][o]
            for k, options in enumerate(cells_of)
            for o, counts in enumerate(options)
            if cell in counts
        ]
        top = base[cell] + sum(max(c[cell] for c in options) for options in cells_of)
        x = model.new_int_var(0, top, "")
        model.add(x == base[cell] + sum(terms))
        y = model.new_int_var(0, comb(top, 2), "")
        model.add_element(x, [comb(n, 2) for n in range(top + 1)], y)
        pairs.append(y)
    model.maximize(sum(pairs))
    solver = cp_solver()
    _solve_in_time(solver, model, True)
    model.clear_objective()
    model.add(sum(pairs) == round(solver.objective_value))
    # the tied optima one by one, each cut off by a no-good on its picks (with presolve on, this
    # is faster than enumerating every solution, which turns presolve off)
    found: list[tuple[int, ...]] = []
    while len(found) < MAX_ALTERNATIVES:
        if not _solve_in_time(solver, model, False):
            break
        choice = tuple(next(o for o, b in enumerate(row) if solver.value(b)) for row in picks)
        found.append(choice)
        model.add_bool_or([picks[k][o].Not() for k, o in enumerate(choice)])
    return sorted(found)


def _solve_in_time(solver: Any, model: Any, must: bool) -> bool:
    """Solve within the deadline of `deadline_scope` (`CopiesTimeout` if it cuts the search);
    whether a solution was found (`must`: one has to be)."""
    from ortools.sat.python import cp_model

    left = _time_left()
    if left is not None:
        solver.parameters.max_time_in_seconds = left
    status = solver.solve(model)
    if status == cp_model.UNKNOWN or (must and status != cp_model.OPTIMAL and left is not None):
        raise CopiesTimeout  # cut before a solution, or before the best one was proven
    ok = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    assert ok or not must, "the canonical assignment model always has a solution"
    return ok


def _build(
    final: Sequence[TableMeld],
    base: dict[tuple[int, int], int],
    loose: list[_Kind],
    chosen: dict[int, tuple[tuple[Label, ...], ...]],
) -> tuple[TableMeld, ...]:
    """`final` with a physical id at every place: `base` for the kinds with one way to go, the
    chosen distribution for the others."""
    ids = dict(base)
    for k in loose:
        _place(ids, k, chosen[k.kind])
    return tuple(
        TableMeld(tuple(ids[(m, p)] for p in range(len(meld.ids))), meld.meanings)
        for m, meld in enumerate(final)
    )


def _place(ids: dict[tuple[int, int], int], k: _Kind, option: tuple[tuple[Label, ...], ...]) -> None:
    """Write the physical ids of kind `k` dealt as `option` (labels per class) into `ids`: each
    label's copies in order, over each class's places in table order."""
    pools = {label: list(v) for label, v in k.ids.items()}
    classes = set(k.classes)
    places: dict[tuple[int, ...], list[tuple[int, int]]] = defaultdict(list)
    for m, p in k.places:
        places[(m, p) if (m, p) in classes else (m,)].append((m, p))
    for cls, labels in zip(k.classes, option, strict=True):
        for spot, label in zip(places[cls], labels, strict=True):
            ids[spot] = pools[label].pop(0)
