"""Any trained policy as an `Agent`: it sees the environment's observation and picks a candidate slot.

`PolicyAgent` turns the seat's view into the observation the environments give (`RummyEnv`):
it deals one seeded determinization of the hidden cards (the candidates and the observation
depend only on what the seat sees), builds the same candidates with the same builder, encodes the
view and the public history, asks the policy for a slot and plays that candidate's move. The
policy is a callable on the observation (returning a slot, or one score per slot, the best valid
one is played) or a stable-baselines3 model saved as ``.zip`` (`load_sb3`). So a policy trained in
the environments enters `rummyai tournament` as the registered agent ``policy``
(``policy:path=model.zip`` or ``policy:target=package.module.function``).

The public history is rebuilt from the seat's consecutive views (`ViewHistory`): its own moves
are recorded as the environment records them, and between two of its turns every other seat
played one: in tile games its hand grew (a draw) or shrank (cards laid); in draw-meld-discard
games it took the cards that left the discards, else drew; the table's new cards minus the seat's
own are what it laid. With one opponent that is the environment's record exactly in the tile
games; in the draw-meld-discard games it is an estimate, and `history_taken` often differs
from the environment's (a take of the card turned up at the deal, before the seat's first view,
is missed, and a seat that takes several cards and discards one of the same kind that turn is
counted one short); with more opponents only counts are kept.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from rummyai.engine.moves import Draw, Move
from rummyai.engine.state import GameState
from rummyai.envs.candidates import (
    FEATURE_WIDTHS,
    NUM_FEATURES,
    Candidate,
    CandidateBuilder,
    feature_version,
    hand_cards_used,
    make_builder,
    move_kind,
)
from rummyai.envs.core import DEFAULT_CANDIDATES, observation, observation_space
from rummyai.envs.encoding import ObservationEncoder
from rummyai.envs.history import PublicHistory
from rummyai.errors import RummyError
from rummyai.variants import Variant

Observation = dict[str, Any]
Policy = Callable[[Observation], Any]


def _trained_width(policy: Any) -> int:
    """Candidate columns of a saved model's observations (a v1 environment's fewer), else all."""
    spaces: Any = getattr(getattr(policy, "observation_space", None), "spaces", None)
    shape: tuple[int, ...] = tuple(getattr(spaces.get("candidates"), "shape", ())) if spaces else ()
    return FEATURE_WIDTHS[1] if shape[1:] == (FEATURE_WIDTHS[1],) else NUM_FEATURES


class ViewHistory:
    """The public history of one seat's round, rebuilt from that seat's consecutive views."""

    def __init__(self, num_players: int) -> None:
        self.history = PublicHistory(num_players)
        self.previous: Mapping[str, Any] | None = None
        self._own_turn()

    def _own_turn(self) -> None:
        self.pending: list[int] = []  # kinds the seat laid since the previous view
        self.discarded: list[int] = []  # ids the seat put on the discards since the previous view

    def reset(self) -> None:
        """Forget the match."""
        self.history.clear()
        self.previous = None
        self._own_turn()

    def update(self, view: Mapping[str, Any], variant: Variant) -> None:
        """Record the turns played since the seat's previous view (or since the deal, in a new round)."""
        before, self.previous = self.previous, view
        deck = variant.deck
        seat, n = int(view["seat"]), len(view["hand_sizes"])
        if before is None or before.get("round_index") != view.get("round_index"):
            self.history.clear(int(view.get("round_index", 0)))
            self._own_turn()
            if not int(view.get("turn_count", 0)):
                return
            # others moved before the seat's first decision: compare with the deal
            sizes = [variant.hand_size] * n
            sizes[seat] = len(view["hand"])
            before = {"hand_sizes": sizes, "table": [], "discard": [], "turn_count": -1}
        if before.get("turn_count") == view.get("turn_count"):
            self._own_turn()  # the same turn (a draw-meld-discard seat acts several times a turn)
            return
        tile = view.get("family") == "play_or_draw"
        order = [(seat + k) % n for k in range(1, n)]
        changes = {s: int(view["hand_sizes"][s]) - int(before["hand_sizes"][s]) for s in order}
        laid = Counter(_table_kinds(view, deck))
        laid.subtract(_table_kinds(before, deck))
        laid.subtract(self.pending)
        kinds = sorted((+laid).elements())
        pile = set(int(i) for i in view.get("discard", ()))
        earlier = [*(int(i) for i in before.get("discard", ())), *self.discarded]
        took = [deck[i] for i in earlier if i not in pile]
        single = len(order) == 1
        for s in order:
            if tile:
                count = max(0, -changes[s])
                self.history.record_turn(s, int(count == 0), (), kinds if single else (), count)
            else:  # drew one card unless cards left the discards (attributed with one opponent only)
                theirs = took if single else []
                self.history.record_turn(
                    s, int(not theirs), theirs, kinds if single else (), len(kinds) if single else 0
                )
        self._own_turn()

    def note_own(self, state: GameState, move: Move) -> None:
        """Record the seat's own chosen move as the environment does (applied to the
        determinization it was chosen on), and remember the kinds it lays for the table diff."""
        from rummyai.engine.game import apply

        self.history.record_move(state, move, apply(state, move))
        kind = move_kind(move)
        if kind == "discard":
            self.discarded.extend(hand_cards_used(state, move))
        elif kind not in ("give", "draw", "take"):
            deck = state.variant.deck
            self.pending.extend(deck[i] for i in hand_cards_used(state, move))


