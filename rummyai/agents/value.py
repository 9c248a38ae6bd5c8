"""Value agent: one-ply search over solver candidates, judged by a value model learned from self-play.

Every turn of a tile-style variant the agent lists candidate plays (the solver's most-cards play,
which is greedy's move, the other plays placing as many cards but keeping different cards, the
most-points play, the most-cards play keeping the jokers and the greedy play holding back a
fourth card), describes the position each one leaves by `FEATURES` (what the seat sees: its own
hand's size, value and shape, the table, the opponents' hand sizes, the stock, opened flags) and
plays the one the value model rates most likely to win. A candidate must beat greedy's own play
by more than `margin` (in win probability) to be chosen, so that model noise does not move the
agent off greedy for nothing. When it cannot play it draws, as greedy does.

The model (`ValueModel`) is a small numpy network (standardised features, optional tanh hidden
layers, a sigmoid output) stored as an ``.npz`` file (`DEFAULT_WEIGHTS`, written by
``experiments/training/train_value.py``); play time needs numpy alone.

Against `greedy` in 2-player rummikub it plays level (``studies/value-agent``: win rate 0.504,
95% interval 0.487 to 0.522, over 1,000 duplicate sets).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from rummyai.agents.base import View
from rummyai.agents.greedy import draw_or_best, give_highest
from rummyai.agents.holdback import HoldbackAgent
from rummyai.agents.mcts_candidates import equal_card_alternatives, played_ids
from rummyai.agents.solver_play import SeatPosition, best_legal_play, require_tile_turn, seat_position
from rummyai.cards import JOKER, rank_of, suit_of
from rummyai.engine.moves import Move, Play
from rummyai.engine.state import TableMeld
from rummyai.errors import RummyError
from rummyai.playable import playable_cards
from rummyai.variants import Variant

#: The weights shipped with the package (trained on 2-player rummikub greedy self-play).
DEFAULT_WEIGHTS = Path(__file__).with_name("weights") / "value_rummikub.npz"
#: Tag of the weights file format; a file with another tag is rejected.
FORMAT = "rummyai-value-mlp-v1"

#: Columns of the feature vector, from the acting seat's point of view.
FEATURES: tuple[str, ...] = (
    "own_cards",  # cards in own hand
    "own_points",  # penalty value of own hand / 10
    "jokers",  # wild cards in own hand
    "duplicates",  # second copies of a kind already in hand (cannot share a group or a run)
    "hand_meldable",  # non-wild hand cards completing a meld with other hand cards and jokers
    "table_fit",  # non-wild hand cards completing a meld with hand and table cards
    "connectors",  # pairs of distinct hand kinds one step from a meld (same rank; same suit, gap <= 2)
    "isolated",  # non-wild hand cards with no connector partner in hand
    "opp_cards",  # fewest cards an opponent holds
    "card_lead",  # that opponent's cards minus own cards
    "opp_near_out",  # 1 when an opponent holds at most 4 cards
    "own_opened",  # 1 once the seat has opened
    "opp_opened",  # fraction of opponents who have opened
    "stock",  # cards left in the stock / 10
    "table_cards",  # cards on the table / 10
    "turn",  # turns played in the round / 10
)


@dataclass(frozen=True)
class Seen:
    """What the value model reads: one seat's hand and table (physical ids) and the public counts."""

    variant: Variant
    hand: tuple[int, ...]
    table: tuple[TableMeld, ...]
    opened: bool
    opponent_sizes: tuple[int, ...]
    opponents_opened: tuple[bool, ...]
    stock: int
    turn_count: int


def seen_from_view(view: Mapping[str, Any]) -> Seen:
    """The `Seen` of a tile-style view (the position as the seat sees it now)."""
    position = seat_position(view)
    seat = position.seat
    sizes = [int(s) for s in view["hand_sizes"]]
    opened = [bool(o) for o in view["opened"]]
    return Seen(
        position.variant,
        position.hand,
        position.table,
        position.opened,
        tuple(s for k, s in enumerate(sizes) if k != seat),
        tuple(o for k, o in enumerate(opened) if k != seat),
        int(view["stock_size"]),
        int(view.get("turn_count", 0)),
    )


def after_play(seen: Seen, play: Play) -> Seen:
    """The position `play` leaves the seat in: the played cards gone, the new table, opened."""
    used = {i for meld in play.table for i in meld.ids}
    hand = tuple(i for i in seen.hand if i not in used)
    placed = len(hand) < len(seen.hand)
    return Seen(
        seen.variant,
        hand,
        tuple(play.table),
        seen.opened or placed,
        seen.opponent_sizes,
        seen.opponents_opened,
        seen.stock,
        seen.turn_count + 1,
    )


