"""Learned agent: a small bilinear scorer over solver candidates, trained by this project.

Every turn of a tile-style variant the agent lists a few candidate moves (the solver's most-cards
play, which is greedy's move, its most-points play, the most-cards play keeping the jokers, the
greedy play holding back the fourth card of a meld, the engine's listed plays placing the most
cards, and the draw), describes each by `CANDIDATE_FEATURES` and the position by
`STATE_FEATURES`, and plays the candidate with the highest score ``c @ W @ s``. The weight matrix
W lives in a small JSON file (`DEFAULT_WEIGHTS`, written by ``experiments/train_learned.py``);
inference is a numpy matrix product, no deep-learning library is imported.

Supported: the tile-style family (``play_or_draw`` views: rummikub, rummy-tiles, rummy-board,
rhine); the shipped weights were trained on 2-player rummikub. Draw-meld-discard variants raise
RummyError. In the Tile Rummy give phase it gives away its highest-value card, as greedy does.
"""

from __future__ import annotations

import json
import math
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from rummyai.agents.base import View
from rummyai.agents.greedy import give_highest
from rummyai.agents.holdback import HoldbackAgent
from rummyai.agents.solver_play import (
    SeatPosition,
    best_legal_play,
    hand_cards_in,
    require_tile_turn,
    seat_position,
)
from rummyai.engine.moves import Move, Play
from rummyai.errors import RummyError

#: The weights shipped with the package (trained on 2-player rummikub).
DEFAULT_WEIGHTS = Path(__file__).with_name("weights") / "learned_rummikub.json"
#: Tag of the weights file format; a file with another tag is rejected.
FORMAT = "rummyai-learned-bilinear-v1"

#: Columns of a candidate's feature vector (the rows of W).
CANDIDATE_FEATURES: tuple[str, ...] = (
    "draw",  # 1 for a move placing no card (the draw, a pass)
    "cards",  # hand cards placed
    "points",  # hand points placed / 10
    "jokers",  # wild cards from hand placed
    "opens",  # places cards while the seat has not opened yet
    "goes_out",  # empties the hand
    "melds_changed",  # start melds not left whole on the table
    "new_melds",  # melds made of hand cards only
    "greedy",  # the solver's most-cards play (greedy's move)
)
#: Columns of the position's feature vector (the columns of W).
STATE_FEATURES: tuple[str, ...] = (
    "bias",  # always 1
    "opponent_near_out",  # (6 - smallest opponent hand) / 5, clipped to [0, 1]
    "stock",  # cards left in the stock / deck size
    "own_hand",  # own hand size / 20
    "opponents_opened",  # fraction of opponents who have opened
)
Matrix = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Weights:
    """A validated weight matrix (candidate features x state features) and the file's metadata."""

    matrix: Matrix
    meta: Mapping[str, Any]


def greedy_weights() -> Matrix:
    """The matrix that reproduces greedy: most cards, ties by points, then the solver's own play."""
    w = np.zeros((len(CANDIDATE_FEATURES), len(STATE_FEATURES)))
    w[CANDIDATE_FEATURES.index("cards"), 0] = 1.0
    w[CANDIDATE_FEATURES.index("points"), 0] = 0.01
    w[CANDIDATE_FEATURES.index("greedy"), 0] = 0.05
    return w


def weights_document(matrix: Matrix, meta: Mapping[str, Any]) -> dict[str, Any]:
    """The JSON document for `matrix` (what `load_weights` reads back)."""
    return {
        "format": FORMAT,
        "candidate_features": list(CANDIDATE_FEATURES),
        "state_features": list(STATE_FEATURES),
        "weights": [[round(float(x), 6) for x in row] for row in matrix],
        "meta": dict(meta),
    }


def save_weights(path: str | Path, matrix: Matrix, meta: Mapping[str, Any]) -> None:
    """Write `matrix` and `meta` as a weights file (validated on the way out, replaced atomically)."""
    document = weights_document(matrix, meta)
    parse_weights(document, str(path))
    target = Path(path)
    partial = target.with_name(target.name + ".partial")
    partial.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    partial.replace(target)  # atomic: a reader never sees a half-written file


