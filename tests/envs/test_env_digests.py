"""Seeded episodes replay step for step: observations, masks, candidates, rewards and endings.

`env_digests.json` holds, per setting (variant, players, opponents), a hash of every learner step
of seeded episodes played by a seeded masked-random learner in one fresh environment, recorded
from the code the trained agents were trained on. Speed work must leave every hash unchanged;
regenerate only after an intended change of what the environments produce, with
``.venv/bin/python tests/envs/test_env_digests.py`` (``--settings NAME,...`` for some).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any, cast

import gymnasium as gym
import numpy as np
import pytest

import rummyai.envs
from rummyai.envs import RummyEnv
from rummyai.variants import ONE_ROUND

FIXTURE = Path(__file__).resolve().parent / "env_digests.json"

#: name -> (env id, players, opponents, episodes recorded, episodes the test replays, extra kwargs)
SETTINGS: dict[str, tuple[str, int, str, int, int, dict[str, Any]]] = {
    "rummikub": ("rummyai/Rummikub-v1", 2, "random", 30, 3, {}),
    "rummikub-3p": ("rummyai/Rummikub-v1", 3, "random", 6, 1, {}),
    "rummikub-greedy": ("rummyai/Rummikub-v1", 2, "greedy", 6, 1, {}),
    "rummikub-shaped": ("rummyai/Rummikub-v1", 2, "random", 3, 1, {"reward": "shaped", "max_turns": 40}),
    "rummy-board": ("rummyai/RummyBoard-v1", 2, "random", 8, 2, {}),
    "rummy-board-greedy": ("rummyai/RummyBoard-v1", 2, "greedy", 3, 1, {}),
    "rummy-tiles": ("rummyai/RummyTiles-v1", 2, "random", 8, 1, {}),
    "rhine": ("rummyai/Rhine-v1", 2, "random", 2, 1, {}),
    "rummy-palace": ("rummyai/RummyPalace-v1", 2, "random", 6, 2, {}),
    "standard": ("rummyai/StandardRummy-v1", 2, "random", 6, 2, {}),
    "black-heart": ("rummyai/BlackHeart-v1", 3, "random", 6, 2, {}),
    # the current ids: the same games, the candidate matrix with the card columns
    "rummikub-v2": ("rummyai/Rummikub-v2", 2, "random", 3, 1, {}),
    "rummy-palace-v2": ("rummyai/RummyPalace-v2", 2, "random", 6, 2, {}),
    "standard-v2": ("rummyai/StandardRummy-v2", 2, "random", 6, 2, {}),
    "black-heart-v2": ("rummyai/BlackHeart-v2", 3, "random", 6, 2, {}),
}


def _variant(env_id: str) -> str:
    return rummyai.envs.ENV_IDS[env_id]


def make_env(name: str) -> RummyEnv:
    """A fresh environment for setting `name` (answer caches empty)."""
    env_id, players, opponents, _, _, extra = SETTINGS[name]
    return cast(
        RummyEnv,
        gym.make(
            env_id,
            num_players=players,
            opponents=opponents,
            options=ONE_ROUND.get(_variant(env_id)),
            **extra,
        ).unwrapped,
    )


def step_digest(env: RummyEnv, obs: dict[str, Any], reward: Any, ended: tuple[bool, bool], info: Any) -> str:
    """A short hash of one step: every observation array, the candidates' moves and labels, the
    reward, the ending flags and the info dict."""
    h = hashlib.sha256()
    for key in sorted(obs):
        array = np.ascontiguousarray(obs[key])
        h.update(f"{key}|{array.dtype}|{array.shape}|".encode())
        h.update(array.tobytes())
    for candidate in env.candidates:
        h.update(f"{candidate.label}|{candidate.move!r}|".encode())
        h.update(np.asarray(candidate.features[: env.feature_width], dtype=np.float32).tobytes())
    h.update(f"{float(reward)!r}|{ended}|{sorted(info.items())!r}".encode())
    return h.hexdigest()[:16]


def play(name: str, episodes: int) -> list[list[str]]:
    """Per episode (seeds 0, 1, ...), the digests of the reset and of every learner step."""
    env = make_env(name)
    rng = np.random.default_rng(12345)
    out: list[list[str]] = []
    for seed in range(episodes):
        obs, info = env.reset(seed=seed)
        digests = [step_digest(env, obs, 0.0, (False, False), info)]
        done = False
        while not done:
            assert np.array_equal(obs["action_mask"].astype(bool), env.action_masks())
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, terminated, truncated, info = env.step(action)
            digests.append(step_digest(env, obs, reward, (terminated, truncated), info))
            done = terminated or truncated
        out.append(digests)
    return out


def _load() -> dict[str, list[list[str]]]:
    return cast(dict[str, list[list[str]]], json.loads(FIXTURE.read_text())["settings"])


@pytest.mark.parametrize("name", list(SETTINGS))
def test_seeded_episodes_replay_the_recorded_steps(name: str) -> None:
    recorded = _load()[name]
    replays = SETTINGS[name][4]
    assert len(recorded) >= replays
    got = play(name, replays)
    for episode, (want, have) in enumerate(zip(recorded, got, strict=False)):
        first = next((i for i, (a, b) in enumerate(zip(want, have, strict=False)) if a != b), None)
        assert first is None and len(want) == len(have), (
            f"{name} episode {episode}: step {first} differs "
            f"(recorded {len(want) - 1} learner steps, replayed {len(have) - 1})"
        )


def record(names: list[str]) -> None:
    """Play every setting's recorded episodes and write their digests into the fixture."""
    data = json.loads(FIXTURE.read_text()) if FIXTURE.exists() else {"settings": {}}
    data["about"] = "per setting and episode (seed 0, 1, ...): digest of the reset and of each learner step"
    for name in names:
        data["settings"][name] = play(name, SETTINGS[name][3])
        steps = sum(len(e) - 1 for e in data["settings"][name])
        print(f"{name}: {len(data['settings'][name])} episodes, {steps} learner steps", flush=True)
        FIXTURE.write_text(json.dumps(data, indent=0) + "\n")


def compare(names: list[str]) -> int:
    """Replay every recorded episode of `names` (not only the test's sample); 1 if any differs."""
    recorded = _load()
    bad = 0
    for name in names:
        got = play(name, len(recorded[name]))
        same = sum(a == b for a, b in zip(recorded[name], got, strict=True))
        print(f"{name}: {same} of {len(got)} episodes identical", flush=True)
        bad += len(got) - same
    return 1 if bad else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--settings", default=",".join(SETTINGS), help="comma-separated setting names")
    parser.add_argument("--check", action="store_true", help="compare every recorded episode instead")
    args = parser.parse_args()
    chosen = [s for s in args.settings.split(",") if s]
    unknown = [s for s in chosen if s not in SETTINGS]
    if unknown:
        sys.exit(f"unknown setting(s) {', '.join(unknown)} (known: {', '.join(SETTINGS)})")
    if args.check:
        sys.exit(compare(chosen))
    record(chosen)
