"""Proof that an opened seat has no play where jokers are locked, by the dynamic program on a relaxation.

A tile-style play keeps every table card and adds hand cards, the whole new table valid melds.
Locked-joker rules (rummy-tiles) only forbid some of those tables, and the variant's twin with free
jokers (`rummyai.solvers.candidate_search.twin`: no cap on wilds per meld, one natural card enough)
only accepts more melds. So when the compiled dynamic program finds no card to play under the twin,
no play exists under the variant either, and the CP-SAT model (what such positions otherwise take)
need not be asked.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummyai.cards import JOKER, Slot
from rummyai.melds import analyze_meld
from rummyai.variants import Variant


def relaxation_applies(variant: Variant) -> bool:
    """Whether the free-joker twin accepts every play of `variant` (and the program is not already
    the variant's own solver): tile-style, jokers the only wilds, locked jokers."""
    return (
        variant.tile_style
        and not variant.joker_rules.free_table_jokers
        and variant.min_naturals_per_meld >= 1
        and all(w.card == JOKER for w in variant.wilds)
    )


def no_play_proven(variant: Variant, hand: Sequence[int], table: Sequence[Sequence[Slot]]) -> bool:
    """True only when an opened seat holding the card kinds `hand` has no play on `table` (melds of
    slots): the program plays no card under the free-joker twin. False when unsure."""
    from rummyai.solvers.candidate_search import twin
    from rummyai.solvers.fast import fast_path_ok
    from rummyai.solvers.position import Position
    from rummyai.solvers.run_dp import GUESS, dp_supported, solve_dp

    if not hand or not relaxation_applies(variant):
        return False
    # the locked-joker program's own twin where the variant has no cap (the same questions then)
    rules = twin(variant, cap=variant.max_hand_cards_per_turn is None, joker_rules=False)
    if not dp_supported(rules):
        return False
    infos = tuple(analyze_meld(variant, tuple(meld)) for meld in table)
    position = Position(rules, tuple(sorted(hand)), infos, True)
    if not fast_path_ok(position, None):
        return False
    best = solve_dp(position, "cards", remember=True, guess=GUESS)
    return best is not None and best.cards_played == 0
