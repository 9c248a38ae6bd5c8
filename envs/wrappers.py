"""A wrapper for learning code that wants one flat vector (a plain MLP policy, hand-written loops).

The environments' own observation is already a flat `Dict` of arrays that SB3's `MultiInputPolicy`
takes as it is. `FlatObservation` goes one step further: it concatenates every array but the
mask into one `float32` vector (the ``candidates`` matrix last) and keeps the mask reachable
through `action_masks()`, which is what sb3-contrib's `MaskablePPO` calls.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt

from rummyai.errors import RummyError


class FlatObservation(gym.ObservationWrapper[npt.NDArray[np.float32], np.int64, dict[str, Any]]):
    """One `Box` vector: every array of the observation (key order of the space), ``candidates`` last."""

    def __init__(self, env: gym.Env[dict[str, Any], np.int64]) -> None:
        super().__init__(env)
        space: Any = env.observation_space
        if not isinstance(space, gym.spaces.Dict) or not {"candidates", "action_mask"} <= set(space.spaces):
            raise RummyError(
                f"FlatObservation wraps a rummyai environment (a Dict with 'candidates' and "
                f"'action_mask'), not one observing {space}"
            )
        self.keys = [k for k in space.spaces if k not in ("action_mask", "candidates")]
        lows: list[npt.NDArray[np.float32]] = []
        highs: list[npt.NDArray[np.float32]] = []
        for key in [*self.keys, "candidates"]:
            box = space[key]
            if not isinstance(box, gym.spaces.Box):
                raise RummyError(f"FlatObservation needs Box arrays, got {box} for {key!r}")
            lows.append(box.low.astype(np.float32).ravel())
            highs.append(box.high.astype(np.float32).ravel())
        self.observation_space = gym.spaces.Box(np.concatenate(lows), np.concatenate(highs), dtype=np.float32)
        self._mask: npt.NDArray[np.int8] | None = None

    def observation(self, observation: dict[str, Any]) -> npt.NDArray[np.float32]:
        """The flat vector; remembers the mask for `action_masks`."""
        self._mask = observation["action_mask"]
        parts = [np.asarray(observation[k], dtype=np.float32).ravel() for k in [*self.keys, "candidates"]]
        return np.concatenate(parts)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Valid candidate slots of the last observation."""
        if self._mask is None:
            raise RummyError("call reset() before action_masks()")
        return self._mask.astype(bool)
