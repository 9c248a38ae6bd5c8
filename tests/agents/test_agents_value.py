"""The value agent: features of a hand-made view, the weights file, legal and seeded play."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from rummyai.agents import make_agent
from rummyai.agents.greedy import GreedyAgent
from rummyai.agents.value import (
    FEATURES,
    ValueAgent,
    ValueModel,
    after_play,
    features,
    load_model,
    save_model,
    seen_from_view,
)
from rummyai.engine import game
from rummyai.engine.moves import Move, Play
from rummyai.engine.state import GameState, TableMeld
from rummyai.errors import RummyError


def hand_made_view() -> dict[str, Any]:
    """Seat 0 of a 2-player rummikub round: hand 5S 6S 7S 5H 5H KD JK, table 9C TC JC."""
    return {
        "family": "play_or_draw",
        "variant": "rummikub",
        "seat": 0,
        # rummikub ids: kind k is id k (first copy) or k + 52 (second copy); the jokers are 104, 105
        "hand": [4, 5, 6, 17, 69, 38, 104],
        "table": [{"ids": [47, 48, 49], "cards": "9C TC JC"}],
        "hand_sizes": [7, 5],
        "opened": [True, False],
        "stock_size": 50,
        "turn_count": 12,
        "phase": "normal",
    }


def feature_dict(x: np.ndarray) -> dict[str, float]:
    return dict(zip(FEATURES, (float(v) for v in x), strict=True))


def test_features_of_a_hand_made_view() -> None:
    got = feature_dict(features(seen_from_view(hand_made_view())))
    assert got == pytest.approx(
        {
            "own_cards": 7,
            "own_points": 7.1,  # 5 + 6 + 7 + 5 + 5 + 13 + 30 (joker)
            "jokers": 1,
            "duplicates": 1,  # the second 5H
            "hand_meldable": 5,  # 5S 6S 7S run, 5S 5H (+ joker) group; KD fits nothing
            "table_fit": 5,  # the clubs run does not help KD either
            "connectors": 4,  # 5S-6S, 5S-7S, 6S-7S, 5S-5H
            "isolated": 1,  # KD
            "opp_cards": 5,
            "card_lead": -2,
            "opp_near_out": 0,
            "own_opened": 1,
            "opp_opened": 0,
            "stock": 5.0,
            "table_cards": 0.3,
            "turn": 1.2,
        }
    )


def test_features_after_a_play() -> None:
    view = hand_made_view()
    seen = seen_from_view(view)
    run = TableMeld((4, 5, 6), (None, None, None))
    after = after_play(seen, Play((*seen.table, run)))
    got = feature_dict(features(after))
    assert got["own_cards"] == 4
    assert got["own_points"] == pytest.approx(5.3)  # 5H 5H KD JK
    assert got["table_cards"] == pytest.approx(0.6)
    assert got["card_lead"] == 1
    assert got["turn"] == pytest.approx(1.3)
    assert got["connectors"] == 0 and got["isolated"] == 3


def tiny_model(**weights: float) -> ValueModel:
    """A logistic model with the given weights on raw (unstandardised) features."""
    n = len(FEATURES)
    w = np.zeros((n, 1))
    for name, value in weights.items():
        w[FEATURES.index(name), 0] = value
    return ValueModel(np.zeros(n), np.ones(n), ((w, np.zeros(1)),))


def test_shipped_weights_load_and_predict_probabilities() -> None:
    model = load_model()
    x = features(seen_from_view(hand_made_view()))
    p = model.predict(np.stack([x, x * 0]))
    assert p.shape == (2,) and np.all((p > 0) & (p < 1))
    assert "train_value.py" in model.meta or "command" in model.meta


def test_weights_round_trip(tmp_path: Path) -> None:
    model = tiny_model(own_cards=-0.5, jokers=1.0)
    path = tmp_path / "model.npz"
    save_model(path, model)
    back = load_model(path)
    x = features(seen_from_view(hand_made_view()))
    assert back.predict(x) == pytest.approx(model.predict(x))


def test_bad_weights_files_raise(tmp_path: Path) -> None:
    with pytest.raises(RummyError, match="cannot read"):
        load_model(tmp_path / "missing.npz")
    wrong = tmp_path / "wrong.npz"
    np.savez(wrong, format=np.array("rummyai-value-mlp-v1"), features=np.array(["own_cards"]))
    with pytest.raises(RummyError, match="features"):
        load_model(wrong)
    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(b"not an npz file")
    with pytest.raises(RummyError, match="cannot read"):
        load_model(garbage)


def play_round(agent: ValueAgent, seed: int) -> tuple[list[Move], GameState]:
    """A 2-player rummikub round of `agent` (seat 0) against greedy; every move checked legal."""
    greedy = GreedyAgent()
    agent.reset(seed)
    state = game.new_match("rummikub", 2, seed, options=["rounds=1"])
    moves: list[Move] = []
    while not state.history:
        seat = state.to_act
        view = game.view(state, seat)
        legal = game.legal_moves(state)
        move = agent.act(view, legal) if seat == 0 else greedy.act(view, legal)
        assert game.validate(state, move) is None
        if seat == 0:
            moves.append(move)
        state = game.apply(state, move)
    return moves, state


def test_agent_plays_legal_moves_and_is_deterministic() -> None:
    first, end = play_round(ValueAgent(), 31)
    again, _ = play_round(ValueAgent(), 31)
    assert first == again
    assert end.history[0].reason


def test_agent_plays_the_best_rated_candidate() -> None:
    # a model that likes keeping jokers and small hands: it deviates from greedy somewhere
    agent = ValueAgent(weights=tiny_model(own_cards=-1.0, jokers=3.0, connectors=0.5), margin=0.0)
    greedy = GreedyAgent()
    state = game.new_match("rummikub", 2, 5, options=["rounds=1"])
    checked = 0
    while not state.history and checked < 40:
        view = game.view(state, state.to_act)
        legal = game.legal_moves(state)
        move = agent.act(view, legal)
        plays, rated = agent.last
        if len(plays) > 1:
            assert move == plays[int(np.argmax(rated))] or rated.max() <= rated[0]
            checked += 1
        state = game.apply(state, greedy.act(view, legal))
    assert checked > 0


def test_margin_keeps_greedy_play() -> None:
    agent = ValueAgent(weights=tiny_model(jokers=5.0), margin=1.0)  # no candidate can gain a whole 1.0
    greedy = GreedyAgent()
    state = game.new_match("rummikub", 2, 8, options=["rounds=1"])
    while not state.history:
        view = game.view(state, state.to_act)
        legal = game.legal_moves(state)
        assert agent.act(view, legal) == greedy.act(view, legal)
        state = game.apply(state, greedy.act(view, legal))


def test_registry_and_bad_input() -> None:
    agent = make_agent("value", alternatives=2)
    assert isinstance(agent, ValueAgent)
    with pytest.raises(RummyError, match="alternatives"):
        ValueAgent(alternatives=-1)
    state = game.new_match("standard", 2, 1)
    with pytest.raises(RummyError, match="tile-style"):
        agent.act(game.view(state, state.to_act), game.legal_moves(state))
