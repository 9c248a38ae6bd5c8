"""`solve_tile`: the best play for a tile-style position and the draw-and-discard variants other
than Black Heart, from the CP-SAT tile model (and, for Rhine, its judge-checked repair)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ortools.sat.python import cp_model

from rummyai.cards import JOKER, Slot
from rummyai.errors import IllegalMoveError, RummyError
from rummyai.solvers.check import judged_legal
from rummyai.solvers.lay_offs import judged_lay_offs
from rummyai.solvers.palace_swaps import swaps_in_order
from rummyai.solvers.position import (
    Position,
    Solution,
    black_heart_rules,
    count_broken,
    late_search_time,
    objective_value,
    score_key,
    time_left,
)
from rummyai.solvers.reference import ReferenceTimeout, reference_solve
from rummyai.solvers.rhine_repair import TIDY_TRIES, VERIFY_GRACE, cut, rhine_repair
from rummyai.solvers.tile_decode import decode
from rummyai.solvers.tile_model import TileModel, single_meld_exact, solve_model

# A judge-repaired answer the relaxation cannot prove is certified (or bettered) by the exhaustive
# reference when hand and table hold at most this many cards, so small hand-made positions get a
# proof instead of ``feasible`` (within the time limit, if there is one). On random rhine
# positions (`random_position` with jokers in 40% of the table's places, hands of 2-6 cards drawn
# near the table) the reference took 0.04 s median and 0.56-0.71 s at most at 14 and 15 cards
# (about 60 positions each), 0.09 s at most at 12.
CERTIFY_CARDS = 15
# Up to this many cards the reference is tried too, within `CERTIFY_STEPS` of its steps (about
# 3 s at most, 0.6-0.7 microseconds a step on 16-22-card Rhine positions with jokers in hand): a
# repair can run out of cuts on such a table and answer a pass or a short play while a longer
# one is legal, mostly with two jokers in hand (of 13 unproven answers on fresh 16-22-card
# Rhine positions, 12 below the best, these steps settle 9; a million settle none)
CERTIFY_CARDS_BOUNDED = 22
CERTIFY_STEPS = 5_000_000
# Under a work limit w the reference gets w times this many steps (`reference_solve(max_steps=)`):
# a bound that does not depend on the machine's load (about a seventh of w seconds of its search
# on an idle core).
REFERENCE_STEPS_PER_WORK = 200_000
# Rummy Palace tables needing two swapped jokers at once cut off before the solver gives up
SWAP_CUTS = 20
# An unproven answer is compared with a play of hand melds and lay-offs. Under a time limit its
# judgement ends this long after the limit (within the limit plus 0.3 s that a caller may count
# on); the hand's own solve ends this long before that, to leave the judge time (a few
# milliseconds when no start meld is taken apart), and gets at least the last figure
LAY_OFFS_GRACE = 0.2
LAY_OFFS_JUDGE = 0.04
LAY_OFFS_SOLVE = 0.01


def solve_tile(
    position: Position,
    objective: str,
    time_limit: float | None,
    max_cards: int | None,
    minimize_changes: bool = True,
    committed: Sequence[int] = (),
    taken: int | None = None,
    work_limit: float | None = None,
) -> Solution:
    """Best PLAY for a tile-style position (or no play when none is possible).

    Where the variant's joker rules say the model only relaxes them (`JokerRules.model_relaxed`:
    Rhine R3-R5b, Tile Rummy T3-T4 and official Rummikub's table jokers, which ask which start
    meld a card came from on the canonical copy assignment) the answer is checked by the
    engine's judge and, if rejected, repaired by `rhine_repair`
    (``optimal`` when a relaxation's bound proves the judged-legal answer, or on a position of
    at most `CERTIFY_CARDS` cards, the exhaustive reference). Rummy Palace swaps on an opening
    turn are searched around this model by `rummyai.solvers.opening_swaps`.
    """
    start = time.perf_counter()
    rules = position.variant
    if any(w.card != JOKER and w.plays_itself for w in rules.wilds):
        raise RummyError(f"the solver does not support wilds other than jokers in {rules.id} yet")
    opening = not position.opened and rules.opening_turn_exclusive
    if black_heart_rules(rules):
        raise RummyError(f"the solver does not support {rules.id} yet (escorts, Royale, opening chart)")
    if rules.opening_single_meld and rules.opening == "points" and not single_meld_exact(rules):
        raise RummyError(f"the solver does not support this single-meld points opening in {rules.id}")
    relaxed = rules.joker_rules.model_relaxed
    # where the judge may refuse the model's table of an opened turn, the tie-break (fewest start
    # melds broken) waits until a table at the optimum is judged legal (`_fewest_broken`): most
    # such tables are refused
    later = relaxed and minimize_changes and position.opened
    tm = TileModel(position, objective, max_cards, minimize_changes and not later, opening, committed, taken)
    solver, status = _solve_by_limit(tm, start, time_limit, work_limit)
    if status == cp_model.UNKNOWN and committed:
        # a limit cut the search before any play: playing nothing would leave the committed
        # card in hand, which is no legal turn; any play that places it is (first one found)
        solver, status = solve_model(tm, None, None, first=True)
    if status == cp_model.INFEASIBLE and committed:
        raise IllegalMoveError("5.2", "the committed card cannot be placed on the table this turn")
    played: list[int] = []
    melds: list[tuple[Slot, ...]] = []
    label = "feasible"
    may_lay_off = rules.tile_style and bool(position.table) and not committed
    floored = False  # the hand's melds and lay-offs were tried already
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        played, melds, _ = decode(tm, solver)
        label = "optimal" if status == cp_model.OPTIMAL else "feasible"
        # judged by half the grace, so that a judgement the limit cuts leaves the other half to
        # the hand's melds and lay-offs (`_with_lay_offs`), whose judgement is quick
        deadline = None if time_limit is None else start + time_limit + VERIFY_GRACE / 2
        if relaxed and played and judged_legal(position, melds, deadline):
            if later:
                melds = _fewest_broken(tm, played, melds, start, time_limit, work_limit, deadline)
        elif relaxed and played:
            # under a time limit the hand's melds and lay-offs come first: a floor that the
            # repair, with what is left of the limit, may not reach
            floored = time_limit is not None and may_lay_off
            floor = (
                _with_lay_offs(position, objective, max_cards, [], [], start, time_limit, work_limit)
                if floored
                else ([], [])
            )
            bound = score_key(position, objective, played) if status == cp_model.OPTIMAL else None
            played, melds, label = rhine_repair(
                position, objective, time_limit, max_cards, minimize_changes, tm, bound, start, work_limit
            )
            if label == "feasible" and rules.joker_rules.replacement_takes:
                # official jokers: the pooled witness model counts a group joker moved into a run
                # as kept, so its cuts can run out before a proof; the per-meld model tells them
                # apart (but deals a rank's groups one way, so it runs second, never instead)
                again = rhine_repair(
                    position,
                    objective,
                    time_limit,
                    max_cards,
                    minimize_changes,
                    tm,
                    bound,
                    start,
                    work_limit,
                    per_meld_jokers=True,
                )
                if again[2] == "optimal" or score_key(position, objective, again[0]) > score_key(
                    position, objective, played
                ):
                    played, melds, label = again
            if label == "feasible":
                certify_by = None if time_limit is None else start + time_limit
                steps = None if work_limit is None else int(work_limit * REFERENCE_STEPS_PER_WORK)
                played, melds, label = _certified(
                    position, objective, max_cards, committed, taken, played, melds, certify_by, steps
                )
            if score_key(position, objective, floor[0]) > score_key(position, objective, played):
                played, melds, label = floor[0], floor[1], "feasible"
            if Counter(committed) - Counter(played):  # the judged-legal plays leave it in hand
                raise IllegalMoveError("5.2", "no legal play of the committed card was found this turn")
        swapping = rules.joker_rules.exact_swaps and position.opened and played
        if swapping and not swaps_in_order(position, _played_from_table(position, melds), melds):
            played, melds, label = _swaps_in_order(position, tm, solver, label, start, time_limit, work_limit)
    if label == "feasible" and may_lay_off and not floored:
        played, melds = _with_lay_offs(
            position, objective, max_cards, played, melds, start, time_limit, work_limit
        )
    if not played:
        melds = [tuple(info.slots) for info in position.table]
    else:
        played = _played_from_table(position, melds)
    broken = count_broken(position, melds)
    hv = position.variant.hand_values
    points = sum(hv[c] for c in played)
    value = objective_value(position, objective, played)
    ms = (time.perf_counter() - start) * 1000
    return Solution(tuple(played), tuple(melds), label, objective, value, len(played), points, ms, broken)


def _fewest_broken(
    tm: TileModel,
    played: list[int],
    melds: list[tuple[Slot, ...]],
    start: float,
    time_limit: float | None,
    work_limit: float | None,
    deadline: float | None,
) -> list[tuple[Slot, ...]]:
    """The tie-break of a judged-legal table at the relaxed model's optimum: the model with the
    fewest start melds broken and the played cards' count and points fixed, its table judged (a
    refused one cut off, `TIDY_TRIES` tables at most); the table given when none is legal and
    breaks fewer."""
    position = tm.position
    tidy = TileModel(position, tm.objective, tm.max_cards, True, tm.opening, tm.committed, tm.taken)
    tidy.model.add(tidy.cards_expr == len(played))
    tidy.model.add(tidy.points_expr == sum(position.variant.hand_values[c] for c in played))
    for _ in range(TIDY_TRIES):
        solver, status = solve_model(tidy, time_left(start, time_limit), work_limit)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            break
        found = decode(tidy, solver)[1]
        if judged_legal(position, found, deadline):
            return found if count_broken(position, found) < count_broken(position, melds) else melds
        cut(tidy, solver)
    return melds


def _solve_by_limit(
    tm: TileModel, start: float, time_limit: float | None, work_limit: float | None
) -> tuple[cp_model.CpSolver, Any]:
    """`solve_model` within what is left of the limit, and a little past it (`late_search_time`)
    when the limit came before any play."""
    solver, status = solve_model(tm, time_left(start, time_limit), work_limit)
    late = late_search_time(start, time_limit) if status == cp_model.UNKNOWN else None
    if late is not None:
        solver, status = solve_model(tm, late, work_limit)
    return solver, status


def _swaps_in_order(
    position: Position,
    tm: TileModel,
    solver: cp_model.CpSolver,
    label: str,
    start: float,
    time_limit: float | None,
    work_limit: float | None,
) -> tuple[list[int], list[tuple[Slot, ...]], str]:
    """Rummy Palace: the model lets several swapped jokers enter one meld together, but each swap
    puts its joker back on the table by itself (§4.5). Called when the solved table's swaps (its
    merged layout, as decoded) cannot be made one at a time: a table whose swaps cannot be in
    either layout of its runs is cut off and the model solved again; the first table that can is
    optimal when every search was. After `SWAP_CUTS` cuts, or when a limit stops a search, the
    best play without swaps answers, ``feasible``."""
    layouts: tuple[bool, ...] = (False,)  # the caller has judged the merged layout of this table
    for _ in range(SWAP_CUTS):
        for merge in layouts:
            melds = decode(tm, solver, merge=merge)[1]
            played = _played_from_table(position, melds)
            if swaps_in_order(position, played, melds):
                return played, melds, label
        cut(tm, solver)
        solver, status = solve_model(tm, time_left(start, time_limit), work_limit)
        if status == cp_model.INFEASIBLE:
            return [], [], label  # every play the model holds needs jokers laid at once
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            break
        if status != cp_model.OPTIMAL:
            label = "feasible"
        layouts = (True, False)
    without = TileModel(
        position, tm.objective, tm.max_cards, False, tm.opening, tm.committed, tm.taken, swaps=False
    )
    solver, status = _solve_by_limit(without, start, time_limit, work_limit)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return [], [], "feasible"
    melds = decode(without, solver)[1]
    return _played_from_table(position, melds), melds, "feasible"


def _with_lay_offs(
    position: Position,
    objective: str,
    max_cards: int | None,
    played: list[int],
    melds: list[tuple[Slot, ...]],
    start: float,
    time_limit: float | None,
    work_limit: float | None,
) -> tuple[list[int], list[tuple[Slot, ...]]]:
    """An unproven answer, or the judged-legal play of hand melds and lay-offs
    (`rummyai.solvers.lay_offs`) when that scores more: a large position can use up the limit,
    or the repair's budget, before the search finds a play the judge accepts. Under a time limit
    the hand's own solve gets the time left before `LAY_OFFS_GRACE` past the limit, less what
    the judge needs (`LAY_OFFS_JUDGE`), and at least `LAY_OFFS_SOLVE`."""
    if len(played) == len(position.hand):
        return played, melds  # every card is played: nothing scores more
    if time_limit is None:
        hand_limit, deadline = None, None
    else:
        deadline = start + time_limit + LAY_OFFS_GRACE
        hand_limit = max(deadline - LAY_OFFS_JUDGE - time.perf_counter(), LAY_OFFS_SOLVE)
    beat = score_key(position, objective, played)
    found = judged_lay_offs(position, objective, hand_limit, deadline, beat, max_cards, work_limit)
    return (found[0], list(found[1])) if found is not None else (played, melds)


def _certified(
    position: Position,
    objective: str,
    max_cards: int | None,
    committed: Sequence[int],
    taken: int | None,
    played: list[int],
    melds: list[tuple[Slot, ...]],
    deadline: float | None,
    max_steps: int | None,
) -> tuple[list[int], list[tuple[Slot, ...]], str]:
    """The repaired answer proven by the exhaustive reference (or the reference's better one) on
    a small position (past `CERTIFY_CARDS` cards, within `CERTIFY_STEPS` steps); unchanged and
    ``feasible`` on a larger one or when the reference cannot finish by `deadline` or within
    `max_steps`."""
    cards = len(position.hand) + sum(len(info.cards) for info in position.table)
    if cards > CERTIFY_CARDS_BOUNDED:
        return played, melds, "feasible"
    if cards > CERTIFY_CARDS:
        max_steps = CERTIFY_STEPS if max_steps is None else min(max_steps, CERTIFY_STEPS)
    try:
        exact = reference_solve(
            position.variant,
            position.hand,
            [info.slots for info in position.table],
            opened=position.opened,
            objective=objective,
            max_cards=max_cards,
            committed=committed,
            taken=taken,
            deadline=deadline,
            max_steps=max_steps,
        )
    except ReferenceTimeout:
        return played, melds, "feasible"
    if score_key(position, objective, exact.played) > score_key(position, objective, played):
        return list(exact.played), list(exact.melds), "optimal"
    return played, melds, "optimal"


def _played_from_table(position: Position, melds: Sequence[Sequence[Slot]]) -> list[int]:
    """The hand cards a table holds beyond the start table: table cards never leave it here, so
    this is exact, and it names the physical kind of each wild (Rhine's wild twos are told apart
    by kind; the model only counts them)."""
    new = Counter(c for meld in melds for slot in meld for c in slot.cards())
    start = Counter(c for info in position.table for c in info.cards)
    return sorted((new - start).elements())