def _table_kinds(view: Mapping[str, Any], deck: Sequence[int]) -> list[int]:
    return [deck[int(i)] for meld in view["table"] for i in meld["ids"]]


class PolicyAgent:
    """Plays the candidate a policy picks from the environment's observation (module docstring).

    `policy`: a callable on the observation returning a slot or one score per slot, or the path of
    a stable-baselines3 ``.zip``. `candidates` and `max_candidates` must be those the policy was
    trained with (the environments' defaults unless changed). `feature_width`: the columns of the
    candidate matrix, as in the ``-v1`` or ``-v2`` environments (default: a saved model's own, else
    every column).
    """

    def __init__(
        self,
        policy: Policy | str | Path,
        name: str = "policy",
        candidates: str | CandidateBuilder = "auto",
        max_candidates: int = DEFAULT_CANDIDATES,
        seed: int = 0,
        feature_width: int | None = None,
    ) -> None:
        self.policy: Policy = load_sb3(policy) if isinstance(policy, str | Path) else policy
        if not callable(self.policy):
            raise RummyError(f"a policy must be callable on the observation or a .zip path, got {policy!r}")
        self.name = name
        self.candidates_spec = candidates
        self.slots = max_candidates
        self.rng = np.random.default_rng(seed)
        if feature_width is not None:
            feature_version(feature_width)
        self.width = _trained_width(self.policy) if feature_width is None else feature_width
        self._setup: tuple[Variant, int, ObservationEncoder, CandidateBuilder] | None = None
        self.history: ViewHistory | None = None
        self.last_candidates: list[Candidate] = []

    def check_game(self, variant: Variant, players: int) -> None:
        """Refuse a game whose observations differ in shape from those a saved model was trained
        on (another variant family, player count or number of slots); callables are not checked."""
        trained = getattr(self.policy, "observation_space", None)
        if trained is None:
            return
        if not hasattr(trained, "spaces"):
            raise RummyError(
                f"the model was trained on one flat vector ({trained}), not on the environments' "
                "Dict observation: train it with MultiInputPolicy on the environment itself "
                "(FlatObservation's models play through a callable of your own)"
            )
        wanted = observation_space(ObservationEncoder(variant, players), self.slots, self.width)
        for key, space in wanted.spaces.items():
            have = trained.spaces.get(key)
            if have is None or have.shape != space.shape:
                got = "none" if have is None else have.shape
                raise RummyError(
                    f"the model was trained on observations where {key!r} has shape {got}, "
                    f"not {space.shape} as in {players}-player {variant.id}"
                )

    def reset(self, seed: int) -> None:
        """A new game: reseed the determinizations and forget the history."""
        self.rng = np.random.default_rng(seed)
        if self.history is not None:
            self.history.reset()

    def _prepare(self, view: Mapping[str, Any]) -> tuple[Variant, ObservationEncoder, CandidateBuilder]:
        from rummyai.agents.solver_play import variant_of

        variant = variant_of(view)
        players = len(view["hand_sizes"])
        if self._setup is None or self._setup[0] != variant or self._setup[1] != players:
            builder = make_builder(self.candidates_spec, variant.tile_style)
            self._setup = (variant, players, ObservationEncoder(variant, players), builder)
            self.history = ViewHistory(players)
        return self._setup[0], self._setup[2], self._setup[3]

    def observe(self, view: Mapping[str, Any]) -> tuple[GameState, Observation] | None:
        """The state (one determinization) and the observation for this view; None where the view
        cannot be determinized (the Tile Rummy give and extra phases, a knock)."""
        from rummyai.agents.mcts_state import Determinizer

        variant, encoder, builder = self._prepare(view)
        assert self.history is not None
        self.history.update(view, variant)
        try:
            state = Determinizer(view).sample(self.rng)
        except RummyError:
            return None
        self.last_candidates = builder.build(state, self.slots)
        if not self.last_candidates:
            return None
        obs = observation(
            encoder,
            self.history.history,
            state,
            int(view["seat"]),
            self.last_candidates,
            self.slots,
            self.width,
        )
        return state, obs

    def act(self, view: Mapping[str, Any], legal: Sequence[Move]) -> Move:
        """The candidate the policy picks (a masked or unreadable answer plays slot 0, the fallback)."""
        if not legal:
            raise RummyError(f"{self.name} asked to act at seat {view.get('seat')} with no legal move")
        seen = self.observe(view)
        if seen is None:
            return _fallback(view, legal)
        state, obs = seen
        slot = choose_slot(self.policy(obs), obs["action_mask"])
        move = self.last_candidates[slot].move
        assert self.history is not None
        self.history.note_own(state, move)
        return move


