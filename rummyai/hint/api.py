"""The hint engine: the best move and a few alternatives, each with the steps a person follows.

`hint(variant, hand, table)` asks the solver for the best move, then for alternatives that a
player may prefer: the best move holding back spare cards (a fourth card of a group, the end of
a run) for later turns, the move worth the most points, and the move that leaves the table as it
is apart from lay-offs. Every answer carries its new table, its steps (`plan_steps`) and a
one-line explanation. Alternatives built here rather than by the solver are checked by the
engine's judge before they are offered. `hint_json` and `format_hint` serve the CLI and HTTP.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from importlib import import_module
from numbers import Real
from typing import Any

from rummyai.cards import Slot, card_str, cards_str, is_kind, parse_slot, rank_of, sorted_cards, suit_of
from rummyai.errors import MeldError, RummyError
from rummyai.hint.position import (
    HandInput,
    HintPosition,
    OptionsInput,
    TableInput,
    position_from_json,
    read_position,
)
from rummyai.hint.steps import JokerSwap, StepPlan, Swap, in_start_order, plan_with_opening, plan_with_swaps
from rummyai.melds import analyze_meld, opening_value
from rummyai.variants import Variant

OBJECTIVES = ("cards", "points", "penalty")
TITLES = {
    "cards": "Most cards",
    "points": "Most points",
    "penalty": "Least penalty left in hand",
    "hold_back": "Hold back spare cards",
    "fewest_changes": "Fewest table changes",
}
MAX_ALTERNATIVES = 5
Meld = tuple[Slot, ...]


class SolverUnavailable(RuntimeError):
    """The solver (`rummyai.solvers`) cannot be imported in this installation."""


@dataclass(frozen=True)
class Suggestion:
    """One move: cards played, the whole new table, the steps to get there and why it is offered.

    `label` is ``best``, ``cards``, ``points``, ``hold_back`` or ``fewest_changes``;
    `held_back` lists the spare cards a ``hold_back`` move keeps in hand.
    """

    label: str
    title: str
    played: tuple[int, ...]
    melds: tuple[Meld, ...]
    plan: StepPlan
    points: int
    status: str
    explanation: str
    held_back: tuple[int, ...] = ()

    @property
    def cards_played(self) -> int:
        """Number of hand cards played."""
        return len(self.played)

    def key(self) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
        """Identity of the move up to meld order and copies: played cards and the table's melds."""
        melds = sorted(tuple(sorted(c for s in m for c in s.cards())) for m in self.melds)
        return tuple(sorted(self.played)), tuple(melds)

    def to_json(self) -> dict[str, Any]:
        """Plain-data form: the solve contract's keys plus steps, meld fates and explanation."""
        return {
            "label": self.label,
            "title": self.title,
            "status": self.status,
            "played": [card_str(c) for c in self.played],
            "melds": [[str(s) for s in m] for m in self.melds],
            "cards_played": self.cards_played,
            "points_played": self.points,
            "held_back": [card_str(c) for c in self.held_back],
            "explanation": self.explanation,
            **self.plan.to_json(),
        }


@dataclass(frozen=True)
class Hint:
    """The answer: the best move first, then alternatives (fewest steps first)."""

    variant: str
    status: str
    best: Suggestion
    alternatives: tuple[Suggestion, ...]
    ms: float
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        """Plain-data form of the hint contract."""
        return {
            "variant": self.variant,
            "status": self.status,
            "best": self.best.to_json(),
            "alternatives": [a.to_json() for a in self.alternatives],
            "notes": list(self.notes),
            "ms": round(self.ms, 3),
        }


# ------------------------------------------------------------------------------ solver and judge
@dataclass(frozen=True)
class _Move:
    played: tuple[int, ...]
    melds: tuple[Meld, ...]
    status: str
    swaps: tuple[Swap, ...] = ()  # Black Heart diamond swaps made first (`Solution.swaps`)
    joker_swaps: tuple[JokerSwap, ...] = ()  # Rummy Palace joker swaps (`palace_swaps.read_swaps`)
    opening_parts: dict[int, Meld] = field(default_factory=dict)  # and the opening's parts of melds
    points: int | None = None  # the solver's points played (a Black Heart Royale counts its table value)


