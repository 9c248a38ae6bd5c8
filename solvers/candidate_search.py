"""Solver answers for the environments' candidate lists: the same answers as `solve`, with less work
per call.

An environment asks the solver once or twice per decision, on positions built from engine states
(valid tables, hands the deck holds), so `solve_position` skips the text parsing and input checks
and, where `solve` would ask the compiled dynamic program (`rummyai.solvers.run_dp.solve_dp`) and
return its answer unchanged, asks it directly. Where a variant caps the hand cards played per turn
(rummy-board's 12) and the playable hand exceeds the cap, the program declines; the best play of
the same position without the cap is then asked of the program, and when it plays no more cards
than the cap it is also the best capped play (the best of a larger set of plays that lies in the
smaller set). Everything else goes to `solve`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rummyai.cards import Slot
from rummyai.melds import MeldInfo, analyze_meld, opening_problem, opening_value
from rummyai.solvers.fast import fast_path_ok
from rummyai.solvers.position import Position, Solution
from rummyai.variants import Variant

_UNCAPPED: dict[int, tuple[Variant, Variant]] = {}


def uncapped(variant: Variant) -> Variant:
    """`variant` without its cap on hand cards per turn (one object per variant, kept)."""
    known = _UNCAPPED.get(id(variant))
    if known is None or known[0] is not variant:
        known = (variant, replace(variant, max_hand_cards_per_turn=None))
        _UNCAPPED[id(variant)] = known
    return known[1]


_INFOS: dict[int, tuple[Variant, Sequence[Slot], MeldInfo]] = {}


def _info(variant: Variant, meld: Sequence[Slot]) -> MeldInfo:
    """`analyze_meld` remembered per meld object: a caller that hands the same tuple for a table meld
    that stays (the environments do) skips even the memo's hashing of its slots."""
    known = _INFOS.get(id(meld))
    if known is not None and known[1] is meld and known[0] is variant:
        return known[2]
    info = analyze_meld(variant, tuple(meld))
    if len(_INFOS) > 50_000:
        _INFOS.clear()
    _INFOS[id(meld)] = (variant, meld, info)
    return info


def solve_position(
    variant: Variant,
    hand: Sequence[int],
    table: Sequence[Sequence[Slot]],
    *,
    opened: bool,
    objective: str,
    work_limit: float | None,
    minimize_changes: bool,
) -> Solution:
    """The answer `rummyai.solvers.solve` gives for a valid position (hand card kinds, table melds as
    slots), found with less overhead where the dynamic program answers it."""
    exact = _exact(variant, hand, table, opened, objective)
    if exact is not None and not (minimize_changes and exact.melds_broken):
        return exact
    from rummyai.solvers import solve

    return solve(
        variant,
        list(hand),
        list(table),
        opened=opened,
        objective=objective,
        work_limit=work_limit,
        minimize_changes=minimize_changes,
    )


def _exact(
    variant: Variant, hand: Sequence[int], table: Sequence[Sequence[Slot]], opened: bool, objective: str
) -> Solution | None:
    """The dynamic program's proven answer, or None where it does not apply."""
    from rummyai.solvers.run_dp import dp_supported, solve_dp

    if not dp_supported(variant):
        return None
    if not opened:
        return opening_play(variant, hand, table, objective)
    infos = tuple(_info(variant, meld) for meld in table)
    cap = variant.max_hand_cards_per_turn
    rules = variant if cap is None or len(hand) <= cap else uncapped(variant)
    position = Position(rules, tuple(sorted(hand)), infos, True)
    if not fast_path_ok(position, None):
        return None
    exact = solve_dp(position, objective)
    if exact is None or (cap is not None and exact.cards_played > cap):
        return None
    return exact


def opening_play(
    variant: Variant, hand: Sequence[int], table: Sequence[Sequence[Slot]], objective: str
) -> Solution | None:
    """An opening turn of a points opening: the best play of new melds from the hand alone (the
    program on an empty table); when it opens (enough points, every meld allowed in an opening) it
    is the best opening, laid beside the table. None otherwise."""
    from rummyai.solvers.run_dp import solve_dp

    if variant.opening != "points" or not variant.opening_turn_exclusive:
        return None
    cap = variant.max_hand_cards_per_turn
    rules = variant if cap is None or len(hand) <= cap else uncapped(variant)
    position = Position(rules, tuple(sorted(hand)), (), True)
    if not fast_path_ok(position, None):
        return None
    best = solve_dp(position, objective)
    if best is None or not best.cards_played or (cap is not None and best.cards_played > cap):
        return None
    infos = [_info(variant, meld) for meld in best.melds]
    if any(opening_problem(variant, info) for info in infos):
        return None
    values = [opening_value(variant, info) for info in infos]
    enough = max(values) if variant.opening_single_meld else sum(values)
    if enough < variant.opening_points:
        return None
    start = tuple(tuple(meld) for meld in table)
    return replace(best, melds=start + best.melds)
