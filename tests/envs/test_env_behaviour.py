"""Environment behaviour: seeding, the fallback for illegal actions, rewards, hidden information."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence

import rummyai.envs
from rummyai.engine.game import new_match
from rummyai.engine.moves import Draw
from rummyai.envs import CURRENT_IDS, ENV_IDS, ObservationEncoder
from rummyai.envs.candidates import FEATURES, hand_cards_used
from rummyai.errors import RummyError

SHORT = {
    "rhine": {"rounds": 1},
    "rummy-palace": {"max_rounds": 1},
    "standard": {"max_deals": 1},
    "black-heart": {"max_deals": 1},
}
COL = {name: i for i, name in enumerate(FEATURES)}


def masked_random(obs: dict[str, Any], rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


def play(env: gym.Env[Any, Any], seed: int, steps: int) -> list[Any]:
    """A trajectory under a masked random policy: every observation, reward and info."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    trace: list[Any] = [obs, info]
    for _ in range(steps):
        obs, reward, terminated, truncated, info = env.step(masked_random(obs, rng))
        trace.extend([obs, reward, terminated, truncated, info])
        if terminated or truncated:
            break
    return trace


def same(a: Any, b: Any) -> bool:
    return bool(data_equivalence(a, b))


@pytest.mark.parametrize("env_id", sorted(CURRENT_IDS.values()))
def test_same_seed_same_trajectory(env_id: str) -> None:
    options = SHORT.get(ENV_IDS[env_id])
    first = play(gym.make(env_id, options=options, max_turns=30), seed=11, steps=40)
    second = play(gym.make(env_id, options=options, max_turns=30), seed=11, steps=40)
    assert same(first, second)
    other = play(gym.make(env_id, options=options, max_turns=30), seed=12, steps=40)
    assert not same(first[:1], other[:1])  # another seed deals another game


def test_the_seed_fixes_the_opponents_too() -> None:
    """Same seed, same learner actions: identical games although opponents play randomly."""
    env = gym.make("rummyai/Rummikub-v2", num_players=4, max_turns=40)
    runs = []
    for _ in range(2):
        obs, _ = env.reset(seed=3)
        tables = []
        for _ in range(8):
            obs, *_ = env.step(0)  # always the fallback (draw): all change comes from opponents
            tables.append(obs["table"].copy())
        runs.append(tables)
    assert same(runs[0], runs[1])


@pytest.mark.parametrize("env_id", sorted(CURRENT_IDS.values()))
def test_masked_action_is_replaced_by_the_fallback(env_id: str) -> None:
    env = gym.make(env_id, max_turns=10, options=SHORT.get(ENV_IDS[env_id])).unwrapped
    obs, _ = env.reset(seed=2)
    n = len(env.candidates)
    assert n >= 1 and obs["action_mask"][:n].all() and not obs["action_mask"][n:].any()
    assert obs["candidates"][0, COL["is_fallback"]] == 1.0
    fallback = env.candidates[0].move
    twin = gym.make(env_id, max_turns=10, options=SHORT.get(ENV_IDS[env_id])).unwrapped
    twin.reset(seed=2)
    assert twin.candidates[0].move == fallback
    masked = env.action_space.n - 1 if n < env.action_space.n else -5
    obs_a, reward_a, *_, info_a = env.step(masked)
    obs_b, reward_b, *_, info_b = twin.step(0)
    assert info_a["illegal_action"] and info_a["illegal_actions"] == 1
    assert not info_b["illegal_action"] and info_b["illegal_actions"] == 0
    assert same(obs_a, obs_b) and reward_a == reward_b
    for bad in (10**6, np.array([1, 2])):
        *_, _info = env.step(bad)
        if env.state is not None and env.state.match_over:
            break
    assert env.illegal_actions >= 2


def test_tile_fallback_is_the_draw() -> None:
    env = gym.make("rummyai/Rummikub-v2").unwrapped
    env.reset(seed=0)
    assert isinstance(env.candidates[0].move, Draw)
    assert env.candidates[0].label == "draw"


@pytest.mark.parametrize("env_id", sorted(CURRENT_IDS.values()))
def test_candidate_features_describe_the_moves(env_id: str) -> None:
    env = gym.make(env_id, max_turns=40, options=SHORT.get(ENV_IDS[env_id])).unwrapped
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=4)
    checked = 0
    for _ in range(25):
        state = env.state
        assert state is not None and state.to_act == env.seat
        hand = len(state.round.hands[env.seat])
        for row, cand in zip(obs["candidates"], env.candidates, strict=False):
            used = hand_cards_used(state, cand.move)
            assert row[COL["hand_cards_used"]] == len(used)
            assert row[COL["hand_size_after"]] == hand - len(used)
            assert row[COL[f"kind_{cand.label}"]] == 1.0
            checked += 1
        obs, _, terminated, truncated, _ = env.step(masked_random(obs, rng))
        if terminated or truncated:
            break
    assert checked > 25


