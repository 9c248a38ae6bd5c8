"""PettingZoo AEC view of a match: every seat is an agent (``player_0`` ...), for self-play.

Observations, candidates, the fallback and rewards are those of the single-agent environments
(`rummyai.envs.rummy_env`), seen from each agent's own seat. The acting agent gets a mask of
its candidates; the others get a mask with only slot 0 set (they cannot act). Rewards go to every
seat whenever scores change (the end of a round), so each agent's return is its final total.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from pettingzoo import AECEnv

from rummyai.engine.game import apply, new_match
from rummyai.engine.state import GameState
from rummyai.envs.candidates import (
    NUM_FEATURES,
    Candidate,
    CandidateBuilder,
    feature_version,
    make_builder,
    offered,
)
from rummyai.envs.core import (
    DEFAULT_CANDIDATES,
    DEFAULT_MAX_TURNS,
    candidate_index,
    check_reward_mode,
    check_table_settings,
    observation,
    observation_space,
    reset_seed,
    transition_reward,
)
from rummyai.envs.encoding import ObservationEncoder
from rummyai.envs.history import PublicHistory
from rummyai.envs.rendering import render_rgb, render_text
from rummyai.envs.variant_envs import ENV_CLASSES
from rummyai.errors import RummyError
from rummyai.variants import Variant, get_variant

SEED_BOUND = 2**31 - 1


class RummyAECEnv(AECEnv[str, dict[str, Any], int]):
    """A rummy match as a PettingZoo AEC environment; `rummyai.envs.aec_env` builds one.

    Each agent's `infos` entry holds `illegal_action` (its last action was replaced by the
    fallback), `illegal_actions` (how many so far this match), `round` (0-based round index),
    `scores` (every seat's match total, absolute seat order) and `winners` (the winning seats,
    empty until the match is over). The argument `feature_width` picks the candidate matrix: every
    column of FEATURES (v2, the default) or the v1 environments' first ones.
    """

    metadata = {  # noqa: RUF012 (AECEnv declares it)
        "render_modes": ["ansi", "rgb_array"],
        "name": "rummyai_v2",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        variant: str | Variant,
        *,
        num_players: int = 2,
        options: Mapping[str, Any] | Sequence[str] | None = None,
        reward: str = "score",
        max_turns: int | None = DEFAULT_MAX_TURNS,
        render_mode: str | None = None,
        max_candidates: int = DEFAULT_CANDIDATES,
        candidates: str | CandidateBuilder = "auto",
        feature_width: int = NUM_FEATURES,
    ) -> None:
        super().__init__()
        self.variant = get_variant(variant, options)
        check_table_settings(self.variant, num_players, max_candidates, max_turns, render_mode)
        version = feature_version(feature_width)
        self.metadata = {**self.metadata, "name": f"rummyai_{self.variant.id.replace('-', '_')}_v{version}"}
        self.num_players = num_players
        self.reward_mode = check_reward_mode(reward)
        self.max_turns = max_turns
        self.render_mode = render_mode
        self.slots = max_candidates
        self.builder: CandidateBuilder = make_builder(candidates, self.variant.tile_style)
        self.encoder = ObservationEncoder(self.variant, num_players)
        self.history = PublicHistory(num_players)
        self.possible_agents = [f"player_{s}" for s in range(num_players)]
        self.agents = self.possible_agents[:]
        self.feature_width = feature_width
        space = observation_space(self.encoder, self.slots, feature_width)
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(self.slots) for a in self.possible_agents}
        self.state: GameState | None = None
        self.candidates: list[Candidate] = []
        self._np_random: np.random.Generator | None = None
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    # ------------------------------------------------------------------ PettingZoo API
    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The same `Dict` space object for an agent every time."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """`Discrete(max_candidates)` (the same object every time)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new match; the deal comes from `seed` (a fresh random one when None)."""
        seed = reset_seed(seed)
        if seed is not None or self._np_random is None:
            self._np_random = np.random.default_rng(seed)
        game_seed = int(self._np_random.integers(SEED_BOUND))
        self.state = new_match(self.variant, self.num_players, game_seed, max_turns=self.max_turns)
        self.history.clear()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.illegal_actions = dict.fromkeys(self.agents, 0)
        self.infos = {a: self._info(a, illegal=False) for a in self.agents}
        self._refresh()

    def observe(self, agent: str) -> dict[str, Any]:
        """`agent`'s observation: its own view, and its candidates if it is the one to act."""
        state = self._require_state()
        seat = self.possible_agents.index(agent)
        acting = agent == self.agent_selection and not state.match_over
        return observation(
            self.encoder,
            self.history,
            state,
            seat,
            self.candidates if acting else [],
            self.slots,
            self.feature_width,
        )

    def step(self, action: Any) -> None:
        """Play the acting agent's candidate `action` (a masked one is replaced by the fallback)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._require_state()
        self._cumulative_rewards[agent] = 0.0
        chosen = candidate_index(self.action_spaces[agent], action, len(self.candidates))
        illegal = chosen is None
        if illegal:
            self.illegal_actions[agent] += 1
        move = self.candidates[0 if chosen is None else chosen].move
        after = apply(state, move)
        self.history.record_move(state, move, after)
        self._clear_rewards()
        for seat, name in enumerate(self.possible_agents):
            self.rewards[name] = transition_reward(state, after, seat, self.reward_mode, move)
        self.state = after
        for name in self.agents:
            self.infos[name] = self._info(name, illegal=illegal and name == agent)
        if after.match_over:
            cut = bool(after.history) and after.history[-1].reason == "max_turns"
            for name in self.agents:
                self.terminations[name] = not cut
                self.truncations[name] = cut
        self._accumulate_rewards()
        self._refresh()

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The acting seat's view as text (``ansi``) or an RGB array (``rgb_array``)."""
        if self.state is None or self.render_mode is None:
            return None
        seat = self.possible_agents.index(self.agent_selection)
        if self.render_mode == "ansi":
            return render_text(self.state, seat, [c.label for c in self.candidates])
        return render_rgb(self.state, seat)

    def close(self) -> None:
        """Nothing to release."""

    # ------------------------------------------------------------------ internals
    def _require_state(self) -> GameState:
        if self.state is None:
            raise RummyError("call reset() first: no match is under way")
        return self.state

    def _refresh(self) -> None:
        state = self._require_state()
        if state.match_over:
            self.candidates = []
            if self.agents and self.agent_selection not in self.agents:
                self.agent_selection = self.agents[0]
            return
        self.agent_selection = self.possible_agents[state.to_act]
        # at most one per slot, whatever a custom builder returns
        self.candidates = offered(self.builder, state, self.slots)

    def _info(self, agent: str, *, illegal: bool) -> dict[str, Any]:
        state = self._require_state()
        return {
            "illegal_action": illegal,
            "illegal_actions": self.illegal_actions[agent],
            "round": state.round_index,
            "scores": tuple(int(s) for s in state.scores),
            "winners": tuple(state.winners),
        }


def aec_env(
    variant_id: str,
    *,
    num_players: int = 2,
    options: Mapping[str, Any] | Sequence[str] | None = None,
    **kwargs: Any,
) -> RummyAECEnv:
    """A PettingZoo AEC environment for a variant id (``"rummikub"``) or a registered Gymnasium id
    (``"rummyai/Rummikub-v2"``, or a v1 id for its narrower candidate matrix); further keywords as
    `RummyAECEnv` (reward, max_turns, render_mode, max_candidates, candidates)."""
    cls = ENV_CLASSES.get(variant_id)
    if cls is None:
        return RummyAECEnv(variant_id, num_players=num_players, options=options, **kwargs)
    kwargs.setdefault("feature_width", cls.feature_width)
    return RummyAECEnv(cls.variant_id, num_players=num_players, options=options, **kwargs)
