"""The v2 candidate columns that describe the card a discard gives away or a take brings in."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import rummyai.envs  # noqa: F401  (registers the ids)
from rummyai.cards import card_str
from rummyai.engine.discard_moves import Discard, TakeDiscard
from rummyai.engine.discard_setup import build_state
from rummyai.envs import CARD_FEATURES, FEATURES, V1_FEATURES, EngineCandidates
from rummyai.envs.candidates import Candidate
from rummyai.variants import get_variant

COL = {name: i for i, name in enumerate(FEATURES)}


def by_card(state, candidates: list[Candidate]) -> dict[str, np.ndarray]:  # type: ignore[no-untyped-def]
    """Discard candidates' features by the discarded card's text."""
    deck = state.variant.deck
    return {card_str(deck[c.move.card]): c.features for c in candidates if isinstance(c.move, Discard)}


def test_equal_value_discards_differ_in_links_and_fit() -> None:
    # 9S sits beside 8S/TS, 9H is alone; both are worth the same; 4C fits the table's run
    state = build_state(
        "rummy-palace",
        ["8S TS 9S 9H 4C KD", "2H 3H 5D 6D 7C QC"],
        ["5C 6C 7C"],
        discard="2S",
        phase="play",
    )
    rows = by_card(state, EngineCandidates().build(state, 32))
    nine_s, nine_h, four_c = rows["9S"], rows["9H"], rows["4C"]
    assert nine_s[COL["hand_value_after"]] == nine_h[COL["hand_value_after"]]
    assert nine_s[COL["card_links"]] == 3  # 8S, TS (suit, within two) and 9H (rank)
    assert nine_h[COL["card_links"]] == 1  # 9S
    assert nine_s[COL["card_rank"]] == nine_h[COL["card_rank"]] == 9
    assert four_c[COL["card_fits_table"]] == 1 and nine_h[COL["card_fits_table"]] == 0
    assert all(row[COL["cards_taken"]] == 0 for row in rows.values())


def test_a_take_counts_the_cards_it_brings() -> None:
    # standard rummy's row: taking 5H brings it and the two cards after it
    state = build_state(
        "standard",
        ["5S 5D 9C KD", "2H 3H 5C 6D 7C QC"],
        discard="AH 5H JS 2C",
        phase="draw",
    )
    takes = {
        card_str(state.variant.deck[state.round.discard[c.move.index]]): c.features
        for c in EngineCandidates().build(state, 32)
        if isinstance(c.move, TakeDiscard)
    }
    assert takes["5H"][COL["cards_taken"]] == 3
    assert takes["5H"][COL["card_links"]] == 2  # 5S, 5D
    assert takes["5H"][COL["card_rank"]] == 5


def test_other_moves_leave_the_card_columns_zero() -> None:
    state = build_state("rummy-palace", ["8S 9S TS 4C", "2H 3H 5D 6D"], ["5C 6C 7C"], phase="play")
    for candidate in EngineCandidates().build(state, 32):
        if not isinstance(candidate.move, Discard | TakeDiscard):
            assert not candidate.features[[COL[name] for name in CARD_FEATURES]].any()


@pytest.mark.filterwarnings("ignore:.*out of date")
@pytest.mark.parametrize("name", ["RummyPalace", "StandardRummy", "Rummikub"])
def test_v1_plays_the_same_games_with_the_first_columns(name: str) -> None:
    old, new = gym.make(f"rummyai/{name}-v1"), gym.make(f"rummyai/{name}-v2")
    assert old.observation_space["candidates"].shape[1] == len(V1_FEATURES)
    assert new.observation_space["candidates"].shape[1] == len(FEATURES)
    a, _ = old.reset(seed=4)
    b, _ = new.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(40):
        assert new.observation_space.contains(b)
        assert set(a) == set(b)
        for key in a:
            want = b[key][:, : len(V1_FEATURES)] if key == "candidates" else b[key]
            assert np.array_equal(a[key], want), key
        action = int(rng.choice(np.flatnonzero(b["action_mask"])))
        a, _, done, cut, _ = old.step(action)
        b, *_ = new.step(action)
        if done or cut:
            break


@pytest.mark.filterwarnings("ignore:.*out of date")
def test_a_model_trained_on_v1_gets_v1_observations_as_an_agent() -> None:
    """`PolicyAgent` builds observations as wide as the saved model's space says."""
    from rummyai.engine.game import legal_moves, new_match, view
    from rummyai.envs import PolicyAgent

    widths: list[int] = []

    class Model:
        """Stands in for an SB3 model: a space to read and a predict-like call."""

        observation_space = gym.make("rummyai/StandardRummy-v1").observation_space

        def __call__(self, obs: dict[str, np.ndarray]) -> int:
            widths.append(obs["candidates"].shape[1])
            return 0

    agent = PolicyAgent(Model())
    agent.check_game(get_variant("standard"), 2)
    state = new_match("standard", 2, seed=3)
    agent.act(view(state, state.to_act), legal_moves(state))
    assert widths == [len(V1_FEATURES)]
    widths.clear()
    plain = PolicyAgent(lambda obs: widths.append(obs["candidates"].shape[1]) or 0)
    plain.act(view(state, state.to_act), legal_moves(state))
    assert widths == [len(FEATURES)]


