"""Gymnasium environments for every variant, and a PettingZoo AEC view for self-play.

Importing this package registers ``rummyai/Rummikub-v2``, ``rummyai/Rhine-v2``,
``rummyai/RummyTiles-v2``, ``rummyai/RummyBoard-v2``, ``rummyai/RummyPalace-v2``,
``rummyai/StandardRummy-v2`` and ``rummyai/BlackHeart-v2`` (and the same names ending in ``-v1``,
whose candidate matrix has the first `V1_FEATURES` columns only)::

    import gymnasium as gym
    import rummyai.envs

    env = gym.make("rummyai/Rummikub-v2", opponents="random", render_mode="ansi")
    obs, info = env.reset(seed=0)
    action = env.action_space.sample(obs["action_mask"])
    obs, reward, terminated, truncated, info = env.step(action)

`aec_env("rummikub", num_players=3)` builds the multi-agent version.
"""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

from rummyai.envs.aec import RummyAECEnv, aec_env
from rummyai.envs.candidates import (
    CARD_FEATURES,
    FEATURES,
    V1_FEATURES,
    Candidate,
    CandidateBuilder,
    EngineCandidates,
    describe,
    make_builder,
    rank_moves,
)
from rummyai.envs.encoding import ObservationEncoder
from rummyai.envs.policy_agent import PolicyAgent
from rummyai.envs.rummy_env import RummyEnv
from rummyai.envs.solver_candidates import SolverCandidates, solution_play
from rummyai.envs.variant_envs import CURRENT_IDS, ENV_CLASSES

#: Registered Gymnasium id -> variant id.
ENV_IDS: dict[str, str] = {env_id: cls.variant_id for env_id, cls in ENV_CLASSES.items()}

for _env_id, _cls in ENV_CLASSES.items():
    if _env_id not in registry:
        register(id=_env_id, entry_point=f"{_cls.__module__}:{_cls.__name__}")

__all__ = [
    "CARD_FEATURES",
    "CURRENT_IDS",
    "ENV_CLASSES",
    "ENV_IDS",
    "FEATURES",
    "V1_FEATURES",
    "Candidate",
    "CandidateBuilder",
    "EngineCandidates",
    "ObservationEncoder",
    "PolicyAgent",
    "RummyAECEnv",
    "RummyEnv",
    "SolverCandidates",
    "aec_env",
    "describe",
    "make_builder",
    "rank_moves",
    "solution_play",
]
