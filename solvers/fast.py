"""Fast path for the free-joker tile variants (``rummikub``, ``rummy-board``) on opened turns.

The whole set universe (every run window of 3-5, every group suit set, a pooled joker count per
card kind, the hand counts and the conservation rows) is built once per variant and thread; a
position only edits variable bounds and the conservation right-hand sides in place, then sets
the objective. When start melds are to be kept whole (the secondary objective) the universe is
copied and the keep/extension variables are appended to the copy. Building a model per position
costs several milliseconds in Python; this costs a fraction of one.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Literal

from rummyai.cards import JOKER, Meaning, Slot, rank_of, suit_of
from rummyai.cpsat import cp_solver
from rummyai.playable import playable_cards
from rummyai.solvers.position import (
    Position,
    Solution,
    count_broken,
    late_search_time,
    objective_value,
    time_left,
)
from rummyai.variants import Variant

if TYPE_CHECKING:  # OR-Tools (and the pandas it imports) loads only when a CP-SAT model is built
    from ortools.sat.python import cp_model


_LOCAL = threading.local()


def fast_path_ok(position: Position, max_cards: int | None) -> bool:
    """Whether the cached universe model answers this position exactly."""
    v = position.variant
    return (
        position.opened
        and v.tile_style
        and v.joker_rules.free_table_jokers
        and v.max_wilds_per_meld is None
        and not v.wilds_le_naturals
        and v.group_distinct_suits
        and v.group_max == 4
        and v.jokers <= v.min_meld - max(v.min_naturals_per_meld, 1)
        and all(w.card == JOKER for w in v.wilds)
        and max_cards is None
    )


class _Universe:
    """The variant's full model and where each piece of it sits in the proto."""

    def __init__(self, variant: Variant) -> None:
        from rummyai.solvers.tile_model import TileModel

        hand = tuple(c for c in range(53) for _ in range(variant.copies[c]))
        self.tm = TileModel(Position(variant, hand, (), True), "cards", None, minimize_changes=False)
        tm = self.tm
        assert tm.pooled
        self.templates = [(run.window.cards, run.count.index) for run in tm.runs]
        self.templates += [(cards, var.index) for cards, var in tm.group_sets]
        self.allowance = {c: var.index for c, var in tm.allowance.items()}
        self.played = {c: var.index for c, var in tm.played.items()}
        self.rows = {c: ct.index for c, ct in tm.conservation.items()}
        # the objective lists the hand variables in this order (maximize stores -weights)
        tm.model.maximize(sum(tm.played.values()))
        self.objective_cards = list(tm.played)
        # current upper bound / right-hand side of every edited entry, to write only changes
        self.bounds: dict[int, int] = {}
        self.rhs: dict[int, int] = {}

    def prepare(self, model: cp_model.CpModel, position: Position) -> None:
        """Set bounds and right-hand sides for this position (in place)."""
        proto = model.proto
        variables = proto.variables
        bounds = self.bounds
        hand = position.hand_counts()
        table = position.table_counts()
        avail = [h + t for h, t in zip(hand, table, strict=True)]
        jokers = avail[JOKER]
        for cards, index in self.templates:
            missing = 0
            ub = 2
            for c in cards:
                a = avail[c]
                if a == 0:
                    missing += 1
                if a + jokers < ub:
                    ub = a + jokers
            if missing > jokers:
                ub = 0
            if bounds.get(index) != ub:
                variables[index].domain[1] = ub
                bounds[index] = ub
        for index in self.allowance.values():
            if bounds.get(index) != jokers:
                variables[index].domain[1] = jokers
                bounds[index] = jokers
        for c, index in self.played.items():
            if bounds.get(index) != hand[c]:
                variables[index].domain[1] = hand[c]
                bounds[index] = hand[c]
        constraints = proto.constraints
        for c, index in self.rows.items():
            if self.rhs.get(index) != table[c]:
                domain = constraints[index].linear.domain
                domain[0] = table[c]
                domain[1] = table[c]
                self.rhs[index] = table[c]


def _universe(variant: Variant) -> _Universe:
    cache: dict[Variant, _Universe] | None = getattr(_LOCAL, "cache", None)
    if cache is None:
        cache = {}
        _LOCAL.cache = cache
    universe = cache.get(variant)
    if universe is None:
        universe = _Universe(variant)
        cache[variant] = universe
    return universe


