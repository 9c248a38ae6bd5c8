"""The learned agent and the policy adapter: shipped weights load, games are legal and seeded,
the scores decide the move, bad weights files and bad policies are refused."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from rummyai.agents import AGENTS, Agent, make_agent, make_agent_from_spec
from rummyai.agents.learned import (
    DEFAULT_WEIGHTS,
    DISCARD_WEIGHTS,
    STATE_FEATURES,
    CandidateScorer,
    LearnedAgent,
    greedy_scorer,
    load_scorer,
    save_scorer,
)
from rummyai.cli import main as cli_main
from rummyai.engine import game
from rummyai.engine.moves import Draw, Move, Play
from rummyai.envs import FEATURES, V1_FEATURES
from rummyai.envs.policy_agent import PolicyAgent, choose_slot, policy_agent
from rummyai.errors import RummyError


def play(agents: list[Agent], seed: int, variant: str = "rummikub") -> tuple[list[Move], list[int]]:
    """One deal; every move is checked legal by the engine before it is applied."""
    options = ["rounds=1"] if variant in ("rummikub", "rhine") else []
    state = game.new_match(variant, len(agents), seed, options=options)
    for k, agent in enumerate(agents):
        agent.reset(seed + k)
    moves: list[Move] = []
    while not state.match_over:
        seat = state.to_act
        move = agents[seat].act(game.view(state, seat), game.legal_moves(state))
        assert game.validate(state, move) is None, f"illegal move {move} at decision {len(moves)}"
        moves.append(move)
        state = game.apply(state, move)
        assert len(moves) < 3000
    return moves, list(state.scores)


def test_shipped_weights_load_and_registry_lists_the_agents() -> None:
    scorer = load_scorer()
    assert scorer.layers[0][0].shape[0] == len(scorer.features) + len(STATE_FEATURES)
    assert set(scorer.features) <= set(FEATURES)
    assert DEFAULT_WEIGHTS.stat().st_size < 200_000
    assert "learned" in AGENTS and "policy" in AGENTS
    agent = make_agent("learned")
    assert isinstance(agent, LearnedAgent) and agent.name == "learned"


def test_each_family_of_games_gets_its_shipped_weights() -> None:
    """Without a file the agent scores tile-style games with the rummikub weights and
    draw-meld-discard games with the standard-rummy ones; a file given is used everywhere."""
    assert DISCARD_WEIGHTS.stat().st_size < 200_000
    tile, discard = load_scorer(DEFAULT_WEIGHTS), load_scorer(DISCARD_WEIGHTS)
    assert not np.array_equal(tile.layers[0][0], discard.layers[0][0])
    agent = LearnedAgent()
    play([agent, make_agent_from_spec("greedy")], seed=3, variant="standard")
    assert np.array_equal(agent.scorer.layers[0][0], discard.layers[0][0])
    play([agent, make_agent_from_spec("greedy")], seed=3)
    assert np.array_equal(agent.scorer.layers[0][0], tile.layers[0][0])
    import copy
    import pickle

    twin = copy.deepcopy(agent)  # a copy scores with its own weights, and the agent pickles
    play([twin, make_agent_from_spec("greedy")], seed=3, variant="standard")
    assert np.array_equal(twin.scorer.layers[0][0], discard.layers[0][0])
    assert np.array_equal(agent.scorer.layers[0][0], tile.layers[0][0])
    assert pickle.loads(pickle.dumps(agent)).scorer.features == tile.features
    fixed = LearnedAgent(weights=str(DEFAULT_WEIGHTS))
    play([fixed, make_agent_from_spec("greedy")], seed=3, variant="standard")
    assert np.array_equal(fixed.scorer.layers[0][0], tile.layers[0][0])


def test_shipped_weights_refuse_rummy_palace_by_name() -> None:
    """The draw-and-discard weights were made in standard rummy: matches refuse them in Rummy
    Palace (where they lose) and take them in Black Heart; a weights file of one's own plays on."""
    from rummyai import play_match

    with pytest.raises(RummyError, match="no shipped weights for rummy-palace"):
        play_match("rummy-palace", ["learned", "greedy"], seed=1, options={"max_rounds": 1})
    assert play_match("black-heart", ["learned", "greedy"], seed=1, options={"max_deals": 1})["totals"]
    spec = f"learned:weights={DISCARD_WEIGHTS}"
    assert play_match("rummy-palace", [spec, "greedy"], seed=1, options={"max_rounds": 1})["totals"]


def test_cli_agents_lists_learned_and_policy(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["agents"]) == 0
    out = capsys.readouterr().out
    assert "learned" in out and "policy" in out


