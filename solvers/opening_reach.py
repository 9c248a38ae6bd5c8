"""Whether a points opening is out of reach: an exact shortcut past solver calls that find no play.

Where an opening turn may lay only new melds from the hand (`opening_turn_exclusive`), those melds
count toward the opening by `opening_value`: each card at most its best position's value (an ace
low or high, or in a group), each wild at most the best value it may stand for. Two bounds of the
most an opening could count, cheapest first: every hand card at its best value; then, where every
hand card's penalty value is at least that best value, the most penalty points any set of melds
from the hand alone puts down (the compiled dynamic program's ``points`` answer on an empty table,
without the per-turn cap). When a bound stays below the variant's opening points, no opening
exists, so an unopened seat has no play and the solver (whose unopened answers that do not open
fall to the CP-SAT model) need not be asked.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummyai.cards import JOKER
from rummyai.engine.qualify import qualifies_inside_turn
from rummyai.variants import Variant

_BOUNDS: dict[int, tuple[Variant, tuple[int, ...]]] = {}


def card_bounds(variant: Variant) -> tuple[int, ...]:
    """Per card kind 0..52, the most one card of that kind can add to a points opening."""
    known = _BOUNDS.get(id(variant))
    if known is not None and known[0] is variant:
        return known[1]
    values = variant.opening_values
    wild_best = max((*values, variant.opening_group_ace)) if variant.opening_wild_value != "zero" else 0
    bounds = []
    for kind in range(53):
        best = 0
        if kind < 52:
            rank = kind % 13 + 1
            best = values[rank]
            if rank == 1:  # an ace: low, high after a king, or in a group
                best = max(best, variant.opening_group_ace, *values[14:15])
        if variant.is_wild(kind):
            best = max(best, wild_best)
        bounds.append(best)
    if len(_BOUNDS) > 64:
        _BOUNDS.clear()
    _BOUNDS[id(variant)] = (variant, tuple(bounds))
    return _BOUNDS[id(variant)][1]


def opening_out_of_reach(variant: Variant, hand: Sequence[int]) -> bool:
    """True only when an unopened seat holding the card kinds `hand` (or any subset of them, such as
    its playable cards) certainly cannot open this turn: a points opening of new melds from the
    hand alone whose most valuable case stays below the opening points. False when unsure."""
    if variant.opening != "points" or not variant.opening_turn_exclusive or qualifies_inside_turn(variant):
        return False
    bounds = card_bounds(variant)
    if sum(bounds[kind] for kind in hand) < variant.opening_points:
        return True
    if any(variant.hand_values[kind] < bounds[kind] for kind in hand):
        return False
    most = most_hand_points(variant, hand)
    return most is not None and most < variant.opening_points


def most_hand_points(variant: Variant, hand: Sequence[int]) -> int | None:
    """The most penalty points any set of melds from `hand` alone (card kinds) puts down, by the
    compiled dynamic program without the per-turn cap; None where the program does not apply."""
    from rummyai.solvers.candidate_search import twin
    from rummyai.solvers.fast import fast_path_ok
    from rummyai.solvers.position import Position
    from rummyai.solvers.run_dp import GUESS, dp_supported, solve_dp

    if any(w.card != JOKER for w in variant.wilds):
        return None
    # without a joker in the hand (and on an empty table) the joker rules change nothing
    rules = twin(variant, cap=False, joker_rules=JOKER in hand or variant.joker_rules.free_table_jokers)
    if not dp_supported(rules):
        return None
    position = Position(rules, tuple(sorted(hand)), (), True)
    if not fast_path_ok(position, None):
        return None
    best = solve_dp(position, "points", remember=True, guess=GUESS)
    return None if best is None else best.points_played
