"""The ``shaped`` reward pays for every card shed, the cards of the move that goes out included."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import rummyai.envs  # noqa: F401  (registers the ids)
from rummyai.envs import RummyEnv, aec_env
from rummyai.envs.candidates import FEATURES

COL = {name: i for i, name in enumerate(FEATURES)}


def most_cards(features: np.ndarray, mask: np.ndarray) -> int:
    """The valid slot playing the most hand cards (the fallback on ties)."""
    valid = np.flatnonzero(mask)
    return int(valid[np.argmax(features[valid, COL["hand_cards_used"]])])


@pytest.mark.parametrize("env_id", ["rummyai/Rummikub-v2", "rummyai/RummyPalace-v2"])
def test_shaped_reward_pays_for_the_cards_of_the_move_that_goes_out(env_id: str) -> None:
    options = {"max_rounds": 1} if "Palace" in env_id else None
    env = gym.make(env_id, reward="shaped", options=options).unwrapped
    assert isinstance(env, RummyEnv)
    for seed in range(40):
        obs, _ = env.reset(seed=seed)
        while True:
            action = most_cards(obs["candidates"], obs["action_mask"])
            out = obs["candidates"][action, COL["goes_out"]] == 1
            state = env.state
            assert state is not None
            shed = int(obs["candidates"][action, COL["hand_cards_used"]])
            scores = state.scores
            obs, reward, terminated, truncated, _ = env.step(action)
            if out:
                after = env.state
                assert after is not None
                change = (after.scores[env.seat] - scores[env.seat]) * (
                    -1 if env.variant.low_score_wins else 1
                )
                assert reward == pytest.approx(0.01 * change + 0.05 * shed)
                return
            if terminated or truncated:
                break
    pytest.fail("the learner never went out in 40 deals")


def test_aec_shaped_reward_pays_for_the_cards_of_the_move_that_goes_out() -> None:
    env = aec_env("rummikub", reward="shaped")
    for seed in range(40):
        env.reset(seed=seed)
        for agent in env.agent_iter(5000):
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            action = most_cards(obs["candidates"], obs["action_mask"])
            if obs["candidates"][action, COL["goes_out"]] == 1:
                shed = int(obs["candidates"][action, COL["hand_cards_used"]])
                state = env.state
                assert state is not None
                before = state.scores[env.possible_agents.index(agent)]
                env.step(action)
                after = env.state
                assert after is not None
                change = after.scores[env.possible_agents.index(agent)] - before
                assert env.rewards[agent] == pytest.approx(0.01 * change + 0.05 * shed)
                return
            env.step(action)
    pytest.fail("nobody went out in 40 deals")
