"""Small helpers the draw-and-discard rule tests share: the rule a refused move names, a new
meld written in notation, and the physical id of a card on the table."""

from __future__ import annotations

from rummyai.cards import parse_card
from rummyai.engine.discard import MeldCards
from rummyai.engine.discard_setup import hand_meld
from rummyai.engine.game import validate
from rummyai.engine.moves import Move
from rummyai.engine.state import GameState


def rule_of(state: GameState, move: Move) -> str | None:
    """The docs/rules section a refusal names, or None when the move is legal."""
    violation = validate(state, move)
    return None if violation is None else violation.rule


def meld(state: GameState, text: str) -> MeldCards:
    """A new meld of the seat to act, written in notation."""
    return MeldCards(hand_meld(state, state.round.turn, text))


def table_id(state: GameState, meld_index: int, token: str) -> int:
    """Physical id of the first card `token` in table meld `meld_index`."""
    kind = parse_card(token)
    for i in state.round.table[meld_index].all_ids():
        if state.variant.deck[i] == kind:
            return i
    raise AssertionError(f"{token} not in table meld {meld_index}")