def choose_slot(answer: Any, mask: npt.NDArray[np.int8]) -> int:
    """The slot a policy's answer names: an index, or the best-scored valid slot; slot 0 if invalid."""
    values = np.asarray(answer)
    if values.ndim >= 1 and values.size == mask.size:
        scores = np.where(mask.astype(bool), values.astype(np.float64).ravel(), -np.inf)
        return int(np.argmax(scores))
    try:
        slot = int(values.reshape(-1)[0]) if values.size else -1
    except (TypeError, ValueError):
        return 0
    return slot if 0 <= slot < mask.size and mask[slot] else 0


def _fallback(view: Mapping[str, Any], legal: Sequence[Move]) -> Move:
    """Where no observation can be built: greedy's simple choice (the give phase: its highest card)."""
    from rummyai.agents.greedy import give_highest, most_cards

    if view.get("phase") == "give":
        return give_highest(view, legal)
    best = most_cards(view, legal)
    return best if not isinstance(best, Draw) else next((m for m in legal if isinstance(m, Draw)), best)


def load_sb3(path: str | Path) -> Policy:
    """A stable-baselines3 model (MaskablePPO, else PPO) as a policy (extra `learn`)."""
    file = Path(path)
    if not file.is_file():
        raise RummyError(f"policy agent: path={file}: no such file")
    try:
        from sb3_contrib import MaskablePPO
        from stable_baselines3 import PPO
    except ImportError as error:
        raise RummyError(
            "loading a .zip policy needs the `learn` extra (pip install 'rummyai[learn]')"
        ) from error
    try:
        model: Any = MaskablePPO.load(str(file), device="cpu")
        masked = True
    except Exception:  # not a MaskablePPO file: try plain PPO
        try:
            model = PPO.load(str(file), device="cpu")
            masked = False
        except Exception as error:
            raise RummyError(
                f"policy agent: path={file} is not a stable-baselines3 PPO model: {error}"
            ) from error

    def policy(obs: Observation) -> int:
        kwargs = {"action_masks": obs["action_mask"].astype(bool)} if masked else {}
        action, _ = model.predict(obs, deterministic=True, **kwargs)
        return int(np.asarray(action).reshape(-1)[0])

    policy.observation_space = model.observation_space  # type: ignore[attr-defined]  # for check_game
    return policy


def policy_agent(path: str = "", target: str = "", version: int = 0, seed: int = 0) -> PolicyAgent:
    """The registered ``policy`` agent: an SB3 ``.zip`` (`path`) or a callable named by its dotted
    path (`target`, ``package.module.function``; a module in the working folder is found too).
    `version` 1 or 2 gives the observations of the ``-v1`` or ``-v2`` environments (default: a
    saved model's own, else v2)."""
    if bool(path) == bool(target):
        raise RummyError("the policy agent needs exactly one of path=MODEL.zip or target=module.callable")
    if version and version not in FEATURE_WIDTHS:
        raise RummyError(
            f"the policy agent's version is 1 or 2 (the environments' -v1 or -v2), got {version}"
        )
    width = FEATURE_WIDTHS.get(version)
    if path:
        return PolicyAgent(path, seed=seed, feature_width=width)
    module, _, attribute = target.rpartition(".")
    if not module or not attribute:
        raise RummyError(f"policy target {target!r} must be module.callable, e.g. mypolicy.act")
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.append(os.getcwd())  # as `python -m` would: a module beside the user
    try:
        found = getattr(importlib.import_module(module), attribute)
    except (ImportError, AttributeError, ValueError) as error:
        raise RummyError(f"policy target {target!r} cannot be imported: {error}") from error
    return PolicyAgent(found, name=f"policy:{attribute}", seed=seed, feature_width=width)


def first_valid_slot(obs: Observation) -> int:
    """A trivial policy (the first valid slot: the fallback), for examples and tests."""
    return int(np.flatnonzero(obs["action_mask"])[0])
