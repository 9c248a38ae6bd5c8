"""The single-agent Gymnasium environment: the learner plays one seat, seeded opponents play the rest.

`RummyEnv` is variant-agnostic; `rummyai.envs.variant_envs` derives one class per built-in variant
(with its own Gymnasium-style docstring) and `rummyai.envs` registers them as ``rummyai/...-v2``
(and the earlier ``-v1``, whose candidate matrix has fewer columns).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, SupportsFloat

import gymnasium as gym
import numpy as np
import numpy.typing as npt

from rummyai.agents.base import check_agent_fits
from rummyai.engine.game import apply, check_whole, legal_moves, new_match
from rummyai.engine.state import GameState
from rummyai.envs.candidates import NUM_FEATURES, Candidate, CandidateBuilder, make_builder, offered
from rummyai.envs.core import (
    DEFAULT_CANDIDATES,
    DEFAULT_MAX_TURNS,
    RENDER_MODES,
    LazyView,
    OpponentPool,
    Opponents,
    candidate_arrays,
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
from rummyai.errors import RummyError
from rummyai.variants import Variant, get_variant

if TYPE_CHECKING:
    from rummyai.agents import Agent

Observation = dict[str, Any]
#: Largest seed handed to the engine and the opponents (drawn from `env.np_random`).
SEED_BOUND = 2**31 - 1


class RummyEnv(gym.Env[Observation, np.int64]):
    """A rummy match as a Gymnasium environment (see the per-variant classes for the full docs)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 2}  # noqa: RUF012 (Env declares it)
    variant_id: ClassVar[str] = "rummikub"
    #: columns of the candidate matrix: the first `feature_width` of `FEATURES` (v1: fewer)
    feature_width: ClassVar[int] = NUM_FEATURES

    def __init__(
        self,
        variant: str | Variant | None = None,
        *,
        num_players: int = 2,
        opponents: Opponents = "random",
        options: Mapping[str, Any] | Sequence[str] | None = None,
        reward: str = "score",
        max_turns: int | None = DEFAULT_MAX_TURNS,
        render_mode: str | None = None,
        seat: int | None = 0,
        max_candidates: int = DEFAULT_CANDIDATES,
        candidates: str | CandidateBuilder = "auto",
    ) -> None:
        self.variant: Variant = get_variant(self.variant_id if variant is None else variant, options)
        # each variant's class sets its own id; a user's subclass inherits it and may name any variant
        own_id = type(self).__dict__.get("variant_id")
        if type(self) is not RummyEnv and own_id is not None and self.variant.id != own_id:
            raise RummyError(
                f"{type(self).__name__} plays {self.variant_id}, not {self.variant.id}: "
                f"use that variant's environment or RummyEnv({self.variant.id!r})"
            )
        check_table_settings(self.variant, num_players, max_candidates, max_turns, render_mode)
        if seat is not None:
            check_whole("seat", seat)
            if not 0 <= seat < num_players:
                raise RummyError(f"no seat {seat} in a {num_players}-player game")
        self.num_players = num_players
        self.reward_mode = check_reward_mode(reward)
        self.max_turns = max_turns
        self.render_mode = render_mode
        self.seat_choice = seat
        self.slots = max_candidates
        self.builder: CandidateBuilder = make_builder(candidates, self.variant.tile_style)
        self.pool = OpponentPool(opponents, num_players - 1)
        for label, agent in self.pool.every():
            check_agent_fits(agent, label, self.variant, num_players)
        self.opponents: list[Agent] = self.pool.agents
        self.encoder = ObservationEncoder(self.variant, num_players)
        self.history = PublicHistory(num_players)
        self.observation_space = observation_space(self.encoder, self.slots, self.feature_width)
        self.action_space = gym.spaces.Discrete(self.slots)
        self.state: GameState | None = None
        self.seat = 0 if seat is None else seat
        self.candidates: list[Candidate] = []
        self.illegal_actions = 0
        self.learner_steps = 0
        self._pending = 0.0

    # ------------------------------------------------------------------ gymnasium API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new match from the seed (the opponents are reseeded from it too)."""
        super().reset(seed=reset_seed(seed))
        game_seed = int(self.np_random.integers(SEED_BOUND))
        if self.seat_choice is None:
            self.seat = int(self.np_random.integers(self.num_players))
        self.opponents = self.pool.draw(self.np_random)
        for agent in self.opponents:
            agent.reset(int(self.np_random.integers(SEED_BOUND)))
        self.state = new_match(self.variant, self.num_players, game_seed, max_turns=self.max_turns)
        self.history.clear()
        self.illegal_actions = 0
        self.learner_steps = 0
        # Score changes before the learner's first move (possible with a tiny max_turns) are paid
        # with its first step, so that an episode's return is still the seat's final total.
        self._pending = self._play_opponents()
        self._refresh()
        return self._observation(), self._info(illegal=False)

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the learner's candidate `action`, then the opponents until the learner acts again.

        An action outside the mask or the action space (any value, never an error) is replaced by
        the fallback in slot 0 and counted in `info`.
        """
        state = self._require_state()
        if state.match_over:
            pending, self._pending = self._pending, 0.0
            return self._observation(), pending, *self._ended(state), self._info(illegal=False)
        chosen = candidate_index(self.action_space, action, len(self.candidates))
        illegal = chosen is None
        if illegal:
            self.illegal_actions += 1
        move = self.candidates[0 if chosen is None else chosen].move
        after = apply(state, move)
        self.history.record_move(state, move, after)
        reward = self._pending + transition_reward(state, after, self.seat, self.reward_mode, move)
        self._pending = 0.0
        self.state = after
        self.learner_steps += 1
        reward += self._play_opponents()
        self._refresh()
        terminated, truncated = self._ended(self.state)
        return self._observation(), reward, terminated, truncated, self._info(illegal=illegal)

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """Text (``ansi``) or an RGB array (``rgb_array``) of the learner's view; None otherwise."""
        if self.state is None or self.render_mode is None:
            return None
        if self.render_mode == "ansi":
            return render_text(self.state, self.seat, [c.label for c in self.candidates])
        return render_rgb(self.state, self.seat)

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The valid candidate slots (sb3-contrib's MaskablePPO calls this)."""
        mask, _ = candidate_arrays(self.candidates, self.slots)
        return mask.astype(bool)

    # ------------------------------------------------------------------ internals
    def _require_state(self) -> GameState:
        if self.state is None:
            raise RummyError("call reset() first: no match is under way")
        return self.state

    def _play_opponents(self) -> float:
        """Let the opponents move until the learner must act or the match ends; their reward share."""
        state = self._require_state()
        reward = 0.0
        while not state.match_over and state.to_act != self.seat:
            seat = state.to_act
            agent = self.opponents[(seat - self.seat - 1) % self.num_players]
            moves = legal_moves(state)
            if not moves:
                raise RummyError(f"the engine offers no legal move to seat {seat}")
            move = agent.act(LazyView(state, seat), moves)
            after = apply(state, move)
            self.history.record_move(state, move, after)
            reward += transition_reward(state, after, self.seat, self.reward_mode, move)
            state = after
        self.state = state
        return reward

    def _refresh(self) -> None:
        state = self._require_state()
        # at most one per slot, whatever a custom builder returns
        self.candidates = [] if state.match_over else offered(self.builder, state, self.slots)

    def _observation(self) -> Observation:
        state = self._require_state()
        return observation(
            self.encoder, self.history, state, self.seat, self.candidates, self.slots, self.feature_width
        )

    @staticmethod
    def _ended(state: GameState) -> tuple[bool, bool]:
        """(terminated, truncated): a match cut by `max_turns` in its last round is truncated."""
        if not state.match_over:
            return False, False
        cut = bool(state.history) and state.history[-1].reason == "max_turns"
        return not cut, cut

    def _info(self, *, illegal: bool) -> dict[str, Any]:
        state = self._require_state()
        return {
            "seat": self.seat,
            "illegal_action": illegal,
            "illegal_actions": self.illegal_actions,
            "num_candidates": len(self.candidates),
            "round": state.round_index,
            "scores": tuple(int(s) for s in state.scores),
            "winners": tuple(state.winners),
        }