def features(seen: Seen) -> npt.NDArray[np.float64]:
    """The feature vector (`FEATURES`) of a position as one seat sees it."""
    variant = seen.variant
    kinds = [variant.deck[i] for i in seen.hand]
    wild = [variant.is_wild(k) for k in kinds]
    naturals = [k for k, w in zip(kinds, wild, strict=True) if not w]
    table_kinds = [variant.deck[i] for meld in seen.table for i in meld.ids]
    meldable = playable_cards(variant, kinds, (), False)
    fitting = playable_cards(variant, kinds, table_kinds, True)
    connectors, isolated = _shape(naturals)
    opponent = min(seen.opponent_sizes) if seen.opponent_sizes else len(kinds)
    opened = seen.opponents_opened
    return np.array(
        [
            len(kinds),
            sum(variant.hand_values[k] for k in kinds) / 10,
            sum(wild),
            len(naturals) - len(set(naturals)),
            sum(1 for k in meldable if not variant.is_wild(k)),
            sum(1 for k in fitting if not variant.is_wild(k)),
            connectors,
            isolated,
            opponent,
            opponent - len(kinds),
            float(opponent <= 4),
            float(seen.opened),
            sum(opened) / len(opened) if opened else 1.0,
            seen.stock / 10,
            len(table_kinds) / 10,
            seen.turn_count / 10,
        ],
        dtype=np.float64,
    )


def _shape(naturals: Sequence[int]) -> tuple[int, int]:
    """Connector pairs among the distinct natural kinds, and natural cards with no partner."""
    distinct = sorted(set(k for k in naturals if k != JOKER))
    partnered: set[int] = set()
    pairs = 0
    for a_index, a in enumerate(distinct):
        for b in distinct[a_index + 1 :]:
            same_rank = rank_of(a) == rank_of(b)
            near = suit_of(a) == suit_of(b) and abs(rank_of(a) - rank_of(b)) <= 2
            if same_rank or near:
                pairs += 1
                partnered.update((a, b))
    isolated = sum(1 for k in naturals if k not in partnered)
    return pairs, isolated


