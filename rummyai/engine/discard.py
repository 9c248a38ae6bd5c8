"""The draw-meld-discard turn family: Rummy Palace (§4), Standard Rummy (§5), Black Heart Rum (§6).

A turn is a draw, single operations checked as they happen (melds, lay-offs, swaps, or an opening
bundle), then a discard. Every rule is read from the `Variant`: the discard pile or row, the
committed card of a TAKE, the opening (points or chart), joker or diamond swaps, escorts, the
Royale, going out by discard only, Going Rummy, the Black Heart bonus, stock recycling and the
`knocking` option. Importing this module registers the family as ``"draw_meld_discard"``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rummyai.cards import card_str
from rummyai.engine.discard_generate import play_candidates
from rummyai.engine.discard_melds import (
    Illegal,
    requirement,
)
from rummyai.engine.discard_moves import (
    DeclineKnock,
    DiamondSwap,
    Discard,
    DrawStock,
    EndDeal,
    JokerSwap,
    Knock,
    LayOff,
    MeldCards,
    Opening,
    TakeDiscard,
    move_from_json,
    move_to_json,
)
from rummyai.engine.discard_rules import DiscardData, Phase, Work, can_place, end_round, step
from rummyai.engine.game import register_family
from rummyai.engine.moves import Draw, Move, Violation
from rummyai.engine.state import GameState, RoundState, TableMeld
from rummyai.errors import RummyError
from rummyai.variants import Variant

__all__ = [
    "DeclineKnock",
    "DiamondSwap",
    "Discard",
    "DiscardData",
    "DiscardFamily",
    "DrawStock",
    "EndDeal",
    "JokerSwap",
    "Knock",
    "LayOff",
    "MeldCards",
    "Opening",
    "Phase",
    "TakeDiscard",
    "can_place",
    "move_from_json",
    "move_to_json",
]


def _escort_seats(meld: TableMeld, moved: dict[int, int]) -> list[int | None]:
    """Seat credited with each core card's escort (None without one): the core card's seat,
    unless the escort's diamond was swapped out by another player (Black Heart §6.5)."""
    credit = meld.credit or (-1,) * len(meld.ids)
    escorts = meld.escorts or (None,) * len(meld.ids)
    return [None if e is None else moved.get(e, seat) for e, seat in zip(escorts, credit, strict=True)]


def _meld_text(variant: Variant, meld: TableMeld) -> str:
    """Written form of a table meld (cached per variant)."""
    cache: dict[TableMeld, str] = variant.__dict__.setdefault("_dmd_text_cache", {})
    text = cache.get(meld)
    if text is None:
        if len(cache) > 100_000:
            cache.clear()
        text = cache[meld] = " ".join(str(s) for s in meld.slots(variant.deck))
    return text


# --------------------------------------------------------------------------- the family
class DiscardFamily:
    """`TurnFamily` of the draw-meld-discard variants (see the module docstring)."""

    def deal(
        self,
        variant: Variant,
        num_players: int,
        dealer: int,
        scores: tuple[int, ...],
        rng: np.random.Generator,
    ) -> RoundState:
        """Deal `hand_size` cards each, turn one card up, the rest is the stock; the player left
        of the dealer starts (with a seeded first dealer this is also Palace's random first seat)."""
        size = len(variant.deck)
        need = num_players * variant.hand_size + 1
        if need > size:
            raise RummyError(f"{variant.id}: {num_players} hands of {variant.hand_size} need {need} cards")
        order = [int(i) for i in rng.permutation(size)]
        hands = tuple(
            tuple(order[k * variant.hand_size : (k + 1) * variant.hand_size]) for k in range(num_players)
        )
        upcard = order[num_players * variant.hand_size]
        stock = tuple(order[need:])
        first = (dealer + 1) % num_players
        opened = tuple(requirement(variant, scores[s]) is None for s in range(num_players))
        return RoundState(
            dealer=dealer,
            turn=first,
            hands=hands,
            table=(),
            stock=stock,
            discard=(upcard,),
            opened=opened,
            played_before=(False,) * num_players,
            credited=(0,) * num_players,
            family_data=DiscardData(phase="draw", fresh=True, next_turn=first),
        )

    def legal_moves(self, state: GameState) -> list[Move]:
        """Simple legal moves: draws, openings, new melds, single lay-offs, swaps, discards."""
        r = state.round
        if r.result is not None:
            return []
        data: DiscardData = r.family_data
        if data.phase == "knock":
            return [Knock(r.turn), DeclineKnock(r.turn)]
        if data.phase == "draw":
            candidates: list[Move] = []
            if r.stock:
                candidates.append(DrawStock())
            if r.discard and state.variant.discard_mode == "top":
                candidates.append(TakeDiscard(len(r.discard) - 1))
            elif state.variant.discard_mode == "row":
                candidates.extend(TakeDiscard(i) for i in range(len(r.discard)))
            if not r.stock and state.variant.stock_out == "end_deal":
                candidates.append(EndDeal())
        else:
            candidates = play_candidates(state)
        return [m for m in candidates if isinstance(m, Discard) or self.validate(state, m) is None]

    def validate(self, state: GameState, move: Move) -> Violation | None:
        """The first rule `move` breaks (citing docs/rules), or None."""
        try:
            step(Work(state), move)
        except Illegal as error:
            return error.violation
        return None

    def apply(self, state: GameState, move: Move, rng: np.random.Generator) -> RoundState:
        """The round after a legal move (validated by the caller)."""
        w = Work(state, rng)
        try:
            step(w, move)
        except Illegal as error:  # pragma: no cover - game.apply validates first
            raise RummyError(str(error.violation)) from None
        return w.freeze()

    def needs_rng(self, state: GameState, move: Move) -> bool:
        """Whether applying `move` may shuffle (a stock recycle follows a draw that empties it)."""
        return isinstance(move, Draw | Knock) or not state.round.stock

    def truncate(self, state: GameState) -> RoundState:
        """End the round for `max_turns`, scored as the stock-out ending (no winner, no bonus)."""
        w = Work(state)
        end_round(w, None, "max_turns")
        return w.freeze()

    def view(self, state: GameState, seat: int) -> dict[str, Any]:
        """What `seat` sees: its own hand, the table, the discards, counts of hidden cards."""
        v, r = state.variant, state.round
        deck = v.deck
        data: DiscardData = r.family_data
        hand = sorted(r.hands[seat])
        escort_credit = dict(data.escort_credit)
        return {
            "family": "draw_meld_discard",
            "turn": r.turn,
            "dealer": r.dealer,
            "phase": data.phase,
            "hand": hand,
            "hand_cards": [card_str(deck[i]) for i in hand],
            "hand_sizes": [len(h) for h in r.hands],
            "stock_size": len(r.stock),
            "discard": list(r.discard),
            "discard_cards": [card_str(deck[i]) for i in r.discard],
            "table": [
                {
                    "ids": list(m.ids),
                    "escorts": list(m.escorts),
                    "credit": list(m.credit),
                    "escort_credit": _escort_seats(m, escort_credit),
                    "text": _meld_text(v, m),
                }
                for m in r.table
            ],
            "opened": list(r.opened),
            "played": list(r.played_before),
            "credited": list(r.credited),
            "taken": list(data.taken),
            "committed": list(data.committed),
            "knock_queue": list(data.knock_queue),
            "recycles": r.recycles,
            "turn_count": r.turn_count,
            "result": None
            if r.result is None
            else {"winner": r.result.winner, "scores": list(r.result.scores), "reason": r.result.reason},
        }


DISCARD_FAMILY = DiscardFamily()
register_family("draw_meld_discard", DISCARD_FAMILY)
