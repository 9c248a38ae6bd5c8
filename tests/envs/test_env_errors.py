"""Bad arguments to the environments are typed errors naming what is wrong, never tracebacks of
another kind."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence

import rummyai.envs  # noqa: F401  (registers the ids)
from rummyai.agents import register_agent
from rummyai.envs import aec_env
from rummyai.errors import RummyError


class NeedsInt:
    """An agent whose integer parameter is compared without a type check (TypeError on a string)."""

    name = "needs-int"

    def __init__(self, size: int = 1) -> None:
        if size < 1:
            raise ValueError(f"size must be at least 1, got {size}")

    def reset(self, seed: int) -> None:
        """Nothing to reset."""

    def act(self, view: Any, legal: Any) -> Any:
        """The first legal move."""
        return legal[0]


def test_an_opponent_parameter_of_the_wrong_type_is_a_clear_error() -> None:
    register_agent("needs-int-env-test", "test_env_errors:NeedsInt", "compares an int parameter")
    with pytest.raises(RummyError, match=r"opponent spec 'needs-int-env-test:size=abc' cannot be built"):
        gym.make("rummyai/Rummikub-v2", opponents="needs-int-env-test:size=abc")
    env = gym.make("rummyai/Rummikub-v2", opponents="needs-int-env-test:size=2", max_turns=4)
    env.reset(seed=0)  # a well-typed parameter builds and plays


#: Values that are no element of `Discrete(K)`: each must be answered with the fallback, never an error.
NOT_ACTIONS: list[Any] = [
    None,
    "x",
    "1",
    1.0,
    2.5,
    float("nan"),
    np.float64("inf"),
    np.array([1]),
    [1],
    {},
    -1,
    32,
    True,
    False,
    np.True_,
]


@pytest.mark.parametrize("action", NOT_ACTIONS, ids=repr)
def test_any_value_outside_the_action_space_plays_the_fallback(action: Any) -> None:
    env = gym.make("rummyai/RummyPalace-v2", max_turns=8).unwrapped
    env.reset(seed=3)
    fallback, *_ = env.step(0)
    env.reset(seed=3)
    obs, _, _, _, info = env.step(action)
    assert info["illegal_action"] and info["illegal_actions"] == 1
    assert data_equivalence(obs, fallback)


@pytest.mark.parametrize("action", NOT_ACTIONS, ids=repr)
def test_aec_plays_the_fallback_for_any_value_outside_the_action_space(action: Any) -> None:
    env = aec_env("rummikub", max_turns=8)
    env.reset(seed=3)
    agent = env.agent_selection
    env.step(0)
    fallback = env.observe(agent)
    env.reset(seed=3)
    env.step(action)
    assert env.infos[agent]["illegal_action"] and env.infos[agent]["illegal_actions"] == 1
    assert data_equivalence(env.observe(agent), fallback)


def test_integer_actions_of_any_integer_type_are_accepted() -> None:
    env = gym.make("rummyai/Rummikub-v2", max_turns=8).unwrapped
    for action in (1, np.int64(1), np.int8(1), np.array(1)):
        obs, _ = env.reset(seed=5)
        assert obs["action_mask"][1]
        *_, info = env.step(action)
        assert not info["illegal_action"]


@pytest.mark.parametrize("seed", [True, 1.5, -1, "3"], ids=repr)
def test_a_reset_seed_that_is_not_a_whole_number_is_refused_by_name(seed: Any) -> None:
    for env in (gym.make("rummyai/Rummikub-v2", max_turns=8).unwrapped, aec_env("rummikub", max_turns=8)):
        with pytest.raises(RummyError, match="seed must be"):
            env.reset(seed=seed)


def test_a_numpy_integer_seed_deals_what_the_same_int_deals() -> None:
    env = gym.make("rummyai/Rummikub-v2", max_turns=8).unwrapped
    assert data_equivalence(env.reset(seed=np.int64(3))[0], env.reset(seed=3)[0])


@pytest.mark.parametrize("weight", [True, "2"], ids=repr)
def test_an_opponent_weight_that_is_not_a_number_is_refused(weight: Any) -> None:
    with pytest.raises(RummyError, match="opponent weight for 'greedy' must be a number"):
        gym.make("rummyai/Rummikub-v2", opponents={"greedy": weight, "random": 1.0})
