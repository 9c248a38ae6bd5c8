"""Moves of the draw-meld-discard family (`rummy-palace`, `standard`, `black-heart`) and their JSON form.

A turn is a draw (`DrawStock` or `TakeDiscard`), then any number of single operations
(`MeldCards`, `LayOff`, `JokerSwap`, `DiamondSwap`, or an `Opening` bundle of melds made at once),
then a `Discard`. `Knock`/`DeclineKnock` are answers out of turn under Palace's `knocking` option;
`EndDeal` ends a deal whose draw pile is empty. Melds name physical card ids (`TableMeld`).
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral
from typing import Any

from rummyai.cards import Meaning, parse_meaning
from rummyai.engine.moves import Draw, Move
from rummyai.engine.state import TableMeld
from rummyai.errors import RummyError


@dataclass(frozen=True)
class DrawStock(Draw):
    """Take the top card of the stock (draw pile)."""


@dataclass(frozen=True)
class TakeDiscard(Move):
    """Take discard card `index` (0 = oldest): Palace only the top card; with a discard row the
    card and every card after it, the chosen one committed to reach the table this turn."""

    index: int


@dataclass(frozen=True)
class EndDeal(Move):
    """Decline to take from the row when the draw pile is empty: the deal ends with nobody out."""


@dataclass(frozen=True)
class MeldCards(Move):
    """Lay down one new meld of hand cards (ids in meld order, wild meanings, escorts)."""

    meld: TableMeld


@dataclass(frozen=True)
class LayOff(Move):
    """Add hand cards to table meld `target`; `meld` is that meld after the lay-off."""

    target: int
    meld: TableMeld


@dataclass(frozen=True)
class Opening(Move):
    """Several operations made as one bundle, e.g. an opening of two melds that together meet the
    requirement, or a Black Heart (hand emptied by melds and lay-offs before opening)."""

    plays: tuple[MeldCards | LayOff, ...]


Placement = MeldCards | LayOff | Opening


@dataclass(frozen=True)
class JokerSwap(Move):
    """Palace §4.5: replace joker `joker` in meld `target` by hand card `replacement` and put the
    joker straight back on the table with `place` (one atomic action)."""

    target: int
    joker: int
    replacement: int
    place: Placement


@dataclass(frozen=True)
class DiamondSwap(Move):
    """Black Heart §6.5: take table diamond `diamond` (core card or escort) out of meld `target`,
    putting hand card `replacement` (plus `escort` from hand if it needs one) in its place.
    `place` puts the diamond back at once; it is required when the replacement was the committed
    card and optional otherwise."""

    target: int
    diamond: int
    replacement: int
    escort: int | None = None
    place: Placement | None = None


@dataclass(frozen=True)
class Discard(Move):
    """End the turn by putting hand card `card` on the discard pile or row."""

    card: int


@dataclass(frozen=True)
class Knock(Move):
    """Palace `knocking`: `seat` takes the card just discarded out of turn (plus a stock penalty)."""

    seat: int


@dataclass(frozen=True)
class DeclineKnock(Move):
    """Palace `knocking`: `seat`, asked in turn, does not knock."""

    seat: int


# --------------------------------------------------------------------------- JSON form
def meld_to_json(meld: TableMeld) -> dict[str, Any]:
    """Plain-data form of a meld of physical ids."""
    return {
        "ids": list(meld.ids),
        "meanings": [None if m is None else str(m) for m in meld.meanings],
        "escorts": list(meld.escorts),
    }


def _whole(value: Any, what: str) -> int:
    """`value` as a card id, index or seat: a whole number (not a bool), else `RummyError`."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise RummyError(f"{what} must be a whole number, got {value!r}")
    return int(value)


def _entry(data: dict[str, Any], key: str, kind: str) -> Any:
    """`data[key]`, or a `RummyError` naming the missing key of this move type."""
    if key not in data:
        raise RummyError(f"a {kind!r} move needs the key {key!r}")
    return data[key]


def _items(value: Any, what: str) -> list[Any]:
    """`value` as a list, or a `RummyError` naming what should have been one."""
    if not isinstance(value, list | tuple):
        raise RummyError(f"{what} must be a list, got {value!r}")
    return list(value)


