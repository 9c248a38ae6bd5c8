"""Record and replay draw-meld-discard matches in the shared `MatchRecord` JSON format.

Moves are written with `discard_moves.move_to_json` (melds by physical id with meanings and
escorts), so a replay from the seed reproduces the match exactly. Golden tests replay recorded
files and compare the rounds and final scores.
"""

from __future__ import annotations

from typing import Any

from rummyai.engine.discard_moves import move_from_json, move_to_json
from rummyai.engine.game import Chooser, apply, new_match, play_match, random_choice
from rummyai.engine.moves import Move
from rummyai.engine.replay import MatchRecord
from rummyai.engine.state import GameState
from rummyai.errors import RummyError
from rummyai.variants import Variant, get_variant


def round_summaries(state: GameState) -> list[dict[str, Any]]:
    """Winner, scores and ending of every finished round."""
    return [{"winner": r.winner, "scores": list(r.scores), "reason": r.reason} for r in state.history]


def record_discard_match(
    variant: str | Variant,
    players: int,
    seed: int,
    choose: Chooser = random_choice,
    *,
    options: Any = None,
    max_turns: int | None = None,
) -> tuple[GameState, MatchRecord]:
    """Play a match with `play_match` (default: uniformly random moves) and record every move."""
    rules = get_variant(variant, options)
    if rules.family != "draw_meld_discard":
        raise RummyError(f"{rules.id} is not a draw-meld-discard variant")
    record = MatchRecord(rules.id, sorted(rules.options), players, seed, max_turns=max_turns)

    def on_move(state: GameState, move: Move) -> None:
        record.moves.append(move_to_json(move))

    final = play_match(rules, players, seed, choose, max_turns=max_turns, on_move=on_move)
    record.scores = list(final.scores)
    record.rounds = round_summaries(final)
    return final, record


def replay_discard(record: MatchRecord) -> GameState:
    """Replay a recorded draw-meld-discard match from its seed and moves; the final state."""
    rules = get_variant(record.variant, record.options or None)
    state = new_match(rules, record.players, record.seed, max_turns=record.max_turns)
    for k, data in enumerate(record.moves):
        if state.match_over:
            raise RummyError(f"the match ended before recorded move {k}")
        state = apply(state, move_from_json(data))
    return state
