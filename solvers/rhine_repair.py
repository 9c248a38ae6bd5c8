"""Rhine Rummy: repair a model table that the engine's judge rejects (joker rules R3-R5).

The tile model relaxes the rules that depend on which start meld a card came from. When the
judge rejects its best table, `rhine_repair` asks a strict model (witness cards no copy
assignment reads otherwise) for a table at the relaxation's bound, solves a tighter relaxation
(explicit witness melds for the broken joker melds), tries another layout of a rejected table
before cutting it off, keeps the jokers the judge names as refused (a restriction, a floor),
uses the strict and always-legal models (jokers kept whole) as floors, and last judges the
tables its search passed on the way; ``optimal`` needs a proof.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ortools.sat.python import cp_model

from rummyai.cards import Slot
from rummyai.solvers.check import judge, judged_legal
from rummyai.solvers.position import Position, count_broken, score_key
from rummyai.solvers.tile_decode import Assignment, decode, pooled_layouts
from rummyai.solvers.tile_model import TileModel, solve_model
from rummyai.solvers.tile_model_parts import LinearExpr

MAX_CUTS = 8  # rejected tables cut off before the repair gives up
# in Rhine (after the strict model's floor), where every cut after the first is a wide one
RHINE_CUTS = 20
SAFE_AFTER = 2  # rejections before the always-legal models are asked for a floor
RHINE_WORK = 1.0  # CP-SAT deterministic time spent cutting them when no time limit is given
TIDY_WORK = 0.2  # at most this much of it on keeping start melds whole at the found value
TIDY_TRIES = 2  # tidy tables judged before the untidy one stays
LAYOUTS = 12  # placements of pooled jokers judged per rejected assignment
# Under a time limit t the searches stop at t; judging a table found in time may go on this
# many seconds past it, so a cut search still answers a judged-legal move within t + 0.3 s
VERIFY_GRACE = 0.2
LATE_SOLVE = 0.05  # seconds a floor model may still solve once the limit has passed
# Rhine's proof model (`_swap_proof`): CP-SAT work it may spend besides RHINE_WORK when no time
# limit is given, and how many legal tables it may find before it gives up
PROOF_WORK = 0.25
PROOF_ROUNDS = 3
EARLIER_JUDGED = 24  # solutions of the search judged at the end, when no answer is proven


def cut(tm: TileModel, solver: cp_model.CpSolver, wide: bool = False) -> None:
    """Forbid the current assignment: a no-good over every variable, or (`wide`) over
    `TileModel.joker_vars` only, which also forbids every other table with the same played cards
    and jokers where they stood (the same joker plan laid out around other melds)."""
    variables = tm.joker_vars() if wide else tm.decision_vars()
    differs = [tm.differs(var, solver.value(var)) for var in variables]
    tm.model.add_bool_or([d for d in differs if d is not None])


def _lex(tm: TileModel, objective: str) -> LinearExpr:
    """The primary objective as one expression (cards then points, or points then cards)."""
    max_points = sum(tm.variant.hand_values[c] for c in tm.position.hand) + 1
    max_cards = len(tm.position.hand) + 1
    if objective == "cards":
        return tm.cards_expr * max_points + tm.points_expr
    return tm.points_expr * max_cards + tm.cards_expr


def _lex_value(position: Position, objective: str, score: tuple[int, int]) -> int:
    """`_lex` of a play with this `score_key`."""
    max_points = sum(position.variant.hand_values[c] for c in position.hand) + 1
    max_cards = len(position.hand) + 1
    return score[0] * (max_points if objective == "cards" else max_cards) + score[1]


@dataclass
class _Budget:
    """What the Rhine repair may still spend: wall-clock seconds under a time limit, else
    CP-SAT's deterministic work (so that the same position gets the same answer however loaded
    the machine is)."""

    time_limit: float | None
    start: float
    work: float
    spent: float = 0.0

    @property
    def deadline(self) -> float | None:
        """The `time.perf_counter()` value the judge stops at under a time limit (the limit plus
        `VERIFY_GRACE`, so that a table found in time can still be judged), else None."""
        return None if self.time_limit is None else self.start + self.time_limit + VERIFY_GRACE

    def late(self) -> bool:
        """Past the limit and half the grace: too late for another model to be built and judged."""
        if self.time_limit is None:
            return False
        return time.perf_counter() - self.start > self.time_limit + VERIFY_GRACE / 2

    def left(self) -> float:
        if self.time_limit is not None:
            return self.time_limit - (time.perf_counter() - self.start)
        return self.work - self.spent

    def solve(
        self,
        tm: TileModel,
        cap: float | None = None,
        late: bool = False,
        seen: _Incumbents | None = None,
    ) -> tuple[cp_model.CpSolver, Any]:
        """Solve within what is left (`cap` at most); `late`: a floor model that may still use
        a little of the grace time once the limit has passed (it is small and quick); `seen`
        keeps the solutions found on the way."""
        room = self.left() if cap is None else min(self.left(), cap)
        if late and self.time_limit is not None:
            room = max(room, min(LATE_SOLVE, self.left() + VERIFY_GRACE / 2))
        room = max(room, 0.001)
        if self.time_limit is not None:
            return solve_model(tm, room, callback=seen)
        solver, status = solve_model(tm, None, work=room, callback=seen)
        self.spent += solver.deterministic_time
        return solver, status


class _Values:
    """One solution's variable values, read as a solver reads its last one (`value`)."""

    def __init__(self, values: list[int]) -> None:
        self.values = values

    def value(self, var: Any) -> int:
        index = var.index
        return self.values[index] if index >= 0 else 1 - self.values[-index - 1]


