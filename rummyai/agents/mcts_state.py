"""Helpers of the MCTS agent: determinize a seat's view, play fast rollouts, score where they stop.

A *determinization* is one full game state consistent with what a seat sees: its own hand, the
table (and discard pile), the public counts and flags stay exactly as in the view; the cards the
seat cannot see (opponents' hands, the stock) are dealt uniformly at random from the unseen cards,
each opponent getting as many as the view says they hold. The rollout policy is a cheap greedy (no
solver) and the evaluation turns hand sizes, hand values and opened flags into a utility in
[-1, 1] for the searching seat.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from rummyai.agents.solver_play import hand_cards_in, variant_of
from rummyai.cards import parse_meld
from rummyai.engine import game
from rummyai.engine.moves import Draw, Give, Move, Play
from rummyai.engine.state import GameState, RoundResult, RoundState, TableMeld
from rummyai.engine.tile_moves import layoffs, new_meld_plays
from rummyai.errors import IllegalMoveError, RummyError


def seen_cards(view: Mapping[str, Any]) -> set[int]:
    """Physical ids the seat can see: its hand, every table card (escorts too) and the discards."""
    seen = {int(i) for i in view["hand"]}
    for meld in view["table"]:
        seen.update(int(i) for i in meld["ids"])
        seen.update(int(e) for e in meld.get("escorts", ()) if e is not None)
    seen.update(int(i) for i in view.get("discard", ()))
    return seen


def _tile_table(view: Mapping[str, Any]) -> tuple[TableMeld, ...]:
    table = []
    for meld in view["table"]:
        slots = parse_meld(meld["cards"])
        table.append(TableMeld(tuple(int(i) for i in meld["ids"]), tuple(s.meaning for s in slots)))
    return tuple(table)


def _discard_table(view: Mapping[str, Any]) -> tuple[TableMeld, ...]:
    table = []
    for meld in view["table"]:
        slots = parse_meld(meld["text"])
        escorts = tuple(None if e is None else int(e) for e in meld.get("escorts", ()))
        credit = tuple(int(c) for c in meld.get("credit", ()))
        table.append(
            TableMeld(tuple(int(i) for i in meld["ids"]), tuple(s.meaning for s in slots), escorts, credit)
        )
    return tuple(table)


def _moved_escorts(view: Mapping[str, Any]) -> tuple[tuple[int, int], ...]:
    """Escorts the view credits to another seat than their core card's (Black Heart §6.5), so a
    determinization scores them for the seat that earned them."""
    moved = []
    for meld in view["table"]:
        escorts = meld.get("escorts", ())
        cores = meld.get("credit", ())
        seats = meld.get("escort_credit", ())
        for escort, core, seat in zip(escorts, cores, seats, strict=False):
            if escort is not None and seat is not None and int(seat) != int(core):
                moved.append((int(escort), int(seat)))
    return tuple(sorted(moved))


class Determinizer:
    """Samples determinizations of one view; the view is read once, each sample only deals.

    Supported: the tile family in its normal phase and the draw-meld-discard family outside the
    knock phase; other positions raise RummyError (the agent then plays its fallback).

    `dead` optionally narrows one opponent's hand: ``(seat, kinds, free)`` deals that seat all but
    `free` of its cards from unseen cards whose kind is not in `kinds` (cards it cannot have held,
    e.g. ones it could have laid off when it drew instead), the `free` others from any unseen card.
    """

    def __init__(self, view: Mapping[str, Any], dead: tuple[int, frozenset[int], int] | None = None) -> None:
        self.variant = variant = variant_of(view)
        family = view.get("family")
        if view.get("phase") in ("give", "extra", "knock"):
            raise RummyError(f"no determinization in the {view.get('phase')} phase")
        self.seat = seat = int(view["seat"])
        self.sizes = sizes = [int(s) for s in view["hand_sizes"]]
        self.hand = tuple(int(i) for i in view["hand"])
        seen = seen_cards(view)
        self.unseen = [i for i in range(len(variant.deck)) if i not in seen]
        hidden = sum(s for k, s in enumerate(sizes) if k != seat) + int(view["stock_size"])
        if hidden != len(self.unseen):
            raise RummyError(
                f"cannot determinize seat {seat}: {len(self.unseen)} unseen cards but {hidden} hidden "
                "(opponents' hands plus stock)"
            )
        n = len(sizes)
        common: dict[str, Any] = {
            "dealer": int(view["dealer"]),
            "turn": int(view["turn"]),
            "opened": tuple(bool(b) for b in view["opened"]),
            "turn_count": int(view.get("turn_count", 0)),
        }
        if family == "play_or_draw":
            from rummyai.engine.tile import TileData

            self.template = RoundState(
                hands=(),
                stock=(),
                table=_tile_table(view),
                played_before=(False,) * n,
                passes=int(view.get("passes", 0)),
                family_data=TileData(),
                **common,
            )
        elif family == "draw_meld_discard":
            from rummyai.engine.discard_rules import DiscardData

            played = tuple(bool(b) for b in view["played"])
            data = DiscardData(
                phase=view["phase"],
                taken=tuple(int(i) for i in view.get("taken", ())),
                committed=tuple(int(i) for i in view.get("committed", ())),
                fresh=not played[seat],
                next_turn=seat,
                escort_credit=_moved_escorts(view),
            )
            self.template = RoundState(
                hands=(),
                stock=(),
                table=_discard_table(view),
                discard=tuple(int(i) for i in view["discard"]),
                played_before=played,
                credited=tuple(int(c) for c in view["credited"]),
                recycles=int(view.get("recycles", 0)),
                family_data=data,
                **common,
            )
        else:
            raise RummyError(f"no determinization for the {family!r} turn family")
        self.scores = tuple(int(s) for s in view.get("scores", (0,) * n))
        self.round_index = int(view.get("round_index", 0))
        self.dead = dead if dead is not None and dead[0] != seat and 0 <= dead[0] < n else None

    def sample(self, rng: np.random.Generator) -> GameState:
        """One game state consistent with the view, the hidden cards dealt at random."""
        order = [self.unseen[k] for k in rng.permutation(len(self.unseen))]
        if self.dead is not None:
            order = self._narrowed(order)
        hands: list[tuple[int, ...]] = []
        at = 0
        for k, size in enumerate(self.sizes):
            if k == self.seat:
                hands.append(self.hand)
            else:
                hands.append(tuple(sorted(order[at : at + size])))
                at += size
        rs = replace(self.template, hands=tuple(hands), stock=tuple(order[at:]))
        seed = int(rng.integers(2**31))
        return GameState(self.variant, seed, len(hands), self.round_index, self.scores, rs)

    def _narrowed(self, order: list[int]) -> list[int]:
        """`order` rearranged so that the dead-constrained seat's slice holds allowed cards (as many
        as there are) and its `free` cards, every other seat keeping the shuffled order."""
        assert self.dead is not None
        seat, kinds, free = self.dead
        deck = self.variant.deck
        start = sum(s for k, s in enumerate(self.sizes) if k != self.seat and k < seat)
        size = self.sizes[seat]
        allowed = [c for c in order if deck[c] not in kinds]
        chosen = allowed[: max(0, size - free)]
        taken = set(chosen)
        rest = [c for c in order if c not in taken]
        chosen += rest[: size - len(chosen)]
        taken = set(chosen)
        rest = [c for c in order if c not in taken]
        return rest[:start] + chosen + rest[start:]


def determinize(view: Mapping[str, Any], rng: np.random.Generator) -> GameState:
    """One game state consistent with `view` (see `Determinizer`)."""
    return Determinizer(view).sample(rng)


# --------------------------------------------------------------------------- rollout policy
def fast_tile_turn(state: GameState, rng: np.random.Generator) -> Move:
    """A cheap greedy turn (no solver) for an opened seat: lay down the biggest new melds from
    hand, then single lay-offs (a random one each time), repeatedly; draw when nothing fits."""
    rs = state.round
    variant = state.variant
    table = list(rs.table)
    left = list(rs.hands[rs.turn])
    played = False
    while left:
        melds = new_meld_plays(variant, left)
        if melds:
            meld = max(melds, key=lambda m: len(m.ids))
            table.append(meld)
        else:
            offs = layoffs(variant, table, left)
            if not offs:
                break
            t, meld = offs[int(rng.integers(len(offs)))]
            table[t] = meld
        used = set(meld.ids)
        left = [i for i in left if i not in used]
        played = True
    return Play(tuple(table)) if played else Draw()


def fast_move(state: GameState, legal: Sequence[Move], rng: np.random.Generator) -> Move:
    """The rollout policy among listed moves: on tile variants the biggest opening (or the
    highest-value give), elsewhere the move placing the most hand cards, ties broken at random
    (so draws and discards vary between rollouts)."""
    hand = state.round.hands[state.to_act]
    gives = [m for m in legal if isinstance(m, Give)]
    if gives:
        values, deck = state.variant.hand_values, state.variant.deck
        return max(gives, key=lambda m: values[deck[m.card]])
    counts = [hand_cards_in(m, hand) for m in legal]
    best = max(counts)
    options = [m for m, c in zip(legal, counts, strict=True) if c == best]
    return options[int(rng.integers(len(options)))]


def step(state: GameState, move: Move, legal: Sequence[Move]) -> GameState:
    """Apply `move`, or the listed legal move placing the most hand cards if the engine rejects it."""
    try:
        return game.apply(state, move)
    except IllegalMoveError:
        hand = state.round.hands[state.to_act]
        return game.apply(state, max(legal, key=lambda m: hand_cards_in(m, hand)))


def policy_step(state: GameState, rng: np.random.Generator) -> GameState:
    """One decision of the rollout policy applied to `state`."""
    rs = state.round
    if (
        state.variant.family == "play_or_draw"
        and rs.opened[rs.turn]
        and getattr(rs.family_data, "phase", "normal") == "normal"
    ):
        try:
            return game.apply(state, fast_tile_turn(state, rng))
        except IllegalMoveError:
            pass  # e.g. a per-turn card cap: fall back to the listed moves
    legal = game.legal_moves(state)
    return step(state, fast_move(state, legal, rng), legal)


def rollout(state: GameState, turns: int, rng: np.random.Generator) -> tuple[GameState, RoundResult | None]:
    """Play `turns` more turns (seat changes) with the fast policy, or until the round ends.

    Returns the state reached and the round's result if it ended in the meantime.
    """
    rounds = len(state.history)
    seat = state.to_act
    changes = 0
    for _ in range(64 * max(1, turns)):
        if changes >= turns or state.match_over or len(state.history) > rounds:
            break
        state = policy_step(state, rng)
        if len(state.history) > rounds:
            break
        if state.to_act != seat:
            seat = state.to_act
            changes += 1
    result = state.history[rounds] if len(state.history) > rounds else None
    return state, result


# --------------------------------------------------------------------------- evaluation
def evaluate(
    state: GameState,
    result: RoundResult | None,
    seat: int,
    card_weight: float = 3.0,
    open_weight: float = 10.0,
    scale: float = 40.0,
    delay: int = 0,
    discount: float = 0.97,
) -> float:
    """Utility in [-1, 1] for `seat`. A finished round: +-0.9 for winning or losing it, plus a
    tenth for the score difference, discounted by `discount` per turn of `delay` (the turns
    since the root) so that winning now beats winning later. Otherwise an estimate within +-0.8 (below any win, above any
    loss) from hand sizes, hand values and opened flags against the opponents' mean."""
    n = state.num_players
    if result is not None:
        sign = -1.0 if state.variant.low_score_wins else 1.0
        mine = result.scores[seat]
        others = [result.scores[k] for k in range(n) if k != seat]
        diff = sign * (mine - sum(others) / max(1, len(others)))
        won = 1.0 if result.winner == seat else -1.0 if result.winner is not None else 0.0
        return (0.9 * won + 0.1 * math.tanh(diff / scale)) * discount**delay
    rs = state.round
    variant = state.variant
    values, deck = variant.hand_values, variant.deck

    def strength(k: int) -> float:
        hand = rs.hands[k]
        penalty = sum(values[deck[i]] for i in hand)
        opened = rs.opened[k] if rs.opened else True
        return -(card_weight * len(hand) + penalty) - (0.0 if opened else open_weight)

    own = strength(seat)
    rivals = [strength(k) for k in range(n) if k != seat]
    gap = own - sum(rivals) / max(1, len(rivals))
    return 0.8 * math.tanh(gap / (2 * scale))


def with_round(state: GameState, rs: RoundState) -> GameState:
    """`state` with another round state (small helper for tests and the agent)."""
    return replace(state, round=rs)
