"""Play whole matches with named agents and summarise them as plain data (the `rummyai play` record)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from rummyai.engine.game import apply, legal_moves, new_match
from rummyai.engine.state import GameState
from rummyai.errors import RummyError
from rummyai.variants import Variant

KNOWN_AGENTS = ("random",)


def play_random_match(
    variant: Variant, agents: Sequence[str], seed: int, max_turns: int | None = None
) -> tuple[GameState, int]:
    """Play a match to its end, each seat picking uniformly among the engine's legal moves.

    Returns the final state and the number of moves made.
    """
    for name in agents:
        if name not in KNOWN_AGENTS:
            raise RummyError(f"unknown agent {name!r} (known: {', '.join(KNOWN_AGENTS)})")
    rng = np.random.default_rng([seed, 7])
    state = new_match(variant, len(agents), seed, max_turns=max_turns)
    made = 0
    while not state.match_over:
        moves = legal_moves(state)
        if not moves:
            raise RummyError(f"no legal move for seat {state.to_act} (engine bug)")
        state = apply(state, moves[int(rng.integers(len(moves)))])
        made += 1
    return state, made


def match_record(state: GameState, agents: Sequence[str], moves: int) -> dict[str, Any]:
    """The JSON record of a finished match: rounds with winner and scores, totals, winners."""
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


def play_match_record(
    variant: Variant, agents: Sequence[str], seed: int, max_turns: int | None = None
) -> dict[str, Any]:
    """Play a match with the named agents and return its record (same seed, same record)."""
    state, moves = play_random_match(variant, agents, seed, max_turns)
    return match_record(state, agents, moves)