class _Incumbents(cp_model.CpSolverSolutionCallback):
    """Every solution the solves of one model find on their way to their answers: tables worth
    less than a refused answer that the judge may accept."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[_Values] = []

    def on_solution_callback(self) -> None:
        self.found.append(_Values(list(self.response_proto.solution)))


def _earlier_legal(
    position: Position,
    objective: str,
    tm: TileModel,
    seen: _Incumbents,
    best: tuple[int, int],
    deadline: float | None,
) -> tuple[list[int], list[tuple[Slot, ...]], tuple[int, int]] | None:
    """The best judged-legal table among the solutions `seen` kept of `tm`, if one beats `best`:
    the most valuable first, each table once, at most `EARLIER_JUDGED` of them judged."""
    scored: dict[tuple[str, ...], tuple[tuple[int, int], list[int], _Values, list[tuple[Slot, ...]]]] = {}
    for values in seen.found:
        played, melds, _ = decode(tm, values)
        score = score_key(position, objective, played)
        if score > best:
            scored.setdefault(_table_key(melds), (score, played, values, melds))
    ranked = sorted(scored.values(), key=lambda row: row[0], reverse=True)
    for score, played, values, decoded in ranked[:EARLIER_JUDGED]:
        legal = _legal_table(position, tm, values, deadline, decoded)
        if legal is not None:
            return played, legal, score
    return None


def _keeping(
    position: Position,
    objective: str,
    tm: TileModel,
    culprit: int,
    assumed: list[Any],
    budget: _Budget,
) -> tuple[list[int], list[tuple[Slot, ...]], tuple[int, int]] | None:
    """The model's best table with the joker of start meld `culprit` not released, nor those of
    the melds `assumed` already holds (one literal each, assumed for this solve only), if the
    judge accepts it: its played cards, layout and score."""
    literal = tm.model.new_bool_var(f"keep{culprit}")
    tm.model.add(tm.released[culprit] == 0).only_enforce_if(literal)
    assumed.append(literal)
    tm.model.add_assumptions(assumed)
    found, status = budget.solve(tm)
    tm.model.clear_assumptions()
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    played = decode(tm, found)[0]
    melds = _legal_table(position, tm, found, budget.deadline)
    return None if melds is None else (played, melds, score_key(position, objective, played))


def _table_key(melds: list[tuple[Slot, ...]]) -> tuple[str, ...]:
    """A table's melds as one value, the same for the same melds in any order."""
    return tuple(sorted(" ".join(map(str, meld)) for meld in melds))


def _legal_table(
    position: Position,
    tm: TileModel,
    solver: Assignment,
    deadline: float | None,
    decoded: list[tuple[Slot, ...]] | None = None,
) -> list[tuple[Slot, ...]] | None:
    """A judged-legal layout of the model's current assignment, or None (`_judged_layout`)."""
    return _judged_layout(position, tm, solver, deadline, decoded)[0]


def _judged_layout(
    position: Position,
    tm: TileModel,
    solver: Assignment,
    deadline: float | None,
    decoded: list[tuple[Slot, ...]] | None = None,
) -> tuple[list[tuple[Slot, ...]] | None, int | None]:
    """A judged-legal layout of the model's current assignment: the decoded table (`decoded`
    when the caller has it), the same melds without wild-free melds merged onto joker melds,
    then (pooled jokers) up to `LAYOUTS` tables with the jokers in other melds' copies of the
    cards they stand for. Else None, with the start meld whose joker the judge named in refusing
    the decoded table (Rhine R4), if it named one."""
    melds = decode(tm, solver)[1] if decoded is None else decoded
    verdict = judge(position, melds, deadline)
    if verdict.legal:
        return melds, None
    plain = decode(tm, solver, merge=False)[1]
    if plain != melds and judged_legal(position, plain, deadline):
        return plain, None
    for other in pooled_layouts(tm, solver, LAYOUTS):
        if other not in (melds, plain) and judged_legal(position, other, deadline):
            return other, None
    return None, verdict.start_meld


