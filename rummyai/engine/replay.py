"""Record a match as plain JSON (variant, options, players, seed, moves) and replay it.

Moves are written by physical id, so a replay is exact: ``"draw"``; ``{"play": ["12 13 104=7H"],
"opening": [...]}`` (melds of ids, a wild's meaning after ``=``); ``{"give": 17}``;
``{"rejected": {...}}``. The draw-meld-discard family's moves are written by
`discard_moves.move_to_json` (``{"type": ...}``). Golden tests replay recorded files and compare scores.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rummyai.cards import Meaning, parse_meaning
from rummyai.engine.game import Chooser, apply, new_match, play_match
from rummyai.engine.moves import Draw, Give, Move, Play, Rejected
from rummyai.engine.state import GameState, TableMeld
from rummyai.errors import RummyError
from rummyai.variants import Variant, get_variant


@dataclass
class MatchRecord:
    """A recorded match: enough to replay it move for move, plus the scores it ended with."""

    variant: str
    options: list[str]
    players: int
    seed: int
    moves: list[Any] = field(default_factory=list)
    max_turns: int | None = None
    scores: list[int] | None = None
    rounds: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """Plain-data form (the golden files)."""
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MatchRecord:
        """Inverse of `to_json`."""
        return cls(**data)

    def save(self, path: str | Path) -> None:
        """Write the record as JSON."""
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> MatchRecord:
        """Read a record written by `save`."""
        return cls.from_json(json.loads(Path(path).read_text()))


def _meld_text(meld: TableMeld) -> str:
    return " ".join(
        str(i) + ("" if m is None else f"={m}") for i, m in zip(meld.ids, meld.meanings, strict=True)
    )


def _meld_parse(text: str) -> TableMeld:
    ids: list[int] = []
    meanings: list[Meaning | None] = []
    for token in text.split():
        head, eq, meaning = token.partition("=")
        ids.append(int(head))
        meanings.append(parse_meaning(meaning, token) if eq else None)
    return TableMeld(tuple(ids), tuple(meanings))


def move_to_json(move: Move) -> Any:
    """JSON-able text form of a move."""
    if isinstance(move, Draw):
        return "draw"
    if isinstance(move, Play):
        out: dict[str, Any] = {"play": [_meld_text(m) for m in move.table]}
        if move.opening:
            out["opening"] = [_meld_text(m) for m in move.opening]
        return out
    if isinstance(move, Give):
        return {"give": move.card}
    if isinstance(move, Rejected):
        return {"rejected": move_to_json(move.play)}
    from rummyai.engine import discard_moves  # the draw-meld-discard family writes its own moves

    return discard_moves.move_to_json(move)


def move_from_json(data: Any) -> Move:
    """Inverse of `move_to_json`."""
    if data == "draw":
        return Draw()
    if isinstance(data, dict) and "play" in data:
        opening = tuple(_meld_parse(t) for t in data.get("opening", ()))
        return Play(tuple(_meld_parse(t) for t in data["play"]), opening)
    if isinstance(data, dict) and "give" in data:
        return Give(int(data["give"]))
    if isinstance(data, dict) and "rejected" in data:
        play = move_from_json(data["rejected"])
        if not isinstance(play, Play):
            raise RummyError("a rejected move wraps a play")
        return Rejected(play)
    if isinstance(data, dict) and "type" in data:
        from rummyai.engine import discard_moves

        return discard_moves.move_from_json(data)
    raise RummyError(f"unknown recorded move {data!r}")


def round_summaries(state: GameState) -> list[dict[str, Any]]:
    """Winner, scores and ending of every finished round."""
    return [{"winner": r.winner, "scores": list(r.scores), "reason": r.reason} for r in state.history]


def record_match(
    variant: str | Variant,
    players: int,
    seed: int,
    choose: Chooser,
    *,
    options: Any = None,
    max_turns: int | None = None,
) -> tuple[GameState, MatchRecord]:
    """Play a match with `play_match` and record every move."""
    rules = get_variant(variant, options)
    record = MatchRecord(rules.id, sorted(rules.options), players, seed, max_turns=max_turns)

    def on_move(state: GameState, move: Move) -> None:
        record.moves.append(move_to_json(move))

    final = play_match(rules, players, seed, choose, max_turns=max_turns, on_move=on_move)
    record.scores = list(final.scores)
    record.rounds = round_summaries(final)
    return final, record


def replay(record: MatchRecord) -> GameState:
    """Replay a recorded match from its seed and moves; the final state."""
    rules = get_variant(record.variant, record.options or None)
    state = new_match(rules, record.players, record.seed, max_turns=record.max_turns)
    for k, data in enumerate(record.moves):
        if state.match_over:
            raise RummyError(f"the match ended before recorded move {k}")
        state = apply(state, move_from_json(data))
    return state
