"""The multi-agent view at every table size from 2 to 4 the variant allows, and clear errors for
table sizes and variants it does not."""

from __future__ import annotations

import warnings

import gymnasium as gym
import pytest
from pettingzoo.test import api_test, seed_test

import rummyai.envs  # noqa: F401  (registers the ids)
from rummyai.envs import CURRENT_IDS, RummyAECEnv, aec_env
from rummyai.errors import RummyError
from rummyai.variants import get_variant

SHORT = {
    "rhine": {"rounds": 1},
    "rummy-palace": {"max_rounds": 1},
    "standard": {"max_deals": 1},
    "black-heart": {"max_deals": 1},
}
TABLES = [
    (variant_id, players)
    for variant_id in sorted(CURRENT_IDS)
    for players in (3, 4)
    if get_variant(variant_id).min_players <= players <= get_variant(variant_id).max_players
]


def test_every_variant_seats_three_and_four() -> None:
    assert len(TABLES) == 2 * len(CURRENT_IDS)


@pytest.mark.parametrize(("variant_id", "players"), TABLES)
def test_pettingzoo_api_and_seed_with_more_players(variant_id: str, players: int) -> None:
    def make() -> RummyAECEnv:
        return aec_env(variant_id, num_players=players, options=SHORT.get(variant_id), max_turns=3 * players)

    with warnings.catch_warnings():
        # PettingZoo's checker only recommends flat observations; ours nest named arrays.
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        api_test(make(), num_cycles=60)
        seed_test(make, num_cycles=30)
    env = make()
    env.reset(seed=1)
    assert env.possible_agents == [f"player_{s}" for s in range(players)]


def test_unknown_variants_and_table_sizes_are_clear_errors() -> None:
    with pytest.raises(RummyError, match="unknown variant 'gin'"):
        aec_env("gin")
    with pytest.raises(RummyError, match="unknown variant 'rummyai/Gin-v2'"):
        aec_env("rummyai/Gin-v2")
    with pytest.raises(RummyError, match="rummikub is played by 2 to 4 players, not 5"):
        aec_env("rummikub", num_players=5)
    with pytest.raises(RummyError, match="not 1"):
        aec_env("black-heart", num_players=1)
    with pytest.raises(RummyError, match="standard is played by 2 to 4 players, not 5"):
        gym.make("rummyai/StandardRummy-v2", num_players=5)
    # an option that allows bigger tables allows them here too
    env = aec_env("standard", num_players=6, options={"decks": 2, "max_deals": 1}, max_turns=6)
    env.reset(seed=0)
    assert len(env.agents) == 6
