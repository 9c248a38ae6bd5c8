"""What a 2-player tile game reveals about the opponent's hand: a seat that drew could not play.

An opponent that draws with a play available throws away a turn, so (for any sensible opponent)
a draw says its hand held no card it could lay off on the table it faced. `DrawTracker` notices,
between two of our decisions, that the opponent drew (its hand grew by one and the table is the
one our last move left) and names the card kinds that lay off on that table: all of the
opponent's cards but the one just drawn were not of those kinds. The determinizer then deals
the opponent's hand accordingly, instead of uniformly from the unseen cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rummyai.agents.mcts_state import seen_cards
from rummyai.agents.solver_play import seat_position
from rummyai.engine.moves import Move, Play
from rummyai.engine.state import TableMeld
from rummyai.engine.tile_moves import layoffs
from rummyai.variants import Variant


def layoff_kinds(variant: Variant, table: Sequence[TableMeld], cards: Sequence[int]) -> frozenset[int]:
    """The kinds among `cards` (physical ids) of which one card alone lays off on `table`."""
    deck = variant.deck
    kinds: set[int] = set()
    checked: set[int] = set()
    for card in cards:
        kind = deck[card]
        if kind in checked:
            continue
        checked.add(kind)
        if layoffs(variant, table, [card]):
            kinds.add(kind)
    return frozenset(kinds)


class DrawTracker:
    """Remembers the table our last move left and the opponent's hand size then (2 players)."""

    def __init__(self) -> None:
        self.last: tuple[int, int, frozenset[int]] | None = None

    def reset(self) -> None:
        """Forget the previous game."""
        self.last = None

    def dead(self, view: Mapping[str, Any]) -> tuple[int, frozenset[int], int] | None:
        """``(opponent, kinds, 1)`` if the opponent drew since our last move on the table in
        `view`: all its cards but one are of none of `kinds`; None when nothing is known."""
        if self.last is None or view.get("family") != "play_or_draw" or len(view["hand_sizes"]) != 2:
            return None
        opponent, size, table_ids = self.last
        now_ids = frozenset(int(i) for meld in view["table"] for i in meld["ids"])
        if now_ids != table_ids or int(view["hand_sizes"][opponent]) != size + 1:
            return None
        if not view["opened"][opponent]:
            return None
        position = seat_position(view)
        unseen = [i for i in range(len(position.variant.deck)) if i not in seen_cards(view)]
        return opponent, layoff_kinds(position.variant, position.table, unseen), 1

    def record(self, view: Mapping[str, Any], move: Move) -> None:
        """Note the table `move` leaves and the opponent's hand size (2-player tile games only)."""
        if view.get("family") != "play_or_draw" or len(view["hand_sizes"]) != 2:
            self.last = None
            return
        opponent = 1 - int(view["seat"])
        if isinstance(move, Play):
            ids = frozenset(i for meld in move.table for i in meld.ids)
        else:
            ids = frozenset(int(i) for meld in view["table"] for i in meld["ids"])
        self.last = (opponent, int(view["hand_sizes"][opponent]), ids)
