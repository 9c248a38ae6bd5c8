"""Fast path for the free-joker tile variants (``rummikub``, ``rummy-board``) on opened turns.

The whole set universe (every run window of 3-5, every group suit set, a pooled joker count per
card kind, the hand counts and the conservation rows) is built once per variant and thread; a
position only edits variable bounds and the conservation right-hand sides in place, then sets
the objective. When start melds are to be kept whole (the secondary objective) the universe is
copied and the keep/extension variables are appended to the copy. Building a model per position
costs several milliseconds in Python; this costs a fraction of one.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Literal

from ortools.sat.python import cp_model

from rummyai.cards import JOKER, Slot
from rummyai.playable import playable_cards
from rummyai.solvers.position import Position, Solution, count_broken, objective_value
from rummyai.solvers.tile_model import TileModel, decode
from rummyai.variants import Variant

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
) -> Solution:
    """Best play for an opened free-joker position on the cached universe model.

    When no hand card could be played at all (`rummyai.playable`) the empty play is returned
    without a model. Otherwise phase 1 finds the best cards (or points) on the universe model
    edited in place, unless `exact` already holds a proven best play for this position and
    objective (the dynamic program's, `rummyai.solvers.run_dp`), which then stands for phase 1
    (and is returned as it is when phase 2 has nothing to do).
    Phase 2, when start melds should be kept whole and phase 1's table breaks some, fixes the
    hand cards to phase 1's answer and maximises the melds kept on a copy with keep variables,
    within a deterministic work limit (`KEEP_PHASE_WORK`); if that runs out first, its best table
    so far (or phase 1's) stands. The primary objective is proven either
    way; the fewest-broken tie-break is best effort.
    """
    start = time.perf_counter()
    universe = _universe(position.variant)
    label: Literal["optimal", "feasible"] = "feasible"
    played: list[int] = []
    melds: list[tuple[Slot, ...]] = []
    base = universe.tm.model
    if exact is not None:
        if not (minimize_changes and exact.melds_broken):
            return exact  # no tie-break phase to run: the program's record is the answer
        played, melds, label = list(exact.played), list(exact.melds), "optimal"
    else:
        table = [c for info in position.table for c in info.cards]
        if not playable_cards(position.variant, position.hand, table, True):
            return _solution(position, objective, [], [], "optimal", start)
        universe.prepare(base, position)
        _set_objective(universe, base, position, objective, 1)
        solver = cp_model.CpSolver()
        status = _solve(solver, base, time_limit, work_limit)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            played, melds, _ = decode(_View(universe, position, {}), solver)
            label = "optimal" if status == cp_model.OPTIMAL else "feasible"
    if played and minimize_changes and position.table and count_broken(position, melds):
        if exact is not None:
            universe.prepare(base, position)  # the fewest-broken phase copies this position's bounds
        counts = [0] * 53
        for card in played:
            counts[card] += 1
        spent = time.perf_counter() - start
        budget = None if time_limit is None else max(time_limit - spent, 0.001)
        better = _keep_phase(universe, position, counts, budget, work_limit)
        if better is not None:
            melds = better
    return _solution(position, objective, played, as_written(position, melds), label, start)


def as_written(position: Position, melds: list[tuple[Slot, ...]]) -> list[tuple[Slot, ...]]:
    """Melds made of exactly a start meld's cards, written as that start meld was."""
    written: dict[tuple[int, ...], tuple[Slot, ...]] = {}
    for info in position.table:
        written.setdefault(tuple(sorted(info.cards)), info.slots)
    return [written.get(tuple(sorted(c for s in meld for c in s.cards())), meld) for meld in melds]


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
    solver = cp_model.CpSolver()
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
    params.num_workers = 1
    params.cp_model_presolve = False
    params.cut_level = 0
    params.optimize_with_lb_tree_search = True
    if time_limit is not None:
        params.max_time_in_seconds = float(time_limit)
    if work_limit is not None:
        params.max_deterministic_time = float(work_limit)
    return solver.solve(model)
