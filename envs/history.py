"""Public history of a round: what each seat took from the discard pile, laid down, and did lately.

Everything recorded here happened in the open: a draw from the stock (not which card), a card
taken face up from the discard pile or row (a Palace knock takes one and draws a penalty card),
cards laid from hand onto the table. The environments
record every engine move (`record_move`); an agent that sees only its own views (the policy
adapter) records turns it reconstructs from consecutive views (`record_turn`). Seats are absolute
here and turned relative to the observer by `arrays`.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt

from rummyai.cards import NUM_KINDS
from rummyai.engine.moves import Move
from rummyai.engine.state import GameState
from rummyai.envs.candidates import hand_cards_used, move_kind

#: Turns remembered per seat in ``history_turns`` (newest first).
HISTORY_TURNS = 8
#: Columns of one remembered turn: drew from the stock, cards taken from the discards, cards laid.
TURN_COLUMNS: tuple[str, ...] = ("drew", "took", "laid")


class PublicHistory:
    """Per-round record of public events for every seat (cleared when a new round is dealt)."""

    def __init__(self, num_players: int, turns: int = HISTORY_TURNS) -> None:
        self.num_players = num_players
        self.turns = turns
        # counts kept wide and clipped on output: a round may see a card taken back many times
        self.taken = np.zeros((num_players, NUM_KINDS), dtype=np.int32)
        self.laid = np.zeros((num_players, NUM_KINDS), dtype=np.int32)
        # each seat's last `turns` turns, newest first: stock draws, cards taken, cards laid
        self.recent = np.zeros((num_players, turns, len(TURN_COLUMNS)), dtype=np.int16)
        self.round_index = 0
        self._open: list[int | None] = [None] * num_players  # turn_count of each seat's open turn

    def clear(self, round_index: int = 0) -> None:
        """Forget everything (a new round or match)."""
        self.taken[:] = 0
        self.laid[:] = 0
        self.recent[:] = 0
        self.round_index = round_index
        self._open = [None] * self.num_players

    def _new_turn(self, seat: int) -> npt.NDArray[np.int16]:
        """A fresh newest row for `seat` (the oldest remembered turn drops out)."""
        rows = self.recent[seat]
        rows[1:] = rows[:-1].copy()
        rows[0] = 0
        return rows[0]

    def _turn(self, seat: int, turn_count: int) -> npt.NDArray[np.int16]:
        """The record of `seat`'s turn numbered `turn_count` (a new one when the turn changed)."""
        if self._open[seat] != turn_count:
            self._open[seat] = turn_count
            return self._new_turn(seat)
        return self.recent[seat, 0]

    def record_turn(
        self, seat: int, drew: int, took: Iterable[int], laid: Iterable[int], laid_count: int | None = None
    ) -> None:
        """One whole turn of `seat`: stock draws, kinds taken from the discards, kinds laid down
        (`laid_count` cards when the kinds are not all known)."""
        took, laid = list(took), list(laid)
        count = len(laid) if laid_count is None else laid_count
        self._new_turn(seat)[:] = (drew, len(took), count)
        self._open[seat] = None
        np.add.at(self.taken[seat], took, 1)
        np.add.at(self.laid[seat], laid, 1)

    def record_move(self, before: GameState, move: Move, after: GameState) -> None:
        """Record one engine move (anyone's) from the state before it and the state after it."""
        if before.round_index != self.round_index:
            self.clear(before.round_index)
        seat = before.to_act
        rs = before.round
        deck = before.variant.deck
        kind = move_kind(move)
        if kind == "decline":
            return  # a Palace seat that does not knock: nothing happens, no turn of its own
        record = self._turn(seat, rs.turn_count)
        if kind == "draw" and rs.stock:  # a tile-style draw from an empty stock is a pass
            record[0] += 1
        if kind == "knock":  # Palace: the card just discarded, face up, and a penalty draw
            record[:2] += 1
            self.taken[seat, deck[rs.discard[-1]]] += 1
        used = hand_cards_used(before, move)
        if kind == "take":
            pile = set(rs.discard)
            hand_after = after.round.hands[seat] if after.round_index == before.round_index else ()
            taken = [i for i in hand_after if i in pile]
            record[1] += len(taken)
            for i in taken:
                self.taken[seat, deck[i]] += 1
        if kind not in ("discard", "give") and used:
            record[2] += len(used)
            for i in used:
                self.laid[seat, deck[i]] += 1
        if after.round_index != before.round_index:
            self.clear(after.round_index)

    def arrays(self, seat: int, bound: int = np.iinfo(np.int16).max) -> dict[str, npt.NDArray[np.int16]]:
        """The observation arrays, seats relative to `seat` (index 0 is the observer), every count
        clipped at `bound` (the observation space's upper bound)."""

        def out(counts: npt.NDArray[np.int32] | npt.NDArray[np.int16]) -> npt.NDArray[np.int16]:
            rolled = np.roll(counts, -seat, axis=0) if seat else counts
            return np.minimum(rolled, bound).astype(np.int16)  # a copy, observer first

        return {
            "history_taken": out(self.taken),
            "history_laid": out(self.laid),
            "history_turns": out(self.recent),
        }
