"""Observation encoding: what one seat may see of a match, as fixed-shape numpy arrays.

Seats are relative: index 0 is the observer, 1 the next seat clockwise, and so on. Nothing hidden
is encoded: other players' hands appear only as sizes, the stock only as its size. The discard
pile or row is face up, so all of it is encoded (a player with a perfect memory knows it).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from rummyai.cards import NUM_KINDS
from rummyai.engine.state import GameState, TableMeld
from rummyai.variants import Variant

Array = npt.NDArray[Any]

#: Bound used for scores in the observation space (match totals stay far inside it).
SCORE_BOUND = 100_000
#: Bound for turn and round counters.
COUNTER_BOUND = 1_000_000
#: Turn phases a family may report in its round data (tile: normal/give/extra; draw-meld-discard:
#: draw/play/knock), one-hot in ``phase``.
PHASES: tuple[str, ...] = ("normal", "draw", "play", "knock", "give", "extra")


class ObservationEncoder:
    """Encodes a `GameState` for one seat into the arrays of `space` (built once per variant).

    Keys: ``hand`` (53 counts), ``table`` (53 counts), ``melds`` (one row per table meld: 53
    physical counts then 52 counts of the natural cards the meld's slots stand for), ``discard``
    (53 counts), ``discard_depth`` (per kind, 1 + how many cards lie above its newest copy in the
    pile or row, 0 if absent), ``hand_sizes``, ``opened``, ``scores`` (relative seats), ``stock``
    (cards left), ``counters`` (turns completed this round, round index), ``phase`` (one-hot of
    the turn phase the family reports, `PHASES`), ``taken`` and ``committed`` (53 counts: cards
    the player to act took from the discard pile or row this turn, and those of them that must
    reach the table this turn; both were taken face up).
    """

    def __init__(self, variant: Variant, num_players: int) -> None:
        self.variant = variant
        self.num_players = num_players
        self.deck = np.asarray(variant.deck, dtype=np.int64)
        deck_size = len(variant.deck)
        self.max_melds = -(-deck_size // variant.min_meld)
        copies = max(variant.copies)
        self.deck_size = deck_size
        self._rows: dict[int, tuple[TableMeld, Array]] = {}
        self.space = spaces.Dict(
            {
                "hand": spaces.Box(0, copies, (NUM_KINDS,), np.int16),
                "table": spaces.Box(0, copies, (NUM_KINDS,), np.int16),
                "melds": spaces.Box(0, deck_size, (self.max_melds, 2 * NUM_KINDS - 1), np.int16),
                "discard": spaces.Box(0, copies, (NUM_KINDS,), np.int16),
                "discard_depth": spaces.Box(0, deck_size, (NUM_KINDS,), np.int16),
                "hand_sizes": spaces.Box(0, deck_size, (num_players,), np.int16),
                "opened": spaces.Box(0, 1, (num_players,), np.int8),
                "scores": spaces.Box(-SCORE_BOUND, SCORE_BOUND, (num_players,), np.int32),
                "stock": spaces.Box(0, deck_size, (1,), np.int16),
                "counters": spaces.Box(0, COUNTER_BOUND, (2,), np.int32),
                "phase": spaces.Box(0, 1, (len(PHASES),), np.int8),
                "taken": spaces.Box(0, copies, (NUM_KINDS,), np.int16),
                "committed": spaces.Box(0, copies, (NUM_KINDS,), np.int16),
            }
        )

    def _meld_row(self, meld: TableMeld) -> Array:
        """One meld's row, cached by object (tables keep the melds a move leaves alone)."""
        cached = self._rows.get(id(meld))
        if cached is not None and cached[0] is meld:
            return cached[1]
        deck = self.variant.deck
        row = np.zeros(2 * NUM_KINDS - 1, dtype=np.int16)
        for i in meld.all_ids():
            row[deck[i]] += 1
        for i, meaning in zip(meld.ids, meld.meanings, strict=True):
            meant = deck[i] if meaning is None else meaning.card()
            if meant is not None and meant < NUM_KINDS - 1:
                row[NUM_KINDS + meant] += 1
        if len(self._rows) >= 4096:
            self._rows.clear()
        self._rows[id(meld)] = (meld, row)
        return row

    def _counts(self, ids: tuple[int, ...] | list[int]) -> Array:
        if not ids:
            return np.zeros(NUM_KINDS, dtype=np.int16)
        return np.bincount(self.deck[list(ids)], minlength=NUM_KINDS).astype(np.int16)

    def encode(self, state: GameState, seat: int) -> dict[str, Array]:
        """The observation of `state` for `seat` (a dict matching `space`)."""
        round_ = state.round
        n = state.num_players
        order = [(seat + k) % n for k in range(n)]
        deck = self.variant.deck
        melds = np.zeros((self.max_melds, 2 * NUM_KINDS - 1), dtype=np.int16)
        table_ids: list[int] = []
        for row, meld in enumerate(round_.table[: self.max_melds]):
            table_ids.extend(meld.all_ids())
            melds[row] = self._meld_row(meld)
        depth = np.zeros(NUM_KINDS, dtype=np.int16)
        pile = round_.discard
        for above, card_id in enumerate(reversed(pile)):
            kind = deck[card_id]
            if depth[kind] == 0:
                depth[kind] = above + 1
        opened = round_.opened or (True,) * n
        data = round_.family_data
        phase = np.zeros(len(PHASES), dtype=np.int8)
        name = getattr(data, "phase", None)
        if name in PHASES:
            phase[PHASES.index(name)] = 1
        return {
            "hand": self._counts(round_.hands[seat]),
            "table": self._counts(table_ids),
            "melds": melds,
            "discard": self._counts(pile),
            "discard_depth": depth,
            "hand_sizes": np.array([len(round_.hands[s]) for s in order], dtype=np.int16),
            "opened": np.array([bool(opened[s]) for s in order], dtype=np.int8),
            "scores": np.array(
                [max(-SCORE_BOUND, min(SCORE_BOUND, state.scores[s])) for s in order], dtype=np.int32
            ),
            "stock": np.array([len(round_.stock)], dtype=np.int16),
            "counters": np.array(
                [min(round_.turn_count, COUNTER_BOUND), min(state.round_index, COUNTER_BOUND)],
                dtype=np.int32,
            ),
            "phase": phase,
            "taken": self._counts(tuple(getattr(data, "taken", ()))),
            "committed": self._counts(tuple(getattr(data, "committed", ()))),
        }
