"""Random self-play of the tile-style variants: at least 200 whole matches per variant.

After every move the multiset of all cards is conserved (hands, table, stock and mini-pool hold
each physical card exactly once), every table meld is valid, and every finished round is scored
by the variant's rules. A sample of positions also checks that every enumerated move validates
and that per-player views leak no hidden card.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from rummyai.engine import (
    GameState,
    Move,
    Play,
    RoundState,
    TableMeld,
    apply,
    legal_moves,
    new_match,
    validate,
    view,
)
from rummyai.engine.tile import TileData, apply_or_penalize
from rummyai.engine.tile_rules import resolve
from rummyai.engine.tile_score import hand_total

MATCHES = 200
CASES: dict[str, dict[str, Any] | None] = {
    "rummikub": None,
    "rummy-tiles": None,
    "rummy-board": None,
    "rhine": {"rounds": 1},  # every 10th match plays 3 rounds (dealer rotation, cumulative scores)
}


def _all_ids(rs: RoundState) -> list[int]:
    ids = [i for h in rs.hands for i in h] + [i for m in rs.table for i in m.ids] + list(rs.stock)
    data = rs.family_data
    if isinstance(data, TileData):
        ids += list(data.minipool)
    return ids


def _check_round(state: GameState) -> None:
    rs = state.round
    assert sorted(_all_ids(rs)) == list(range(len(state.variant.deck)))
    for meld in rs.table:
        resolved = resolve(state.variant, meld)
        assert resolved.meld == meld  # stored melds carry their resolved meanings


def _check_result(state: GameState) -> None:
    variant = state.variant
    finished = state.finished
    assert finished is not None and finished.result is not None
    result = finished.result
    totals = [hand_total(variant, h) for h in finished.hands]
    if result.reason == "out":
        assert result.winner is not None and not finished.hands[result.winner]
    others = [s for s in range(state.num_players) if s != result.winner]
    if variant.scoring == "winner_takes_sum":
        assert sum(result.scores) == 0
        assert result.winner is not None
        base = 0 if result.reason == "out" else totals[result.winner]
        for s in others:
            assert result.scores[s] == -(totals[s] - base)
    elif variant.scoring == "penalty_low":
        for s in others:
            assert result.scores[s] == totals[s]
        if result.winner is not None:
            assert result.scores[result.winner] in (0, variant.down_and_out_bonus)
    else:
        assert variant.scoring == "rank_by_hand"
        assert result.scores == tuple(-t for t in totals)
        if result.winner is not None:
            assert totals[result.winner] == min(totals)


def _scramble(state: GameState, seat: int, rng: np.random.Generator) -> GameState:
    """The same position from `seat`'s point of view with all hidden cards dealt differently."""
    rs = state.round
    data = rs.family_data
    minipool = data.minipool if isinstance(data, TileData) else ()
    hidden = [i for s, h in enumerate(rs.hands) if s != seat for i in h] + list(rs.stock) + list(minipool)
    shuffled = [hidden[int(k)] for k in rng.permutation(len(hidden))]
    hands = []
    for s, h in enumerate(rs.hands):
        if s == seat:
            hands.append(h)
        else:
            hands.append(tuple(shuffled[: len(h)]))
            shuffled = shuffled[len(h) :]
    stock, rest = tuple(shuffled[: len(rs.stock)]), tuple(shuffled[len(rs.stock) :])
    if isinstance(data, TileData):
        data = replace(data, minipool=rest)
    return replace(state, round=replace(rs, hands=tuple(hands), stock=stock, family_data=data))


def _choose(moves: list[Move], rng: np.random.Generator) -> Move:
    return moves[int(rng.integers(len(moves)))]


@pytest.mark.parametrize("variant", list(CASES))
def test_random_selfplay_conserves_cards_and_scores(variant: str) -> None:
    rng = np.random.default_rng(12345)
    enumerated_checks = 0
    for seed in range(MATCHES):
        players = 2 + seed % 3
        options = CASES[variant]
        if options is not None and seed % 10 == 0:
            options = {**options, "rounds": 3}
        state = new_match(variant, players, seed=seed, options=options)
        _check_round(state)
        rounds = 0
        moves_made = 0
        while not state.match_over:
            moves = legal_moves(state)
            assert moves, "a player always has a move"
            if seed < 10 and moves_made % 5 == 0:
                for move in moves:
                    assert validate(state, move) is None, (move, validate(state, move))
                    enumerated_checks += 1
                seat = int(rng.integers(players))
                assert view(_scramble(state, seat, rng), seat) == view(state, seat)
            rs = state.round
            unchecked = (
                state.variant.invalid_play_penalty > 0
                and moves_made % 17 == 3
                and isinstance(rs.family_data, TileData)
                and rs.family_data.phase != "give"
            )
            if unchecked:
                # an unchecked, invalid submission (a lone hand card as a meld) is penalised
                seat = rs.turn
                lone = TableMeld((rs.hands[seat][0],), (None,))
                before = len(rs.hands[seat]) + min(len(rs.stock), state.variant.invalid_play_penalty)
                state = apply_or_penalize(state, Play((*rs.table, lone)))
                assert len(state.round.hands[seat]) == before and state.round.table == rs.table
                moves_made += 1
                _check_round(state)
                continue
            state = apply(state, _choose(moves, rng))
            moves_made += 1
            if len(state.history) > rounds:
                rounds = len(state.history)
                _check_result(state)
            _check_round(state)
        assert len(state.history) == state.variant.rounds
        totals = [sum(r.scores[s] for r in state.history) for s in range(players)]
        assert list(state.scores) == totals
    assert enumerated_checks > 100
