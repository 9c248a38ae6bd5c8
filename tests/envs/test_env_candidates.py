"""Candidate builders: the engine's ranked moves, and the solver's whole-table plays."""

from __future__ import annotations

from dataclasses import replace

import gymnasium as gym
import numpy as np
import pytest

import rummyai.envs  # noqa: F401  (registers the ids)
from rummyai.cards import parse_cards, parse_table
from rummyai.engine.game import apply, legal_moves, new_match, validate
from rummyai.engine.moves import Draw, Play
from rummyai.engine.state import GameState, TableMeld
from rummyai.envs import CURRENT_IDS, FEATURES, EngineCandidates, SolverCandidates, make_builder
from rummyai.envs.candidates import hand_cards_used
from rummyai.errors import RummyError
from rummyai.playable import could_play

COL = {name: i for i, name in enumerate(FEATURES)}
ENV_BY_VARIANT = CURRENT_IDS


def position(variant: str, hand: str, table: str, opened: bool = True) -> GameState:
    """Seat to act holds `hand`, the table holds `table`; the other cards go to seat 1 and the stock."""
    state = new_match(variant, 2, seed=0)
    deck = list(state.variant.deck)
    free = list(range(len(deck)))

    def take(kind: int) -> int:
        for i in free:
            if deck[i] == kind:
                free.remove(i)
                return i
        raise AssertionError(f"no copy of {kind} left")

    rs = state.round
    seat = rs.turn
    hand_ids = tuple(take(k) for k in parse_cards(hand))
    melds = tuple(
        TableMeld(tuple(take(s.card) for s in meld), tuple(s.meaning for s in meld))
        for meld in parse_table(table)
    )
    other = tuple(free[:10])
    hands = [other, other]
    hands[seat] = hand_ids
    opened_flags = [True, True]
    opened_flags[seat] = opened
    round_ = replace(rs, hands=tuple(hands), table=melds, stock=tuple(free[10:]), opened=tuple(opened_flags))
    return replace(state, round=round_)


def test_engine_candidates_rank_by_cards_and_keep_the_draw_first() -> None:
    state = position("rummikub", "7H 8H 9H TH 2C 2S 2D KC", "3C 4C 5C")
    cands = EngineCandidates().build(state, 32)
    assert isinstance(cands[0].move, Draw)
    used = [len(hand_cards_used(state, c.move)) for c in cands[1:]]
    assert used == sorted(used, reverse=True) and used[0] == 4  # the 4-card run leads
    assert all(validate(state, c.move) is None for c in cands)
    keys = {tuple(sorted(state.variant.deck[i] for i in hand_cards_used(state, c.move))) for c in cands}
    assert len(keys) == len(cands)  # no two candidates play the same cards here
    assert len(EngineCandidates().build(state, 3)) == 3


def test_solver_finds_a_rearrangement_the_engine_list_lacks() -> None:
    # 6S 6D can only be played by taking 6H off the end of the run: a whole-table rearrangement.
    state = position("rummikub", "6S 6D KC", "3H 4H 5H 6H")
    engine = EngineCandidates().build(state, 32)
    assert all(len(hand_cards_used(state, c.move)) == 0 for c in engine)
    builder = SolverCandidates()
    cands = builder.build(state, 32)
    best = cands[1]
    assert best.features[COL["from_solver"]] == 1.0
    assert isinstance(best.move, Play) and validate(state, best.move) is None
    played = sorted(state.variant.deck[i] for i in hand_cards_used(state, best.move))
    assert played == sorted(parse_cards("6S 6D"))
    assert best.features[COL["table_melds_changed"]] == 1.0
    assert builder.stats.calls >= 1 and builder.stats.rejected == 0
    calls = builder.stats.calls
    builder.build(state, 32)
    assert builder.stats.calls == calls and builder.stats.cache_hits == 1


def test_solver_offers_most_points_and_a_joker_hold_back() -> None:
    state = position("rummikub", "AS 2S 3S JK KH KD KC 5D", "")
    cands = SolverCandidates().build(state, 32)
    solver = [c for c in cands if c.features[COL["from_solver"]] == 1.0]
    assert all(validate(state, c.move) is None for c in solver)
    jokers = {c.features[COL["wilds_used"]] for c in solver}
    assert jokers == {0.0, 1.0}  # one play uses the joker, another holds it back
    assert max(c.features[COL["hand_cards_used"]] for c in solver) == 7