@pytest.mark.parametrize("opponent", ["greedy", "random"])
def test_full_legal_games_repeat_with_the_same_seed(opponent: str) -> None:
    first = play([make_agent_from_spec("learned"), make_agent_from_spec(opponent)], seed=21)
    again = play([make_agent_from_spec("learned"), make_agent_from_spec(opponent)], seed=21)
    moves, scores = first
    assert first == again
    assert sum(isinstance(m, Play) for m in moves[0::2]) > 0  # the learned seat did lay cards
    assert sum(scores) == 0 and any(scores)


@pytest.mark.parametrize("variant", ["rummy-palace", "standard"])
def test_draw_and_discard_games_are_legal(variant: str) -> None:
    moves, _ = play(
        [make_agent_from_spec("learned"), make_agent_from_spec("random")], seed=5, variant=variant
    )
    assert len(moves) > 10


def test_scores_decide_the_move() -> None:
    """A network that rates the draw above everything draws where greedy's scorer lays cards."""
    greedy = greedy_scorer()
    w1, b1 = greedy.layers[0]
    w1 = w1.copy()
    w1[FEATURES.index("draws"), 0] = 20.0
    drawer = CandidateScorer(((w1, b1), *greedy.layers[1:]), greedy.features)
    lays = PolicyAgent(greedy.scores)
    draws = PolicyAgent(drawer.scores)
    state = game.new_match("rummikub", 2, 21, options=["rounds=1"])
    for _ in range(200):
        seat = state.to_act
        view, legal = game.view(state, seat), game.legal_moves(state)
        move = lays.act(view, legal)
        if isinstance(move, Play):
            assert isinstance(draws.act(view, legal), Draw)
            return
        draws.act(view, legal)
        state = game.apply(state, move)
    pytest.fail("the greedy scorer never played in 200 decisions")


def test_round_trip_and_bad_files_are_refused(tmp_path: Path) -> None:
    scorer = greedy_scorer(hidden=8, seed=3)
    path = tmp_path / "w.npz"
    save_scorer(path, CandidateScorer(scorer.layers, scorer.features, {"note": "test"}))
    loaded = load_scorer(path)
    assert loaded.meta == {"note": "test"}
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(loaded.layers, scorer.layers, strict=True))
    with pytest.raises(RummyError, match=r"weights=.*cannot read weights file"):  # names the parameter
        LearnedAgent(weights=str(tmp_path / "missing.npz"))
    corrupt = tmp_path / "corrupt.npz"
    corrupt.write_bytes(path.read_bytes()[:60])
    with pytest.raises(RummyError, match=r"is not an \.npz archive of weights"):
        make_agent_from_spec(f"learned:weights={corrupt}")
    text = tmp_path / "notes.txt"
    text.write_text("not weights\n")
    with pytest.raises(RummyError, match=r"notes\.txt is not an \.npz archive of weights"):
        load_scorer(text)
    other = tmp_path / "other.npz"
    np.savez(other, format=np.array("something"), w0=np.zeros((2, 1)), b0=np.zeros(1))
    with pytest.raises(RummyError, match="format"):
        load_scorer(other)
    nan = tmp_path / "nan.npz"
    w = scorer.layers[0][0].copy()
    w[0, 0] = np.nan
    save_scorer(nan, CandidateScorer(((w, scorer.layers[0][1]), *scorer.layers[1:]), scorer.features))
    with pytest.raises(RummyError, match="non-finite"):
        load_scorer(nan)


def test_choose_slot_reads_indices_and_scores() -> None:
    mask = np.array([1, 1, 0, 1], dtype=np.int8)
    assert choose_slot(3, mask) == 3
    assert choose_slot(2, mask) == 0  # masked
    assert choose_slot(np.array([0.0, 5.0, 9.0, 1.0]), mask) == 1  # the masked 9.0 is ignored
    assert choose_slot("x", mask) == 0


def test_policy_agent_from_a_callable_target_plays_legal_games() -> None:
    agent = make_agent_from_spec("policy:target=rummyai.envs.policy_agent.first_valid_slot")
    moves, _ = play([agent, make_agent_from_spec("greedy")], seed=4)
    assert moves
    with pytest.raises(RummyError, match="exactly one"):
        policy_agent()
    with pytest.raises(RummyError, match="cannot be imported"):
        policy_agent(target="no.such.module.f")
    with pytest.raises(RummyError, match=r"path=/nonexistent/model\.zip: no such file"):
        policy_agent(path="/nonexistent/model.zip")


def test_policy_agent_plays_an_sb3_model(tmp_path: Path) -> None:
    """A MaskablePPO model saved as .zip enters a game as the registered `policy` agent (extra `learn`)."""
    pytest.importorskip("sb3_contrib")
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    model = MaskablePPO(
        "MultiInputPolicy", gym.make("rummyai/Rummikub-v2"), n_steps=32, batch_size=32, seed=0
    )
    path = tmp_path / "model.zip"
    model.save(path)
    agent = make_agent_from_spec(f"policy:path={path}")
    moves, scores = play([agent, make_agent_from_spec("random")], seed=2)
    assert moves and sum(scores) == 0
    # a game whose observations have another shape is refused before the first move, by name
    from rummyai import play_match

    spec = f"policy:path={path}"
    with pytest.raises(RummyError, match=r"trained on observations where .* 3-player rummikub"):
        play_match("rummikub", [spec, "greedy", "greedy"], seed=1, options={"rounds": 1})
    with pytest.raises(RummyError, match="standard"):
        play_match("standard", [spec, "greedy"], seed=1, options={"max_deals": 1})
    with pytest.raises(RummyError, match="3-player rummikub"):
        gym.make("rummyai/Rummikub-v2", num_players=3, opponents=spec)


