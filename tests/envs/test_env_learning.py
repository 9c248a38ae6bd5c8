"""The environments are shaped for learning: flat observation, history, candidate columns,
opponent mixes, and MaskablePPO trains on every id without wrappers."""

from __future__ import annotations

from pathlib import Path
from typing import cast

import gymnasium as gym
import numpy as np
import pytest

import rummyai.envs  # noqa: F401  (registers the ids)
from rummyai.agents.greedy import GreedyAgent
from rummyai.engine.game import view
from rummyai.envs import CURRENT_IDS, FEATURES, RummyEnv
from rummyai.envs.candidates import _dedupe_key, hand_cards_used
from rummyai.errors import RummyError

COL = {name: i for i, name in enumerate(FEATURES)}


@pytest.mark.parametrize("env_id", sorted(CURRENT_IDS.values()))
def test_observation_space_is_flat(env_id: str) -> None:
    env = gym.make(env_id)
    space = env.observation_space
    assert isinstance(space, gym.spaces.Dict)
    assert all(isinstance(s, gym.spaces.Box) for s in space.spaces.values())
    assert {"hand", "history_taken", "history_laid", "history_turns", "action_mask", "candidates"} <= set(
        space.spaces
    )


@pytest.mark.parametrize("env_id", ["rummyai/Rummikub-v2", "rummyai/StandardRummy-v2"])
def test_greedy_and_most_points_moves_are_always_candidates(env_id: str) -> None:
    env = cast(RummyEnv, gym.make(env_id, opponents="greedy").unwrapped)
    greedy = GreedyAgent()
    rng = np.random.default_rng(5)
    checked = 0
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            state = env.state
            assert state is not None
            from rummyai.engine.game import legal_moves

            move = greedy.act(view(state, env.seat), legal_moves(state))
            flagged = [c for c in env.candidates if c.features[COL["is_greedy"]] == 1.0]
            assert len(flagged) == 1
            assert len(hand_cards_used(state, flagged[0].move)) == len(hand_cards_used(state, move))
            assert sum(c.features[COL["is_most_points"]] for c in env.candidates) == 1.0
            # a discard puts no points down: it is the most-points move only where every move discards
            placing = [c for c in env.candidates if not c.features[COL["kind_discard"]]]
            points = [c.features[COL["hand_points_used"]] for c in placing or env.candidates]
            top = next(c for c in env.candidates if c.features[COL["is_most_points"]] == 1.0)
            assert top.features[COL["hand_points_used"]] == max(points)
            checked += _dedupe_key(state, flagged[0].move) == _dedupe_key(state, move)
            obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            done = terminated or truncated
    assert checked > 10


def test_holdback_column_counts_cards_below_the_best() -> None:
    env = cast(RummyEnv, gym.make("rummyai/Rummikub-v2").unwrapped)
    rng = np.random.default_rng(2)
    obs, _ = env.reset(seed=2)
    seen = 0
    for _ in range(200):
        rows = obs["candidates"][obs["action_mask"] == 1]
        cards = rows[:, COL["hand_cards_used"]]
        playing = cards > 0
        assert np.all(rows[playing, COL["holdback"]] == cards.max() - cards[playing])
        seen += int(np.any(rows[:, COL["holdback"]] > 0))
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if terminated or truncated:
            obs, _ = env.reset(seed=int(rng.integers(1000)))
    assert seen > 0


def test_history_records_draws_and_cards_laid_by_the_opponent() -> None:
    env = cast(RummyEnv, gym.make("rummyai/Rummikub-v2", opponents="greedy").unwrapped)
    obs, _ = env.reset(seed=11)
    rng = np.random.default_rng(0)
    for _ in range(30):
        state = env.state
        assert state is not None
        table = sum(len(m.all_ids()) for m in state.round.table)
        laid = int(obs["history_laid"].sum())
        assert laid == table  # every table card was laid by someone this round (one round here)
        turns = obs["history_turns"][1]
        assert turns[0].sum() > 0  # the opponent's last turn: drew or laid
        obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if terminated or truncated:
            break


def test_history_counts_cards_taken_from_the_discards() -> None:
    env = cast(RummyEnv, gym.make("rummyai/StandardRummy-v2", options={"max_deals": 1}).unwrapped)
    rng = np.random.default_rng(1)
    taken = 0
    for seed in range(4):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            kinds = [c.label for c in env.candidates]
            pick = (
                kinds.index("take")
                if "take" in kinds
                else int(rng.choice(np.flatnonzero(obs["action_mask"])))
            )
            obs, _, terminated, truncated, _ = env.step(pick)
            done = terminated or truncated
            taken = max(taken, int(obs["history_taken"][0].sum()))
    assert taken > 0


def test_weighted_opponent_mix_draws_per_episode() -> None:
    env = cast(RummyEnv, gym.make("rummyai/Rummikub-v2", opponents={"random": 1, "greedy": 1}).unwrapped)
    names = set()
    for seed in range(12):
        env.reset(seed=seed)
        names.add(env.opponents[0].name)
    assert names == {"random", "greedy"}
    with pytest.raises(RummyError, match="positive weight"):
        gym.make("rummyai/Rummikub-v2", opponents={"random": 0})
    with pytest.raises(RummyError, match="must be finite"):
        gym.make("rummyai/Rummikub-v2", opponents={"random": -1})