def test_solver_opening_respects_the_30_points() -> None:
    state = position("rummikub", "2S 3S 4S TH TD TC 5C", "", opened=False)
    cands = SolverCandidates().build(state, 32)
    solver = [c for c in cands if c.features[COL["from_solver"]] == 1.0]
    assert solver and all(c.features[COL["opens"]] == 1.0 for c in solver)
    assert all(validate(state, c.move) is None for c in solver)
    blocked = position("rummikub", "2S 3S 4S 5C 9H", "", opened=False)
    cands = SolverCandidates().build(blocked, 32)
    assert [c.label for c in cands] == ["draw"]  # 2-3-4 is worth 9 < 30: no opening


def test_solver_builder_leaves_draw_meld_discard_turns_to_the_engine() -> None:
    state = new_match("standard", 2, seed=1)
    engine = EngineCandidates().build(state, 32)
    solver = SolverCandidates().build(state, 32)
    assert [c.move for c in engine] == [c.move for c in solver]
    assert len(engine) == len(legal_moves(state))  # draw, and taking the row's card when playable


@pytest.mark.parametrize("env_id", ["rummyai/Rummikub-v2", "rummyai/Rhine-v2"])
def test_solver_environment_plays_validated_moves(env_id: str) -> None:
    env = gym.make(
        env_id, candidates="solver", max_turns=12, options={"rounds": 1} if "Rhine" in env_id else None
    )
    rng = np.random.default_rng(0)
    obs, _ = env.reset(seed=0)
    for _ in range(12):
        state = env.unwrapped.state
        for cand in env.unwrapped.candidates:
            assert validate(state, cand.move) is None
        obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert not info["illegal_action"]
        if terminated or truncated:
            break


def test_unknown_builder_is_a_typed_error() -> None:
    with pytest.raises(RummyError, match="candidates"):
        make_builder("oracle")
    with pytest.raises(RummyError, match="candidates"):
        gym.make("rummyai/Rummikub-v2", candidates=object())


def test_could_play_examples() -> None:
    rk = new_match("rummikub", 2, seed=0).variant
    table = parse_cards("5C 6C 7C 9S 9D 9C")
    assert not could_play(rk, parse_cards("2S 9H KD"), parse_cards("5C 6C 7C"), opened=True)
    assert could_play(rk, parse_cards("2S 9H KD"), table, opened=True)  # 9H joins the nines
    assert not could_play(rk, parse_cards("2S 9H KD"), table, opened=False)  # before opening: hand only
    assert could_play(rk, parse_cards("2S 4S KD"), parse_cards("3S 8H 8D"), opened=True)  # 2-3-4
    assert not could_play(rk, parse_cards("2S KD"), parse_cards("JK 8H 8D"), opened=True)
    assert could_play(rk, parse_cards("2S 3S KD"), parse_cards("JK 8H 8D"), opened=True)  # JK 2S 3S
    assert could_play(rk, parse_cards("2S JK"), (), opened=False)  # a joker in hand: never skipped


@pytest.mark.parametrize("variant", ["rummikub", "rhine", "rummy-tiles", "rummy-board"])
def test_could_play_false_means_the_solver_finds_nothing(variant: str) -> None:
    """Along random games, every position the pre-check would skip has no play for the solver."""
    from rummyai.solvers import solve

    env = gym.make(
        ENV_BY_VARIANT[variant], max_turns=60, options={"rounds": 1} if variant == "rhine" else None
    )
    rng = np.random.default_rng(0)
    skipped = checked = 0
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        for _ in range(60):
            state = env.unwrapped.state
            rs = state.round
            deck = state.variant.deck
            hand = [deck[i] for i in rs.hands[rs.turn]]
            table = [deck[i] for m in rs.table for i in m.all_ids()]
            opened = bool(rs.opened[rs.turn])
            checked += 1
            if not could_play(state.variant, hand, table, opened):
                skipped += 1
                slots = [m.slots(deck) for m in rs.table]
                assert solve(state.variant, hand, slots, opened=opened).cards_played == 0
            obs, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            if terminated or truncated:
                break
    assert skipped >= 1 and checked > skipped