def load_weights(path: str | Path | None = None) -> Weights:
    """Read and validate a weights file (the shipped one by default); RummyError says what is wrong."""
    file = DEFAULT_WEIGHTS if path is None else Path(path)
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as error:
        raise RummyError(f"learned agent: cannot read weights file {file}: {error.strerror}") from error
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise RummyError(f"learned agent: weights file {file} is not valid JSON ({error.msg})") from error
    return parse_weights(document, str(file))


def parse_weights(document: Any, source: str) -> Weights:
    """Check a weights document: format tag, feature names, matrix shape, finite numbers."""
    if not isinstance(document, dict):
        raise RummyError(f"learned agent: weights file {source} must hold a JSON object")
    if document.get("format") != FORMAT:
        raise RummyError(
            f"learned agent: weights file {source} has format {document.get('format')!r}, expected {FORMAT!r}"
        )
    for key, names in (("candidate_features", CANDIDATE_FEATURES), ("state_features", STATE_FEATURES)):
        if tuple(document.get(key, ())) != names:
            raise RummyError(
                f"learned agent: weights file {source} lists {key} {document.get(key)!r}, "
                f"this version expects {list(names)}"
            )
    rows = document.get("weights")
    shape = (len(CANDIDATE_FEATURES), len(STATE_FEATURES))
    if (
        not isinstance(rows, list)
        or len(rows) != shape[0]
        or not all(isinstance(r, list) and len(r) == shape[1] for r in rows)
        or not all(_is_number(x) for r in rows for x in r)
    ):
        raise RummyError(
            f"learned agent: weights in {source} must be a {shape[0]}x{shape[1]} list of numbers"
        )
    matrix = np.asarray(rows, dtype=np.float64)
    if not np.all(np.isfinite(matrix)):
        raise RummyError(f"learned agent: weights in {source} contain non-finite numbers")
    meta = document.get("meta", {})
    if not isinstance(meta, dict):
        raise RummyError(f"learned agent: 'meta' in weights file {source} must be an object")
    return Weights(matrix, meta)


def _is_number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool)


def state_features(view: View) -> npt.NDArray[np.float64]:
    """The position's feature vector (`STATE_FEATURES`) from the seat's view."""
    seat = int(view["seat"])
    sizes = [int(s) for s in view["hand_sizes"]]
    others = [s for k, s in enumerate(sizes) if k != seat] or [sizes[seat]]
    opened = [bool(o) for k, o in enumerate(view.get("opened") or ()) if k != seat]
    deck_size = sum(sizes) + int(view.get("stock_size", 0)) + sum(len(m["ids"]) for m in view["table"])
    return np.array(
        [
            1.0,
            min(1.0, max(0.0, (6 - min(others)) / 5)),
            int(view.get("stock_size", 0)) / max(1, deck_size),
            sizes[seat] / 20,
            sum(opened) / len(opened) if opened else 1.0,
        ]
    )


def candidate_features(position: SeatPosition, move: Move, greedy: bool) -> npt.NDArray[np.float64]:
    """A candidate's feature vector (`CANDIDATE_FEATURES`) for the seat in `position`."""
    variant = position.variant
    deck = variant.deck
    hand = set(position.hand)
    out = np.zeros(len(CANDIDATE_FEATURES))
    if not isinstance(move, Play):
        out[0] = 1.0
        return out
    used = [i for meld in move.table for i in meld.ids if i in hand]
    kept = set(move.table)
    out[1] = len(used)
    out[2] = sum(variant.hand_values[deck[i]] for i in used) / 10
    out[3] = sum(1 for i in used if variant.is_wild(deck[i]))
    out[4] = float(bool(used) and not position.opened)
    out[5] = float(len(used) == len(position.hand))
    out[6] = sum(1 for m in position.table if m not in kept)
    out[7] = sum(1 for m in move.table if hand.issuperset(m.ids))
    out[8] = float(greedy)
    return out


