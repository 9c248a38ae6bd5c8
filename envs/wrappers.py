"""Wrappers for learning libraries that want one flat vector (stable-baselines3, sb3-contrib).

`FlatObservation` concatenates the named observation arrays and the candidates' feature matrix
into one `float32` vector and keeps the mask reachable through `action_masks()`, which is what
sb3-contrib's `MaskablePPO` calls.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt

from rummyai.errors import RummyError


class FlatObservation(gym.ObservationWrapper[npt.NDArray[np.float32], np.int64, dict[str, Any]]):
    """One `Box` vector: every ``observation`` array (key order of the space), then ``candidates``."""

    def __init__(self, env: gym.Env[dict[str, Any], np.int64]) -> None:
        super().__init__(env)
        space: Any = env.observation_space
        inner = space.spaces.get("observation") if isinstance(space, gym.spaces.Dict) else None
        if not isinstance(inner, gym.spaces.Dict) or "candidates" not in space.spaces:
            raise RummyError(
                f"FlatObservation wraps a rummyai environment (a Dict with 'observation' and "
                f"'candidates'), not one observing {space}"
            )
        self.keys = list(inner.spaces)
        lows: list[npt.NDArray[np.float32]] = []
        highs: list[npt.NDArray[np.float32]] = []
        for box in [*(inner[k] for k in self.keys), space["candidates"]]:
            if not isinstance(box, gym.spaces.Box):
                raise RummyError(f"FlatObservation needs Box arrays, got {box}")
            lows.append(box.low.astype(np.float32).ravel())
            highs.append(box.high.astype(np.float32).ravel())
        self.observation_space = gym.spaces.Box(np.concatenate(lows), np.concatenate(highs), dtype=np.float32)
        self._mask: npt.NDArray[np.int8] | None = None

    def observation(self, observation: dict[str, Any]) -> npt.NDArray[np.float32]:
        """The flat vector; remembers the mask for `action_masks`."""
        self._mask = observation["action_mask"]
        parts = [np.asarray(observation["observation"][k], dtype=np.float32).ravel() for k in self.keys]
        parts.append(np.asarray(observation["candidates"], dtype=np.float32).ravel())
        return np.concatenate(parts)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Valid candidate slots of the last observation."""
        if self._mask is None:
            raise RummyError("call reset() before action_masks()")
        return self._mask.astype(bool)
