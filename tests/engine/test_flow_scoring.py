"""Round scores recomputed from the final hands and table (docs/rules §1.6, §2.6, §3.6, §4.6,
§5.4, §8.3) over seeded random matches, with the value tables written out here from the rules
text instead of read from `Variant.hand_values`; match totals and winners are checked as well."""

from __future__ import annotations

import numpy as np
import pytest

from rummyai.cards import JOKER, rank_of
from rummyai.engine import apply, legal_moves, new_match
from rummyai.engine.discard_moves import Discard
from rummyai.engine.moves import Move
from rummyai.engine.state import GameState, RoundResult

JOKER_VALUE = {"rhine": 20, "rummy-tiles": 30, "rummy-board": 25, "rummikub": 30, "rummy-palace": 20}
PASSIVE = ("Draw", "DrawStock", "Discard", "EndDeal", "DeclineKnock")


def card_value(variant: str, kind: int) -> int:
    """Hand value of one card kind, from each variant's scoring table."""
    if kind == JOKER:
        return JOKER_VALUE[variant]
    rank = rank_of(kind)
    if variant == "rhine":
        return 15 if rank == 1 else rank
    if variant in ("rummy-tiles", "rummy-board", "rummikub"):
        return rank
    if variant == "rummy-palace":
        return 11 if rank == 1 else min(rank, 10)
    return 15 if rank == 1 else 5 if rank <= 9 else 10  # standard §5.4


def expected_scores(state: GameState, result: RoundResult) -> list[int]:
    """The round's scores from the finished round's hands (and table credit for standard)."""
    variant = state.variant.id
    finished = state.finished
    assert finished is not None
    deck = state.variant.deck
    held = [sum(card_value(variant, deck[i]) for i in hand) for hand in finished.hands]
    if variant == "rhine":
        scores = list(held)
        if result.reason == "out":
            assert result.winner is not None
            scores[result.winner] = -20 if result.detail == "down and out" else 0
        return scores
    if variant == "rummy-board":
        return [-h for h in held]
    if variant in ("rummy-tiles", "rummikub", "rummy-palace"):
        if result.winner is None:
            assert variant == "rummy-palace"
            return [-h for h in held]
        times = 2 if result.detail == "Going Rummy" else 1
        if result.reason == "out":
            scores = [-h * times for h in held]
            scores[result.winner] = sum(held) * times
            return scores
        best = held[result.winner]
        assert best == min(held)  # the lowest rack wins a blocked round
        scores = [-(h - best) for h in held]
        scores[result.winner] = sum(h - best for h in held)
        return scores
    credit = [0] * state.num_players
    for meld in finished.table:
        for card, seat in zip(meld.ids, meld.credit, strict=True):
            credit[seat] += card_value(variant, deck[card])
    scores = [c - h for c, h in zip(credit, held, strict=True)]
    if result.reason == "out":
        assert result.winner is not None
        scores[result.winner] += 25
    return scores


def choose(moves: list[Move], rng: np.random.Generator) -> Move:
    """Mostly plays, so that rounds end by going out as well as by the stock."""
    plays = [m for m in moves if type(m).__name__ not in PASSIVE]
    pool = plays if plays and rng.random() < 0.8 else moves
    return pool[int(rng.integers(len(pool)))]


@pytest.mark.parametrize(
    "variant", ["rhine", "rummy-tiles", "rummy-board", "rummikub", "rummy-palace", "standard"]
)
@pytest.mark.parametrize("seed", [0, 1])
def test_round_scores_follow_the_rules_text(variant: str, seed: int) -> None:
    players = 2 + seed
    options = {"rounds": 2} if variant in ("rhine", "rummy-tiles", "rummikub") else None
    options = {"max_rounds": 3} if variant == "rummy-palace" else options
    options = {"max_deals": 3} if variant == "standard" else options
    state = new_match(variant, players, seed, options=options, max_turns=250)
    rng = np.random.default_rng(seed)
    while not state.match_over:
        move = choose(legal_moves(state), rng)
        rounds = len(state.history)
        state = apply(state, move)
        if len(state.history) > rounds:
            result = state.history[-1]
            assert list(result.scores) == expected_scores(state, result), result
            if variant == "rummy-palace" and result.reason == "out":
                assert isinstance(move, Discard)  # §4.2: going out is discarding the last card
    assert state.scores == tuple(sum(r.scores[s] for r in state.history) for s in range(players))
    last = state.history[-1]
    if variant == "standard" and last.reason == "out" and state.scores[last.winner or 0] >= 500:
        assert state.winners == (last.winner,)  # §5.4: going out with 500 or more wins at once
    else:
        best = min(state.scores) if variant == "rhine" else max(state.scores)
        assert state.winners == tuple(s for s, v in enumerate(state.scores) if v == best)
