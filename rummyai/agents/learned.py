"""The learned agent: one small network scores every candidate move; trained to imitate `mcts-pimc`.

Each decision the agent builds the environments' observation (`rummyai.envs.PolicyAgent`: the
same candidates and public history as `rummyai/Rummikub-v2`) and scores every candidate with one
shared multilayer perceptron over the candidate's features (`FEATURES` of `rummyai.envs`, scaled)
and a summary of the position (`STATE_FEATURES`); the best valid score is played. Inference is
numpy (two tanh layers), no deep-learning library is imported. Weights files (``.npz``) are
written by ``experiments/training/train_bc.py`` and ``ppo_selfplay.py``. The shipped file
(`DEFAULT_WEIGHTS`) is the network fitted to `mcts-pimc`'s rollout utilities on the 7,461
training decisions of 8,283 labelled in 439 games (every tenth game held out;
`studies/learned/labels`, ``train_bc.py --epochs 30``, epoch 29; the run and its pre-registered
evaluation: `studies/learned/`). Against `greedy` in 2-player
rummikub it wins three games in four (0.749 over 1,000 duplicate sets) and loses 35 points per
deal on average: it often draws where greedy lays a small play, keeping cards off the table that
greedy rearranges, and pays for the cards it holds when greedy goes out first.

Standard rummy and Black Heart are scored with a second shipped file (`DISCARD_WEIGHTS`), trained
by self-play PPO in 2-player standard rummy (``ppo_selfplay.py --env rummyai/StandardRummy-v1``;
run and pre-registered evaluation: `studies/learned/plan-standard.md`); it takes from the discard
row where greedy draws. Rummy Palace has no shipped weights (the standard-rummy ones lose there,
where a take is not a sure play), so matches refuse the agent in it. With a weights file of its own
(``learned:weights=FILE``) the agent uses that file in every game.
"""

from __future__ import annotations

import functools
import json
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from rummyai.engine.moves import Move
from rummyai.envs.candidates import FEATURES, V1_FEATURES
from rummyai.envs.policy_agent import PolicyAgent
from rummyai.errors import RummyError
from rummyai.variants import Variant

#: The weights shipped with the package for tile-style variants (trained on 2-player rummikub).
DEFAULT_WEIGHTS = Path(__file__).with_name("weights") / "learned_rummikub.npz"
#: The weights shipped for draw-meld-discard variants (trained on 2-player standard rummy).
DISCARD_WEIGHTS = DEFAULT_WEIGHTS.with_name("learned_standard.npz")
#: The draw-meld-discard variants those weights play: standard rummy, and Black Heart, which
#: shares its discard row and take rule. Rummy Palace has no shipped weights (they lose there).
DISCARD_VARIANTS = frozenset({"standard", "black-heart"})
#: Tag of the weights file format; a file with another tag is rejected.
FORMAT = "rummyai-learned-scorer-v1"
#: Columns of the position summary joined to every candidate's features.
STATE_FEATURES: tuple[str, ...] = (
    "bias",
    "own_hand",  # own hand size / 20
    "smallest_opponent_hand",  # / 20
    "stock",  # cards left in the stock / 100
    "own_opened",
    "opponents_opened",  # fraction of opponents who have opened
    "turns",  # turns completed this round / 100
    "table_cards",  # cards on the table / 50
    "opponent_drew_last",  # fraction of opponents whose last turn drew
    "opponent_laid_recent",  # cards the opponents laid in their last 3 turns / 10 (mean)
    "opponent_draws_recent",  # draws in the opponents' last 8 turns / 8 (mean)
)
#: Divisors of candidate feature columns (others are 0/1 flags or small counts, left as they are).
FEATURE_SCALES: dict[str, float] = {
    "hand_cards_used": 10.0,
    "hand_points_used": 50.0,
    "hand_size_after": 20.0,
    "hand_value_after": 100.0,
    "new_melds": 5.0,
    "table_melds_changed": 5.0,
    "holdback": 5.0,
    "points_below_best": 50.0,
    "card_rank": 13.0,
    "card_links": 10.0,
    "cards_taken": 10.0,
}
Array = npt.NDArray[np.float64]


def state_vector(obs: Mapping[str, Any]) -> Array:
    """The position summary (`STATE_FEATURES`) from an environment observation."""
    sizes = np.asarray(obs["hand_sizes"], dtype=np.float64)
    opened = np.asarray(obs["opened"], dtype=np.float64)
    turns = np.asarray(obs["history_turns"], dtype=np.float64)[1:]
    others = sizes[1:] if sizes.size > 1 else sizes
    return np.array(
        [
            1.0,
            sizes[0] / 20,
            others.min() / 20,
            float(obs["stock"][0]) / 100,
            opened[0],
            float(opened[1:].mean()) if opened.size > 1 else 1.0,
            float(obs["counters"][0]) / 100,
            float(np.sum(obs["table"])) / 50,
            float(turns[:, 0, 0].mean()) if len(turns) else 0.0,
            float(turns[:, :3, 2].sum(axis=1).mean()) / 10 if len(turns) else 0.0,
            float(turns[:, :, 0].sum(axis=1).mean()) / 8 if len(turns) else 0.0,
        ]
    )


