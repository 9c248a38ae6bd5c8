"""Public entry points: `solve` for Python callers and `solve_json` for the CLI's JSON contract."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from rummyai.cards import card_str
from rummyai.errors import RummyError
from rummyai.solvers.black_heart import solve_black_heart
from rummyai.solvers.fast import fast_path_ok, solve_fast
from rummyai.solvers.opening_swaps import opening_swaps_possible, with_opening_swaps
from rummyai.solvers.position import HandInput, Position, Solution, TableInput, check_objective, make_position
from rummyai.solvers.tile_solve import solve_tile
from rummyai.variants import Variant


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
) -> Solution:
    """Best move for `hand` against `table` under `variant`'s rules.

    `objective` is ``cards`` (most cards, ties by points), ``points`` (most points by the
    variant's card values) or ``penalty`` (least penalty left in hand); `minimize_changes` breaks
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
    check_objective(objective)
    position = make_position(variant, hand, table, opened)
    if max_cards is not None:
        if max_cards < 0:
            raise RummyError(f"max_cards must be at least 0, got {max_cards}")
        max_cards = None if max_cards >= len(position.hand) else int(max_cards)  # no cap: fast path
    for name, limit, unit in (
        ("time_limit", time_limit, "seconds"),
        ("work_limit", work_limit, "work units"),
    ):
        if limit is not None and not (limit > 0 and math.isfinite(limit)):
            raise RummyError(f"{name} must be a positive number of {unit}, got {limit}")
    must = sorted(make_position(position.variant, committed).hand) if committed else []
    held = position.hand_counts()
    for card in set(must):
        if must.count(card) > held[card]:
            raise RummyError(f"committed card {card_str(card)} is not in the hand")
    taken_card: int | None = None
    if taken is not None:
        taken_card = make_position(position.variant, [taken]).hand[0]
    rules = position.variant
    if rules.escorts is not None or rules.royale is not None or rules.opening == "chart":
        return solve_black_heart(
            position, objective, time_limit, max_cards, committed=must, score=score, work_limit=work_limit
        )
    if not must and taken_card is None and fast_path_ok(position, max_cards):
        return solve_fast(position, objective, time_limit, minimize_changes, work_limit)

    def tile(at: Position, cap: int | None, committed: Sequence[int]) -> Solution:
        return solve_tile(
            at,
            objective,
            time_limit,
            cap,
            minimize_changes,
            committed=committed,
            taken=taken_card,
            work_limit=work_limit,
        )

    solution = tile(position, max_cards, must)
    if opening_swaps_possible(position):  # Rummy Palace: swaps after the opening's 30
        solution = with_opening_swaps(position, solution, objective, max_cards, tile, must)
    return solution


_KEYS = {"variant", "hand", "table", "opened", "objective", "time_limit", "work_limit", "max_cards", "score"}


def solve_json(obj: dict[str, Any], variant: str | None = None) -> dict[str, Any]:
    """Answer one position in the CLI's JSON form; bad input gives ``{"error": "..."}``.

    Input keys: ``hand`` (tokens or a string), ``table`` (melds as token lists or strings, or
    one ``|``-separated string), ``opened`` (default true), ``objective`` (default ``cards``),
    optional ``variant`` (else the `variant` argument, else ``rummikub``), ``time_limit``,
    ``work_limit``, ``max_cards`` and ``score`` (Black Heart's cumulative score for the opening
    chart). Output keys: ``status``, ``played``, ``melds``, ``cards_played``, ``points_played``,
    ``ms``, and ``swaps`` when a Black Heart move starts with diamond swaps.
    """
    try:
        if not isinstance(obj, dict):
            raise RummyError("a position must be a JSON object")
        unknown = sorted(set(obj) - _KEYS)
        if unknown:
            raise RummyError(f"unknown key(s) {', '.join(map(repr, unknown))} in the position")
        hand = obj.get("hand", [])
        table = obj.get("table", [])
        if not isinstance(hand, (str, list)) or not isinstance(table, (str, list)):
            raise RummyError("'hand' and 'table' must be strings or lists")
        opened = obj.get("opened", True)
        if not isinstance(opened, bool):
            raise RummyError(f"'opened' must be true or false, got {opened!r}")
        limit = obj.get("time_limit")
        work = obj.get("work_limit")
        cards = obj.get("max_cards")
        score = obj.get("score", 0)
        if isinstance(score, bool) or not isinstance(score, int):
            raise RummyError(f"'score' must be an integer, got {score!r}")
        for name, value in (("time_limit", limit), ("work_limit", work), ("max_cards", cards)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
                raise RummyError(f"{name!r} must be a number, got {value!r}")
        solution = solve(
            str(obj.get("variant") or variant or "rummikub"),
            hand,
            table,
            opened=opened,
            objective=str(obj.get("objective", "cards")),
            time_limit=None if limit is None else float(limit),
            work_limit=None if work is None else float(work),
            max_cards=None if cards is None else int(cards),
            score=score,
        )
    except RummyError as error:
        return {"error": str(error)}
    answer: dict[str, Any] = {
        "status": solution.status,
        "played": [card_str(c) for c in solution.played],
        "melds": [[str(slot) for slot in meld] for meld in solution.melds],
        "cards_played": solution.cards_played,
        "points_played": solution.points_played,
        "ms": round(solution.ms, 3),
    }
    if solution.swaps:  # Black Heart diamond swaps, made before the melds are laid
        answer["swaps"] = [
            {
                "meld": meld,
                "diamond": card_str(diamond),
                "replacement": card_str(replacement),
                "escort": None if escort is None else card_str(escort),
            }
            for meld, diamond, replacement, escort in solution.swaps
        ]
    return answer