@pytest.mark.parametrize("env_id", sorted(CURRENT_IDS.values()))
def test_score_return_is_the_final_total(env_id: str) -> None:
    variant_id = ENV_IDS[env_id]
    env = gym.make(env_id, max_turns=16, options=SHORT.get(variant_id)).unwrapped
    rng = np.random.default_rng(1)
    obs, _ = env.reset(seed=9)
    total = 0.0
    for _ in range(500):
        obs, reward, terminated, truncated, info = env.step(masked_random(obs, rng))
        total += float(reward)
        if terminated or truncated:
            break
    assert terminated or truncated
    assert truncated == (env.state.history[-1].reason == "max_turns")
    sign = -1 if env.variant.low_score_wins else 1
    assert total == sign * info["scores"][env.seat]


def test_shaped_reward_pays_for_shed_cards() -> None:
    env = gym.make("rummyai/Rummikub-v2", reward="shaped", max_turns=60).unwrapped
    env.reset(seed=1)
    for _ in range(60):
        before = len(env.state.round.hands[env.seat])
        plays = [i for i, c in enumerate(env.candidates) if c.label == "play"]
        action = plays[-1] if plays else 0
        _obs, reward, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            break
        after = len(env.state.round.hands[env.seat])
        assert reward == pytest.approx(0.05 * (before - after))


def test_observation_hides_other_hands_and_the_stock_order() -> None:
    state = new_match("rummikub", 3, seed=5)
    encoder = ObservationEncoder(state.variant, 3)
    base = encoder.encode(state, 0)
    rs = state.round
    # Swap seat 1's hand with cards from the stock and shuffle the stock: seat 0 sees no change.
    other = rs.stock[: len(rs.hands[1])]
    stock = tuple(reversed(rs.stock[len(rs.hands[1]) :] + rs.hands[1]))
    hidden = replace(state, round=replace(rs, hands=(rs.hands[0], other, rs.hands[2]), stock=stock))
    assert same(base, encoder.encode(hidden, 0))
    assert not same(encoder.encode(state, 1), encoder.encode(hidden, 1))


def test_observation_counts_match_the_state() -> None:
    env = gym.make("rummyai/StandardRummy-v2", num_players=3, max_turns=30).unwrapped
    rng = np.random.default_rng(3)
    obs, _ = env.reset(seed=3)
    for _ in range(40):
        state = env.state
        o = obs
        rs = state.round
        assert o["hand"].sum() == len(rs.hands[env.seat])
        assert o["discard"].sum() == len(rs.discard)
        assert o["table"].sum() == sum(len(m.all_ids()) for m in rs.table)
        assert o["melds"][:, :53].sum() == o["table"].sum()
        assert list(o["hand_sizes"]) == [len(rs.hands[(env.seat + k) % 3]) for k in range(3)]
        assert o["stock"][0] == len(rs.stock)
        if rs.discard:
            assert o["discard_depth"][state.variant.deck[rs.discard[-1]]] == 1
        obs, _, terminated, truncated, _ = env.step(masked_random(obs, rng))
        if terminated or truncated:
            break


def test_bad_arguments_raise_typed_errors() -> None:
    with pytest.raises(RummyError, match="reward"):
        gym.make("rummyai/Rummikub-v2", reward="points")
    with pytest.raises(RummyError, match="5"):
        gym.make("rummyai/Rummikub-v2", num_players=5)
    with pytest.raises(RummyError, match="nobody"):
        gym.make("rummyai/Rummikub-v2", opponents="nobody")
    with pytest.raises(RummyError, match="opponent"):
        gym.make("rummyai/Rummikub-v2", num_players=3, opponents=["random"])
    with pytest.raises(RummyError, match="render_mode"):
        rummyai.envs.RummyEnv("rummikub", render_mode="human")
    for bad in ({"seat": 1.5}, {"seat": True}, {"num_players": "2"}, {"max_candidates": 2.5}):
        with pytest.raises(RummyError, match=f"{next(iter(bad))} must be an integer"):
            gym.make("rummyai/Rummikub-v2", **bad)
    with pytest.raises(RummyError, match="max_candidates must be from 2 to"):
        gym.make("rummyai/Rummikub-v2", max_candidates=10**7)
    with pytest.raises(RummyError, match="options must be a list of strings or a mapping"):
        gym.make("rummyai/Rummikub-v2", options=42)
    with pytest.raises(RummyError, match="RummikubEnv plays rummikub, not rhine"):
        gym.make("rummyai/Rummikub-v2", variant="rhine")
    assert rummyai.envs.RummyEnv("rhine").variant.id == "rhine"

    class Shaped(rummyai.envs.RummyEnv):  # a user's subclass names its variant freely
        pass

    assert Shaped("rhine").variant.id == "rhine"


