"""Typed answers of the HTTP service, so that ``/openapi.json`` and ``/docs`` describe every field.

Melds are counted from 0 in every index (``from_meld``, ``to_meld``, ``swap_meld``, ``origin``,
``kept`` ...) and from 1 in every text ("meld 2" is index 1 of the start table, "new meld 3" index
2 of the new table). Cards are tokens such as ``7H``; a wild on the table is written ``JK=7H``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Cards = list[str]
Melds = list[list[str]]


class StepModel(BaseModel):
    """One thing to do at the table: move `cards` from `from_meld` to `to_meld`."""

    model_config = ConfigDict(extra="forbid")

    action: Literal["play", "move", "take", "swap", "open"] = Field(
        description="play: hand to table; move: between melds; take: table to hand; "
        "swap: hand cards into a start meld in place of its joker or diamond, which goes to the hand; "
        "open: hand cards laid first as an opening meld that later steps take apart (from_meld and "
        "to_meld null; the steps moving its cards on, or leaving them in it, are plays from the hand)"
    )
    cards: Cards = Field(description="the cards this step moves")
    from_meld: int | None = Field(
        description="0-based index into the request's table (the start table); null: from the hand"
    )
    to_meld: int | None = Field(
        description="0-based index into the answer's melds (the new table); null: into the hand "
        "(for a swap: the swapped meld's place in the new table, null if it does not stay whole)"
    )
    swap_meld: int | None = Field(
        None, description="swap steps only: 0-based index into the start table of the meld swapped in"
    )
    wild: str | None = Field(
        None,
        description="swap steps only: the joker or diamond that leaves the meld for the hand "
        "(the text says where it goes next); absent elsewhere",
    )
    opening: int | None = Field(
        None,
        description="open steps: which opening meld they lay (0-based, in the order laid); plays "
        "that take cards out of an opening meld, or leave them in it: that meld; absent elsewhere",
    )
    text: str = Field(description="the step for a person; melds are numbered from 1 here")


class SuggestionModel(BaseModel):
    """One move: the cards it plays, the whole new table, how the table changes and the steps."""

    model_config = ConfigDict(extra="forbid")

    label: str = Field(description="best, cards, points, hold_back or fewest_changes")
    title: str = Field(description="what the move is best at, e.g. 'Most points'")
    status: Literal["optimal", "feasible"] = Field(
        description="optimal: proven best for its objective; feasible: not proven (the best found in time)"
    )
    played: Cards = Field(description="hand cards put on the table")
    melds: Melds = Field(description="the whole table after the move (the new table)")
    cards_played: int
    points_played: int = Field(description="the variant's value of the cards played")
    held_back: Cards = Field(description="hold_back moves: spare cards kept for later turns")
    explanation: str = Field(description="one line: what to play and what happens to the table")
    kept: list[int] = Field(description="start melds left as they are (0-based)")
    extended: list[int] = Field(description="start melds that only gain cards")
    changed: list[int] = Field(description="start melds that lose cards and still stand")
    taken_apart: list[int] = Field(description="start melds no new meld continues")
    new: list[int] = Field(description="new-table melds that continue no start meld (0-based)")
    origin: list[int | None] = Field(
        description="per new-table meld, the start meld it continues (0-based), or null for a new meld"
    )
    taken: Cards = Field(description="table cards that go back to the hand")
    steps: list[StepModel] = Field(description="what to do, in order")


class HintAnswer(BaseModel):
    """The best move first, then alternatives that differ from it (fewest steps first)."""

    model_config = ConfigDict(extra="forbid")

    variant: str
    status: Literal["optimal", "feasible"] = Field(description="the best move's status")
    best: SuggestionModel
    alternatives: list[SuggestionModel]
    notes: list[str] = Field(description="e.g. why the best move is not proven best")
    ms: float = Field(description="milliseconds spent on the position in the worker")


class SwapModel(BaseModel):
    """A joker or diamond swapped out of a start meld (Black Heart, Rummy Palace)."""

    model_config = ConfigDict(extra="allow")

    meld: int = Field(description="0-based index into the start table")
    replacement: str = Field(description="the hand card put in its place")
    diamond: str | None = Field(None, description="black-heart: the diamond taken out")
    escort: str | None = Field(None, description="black-heart: the heart escorting the replacement")
    joker: str | None = Field(None, description="rummy-palace: the joker taken out")
    to_meld: int | None = Field(None, description="rummy-palace: 0-based new-table meld the joker joins")
    placed_as: str | None = Field(None, description="rummy-palace: the card the joker stands for there")
    lay_off: bool | None = Field(None, description="rummy-palace: whether that meld was on the table first")


class SolveAnswer(BaseModel):
    """The solve contract: the best move alone."""

    model_config = ConfigDict(extra="forbid")

    status: Literal["optimal", "feasible"]
    played: Cards
    melds: Melds = Field(description="the whole table after the move")
    cards_played: int
    points_played: int
    ms: float
    swaps: list[SwapModel] | None = Field(None, description="black-heart and rummy-palace: swaps made first")


class ValidateAnswer(BaseModel):
    """Whether `new_table` is a legal result of the play, and if not the rule it breaks."""

    model_config = ConfigDict(extra="allow")

    legal: bool
    played: Cards | None = Field(None, description="legal plays: the hand cards the play puts down")
    rule: str | None = Field(None, description="illegal plays: the rule's section")
    reason: str | None = Field(None, description="illegal plays: what is wrong, in one line")


class VariantModel(BaseModel):
    """A built-in variant as `GET /v1/variants` lists it."""

    model_config = ConfigDict(extra="allow")

    id: str
    name: str
    summary: str
    family: str
    cards: int
    players: list[int]
    hand_size: int
    options: list[str]
    available_options: list[str]


class HealthAnswer(BaseModel):
    """Liveness and load of the service and its worker pool."""

    model_config = ConfigDict(extra="forbid")

    status: Literal["ok"]
    version: str
    in_flight: int = Field(description="requests running or waiting")
    workers: int
    workers_alive: int = Field(
        description="fewer than workers while the service starts or a lost worker is replaced"
    )
    ready: bool = Field(
        description="every worker is in place (false while the service starts or replaces one)"
    )
    fast_lane_workers: int = Field(description="workers that answer only fast-lane requests")
    running: int
    waiting: dict[str, int] = Field(description="requests waiting per lane (fast, hard)")
    spare_workers: int = Field(description="warm idle workers ready to replace a lost one")
    replacements: int = Field(description="workers replaced since start")
    answered: int
    abandoned: int = Field(description="running requests stopped with their worker because the client left")
