"""Pieces shared by the single-agent and the multi-agent environments: spaces, opponents, rewards."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, Union

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from rummyai.cards import NUM_KINDS
from rummyai.engine.game import check_max_turns, check_players, check_whole, view
from rummyai.engine.moves import Move
from rummyai.engine.state import GameState
from rummyai.envs.candidates import NUM_FEATURES, Candidate, hand_cards_used
from rummyai.envs.encoding import ObservationEncoder
from rummyai.envs.history import HISTORY_TURNS, TURN_COLUMNS, PublicHistory
from rummyai.errors import RummyError
from rummyai.variants import Variant

if TYPE_CHECKING:
    from rummyai.agents import Agent

RewardMode = Literal["score", "shaped"]
REWARD_MODES: tuple[str, ...] = ("score", "shaped")
#: Default number of candidate slots (the size of the `Discrete` action space).
DEFAULT_CANDIDATES = 32
#: Scale of the score part of the ``shaped`` reward, and the weight of each card shed from hand.
SHAPED_SCORE_SCALE = 0.01
SHAPED_CARD_WEIGHT = 0.05
#: Upper bound of candidate features in the observation space.
FEATURE_BOUND = 100_000.0
#: The environments' default turn cap per round: no round of any variant comes near it in play,
#: but some rules let a round go on forever (two Rummy Palace seats that keep taking the top
#: discard and throwing another card back never shrink the stock), so an episode always ends.
DEFAULT_MAX_TURNS = 1_000
RENDER_MODES = ("ansi", "rgb_array")


# Most candidate slots an environment offers: each is a row of the feature matrix in every
# observation, so a mistyped size would take gigabytes per step
MAX_CANDIDATES = 4096


def check_table_settings(
    variant: Variant, num_players: Any, max_candidates: Any, max_turns: Any, render_mode: Any
) -> None:
    """Refuse, naming it, a table setting an environment (single-agent or AEC) cannot use."""
    check_players(variant, num_players)
    check_whole("max_candidates", max_candidates)
    check_max_turns(max_turns)
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise RummyError(f"unknown render_mode {render_mode!r} (known: {', '.join(RENDER_MODES)})")
    if not 2 <= max_candidates <= MAX_CANDIDATES:
        raise RummyError(f"max_candidates must be from 2 to {MAX_CANDIDATES}, got {max_candidates}")


def observation_space(encoder: ObservationEncoder, slots: int, width: int = NUM_FEATURES) -> spaces.Dict:
    """The flat observation dict: the seat's view and public history (every entry a `Box`), the
    action mask and the candidates' feature matrix (the first `width` columns of `FEATURES`: all
    of them, or the v1 environments' fewer); no nested spaces."""
    n = encoder.num_players
    deck = encoder.deck_size
    return spaces.Dict(
        {
            **encoder.space.spaces,
            "history_taken": spaces.Box(0, deck, (n, NUM_KINDS), np.int16),
            "history_laid": spaces.Box(0, deck, (n, NUM_KINDS), np.int16),
            "history_turns": spaces.Box(0, deck, (n, HISTORY_TURNS, len(TURN_COLUMNS)), np.int16),
            "action_mask": spaces.Box(0, 1, (slots,), np.int8),
            "candidates": spaces.Box(-FEATURE_BOUND, FEATURE_BOUND, (slots, width), np.float32),
        }
    )


def observation(
    encoder: ObservationEncoder,
    history: PublicHistory,
    state: GameState,
    seat: int,
    candidates: Sequence[Candidate],
    slots: int,
    width: int = NUM_FEATURES,
) -> dict[str, Any]:
    """One flat observation (keys as `observation_space`) of `state` for `seat`."""
    mask, features = candidate_arrays(candidates, slots, width)
    return {
        **encoder.encode(state, seat),
        **history.arrays(seat, encoder.deck_size),
        "action_mask": mask,
        "candidates": features,
    }


