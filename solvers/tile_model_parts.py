"""The small records of the tile model: kept melds, run windows and groups, Rhine qualifiers and
witnesses, Tile Rummy retrievals, shared by the core model and its rule pieces."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ortools.sat.python import cp_model

from rummyai.cards import Slot
from rummyai.melds import MeldInfo
from rummyai.runs import RunWindow
from rummyai.solvers.position import Position

IntVar = cp_model.IntVar
LinearExpr = Any


@dataclass
class _Kept:
    """Variables of one start meld kept whole: the keep flag and its extensions."""

    index: int
    info: MeldInfo
    keep: IntVar
    # run extensions: position -> (filled, natural); groups: suit -> natural count, plus jokers
    ext: dict[int, tuple[IntVar, IntVar]] = field(default_factory=dict)
    group_nat: dict[int, IntVar] = field(default_factory=dict)
    group_jok: IntVar | None = None
    swaps: list[tuple[int, int, IntVar]] = field(default_factory=list)


@dataclass
class _Qualifier:
    """Rhine's points qualification (§1.7 variation 1): `count` new melds from the hand of one
    shape, each with at most one wild. A run window's wilds by window index; a group's by key 0,
    its natural cards by kind."""

    kind: str
    rank: int
    cards: tuple[int, ...]
    count: IntVar
    jokers: dict[int, IntVar]
    naturals: dict[int, IntVar] = field(default_factory=dict)

    def wilds(self) -> LinearExpr:
        """The number of wilds these melds hold."""
        return sum(self.jokers.values())


@dataclass
class _Run:
    window: RunWindow
    count: IntVar
    jokers: list[IntVar | None]


@dataclass
class _Group:
    rank: int
    count: IntVar
    naturals: dict[int, IntVar]
    jokers: IntVar | None


@dataclass
class _Retrieval:
    """Tile Rummy T4: the joker of locked start meld `meld` leaves it for a new meld S.

    `shapes` are S's possible forms: (kind, natural cards, joker meaning, chosen flag).
    """

    meld: int
    flag: IntVar
    shapes: list[tuple[tuple[int, ...], tuple[Slot, ...], IntVar]]


@dataclass
class _Witness:
    """Rhine R3/R4: an explicit meld holding, beside a natural of a table joker's old meld, its
    replacement (released) or the joker itself (kept in a split piece). A run (`key` its suit):
    `inside` and `naturals` by rank position; a group (`key` its rank): `naturals` by suit,
    `joker` its wild."""

    kind: str
    key: int
    inside: dict[int, IntVar]
    naturals: dict[int, Any]
    joker: Any


def _family(info: MeldInfo) -> tuple[str, int | None]:
    """The melds a wild of this start meld could be witnessed in: runs of its suit, groups of
    its rank (jokers of one family may share a witness meld)."""
    return (info.kind, info.suit if info.kind == "run" else info.rank)


def _avail(position: Position) -> tuple[list[int], list[int]]:
    return position.hand_counts(), position.table_counts()
