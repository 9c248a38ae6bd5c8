"""Property tests over random matches of the draw-meld-discard variants.

After every operation: every physical card is in exactly one place, every table meld is valid
and in canonical form, credited values add up to the table, and no view shows a hidden card.
At every round end the scores follow §4.6 / §5.4 / §6.6 from the final round state.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pytest

from rummyai.engine.discard import DiscardData
from rummyai.engine.discard_melds import ids_value, meld_value, normalize
from rummyai.engine.game import apply, legal_moves, new_match, view
from rummyai.engine.state import GameState, RoundState
from rummyai.variants import Variant

MATCHES = 200
CHUNKS = 4
MAX_TURNS = 300
VIEW_EVERY = 3  # views are checked on every third move (and at each deal)


@dataclass
class Stats:
    rounds: int = 0
    truncated: int = 0
    moves: int = 0


def check_round(variant: Variant, r: RoundState, n: int) -> None:
    """Cards conserved, table melds valid and canonical, credit adds up."""
    placed: list[int] = [i for h in r.hands for i in h]
    placed += [i for m in r.table for i in m.all_ids()]
    placed += list(r.stock) + list(r.discard)
    assert sorted(placed) == list(range(len(variant.deck))), "cards not conserved"
    table_value = 0
    for meld in r.table:
        normalized, info = normalize(variant, replace(meld, credit=()))
        assert normalized.ids == meld.ids and normalized.meanings == meld.meanings
        if variant.wilds_le_naturals:
            assert info.wild_count <= info.naturals
        table_value += meld_value(variant, meld, info)
    assert sum(r.credited) == table_value
    assert len(r.hands) == n


def check_views(state: GameState) -> None:
    """Each seat sees its own hand, the table and the discards, never another hand or the stock."""
    r = state.round
    public = {i for m in r.table for i in m.all_ids()} | set(r.discard)
    data: DiscardData = r.family_data
    for seat in range(state.num_players):
        seen = view(state, seat)
        assert seen["hand"] == sorted(r.hands[seat])
        assert seen["discard"] == list(r.discard)
        assert seen["stock_size"] == len(r.stock)
        allowed = public | set(r.hands[seat]) | set(data.taken)
        assert _ids(seen) <= allowed, f"seat {seat} sees hidden cards"


def _ids(seen: dict[str, Any]) -> set[int]:
    """Every physical id a view names."""
    ids = set(seen["hand"]) | set(seen["discard"]) | set(seen["taken"]) | set(seen["committed"])
    for meld in seen["table"]:
        ids |= set(meld["ids"]) | {e for e in meld["escorts"] if e is not None}
    return ids


def check_scores(variant: Variant, r: RoundState, n: int) -> None:
    """Round scores from the final round state (§4.6, §5.4, §6.6)."""
    result = r.result
    assert result is not None
    held = [ids_value(variant, h) for h in r.hands]
    if variant.scoring == "played_minus_held":
        expected = [c - h for c, h in zip(r.credited, held, strict=True)]
        if result.winner is not None:
            expected[result.winner] += variant.going_out_bonus
            if result.detail == "Black Heart":
                expected[result.winner] += variant.black_heart_bonus_per_player * n
        assert list(result.scores) == expected
        return
    if result.winner is None:
        assert list(result.scores) == [-h for h in held]
        return
    multiplier = variant.going_rummy_multiplier if result.detail == "Going Rummy" else 1
    assert held[result.winner] == 0
    assert result.scores[result.winner] == sum(held) * multiplier
    assert sum(result.scores) == 0


def play_checked(
    variant_id: str, options: list[str], players: int, seed: int, max_turns: int = MAX_TURNS
) -> tuple[GameState, Stats]:
    """A random match with every property checked after every move."""
    rng = np.random.default_rng([seed, 99])
    state = new_match(variant_id, players, seed, options=options, max_turns=max_turns)
    stats = Stats()
    check_round(state.variant, state.round, players)
    while not state.match_over:
        moves = legal_moves(state)
        assert moves, f"no legal move in phase {state.round.family_data.phase}"
        move = moves[int(rng.integers(len(moves)))]
        nxt = apply(state, move)
        stats.moves += 1
        if len(nxt.history) > len(state.history):
            stats.rounds += 1
            final = nxt.finished
            assert final is not None and final.result == nxt.history[-1]
            stats.truncated += final.result.reason == "max_turns"
            check_round(state.variant, final, players)
            check_scores(state.variant, final, players)
        if not nxt.match_over:
            check_round(nxt.variant, nxt.round, players)
            if stats.moves % VIEW_EVERY == 0 or nxt.round.turn_count == 0:
                check_views(nxt)
        state = nxt
    return state, stats


def _palace(seed: int) -> tuple[list[str], int]:
    extra = [[], ["knocking"], ["cyclic_laying"], ["opening_single_meld"]][seed % 4]
    return ["max_rounds=1", *extra], 2 + seed % 3


def _standard(seed: int) -> tuple[list[str], int]:
    if seed % 5 == 0:
        return ["max_deals=1", "decks=2"], 5 + seed % 2
    return ["max_deals=1"], 2 + seed % 3


def _black_heart(seed: int) -> tuple[list[str], int]:
    return ["max_deals=1"], 2 + seed % 5


SETUPS = {"rummy-palace": _palace, "standard": _standard, "black-heart": _black_heart}


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("variant_id", list(SETUPS))
def test_random_matches_keep_every_property(variant_id: str, chunk: int) -> None:
    total = Stats()
    for seed in range(chunk, MATCHES, CHUNKS):
        options, players = SETUPS[variant_id](seed)
        state, stats = play_checked(variant_id, options, players, seed)
        assert state.winners
        total.rounds += stats.rounds
        total.truncated += stats.truncated
    # max_turns is only a safety net
    assert total.truncated <= total.rounds // 20, f"{total.truncated} of {total.rounds} rounds truncated"


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("variant_id", list(SETUPS))
def test_whole_matches_finish(variant_id: str, players: int) -> None:
    rng = np.random.default_rng(players)
    state = new_match(variant_id, players, seed=11 + players, max_turns=MAX_TURNS)
    truncated = 0
    while not state.match_over:
        moves = legal_moves(state)
        before = len(state.history)
        state = apply(state, moves[int(rng.integers(len(moves)))])
        if len(state.history) > before and state.history[-1].reason == "max_turns":
            truncated += 1
    assert state.winners
    assert truncated <= 1
    cap = state.variant.rounds
    assert cap is not None and len(state.history) <= cap
    if variant_id == "rummy-palace":
        assert len(state.history) == cap or min(state.scores) <= -500
    else:
        last = state.history[-1]
        reached = last.reason == "out" and last.winner is not None and state.scores[last.winner] >= 500
        assert reached or len(state.history) == cap