def rhine_repair(
    position: Position,
    objective: str,
    time_limit: float | None,
    max_cards: int | None,
    minimize_changes: bool,
    tm: TileModel,
    bound: tuple[int, int] | None,
    start: float,
    work_limit: float | None = None,
    per_meld_jokers: bool = False,
) -> tuple[list[int], list[tuple[Slot, ...]], str]:
    """The relaxed Rhine model's best table failed the judge (`per_meld_jokers`: the witness
    model places its jokers per meld instead of pooling them per card kind; see `solve_tile`).

    0. Rhine: the strict witness model (witness cards every copy assignment reads alike, R5b
       spots avoided; a restriction) is asked for a table worth `bound`: judged legal, it is
       optimal. Else its own best judged-legal table is the floor the search must beat.
    1. The witness model (`TileModel` with `witnesses`) on the primary objective alone, required
       to beat the best legal answer so far, is searched: a judged-legal answer raises the bar, a
       rejected one is cut off (no-good over every variable, after trying the unmerged layout,
       the strict model at the same value and, where the judge names the start meld whose
       joker it refused under R4, the best table keeping that joker and those named before,
       `_keeping`; in Rhine every later cut forbids the rejected table's played cards and
       joker places, `cut(wide=True)`). Its first optimum, before any cut, is a valid
       bound (tighter than `bound`, the first model's), and nothing better than the best legal
       answer before any cut proves it too.
    2. After `SAFE_AFTER` rejections (or at the end) two always-legal models (table jokers kept
       in their whole melds, none from the hand; or the table only grown) give a floor; judged.
    3. Nothing proven yet: the solutions the witness search found on its way to its answers
       (`_Incumbents`) are judged, the most valuable first; a legal one above the best so far is
       the answer. Judged last, they change no search above.
    4. An answer equal to the bound is ``optimal``; running out of budget, cuts or answers
       leaves ``feasible``. With `minimize_changes`, the tidy phase then keeps the primary
       value fixed and keeps as many start melds whole as it can (judged, else untouched).
    """
    # under a time limit the repair ends with it; else it gets at most RHINE_WORK of CP-SAT work
    budget = _Budget(time_limit, start, RHINE_WORK if work_limit is None else min(RHINE_WORK, work_limit))
    duties = {"opening": tm.opening, "committed": tm.committed, "taken": tm.taken}
    strict = position.variant.joker_rules.accompaniment
    best_played: list[int] = []
    best_melds: list[tuple[Slot, ...]] = []
    if strict and bound is not None and budget.left() > 0:
        at_bound = _strict(position, objective, max_cards, minimize_changes, bound, budget, duties)
        if at_bound is not None:
            return at_bound[0], at_bound[1], "optimal"
    if strict and budget.left() > 0:
        # the strict model's own best: a judged-legal floor, often the answer
        floor = _strict(position, objective, max_cards, False, None, budget, duties)
        if floor is not None:
            best_played, best_melds = floor
    strict_tried = {bound}
    # the proof model gets its own work, so that the search below takes the same path with it
    proof = _Budget(time_limit, start, PROOF_WORK if work_limit is None else min(PROOF_WORK, work_limit))
    proven = False
    if strict and proof.left() > 0:
        # under a time limit, at most half of what is left: the search below shares the clock
        share = None if time_limit is None else proof.left() / 2
        best_played, best_melds, proven = _swap_proof(
            position, objective, max_cards, best_played, best_melds, proof, duties, share
        )
    best = score_key(position, objective, best_played)
    # (no time left: no search, only the floors below)
    search = (
        TileModel(
            position, objective, max_cards, False, witnesses=True, per_meld_jokers=per_meld_jokers, **duties
        )
        if budget.left() > 0
        else tm
    )
    # The witness model is a relaxation with any number of joker melds: Rhine's witness claims
    # exclude each other only within a role (joker melds that trade replacements, '2S 3S JK=4S |
    # JK=2S 3S 4S' into '2S 3S 4S', are in it), official Rummikub's taken jokers only ask what
    # every judged-legal table has, and Tile Rummy's model is the first one. So its optimum
    # before any cut bounds the answer.
    lex = _lex(search, objective)
    seen = _Incumbents()  # every solution of the search, judged at the end if nothing better is
    cuts = 0
    safe_done = False
    max_cuts = RHINE_CUTS if strict else MAX_CUTS
    kept_tried: set[int] = set()
    assumed: list[Any] = []
    while not proven and budget.left() > 0 and cuts <= max_cuts:
        if cuts >= SAFE_AFTER and not safe_done:
            safe_done = True
            played, melds = _safe_answer(position, objective, max_cards, budget, duties)
            score = score_key(position, objective, played)
            if score > best:
                best_played, best_melds, best = played, melds, score
                proven = bound is not None and best == bound
                continue
        search.model.add(lex >= _lex_value(position, objective, best) + 1)
        kept = len(seen.found)
        found, status = budget.solve(search, seen=seen)
        if status == cp_model.INFEASIBLE and cuts == 0:
            proven = True  # the relaxation (no cut yet) has nothing better than `best`
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            break
        if len(seen.found) > kept:
            seen.found.pop()  # the solve's answer, `found`, judged below: only those before it wait
        played = decode(search, found)[0]
        score = score_key(position, objective, played)
        if status == cp_model.OPTIMAL and cuts == 0 and (bound is None or score < bound):
            bound = score  # the witness model's optimum: a tighter relaxation bound
        melds_ok, culprit = _judged_layout(position, search, found, budget.deadline)
        if melds_ok is not None:
            best_played, best_melds, best = played, melds_ok, score
            proven = bound is not None and score == bound
            continue
        if strict and score not in strict_tried:
            # the same value with witness cards no copy assignment reads otherwise
            strict_tried.add(score)
            other = _strict(position, objective, max_cards, False, score, budget, duties)
            if other is not None:
                best_played, best_melds, best = other[0], other[1], score
                proven = bound is not None and score == bound
                continue
        if strict and culprit is not None and culprit not in kept_tried and culprit in search.released:
            # the judge refused the joker of start meld `culprit` (R4): the best table keeping
            # it and every joker refused before (a restriction: a floor, proven at the bound)
            kept_tried.add(culprit)
            keeping = _keeping(position, objective, search, culprit, assumed, budget)
            if keeping is not None and keeping[2] > best:
                best_played, best_melds, best = keeping
                proven = bound is not None and best == bound
                continue
        # Rhine: a refused joker plan is usually refused however the other melds are laid out,
        # and full no-goods only walk through those layouts; so after the first cut, forbid the
        # plan. Cuts never touch the proof: it comes from the uncut relaxation's bound alone
        cut(search, found, wide=strict and cuts > 0)
        cuts += 1
    if strict and not proven and proof.left() > 0:
        best_played, best_melds, proven = _swap_proof(
            position, objective, max_cards, best_played, best_melds, proof, duties
        )
        best = score_key(position, objective, best_played)
    if strict and not proven and budget.left() > 0:
        # wilds in new melds whose naturals no start meld holds all kinds of: R5 read on kinds,
        # a restriction that finds the plays whose hand wilds the cuts kept refusing
        half = budget.left() / 2  # the rest for the tidy phase
        spread = _strict(position, objective, max_cards, False, None, budget, duties, spread=True, cap=half)
        if spread is not None and score_key(position, objective, spread[0]) > best:
            best_played, best_melds, best = spread[0], spread[1], score_key(position, objective, spread[0])
            proven = bound is not None and best == bound
    if not safe_done and not proven:
        played, melds = _safe_answer(position, objective, max_cards, budget, duties)
        if score_key(position, objective, played) > best:
            best_played, best_melds, best = played, melds, score_key(position, objective, played)
    if not proven:
        # a solution the search passed on its way to a refused table, judged last so that it
        # changes no search above: a better floor, proven when it reaches the bound
        earlier = _earlier_legal(position, objective, search, seen, best, budget.deadline)
        if earlier is not None:
            best_played, best_melds, best = earlier
            proven = bound is not None and best == bound
            if strict and not proven and proof.left() > 0:
                best_played, best_melds, proven = _swap_proof(
                    position, objective, max_cards, best_played, best_melds, proof, duties
                )
                best = score_key(position, objective, best_played)
    if minimize_changes and best_played and budget.left() > 0:
        best_melds = _tidy(position, objective, max_cards, best, best_melds, budget, duties)
    return best_played, best_melds, "optimal" if proven else "feasible"


