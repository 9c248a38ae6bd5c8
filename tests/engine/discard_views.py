"""Small helpers to read and steer draw-and-discard positions in the rule tests: card kinds and
tokens of physical ids, the table as a player sees it, a turn handed to another seat, and the
plays that put a committed card on the table."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from rummyai.cards import card_str, parse_card
from rummyai.engine.discard import Discard
from rummyai.engine.discard_rules import DiscardData
from rummyai.engine.game import apply, legal_moves, view
from rummyai.engine.state import GameState


def kinds(state: GameState, ids: Iterable[int]) -> list[int]:
    """Sorted card kinds of physical ids."""
    return sorted(state.variant.deck[i] for i in ids)


def cards(text: str) -> list[int]:
    """Sorted card kinds of written tokens."""
    return sorted(parse_card(t) for t in text.split())


def tokens(state: GameState, ids: Sequence[int]) -> list[str]:
    """Sorted tokens of physical ids."""
    return sorted(card_str(state.variant.deck[i]) for i in ids)


def table_texts(state: GameState) -> list[str]:
    """The table as written melds, as a player sees it."""
    return [m["text"] for m in view(state, state.round.turn)["table"]]


def pass_turn_to(state: GameState, seat: int) -> GameState:
    """The same position with `seat` to play (after its draw)."""
    kept = state.round.family_data.escort_credit  # the round's escort credits carry over, as in play
    data = DiscardData(
        phase="play", fresh=not state.round.played_before[seat], next_turn=seat, escort_credit=kept
    )
    return replace(state, round=replace(state.round, turn=seat, family_data=data))


def place_committed(state: GameState) -> GameState:
    """Play the generator's first non-discard move until no committed card is left in the hand."""
    for _ in range(6):
        pending = [c for c in state.round.family_data.committed if c in state.round.hands[state.round.turn]]
        if not pending:
            return state
        plays = [m for m in legal_moves(state) if not isinstance(m, Discard)]
        assert plays, "a committed card was taken but no play is offered"
        state = apply(state, plays[0])
    raise AssertionError("the committed card never reached the table")