def _solve(
    position: HintPosition,
    objective: str,
    time_limit: float | None,
    hand: Sequence[int] | None = None,
    table: Sequence[Meld] | None = None,
    minimize_changes: bool = True,
) -> _Move:
    solver = solver_module()
    cards = list(position.hand if hand is None else hand)
    melds = list(position.table if table is None else table)
    solution = solver.solve(
        position.variant,
        cards,
        melds,
        opened=position.opened,
        objective=objective,
        time_limit=time_limit,
        minimize_changes=minimize_changes,
        score=position.score,
        committed=list(position.committed),
        taken=position.taken,
    )
    played = tuple(sorted_cards(solution.played))
    jokers: tuple[JokerSwap, ...] = ()
    parts: dict[int, Meld] = {}
    if position.variant.joker_rules.exact_swaps:  # Rummy Palace: the swaps the new table shows
        start = solver.make_position(position.variant, cards, melds, position.opened)
        jokers, parts = import_module("rummyai.solvers.palace_swaps").read_swaps(start, solution)
    melds_after = tuple(tuple(m) for m in solution.melds)
    return _Move(
        played,
        melds_after,
        str(solution.status),
        solution.swaps,
        tuple(jokers),
        dict(parts),
        solution.points_played,
    )


def solver_module() -> Any:
    """The solver's API module (`rummyai.solvers.api`); `SolverUnavailable` where it is not installed."""
    try:
        return import_module("rummyai.solvers.api")
    except ImportError as error:
        raise SolverUnavailable(f"the solver is not available in this installation ({error})") from error


def position_json(position: HintPosition) -> dict[str, Any]:
    """The position in the JSON contract (variant id with its options, tokens, melds)."""
    obj: dict[str, Any] = {
        "variant": position.variant.id,
        "hand": [card_str(c) for c in position.hand],
        "table": [[str(s) for s in m] for m in position.table],
        "opened": position.opened,
    }
    if position.variant.options:
        obj["options"] = sorted(position.variant.options)
    return obj


def judge_function() -> Callable[..., dict[str, Any]] | None:
    """The engine's `judge_json` (the validate contract, with an optional deadline), or None where
    it is not installed."""
    try:
        module = import_module("rummyai.engine.judge")
    except ImportError:
        return None
    function: Callable[..., dict[str, Any]] | None = getattr(module, "judge_json", None)
    return function


def _judge(position: HintPosition, melds: Sequence[Meld], deadline: float | None = None) -> bool | None:
    """Whether the engine's judge finds this new table legal (None when no judge is installed);
    False when it cannot tell by `deadline` (a `time.perf_counter` instant)."""
    judge_json = judge_function()
    if judge_json is None:
        return None
    answer = judge_json(
        {**position_json(position), "new_table": [[str(s) for s in m] for m in melds]}, deadline
    )
    return bool(answer.get("legal"))


def _qualifying(position: HintPosition, move: _Move) -> list[Meld]:
    """Where a player qualifies and then plays on in the same turn (Rhine §1.4), the qualifying
    melds the engine's judge found; empty elsewhere, or without a judge."""
    v = position.variant
    if (
        position.opened
        or not move.played
        or move.opening_parts
        or not v.manipulation
        or v.opening_turn_exclusive
    ):
        return []
    try:
        judge_play = import_module("rummyai.engine.judge").judge_play
    except ImportError:
        return []
    obj = position_json(position)
    new_table = [[str(s) for s in m] for m in move.melds]
    verdict = judge_play(v, obj["hand"], obj["table"], new_table, opened=False)
    return [tuple(parse_slot(t) for t in tokens) for tokens in verdict.opening]


