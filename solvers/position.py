"""Solver input and output: a checked position (hand, table, opened) and the `Solution` value.

`make_position` turns text or card kinds into a `Position`, rejecting bad input with typed errors
(unknown card, a card the deck lacks, more copies than the deck holds, a table meld that is not
valid). `Solution` is what every solver returns: the cards played and the whole new table.
"""

from __future__ import annotations

import operator
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from rummyai.cards import (
    JOKER,
    NUM_KINDS,
    CardsInput,
    Slot,
    card_str,
    check_copies,
    meld_str,
    read_cards,
    sorted_cards,
)
from rummyai.errors import RummyError, check_flag
from rummyai.melds import MeldInfo, TableInput, analyze_table, read_table
from rummyai.variants import Variant, get_variant

if TYPE_CHECKING:
    from rummyai.solvers.palace_swaps import JokerSwap

Objective = Literal["cards", "points", "penalty"]
OBJECTIVES: tuple[str, ...] = ("cards", "points", "penalty")
# `solve` also answers ``opening``: the smallest opening from the hand alone (`solvers.opening`)
SOLVE_OBJECTIVES: tuple[str, ...] = (*OBJECTIVES, "opening")
HandInput = CardsInput


@dataclass(frozen=True)
class Position:
    """A checked solver input: the hand's card kinds and the table's melds (interpreted)."""

    variant: Variant
    hand: tuple[int, ...]
    table: tuple[MeldInfo, ...]
    opened: bool

    def hand_counts(self) -> list[int]:
        """How many copies of each kind 0..52 the hand holds."""
        counts = [0] * NUM_KINDS
        for card in self.hand:
            counts[card] += 1
        return counts

    def table_counts(self) -> list[int]:
        """How many copies of each kind 0..52 lie on the table (escorts included)."""
        counts = [0] * NUM_KINDS
        for meld in self.table:
            for card in meld.cards:
                counts[card] += 1
        return counts


@dataclass(frozen=True)
class Solution:
    """A move found by a solver.

    `played` are the hand's card kinds put on the table (sorted); `melds` is the whole new table,
    every wild written with its stand-in; `value` is the optimised objective; `status` is
    ``optimal`` when proven, ``feasible`` when not (a limit cut the search, or a joker-rule repair
    could not reach its bound).

    `swaps` (Black Heart §6.5) lists the diamond swaps made first, in an order the engine can
    replay: ``(meld, diamond, replacement, escort)`` with `meld` an index into the start table
    (the same index in `melds`), the card kinds of the diamond taken back, of the hand card put in
    its place, and of the new escort from the hand (None if none). A swapped diamond that is not on
    the new table went to the hand: `played` then holds only cards of the start hand, and
    `cards_played` / `points_played` count what left the hand net of the diamonds taken back.

    `joker_swaps` (Rummy Palace §4.5) names the joker swaps the new table makes, in an order the
    engine can replay (`rummyai.solvers.palace_swaps.JokerSwap`: the start meld, the hand card
    put in the joker's place, where the joker goes).
    """

    played: tuple[int, ...]
    melds: tuple[tuple[Slot, ...], ...]
    status: Literal["optimal", "feasible"]
    objective: str
    value: int
    cards_played: int
    points_played: int
    ms: float
    melds_broken: int = 0
    swaps: tuple[tuple[int, int, int, int | None], ...] = ()
    joker_swaps: tuple[JokerSwap, ...] = ()

    def table_text(self) -> str:
        """The new table written as melds separated by `` | ``."""
        return " | ".join(meld_str(m) for m in self.melds)

    def played_text(self) -> str:
        """The played cards as tokens, in notation order (rank, then suit)."""
        return " ".join(card_str(c) for c in sorted_cards(self.played))

    def to_json(self) -> dict[str, Any]:
        """The solve contract's answer (`rummyai solve --json`, HTTP `/v1/solve`): ``status``,
        ``played``, ``melds`` (every placed wild with its meaning), ``cards_played``,
        ``points_played``, ``ms``, and ``swaps`` when a Black Heart move starts with diamond swaps
        (``meld``, ``diamond``, ``replacement``, ``escort``) or a Rummy Palace move swaps jokers
        (``meld``, ``joker``, ``replacement``, ``to_meld``, ``placed_as``, where the joker went,
        and ``lay_off``, whether it joined a meld already on the table)."""
        answer: dict[str, Any] = {
            "status": self.status,
            "played": [card_str(c) for c in sorted_cards(self.played)],  # the notation's order
            "melds": [[str(slot) for slot in meld] for meld in self.melds],
            "cards_played": self.cards_played,
            "points_played": self.points_played,
            "ms": round(self.ms, 3),
        }
        if self.swaps:  # Black Heart diamond swaps, made before the melds are laid
            answer["swaps"] = [
                {
                    "meld": meld,
                    "diamond": card_str(diamond),
                    "replacement": card_str(replacement),
                    "escort": None if escort is None else card_str(escort),
                }
                for meld, diamond, replacement, escort in self.swaps
            ]
        if self.joker_swaps:  # Rummy Palace: each joker goes straight back on the table (§4.5)
            answer["swaps"] = [swap.to_json() for swap in self.joker_swaps]
        return answer