class _View:
    """What `decode` reads, over the universe's variables plus this position's kept melds."""

    def __init__(self, universe: _Universe, position: Position, kept: dict[int, Any]) -> None:
        tm = universe.tm
        self.position = position
        self.variant = position.variant
        self.opening = False
        self.played = tm.played
        self.kept = kept
        self.runs = tm.runs
        self.groups = tm.groups
        self.group_sets = tm.group_sets
        self.allowance = tm.allowance
        self.retrievals: list[Any] = []
        self.qualify: list[Any] = []


def _add_kept(universe: _Universe, model: cp_model.CpModel, position: Position) -> dict[int, Any]:
    """Append keep/extension variables for every start meld to a copy of the universe."""
    from rummyai.solvers.tile_model import TileModel

    shim = TileModel.__new__(TileModel)
    shim.model = model
    shim.variant = position.variant
    shim.position = position
    hand = position.hand_counts()
    table = position.table_counts()
    shim.avail = [h + t for h, t in zip(hand, table, strict=True)]
    shim.jokers = shim.avail[JOKER]
    shim.hand_counts = hand
    shim.usage = [[] for _ in range(53)]
    shim.kept = {}
    shim.pooled = True
    shim.swaps_allowed = False
    shim.safe_fixed = False
    for k, info in enumerate(position.table):
        shim._add_kept(k, info, forced=False)
    constraints = model.proto.constraints
    for card, terms in enumerate(shim.usage):
        if not terms:
            continue
        coeffs: dict[int, int] = {}
        for term in terms:
            coeffs[term.index] = coeffs.get(term.index, 0) + 1
        linear = constraints[universe.rows[card]].linear
        for index, coeff in coeffs.items():
            linear.vars.append(index)
            linear.coeffs.append(coeff)
    return shim.kept


# Work limit of the fewest-melds-broken phase, in CP-SAT's deterministic time units (so that
# the same position always gets the same answer, whatever the machine's load).
KEEP_PHASE_WORK = 0.02


def solve_fast(
    position: Position,
    objective: str,
    time_limit: float | None,
    minimize_changes: bool = True,
    work_limit: float | None = None,
    exact: Solution | None = None,
    tidied: bool = False,
) -> Solution:
    """Best play for an opened free-joker position on the cached universe model.

    When no hand card could be played at all (`rummyai.playable`) the empty play is returned
    without a model. Otherwise phase 1 finds the best cards (or points) on the universe model
    edited in place, unless `exact` already holds a proven best play for this position and
    objective (the dynamic program's, `rummyai.solvers.run_dp`), which then stands for phase 1;
    `tidied` says the program broke the ties itself (`solve_dp(..., tidy=True)`), and `exact` is
    then the answer. Phase 2, when start melds should be kept whole and phase 1's table breaks
    some, fixes the hand cards to phase 1's answer and maximises the melds kept on a copy with keep
    variables, within a deterministic work limit (`KEEP_PHASE_WORK`); if that runs out first, its
    best table so far (or phase 1's) stands. The primary objective is proven either way; the
    fewest-broken tie-break is best effort.
    """
    start = time.perf_counter()
    label: Literal["optimal", "feasible"] = "feasible"
    played: list[int] = []
    melds: list[tuple[Slot, ...]] = []
    if exact is not None:
        if tidied or not (minimize_changes and exact.melds_broken):
            return exact  # no tie-break phase to run: the program's record is the answer
        played, melds, label = list(exact.played), list(exact.melds), "optimal"
    else:
        table = [c for info in position.table for c in info.cards]
        if not playable_cards(position.variant, position.hand, table, True):
            return _solution(position, objective, [], [], "optimal", start)
        from ortools.sat.python import cp_model

        from rummyai.solvers.tile_decode import decode

        universe = _universe(position.variant)
        base = universe.tm.model
        universe.prepare(base, position)
        _set_objective(universe, base, position, objective, 1)
        solver = cp_solver()
        status = _solve(solver, base, time_limit, work_limit)
        late = late_search_time(start, time_limit) if status == cp_model.UNKNOWN else None
        if late is not None:  # the limit came before any play: a little longer for a first one
            status = _solve(solver, base, late, work_limit)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            played, melds, _ = decode(_View(universe, position, {}), solver)
            label = "optimal" if status == cp_model.OPTIMAL else "feasible"
    if played and minimize_changes and position.table and count_broken(position, melds):
        universe = _universe(position.variant)
        if exact is not None:  # the fewest-broken phase copies this position's bounds
            universe.prepare(universe.tm.model, position)
        counts = [0] * 53
        for card in played:
            counts[card] += 1
        better = _keep_phase(universe, position, counts, time_left(start, time_limit), work_limit)
        if better is not None:
            melds = better
    return _solution(position, objective, played, as_written(position, melds), label, start)


