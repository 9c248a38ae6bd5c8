"""The flat-vector wrapper used with stable-baselines3 keeps every value and the mask."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import rummyai.envs  # noqa: F401  (registers the ids)
from rummyai.envs.wrappers import FlatObservation
from rummyai.errors import RummyError


def test_flat_observation_concatenates_arrays_and_exposes_the_mask() -> None:
    env = FlatObservation(gym.make("rummyai/RummyPalace-v2", max_turns=8, options={"max_rounds": 1}))
    flat, _ = env.reset(seed=4)
    assert env.observation_space.contains(flat)
    inner = env.unwrapped._observation()
    assert sorted(env.keys) == sorted(set(inner) - {"action_mask", "candidates"})
    sizes = [int(np.prod(inner[k].shape)) for k in env.keys]
    assert flat.shape == (sum(sizes) + inner["candidates"].size,)
    hand_at = env.keys.index("hand")
    start = sum(sizes[:hand_at])
    assert np.array_equal(flat[start : start + 53], inner["hand"])
    assert np.array_equal(flat[-inner["candidates"].size :], inner["candidates"].ravel())
    mask = env.action_masks()
    assert mask.dtype == bool and mask.sum() == len(env.unwrapped.candidates)
    flat, *_ = env.step(int(np.flatnonzero(mask)[-1]))
    assert env.observation_space.contains(flat)


def test_flat_observation_misuse_raises_typed_errors() -> None:
    env = FlatObservation(gym.make("rummyai/Rummikub-v2"))
    with pytest.raises(RummyError, match="reset"):
        env.action_masks()
    with pytest.raises(RummyError, match="rummyai environment"):
        FlatObservation(gym.make("CartPole-v1"))