def candidate_arrays(
    candidates: Sequence[Candidate], slots: int, width: int = NUM_FEATURES
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.float32]]:
    """Action mask and feature matrix (the first `width` feature columns) for a candidate list
    (slot 0 stays valid when it is empty)."""
    mask = np.zeros(slots, dtype=np.int8)
    features = np.zeros((slots, width), dtype=np.float32)
    if not candidates:
        mask[0] = 1  # a finished game: slot 0 is a harmless no-op
        return mask, features
    mask[: len(candidates)] = 1
    for row, candidate in zip(features, candidates, strict=False):
        row[:] = candidate.features[:width]
    np.clip(features, -FEATURE_BOUND, FEATURE_BOUND, out=features)
    return mask, features


def candidate_index(space: spaces.Discrete, action: Any, count: int) -> int | None:
    """The candidate slot `action` names, or None when it is no element of the action space (a
    float, None, a string, an array of shape (1,) ...) or names an empty slot, so that the caller
    plays the fallback instead of raising."""
    try:
        inside = not isinstance(action, bool | np.bool_) and bool(space.contains(action))  # True is no slot
    except (TypeError, ValueError, OverflowError):
        inside = False
    if not inside:
        return None
    index = int(action)
    return index if index < count else None


def reset_seed(seed: object) -> int | None:
    """A `reset` seed as a plain int (numpy integers too; None draws a fresh one); a bool, a float
    or a negative number is refused by name. (Reset options are ignored, as Gymnasium and
    PettingZoo expect of environments that take none.)"""
    if seed is None:
        return None
    check_whole("seed", seed)
    if int(seed) < 0:  # type: ignore[call-overload]
        raise RummyError(f"seed must be non-negative, got {seed!r}")
    return int(seed)  # type: ignore[call-overload]


def score_sign(variant: Variant) -> int:
    """+1 where a higher score is better, -1 where the lowest total wins."""
    return -1 if variant.low_score_wins else 1


def check_reward_mode(reward: str) -> RewardMode:
    """Validate the ``reward`` argument."""
    if reward not in REWARD_MODES:
        raise RummyError(f"unknown reward {reward!r} (known: {', '.join(REWARD_MODES)})")
    return reward  # type: ignore[return-value]


def transition_reward(before: GameState, after: GameState, seat: int, mode: RewardMode, move: Move) -> float:
    """Reward for `seat` from one engine move `move` (anyone's): the score change, shaped if asked.

    ``score``: the change of the seat's match total (negated where low totals win), so an
    episode's return is the seat's final total. ``shaped``: that change times 0.01, plus 0.05 for
    every card the seat shed from its hand (minus 0.05 per card drawn), the cards of a move that
    ends the round (going out) included.
    """
    change = float(score_sign(before.variant) * (after.scores[seat] - before.scores[seat]))
    if mode == "score":
        return change
    return SHAPED_SCORE_SCALE * change + SHAPED_CARD_WEIGHT * cards_shed(before, after, seat, move)


def cards_shed(before: GameState, after: GameState, seat: int, move: Move) -> int:
    """How many cards `seat`'s hand lost in the move (negative when it drew).

    Within a round that is the change of the hand's size. A move that ends the round leaves no
    hand to compare with (the next deal, or none), so there the acting seat shed the hand cards
    the move put down or discarded, and the others shed nothing.
    """
    if after.round_index == before.round_index and not after.match_over:
        return len(before.round.hands[seat]) - len(after.round.hands[seat])
    if seat != before.to_act:
        return 0
    return len(hand_cards_used(before, move))


class LazyView(Mapping[str, Any]):
    """`rummyai.engine.game.view` of a state for a seat, built on first read: an agent that never
    reads its view (``random``) costs nothing for it."""

    __slots__ = ("_seat", "_state", "_view")

    def __init__(self, state: GameState, seat: int) -> None:
        self._state = state
        self._seat = seat
        self._view: dict[str, Any] | None = None

    def _data(self) -> dict[str, Any]:
        if self._view is None:
            self._view = view(self._state, self._seat)
        return self._view

    def __getitem__(self, key: str) -> Any:
        return self._data()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data())

    def __len__(self) -> int:
        return len(self._data())