@pytest.mark.parametrize("env_id", sorted(CURRENT_IDS.values()))
def test_maskable_ppo_trains_without_wrappers(
    env_id: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A few hundred MaskablePPO steps on the registered id as it is (extra `learn`)."""
    pytest.importorskip("sb3_contrib")
    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path))  # else its logger leaves a folder in /tmp
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    env = gym.make(env_id)
    model = MaskablePPO("MultiInputPolicy", env, n_steps=128, batch_size=64, n_epochs=1, seed=0)
    model.learn(256)
    obs, _ = env.reset(seed=1)
    action, _ = model.predict(obs, action_masks=obs["action_mask"].astype(bool), deterministic=True)
    assert obs["action_mask"][int(action)] == 1


def test_environments_page_is_generated_from_the_docstrings() -> None:
    from rummyai.envs.docs import markdown

    page = Path(__file__).resolve().parents[2] / "docs" / "environments.md"
    assert page.read_text() == markdown(), "regenerate: python -m rummyai.envs.docs > docs/environments.md"


def test_self_play_opponent_and_aec_view_share_the_observation() -> None:
    from rummyai.envs import aec_env
    from rummyai.envs.policy_agent import PolicyAgent, first_valid_slot

    env = gym.make("rummyai/Rummikub-v2", opponents=PolicyAgent(first_valid_slot), max_turns=20)
    obs, _ = env.reset(seed=3)
    for _ in range(8):
        obs, _, terminated, truncated, _ = env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        if terminated or truncated:
            break
    aec = aec_env("rummyai/Rummikub-v2", max_turns=20)
    aec.reset(seed=3)
    seen = aec.observe(aec.agent_selection)
    assert set(seen) == set(obs) and aec.observation_space(aec.agent_selection).contains(seen)


def test_points_call_left_out_only_where_it_could_not_score_more() -> None:
    """Where the bound skips the most-points call, that call would not have found more points."""
    from rummyai.envs import SolverCandidates
    from rummyai.envs.solver_candidates import points_bound
    from rummyai.playable import playable_cards
    from rummyai.solvers import solve

    env = cast(RummyEnv, gym.make("rummyai/Rummikub-v2").unwrapped)
    builder = cast(SolverCandidates, env.builder)
    rng = np.random.default_rng(4)
    checked = 0
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            state = env.state
            assert state is not None
            rs, deck = state.round, state.variant.deck
            opened = bool(rs.opened[rs.turn])
            table = [m.slots(deck) for m in rs.table]
            kinds = [deck[i] for i in rs.hands[rs.turn]]
            hand = list(playable_cards(state.variant, kinds, [s.card for m in table for s in m], opened))
            if hand:
                best = solve(state.variant, hand, table, opened=opened, objective="cards")
                bounded = points_bound(state.variant, hand, best.cards_played - 1) <= best.points_played
                if 0 < best.cards_played < len(hand) and bounded:
                    most = solve(state.variant, hand, table, opened=opened, objective="points")
                    assert most.points_played <= best.points_played
                    checked += 1
            obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            done = terminated or truncated
    assert checked > 5 and builder.stats.points_bounded > 0


def test_view_history_matches_the_environments_in_two_player_tile_games() -> None:
    """The policy adapter's history, rebuilt from the seat's views, equals the environment's."""
    from rummyai.engine.game import view
    from rummyai.envs.policy_agent import ViewHistory

    env = cast(RummyEnv, gym.make("rummyai/Rummikub-v2", opponents="greedy", seat=None).unwrapped)
    compared = 0
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        history = ViewHistory(2)
        rng = np.random.default_rng(seed)
        done = False
        while not done:
            state = env.state
            assert state is not None
            history.update(view(state, env.seat), state.variant)
            rebuilt = history.history.arrays(env.seat)
            for key, array in rebuilt.items():
                assert np.array_equal(array, obs[key]), (seed, key, state.round.turn_count)
            compared += 1
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            history.note_own(state, env.candidates[action].move)
            obs, _, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
    assert compared > 30


def test_history_records_a_palace_knock_and_no_turn_for_a_decline() -> None:
    from rummyai.engine.discard import DeclineKnock, Discard, Knock
    from rummyai.engine.discard_setup import build_state, hand_ids
    from rummyai.engine.game import apply
    from rummyai.envs.history import PublicHistory

    s = build_state(
        "rummy-palace",
        ["5C 9D", "2H 3H", "4S 6S", "7C 8C"],
        stock="KD QD",
        opened=[True, True, False, True],
        options=["knocking"],
    )
    asked = apply(s, Discard(hand_ids(s, 0, "9D")[0]))  # seat 3 is asked whether it knocks
    history = PublicHistory(4)
    history.record_move(asked, DeclineKnock(3), apply(asked, DeclineKnock(3)))
    assert not history.recent.any() and not history.taken.any()
    history.record_move(asked, Knock(3), apply(asked, Knock(3)))
    nine_of_diamonds = asked.variant.deck[hand_ids(s, 0, "9D")[0]]
    assert history.taken[3, nine_of_diamonds] == 1 and history.taken.sum() == 1
    assert history.recent[3, 0].tolist() == [1, 1, 0]  # a penalty draw and the card taken


def test_the_environments_pages_python_examples_run() -> None:
    import re

    page = (Path(__file__).resolve().parents[2] / "docs" / "environments.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", page, flags=re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "docs/environments.md", "exec"), {})