def test_links_follow_the_variant_runs_and_wild_cards_have_none() -> None:
    # standard: Q-K-A is a run, so AS links KS and QS; Black Heart's diamonds J, Q, K are wild
    state = build_state("standard", ["AS KS QS 5H", "2H 3H 5D 6D 7C QC"], discard="9C", phase="play")
    rows = by_card(state, EngineCandidates().build(state, 32))
    assert [rows[c][COL["card_links"]] for c in ("AS", "KS", "QS")] == [2, 2, 2]
    state = build_state("black-heart", ["KD QD KS 5H 5S", "2H 3H 5C 6C 7C"], discard="9C", phase="play")
    rows = by_card(state, EngineCandidates().build(state, 32))
    assert rows["KD"][COL["card_is_wild"]] == 1 and rows["KD"][COL["card_links"]] == 0
    assert rows["KS"][COL["card_is_wild"]] == 0 and rows["KS"][COL["card_links"]] == 0  # KD, QD are wild
    assert rows["5H"][COL["card_links"]] == 1  # 5S


def test_greedy_networks_of_both_widths_share_their_start() -> None:
    from rummyai.agents.learned import greedy_scorer

    narrow, wide = greedy_scorer(seed=3, features=V1_FEATURES), greedy_scorer(seed=3)
    shared = len(V1_FEATURES)
    assert np.array_equal(narrow.layers[0][0][:shared], wide.layers[0][0][:shared])
    assert np.array_equal(narrow.layers[0][0][shared:], wide.layers[0][0][len(FEATURES) :])  # the state rows
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(narrow.layers[1:], wide.layers[1:], strict=True))


@pytest.mark.filterwarnings("ignore:.*out of date")
def test_the_pettingzoo_view_of_a_v1_id_is_v1() -> None:
    from rummyai.envs import aec_env

    old, new = aec_env("rummyai/StandardRummy-v1"), aec_env("rummyai/StandardRummy-v2")
    assert old.metadata["name"].endswith("_v1") and new.metadata["name"].endswith("_v2")
    assert old.observation_space("player_0")["candidates"].shape[1] == len(V1_FEATURES)
    assert new.observation_space("player_0")["candidates"].shape[1] == len(FEATURES)


def test_each_version_documents_its_own_candidate_columns() -> None:
    from rummyai.envs import ENV_CLASSES

    old = (ENV_CLASSES["rummyai/StandardRummy-v1"].__doc__ or "").split("## Starting State")[0]
    new = (ENV_CLASSES["rummyai/StandardRummy-v2"].__doc__ or "").split("## Starting State")[0]
    assert f"(K, {len(V1_FEATURES)})" in old and "card_rank" not in old
    assert f"(K, {len(FEATURES)})" in new and "`cards_taken`" in new