@functools.cache
def _columns(features: tuple[str, ...]) -> list[int]:
    """Where the named features sit among `FEATURES` (every name is one of them: `load_scorer`)."""
    return [FEATURES.index(name) for name in features]


def inputs(obs: Mapping[str, Any], features: tuple[str, ...]) -> Array:
    """The network's input rows, one per candidate slot: the candidate columns named `features`
    (the observation's columns are the first ones of `FEATURES`), scaled, then the state."""
    matrix = np.asarray(obs["candidates"], dtype=np.float64)
    columns = _columns(features)
    if max(columns) >= matrix.shape[1]:
        raise RummyError(
            f"learned agent: the observation has {matrix.shape[1]} candidate columns, the network "
            f"reads {FEATURES[max(columns)]!r} (column {max(columns)}): use a current environment id"
        )
    scales = np.array([FEATURE_SCALES.get(name, 1.0) for name in features])
    cands = matrix[:, columns] / scales
    state = np.broadcast_to(state_vector(obs), (cands.shape[0], len(STATE_FEATURES)))
    return np.concatenate([cands, state], axis=1)


@dataclass(frozen=True)
class CandidateScorer:
    """A tanh MLP scoring candidate rows: ``layers`` is a list of (weights, bias), the last to 1 unit."""

    layers: tuple[tuple[Array, Array], ...]
    features: tuple[str, ...]
    meta: Mapping[str, Any] = field(default_factory=dict)

    def scores(self, obs: Mapping[str, Any]) -> Array:
        """One score per slot (invalid slots included; `choose` masks them)."""
        x = inputs(obs, self.features)
        for k, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if k < len(self.layers) - 1:
                x = np.tanh(x)
        return x[:, 0]

    def choose(self, obs: Mapping[str, Any]) -> int:
        """The valid slot with the highest score."""
        mask = np.asarray(obs["action_mask"]).astype(bool)
        return int(np.argmax(np.where(mask, self.scores(obs), -np.inf)))


def greedy_scorer(hidden: int = 32, seed: int = 0, features: tuple[str, ...] = FEATURES) -> CandidateScorer:
    """A network reading the candidate columns `features` that plays greedy's move (its
    ``is_greedy`` input dominates), small random elsewhere."""
    rng = np.random.default_rng(seed)
    # the rows of the v1 columns and of the state are drawn first, those of later columns last, so
    # that networks reading more columns start from the same weights on what they share
    shared = [k for k, name in enumerate(features) if name in V1_FEATURES]
    later = [k for k, name in enumerate(features) if name not in V1_FEATURES]
    state_rows = list(range(len(features), len(features) + len(STATE_FEATURES)))
    w1 = np.empty((len(features) + len(STATE_FEATURES), hidden))
    w1[shared + state_rows] = rng.normal(0, 0.05, (len(shared) + len(state_rows), hidden))
    w1[features.index("is_greedy"), 0] = 2.0
    w2 = rng.normal(0, 0.05, (hidden, hidden))
    w2[0, 0] = 2.0
    w3 = rng.normal(0, 0.05, (hidden, 1))
    w3[0, 0] = 5.0
    w1[later] = rng.normal(0, 0.05, (len(later), hidden))
    zero = np.zeros
    return CandidateScorer(((w1, zero(hidden)), (w2, zero(hidden)), (w3, zero(1))), tuple(features))


def to_torch(scorer: CandidateScorer) -> Any:
    """The torch module with the scorer's weights (for training scripts; imports torch)."""
    import torch

    layers: list[Any] = []
    for k, (w, b) in enumerate(scorer.layers):
        linear = torch.nn.Linear(w.shape[0], w.shape[1])
        with torch.no_grad():
            linear.weight.copy_(torch.tensor(w.T))
            linear.bias.copy_(torch.tensor(b))
        layers.append(linear)
        if k < len(scorer.layers) - 1:
            layers.append(torch.nn.Tanh())
    return torch.nn.Sequential(*layers)


def from_torch(module: Any, meta: Mapping[str, Any], features: tuple[str, ...] = FEATURES) -> CandidateScorer:
    """The numpy scorer of a torch module made by `to_torch` from a scorer reading `features`
    (for training scripts)."""
    linears = [m for m in module if hasattr(m, "weight")]
    layers = tuple(
        (m.weight.detach().numpy().T.astype(np.float64), m.bias.detach().numpy().astype(np.float64))
        for m in linears
    )
    return CandidateScorer(layers, tuple(features), meta)


