"""Greedy agents: every turn, the solver's best play (most cards, or most points), else draw.

On tile-style variants the solver searches every rearrangement of the table the rules allow.
Where the solver cannot help (draw-and-discard variants, the Tile Rummy mini-pool step, or a
solution the engine would reject), the agent falls back to the legal move that puts the most hand
cards on the table (ties: the first listed; `listed_choice`), discards the card worth most in
hand when it lays none, and gives away its highest-value card to a mini-pool.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np

from rummyai.agents.base import View
from rummyai.agents.solver_play import (
    SeatPosition,
    best_legal_play,
    hand_cards_in,
    seat_position,
    variant_of,
)
from rummyai.engine.discard_moves import Discard
from rummyai.engine.moves import Draw, Give, Move, Play
from rummyai.errors import RummyError
from rummyai.variants import Variant


class GreedyAgent:
    """Plays the solver's most-cards (or most-points) move every turn; draws when it cannot play.

    `work_limit` is each solver call's deterministic budget (about seconds of work; see
    `rummyai.solvers.solve`), so the same seed gives the same game on any machine load.
    """

    def __init__(self, objective: str = "cards", work_limit: float = 5.0, seed: int = 0) -> None:
        if objective not in ("cards", "points"):
            raise RummyError(f"objective must be cards or points, got {objective!r}")
        if not work_limit > 0:
            raise RummyError(f"work_limit must be positive, got {work_limit}")
        self.objective = objective
        self.work_limit = work_limit
        self.name = "greedy" if objective == "cards" else "greedy-points"
        self.fallbacks = 0

    def reset(self, seed: int) -> None:
        """Nothing random to reseed: the solver runs single-threaded and deterministic."""

    def act(self, view: View, legal: Sequence[Move]) -> Move:
        """The solver's best play from this view (as `adjust` shapes it), or a fallback among `legal`."""
        if not legal:
            raise RummyError(f"{self.name} asked to act at seat {view.get('seat')} with no legal move")
        if view.get("family") != "play_or_draw":
            return legal[listed_choice(variant_of(view), view.get("hand", []), legal)]
        if view.get("phase") == "give":
            return give_highest(view, legal)
        position = seat_position(view)
        play = self.best_play(position)
        if play is None:
            return draw_or_best(view, legal)
        return self.adjust(view, position, play)

    def adjust(self, view: View, position: SeatPosition, play: Play) -> Play:
        """The play to make instead of the solver's best `play` (greedy: that play itself)."""
        return play

    def best_play(self, position: SeatPosition) -> Play | None:
        """The solver's play as a legal engine move (None when the best is to draw)."""
        play, how = best_legal_play(position, self.objective, self.work_limit)
        if how != "solver" and how != "none":
            self.fallbacks += 1
        return play


def greedy_points(work_limit: float = 5.0, seed: int = 0) -> GreedyAgent:
    """The greedy agent maximising points played instead of cards."""
    return GreedyAgent("points", work_limit, seed)


class NoisyGreedyAgent(GreedyAgent):
    """Greedy with mistakes: with probability `noise` a uniformly random legal move instead of
    greedy's (seeded), an opponent whose play a search agent cannot predict exactly."""

    def __init__(self, noise: float = 0.2, work_limit: float = 5.0, seed: int = 0) -> None:
        if not 0.0 <= noise <= 1.0:
            raise RummyError(f"noise must be between 0 and 1, got {noise}")
        super().__init__("cards", work_limit, seed)
        self.name = "noisy-greedy"
        self.noise = noise
        self.reset(seed)

    def reset(self, seed: int) -> None:
        """Restart the random stream: the same seed gives the same mistakes at the same turns."""
        self.rng = np.random.default_rng([seed, 0x6E6F6973])

    def act(self, view: View, legal: Sequence[Move]) -> Move:
        """A random legal move with probability `noise`, else greedy's move."""
        if legal and self.rng.random() < self.noise:
            return legal[int(self.rng.integers(len(legal)))]
        return super().act(view, legal)


def most_cards(view: View, legal: Sequence[Move]) -> Move:
    """The legal move placing the most hand cards (the first listed on ties)."""
    hand = view.get("hand", [])
    return max(legal, key=lambda move: hand_cards_in(move, hand))


def listed_choice(variant: Variant, hand: Sequence[int], legal: Sequence[Move]) -> int:
    """Index of greedy's move among listed moves where no solver answer decides: the first placing
    the most hand cards; when none places a card, the draw on tile-style variants, and where the
    first listed is a discard, the discard of the card worth most in hand (the first listed of
    equal value; a wild card only when nothing else may go), so that what greedy keeps depends on
    the hand's cards, not their order."""
    counts = [hand_cards_in(m, hand) for m in legal]
    best = max(counts)
    index = counts.index(best)
    if best:
        return index
    if variant.tile_style:
        return next((k for k, m in enumerate(legal) if isinstance(m, Draw)), index)
    if isinstance(legal[index], Discard):
        values, deck = variant.hand_values, variant.deck
        discards = [k for k, m in enumerate(legal) if isinstance(m, Discard)]

        def keep_last(k: int) -> tuple[bool, int, int]:
            kind = deck[cast(Discard, legal[k]).card]
            return (not variant.is_wild(kind), values[kind], -k)

        index = max(discards, key=keep_last)
    return index


def draw_or_best(view: View, legal: Sequence[Move]) -> Move:
    """The best listed play if any places a card, else the draw."""
    best = most_cards(view, legal)
    if hand_cards_in(best, view.get("hand", [])) > 0:
        return best
    return next((m for m in legal if isinstance(m, Draw)), best)


def give_highest(view: View, legal: Sequence[Move]) -> Move:
    """Mini-pool step (Tile Rummy stalemate): give away the card worth most in hand."""
    variant = variant_of(view)
    values = variant.hand_values
    deck = variant.deck
    gives = [m for m in legal if isinstance(m, Give)]
    if not gives:
        return legal[0]
    return max(gives, key=lambda m: values[deck[m.card]])