def _opening_parts(
    move: _Move, qualifying: Sequence[Meld], origin: Sequence[int | None] | None
) -> dict[int, Meld] | None:
    """The `qualifying` melds by the index of the new meld holding each, which the steps lay first
    (`5H 6H 7H`, then `8H JK=9H` beside them; a meld with the joker would not qualify, nor would
    `6D 6D JK` laid before `7S 7C 7H`); Rummy Palace's own parts where it has them. None when a
    qualifying meld lies in no new meld that `origin` (`in_start_order`) calls new: the move takes
    it apart again, or grows a start meld around it (`plan_with_opening`)."""
    if move.opening_parts:
        return move.opening_parts
    parts: dict[int, Meld] = {}
    for part in qualifying:
        need = Counter(s.card for s in part)
        for j, meld in enumerate(move.melds):
            have = Counter(c for s in meld for c in s.cards())
            if j in parts or not need <= have or origin is None or origin[j] is not None:
                continue
            parts[j] = part  # laid first, whole or as the part of a larger new meld
            break
        else:
            return None
    return parts


def _qualifies_first(plan: StepPlan, qualifying: Sequence[Meld]) -> bool:
    """Whether the steps lay every qualifying meld's cards from the hand before any step touches
    the table (the routing may have sent a table copy of a card where the opening needs the hand's)."""
    laid: Counter[int] = Counter()
    for step in plan.steps:
        if step.source is not None or step.target is None or plan.origin[step.target] is not None:
            break
        laid.update(step.cards)
    need: Counter[int] = Counter()
    for meld in qualifying:
        need.update(c for s in meld for c in s.cards())
    return not need - laid


def _seconds(limit: object) -> float | None:
    """A time limit as float seconds (None stays None); RummyError unless it is a positive finite
    number (booleans, strings, infinities and integers past the float range are not)."""
    if limit is None:
        return None
    try:
        value = float(limit) if isinstance(limit, Real) and not isinstance(limit, bool) else math.nan
    except OverflowError:
        value = math.inf
    if not 0 < value < math.inf:
        raise RummyError(f"'time_limit' must be a positive number of seconds, got {limit!r}")
    return value


def _plainly_safe(position: HintPosition) -> bool:
    """Whether a move built here is legal as soon as its melds are valid: the player has opened
    and the variant lets jokers move freely, so no joker or opening rule can bite. Elsewhere the
    engine's judge decides (and without a judge such moves are not offered)."""
    v = position.variant
    return (
        v.tile_style
        and position.opened
        and v.joker_rules.free_table_jokers
        and v.max_hand_cards_per_turn is None
    )


# ------------------------------------------------------------------------------ suggestions
def _suggest(
    position: HintPosition,
    label: str,
    move: _Move,
    title: str,
    held_back: Sequence[int] = (),
    deadline: float | None = None,
) -> Suggestion:
    move = _joined_runs(position, move, deadline)
    qualifying = _qualifying(position, move)
    origin = None
    if position.variant.manipulation:  # a rearranged table: its melds where the start's were
        melds, origin = in_start_order(position.table, move.melds)
        move = replace(move, melds=melds)
    parts = _opening_parts(move, qualifying, origin)
    plan = None
    if parts is not None:
        plan = plan_with_swaps(
            position.table,
            move.melds,
            move.swaps,
            opening_first=not position.opened,
            joker_swaps=move.joker_swaps,
            opening_parts=parts,
            committed=position.committed,
            variant=position.variant,
            origin=origin,
        )
    if plan is None or (qualifying and not _qualifies_first(plan, qualifying)):
        # the opening is laid first on its own, then taken apart or built on
        melds, origin = in_start_order((*position.table, *qualifying), move.melds)
        move = replace(move, melds=melds)
        plan = plan_with_opening(position.table, move.melds, qualifying, origin, position.variant)
    values = position.variant.hand_values
    points = sum(values[c] for c in move.played) if move.points is None else move.points
    if not move.played:
        explanation = nothing_played(position.variant, position.opened, move.status == "optimal")
    else:
        # a move that lays no new meld does not open (a Black Heart diamond swap alone, §6.4)
        opens = plan.new_melds or any(step.action == "open" for step in plan.steps)
        verb = "open with" if not position.opened and opens else "play"
        worth = f"{_n(len(move.played), 'card')}, {_n(points, 'point')}"
        if verb == "open with" and position.variant.opening == "points":
            laid = _opening_melds(position, move, qualifying) or [plan.new[j] for j in plan.new_melds]
            worth += f"; {_opening_worth(position.variant, laid)} toward the opening"
        what = f"{verb} {cards_str(move.played)} ({worth})"
        keep = f", keep {cards_str(held_back)} for later" if held_back else ""
        explanation = f"{title}: {what}{keep}; {plan.summary()}."
    return Suggestion(
        label, title, move.played, move.melds, plan, points, move.status, explanation, tuple(held_back)
    )


