"""Agents solve under the match's variant options (the view names them), so their moves stay legal."""

from __future__ import annotations

import pytest

from rummyai.agents import make_agent_from_spec
from rummyai.agents.solver_play import state_position, variant_of
from rummyai.engine import game


def test_view_names_the_options_and_agents_read_them() -> None:
    state = game.new_match("rummikub", 2, 1, options=["rounds=1", "official_jokers"])
    view = game.view(state, 0)
    assert view["options"] == ["official_jokers", "rounds=1"]
    assert variant_of(view) is state.variant
    assert state_position(state, 0).variant is state.variant


@pytest.mark.parametrize(
    ("variant", "options", "seed"),
    [
        ("rummikub", ["rounds=1", "official_jokers"], 0),  # greedy broke rule 8.2 under base rules
        ("rummikub", ["rounds=1", "official_jokers"], 1),
        ("rhine", ["rounds=1", "extra_packs=1"], 0),
    ],
)
def test_solver_agents_play_legal_games_under_options(variant: str, options: list[str], seed: int) -> None:
    """`game.apply` raises on an illegal move, so a finished game is a game of legal moves."""
    state = game.new_match(variant, 2, seed, options=options)
    agents = [make_agent_from_spec("greedy"), make_agent_from_spec("holdback")]
    for k, agent in enumerate(agents):
        agent.reset(seed + k)
    for _ in range(400):
        if state.match_over:
            break
        seat = state.to_act
        state = game.apply(state, agents[seat].act(game.view(state, seat), game.legal_moves(state)))
    assert state.match_over