def test_a_model_of_the_flat_vector_is_refused_by_what_it_was_trained_on(tmp_path: Path) -> None:
    pytest.importorskip("sb3_contrib")
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    from rummyai import play_match
    from rummyai.envs.wrappers import FlatObservation

    env = FlatObservation(gym.make("rummyai/Rummikub-v2"))
    path = tmp_path / "flat.zip"
    MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, seed=0).save(path)
    with pytest.raises(RummyError, match=r"one flat vector .* MultiInputPolicy"):
        play_match("rummikub", [f"policy:path={path}", "greedy"], seed=1, options={"rounds": 1})


def test_a_saved_model_plays_in_a_tournament_with_two_workers(tmp_path: Path) -> None:
    """torch loaded in the tournament process must not hang forked workers (extra `learn`)."""
    pytest.importorskip("sb3_contrib")
    import subprocess
    import sys

    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    model = MaskablePPO(
        "MultiInputPolicy", gym.make("rummyai/Rummikub-v2"), n_steps=32, batch_size=32, seed=0
    )
    model.save(tmp_path / "model.zip")
    out = tmp_path / "tournament"
    command = [sys.executable, "-m", "rummyai.cli", "tournament", "--variant", "rummikub", "--agents"]
    command += [f"policy:path={tmp_path / 'model.zip'},greedy", "--sets", "2", "--players", "2"]
    command += ["--seed", "1", "--workers", "2", "--no-progress", "--out", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert len((out / "games.jsonl").read_text().splitlines()) == 4


def test_a_policy_target_in_the_working_folder_with_v1_observations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`policy:target=` finds a module beside the user; `version=1` gives it the v1 columns."""
    (tmp_path / "my_policy_module.py").write_text(
        "widths = []\ndef first(obs):\n    widths.append(obs['candidates'].shape[1])\n    return 0\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    from rummyai import play_match

    play_match("rummikub", ["policy:target=my_policy_module.first:version=1", "greedy"], seed=1)
    import my_policy_module  # type: ignore[import-not-found]

    assert my_policy_module.widths and set(my_policy_module.widths) == {len(V1_FEATURES)}
    with pytest.raises(RummyError, match="version is 1 or 2"):
        make_agent_from_spec("policy:target=my_policy_module.first:version=3")


@pytest.mark.parametrize("variant", ["rummikub", "standard"])
def test_greedy_scorer_replays_greedy(variant: str) -> None:
    """The network the training starts from plays greedy's games (the same moves): the candidates
    a `PolicyAgent` builds from the seat's view mark greedy's move as the environment does."""
    from rummyai.agents.greedy import GreedyAgent

    for seed in (8, 9):
        learner = PolicyAgent(greedy_scorer().scores)
        ours = play([learner, GreedyAgent()], seed=seed, variant=variant)
        theirs = play([GreedyAgent(), GreedyAgent()], seed=seed, variant=variant)
        assert ours == theirs


def test_training_pipeline_runs_end_to_end(tmp_path: Path) -> None:
    """collect -> train_bc -> curve on a tiny scale (a cheap expert), each resumable (extra `learn`)."""
    pytest.importorskip("torch")
    import subprocess
    import sys

    scripts = Path(__file__).resolve().parents[2] / "experiments" / "training"

    def run(name: str, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, str(scripts / name), *args],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    data, out = tmp_path / "bc", tmp_path / "scorer"
    run("collect.py", "--games", "2", "--out", str(data), "--expert", "greedy-points")
    assert len(list(data.glob("game_*.npz"))) == 2
    run("train_bc.py", "--data", str(data), "--out", str(out), "--epochs", "2")
    run("train_bc.py", "--data", str(data), "--out", str(out), "--epochs", "3")  # resumes at epoch 2
    assert sorted(p.name for p in out.glob("scorer_*.npz")) == [
        "scorer_000.npz",
        "scorer_001.npz",
        "scorer_002.npz",
    ]
    assert len((out / "log.jsonl").read_text().splitlines()) == 3
    load_scorer(out / "scorer_002.npz")
    text = run("curve.py", "--scorers", str(out), "--sets", "1", "--every", "2")
    assert "epoch 0:" in text and "epoch 2:" in text and (out / "curve.png").stat().st_size > 0