class LearnedAgent:
    """Plays the candidate move the learned weight matrix scores highest (module docstring).

    `weights` is a weights file or loaded `Weights` (default: the shipped rummikub weights); `work_limit` caps each
    solver call (the solver's deterministic budget, about seconds of work); `listed` is how many of the engine's listed plays join the candidates;
    `cache_size` bounds the per-position cache of candidate moves (the solver is deterministic).
    """

    def __init__(
        self,
        weights: str | Weights | None = None,
        work_limit: float = 5.0,
        listed: int = 2,
        cache_size: int = 50_000,
        seed: int = 0,
    ) -> None:
        if listed < 0 or cache_size < 0:
            raise RummyError(f"learned needs listed >= 0 and cache_size >= 0, got {listed}, {cache_size}")
        if not (work_limit > 0 and math.isfinite(work_limit)):
            raise RummyError(f"learned work_limit must be a positive number, got {work_limit}")
        #: rates solver candidates of a rearranged table: tile-style variants only
        self.tile_style_only = True
        self.name = "learned"
        self.weights = weights if isinstance(weights, Weights) else load_weights(weights)
        self.work_limit = work_limit
        self.listed = listed
        self.cache_size = cache_size
        self.cache: OrderedDict[Any, list[tuple[Move, bool]]] = OrderedDict()
        self.holdback = HoldbackAgent(work_limit=work_limit)

    def reset(self, seed: int) -> None:
        """Nothing random to reseed: candidates come from the deterministic solver, scoring is exact."""

    def act(self, view: View, legal: Sequence[Move]) -> Move:
        """The highest-scoring candidate (the earliest one on ties)."""
        require_tile_turn("learned", view, legal)
        if view.get("phase") == "give":
            return give_highest(view, legal)
        position = seat_position(view)
        candidates = self.candidates(view, position, legal)
        if len(candidates) == 1:
            return candidates[0][0]
        features = np.stack([candidate_features(position, m, g) for m, g in candidates])
        scores = features @ self.weights.matrix @ state_features(view)
        return candidates[int(np.argmax(scores))][0]

    def candidates(
        self, view: View, position: SeatPosition, legal: Sequence[Move]
    ) -> list[tuple[Move, bool]]:
        """Distinct candidate moves with a flag for greedy's own play: solver plans, listed plays
        by most cards, then every legal move placing no card (the draw)."""
        quiet = tuple(
            m for m in legal if not isinstance(m, Play)
        )  # the draw or a pass: varies with the stock
        key = (
            view["variant"],
            tuple(view.get("options") or ()),
            position.hand,
            position.table,
            position.opened,
            view.get("phase"),
            quiet,
        )
        cached = self.cache.get(key)
        if cached is not None:
            self.cache.move_to_end(key)
            return cached
        moves: list[tuple[Move, bool]] = []
        seen: set[Move] = set()

        def add(move: Move | None, greedy: bool = False) -> None:
            if move is not None and move not in seen:
                seen.add(move)
                moves.append((move, greedy))

        full = self.solver_play(position, "cards")
        add(full, greedy=True)
        if full is not None:
            add(self.solver_play(position, "points"))
            deck = position.variant.deck
            if any(
                position.variant.is_wild(deck[i]) for m in full.table for i in m.ids if i in position.hand
            ):
                add(self.holdback.without_jokers(position))
            add(self.holdback.hold_back_fourth(position, full))
        plays = sorted(
            (m for m in legal if isinstance(m, Play)), key=lambda m: -hand_cards_in(m, position.hand)
        )
        for play in plays[: self.listed]:
            add(play)
        for other in quiet:
            add(other)
        if not moves:  # only plays are legal and none was kept above: every listed play
            for play in plays:
                add(play)
        if self.cache_size:
            self.cache[key] = moves
            if len(self.cache) > self.cache_size:
                self.cache.popitem(last=False)
        return moves

    def solver_play(self, position: SeatPosition, objective: str) -> Play | None:
        """The solver's best legal play under `objective`, or None."""
        play, _ = best_legal_play(position, objective, self.work_limit)
        return play
