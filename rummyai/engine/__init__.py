"""The rules engine: match flow, moves, validation, per-player views and the tile-style judge."""

from rummyai.engine.game import (
    apply,
    legal_moves,
    new_match,
    play_match,
    random_choice,
    validate,
    view,
)
from rummyai.engine.judge import Judgement, judge_json, judge_play
from rummyai.engine.moves import Draw, Give, Move, Play, Rejected, Violation
from rummyai.engine.state import GameState, RoundResult, RoundState, TableMeld

__all__ = [
    "Draw",
    "GameState",
    "Give",
    "Judgement",
    "Move",
    "Play",
    "Rejected",
    "RoundResult",
    "RoundState",
    "TableMeld",
    "Violation",
    "apply",
    "judge_json",
    "judge_play",
    "legal_moves",
    "new_match",
    "play_match",
    "random_choice",
    "validate",
    "view",
]