def as_written(position: Position, melds: list[tuple[Slot, ...]]) -> list[tuple[Slot, ...]]:
    """Melds made of exactly a start meld's cards, written as that start meld was (these rules
    have no escorts: a slot is one card)."""
    written: dict[tuple[int, ...], tuple[Slot, ...]] = {}
    for info in position.table:
        written.setdefault(info.kinds, info.slots)
    return [written.get(tuple(sorted([s.card for s in meld])), meld) for meld in melds]


def _solution(
    position: Position,
    objective: str,
    played: list[int],
    melds: list[tuple[Slot, ...]],
    label: Literal["optimal", "feasible"],
    start: float,
) -> Solution:
    """The `Solution` record of a play (the unchanged table when nothing is played)."""
    if not played:
        melds = [tuple(info.slots) for info in position.table]
    hv = position.variant.hand_values
    points = sum(hv[c] for c in played)
    value = objective_value(position, objective, played)
    broken = count_broken(position, melds)
    ms = (time.perf_counter() - start) * 1000
    return Solution(tuple(played), tuple(melds), label, objective, value, len(played), points, ms, broken)


def _keep_phase(
    universe: _Universe,
    position: Position,
    counts: list[int],
    budget: float | None,
    work_limit: float | None = None,
) -> list[tuple[Slot, ...]] | None:
    """Re-lay the played cards (`counts` per kind) keeping as many start melds whole as possible."""
    from ortools.sat.python import cp_model

    from rummyai.solvers.tile_decode import decode

    model = cp_model.CpModel()
    model.proto.copy_from(universe.tm.model.proto)
    variables = model.proto.variables
    for card, var in universe.tm.played.items():
        value = counts[card]
        variables[var.index].domain[0] = value
        variables[var.index].domain[1] = value
    kept = _add_kept(universe, model, position)
    if not kept:
        return None
    model.maximize(sum(k.keep for k in kept.values()))
    solver = cp_solver()
    work = KEEP_PHASE_WORK if work_limit is None else min(KEEP_PHASE_WORK, work_limit)
    status = _solve(solver, model, budget, work)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    _, melds, _ = decode(_View(universe, position, kept), solver)
    return melds


def _set_objective(
    universe: _Universe, model: cp_model.CpModel, position: Position, objective: str, n_keep: int
) -> None:
    """Lexicographic weights on the hand variables: cards then points (or the reverse), each
    scaled by `n_keep` so that kept melds only break ties."""
    hv = position.variant.hand_values
    max_points = sum(hv[c] for c in position.hand) + 1
    max_cards = len(position.hand) + 1
    coeffs = model.proto.objective.coeffs
    for i, c in enumerate(universe.objective_cards):
        if objective == "cards":
            weight = max_points * n_keep + hv[c] * n_keep
        else:
            weight = hv[c] * max_cards * n_keep + n_keep
        coeffs[i] = -weight


def _solve(
    solver: cp_model.CpSolver, model: cp_model.CpModel, time_limit: float | None, work_limit: float | None
) -> Any:
    params = solver.parameters
    params.cp_model_presolve = False
    params.cut_level = 0
    params.optimize_with_lb_tree_search = True
    if time_limit is not None:
        params.max_time_in_seconds = float(time_limit)
    if work_limit is not None:
        params.max_deterministic_time = float(work_limit)
    return solver.solve(model)


Group = tuple[frozenset[int], int]  # a group's natural suits and its jokers


