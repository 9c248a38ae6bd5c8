"""Summaries of finished matches as plain data (the record `rummyai play --json` prints)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rummyai.engine.state import GameState


def match_record(state: GameState, agents: Sequence[str], moves: int) -> dict[str, Any]:
    """The JSON record of a finished match: each round's winner and scores, totals and winners.

    `winner` is the single winning seat, or None when several seats share the win (all of them
    are in `winners`).
    """
    winners = list(state.winners)
    return {
        "variant": state.variant.id,
        "options": sorted(state.variant.options),
        "seed": state.seed,
        "players": state.num_players,
        "agents": list(agents),
        "rounds": [{"winner": r.winner, "scores": list(r.scores), "reason": r.reason} for r in state.history],
        "totals": list(state.scores),
        "winner": winners[0] if len(winners) == 1 else None,
        "winners": winners,
        "moves": moves,
    }
