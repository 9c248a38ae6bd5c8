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


def test_mix_weights_that_add_up_past_the_float_range_are_refused_at_once() -> None:
    with pytest.raises(RummyError, match="add up to a finite number"):
        gym.make("rummyai/Rummikub-v2", opponents={"greedy": 1e308, "random": 1e308})


def test_observing_before_reset_says_to_reset() -> None:
    with pytest.raises(RummyError, match=r"call reset\(\) first"):
        aec_env("rummikub").observe("player_0")


class _Builder:
    """A caller's candidate builder returning whatever it was given (a fallback draw first)."""

    def __init__(self, rows: list[np.ndarray] | None) -> None:
        self.rows = rows

    def build(self, state: Any, limit: int) -> list[Any]:
        from rummyai.engine.game import legal_moves
        from rummyai.envs.candidates import Candidate

        if self.rows is None:
            return []
        return [Candidate(legal_moves(state)[0], "fallback", row) for row in self.rows]


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (None, "candidate builder _Builder offered no move for seat 0"),
        ([np.zeros(10, np.float32)], r"slot 0 needs 35 finite features, got shape \(10,\)"),
        ([np.full(35, np.nan, np.float32)], r"slot 0 needs 35 finite features, got shape \(35,\) with NaN"),
    ],
)
def test_a_callers_candidate_builder_is_checked_and_named(rows: Any, message: str) -> None:
    env = gym.make("rummyai/Rummikub-v2", candidates=_Builder(rows))
    with pytest.raises(RummyError, match=message):
        env.reset(seed=0)