Opponents = Union[str, "Agent", Sequence[Union[str, "Agent"]], Mapping[str, float]]


class OpponentPool:
    """The agents for the other seats, drawn again for every episode when they are a weighted mix.

    `opponents` is one agent name or spec (``"random"``, ``"mcts:iterations=40"``), one `Agent`
    (for instance a `rummyai.envs.PolicyAgent` around the learner's own policy, for self-play),
    one of those per opponent seat, or a mapping ``{spec: weight}``: every episode each opponent
    seat plays a spec drawn with those weights (from the environment's seeded generator).
    """

    def __init__(self, opponents: Opponents, count: int) -> None:
        self.count = count
        self.mix: list[tuple[str, float]] = []
        if isinstance(opponents, Mapping):
            self.mix = _check_mix(opponents)
            names = [name for name, _ in self.mix]
            self.bench: dict[str, list[Agent]] = {name: build_opponents(name, count) for name in names}
            self.weights = np.array([w for _, w in self.mix]) / sum(w for _, w in self.mix)
            self.agents = [self.bench[names[0]][k] for k in range(count)]
        else:
            self.agents = build_opponents(opponents, count)

    def every(self) -> list[tuple[str, Agent]]:
        """Every agent an episode may seat, with the name or spec it came from."""
        if self.mix:
            return [(name, agent) for name, agents in self.bench.items() for agent in agents]
        return [(getattr(agent, "name", type(agent).__name__), agent) for agent in self.agents]

    def draw(self, rng: np.random.Generator) -> list[Agent]:
        """This episode's agents, one per opponent seat (the mix drawn anew, then reseeded)."""
        if self.mix:
            picks = rng.choice(len(self.mix), size=self.count, p=self.weights)
            self.agents = [self.bench[self.mix[int(p)][0]][k] for k, p in enumerate(picks)]
        return self.agents


def _check_mix(opponents: Mapping[str, float]) -> list[tuple[str, float]]:
    """The mix as (spec, weight) pairs; weights must be finite, non-negative, and not all zero."""
    mix = []
    for name, weight in opponents.items():
        if not isinstance(name, str):
            raise RummyError(f"an opponent mix maps agent specs to weights, got key {name!r}")
        try:
            if isinstance(weight, bool | np.bool_ | str):
                raise TypeError  # True is no weight, and neither is "2"
            value = float(weight)
        except (TypeError, ValueError) as error:
            raise RummyError(f"opponent weight for {name!r} must be a number, got {weight!r}") from error
        if not (value >= 0 and np.isfinite(value)):
            raise RummyError(f"opponent weight for {name!r} must be finite and >= 0, got {weight!r}")
        mix.append((name, value))
    total = sum(w for _, w in mix)
    if not mix or total <= 0:
        raise RummyError("an opponent mix needs at least one agent with a positive weight")
    if not np.isfinite(total):
        raise RummyError(f"opponent weights must add up to a finite number, got {total!r}")
    return mix


def build_opponents(opponents: str | Agent | Sequence[str | Agent], count: int) -> list[Agent]:
    """Agents for the other seats from names (``"random"``, specs) or ready `Agent` objects.

    One name or agent is used for every opponent seat (a name builds a fresh agent per seat).
    """
    from rummyai.agents import make_agent_from_spec

    if isinstance(opponents, str) or not isinstance(opponents, Sequence):
        items: list[Any] = [opponents] * count
    else:
        items = list(opponents)
        if len(items) != count:
            raise RummyError(f"{count} opponent(s) needed, got {len(items)}")
    agents: list[Agent] = []
    for item in items:
        if isinstance(item, str):
            try:
                agents.append(make_agent_from_spec(item))
            except (TypeError, ValueError) as error:  # a parameter of the wrong type
                raise RummyError(f"opponent spec {item!r} cannot be built: {error}") from error
        elif hasattr(item, "act") and hasattr(item, "reset"):
            agents.append(item)
        else:
            raise RummyError(f"an opponent must be an agent name or an Agent, got {item!r}")
    return agents
