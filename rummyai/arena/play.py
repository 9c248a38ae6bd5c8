"""Play one tournament game with the engine and return its record (a JSON-ready dict).

A record holds the game's identity (set, seating), the seats' agent specs, final match scores,
winners and ranks (1 = best, ties share a rank), how the rounds ended, and per seat the number
of decisions and the time spent deciding; with `record_moves` also every move (``moves``, in
`rummyai.engine.replay` form), which the web page's replay viewer steps through.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rummyai.agents import Agent, make_agent_from_spec
from rummyai.arena.duplicate import GameTask
from rummyai.engine import game
from rummyai.engine.replay import move_to_json
from rummyai.errors import IllegalMoveError, RummyError
from rummyai.variants import get_variant

GameRecord = dict[str, Any]
GameFn = Callable[[GameTask], GameRecord]

#: Safety net against an agent/engine pair that never ends a match (far above any real game).
MAX_DECISIONS = 200_000

_AGENTS: dict[tuple[str, int], Agent] = {}


def agent_for(spec: str, seat: int) -> Agent:
    """One agent instance per spec, seat and process (reset before every game, so reuse is safe)."""
    agent = _AGENTS.get((spec, seat))
    if agent is None:
        agent = _AGENTS[spec, seat] = make_agent_from_spec(spec)
    return agent


def ranks_of(
    scores: tuple[int, ...] | list[int], winners: tuple[int, ...] | list[int], low_wins: bool
) -> list[int]:
    """Finishing place per seat: winners first, then the others by score; ties share a place."""
    sign = 1 if low_wins else -1
    rest = [seat for seat in range(len(scores)) if seat not in winners]
    ranks = []
    for seat in range(len(scores)):
        if seat in winners:
            ranks.append(1)
        else:
            better = sum(1 for other in rest if sign * scores[other] < sign * scores[seat])
            ranks.append(1 + len(winners) + better)
    return ranks


def play_game(
    task: GameTask, on_decision: Callable[[int, float], None] | None = None, record_moves: bool = False
) -> GameRecord:
    """Play the task's match with the engine, each seat's agent choosing from its own view;
        `on_decision(seat, seconds)` hears every decision's thinking time (the record keeps each seat's
    total and every decision's time, to 0.1 ms, for the tail of the seconds per move);
        `record_moves` keeps every move in the record."""
    started = time.perf_counter()
    agents = [agent_for(spec, seat) for seat, spec in enumerate(task.seats)]
    for agent, seed in zip(agents, task.agent_seeds, strict=True):
        agent.reset(seed)
    state = game.new_match(
        task.variant, len(task.seats), task.match_seed, options=list(task.options), max_turns=task.max_turns
    )
    decisions = [0] * len(task.seats)
    think = [0.0] * len(task.seats)
    move_seconds: list[list[float]] = [[] for _ in task.seats]
    moves: list[Any] = []
    while not state.match_over:
        seat = state.to_act
        legal = game.legal_moves(state)
        view = game.view(state, seat)
        tick = time.perf_counter()
        move = agents[seat].act(view, legal)
        seconds = time.perf_counter() - tick
        think[seat] += seconds
        move_seconds[seat].append(round(seconds, 4))
        if on_decision is not None:
            on_decision(seat, seconds)
        decisions[seat] += 1
        if record_moves:
            moves.append(move_to_json(move))
        try:
            state = game.apply(state, move)
        except IllegalMoveError as error:
            raise RummyError(
                f"agent {task.seats[seat]!r} at seat {seat} of game {task.key} chose an illegal move: {error}"
            ) from error
        if sum(decisions) > MAX_DECISIONS:
            raise RummyError(f"game {task.key} did not end after {MAX_DECISIONS} decisions")
    variant = get_variant(task.variant, list(task.options))
    winners = list(state.winners)
    record: GameRecord = {
        "set": task.set_index,
        "seating": task.seating_index,
        "match_seed": task.match_seed,
        "seats": list(task.seats),
        "scores": list(state.scores),
        "winners": winners,
        "ranks": ranks_of(state.scores, winners, variant.low_score_wins),
        "rounds": len(state.history),
        "ends": [result.reason for result in state.history],
        "decisions": decisions,
        "think_s": [round(t, 6) for t in think],
        "move_s": move_seconds,
        "seconds": round(time.perf_counter() - started, 6),
    }
    if record_moves:
        record["moves"] = moves
    return record


def play_recorded_game(task: GameTask) -> GameRecord:
    """`play_game` keeping every move (a tournament's `game_fn` for replays)."""
    return play_game(task, record_moves=True)
