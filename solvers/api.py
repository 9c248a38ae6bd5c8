"""Public entry points: `solve` for Python callers and `solve_json` for the CLI's JSON contract."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import replace
from importlib import import_module
from numbers import Integral, Real
from typing import Any

from rummyai.cards import read_cards
from rummyai.errors import RummyError, check_flag
from rummyai.solvers.duties import check_duties, check_opening_objective, read_taken
from rummyai.solvers.fast import fast_path_ok, solve_fast
from rummyai.solvers.opening_swaps import opening_swaps_possible, with_opening_swaps
from rummyai.solvers.palace_swaps import joker_swaps
from rummyai.solvers.position import (
    SOLVE_OBJECTIVES,
    HandInput,
    Position,
    Solution,
    TableInput,
    black_heart_rules,
    check_objective,
    make_position,
    time_left,
)
from rummyai.variants import Options, Variant, get_variant


def solve(
    variant: Variant | str,
    hand: HandInput,
    table: TableInput = (),
    *,
    opened: bool = True,
    objective: str = "cards",
    time_limit: float | None = None,
    max_cards: int | None = None,
    minimize_changes: bool = True,
    work_limit: float | None = None,
    committed: HandInput = (),
    taken: str | int | None = None,
    score: int = 0,
    options: Options = None,
) -> Solution:
    """Best move for `hand` against `table` under `variant`'s rules (`options`: its named
    options, as for `rummyai.get_variant`).

    `objective` is ``cards`` (most cards, ties by points), ``points`` (most points, each card
    counted at its hand value: what it would cost left in hand) or ``penalty`` (least penalty
    left in hand); `minimize_changes` breaks
    the remaining ties by keeping as many start melds whole as possible.

    `time_limit` bounds the search in wall-clock seconds; `work_limit` bounds it in CP-SAT's
    deterministic time (about a second of work per unit on a typical core), which does not depend
    on the machine's load: simulations that must replay the same games from the same seed use
    it. Either cut gives the best move found so far with status ``feasible``.

    Draw-and-discard variants (``rummy-palace``, ``standard``) take the hand after the draw:
    table melds only grow (lay-offs) and new melds come from the hand; `committed` lists cards
    that must be played (a card taken from the discard row), `taken` a card that may not be the
    discard; Rummy Palace keeps at least one card back for the discard. Black Heart
    (``black-heart``) reads the opening chart line for the player's cumulative `score` when
    `opened` is false and searches diamond swaps too (`Solution.swaps`; a diamond swapped and
    kept counts as no card played: one card out, one in).
    """
    check_objective(objective, SOLVE_OBJECTIVES)
    check_flag("minimize_changes", minimize_changes)
    hand = read_cards(hand)
    _check_numbers(time_limit=time_limit, work_limit=work_limit, max_cards=max_cards, score=score)
    position = make_position(get_variant(variant, options), hand, table, opened)
    if max_cards is not None:
        if max_cards < 0:
            raise RummyError(f"max_cards must be at least 0, got {max_cards}")
        max_cards = None if max_cards >= len(position.hand) else int(max_cards)  # no cap: fast path
    for name, limit, unit in (
        ("time_limit", time_limit, "seconds"),
        ("work_limit", work_limit, "work units"),
    ):
        if limit is not None and not _positive_finite(limit):
            raise RummyError(f"{name} must be a positive number of {unit}, got {limit}")
    must = sorted(read_cards(committed, "committed")) if committed else []
    taken_card = read_taken(taken)
    check_duties(position.variant, position.hand, must, taken_card, score, max_cards)
    if objective == "opening":
        check_opening_objective(
            position.variant, bool(must) or taken_card is not None or max_cards is not None
        )
        from rummyai.solvers.opening import solve_opening  # CP-SAT: OR-Tools loads here

        start = time.perf_counter()
        solution = solve_opening(position, time_limit, work_limit)
        return _with_joker_swaps(position, replace(solution, ms=(time.perf_counter() - start) * 1000))
    fast = not must and taken_card is None and fast_path_ok(position, max_cards)
    prepare(position.variant, fast)  # start-up work, not counted in `ms` nor in a time limit
    start = time.perf_counter()
    solution = _dispatch(
        position,
        objective,
        time_limit,
        max_cards,
        minimize_changes,
        work_limit,
        must,
        taken_card,
        score,
        fast,
    )
    return _with_joker_swaps(position, replace(solution, ms=(time.perf_counter() - start) * 1000))


def _with_joker_swaps(position: Position, solution: Solution) -> Solution:
    """Rummy Palace: the answer with the joker swaps its table makes named (`Solution.joker_swaps`)."""
    if not position.variant.joker_rules.exact_swaps or not solution.played:
        return solution
    return replace(solution, joker_swaps=joker_swaps(position, solution))


def prepare_turn(variant: Variant, opened: bool) -> None:
    """`prepare` for solves of this variant's turns, opened or not (the hint engine's start-up)."""
    prepare(variant, fast_path_ok(Position(variant, (), (), opened), None))


#: What the general tile path imports on its way (the programs tried before CP-SAT, the lay-offs'
#: floor): about 0.15 s in a fresh process, which `prepare` pays before the clock starts
TILE_PATH = ("tile_solve", "locked_dp", "official_dp", "rhine_dp", "rhine_jokers", "lay_offs")


def prepare(variant: Variant, fast: bool) -> None:
    """Load what a solve of `variant` needs before its clock starts: the compiled program (`fast`:
    an opened free-joker turn), else the CP-SAT models, whose first import of OR-Tools takes about
    0.3 s in a process, the modules of the tile path and of the variant's joker rules, and the
    compiled module its programs run, which would otherwise eat a short time limit. Later calls
    cost nothing."""
    if fast:
        from rummyai.solvers.run_dp import warm  # numba is imported on first use only

        warm(variant)
        return
    from rummyai.solvers.dp_native import kernels  # the programs' compiled module (no numba)

    variant.joker_rules  # noqa: B018 (a cached property: its module loads on first use)
    for name in ("black_heart",) if black_heart_rules(variant) else TILE_PATH:
        import_module(f"rummyai.solvers.{name}")
    kernels()


def _positive_finite(value: float) -> bool:
    """Whether a number is above 0 and finite (an integer past the float range is not)."""
    try:
        return value > 0 and math.isfinite(value)
    except OverflowError:
        return False


def _check_numbers(**values: object) -> None:
    """Limits are real numbers, `max_cards` and `score` integers (None where optional: all but
    `score`)."""
    for name, value in values.items():
        integer = name in ("max_cards", "score")
        kind = Integral if integer else Real
        if (value is None and name == "score") or (
            value is not None and (isinstance(value, bool) or not isinstance(value, kind))
        ):
            raise RummyError(f"{name} must be {'an integer' if integer else 'a number'}, got {value!r}")


def _dispatch(
    position: Position,
    objective: str,
    time_limit: float | None,
    max_cards: int | None,
    minimize_changes: bool,
    work_limit: float | None,
    must: list[int],
    taken_card: int | None,
    score: int,
    fast: bool,
) -> Solution:
    """The solver that fits the variant's rules: Black Heart's model, the fast tile path (`fast`:
    an opened free-joker turn without duties, as `solve` found), or the general tile model (with
    Rummy Palace's opening swaps searched around it)."""
    rules = position.variant
    if black_heart_rules(rules):
        from rummyai.solvers.black_heart import solve_black_heart  # CP-SAT (`prepare` imported it)

        return solve_black_heart(
            position, objective, time_limit, max_cards, committed=must, score=score, work_limit=work_limit
        )
    if fast:
        # the compiled dynamic program proves these in about a millisecond; CP-SAT when it declines
        from rummyai.solvers.run_dp import solve_dp  # numba is imported on first use only

        tidied = minimize_changes and bool(position.table)  # the program breaks the ties itself
        exact = solve_dp(position, objective, tidy=tidied)
        if exact is None and tidied:  # the tie-break's states overflowed: cards first, CP-SAT ties
            tidied, exact = False, solve_dp(position, objective)
        return solve_fast(position, objective, time_limit, minimize_changes, work_limit, exact, tidied)

    from rummyai.solvers.locked_dp import locked_dp_applies, solve_locked_dp  # numba on first use
    from rummyai.solvers.official_dp import official_dp_applies, solve_official_dp
    from rummyai.solvers.rhine_dp import rhine_dp_applies
    from rummyai.solvers.rhine_jokers import solve_rhine_jokers

    start = time.perf_counter()  # one deadline for the program, CP-SAT and Palace's openings
    deadline = None if time_limit is None else start + time_limit
    if not must and taken_card is None:
        # Tile Rummy's locked joker melds and official Rummikub's table jokers: the program
        # proves most positions; Rhine's meld program many (its table jokers' choices searched);
        # CP-SAT the rest
        for applies, program in (
            (locked_dp_applies, solve_locked_dp),
            (official_dp_applies, solve_official_dp),
            (rhine_dp_applies, solve_rhine_jokers),
        ):
            if applies(position, max_cards):
                proven = program(position, objective, minimize_changes, deadline)
                if proven is not None:
                    return proven
    from rummyai.solvers.tile_solve import solve_tile  # CP-SAT (`prepare` imported it)

    def tile(at: Position, cap: int | None, committed: Sequence[int], taken: int | None) -> Solution:
        return solve_tile(
            at,
            objective,
            time_left(start, time_limit),
            cap,
            minimize_changes,
            committed=committed,
            taken=taken,
            work_limit=work_limit,
        )

    solution = tile(position, max_cards, must, taken_card)
    if opening_swaps_possible(position):  # Rummy Palace: swaps after the opening's 30
        solution = with_opening_swaps(
            position, solution, objective, max_cards, tile, must, deadline, taken_card
        )
    return solution


_KEYS = {
    "variant",
    "options",
    "hand",
    "table",
    "opened",
    "objective",
    "time_limit",
    "work_limit",
    "max_cards",
    "score",
    "committed",
    "taken",
    "minimize_changes",
}


def _is_tokens(value: object) -> bool:
    """A string of cards, or a list of card tokens (strings)."""
    return isinstance(value, str) or (isinstance(value, list) and all(isinstance(x, str) for x in value))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_types(obj: dict[str, Any]) -> None:
    """Raise `RummyError` naming the first key whose JSON value has the wrong type.

    JSON positions name cards by their text tokens only: a number in a hand or meld is an
    error here (the Python API's card kinds are not part of the JSON contract).
    """
    unknown = sorted(set(obj) - _KEYS)
    if unknown:
        raise RummyError(f"unknown key(s) {', '.join(map(repr, unknown))} in the position")
    for name in ("variant", "objective"):
        if name in obj and not isinstance(obj[name], str):
            raise RummyError(f"{name!r} must be a string, got {obj[name]!r}")
    if not _is_tokens(obj.get("hand", [])):
        raise RummyError("'hand' must be a string of cards or a list of card tokens (strings)")
    if not _is_tokens(obj.get("committed", [])):
        raise RummyError("'committed' must be a string of cards or a list of card tokens (strings)")
    if obj.get("taken") is not None and not isinstance(obj["taken"], str):
        raise RummyError(f"'taken' must be one card token (a string), got {obj['taken']!r}")
    table = obj.get("table", [])
    if not (isinstance(table, str) or (isinstance(table, list) and all(_is_tokens(m) for m in table))):
        raise RummyError(
            "'table' must be a string of melds separated by '|' or a list of melds (lists of card tokens)"
        )
    options = obj.get("options")
    if options is not None and not (
        isinstance(options, dict) or (isinstance(options, list) and all(isinstance(o, str) for o in options))
    ):
        raise RummyError(f"'options' must be a list of 'name[=value]' strings or an object, got {options!r}")
    for name in ("opened", "minimize_changes"):
        if not isinstance(obj.get(name, True), bool):
            raise RummyError(f"{name!r} must be true or false, got {obj[name]!r}")
    for name in ("score", "max_cards"):
        if obj.get(name) is not None and not _is_int(obj[name]):
            raise RummyError(f"{name!r} must be an integer, got {obj[name]!r}")
    for name in ("time_limit", "work_limit"):
        value = obj.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
            raise RummyError(f"{name!r} must be a number, got {value!r}")


def solve_json(obj: dict[str, Any], variant: str | None = None) -> dict[str, Any]:
    """Answer one position in the CLI's JSON form; bad input gives ``{"error": "..."}``.

    Input keys: ``hand`` (tokens or a string), ``table`` (melds as token lists or strings, or
    one ``|``-separated string), ``opened`` (default true), ``objective`` (default ``cards``),
    optional ``variant`` (else the `variant` argument, else ``rummikub``) with its ``options``
    (a list of ``name[=value]`` or an object), ``time_limit``, ``work_limit``, ``max_cards``,
    ``score`` (Black Heart's cumulative score for the opening chart), ``minimize_changes`` (default
    true: among the best plays, one that keeps the most start melds whole), and on draw-and-discard
    turns ``committed`` (cards that must be played, as after taking from the discard row) and
    ``taken`` (the card taken, which may not be the discard). Output: `Solution.to_json`.
    """
    try:
        if not isinstance(obj, dict):
            raise RummyError("a position must be a JSON object")
        if "hand" not in obj:
            raise RummyError("missing field(s): hand")
        _check_types(obj)
        limit, work, cards = obj.get("time_limit"), obj.get("work_limit"), obj.get("max_cards")
        named = obj.get("variant")  # an empty name is an unknown variant, not the default
        rules = get_variant(variant or "rummikub" if named is None else named, obj.get("options"))
        opened = obj.get("opened", True)
        solution = solve(
            rules,
            obj.get("hand", []),
            obj.get("table", []),
            opened=opened,
            objective=obj.get("objective", "cards"),
            time_limit=limit,
            work_limit=work,
            max_cards=cards,
            score=obj.get("score", 0),
            committed=obj.get("committed", ()),
            taken=obj.get("taken"),
            minimize_changes=obj.get("minimize_changes", True),
        )
    except RummyError as error:
        return {"error": str(error)}
    return solution.to_json()
