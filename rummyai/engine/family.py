"""The interface each turn family implements; `rummyai.engine.game` runs matches through it.

A family may also define ``needs_rng(state, move) -> bool``; when it returns False,
`game.apply` skips building the per-move generator (it is slow to seed) and passes a placeholder
the family must not draw from. Families without the method always get a seeded generator.
"""

from __future__ import annotations

from typing import Any, Protocol

import numpy as np

from rummyai.engine.moves import Move, Violation
from rummyai.engine.state import GameState, RoundState
from rummyai.variants import Variant


class TurnFamily(Protocol):
    """Round-level rules of one turn family (tile style, or draw-meld-discard)."""

    def deal(
        self,
        variant: Variant,
        num_players: int,
        dealer: int,
        scores: tuple[int, ...],
        rng: np.random.Generator,
    ) -> RoundState:
        """A freshly dealt round; `dealer` is already chosen, `scores` are the match totals so far."""
        ...

    def legal_moves(self, state: GameState) -> list[Move]:
        """Simple legal moves for the seat to act (not the full manipulation search)."""
        ...

    def validate(self, state: GameState, move: Move) -> Violation | None:
        """The first rule `move` breaks, or None when it is legal."""
        ...

    def apply(self, state: GameState, move: Move, rng: np.random.Generator) -> RoundState:
        """The round after a legal move; sets `RoundState.result` when the round ends."""
        ...

    def truncate(self, state: GameState) -> RoundState:
        """The round ended by the `max_turns` truncation, scored as the variant's stock-out ending."""
        ...

    def view(self, state: GameState, seat: int) -> dict[str, Any]:
        """What `seat` may see: own hand, the table, counts of hidden cards, public flags."""
        ...