# --------------------------------------------------------------------------- the model
@dataclass(frozen=True)
class ValueModel:
    """Win probability from `FEATURES`: standardise, tanh hidden layers, sigmoid output."""

    mean: npt.NDArray[np.float64]
    scale: npt.NDArray[np.float64]
    layers: tuple[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]], ...]
    meta: str = ""

    def logits(self, x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """The output logits for rows of features `x` (shape ``(n, len(FEATURES))``)."""
        h = (np.atleast_2d(x) - self.mean) / self.scale
        for weight, bias in self.layers[:-1]:
            h = np.tanh(h @ weight + bias)
        weight, bias = self.layers[-1]
        out: npt.NDArray[np.float64] = (h @ weight + bias)[:, 0]
        return out

    def predict(self, x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """Win probabilities for rows of features `x`."""
        out: npt.NDArray[np.float64] = 1.0 / (1.0 + np.exp(-self.logits(x)))
        return out


def save_model(path: str | Path, model: ValueModel) -> None:
    """Write `model` as an ``.npz`` weights file (checked by loading it back)."""
    arrays: dict[str, Any] = {
        "format": np.array(FORMAT),
        "features": np.array(FEATURES),
        "mean": model.mean,
        "scale": model.scale,
        "meta": np.array(model.meta),
    }
    for k, (weight, bias) in enumerate(model.layers):
        arrays[f"w{k}"] = weight
        arrays[f"b{k}"] = bias
    target = Path(path)
    with target.open("wb") as handle:
        np.savez(handle, **arrays)
    load_model(target)


def load_model(path: str | Path | None = None) -> ValueModel:
    """Read and validate a weights file (the shipped one by default); RummyError says what is wrong."""
    file = DEFAULT_WEIGHTS if path is None else Path(path)
    try:
        with np.load(file, allow_pickle=False) as data:
            arrays = {key: data[key] for key in data.files}
    except (OSError, ValueError) as error:
        raise RummyError(f"value agent: cannot read weights file {file}: {error}") from error
    return parse_model(arrays, str(file))


def parse_model(arrays: Mapping[str, npt.NDArray[Any]], source: str) -> ValueModel:
    """Check the arrays of a weights file: format tag, feature names, layer shapes, finite numbers."""
    tag = str(arrays["format"]) if "format" in arrays else None
    if tag != FORMAT:
        raise RummyError(f"value agent: weights file {source} has format {tag!r}, expected {FORMAT!r}")
    names = tuple(str(n) for n in arrays.get("features", ()))
    if names != FEATURES:
        raise RummyError(
            f"value agent: weights file {source} lists features {list(names)}, this version expects "
            f"{list(FEATURES)}"
        )
    width = len(FEATURES)
    mean = np.asarray(arrays.get("mean"), dtype=np.float64)
    scale = np.asarray(arrays.get("scale"), dtype=np.float64)
    if mean.shape != (width,) or scale.shape != (width,) or np.any(scale <= 0):
        raise RummyError(
            f"value agent: weights file {source} needs mean and positive scale of {width} values"
        )
    layers = []
    k = 0
    while f"w{k}" in arrays:
        weight = np.asarray(arrays[f"w{k}"], dtype=np.float64)
        bias = np.asarray(arrays.get(f"b{k}"), dtype=np.float64)
        if weight.ndim != 2 or weight.shape[0] != width or bias.shape != (weight.shape[1],):
            raise RummyError(
                f"value agent: layer {k} of {source} has shape {weight.shape} and bias {bias.shape}, "
                f"expected ({width}, m) and (m,)"
            )
        layers.append((weight, bias))
        width = weight.shape[1]
        k += 1
    if not layers or width != 1:
        raise RummyError(f"value agent: weights file {source} needs layers w0, b0, ... ending in one output")
    if not all(np.all(np.isfinite(a)) for pair in layers for a in pair) or not np.all(np.isfinite(mean)):
        raise RummyError(f"value agent: weights in {source} contain non-finite numbers")
    return ValueModel(mean, scale, tuple(layers), str(arrays.get("meta", "")))


# --------------------------------------------------------------------------- the agent
class ValueAgent:
    """Plays the candidate play whose resulting position the value model rates best (module docstring).

    `alternatives` bounds the equal-card alternatives asked of the solver; `holdbacks` adds the
    most-points, keep-the-jokers and hold-back-a-fourth-card plays; `margin` is how much more win
    probability than greedy's play a candidate needs; `work_limit` caps each solver call.
    """

    def __init__(
        self,
        weights: str | ValueModel | None = None,
        alternatives: int = 4,
        holdbacks: bool = True,
        margin: float = 0.0,
        work_limit: float = 5.0,
        seed: int = 0,
    ) -> None:
        if alternatives < 0 or margin < 0:
            raise RummyError(f"value needs alternatives >= 0 and margin >= 0, got {alternatives}, {margin}")
        #: rates solver candidates of a rearranged table: tile-style variants only
        self.tile_style_only = True
        self.name = "value"
        self.model = weights if isinstance(weights, ValueModel) else load_model(weights)
        self.alternatives = alternatives
        self.holdbacks = holdbacks
        self.margin = margin
        self.work_limit = work_limit
        self.holdback = HoldbackAgent(work_limit=work_limit)
        #: (candidates, their win probabilities) of the last decision; for tests and experiments.
        self.last: tuple[list[Play], npt.NDArray[np.float64]] = ([], np.zeros(0))

    def reset(self, seed: int) -> None:
        """Nothing random to reseed: the candidates come from the deterministic solver."""

    def act(self, view: View, legal: Sequence[Move]) -> Move:
        """The best-rated candidate play (greedy's play unless another beats it by `margin`), else draw."""
        require_tile_turn("value", view, legal)
        if view.get("phase") == "give":
            return give_highest(view, legal)
        position = seat_position(view)
        plays = self.candidates(position)
        if not plays:
            self.last = ([], np.zeros(0))
            return draw_or_best(view, legal)
        seen = seen_from_view(view)
        rated = self.model.predict(np.stack([features(after_play(seen, p)) for p in plays]))
        self.last = (plays, rated)
        best = int(np.argmax(rated))
        return plays[best] if rated[best] > rated[0] + self.margin else plays[0]

    def candidates(self, position: SeatPosition) -> list[Play]:
        """Distinct candidate plays, greedy's (the solver's most-cards play) first; empty: draw."""
        full, _ = best_legal_play(position, "cards", self.work_limit)
        if full is None:
            return []
        plays = [full]
        plays += equal_card_alternatives(position, full, self.work_limit, self.alternatives)
        if self.holdbacks:
            points, _ = best_legal_play(position, "points", self.work_limit)
            plays.append(points or full)
            if any(
                position.variant.is_wild(position.variant.deck[i]) for i in played_ids(full, position.hand)
            ):
                plays.append(self.holdback.without_jokers(position) or full)
            plays.append(self.holdback.hold_back_fourth(position, full) or full)
        return list(dict.fromkeys(plays))
