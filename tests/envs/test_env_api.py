"""Every registered environment passes Gymnasium's and PettingZoo's own API checks."""

from __future__ import annotations

import subprocess
import sys
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import rummyai.envs
from rummyai.envs import CURRENT_IDS, ENV_CLASSES, ENV_IDS, aec_env

# A short match keeps the checks cheap: one round (where the variant plays several) cut after a few turns.
SHORT = {
    "rhine": {"rounds": 1},
    "rummy-palace": {"max_rounds": 1},
    "standard": {"max_deals": 1},
    "black-heart": {"max_deals": 1},
}
SECTIONS = (
    "## Description",
    "## Action Space",
    "## Observation Space",
    "## Starting State",
    "## Rewards",
    "## Episode End",
    "## Arguments",
    "## Version History",
)


def test_import_registers_the_seven_ids() -> None:
    assert set(CURRENT_IDS.values()) == {
        "rummyai/Rummikub-v2",
        "rummyai/Rhine-v2",
        "rummyai/RummyTiles-v2",
        "rummyai/RummyBoard-v2",
        "rummyai/RummyPalace-v2",
        "rummyai/StandardRummy-v2",
        "rummyai/BlackHeart-v2",
    }
    assert set(ENV_IDS) == set(CURRENT_IDS.values()) | {i.replace("-v2", "-v1") for i in CURRENT_IDS.values()}
    for env_id, variant_id in ENV_IDS.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # gymnasium: v1 is out of date
            env = gym.make(env_id)
        assert env.unwrapped.variant.id == variant_id
        assert CURRENT_IDS[variant_id] == env_id.replace("-v1", "-v2")
        env.close()
    assert rummyai.envs.RummyEnv is ENV_CLASSES["rummyai/Rummikub-v2"].__mro__[1]


@pytest.mark.parametrize("env_id", sorted(CURRENT_IDS.values()))
def test_docstring_has_gymnasium_sections(env_id: str) -> None:
    doc = ENV_CLASSES[env_id].__doc__ or ""
    positions = [doc.find(section) for section in SECTIONS]
    assert all(p >= 0 for p in positions), f"{env_id} docstring lacks a section"
    assert positions == sorted(positions)
    assert env_id in doc


@pytest.mark.parametrize("env_id", sorted(CURRENT_IDS.values()))
@pytest.mark.parametrize("render_mode", ["ansi", "rgb_array"])
def test_check_env(env_id: str, render_mode: str) -> None:
    env = gym.make(env_id, render_mode=render_mode, max_turns=6, options=SHORT.get(ENV_IDS[env_id]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any checker warning fails the test
        check_env(env.unwrapped, skip_render_check=False)
    env.reset(seed=0)
    frame = env.render()
    if render_mode == "ansi":
        assert isinstance(frame, str) and "hand (seat 0)" in frame
    else:
        assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8 and frame.shape == (400, 640, 3)
        assert frame.std() > 0  # something was drawn
    env.close()


@pytest.mark.parametrize("variant_id", sorted(CURRENT_IDS))
def test_pettingzoo_api_and_seed(variant_id: str) -> None:
    options = SHORT.get(variant_id)
    with warnings.catch_warnings():
        # PettingZoo's checker only recommends flat observations; ours nest named arrays.
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        api_test(aec_env(variant_id, num_players=2, options=options, max_turns=12), num_cycles=100)
        seed_test(lambda: aec_env(variant_id, num_players=2, options=options, max_turns=12), num_cycles=50)


def test_aec_env_accepts_gymnasium_ids_and_three_players() -> None:
    env = aec_env("rummyai/RummyTiles-v2", num_players=3, max_turns=9)
    env.reset(seed=5)
    assert env.variant.id == "rummy-tiles"
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    seen = set()
    for agent in env.agent_iter(60):
        obs, _, terminated, truncated, _ = env.last()
        seen.add(agent)
        if terminated or truncated:
            env.step(None)
            continue
        assert obs["hand_sizes"].shape == (3,)
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    assert seen == {"player_0", "player_1", "player_2"}


@pytest.mark.parametrize("variant_id", ["rhine", "standard"])
def test_aec_returns_are_the_final_totals(variant_id: str) -> None:
    env = aec_env(
        variant_id, num_players=3, options={"rounds": 2} if variant_id == "rhine" else None, max_turns=9
    )
    env.reset(seed=1)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    rng = np.random.default_rng(1)
    final: tuple[int, ...] = ()
    for agent in env.agent_iter(5000):
        obs, reward, terminated, truncated, info = env.last()
        returns[agent] += reward
        final = info["scores"]
        if terminated or truncated:
            env.step(None)
            continue
        assert obs["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert not env.agents  # every agent finished
    sign = -1 if env.variant.low_score_wins else 1
    assert [returns[a] for a in env.possible_agents] == [sign * s for s in final]


def test_an_id_naming_its_module_makes_the_environment_in_a_fresh_process() -> None:
    """What a spawned vector-environment worker does: nothing imported beforehand."""
    code = "import gymnasium as gym; print(gym.make('rummyai.envs:rummyai/Rummikub-v2').reset(seed=0)[1]['seat'])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip() in ("0", "1"), done.stderr