def _joined_runs(position: HintPosition, move: _Move, deadline: float | None) -> _Move:
    """An opening turn's new runs of one suit that meet (`AH 2H 3H 4H | 5H 6H 7H`) laid as one
    run, as a person would lay them: the solver's opening search leaves them apart. Only on
    tile-style opening turns that leave the table as it is (so every new meld is the hand's),
    only runs of natural cards, and only when the engine's judge accepts the joined table by
    `deadline`; the move is kept otherwise."""
    v = position.variant
    if position.opened or not v.tile_style or not v.opening_turn_exclusive or not move.played:
        return move
    if move.swaps or move.joker_swaps or (deadline is not None and time.perf_counter() >= deadline):
        return move
    start = Counter(tuple(meld) for meld in position.table)
    melds = list(move.melds)
    joined = False
    while True:
        pair = _meeting_runs(v, melds, start)
        if pair is None:
            break
        low, high = pair
        melds[low] = melds[low] + melds[high]
        del melds[high]
        joined = True
    if not joined or not _judge(position, melds, deadline):
        return move
    return replace(move, melds=tuple(melds))


def _meeting_runs(v: Variant, melds: Sequence[Meld], start: Counter[Meld]) -> tuple[int, int] | None:
    """Indexes (lower, higher) of two natural runs of one suit, neither a start meld, where the
    first ends just below where the second begins and both read as one valid run; else None."""
    spans: dict[int, tuple[int, int, int]] = {}
    for k, meld in enumerate(melds):
        if start[tuple(meld)] or any(s.meaning is not None or v.is_wild(s.card) for s in meld):
            continue
        try:
            info = analyze_meld(v, tuple(meld))
        except MeldError:
            continue
        if info.kind == "run":
            spans[k] = (suit_of(meld[0].card), rank_of(meld[0].card), rank_of(meld[-1].card))
    for low, (suit, _, end) in spans.items():
        for high, (other, first, _) in spans.items():
            if low != high and suit == other and first == end + 1:
                try:
                    analyze_meld(v, tuple(melds[low]) + tuple(melds[high]))
                except MeldError:
                    continue
                return low, high
    return None


def _opening_melds(position: HintPosition, move: _Move, qualifying: Sequence[Meld]) -> list[Meld]:
    """The melds an opening turn opens with where it lays more than them: Rhine's qualifying
    melds, or Rummy Palace's new melds but those a joker won by a swap joins (laid once the
    opening is down; `opening_parts` holds the part of such a meld laid before). Empty where
    every new meld is part of the opening."""
    if qualifying:
        return list(qualifying)
    if not move.joker_swaps:
        return []
    joined = {swap[3] for swap in move.joker_swaps}  # the new melds the swapped jokers go to
    start = len(position.table)
    return [
        move.opening_parts.get(j, meld)
        for j, meld in enumerate(move.melds)
        if j >= start and (j in move.opening_parts or j not in joined)
    ]


def _opening_worth(variant: Variant, melds: Sequence[Meld]) -> int:
    """What the melds an opening lays count toward the variant's points opening (its opening
    values: a joker as the card it stands for, or nothing, by the variant), which the hand's
    points beside it need not equal."""
    return sum(opening_value(variant, analyze_meld(variant, tuple(meld))) for meld in melds)


def nothing_played(variant: Variant, opened: bool, proven: bool) -> str:
    """Why the best move plays no card, and what the turn does instead (tile-style turns draw;
    draw-and-discard hands are after the draw, so they discard)."""
    end = "draw" if variant.tile_style else "just discard"
    if not proven:
        return f"No move found within the time limit: {end}, or ask again with more time."
    if opened or variant.opening == "none":  # standard rummy has no opening to make
        return f"No card from your hand can be played: {end}."
    return f"You cannot make your opening with this hand yet: {end}."


