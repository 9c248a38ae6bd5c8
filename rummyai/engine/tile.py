"""The tile-style turn family ("play_or_draw"): `rummikub`, `rhine`, `rummy-tiles`, `rummy-board`.

A turn is a PLAY (the whole new table, judged once at the end of the turn by
`tile_rules.check_play`) or a DRAW (with an empty stock, a pass). This module deals rounds,
applies moves, runs the end-of-round rules (going out, Rhine's stock exhaustion, Tile Rummy's
stalemate mini-pool, Board Rummy's last draw, Rummikub's cycle without play), scores rounds
through `tile_score` and builds the per-player views.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np

from rummyai.cards import sort_key
from rummyai.engine.game import register_family
from rummyai.engine.moves import Draw, Give, Move, Play, Rejected, Violation
from rummyai.engine.qualify import check_play_qualifying
from rummyai.engine.state import GameState, RoundState, TableMeld
from rummyai.engine.tile_moves import layoffs, new_meld_plays, opening_plays
from rummyai.engine.tile_rules import PlayCheck, meld_text, sections
from rummyai.engine.tile_score import score_blocked, score_out
from rummyai.errors import IllegalMoveError
from rummyai.variants import Variant

Phase = Literal["normal", "give", "extra"]

# Stock-out rules that end (or start the stalemate) after n turns without a play on an empty pool.
_EMPTY_POOL_CYCLES = ("cycle_without_play", "stalemate_minipool")


@dataclass(frozen=True)
class TileData:
    """Tile-family round data: the stalemate phase (§2.6), the mini-pool and the seats to come.

    In the "give" phase `queue` lists the seats still to give a card; in the "extra" cycle it
    lists the seats still to play after the one on turn, and `order` is the whole cycle's order.
    """

    phase: Phase = "normal"
    minipool: tuple[int, ...] = ()
    queue: tuple[int, ...] = ()
    order: tuple[int, ...] = ()
    givers: tuple[int, ...] = ()  # the seat that gave each mini-pool card, in step with it


def _data(state: RoundState) -> TileData:
    data = state.family_data
    return data if isinstance(data, TileData) else TileData()


def _seats_from(first: int, n: int) -> tuple[int, ...]:
    return tuple((first + k) % n for k in range(n))


def _set_hand(
    hands: tuple[tuple[int, ...], ...], seat: int, hand: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    return (*hands[:seat], hand, *hands[seat + 1 :])


class TileFamily:
    """Round rules of the tile-style variants (the `TurnFamily` protocol)."""

    def __init__(self) -> None:
        self._last: tuple[GameState, Play, PlayCheck] | None = None

    # ------------------------------------------------------------------ deal
    def deal(
        self,
        variant: Variant,
        num_players: int,
        dealer: int,
        scores: tuple[int, ...],
        rng: np.random.Generator,
    ) -> RoundState:
        """Shuffle, deal `hand_size` cards each; the seat after the dealer starts."""
        order = [int(i) for i in rng.permutation(len(variant.deck))]
        size = variant.hand_size
        hands = tuple(tuple(sorted(order[s * size : (s + 1) * size])) for s in range(num_players))
        stock = tuple(order[num_players * size :])
        return RoundState(
            dealer=dealer,
            turn=(dealer + 1) % num_players,
            hands=hands,
            table=(),
            stock=stock,
            opened=(False,) * num_players,
            played_before=(False,) * num_players,
            family_data=TileData(),
        )

    # ------------------------------------------------------------------ checks
    def check(self, state: GameState, play: Play) -> PlayCheck:
        """`check_play` for the seat on turn (the last result is reused by `apply`)."""
        last = self._last
        if last is not None and last[0] is state and last[1] is play:
            return last[2]
        outside = _outside_deck(len(state.variant.deck), play)
        if outside is not None:
            return PlayCheck(
                Violation(
                    "move",
                    f"malformed move: card id {outside} is not in the deck (ids 0 to {len(state.variant.deck) - 1})",
                )
            )
        rs = state.round
        seat = rs.turn
        result = check_play_qualifying(
            state.variant, rs.table, rs.hands[seat], play.table, rs.opened[seat], play.opening
        )
        self._last = (state, play, result)
        return result

    def validate(self, state: GameState, move: Move) -> Violation | None:
        """The first rule `move` breaks for the seat on turn, or None."""
        rs = state.round
        if rs.result is not None:
            return Violation("game", "the round is over")
        data = _data(rs)
        sec = sections(state.variant)
        if data.phase == "give":
            if not isinstance(move, Give):
                return Violation("2.6", "stalemate: each player with two or more tiles first gives one")
            if move.card not in rs.hands[rs.turn]:
                return Violation("2.6", f"card id {move.card} is not in the hand")
            return None
        if isinstance(move, Give):
            return Violation("2.6", "no mini-pool is being formed now")
        if isinstance(move, Draw):
            return None
        if isinstance(move, Rejected):
            if state.variant.invalid_play_penalty <= 0:
                return Violation(sec.cap, f"{state.variant.id} rejects invalid plays without a penalty")
            found = self.check(state, move.play).violation
            if found is None:
                return Violation(sec.cap, "the play is legal; only an illegal play is rejected")
            if found.rule == "move":  # no player could lay it: refused, never penalized
                return found
            return None
        if isinstance(move, Play):
            return self.check(state, move).violation
        return Violation("0", f"{type(move).__name__} is not a tile-style move")

    # ------------------------------------------------------------------ moves
    def legal_moves(self, state: GameState) -> list[Move]:
        """Draw, new melds from hand (openings while unopened) and single lay-offs."""
        rs = state.round
        if rs.result is not None:
            return []
        variant = state.variant
        seat = rs.turn
        hand = rs.hands[seat]
        if _data(rs).phase == "give":
            seen: dict[int, int] = {}
            for i in hand:
                seen.setdefault(variant.deck[i], i)
            return [Give(i) for i in seen.values()]
        moves: list[Move] = [Draw()]
        table = rs.table
        if not rs.opened[seat]:
            for melds in opening_plays(variant, table, hand):
                moves.append(Play(table + melds, melds))
            return moves
        for meld in new_meld_plays(variant, hand):
            moves.append(Play((*table, meld)))
        for t, meld in layoffs(variant, table, hand):
            moves.append(Play((*table[:t], meld, *table[t + 1 :])))
        return moves

    # ------------------------------------------------------------------ apply
    def apply(self, state: GameState, move: Move, rng: np.random.Generator) -> RoundState:
        """The round after a legal move (validated by the caller)."""
        fast = self._fast_apply(state, move)
        if fast is not None:
            return fast
        rs = replace(state.round, turn_count=state.round.turn_count + 1)
        variant = state.variant
        seat = rs.turn
        if isinstance(move, Give):
            return self._give(rs, seat, move.card, rng)
        if isinstance(move, Play):
            check = self.check(state, move)
            assert check.violation is None, check.violation
            played = set(check.played)
            hand = tuple(i for i in rs.hands[seat] if i not in played)
            opened = rs.opened
            if check.opened_now:
                opened = (*opened[:seat], True, *opened[seat + 1 :])
            rs = replace(
                rs,
                hands=_set_hand(rs.hands, seat, hand),
                table=check.table,
                opened=opened,
                played_before=(*rs.played_before[:seat], True, *rs.played_before[seat + 1 :]),
                passes=0,
            )
            if not hand:
                return replace(rs, result=score_out(variant, rs.hands, seat, check.opened_now))
            return self._next(variant, rs, seat, state.num_players)
        n = state.num_players
        if isinstance(move, Rejected):
            count = min(variant.invalid_play_penalty, len(rs.stock))
            emptied = bool(rs.stock) and count == len(rs.stock)
            return self._no_play(variant, self._draw(rs, seat, count), seat, n, rng, emptied)
        assert isinstance(move, Draw)
        if _data(rs).phase == "extra":
            return self._no_play(variant, rs, seat, n, rng)
        if rs.stock:
            rs = self._draw(rs, seat, 1)
            if not rs.stock and variant.stock_out == "end_on_last_draw":
                order = _seats_from((seat + 1) % state.num_players, state.num_players)
                return replace(rs, result=score_blocked(variant, rs.hands, order, "last_draw"))
            return self._no_play(variant, rs, seat, n, rng, emptied=not rs.stock)
        elif variant.stock_out == "end_if_no_play":
            order = _seats_from(seat, state.num_players)
            return replace(
                rs, result=score_blocked(variant, rs.hands, order, "stock_exhausted"), passes=rs.passes + 1
            )
        return self._no_play(variant, rs, seat, n, rng)

    def needs_rng(self, state: GameState, move: Move) -> bool:
        """Whether applying `move` may shuffle (the stalemate mini-pool); lets `game.apply` skip
        building a generator for ordinary plays and draws."""
        if isinstance(move, Play):
            return False
        return not (isinstance(move, Draw) and len(state.round.stock) > 1)

    def _fast_apply(self, state: GameState, move: Move) -> RoundState | None:
        """The common cases in one step: a play that does not go out, a draw that leaves cards."""
        rs = state.round
        if _data(rs).phase != "normal":
            return None
        seat = rs.turn
        n = state.num_players
        if isinstance(move, Draw) and len(rs.stock) > 1:
            hand = (*rs.hands[seat], rs.stock[-1])
            return replace(
                rs,
                turn_count=rs.turn_count + 1,
                hands=_set_hand(rs.hands, seat, hand),
                stock=rs.stock[:-1],
                passes=rs.passes + 1,
                turn=(seat + 1) % n,
            )
        if isinstance(move, Play):
            check = self.check(state, move)
            assert check.violation is None, check.violation
            played = set(check.played)
            hand = tuple(i for i in rs.hands[seat] if i not in played)
            if not hand:
                return None
            opened = rs.opened
            if check.opened_now:
                opened = (*opened[:seat], True, *opened[seat + 1 :])
            before = rs.played_before
            if not before[seat]:
                before = (*before[:seat], True, *before[seat + 1 :])
            return replace(
                rs,
                turn_count=rs.turn_count + 1,
                hands=_set_hand(rs.hands, seat, hand),
                table=check.table,
                opened=opened,
                played_before=before,
                passes=0,
                turn=(seat + 1) % n,
            )
        return None

    def _draw(self, rs: RoundState, seat: int, count: int) -> RoundState:
        if count <= 0:
            return rs
        taken = rs.stock[-count:]
        hand = rs.hands[seat] + tuple(reversed(taken))
        return replace(rs, hands=_set_hand(rs.hands, seat, hand), stock=rs.stock[:-count])

    def _next(self, variant: Variant, rs: RoundState, seat: int, n: int) -> RoundState:
        if _data(rs).phase == "extra":
            return _next_extra(variant, rs)
        return replace(rs, turn=(seat + 1) % n)

    def _no_play(
        self,
        variant: Variant,
        rs: RoundState,
        seat: int,
        n: int,
        rng: np.random.Generator,
        emptied: bool = False,
    ) -> RoundState:
        """A turn without a card played: count it and fire the empty-stock rules (§2.6, §8.3).

        `emptied` marks a turn that drew the last pool card(s): the no-play cycle of §8.3 ("play
        goes on until a full cycle passes") and §2.6's n passes are counted once the pool is empty,
        so that turn starts the count at 0 and every seat, the drawer too, must then pass.
        """
        restart = emptied and variant.stock_out in _EMPTY_POOL_CYCLES
        rs = replace(rs, passes=0 if restart else rs.passes + 1)
        if _data(rs).phase == "extra":
            return _next_extra(variant, rs)
        if rs.stock or rs.passes < n:
            return replace(rs, turn=(seat + 1) % n)
        order = _seats_from((seat + 1) % n, n)
        if variant.stock_out == "cycle_without_play":
            return replace(rs, result=score_blocked(variant, rs.hands, order, "no_play_cycle"))
        if variant.stock_out == "stalemate_minipool":
            givers = tuple(s for s in order if len(rs.hands[s]) >= 2)
            if givers:
                return replace(rs, turn=givers[0], family_data=TileData("give", (), givers, order))
            return _start_extra(rs, order, (), (), rng)
        return replace(rs, turn=(seat + 1) % n)

    def _give(self, rs: RoundState, seat: int, card: int, rng: np.random.Generator) -> RoundState:
        data = _data(rs)
        hand = tuple(i for i in rs.hands[seat] if i != card)
        rs = replace(rs, hands=_set_hand(rs.hands, seat, hand))
        minipool = (*data.minipool, card)
        givers = (*data.givers, seat)
        queue = data.queue[1:]
        if queue:
            return replace(
                rs, turn=queue[0], family_data=replace(data, minipool=minipool, givers=givers, queue=queue)
            )
        return _start_extra(rs, data.order, minipool, givers, rng)

    # ------------------------------------------------------------------ round end
    def truncate(self, state: GameState) -> RoundState:
        """`max_turns` reached: score as the variant's stock-exhausted ending (§0). Mini-pool cards
        not yet taken count in the racks of the seats that gave them. Ties go to the earlier seat
        in the stalemate's extra cycle once one is under way (§2.6 step 3), else to the earlier
        seat from the one on turn."""
        rs = state.round
        data = _data(rs)
        order = data.order or _seats_from(rs.turn, state.num_players)
        racks = [list(hand) for hand in rs.hands]
        for card, giver in zip(data.minipool, data.givers, strict=True):
            racks[giver].append(card)
        return replace(rs, result=score_blocked(state.variant, racks, order, "max_turns"))

    # ------------------------------------------------------------------ views
    def view(self, state: GameState, seat: int) -> dict[str, Any]:
        """Own hand, the table, hand sizes, stock size, opened flags and the stalemate phase."""
        rs = state.round
        deck = state.variant.deck
        data = _data(rs)
        hand = sorted(rs.hands[seat], key=lambda i: (sort_key(deck[i]), i))
        result = rs.result
        return {
            "family": "play_or_draw",
            "hand": hand,
            "hand_cards": meld_text(TableMeld(tuple(hand), (None,) * len(hand)), deck).split(),
            "table": [{"ids": list(m.ids), "cards": meld_text(m, deck).split()} for m in rs.table],
            "hand_sizes": [len(h) for h in rs.hands],
            "stock_size": len(rs.stock),
            "opened": list(rs.opened),
            "turn": rs.turn,
            "dealer": rs.dealer,
            "turn_count": rs.turn_count,
            "passes": rs.passes,
            "phase": data.phase,
            "minipool_size": len(data.minipool),
            "result": None
            if result is None
            else {"winner": result.winner, "scores": list(result.scores), "reason": result.reason},
        }


def _next_extra(variant: Variant, rs: RoundState) -> RoundState:
    """Hand the extra cycle to its next seat, or end the round when the cycle is over (§2.6 step 3)."""
    data = _data(rs)
    if not data.queue:
        return replace(rs, result=score_blocked(variant, rs.hands, data.order, "stalemate"))
    seat = data.queue[0]
    rs = replace(rs, turn=seat, family_data=replace(data, queue=data.queue[1:]))
    return _take_minipool(rs, seat)


def _take_minipool(rs: RoundState, seat: int) -> RoundState:
    """An extra-cycle player first takes one mini-pool card (§2.6 step 2)."""
    data = _data(rs)
    if not data.minipool:
        return rs
    hand = (*rs.hands[seat], data.minipool[-1])
    rest = replace(data, minipool=data.minipool[:-1], givers=data.givers[:-1])
    return replace(rs, hands=_set_hand(rs.hands, seat, hand), family_data=rest)


def _start_extra(
    rs: RoundState,
    order: tuple[int, ...],
    minipool: tuple[int, ...],
    givers: tuple[int, ...],
    rng: np.random.Generator,
) -> RoundState:
    shuffle = [int(k) for k in rng.permutation(len(minipool))]
    data = TileData(
        "extra", tuple(minipool[k] for k in shuffle), order[1:], order, tuple(givers[k] for k in shuffle)
    )
    rs = replace(rs, turn=order[0], family_data=data)
    return _take_minipool(rs, order[0])


FAMILY = TileFamily()
register_family("play_or_draw", FAMILY)


def apply_or_penalize(state: GameState, play: Play) -> GameState:
    """Apply a legal play, or reject an illegal one under `invalid_play_penalty` (§2.2, §8.2).

    The rejected player's table is restored, they draw the penalty cards and the turn counts as
    a pass. Raises `IllegalMoveError` when the variant has no penalty (it rejects the play), and
    for a malformed play (a card id outside the deck), which no player could lay.
    """
    from rummyai.engine.game import apply, validate

    violation = validate(state, play)
    if violation is None:
        return apply(state, play)
    if state.variant.invalid_play_penalty <= 0 or violation.rule == "move":  # malformed: no penalty
        raise IllegalMoveError(violation.rule, violation.reason)
    return apply(state, Rejected(play))


def _outside_deck(size: int, play: Play) -> int | None:
    """A card id of `play` that names no card of a deck of `size` (a negative one too), or None."""
    for meld in (*play.table, *play.opening):
        for i in meld.ids:
            if not 0 <= i < size:
                return i
    return None
