"""Bad arguments to the environments are typed errors naming what is wrong, never tracebacks of
another kind."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import pytest

import rummyai.envs  # noqa: F401  (registers the ids)
from rummyai.agents import register_agent
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
        gym.make("rummyai/Rummikub-v0", opponents="needs-int-env-test:size=abc")
    env = gym.make("rummyai/Rummikub-v0", opponents="needs-int-env-test:size=2", max_turns=4)
    env.reset(seed=0)  # a well-typed parameter builds and plays