def tidy_groups(position: Position, melds: list[tuple[Slot, ...]]) -> list[tuple[Slot, ...]]:
    """`melds` with each number's groups laid out again to keep as many start groups whole as
    their cards allow (same cards and jokers in that number's groups, every group valid): a start
    group stays whole when one new group holds its suits and at least its jokers. Free-joker
    rules, as the fast path has them; runs are left as they are."""
    wanted: dict[int, list[Group]] = {}
    for info in position.table:
        if info.kind == "group" and info.rank is not None:
            suits = frozenset(
                suit_of(s.card) for s, wild in zip(info.slots, info.as_wild, strict=True) if not wild
            )
            wanted.setdefault(info.rank, []).append((suits, info.wild_count))
    if not wanted:
        return melds
    by_rank: dict[int, list[int]] = {}
    for k, meld in enumerate(melds):
        rank = _group_rank(meld)
        if rank in wanted:
            by_rank.setdefault(rank, []).append(k)
    v = position.variant
    assert v.group_max is not None
    out = list(melds)
    dropped: set[int] = set()
    for rank, indices in by_rank.items():
        present = [suit_of(s.card) for k in indices for s in out[k] if s.card != JOKER]
        jokers = sum(s.card == JOKER for k in indices for s in out[k])
        start = wanted[rank]
        have = [_as_group(out[k]) for k in indices]
        best, best_kept = have, _kept(start, have)
        if best_kept == len(start):
            continue
        for layout in _group_layouts(sorted(present), jokers, v.min_meld, v.group_max):
            kept = _kept(start, layout)
            if kept > best_kept:
                best, best_kept = layout, kept
                if kept == len(start):
                    break
        if best is have:
            continue
        dropped.update(indices)
        for natural_suits, count in best:
            naturals = [Slot(s * 13 + rank - 1) for s in sorted(natural_suits)]
            out.append((*naturals, *[Slot(JOKER, Meaning(rank))] * count))
    return [m for k, m in enumerate(out) if k not in dropped]


def _group_rank(meld: tuple[Slot, ...]) -> int | None:
    """The number of a group as the fast path writes it (naturals of one rank, jokers without a
    suit), else None."""
    rank = None
    for slot in meld:
        if slot.card == JOKER:
            if slot.meaning is None or slot.meaning.suit is not None:
                return None
        elif rank is None:
            rank = slot.card % 13 + 1
        elif slot.card % 13 + 1 != rank:
            return None
    return rank


def _as_group(meld: tuple[Slot, ...]) -> Group:
    return frozenset(suit_of(s.card) for s in meld if s.card != JOKER), sum(s.card == JOKER for s in meld)


def _kept(start: list[Group], layout: list[Group]) -> int:
    """Start groups held whole by a group of `layout`."""
    return sum(any(suits <= have and jokers <= count for have, count in layout) for suits, jokers in start)


def _group_layouts(suits: list[int], jokers: int, low: int, high: int) -> Iterator[list[Group]]:
    """Every way to lay the naturals' `suits` (sorted, a suit at most once per group) and exactly
    `jokers` jokers out as groups of `low`..`high` cards, each with a natural."""
    if not suits:
        if jokers == 0:
            yield []
        return
    first, rest = suits[0], suits[1:]
    others = sorted(set(rest) - {first})
    for size in range(0, high):
        for mates in itertools.combinations(others, size):
            for extra in range(jokers + 1):
                if not low <= 1 + size + extra <= high:
                    continue
                left = list(rest)
                for m in mates:
                    left.remove(m)
                for tail in _group_layouts(left, jokers - extra, low, high):
                    yield [(frozenset((first, *mates)), extra), *tail]


def tidy_layout(position: Position, melds: list[tuple[Slot, ...]]) -> list[tuple[Slot, ...]]:
    """`melds` laid out again, same cards, to keep more start melds whole: each number's groups
    re-formed (`tidy_groups`), runs of a colour that meet joined, and jokers a meld can spare moved
    to where a start meld needs one (each move only when it breaks fewer start melds)."""
    melds = _join_runs(tidy_groups(position, melds))
    if not any(info.wild_count for info in position.table):
        return melds
    needs = [bag(info.slots) for info in position.table]
    group_max = position.variant.group_max or 4
    while True:
        bags = [bag(meld) for meld in melds]
        held = [sum(holds(have, need) for have in bags) for need in needs]  # new melds holding each
        broken = held.count(0)
        if not broken:
            return melds
        grown = [with_joker(meld, group_max) for meld in melds]
        move = _joker_move(melds, needs, bags, held, grown, broken)
        if move is None:
            return melds
        giver, spared, taker, more = move
        melds = list(melds)
        melds[giver], melds[taker] = spared, more


Bag = tuple[frozenset[int], int]  # a meld's card kinds and its jokers


