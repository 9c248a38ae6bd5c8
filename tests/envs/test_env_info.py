"""`info` holds exactly the keys the environments' docstrings document, with the documented meaning."""

from __future__ import annotations

import re

import gymnasium as gym
import numpy as np
import pytest

from rummyai.envs import CURRENT_IDS, ENV_CLASSES, ENV_IDS, RummyAECEnv, RummyEnv, aec_env

SHORT = {
    "rhine": {"rounds": 1},
    "rummy-palace": {"max_rounds": 1},
    "standard": {"max_deals": 1},
    "black-heart": {"max_deals": 1},
}


def documented_keys(doc: str) -> set[str]:
    """The keys listed as ``* `key`:`` in a docstring's ``## Info`` section."""
    section = doc.split("## Info", 1)[1].split("##", 1)[0]
    return set(re.findall(r"^\s*\* `(\w+)`:", section, flags=re.MULTILINE))


@pytest.mark.parametrize("env_id", sorted(CURRENT_IDS.values()))
def test_info_keys_and_values_are_the_documented_ones(env_id: str) -> None:
    documented = documented_keys(ENV_CLASSES[env_id].__doc__ or "")
    assert {"seat", "illegal_action", "scores", "winners"} <= documented
    env = gym.make(env_id, num_players=3, seat=None, max_turns=12, options=SHORT.get(ENV_IDS[env_id]))
    inner = env.unwrapped
    assert isinstance(inner, RummyEnv)
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(2000):
        assert set(info) == documented
        state = inner.state
        assert state is not None
        assert info["seat"] == inner.seat and info["round"] == state.round_index
        assert info["scores"] == tuple(state.scores)
        assert info["num_candidates"] == (0 if state.match_over else int(obs["action_mask"].sum()))
        assert info["winners"] == (tuple(state.winners) if state.match_over else ())
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    assert set(info) == documented and info["winners"] and info["num_candidates"] == 0
    _, _, _, _, info = env.step(inner.slots - 1)  # a masked action after the end is still answered
    assert set(info) == documented


def test_aec_infos_hold_the_documented_keys() -> None:
    doc = RummyAECEnv.__doc__ or ""
    documented = set(re.findall(r"`(\w+)` \(", doc))
    assert {"illegal_action", "illegal_actions", "round", "scores", "winners"} <= documented
    env = aec_env("rummy-board", num_players=3, max_turns=9)
    env.reset(seed=2)
    for _agent in env.agent_iter(500):
        _, _, terminated, truncated, info = env.last()
        assert set(info) == documented
        if terminated or truncated:
            assert info["winners"] == tuple(env.state.winners) != ()
            env.step(None)
            continue
        assert info["winners"] == ()
        env.step(0)
    assert not env.agents