def save_scorer(path: str | Path, scorer: CandidateScorer) -> None:
    """Write the scorer as an ``.npz`` weights file (replaced atomically)."""
    target = Path(path)
    partial = target.with_name(target.name + ".partial.npz")
    arrays: dict[str, Any] = {f"w{k}": w for k, (w, _) in enumerate(scorer.layers)}
    arrays.update({f"b{k}": b for k, (_, b) in enumerate(scorer.layers)})
    np.savez(
        partial,
        format=np.array(FORMAT),
        features=np.array(scorer.features),
        state_features=np.array(STATE_FEATURES),
        meta=np.array(json.dumps(dict(scorer.meta))),
        **arrays,
    )
    partial.replace(target)


def load_scorer(path: str | Path | None = None) -> CandidateScorer:
    """Read and check a weights file (the shipped one by default); RummyError says what is wrong."""
    file = DEFAULT_WEIGHTS if path is None else Path(path)
    named = "" if path is None else f"weights={file}: "  # the agent parameter that gave it
    not_npz = RummyError(f"learned agent: {named}weights file {file} is not an .npz archive of weights")
    if file.is_file() and not zipfile.is_zipfile(file):
        raise not_npz
    try:
        data = np.load(file, allow_pickle=False)
    except (OSError, ValueError, zipfile.BadZipFile) as error:
        raise RummyError(f"learned agent: {named}cannot read weights file {file}: {error}") from error
    if not isinstance(data, np.lib.npyio.NpzFile):
        raise not_npz
    with data:
        if "format" not in data or str(data["format"]) != FORMAT:
            raise RummyError(f"learned agent: weights file {file} is not in format {FORMAT!r}")
        features = tuple(str(f) for f in data["features"])
        unknown = [f for f in features if f not in FEATURES]
        if unknown or tuple(str(f) for f in data["state_features"]) != STATE_FEATURES:
            raise RummyError(
                f"learned agent: weights file {file} was trained on other features than this version's"
                + (f" ({', '.join(unknown)})" if unknown else "")
            )
        layers = []
        width = len(features) + len(STATE_FEATURES)
        k = 0
        while f"w{k}" in data:
            w, b = np.asarray(data[f"w{k}"], np.float64), np.asarray(data[f"b{k}"], np.float64)
            if w.ndim != 2 or w.shape[0] != width or b.shape != (w.shape[1],):
                raise RummyError(
                    f"learned agent: layer {k} of {file} has shape {w.shape}, expected ({width}, n)"
                )
            if not (np.all(np.isfinite(w)) and np.all(np.isfinite(b))):
                raise RummyError(f"learned agent: weights in {file} contain non-finite numbers")
            layers.append((w, b))
            width = w.shape[1]
            k += 1
        if not layers or width != 1:
            raise RummyError(f"learned agent: weights file {file} must end in a layer of one unit")
        meta = json.loads(str(data["meta"])) if "meta" in data else {}
    return CandidateScorer(tuple(layers), features, meta)


class LearnedAgent(PolicyAgent):
    """The `learned` agent: the trained scorer choosing among the environments' candidates
    (`rummyai.envs.PolicyAgent` builds them from the view). `weights`: a file; by default the
    shipped weights of the game's family (`DEFAULT_WEIGHTS` for tile-style games,
    `DISCARD_WEIGHTS` for draw-meld-discard ones, read at the first decision in such a game)."""

    def __init__(self, weights: str = "", seed: int = 0) -> None:
        self.fixed = bool(weights)
        self.shipped: dict[bool, CandidateScorer] = {}  # by family: tile-style or not
        self.scorer = load_scorer(weights) if weights else self._family(True)
        super().__init__(self._scores, name="learned", seed=seed)

    def _scores(self, obs: Mapping[str, Any]) -> Array:
        """The current scorer's scores (a method, so that copies and pickles score with their own)."""
        return self.scorer.scores(obs)

    def check_game(self, variant: Variant, players: int) -> None:
        """Refuse a draw-meld-discard variant the shipped weights were not made for (unless a
        weights file was given), as well as what `PolicyAgent.check_game` refuses."""
        super().check_game(variant, players)
        if not self.fixed and not variant.tile_style and variant.id not in DISCARD_VARIANTS:
            raise RummyError(
                f"no shipped weights for {variant.id} (those of draw-and-discard games play "
                f"{', '.join(sorted(DISCARD_VARIANTS))}): give learned:weights=FILE"
            )

    def _family(self, tile: bool) -> CandidateScorer:
        """The shipped scorer for tile-style games or for draw-meld-discard ones."""
        if tile not in self.shipped:
            self.shipped[tile] = load_scorer(DEFAULT_WEIGHTS if tile else DISCARD_WEIGHTS)
        return self.shipped[tile]

    def act(self, view: Mapping[str, Any], legal: Sequence[Move]) -> Move:
        """The best-scored candidate, by the weights of this game's family unless a file was given."""
        if not self.fixed:
            self.scorer = self._family(view.get("family") == "play_or_draw")
        return super().act(view, legal)