def _n(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _hold_back(position: HintPosition, best: Suggestion) -> _Move | None:
    """The best move minus one spare hand card per meld longer than the minimum, if any.

    A spare card is a hand card whose removal leaves its meld valid (the fourth card of a group,
    the end of a run). The move still plays at least one card; the least valuable spare natural
    is kept back first, a wild only when no natural is spare.
    """
    variant = position.variant
    into: dict[int, Counter[int]] = {}
    for step in best.plan.steps:
        if step.action == "play" and step.target is not None:
            into.setdefault(step.target, Counter()).update(step.cards)
    melds = list(best.melds)
    played = Counter(best.played)
    held: list[int] = []
    for j, hand_cards in sorted(into.items()):
        meld = melds[j]
        if len(meld) <= variant.min_meld or sum(played.values()) <= 1:
            continue
        order = sorted(hand_cards, key=lambda c: (variant.is_wild(c), variant.hand_values[c], c))
        done = False
        for card in order:
            for index, slot in enumerate(meld):
                if slot.card != card or slot.escort is not None:
                    continue
                try:
                    info = analyze_meld(variant, meld[:index] + meld[index + 1 :])
                except MeldError:
                    continue
                melds[j] = info.slots
                played[card] -= 1
                held.append(card)
                done = True
                break
            if done:
                break
    if not held:
        return None
    points = best.points - sum(variant.hand_values[c] for c in held)
    return _Move(tuple(sorted_cards(played.elements())), tuple(melds), "feasible", points=points)


def _lay_offs_only(position: HintPosition, objective: str, time_limit: float | None) -> _Move | None:
    """New melds from the hand alone, then lay-offs onto melds left as they are
    (`rummyai.solvers.lay_offs`)."""
    solver = solver_module()
    start = solver.make_position(position.variant, list(position.hand), list(position.table), position.opened)
    found = import_module("rummyai.solvers.lay_offs").lay_offs_play(start, objective, time_limit)
    if found is None:
        return None
    played, melds, status = found
    return _Move(tuple(sorted_cards(played)), tuple(melds), status)


def _remaining(deadline: float | None) -> float | None:
    if deadline is None:
        return None
    return max(deadline - time.perf_counter(), 0.0)


def hint_position(
    position: HintPosition,
    *,
    objective: str = "cards",
    alternatives: int = 3,
    time_limit: float | None = None,
) -> Hint:
    """The hint for a checked position; `time_limit` (seconds) bounds the whole answer."""
    if objective not in OBJECTIVES:
        raise RummyError(f"unknown objective {objective!r} (known: {', '.join(OBJECTIVES)})")
    if not is_kind(alternatives):
        raise RummyError(f"'alternatives' must be an integer 0..{MAX_ALTERNATIVES}, got {alternatives!r}")
    if not 0 <= alternatives <= MAX_ALTERNATIVES:
        raise RummyError(f"'alternatives' must be between 0 and {MAX_ALTERNATIVES}, got {alternatives}")
    alternatives = int(alternatives)
    time_limit = _seconds(time_limit)
    # the solver and its searches load before the clock starts: `ms` is the time spent on this
    # position, and a first hint of the process keeps its time limit
    solver_module().prepare_turn(position.variant, position.opened)
    judge_function()
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    best_move = _solve(position, objective, time_limit)
    best = _suggest(position, "best", best_move, TITLES[objective], deadline=deadline)
    notes: list[str] = []
    if best.status != "optimal":
        why = (
            "the search reached its time limit first"
            if time_limit is not None
            else "the solver found no proof"
        )
        notes.append(f"not proven the best: {why}; this is the best move found")
    found: list[Suggestion] = []
    if alternatives and best.played:
        found = _alternatives(position, objective, best, deadline, notes)
        best, found = _promote(best, found, objective, notes)
    seen = {best.key()}
    unique: list[Suggestion] = []
    for s in found:
        own = _SCORES.get(s.label)  # the other objective's move: shown only when it does better by it
        if own is not None and own(s) <= own(best):
            continue
        if s.played and s.key() not in seen:
            seen.add(s.key())
            unique.append(s)
    unique.sort(key=lambda s: (len(s.plan.steps), -s.cards_played))
    ms = (time.perf_counter() - start) * 1000
    return Hint(position.variant.id, best.status, best, tuple(unique[:alternatives]), ms, tuple(notes))


#: How a suggestion scores by the objectives whose score it carries.
_SCORES: dict[str, Callable[[Suggestion], tuple[int, int]]] = {
    "cards": lambda s: (s.cards_played, s.points),
    "points": lambda s: (s.points, s.cards_played),
}


def _promote(
    best: Suggestion, found: list[Suggestion], objective: str, notes: list[str]
) -> tuple[Suggestion, list[Suggestion]]:
    """When the best move's search was cut short, an alternative that scores more by the
    objective becomes the best move (a quicker search can find more than a cut one)."""
    score = _SCORES.get(objective)
    if best.status == "optimal" or score is None or not found:
        return best, found
    top = max(found, key=score)
    if score(top) <= score(best):
        return best, found
    title = TITLES[objective]
    explanation = title + top.explanation.removeprefix(top.title)
    # still not proven best by this objective; a hold-back of the old best no longer applies
    promoted = replace(top, label="best", title=title, explanation=explanation, status=best.status)
    notes.append(f"the {top.label} alternative beat the cut search: it is shown as the best move")
    return promoted, [s for s in found if s is not top and s.label != "hold_back"]


def _alternatives(
    position: HintPosition, objective: str, best: Suggestion, deadline: float | None, notes: list[str]
) -> list[Suggestion]:
    """Candidate alternatives to `best`; ones that cannot differ from it are not computed at all."""
    candidates: list[tuple[str, Callable[[], _Move | None]]] = []
    other = "points" if objective != "points" else "cards"
    if len(best.played) < len(position.hand):  # playing the whole hand is best by every objective
        candidates.append((other, lambda: _other_objective(position, other, best, deadline)))
    candidates.append(("hold_back", lambda: _hold_back(position, best)))
    if best.plan.melds_with("changed") or best.plan.melds_with("taken_apart"):
        candidates.append(
            ("fewest_changes", lambda: _lay_offs_only(position, objective, _remaining(deadline)))
        )
    found: list[Suggestion] = []
    for label, make in candidates:
        if deadline is not None and time.perf_counter() >= deadline:
            notes.append(f"time limit reached before the {label} alternative")
            continue
        move = make()
        if move is None:
            continue
        if (
            label in _BUILT_HERE
            and not _plainly_safe(position)
            and _judge(position, move.melds, deadline) is not True
        ):
            if deadline is not None and time.perf_counter() >= deadline:
                notes.append(f"time limit reached before the {label} alternative was judged")
            continue
        held = (
            sorted_cards((Counter(best.played) - Counter(move.played)).elements())
            if label == "hold_back"
            else ()
        )
        found.append(_suggest(position, label, move, TITLES[label], held, deadline))
    return found


_BUILT_HERE = ("hold_back", "fewest_changes")


def _other_objective(
    position: HintPosition, objective: str, best: Suggestion, deadline: float | None
) -> _Move | None:
    """The best move by the other objective, or None when it plays the same cards as `best`.

    Its cards are found first without the fewest-changes tie-break (the costly part of a solve);
    only a move that plays other cards is solved again with it, so it is laid out readably.
    """
    quick = _solve(position, objective, _remaining(deadline), minimize_changes=False)
    if Counter(quick.played) == Counter(best.played):
        return None
    if deadline is not None and time.perf_counter() >= deadline:
        return quick  # the time limit is spent (a solve refuses a limit of 0): no tie-break layout
    return _solve(position, objective, _remaining(deadline))


def hint(
    variant: Variant | str,
    hand: HandInput,
    table: TableInput = (),
    *,
    opened: bool = True,
    objective: str = "cards",
    alternatives: int = 3,
    time_limit: float | None = None,
    options: OptionsInput = None,
    score: int = 0,
    committed: HandInput = (),
    taken: str | int | None = None,
) -> Hint:
    """The best move for `hand` against `table` under `variant`, plus up to `alternatives` others.

    `variant` is an id or a `Variant`; cards and melds are text, tokens or card kinds. Raises a
    `RummyError` subclass naming a bad card, meld or variant, `SolverUnavailable` if the solver
    is not installed. `time_limit` (seconds) bounds the whole hint; when it cuts the search the
    answer's status is ``feasible``. `score` is the player's cumulative score (Black Heart's
    opening chart); `committed` are cards that must be played and `taken` the card that may not be
    the discard, after taking from the discards (as in `solve`).
    """
    position = read_position(
        variant, hand, table, opened=opened, options=options, score=score, committed=committed, taken=taken
    )
    return hint_position(position, objective=objective, alternatives=alternatives, time_limit=time_limit)


# ------------------------------------------------------------------------------ JSON and text
HINT_KEYS = ("objective", "alternatives", "time_limit")


def read_hint_request(obj: object) -> tuple[HintPosition, str, int, float | None]:
    """Checked position, objective, number of alternatives and time limit of a JSON hint request."""
    position, extra = position_from_json(obj, HINT_KEYS)
    objective = extra.get("objective", "cards")
    if objective not in OBJECTIVES:
        raise RummyError(f"unknown objective {objective!r} (known: {', '.join(OBJECTIVES)})")
    count = extra.get("alternatives", 3)
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_ALTERNATIVES:
        raise RummyError(f"'alternatives' must be an integer 0..{MAX_ALTERNATIVES}, got {count!r}")
    return position, str(objective), count, _seconds(extra.get("time_limit"))


def hint_json(obj: object) -> dict[str, Any]:
    """Answer a JSON hint request; bad input gives ``{"error": "..."}`` naming the problem.

    Keys: ``variant`` (default ``rummikub``), ``options``, ``hand``, ``table``, ``opened``,
    ``score`` (Black Heart's opening chart), ``committed`` and ``taken`` (as in solve), ``objective``, ``alternatives`` (0..5, default 3) and ``time_limit`` (seconds).
    """
    try:
        position, objective, count, limit = read_hint_request(obj)
        return hint_position(position, objective=objective, alternatives=count, time_limit=limit).to_json()
    except RummyError as error:
        return {"error": str(error)}


def solve_request_json(obj: object) -> dict[str, Any]:
    """The solve contract over a checked position (the CLI's `solve_json` answer, Black Heart
    ``swaps`` included); errors as ``{"error"}``."""
    from rummyai.hint.lanes import JOB_KEYS

    try:
        position_from_json(obj, JOB_KEYS["solve"])  # hint-style messages
        solver = solver_module()
    except RummyError as error:
        return {"error": str(error)}
    answer: dict[str, Any] = solver.solve_json(obj)
    return answer


def format_hint(result: Hint | dict[str, Any]) -> str:
    """Readable text of a hint (a `Hint` or its JSON form): each move, its steps and new table."""
    data = result.to_json() if isinstance(result, Hint) else result
    if "error" in data:
        return f"error: {data['error']}\n"
    lines: list[str] = []
    for n, move in enumerate([data["best"], *data["alternatives"]]):
        if n == 1:
            lines.append("")
            lines.append("Alternatives:")
        indent = "  " if n else ""
        lines.append(f"{indent}{move['explanation']}" + (f" [{data['status']}]" if n == 0 else ""))
        for k, step in enumerate(move["steps"], start=1):
            lines.append(f"{indent}  {k}. {step['text']}")
        if move["played"]:
            table = " | ".join(" ".join(m) for m in move["melds"])
            lines.append(f"{indent}  Table after: {table}")
    for note in data.get("notes", []):
        lines.append(f"note: {note}")
    lines.append(f"({data['ms']:.1f} ms)")
    return "\n".join(lines) + "\n"


__all__ = [
    "Hint",
    "SolverUnavailable",
    "Suggestion",
    "format_hint",
    "hint",
    "hint_json",
    "hint_position",
    "position_json",
    "read_hint_request",
    "solve_request_json",
]