def make_position(
    variant: Variant | str, hand: HandInput, table: TableInput = (), opened: bool = True
) -> Position:
    """A checked `Position`; raises a `RummyError` subclass naming the bad card, meld or variant."""
    check_flag("opened", opened)
    rules = get_variant(variant)
    kinds = sorted(read_cards(hand))
    melds = analyze_table(rules, read_table(table))
    position = Position(rules, tuple(kinds), tuple(melds), opened)
    counts = [0] * NUM_KINDS  # read_cards and analyze_table checked every kind's range
    for card in kinds:
        counts[card] += 1
    for info in melds:
        for slot in info.slots:
            counts[slot.card] += 1
            if slot.escort is not None:
                for card in slot.escort.cards():
                    counts[card] += 1
    if any(map(operator.gt, counts, rules.copies)):  # more copies than the deck holds: name the card
        every = [*kinds, *(card for info in melds for slot in info.slots for card in slot.cards())]
        check_copies(rules, every, "hand and table")
    return position


def black_heart_rules(variant: Variant) -> bool:
    """Whether the variant has Black Heart's escorts, Royale or opening chart, which its own model
    (`rummyai.solvers.black_heart`) solves instead of the tile model."""
    return variant.escorts is not None or variant.royale is not None or variant.opening == "chart"


def check_objective(objective: str, known: tuple[str, ...] = OBJECTIVES) -> None:
    """Raise for an unknown objective name."""
    if objective not in known:
        raise RummyError(f"unknown objective {objective!r} (known: {', '.join(known)})")


def joker_count(cards: Iterable[int]) -> int:
    """Number of jokers among card kinds."""
    return sum(1 for c in cards if c == JOKER)


def count_broken(position: Position, melds: Sequence[Sequence[Slot]]) -> int:
    """Start melds whose cards do not all lie together in one meld of the new table."""
    bags = [Counter(c for slot in meld for c in slot.cards()) for meld in melds]
    broken = 0
    for info in position.table:
        need = Counter(info.cards)
        if not any(all(bag[c] >= n for c, n in need.items()) for bag in bags):
            broken += 1
    return broken


def objective_value(position: Position, objective: str, played: Sequence[int]) -> int:
    """The objective's value of a play: cards, points, or the penalty left in hand."""
    hv = position.variant.hand_values
    if objective == "cards":
        return len(played)
    if objective == "points":
        return sum(hv[c] for c in played)
    return sum(hv[c] for c in position.hand) - sum(hv[c] for c in played)


def score_key(position: Position, objective: str, played: Sequence[int]) -> tuple[int, int]:
    """Comparable value of a play: (cards, points), or (points, cards) for the points and penalty
    objectives (least penalty left is most points played)."""
    points = sum(position.variant.hand_values[c] for c in played)
    return (len(played), points) if objective == "cards" else (points, len(played))


def time_left(start: float, time_limit: float | None) -> float | None:
    """Seconds of `time_limit` left since `start` (a `time.perf_counter` instant) for a search, at
    least a millisecond; None without a limit."""
    if time_limit is None:
        return None
    return max(time_limit - (time.perf_counter() - start), 0.001)


# Seconds a time-limited solve's search may go on past the limit when the limit stopped it before
# any play: a limit shorter than building the model and finding a first play would otherwise
# answer no play where one is found in a tenth of a second (answers are promised by t + 0.3 s).
LATE_SEARCH = 0.1


def late_search_time(start: float, time_limit: float | None) -> float | None:
    """Seconds a search that found no play within `time_limit` (from `start`) may still take, to
    end at most `LATE_SEARCH` past the limit; None without a limit or when that time is over."""
    if time_limit is None:
        return None
    left = time_limit + LATE_SEARCH - (time.perf_counter() - start)
    return left if left > 0.005 else None


def proven_solution(
    position: Position, objective: str, played: list[int], melds: list[tuple[Slot, ...]], start: float
) -> Solution:
    """The `Solution` of a play a search proved best (the start table as it is when nothing is
    played), timed from `start` (a `time.perf_counter` instant)."""
    if not played:
        melds = [tuple(info.slots) for info in position.table]
    hv = position.variant.hand_values
    return Solution(
        tuple(played),
        tuple(melds),
        "optimal",
        objective,
        objective_value(position, objective, played),
        len(played),
        sum(hv[c] for c in played),
        (time.perf_counter() - start) * 1000,
        count_broken(position, melds),
    )