def meld_from_json(data: Any) -> TableMeld:
    """Inverse of `meld_to_json`; `RummyError` naming the field for malformed data."""
    if not isinstance(data, dict):
        raise RummyError(f"a meld must be an object with 'ids' and 'meanings', got {data!r}")
    ids = tuple(_whole(i, "a meld's card id") for i in _items(_entry(data, "ids", "meld"), "a meld's 'ids'"))
    meanings: list[Meaning | None] = []
    for m in _items(_entry(data, "meanings", "meld"), "a meld's 'meanings'"):
        if m is not None and not isinstance(m, str):
            raise RummyError(f"a meaning is written as text such as '9H' or '9', got {m!r}")
        meanings.append(None if m is None else parse_meaning(m, m))
    escorts = tuple(
        None if e is None else _whole(e, "an escort id")
        for e in _items(data.get("escorts", ()), "a meld's 'escorts'")
    )
    return TableMeld(ids, tuple(meanings), escorts)


def move_to_json(move: Move) -> dict[str, Any]:
    """Plain-data form of a draw-meld-discard move (`{"type": ..., ...}`)."""
    match move:
        case DrawStock() | Draw():
            return {"type": "draw"}
        case TakeDiscard(index):
            return {"type": "take", "index": index}
        case EndDeal():
            return {"type": "end_deal"}
        case MeldCards(meld):
            return {"type": "meld", "meld": meld_to_json(meld)}
        case LayOff(target, meld):
            return {"type": "layoff", "target": target, "meld": meld_to_json(meld)}
        case Opening(plays):
            return {"type": "opening", "plays": [move_to_json(p) for p in plays]}
        case JokerSwap(target, joker, replacement, place):
            return {
                "type": "joker_swap",
                "target": target,
                "joker": joker,
                "replacement": replacement,
                "place": move_to_json(place),
            }
        case DiamondSwap(target, diamond, replacement, escort, place):
            return {
                "type": "diamond_swap",
                "target": target,
                "diamond": diamond,
                "replacement": replacement,
                "escort": escort,
                "place": None if place is None else move_to_json(place),
            }
        case Discard(card):
            return {"type": "discard", "card": card}
        case Knock(seat):
            return {"type": "knock", "seat": seat}
        case DeclineKnock(seat):
            return {"type": "decline_knock", "seat": seat}
    raise RummyError(f"not a draw-meld-discard move: {move!r}")


def _placement(data: Any) -> Placement:
    move = move_from_json(data)
    if not isinstance(move, MeldCards | LayOff | Opening):
        raise RummyError(f"a swap's placement must be a meld, lay-off or opening, not {data.get('type')!r}")
    return move


def _play(data: Any) -> MeldCards | LayOff:
    move = move_from_json(data)
    if not isinstance(move, MeldCards | LayOff):
        raise RummyError(f"an opening holds melds and lay-offs only, not {data.get('type')!r}")
    return move


def move_from_json(data: Any) -> Move:
    """Inverse of `move_to_json`; raises `RummyError` naming an unknown move type, a missing key or
    a field of the wrong type (a recorded match read back must not fail with a bare KeyError)."""
    if not isinstance(data, dict):
        raise RummyError(f"a move must be an object with a 'type', got {data!r}")
    kind = data.get("type")

    def whole(key: str) -> int:
        return _whole(_entry(data, key, str(kind)), f"the {key!r} of a {kind!r} move")

    if kind == "draw":
        return DrawStock()
    if kind == "take":
        return TakeDiscard(whole("index"))
    if kind == "end_deal":
        return EndDeal()
    if kind == "meld":
        return MeldCards(meld_from_json(_entry(data, "meld", kind)))
    if kind == "layoff":
        return LayOff(whole("target"), meld_from_json(_entry(data, "meld", kind)))
    if kind == "opening":
        return Opening(tuple(_play(p) for p in _items(_entry(data, "plays", kind), "an opening's 'plays'")))
    if kind == "joker_swap":
        return JokerSwap(
            whole("target"), whole("joker"), whole("replacement"), _placement(_entry(data, "place", kind))
        )
    if kind == "diamond_swap":
        return DiamondSwap(
            whole("target"),
            whole("diamond"),
            whole("replacement"),
            None if data.get("escort") is None else whole("escort"),
            None if data.get("place") is None else _placement(data["place"]),
        )
    if kind == "discard":
        return Discard(whole("card"))
    if kind == "knock":
        return Knock(whole("seat"))
    if kind == "decline_knock":
        return DeclineKnock(whole("seat"))
    raise RummyError(f"unknown move type {kind!r}")
