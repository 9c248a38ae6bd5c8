"""Solver answers for the environments' candidate lists: the same answers as `solve`, with less work
per call.

An environment asks the solver once or twice per decision, on positions built from engine states
(valid tables, hands the deck holds), so `solve_position` skips the text parsing and input checks
and, where `solve` would ask the compiled dynamic program (`rummyai.solvers.run_dp.solve_dp`) and
return its answer unchanged, asks it directly. Where a variant caps the hand cards played per turn
(rummy-board's 12) and the playable hand exceeds the cap, the program declines; the best play of
the same position without the cap is then asked of the program, and when it plays no more cards
than the cap it is also the best capped play (the best of a larger set of plays that lies in the
smaller set). A position without any joker plays the same under any joker rules, so where the
variant locks jokers (rummy-tiles) such a position is answered as under free jokers. An unopened
seat of a points opening gets the best play of new melds from its hand when that play opens.
Everything else goes to `solve`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rummyai.cards import JOKER, Slot
from rummyai.melds import MeldInfo, analyze_meld, opening_problem, opening_value
from rummyai.solvers.fast import fast_path_ok
from rummyai.solvers.position import Position, Solution
from rummyai.variants import Variant

_TWINS: dict[tuple[int, bool, bool], tuple[Variant, Variant]] = {}


def twin(variant: Variant, *, cap: bool = True, joker_rules: bool = True) -> Variant:
    """`variant` without its cap on hand cards per turn (`cap` False) and with free jokers instead
    of its own joker rules (`joker_rules` False; what a position without any joker plays the same
    under). One object per variant and form, kept."""
    key = (id(variant), cap, joker_rules)
    known = _TWINS.get(key)
    if known is None or known[0] is not variant:
        other = variant if cap else replace(variant, max_hand_cards_per_turn=None)
        if not joker_rules:
            other = replace(
                other,
                joker_policy="free",
                max_wilds_per_meld=None,
                wilds_le_naturals=False,
                min_naturals_per_meld=1,
                harvested_joker="stay_on_table",
            )
        known = (variant, other)
        _TWINS[key] = known
    return known[1]


def uncapped(variant: Variant) -> Variant:
    """`variant` without its cap on hand cards per turn."""
    return twin(variant, cap=False)


def _rules(variant: Variant, hand: Sequence[int], table: Sequence[Sequence[Slot]]) -> Variant:
    """The variant the program may answer this position under: without a cap the hand cannot
    reach (or one the caller checks after), and with free jokers when no joker is in play."""
    cap = variant.max_hand_cards_per_turn
    keep_cap = cap is None or len(hand) <= cap
    free_instead = not variant.joker_rules.free_table_jokers and not has_joker(hand, table)
    if keep_cap and not free_instead:
        return variant
    return twin(variant, cap=keep_cap, joker_rules=not free_instead)


def has_joker(hand: Sequence[int], table: Sequence[Sequence[Slot]]) -> bool:
    """Whether a joker is in the hand (card kinds) or on the table (melds of slots)."""
    return JOKER in hand or any(slot.card == JOKER for meld in table for slot in meld)


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
    from rummyai.solvers.run_dp import GUESS, dp_supported, solve_dp

    if not opened:
        return opening_play(variant, hand, table, objective)
    rules = _rules(variant, hand, table)
    if not dp_supported(rules):
        return None
    infos = tuple(_info(variant, meld) for meld in table)
    cap = variant.max_hand_cards_per_turn
    position = Position(rules, tuple(sorted(hand)), infos, True)
    if not fast_path_ok(position, None):
        return None
    exact = solve_dp(position, objective, remember=True, guess=GUESS)
    if exact is None or (cap is not None and exact.cards_played > cap):
        return None
    return exact


def opening_play(
    variant: Variant, hand: Sequence[int], table: Sequence[Sequence[Slot]], objective: str
) -> Solution | None:
    """An opening turn of a points opening: the best play of new melds from the hand alone (the
    program on an empty table); when it opens (enough points, every meld allowed in an opening) it
    is the best opening, laid beside the table. None otherwise."""
    from rummyai.solvers.run_dp import GUESS, dp_supported, solve_dp

    if variant.opening != "points" or not variant.opening_turn_exclusive:
        return None
    cap = variant.max_hand_cards_per_turn
    rules = _rules(variant, hand, ())
    if not dp_supported(rules):
        return None
    position = Position(rules, tuple(sorted(hand)), (), True)
    if not fast_path_ok(position, None):
        return None
    best = solve_dp(position, objective, remember=True, guess=GUESS)
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
