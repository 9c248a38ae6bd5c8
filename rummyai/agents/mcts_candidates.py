"""Root candidates of the MCTS agent beyond the solver's single answer.

The solver returns one most-cards play; several other plays often put down as many cards but
keep different cards in hand. `equal_card_alternatives` finds them by solving again with one of
the played card kinds taken out of the hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from rummyai.agents.solver_play import SeatPosition, best_legal_play, hand_cards_in
from rummyai.engine.moves import Play


def played_ids(play: Play, hand: Sequence[int]) -> set[int]:
    """The hand's physical ids that `play` puts on the table."""
    held = set(hand)
    return {i for meld in play.table for i in meld.ids if i in held}


def equal_card_alternatives(
    position: SeatPosition, best: Play, work_limit: float | None, limit: int, same_value: bool = False
) -> list[Play]:
    """Up to `limit` plays placing as many hand cards as `best` but keeping a different multiset of
    card kinds: one solve per kind `best` plays, with every copy of that kind kept out of the hand.
    With `same_value`, only plays leaving a hand of the same penalty value as `best` does."""
    deck = position.variant.deck
    target = hand_cards_in(best, position.hand)
    value = played_value(position, best)
    kept_kinds = {_kept_key(position, best)}
    found: list[Play] = []
    for kind in sorted({deck[i] for i in played_ids(best, position.hand)}):
        if len(found) >= limit:
            break
        hand = tuple(i for i in position.hand if deck[i] != kind)
        play, _ = best_legal_play(replace(position, hand=hand), "cards", work_limit)
        if play is None or hand_cards_in(play, position.hand) != target:
            continue
        if same_value and played_value(position, play) != value:
            continue
        key = _kept_key(position, play)
        if key not in kept_kinds:
            kept_kinds.add(key)
            found.append(play)
    return found


def played_value(position: SeatPosition, play: Play) -> int:
    """Penalty value (the variant's hand values) of the hand cards `play` puts down."""
    variant = position.variant
    return sum(variant.hand_values[variant.deck[i]] for i in played_ids(play, position.hand))


def _kept_key(position: SeatPosition, play: Play) -> tuple[int, ...]:
    used = played_ids(play, position.hand)
    return tuple(sorted(position.variant.deck[i] for i in position.hand if i not in used))
