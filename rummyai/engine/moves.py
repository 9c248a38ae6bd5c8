"""Moves shared by every family, and the tile-style PLAY and DRAW.

A move is a small frozen value. The draw-meld-discard family adds its own operations in
`rummyai.engine.discard`; all of them subclass `Move`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rummyai.engine.state import TableMeld


@dataclass(frozen=True)
class Move:
    """Base of every move; `seat` is filled in by callers that act out of turn (a knock)."""


@dataclass(frozen=True)
class Draw(Move):
    """Take the top stock card (tile style: ends the turn; with an empty pool it is a pass)."""


@dataclass(frozen=True)
class Play(Move):
    """Tile-style PLAY: the whole table after the turn, as melds of physical ids.

    `opening` optionally names the new melds (from hand only) that make the opening; when empty
    and the player has not opened, the engine takes the final melds made only of hand cards.
    """

    table: tuple[TableMeld, ...]
    opening: tuple[TableMeld, ...] = ()


@dataclass(frozen=True)
class Violation:
    """The first rule a move breaks: `rule` cites the docs/rules section (e.g. ``"1.5 R5"``);
    `meld`, where the rule names one, is the start meld whose joker broke it (its index in the
    start table as judged)."""

    rule: str
    reason: str
    meld: int | None = None

    def __str__(self) -> str:
        return f"{self.rule}: {self.reason}"


@dataclass(frozen=True)
class Give(Move):
    """Tile Rummy stalemate (§2.6 step 1): put one hand card, by physical id, into the mini-pool."""

    card: int


@dataclass(frozen=True)
class Rejected(Move):
    """An unchecked PLAY that the engine rejects under `invalid_play_penalty` (§2.2, §8.2).

    Legal only when `play` itself is illegal and the variant has a penalty: the table stays as it
    was, the player draws the penalty cards, and the turn counts as a pass.
    """

    play: Play


#: Move fields that hold physical card ids, directly, as melds or as nested placements (anything
#: else, such as a row index, a meld index or a seat, is not a card).
CARD_FIELDS = frozenset(
    {"card", "cards", "ids", "table", "meld", "melds", "replacement", "escort", "escorts", "plays", "place"}
)


def card_ids(value: Any) -> Iterable[int]:
    """Physical card ids a move (or one of its fields) names: ints, table melds, nested moves and
    tuples, read from the fields in `CARD_FIELDS`."""
    if value is None or isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, TableMeld):
        yield from value.all_ids()
    elif isinstance(value, Move) and dataclasses.is_dataclass(value):
        for field in dataclasses.fields(value):
            if field.name in CARD_FIELDS:
                yield from card_ids(getattr(value, field.name))
    elif isinstance(value, tuple | list | frozenset):
        for item in value:
            yield from card_ids(item)
