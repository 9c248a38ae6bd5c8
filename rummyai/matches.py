"""One whole match between agents: the engine's game loop with agents built from specs or given."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypedDict, cast

from rummyai.agents.base import Agent, check_agent_fits, make_agent_from_spec
from rummyai.engine.game import check_max_turns, check_players, view
from rummyai.engine.game import play_match as play_engine_match
from rummyai.engine.selfplay import match_record
from rummyai.errors import RummyError
from rummyai.variants import Variant, get_variant


class RoundRecord(TypedDict):
    """How one round ended: its winning seat (None when shared or nobody went out) and scores."""

    winner: int | None
    scores: list[int]
    reason: str


class MatchRecord(TypedDict):
    """The JSON-ready record of a finished match (what ``rummyai play --json`` prints)."""

    variant: str
    options: list[str]
    seed: int
    players: int
    agents: list[str]
    rounds: list[RoundRecord]
    totals: list[int]
    winner: int | None
    winners: list[int]
    moves: int


def build_agent(spec: str | Agent) -> Agent:
    """An agent from a spec such as ``"mcts:iterations=40"`` (or the agent itself), bad specs named."""
    if not isinstance(spec, str):
        if not (callable(getattr(spec, "reset", None)) and callable(getattr(spec, "act", None))):
            raise RummyError(f"{spec!r} is neither an agent name nor an agent (an object with reset and act)")
        return spec
    try:
        return make_agent_from_spec(spec)
    except (TypeError, ValueError) as error:
        if isinstance(error, RummyError):
            raise
        raise RummyError(f"agent spec {spec!r} cannot be built: {error}") from None


def play_match(
    variant: str | Variant,
    agents: Sequence[str | Agent],
    *,
    seed: int = 0,
    options: Mapping[str, Any] | Iterable[str] | None = None,
    max_turns: int | None = None,
) -> MatchRecord:
    """Play one match, one agent per seat; the same seed (deals and agent seeds) replays it exactly,
    unless an agent searches on a wall-clock budget (`time_per_move`)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise RummyError(f"seed must be a non-negative integer, got {seed!r}")
    check_max_turns(max_turns)
    if isinstance(agents, str) or not isinstance(agents, Sequence):
        raise RummyError(f"agents must be a list of agent specs, one per seat, got {agents!r}")
    rules = get_variant(variant, options)
    check_players(rules, len(agents))
    players = [build_agent(spec) for spec in agents]
    names = [spec if isinstance(spec, str) else type(spec).__name__ for spec in agents]
    for name, agent in zip(names, players, strict=True):
        check_agent_fits(agent, name, rules, len(players))
    for seat, agent in enumerate(players):
        agent.reset(seed * 1000 + seat)
    moves = 0

    def choose(state: Any, seat: int, legal: Any, rng: Any) -> Any:
        nonlocal moves
        moves += 1
        return players[seat].act(view(state, seat), legal)

    state = play_engine_match(rules, len(players), seed, choose, max_turns=max_turns)
    return cast(MatchRecord, match_record(state, names, moves))