def bag(meld: Sequence[Slot]) -> Bag:
    """What a meld holds, for these rules (no escorts, no natural twice in a meld): its card kinds
    as a set and its jokers."""
    cards = [slot.card for slot in meld]
    return frozenset(cards), cards.count(JOKER)


def holds(have: Bag, need: Bag) -> bool:
    """Whether a meld holding `have` holds every card of a start meld holding `need`."""
    return need[0] <= have[0] and have[1] >= need[1]


def _joker_move(
    melds: list[tuple[Slot, ...]],
    needs: list[Bag],
    bags: list[Bag],
    held: list[int],
    grown: list[tuple[Slot, ...] | None],
    broken: int,
) -> tuple[int, tuple[Slot, ...], int, tuple[Slot, ...]] | None:
    """The first (giver, giver less a joker, taker, taker with it) whose move breaks fewer start melds, or None.
    Only the two melds that change are looked at again (`held` counts the rest)."""
    for giver, meld in enumerate(melds):
        spared = _without_joker(meld)
        if spared is None:
            continue
        spared_bag = bag(spared)
        for taker, more in enumerate(grown):
            if taker == giver or more is None:
                continue
            more_bag = bag(more)
            was = bags[giver], bags[taker]
            fewer = 0
            for need, count in zip(needs, held, strict=True):
                count += (
                    holds(spared_bag, need)
                    + holds(more_bag, need)
                    - holds(was[0], need)
                    - holds(was[1], need)
                )
                fewer += count == 0
            if fewer < broken:
                return giver, spared, taker, more
    return None


def with_joker(meld: tuple[Slot, ...], group_max: int) -> tuple[Slot, ...] | None:
    """`meld` with one more joker, or None when it has no room."""
    meanings = [
        (s.meaning.rank, s.meaning.suit) if s.meaning else (rank_of(s.card), suit_of(s.card)) for s in meld
    ]
    if len({m[0] for m in meanings}) == 1:  # a group
        return (*meld, Slot(JOKER, Meaning(meanings[0][0]))) if len(meld) < group_max else None
    (first, suit), (last, _) = meanings[0], meanings[-1]
    if last < 13:
        return (*meld, Slot(JOKER, Meaning(last + 1, suit)))
    if first > 1:
        return (Slot(JOKER, Meaning(first - 1, suit)), *meld)
    return None


def _without_joker(meld: tuple[Slot, ...]) -> tuple[Slot, ...] | None:
    """`meld` less a joker it can spare (a group's, or one at a run's end, leaving 4 or more
    cards), or None."""
    if len(meld) <= 3 or all(s.card != JOKER for s in meld):
        return None
    if _group_rank(meld) is not None:
        k = next(k for k, s in enumerate(meld) if s.card == JOKER)
        return meld[:k] + meld[k + 1 :]
    if meld[-1].card == JOKER:
        return meld[:-1]
    if meld[0].card == JOKER:
        return meld[1:]
    return None


def _run_span(meld: tuple[Slot, ...]) -> tuple[int, int, int] | None:
    """(suit, first rank, last rank) of a run as the fast path writes it, else None."""
    if _group_rank(meld) is not None:
        return None
    first, last = meld[0], meld[-1]
    low = first.meaning if first.card == JOKER else None
    high = last.meaning if last.card == JOKER else None
    suit = low.suit if low is not None else suit_of(first.card)
    start = low.rank if low is not None else rank_of(first.card)
    end = high.rank if high is not None else rank_of(last.card)
    if suit is None:
        return None
    return suit, start, end


def _join_runs(melds: list[tuple[Slot, ...]]) -> list[tuple[Slot, ...]]:
    """Runs of one colour where one ends just below the next starts, joined into one (a longer
    meld holds whatever its parts held)."""
    out = list(melds)
    spans = [_run_span(meld) for meld in out]
    joined = True
    while joined:
        joined = False
        ends = {(span[0], span[2]): k for k, span in enumerate(spans) if span is not None}
        for k, span in enumerate(spans):
            before = None if span is None else ends.get((span[0], span[1] - 1))
            if before is not None and before != k and span is not None:
                low = spans[before]
                assert low is not None
                out[before] = out[before] + out[k]
                spans[before] = (low[0], low[1], span[2])
                del out[k], spans[k]
                joined = True
                break
    return out