def test_derived_hold_backs_are_offered_and_legal() -> None:
    state = position("rummikub", "7H 8H 9H TH JH 2C", "")
    builder = SolverCandidates()
    cands = builder.build(state, 32)
    solver = [c for c in cands if c.features[COL["from_solver"]] == 1.0]
    assert all(validate(state, c.move) is None for c in solver)
    used = sorted(len(hand_cards_used(state, c.move)) for c in solver)
    assert used[-1] == 5 and 4 in used
    assert builder.stats.calls == 1  # one solve gave both


def test_objectives_must_start_with_cards() -> None:
    with pytest.raises(RummyError, match="objectives"):
        SolverCandidates(objectives=("points",))
    builder = SolverCandidates(objectives=("cards", "points"))
    # QS serves the run or the group, not both: the best play (the group and the clubs, 45
    # points) leaves playable cards, and five of the hand's cards could be worth more (57), so
    # the most-points call is made too
    builder.build(position("rummikub", "TS JS QS QH QD 2C 3C 4C", ""), 32)
    assert builder.stats.calls == 2
    builder.build(position("rummikub", "4S 5S 6S 9H 9D 9C", ""), 32)
    assert builder.stats.calls == 3  # everything playable went down: most points is the same
    # 6S serves the run or the group: the group (18 points) is the best play, and no two cards
    # of the hand are worth more, so no most-points call is needed
    builder.build(position("rummikub", "4S 5S 6S 6H 6D", ""), 32)
    assert builder.stats.calls == 4 and builder.stats.points_bounded == 1


def test_no_known_no_play_when_the_turn_cap_binds() -> None:
    """Rummy Board lays at most 12 hand cards a turn: after 12 of 15 playable, 3 remain playable."""
    state = position("rummy-board", "AS 2S 3S 5S 6S 7S 9S TS JS AH 2H 3H 5H 6H 7H", "", opened=True)
    builder = SolverCandidates()
    cands = builder.build(state, 32)
    best = [c for c in cands if len(hand_cards_used(state, c.move)) == 12]
    assert best and max(len(hand_cards_used(state, c.move)) for c in cands) == 12
    after = apply(apply(state, best[0].move), Draw())  # the other seat draws
    assert after.round.turn == state.round.turn
    later = builder.build(after, 32)
    assert max(len(hand_cards_used(after, c.move)) for c in later) == 3
    assert builder.stats.known_zero == 0


def test_solution_play_keeps_the_ids_of_an_extended_start_meld() -> None:
    """The canonical copies (§7.1): a start meld that grows keeps its own cards."""
    from rummyai.envs.solver_candidates import solution_play

    state = position("rummy-tiles", "4S 5H 5D", "5S 5H 5D 5C | 5S 6S 7S")
    run = state.round.table[1]
    melds = [tuple(m) for m in parse_table("4S 5S 6S 7S | 5S 5H 5D | 5C 5H 5D")]
    play = solution_play(state, melds)
    assert play is not None and validate(state, play) is None
    assert play.table[0].ids[1:] == run.ids


def test_swaps_of_identical_jokers_are_one_candidate() -> None:
    """Swapping either of two jokers that stand for the same card in one meld is one move (§7.1)."""
    from rummyai.engine.discard_moves import JokerSwap, MeldCards
    from rummyai.engine.state import TableMeld
    from rummyai.envs.candidates import canonical
    from rummyai.variants import get_variant

    deck = get_variant("rummy-palace").deck
    jokers = [i for i, kind in enumerate(deck) if kind == 52][:2]
    place = MeldCards(TableMeld((jokers[0], 3, 4), (None, None, None)))
    one, other = (JokerSwap(2, joker, 11, place) for joker in jokers)
    assert canonical(one, deck) == canonical(other, deck)
    assert canonical(one, deck) != canonical(JokerSwap(1, jokers[0], 11, place), deck)


def test_every_candidate_column_is_documented() -> None:
    from rummyai.envs.candidates import COLUMN_MEANINGS

    named = {c for c in FEATURES if not c.startswith("kind_")} | {"kind_*"}
    assert named == set(COLUMN_MEANINGS)