def _swap_proof(
    position: Position,
    objective: str,
    max_cards: int | None,
    played: list[int],
    melds: list[tuple[Slot, ...]],
    budget: _Budget,
    duties: dict[str, Any],
    cap: float | None = None,
) -> tuple[list[int], list[tuple[Slot, ...]], bool]:
    """Rhine: the witness model without the claims a swap of two identical copies would undo
    (`TileModel` with `read_swaps`), never cut, asked for a play better than the judged-legal
    one given. It is a relaxation, so finding none proves that play optimal; a table it finds
    is judged, and a legal one is the new answer (optimal when it is the model's optimum) and
    the model is asked again, at most `PROOF_ROUNDS` times, each solve within `cap` of the
    budget. Returns the answer and whether it is proven."""
    best = score_key(position, objective, played)
    tight = TileModel(position, objective, max_cards, False, witnesses=True, read_swaps=True, **duties)
    lex = _lex(tight, objective)
    for _ in range(PROOF_ROUNDS):
        if budget.left() <= 0:
            break
        tight.model.add(lex >= _lex_value(position, objective, best) + 1)
        found, status = budget.solve(tight, cap)
        if status == cp_model.INFEASIBLE:
            return played, melds, True
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            break
        legal = _legal_table(position, tight, found, budget.deadline)
        if legal is None:
            break
        played, melds = decode(tight, found)[0], legal
        best = score_key(position, objective, played)
        if status == cp_model.OPTIMAL:
            return played, melds, True
    return played, melds, False


