"""Game state as plain frozen data: the match around a round, and the round's public and hidden parts.

Cards are physical ids (indexes into `Variant.deck`), so conservation and joker tracking work on
copies. Everything is immutable; `apply` returns a new state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from rummyai.cards import Meaning, Slot
from rummyai.variants import Variant

RoundEnd = Literal["out", "stock_exhausted", "stalemate", "last_draw", "void", "max_turns", "no_play_cycle"]

#: How a round ended, in words, by `RoundResult.reason` (for people reading a record).
ROUND_END_WORDS: dict[str, str] = {
    "out": "a player went out",
    "stock_exhausted": "the stock ran out",
    "last_draw": "the last card of the stock was drawn",
    "stalemate": "nobody could play after the stock ran out",
    "no_play_cycle": "a whole round of turns passed without a play",
    "void": "the stock ran out for good",
    "max_turns": "the turn limit was reached",
}


@dataclass(frozen=True)
class TableMeld:
    """A meld on the table: physical ids of its core cards in meld order (runs low to high).

    `meanings[i]` is the meaning of core card i if it plays as a wild (None for a natural);
    `escorts[i]` is the physical id of core card i's escort or None (Black Heart only, else
    empty); `credit[i]` is the seat credited with core card i and its escort (draw-and-discard
    scoring; empty where nobody is credited).
    """

    ids: tuple[int, ...]
    meanings: tuple[Meaning | None, ...]
    escorts: tuple[int | None, ...] = ()
    credit: tuple[int, ...] = ()

    def all_ids(self) -> list[int]:
        """Every physical id in the meld, escorts included."""
        return list(self.ids) + [e for e in self.escorts if e is not None]

    def slots(self, deck: tuple[int, ...]) -> tuple[Slot, ...]:
        """The meld as written slots (kinds with meanings and escorts) for `melds.analyze_meld`;
        one tuple per meld value and deck, kept (the callers' per-object caches of a meld's
        analysis then hit for a meld that stays on the table)."""
        key = (self, id(deck))
        known = _SLOTS.get(key)
        if known is not None and known[0] is deck:
            return known[1]
        escorts = self.escorts or (None,) * len(self.ids)
        slots = tuple(
            Slot(deck[i], m, None if e is None else Slot(deck[e]))
            for i, m, e in zip(self.ids, self.meanings, escorts, strict=True)
        )
        if len(_SLOTS) > 20_000:
            _SLOTS.clear()
        _SLOTS[key] = (deck, slots)  # the deck is kept alive, so its id names it while stored
        return slots


_SLOTS: dict[tuple[TableMeld, int], tuple[tuple[int, ...], tuple[Slot, ...]]] = {}


@dataclass(frozen=True)
class RoundResult:
    """How a round ended: the winner (None if nobody won it), each seat's round score and why."""

    winner: int | None
    scores: tuple[int, ...]
    reason: RoundEnd
    detail: str = ""


@dataclass(frozen=True)
class RoundState:
    """Everything about the round in play. Hidden parts: other players' hands and the stock order.

    `stock[-1]` is the next card drawn. `discard` is the discard pile or row, oldest first.
    `turn_count` counts completed turns this round. `passes` counts consecutive turns without a
    card played (used for the stock-out rules). `family_data` is a frozen dataclass owned by the
    turn family's module (tile style or draw-meld-discard) for what only that family needs.
    """

    dealer: int
    turn: int
    hands: tuple[tuple[int, ...], ...]
    table: tuple[TableMeld, ...]
    stock: tuple[int, ...]
    discard: tuple[int, ...] = ()
    opened: tuple[bool, ...] = ()
    played_before: tuple[bool, ...] = ()
    turn_count: int = 0
    passes: int = 0
    recycles: int = 0
    credited: tuple[int, ...] = ()
    family_data: Any = None
    result: RoundResult | None = None


@dataclass(frozen=True)
class GameState:
    """A match: the variant, seats, cumulative scores, finished rounds and the round in play.

    `finished` keeps the last round that ended (its final hands and table), for display and
    checks; `round` is then the next round dealt, or the same round when the match is over.
    """

    variant: Variant
    seed: int
    num_players: int
    round_index: int
    scores: tuple[int, ...]
    round: RoundState
    history: tuple[RoundResult, ...] = ()
    max_turns: int | None = None
    winners: tuple[int, ...] = field(default=())
    finished: RoundState | None = None

    @property
    def match_over(self) -> bool:
        """True once the match-end rule has fired (winners is then non-empty)."""
        return bool(self.winners)

    @property
    def to_act(self) -> int:
        """Seat whose decision is awaited."""
        return self.round.turn
