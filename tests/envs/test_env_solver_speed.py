"""The solver builder's shortcuts (playable hand, answer cache, known 'no play', derived
hold-backs) change how often the solver runs, never the candidates."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

import gymnasium as gym
import numpy as np
import pytest

import rummyai.envs  # noqa: F401  (registers the ids)
from rummyai.cards import Slot, parse_cards, parse_table
from rummyai.engine.state import GameState
from rummyai.envs import ENV_IDS, RummyEnv, SolverCandidates
from rummyai.envs.candidates import hand_cards_used
from rummyai.envs.solver_candidates import hold_backs, table_usable
from rummyai.playable import playable_cards
from rummyai.solvers import solve
from rummyai.variants import get_variant

ENV_BY_VARIANT = {variant: env_id for env_id, variant in ENV_IDS.items()}
ONE_ROUND = {"rhine": {"rounds": 1}}


def trajectory(variant: str, builder: SolverCandidates, seeds: range, steps: int) -> list[Any]:
    """Actions, candidate labels and features of a masked-random learner, episode after episode."""
    env = gym.make(
        ENV_BY_VARIANT[variant], candidates=builder, max_turns=steps, options=ONE_ROUND.get(variant)
    )
    rng = np.random.default_rng(7)
    record: list[Any] = []
    for seed in seeds:
        obs, _ = env.reset(seed=seed)
        for _ in range(steps):
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            record.append((action, obs["candidates"].tobytes(), obs["action_mask"].tobytes()))
            record.append(tuple(c.move for c in cast(RummyEnv, env.unwrapped).candidates))
            obs, _, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                break
    return record


@pytest.mark.parametrize("variant", ["rummikub", "rummy-board"])
def test_cached_and_uncached_runs_give_identical_trajectories(variant: str) -> None:
    # no time limit: a solve cut short by a loaded machine would make the runs differ
    cached = SolverCandidates(work_limit=None)
    uncached = SolverCandidates(work_limit=None, cache_size=0)
    # the same seed twice: the second episode is answered from the cache where positions repeat
    seeds = range(2)
    first = trajectory(variant, cached, seeds, 40)
    again = trajectory(variant, cached, seeds, 40)
    plain = trajectory(variant, uncached, seeds, 40)
    assert first == plain and again == plain
    assert cached.stats.cache_hits > 0 and cached.stats.known_zero > 0
    assert uncached.stats.cache_hits == 0 and uncached.stats.known_zero == 0
    assert cached.stats.calls < uncached.stats.calls


def _seat_to_act(env: gym.Env) -> tuple[GameState, list[int], list[tuple[Slot, ...]]]:
    """The state, and the hand and table (card kinds, slots) of the seat to act."""
    state = cast(RummyEnv, env.unwrapped).state
    assert state is not None
    deck = state.variant.deck
    return (
        state,
        [deck[i] for i in state.round.hands[state.round.turn]],
        [m.slots(deck) for m in state.round.table],
    )


@pytest.mark.parametrize("variant", ["rummikub", "rummy-board", "rhine", "rummy-tiles"])
def test_known_no_play_positions_have_no_play(variant: str) -> None:
    """Whenever the builder answers 'no play' from the seat's previous play, the solver agrees."""
    builder = SolverCandidates()
    env = gym.make(ENV_BY_VARIANT[variant], candidates=builder, max_turns=80, options=ONE_ROUND.get(variant))
    rng = np.random.default_rng(1)
    checked = 0
    for seed in range(16):  # until some turn is answered from the previous play (rare in Rhine)
        if checked:
            break
        obs, _ = env.reset(seed=seed)
        for _ in range(80):
            known = builder.stats.known_zero
            obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            if terminated or truncated:
                break
            if builder.stats.known_zero > known:
                state, hand, table = _seat_to_act(env)
                assert solve(state.variant, hand, table, opened=True).cards_played == 0
                assert all(
                    not hand_cards_used(state, c.move) for c in cast(RummyEnv, env.unwrapped).candidates
                )
                checked += 1
    assert checked >= 1


@pytest.mark.parametrize("variant", ["rummikub", "rhine", "rummy-tiles", "rummy-board"])
def test_solving_the_playable_hand_plays_as_many_cards(variant: str) -> None:
    """Along random games, the solver plays as many cards from the playable hand as from the whole."""
    env = gym.make(ENV_BY_VARIANT[variant], max_turns=50, options=ONE_ROUND.get(variant))
    rng = np.random.default_rng(3)
    dropped = 0
    for seed in range(2):
        obs, _ = env.reset(seed=seed)
        for _ in range(50):
            state, hand, table = _seat_to_act(env)
            opened = bool(state.round.opened[state.round.turn])
            usable = table_usable(state.variant, opened)
            kept = playable_cards(state.variant, hand, [s.card for m in table for s in m], usable)
            if len(kept) < len(hand):
                dropped += 1
                whole = solve(state.variant, hand, table, opened=opened)
                part = solve(state.variant, list(kept), table, opened=opened)
                assert whole.cards_played == part.cards_played
            obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            if terminated or truncated:
                break
    assert dropped >= 1


def test_hold_backs_keep_one_card_back_from_the_best_table() -> None:
    rk = get_variant("rummikub")
    melds = tuple(tuple(m) for m in parse_table("AS 2S 3S JK | KH KD KC"))
    derived = hold_backs(rk, melds, sorted(parse_cards("AS 2S 3S JK KH KD KC")))
    assert [sum(len(m) for m in d) for d in derived] == [6, 6]
    assert all(s.card != parse_cards("JK")[0] for m in derived[0] for s in m)  # the joker kept back
    assert all(len(m) >= 3 for d in derived for m in d)
    # a single card played, or no meld longer than 3: nothing to derive
    assert hold_backs(rk, melds, parse_cards("KC")) == []
    assert hold_backs(rk, tuple(tuple(m) for m in parse_table("KH KD KC")), parse_cards("KH KD KC")) == []
    # a start meld left as it was is never shortened (2S could come off it, but the opening
    # turn may not touch it): the card comes off the new meld instead
    start = tuple(tuple(m) for m in parse_table("2S 3S 4S 5S"))
    new = (*start, *(tuple(m) for m in parse_table("2S 2H 2D | TH TD TC TS")))
    derived = hold_backs(rk, new, sorted(parse_cards("2S 2H 2D TH TD TC TS")), start)
    assert len(derived) == 1 and derived[0][:2] == new[:2] and len(derived[0][2]) == 3
    assert len(hold_backs(rk, new, sorted(parse_cards("2S 2H 2D TH TD TC TS")))[0][0]) == 3


def test_the_same_melds_in_another_order_get_the_candidates_a_fresh_builder_gives() -> None:
    """The answer cache must not make the candidates depend on the positions seen before: a
    table whose melds were seen in another order is answered as a fresh builder answers it."""
    env = gym.make("rummyai/Rummikub-v2", opponents="greedy")
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(7):
        obs, *_ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    state = cast(RummyEnv, env.unwrapped).state
    reordered = replace(state, round=replace(state.round, table=tuple(reversed(state.round.table))))
    fresh = [c.move for c in SolverCandidates().build(reordered, 32)]
    primed = SolverCandidates()
    primed.build(state, 32)
    assert [c.move for c in primed.build(reordered, 32)] == fresh
    assert len(fresh) > 1 and len(state.round.table) > 1