def _strict(
    position: Position,
    objective: str,
    max_cards: int | None,
    minimize_changes: bool,
    value: tuple[int, int] | None,
    budget: _Budget,
    duties: dict[str, Any],
    spread: bool = False,
    cap: float | None = None,
) -> tuple[list[int], list[tuple[Slot, ...]]] | None:
    """A judged-legal table worth at least `value` (None: its best) from the strict witness
    model (witness cards every copy assignment reads alike: a restriction of the rules, so it
    may find none), or None. `spread`: also R5 for new melds with a wild, read on card kinds
    (`TileModel.spread_wilds`), which the strict model leaves to the judge; `cap`: at most this
    much of the budget."""
    model = TileModel(
        position, objective, max_cards, minimize_changes, strict=True, spread_wilds=spread, **duties
    )
    if value is not None:
        model.model.add(_lex(model, objective) >= _lex_value(position, objective, value))
    found, status = budget.solve(model, cap)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    played = decode(model, found)[0]
    if value is not None and score_key(position, objective, played) < value:
        return None
    melds = _legal_table(position, model, found, budget.deadline)
    return None if melds is None else (played, melds)


def _safe_answer(
    position: Position, objective: str, max_cards: int | None, budget: _Budget, duties: dict[str, Any]
) -> tuple[list[int], list[tuple[Slot, ...]]]:
    """The better judged-legal answer of two always-legal models: the table rearranged with its
    jokers kept in their whole melds and none from the hand, or the table only grown. `duties`
    (opening turn, committed and taken cards) are the first model's, as in every repair model."""
    best: tuple[list[int], list[tuple[Slot, ...]]] = ([], [])
    for rearrange in (True, False):
        if budget.late():
            break
        safe = TileModel(
            position, objective, max_cards, False, safe=rearrange, safe_fixed=not rearrange, **duties
        )
        found, status = budget.solve(safe, late=True)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            continue
        played, melds, _ = decode(safe, found)
        better = score_key(position, objective, played) > score_key(position, objective, best[0])
        if better and judged_legal(position, melds, budget.deadline):
            best = (played, melds)
    return best


def _tidy(
    position: Position,
    objective: str,
    max_cards: int | None,
    best: tuple[int, int],
    melds: list[tuple[Slot, ...]],
    budget: _Budget,
    duties: dict[str, Any],
) -> list[tuple[Slot, ...]]:
    """Keep more start melds whole at the same primary value: the full model with the played
    cards' count and points fixed; judged, else the given table stays."""
    tidy = TileModel(position, objective, max_cards, True, witnesses=True, **duties)
    cards, points = best if objective == "cards" else best[::-1]
    tidy.model.add(tidy.cards_expr == cards)
    tidy.model.add(tidy.points_expr == points)
    have = count_broken(position, melds)
    for _ in range(TIDY_TRIES):
        found, status = budget.solve(tidy, TIDY_WORK)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            break
        new_melds = _legal_table(position, tidy, found, budget.deadline)
        if new_melds is None:
            cut(tidy, found)
            continue
        if count_broken(position, new_melds) < have:
            return new_melds
        break
    return melds
