"""The baseline: a move drawn uniformly from the legal moves the engine lists, from a seeded RNG."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from rummyai.agents.base import View
from rummyai.engine.moves import Move
from rummyai.errors import RummyError


class RandomAgent:
    """Uniform over the legal moves; the same seed gives the same choices."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = np.random.default_rng(seed)

    def reset(self, seed: int) -> None:
        """Reseed the generator for a new game."""
        self._rng = np.random.default_rng(seed)

    def act(self, view: View, legal: Sequence[Move]) -> Move:
        """One of `legal`, uniformly at random."""
        if not legal:
            raise RummyError(f"random agent asked to act at seat {view.get('seat')} with no legal move")
        return legal[int(self._rng.integers(len(legal)))]
