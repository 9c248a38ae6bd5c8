"""The learned agent: loads its shipped weights, plays legal seeded games, rejects bad weights files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from rummyai.agents import AGENTS, Agent, make_agent, make_agent_from_spec
from rummyai.agents.greedy import GreedyAgent
from rummyai.agents.learned import (
    CANDIDATE_FEATURES,
    DEFAULT_WEIGHTS,
    FORMAT,
    LearnedAgent,
    Weights,
    greedy_weights,
    load_weights,
    save_weights,
)
from rummyai.cli import main as cli_main
from rummyai.engine import game
from rummyai.engine.moves import Draw, Move, Play
from rummyai.errors import RummyError


def play(agents: list[Agent], seed: int, variant: str = "rummikub") -> tuple[list[Move], list[int]]:
    """One 2-player deal; every move is checked legal by the engine before it is applied."""
    state = game.new_match(variant, len(agents), seed, options=["rounds=1"])
    for k, agent in enumerate(agents):
        agent.reset(seed + k)
    moves: list[Move] = []
    while not state.match_over:
        seat = state.to_act
        move = agents[seat].act(game.view(state, seat), game.legal_moves(state))
        assert game.validate(state, move) is None, f"illegal move {move} at decision {len(moves)}"
        moves.append(move)
        state = game.apply(state, move)
        assert len(moves) < 2000
    return moves, list(state.scores)


def test_shipped_weights_load_and_registry_lists_the_agent() -> None:
    weights = load_weights()
    assert weights.matrix.shape == (len(CANDIDATE_FEATURES), 5)
    assert np.all(np.isfinite(weights.matrix))
    assert DEFAULT_WEIGHTS.stat().st_size < 16_000
    assert "learned" in AGENTS
    agent = make_agent("learned")
    assert isinstance(agent, LearnedAgent) and agent.name == "learned"


def test_cli_agents_lists_learned(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["agents"]) == 0
    assert "learned" in capsys.readouterr().out


@pytest.mark.parametrize("opponent", ["greedy", "random"])
def test_full_legal_games_repeat_with_the_same_seed(opponent: str) -> None:
    first = play([make_agent_from_spec("learned"), make_agent_from_spec(opponent)], seed=21)
    again = play([make_agent_from_spec("learned"), make_agent_from_spec(opponent)], seed=21)
    moves, scores = first
    assert first == again
    assert sum(isinstance(m, Play) for m in moves[0::2]) > 0  # the learned seat did lay cards
    assert sum(scores) == 0 and any(scores)  # the deal ended with a winner (zero-sum in 2-player rummikub)


def test_greedy_matrix_reproduces_greedy() -> None:
    learner = LearnedAgent(weights=Weights(greedy_weights(), {}))
    assert play([learner, GreedyAgent()], seed=8) == play([GreedyAgent(), GreedyAgent()], seed=8)


def test_weights_decide_the_move() -> None:
    """A matrix that prefers drawing above everything draws where greedy lays cards."""
    matrix = greedy_weights()
    matrix[CANDIDATE_FEATURES.index("draw"), 0] = 100.0
    drawer = LearnedAgent(weights=Weights(matrix, {}))
    state = game.new_match("rummikub", 2, 21, options=["rounds=1"])
    greedy = GreedyAgent()
    for _ in range(200):  # advance with greedy until greedy would lay cards
        seat = state.to_act
        view, legal = game.view(state, seat), game.legal_moves(state)
        move = greedy.act(view, legal)
        if isinstance(move, Play):
            assert isinstance(drawer.act(view, legal), Draw)
            return
        state = game.apply(state, move)
    pytest.fail("greedy never played in 200 decisions")


def test_round_trip(tmp_path: Path) -> None:
    matrix = greedy_weights()
    matrix[1, 2] = -0.25
    path = tmp_path / "w.json"
    save_weights(path, matrix, {"note": "test"})
    loaded = load_weights(path)
    assert np.array_equal(loaded.matrix, matrix) and loaded.meta == {"note": "test"}


def _document() -> dict:
    return json.loads(DEFAULT_WEIGHTS.read_text())


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="other"), "format"),
        (lambda d: d.update(weights=d["weights"][:-1]), "list of numbers"),
        (lambda d: d["weights"][0].__setitem__(0, "x"), "list of numbers"),
        (lambda d: d["weights"][0].__setitem__(0, float("nan")), "non-finite"),
        (lambda d: d.update(candidate_features=["draw"]), "candidate_features"),
        (lambda d: d.update(meta=[1]), "meta"),
    ],
)
def test_malformed_weights_are_rejected(tmp_path: Path, change, message: str) -> None:
    document = _document()
    change(document)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document))
    with pytest.raises(RummyError, match=message):
        LearnedAgent(weights=str(path))


def test_corrupt_or_missing_file_is_rejected(tmp_path: Path) -> None:
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_bytes(DEFAULT_WEIGHTS.read_bytes()[:40])
    with pytest.raises(RummyError, match="not valid JSON"):
        make_agent_from_spec(f"learned:weights={corrupt}")
    with pytest.raises(RummyError, match="cannot read weights file"):
        LearnedAgent(weights=str(tmp_path / "missing.json"))


def test_draw_and_discard_variants_are_refused() -> None:
    state = game.new_match("standard", 2, 3)
    agent = LearnedAgent()
    with pytest.raises(RummyError, match="tile-style variants only"):
        agent.act(game.view(state, state.to_act), game.legal_moves(state))


def test_format_tag_is_in_the_shipped_file() -> None:
    assert _document()["format"] == FORMAT