def test_a_builder_giving_more_candidates_than_slots_is_cut_to_the_slots() -> None:
    class TooMany:
        def __init__(self) -> None:
            self.inner = rummyai.envs.EngineCandidates()

        def build(self, state: Any, limit: int) -> list[Any]:
            return self.inner.build(state, 200) * 10

    for env in (
        gym.make("rummyai/Rummikub-v2", candidates=TooMany(), max_candidates=4),
        rummyai.envs.aec_env("rummikub", candidates=TooMany(), max_candidates=4),
    ):
        env.reset(seed=0)
        assert len(env.unwrapped.candidates) == 4


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"num_players": "2"}, "num_players must be an integer"),
        ({"num_players": 2.0}, "num_players must be an integer"),
        ({"max_candidates": 2.5}, "max_candidates must be an integer"),
        ({"max_candidates": "8"}, "max_candidates must be an integer"),
        ({"max_turns": 0}, "max_turns must be at least 1"),
    ],
)
def test_the_aec_view_refuses_bad_settings_when_built(bad: dict[str, object], message: str) -> None:
    with pytest.raises(RummyError, match=message):
        rummyai.envs.aec_env("rummikub", **bad)  # type: ignore[arg-type]


def test_a_round_that_could_go_on_forever_is_cut_and_observations_stay_in_the_space() -> None:
    # Two Rummy Palace seats that always pick the last slot keep taking the top discard and
    # throwing another card back: the stock never shrinks. The default turn cap truncates it.
    def last(obs: dict[str, np.ndarray]) -> int:
        return int(np.flatnonzero(obs["action_mask"])[-1])

    policy = rummyai.envs.PolicyAgent(last)
    env = gym.make("rummyai/RummyPalace-v2", options={"max_rounds": 1}, opponents=policy)
    obs, _ = env.reset(seed=2)
    for _ in range(3_000):
        assert env.observation_space.contains(obs)
        obs, _, terminated, truncated, _ = env.step(last(obs))
        if terminated or truncated:
            break
    assert truncated and not terminated


@pytest.mark.parametrize("opponents", ["value", {"value": 1, "random": 1}])
def test_opponents_that_play_tile_games_only_are_refused_elsewhere(opponents: object) -> None:
    """As in matches and tournaments, before the first move (not when the opponent first acts)."""
    with pytest.raises(RummyError, match="'value' plays the tile-style variants only"):
        gym.make("rummyai/StandardRummy-v2", opponents=opponents)


def test_opponent_objects_and_random_seat() -> None:
    from rummyai.agents import make_agent

    env = gym.make(
        "rummyai/RummyBoard-v2", num_players=3, opponents=[make_agent("random"), "random"], seat=None
    ).unwrapped
    seats = set()
    for seed in range(12):
        _, info = env.reset(seed=seed)
        seats.add(info["seat"])
        assert env.state.to_act == info["seat"]
    assert len(seats) > 1


# Deals per variant in the test below. The draw-meld-discard engine lists its moves ~5x slower than
# the tile engine, so its variants play 250 deals here to fit the test budget; the 1000-deal run for
# every variant is `experiments/benchmarks/env_bench.py --soak 1000`.
EPISODES = {"rummy-palace": 250, "standard": 250, "black-heart": 250}


@pytest.mark.parametrize("env_id", sorted(CURRENT_IDS.values()))
def test_masked_random_policy_plays_many_episodes(env_id: str) -> None:
    """1000 deals per tile variant (250 per draw-meld-discard variant), each a one-round match cut
    after 2 turns (every seat moves once), plus 3 longer ones (40 turns), all without an error."""
    variant_id = ENV_IDS[env_id]
    short = gym.make(env_id, max_turns=2, options=SHORT.get(variant_id)).unwrapped
    long = gym.make(env_id, max_turns=40, options=SHORT.get(variant_id)).unwrapped
    rng = np.random.default_rng(0)
    count = EPISODES.get(variant_id, 1000)
    ended = 0
    for episode in range(count + 3):
        env = short if episode < count else long
        obs, _ = env.reset(seed=episode)
        for _ in range(10_000):
            assert obs["action_mask"].any()
            obs, _, terminated, truncated, _ = env.step(masked_random(obs, rng))
            if terminated or truncated:
                ended += 1
                break
        assert env.illegal_actions == 0
    assert ended == count + 3


@pytest.mark.parametrize("env_id", sorted(CURRENT_IDS.values()))
def test_observations_stay_in_the_space_with_four_players(env_id: str) -> None:
    env = gym.make(env_id, num_players=4, max_turns=60, options=SHORT.get(ENV_IDS[env_id])).unwrapped
    rng = np.random.default_rng(7)
    obs, _ = env.reset(seed=7)
    for _ in range(300):
        assert env.observation_space.contains(obs)
        obs, _, terminated, truncated, _ = env.step(masked_random(obs, rng))
        if terminated or truncated:
            break
    assert env.observation_space.contains(obs)
