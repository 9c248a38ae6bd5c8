"""The MCTS agent: legal moves on random positions, honest determinizations, seeded searches."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from rummyai.agents.mcts import MCTSAgent
from rummyai.agents.mcts_state import determinize, evaluate, rollout, seen_cards
from rummyai.cards import parse_card
from rummyai.engine import game
from rummyai.engine.discard import DiamondSwap
from rummyai.engine.discard_setup import build_state, hand_ids
from rummyai.engine.moves import Play
from rummyai.engine.state import GameState
from rummyai.errors import RummyError


def random_position(variant: str, players: int, seed: int, moves: int) -> GameState:
    """A position reached by `moves` uniformly random legal moves from a seeded deal."""
    state = game.new_match(variant, players, seed, options=["rounds=1"] if variant == "rummikub" else None)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        legal = game.legal_moves(state)
        if state.match_over or not legal:
            break
        plays = [m for m in legal if isinstance(m, Play)]
        # prefer plays on tile variants so that the table fills up, else any legal move
        pool = plays if plays and rng.random() < 0.7 else legal
        nxt = game.apply(state, pool[int(rng.integers(len(pool)))])
        if nxt.match_over or len(nxt.history) > len(state.history):
            break
        state = nxt
    return state


POSITIONS = [("rummikub", 2, s, m) for s, m in ((1, 0), (2, 12), (3, 30))] + [
    ("rummikub", 3, 4, 20),
    ("rummy-palace", 2, 5, 9),
    ("rummy-palace", 3, 6, 25),
    ("standard", 2, 7, 14),
]


def all_ids(state: GameState) -> list[int]:
    rs = state.round
    ids = [i for hand in rs.hands for i in hand] + list(rs.stock) + list(rs.discard)
    for meld in rs.table:
        ids.extend(meld.all_ids())
    return ids


@pytest.mark.parametrize(("variant", "players", "seed", "moves"), POSITIONS)
def test_mcts_returns_a_legal_move(variant: str, players: int, seed: int, moves: int) -> None:
    state = random_position(variant, players, seed, moves)
    seat = state.to_act
    agent = MCTSAgent(iterations=6, rollout_turns=2, seed=3)
    agent.reset(11)
    move = agent.act(game.view(state, seat), game.legal_moves(state))
    assert game.validate(state, move) is None


@pytest.mark.parametrize(("variant", "players", "seed", "moves"), POSITIONS)
def test_determinization_hides_only_unseen_cards_and_keeps_sizes(
    variant: str, players: int, seed: int, moves: int
) -> None:
    state = random_position(variant, players, seed, moves)
    seat = state.to_act
    view = game.view(state, seat)
    seen = seen_cards(view)
    samples = [determinize(view, np.random.default_rng(k)) for k in range(4)]
    for sample in samples:
        rs, real = sample.round, state.round
        assert sorted(rs.hands[seat]) == sorted(real.hands[seat])
        assert rs.table == real.table and rs.discard == real.discard
        assert [len(h) for h in rs.hands] == [len(h) for h in real.hands]
        assert len(rs.stock) == len(real.stock)
        hidden = [i for k, h in enumerate(rs.hands) if k != seat for i in h] + list(rs.stock)
        assert not seen & set(hidden)
        # every physical card exactly once: nothing invented, nothing lost
        assert Counter(all_ids(sample)) == Counter(range(len(state.variant.deck)))
        assert game.view(sample, seat) == view
    hidden_sets = {tuple(s.round.stock) for s in samples}
    assert len(hidden_sets) > 1, "the hidden cards should be resampled"


def test_determinization_rejects_inconsistent_counts() -> None:
    state = random_position("rummikub", 2, 8, 4)
    view = game.view(state, state.to_act)
    view["stock_size"] += 1
    with pytest.raises(RummyError, match="unseen"):
        determinize(view, np.random.default_rng(0))


def test_same_seed_same_move_and_statistics() -> None:
    state = random_position("rummikub", 2, 2, 12)
    view, legal = game.view(state, state.to_act), game.legal_moves(state)
    runs = []
    for _ in range(2):
        agent = MCTSAgent(iterations=10, rollout_turns=2)
        agent.reset(42)
        move = agent.act(view, legal)
        runs.append((move, agent.last_stats))
    assert runs[0] == runs[1]


def test_mcts_goes_out_when_it_can() -> None:
    state = game.new_match("rummikub", 2, seed=5, options=["rounds=1"])
    deck = state.variant.deck
    from dataclasses import replace

    from rummyai.cards import parse_cards

    free = list(range(len(deck)))
    hand = []
    for kind in parse_cards("5H 6H 7H 8H 9C 9D 9S"):
        card = next(i for i in free if deck[i] == kind)
        free.remove(card)
        hand.append(card)
    rs = replace(
        state.round,
        turn=0,
        hands=(tuple(hand), tuple(free[:8])),
        stock=tuple(free[8:]),
        opened=(True, True),
    )
    state = replace(state, round=rs)
    agent = MCTSAgent(iterations=12, rollout_turns=2)
    agent.reset(0)
    move = agent.act(game.view(state, 0), game.legal_moves(state))
    after = game.apply(state, move)
    assert after.history and after.history[-1].winner == 0
    assert len(agent.last_stats) > 1  # it searched (draw and partial plays were candidates too)


def test_rollout_stops_and_evaluation_is_bounded() -> None:
    state = random_position("rummikub", 2, 9, 10)
    seat = state.to_act
    sample = determinize(game.view(state, seat), np.random.default_rng(1))
    after, result = rollout(sample, 4, np.random.default_rng(2))
    assert result is not None or after.round.turn_count >= sample.round.turn_count + 4
    value = evaluate(after, result, seat)
    assert -1.0 <= value <= 1.0


def test_bad_parameters_raise() -> None:
    with pytest.raises(RummyError, match="iterations"):
        MCTSAgent(iterations=0)
    with pytest.raises(RummyError, match="time_per_move"):
        MCTSAgent(time_per_move=0)


def test_time_budget_cuts_the_search_short() -> None:
    state = random_position("rummikub", 2, 2, 12)
    view, legal = game.view(state, state.to_act), game.legal_moves(state)
    agent = MCTSAgent(iterations=100_000, time_per_move=0.05, rollout_turns=2)
    agent.reset(1)
    move = agent.act(view, legal)
    assert game.validate(state, move) is None
    visits = sum(v for _, v, _ in agent.last_stats)
    assert len(agent.last_stats) > 1 and visits < 100_000


def dealt_position(hand_text: str, opened: bool = True, opponent: int = 10) -> GameState:
    """A 2-player rummikub position, seat 0 to act holding `hand_text`, the table empty."""
    from dataclasses import replace

    from rummyai.cards import parse_cards

    state = game.new_match("rummikub", 2, seed=5, options=["rounds=1"])
    deck = state.variant.deck
    free = list(range(len(deck)))
    hand = []
    for kind in parse_cards(hand_text):
        card = next(i for i in free if deck[i] == kind)
        free.remove(card)
        hand.append(card)
    rs = replace(
        state.round,
        turn=0,
        hands=(tuple(hand), tuple(free[:opponent])),
        stock=tuple(free[opponent:]),
        table=(),
        opened=(opened, True),
    )
    return replace(state, round=rs)


def test_equal_card_alternatives_keep_other_cards() -> None:
    from rummyai.agents.mcts_candidates import equal_card_alternatives, played_ids
    from rummyai.agents.solver_play import best_legal_play, seat_position

    # the run 5H 6H 7H and the group 7H 7S 7D both place three cards; they share the 7H
    state = dealt_position("5H 6H 7H 7S 7D 2C")
    position = seat_position(game.view(state, 0))
    best, _ = best_legal_play(position, "cards", 5.0)
    assert best is not None
    alternatives = equal_card_alternatives(position, best, 5.0, limit=4)
    assert alternatives
    deck = state.variant.deck
    kept = {
        tuple(sorted(deck[i] for i in position.hand if i not in played_ids(p, position.hand)))
        for p in [best, *alternatives]
    }
    assert len(kept) == 1 + len(alternatives)  # each keeps a different hand
    for play in alternatives:
        assert game.validate(state, play) is None
        assert len(played_ids(play, position.hand)) == 3


def test_equal_moves_search_only_plays_of_as_many_cards() -> None:
    state = dealt_position("5H 6H 7H 7S 7D 2C")
    agent = MCTSAgent(iterations=8, rollout_turns=2, moves="equal")
    agent.reset(0)
    move = agent.act(game.view(state, 0), game.legal_moves(state))
    assert game.validate(state, move) is None
    from rummyai.agents.solver_play import hand_cards_in

    placed = {hand_cards_in(m, state.round.hands[0]) for m, _, _ in agent.last_stats}
    assert len(agent.last_stats) >= 2 and placed == {3}


def test_dead_kinds_narrow_the_opponents_dealt_hand() -> None:
    from rummyai.agents.mcts_state import Determinizer

    state = random_position("rummikub", 2, 2, 12)
    seat = state.to_act
    opponent = 1 - seat
    view = game.view(state, seat)
    deck = state.variant.deck
    unseen = [i for i in range(len(deck)) if i not in seen_cards(view)]
    kinds = frozenset(sorted({deck[i] for i in unseen})[::2])  # half of the unseen kinds
    sampler = Determinizer(view, (opponent, kinds, 1))
    for k in range(6):
        sample = sampler.sample(np.random.default_rng(k))
        hand = sample.round.hands[opponent]
        assert len(hand) == len(state.round.hands[opponent])
        assert sum(deck[i] in kinds for i in hand) <= 1
        assert Counter(all_ids(sample)) == Counter(range(len(deck)))
        assert game.view(sample, seat) == view


def test_draw_tracker_reads_a_draw_on_an_unchanged_table() -> None:
    from rummyai.agents.mcts_inference import DrawTracker, layoff_kinds
    from rummyai.engine.moves import Draw

    state = random_position("rummikub", 2, 3, 30)
    seat = state.to_act
    opponent = 1 - seat
    assert state.round.opened[opponent] and state.round.table
    tracker = DrawTracker()
    assert tracker.dead(game.view(state, seat)) is None  # nothing recorded yet
    tracker.record(game.view(state, seat), Draw())
    after = game.apply(game.apply(state, Draw()), Draw())  # we draw, then the opponent draws
    view = game.view(after, seat)
    dead = tracker.dead(view)
    assert dead is not None and dead[0] == opponent and dead[2] == 1
    unseen = [i for i in range(len(state.variant.deck)) if i not in seen_cards(view)]
    assert dead[1] == layoff_kinds(state.variant, after.round.table, unseen) and dead[1]
    # a table the opponent changed tells nothing
    tracker.record(game.view(state, seat), Draw())
    moved = list(view["table"])
    view["table"] = moved[1:]
    assert tracker.dead(view) is None


def test_solver_rollouts_near_the_end_play_the_round_out() -> None:
    state = random_position("rummikub", 2, 3, 30)
    agent = MCTSAgent(iterations=4, rollout_turns=200, solver_within=30, moves="equal")
    agent.reset(2)
    one, result = agent.solver_rollout(state, 1)
    assert result is None and one.round.turn_count == state.round.turn_count + 1
    end, result = agent.solver_rollout(state, 200)
    assert result is not None and result.winner is not None and end.match_over
    move = agent.act(game.view(state, state.to_act), game.legal_moves(state))
    assert game.validate(state, move) is None and agent.solver_rollouts


@pytest.mark.parametrize("variant", ["rummikub", "rhine"])
def test_rollout_moves_are_the_greedy_agents_moves(variant: str) -> None:
    """The rollout's shortcut (legal moves listed only for a draw) picks what greedy.act picks."""
    agent = MCTSAgent(iterations=4, solver_within=99)
    state = game.new_match(variant, 2, 11, options=["rounds=1"])
    draws = plays = 0
    while not state.match_over and draws + plays < 60:
        move = agent.greedy_move(state)
        assert move == agent.greedy.act(game.view(state, state.to_act), game.legal_moves(state))
        plays += isinstance(move, Play)
        draws += not isinstance(move, Play)
        state = game.apply(state, move)
    assert plays and draws


def test_wide_within_widens_the_candidates_near_the_end() -> None:
    from rummyai.engine.moves import Draw

    state = dealt_position("5H 6H 7H 7S 7D 2C", opponent=2)
    view, legal = game.view(state, 0), game.legal_moves(state)
    narrow = MCTSAgent(moves="equal", wide_within=1).candidates(view, legal)
    wide = MCTSAgent(moves="equal", wide_within=2).candidates(view, legal)
    assert not any(isinstance(m, Draw) for m in narrow)
    assert any(isinstance(m, Draw) for m in wide) and len(wide) > len(narrow)


def test_same_value_keeps_only_alternatives_leaving_as_many_points() -> None:
    from rummyai.agents.mcts_candidates import equal_card_alternatives, played_value
    from rummyai.agents.solver_play import best_legal_play, seat_position

    for hand, expect in (("7H 8H 9H 8S 8D 2C", True), ("5H 6H 7H 7S 7D 2C", False)):
        position = seat_position(game.view(dealt_position(hand), 0))
        best, _ = best_legal_play(position, "cards", 5.0)
        assert best is not None
        same = equal_card_alternatives(position, best, 5.0, limit=4, same_value=True)
        assert bool(same) is expect, hand  # 7H 8H 9H and 8H 8S 8D are both worth 24; 5H 6H 7H is not 7H 7S 7D
        assert all(played_value(position, p) == played_value(position, best) for p in same)
        assert equal_card_alternatives(position, best, 5.0, limit=4)  # without the filter both hands have one


def test_value_leaf_is_seeded_legal_and_uses_the_model() -> None:
    state = random_position("rummikub", 2, 2, 12)
    view, legal = game.view(state, state.to_act), game.legal_moves(state)
    runs = []
    for _ in range(2):
        agent = MCTSAgent(iterations=10, rollout_turns=2, leaf="value", deviation_z=0)
        agent.reset(42)
        move = agent.act(view, legal)
        assert game.validate(state, move) is None
        runs.append((move, agent.last_stats))
    assert runs[0] == runs[1]
    heuristic = MCTSAgent(iterations=10, rollout_turns=2, deviation_z=0)
    heuristic.reset(42)
    heuristic.act(view, legal)
    # same determinizations and rollouts, another judge of where they stop
    assert [m for m, _, _ in heuristic.last_stats] == [m for m, _, _ in runs[0][1]]
    assert [q for _, _, q in heuristic.last_stats] != [q for _, _, q in runs[0][1]]
    with pytest.raises(RummyError, match="leaf"):
        MCTSAgent(leaf="oracle")


def test_determinization_keeps_black_heart_escort_credits() -> None:
    """An escort swapped in by another seat stays credited to that seat in every determinization
    (§6.5), so the search scores the round as the engine will."""
    state = build_state(
        "black-heart", ["9C 8C", "4H 9S", "QS 5S"], table=["TS JS/2H QD=QS/JD"], table_credit=[0], turn=1
    )
    jack_of_diamonds = next(
        i for i in state.round.table[0].all_ids() if state.variant.deck[i] == parse_card("JD")
    )
    state = game.apply(state, DiamondSwap(0, jack_of_diamonds, hand_ids(state, 1, "4H")[0]))
    credits = state.round.family_data.escort_credit
    assert credits  # seat 1 owns the 4H escort beside seat 0's jack
    sample = determinize(game.view(state, 1), np.random.default_rng(3))
    assert sample.round.family_data.escort_credit == credits
    assert sample.round.credited == state.round.credited


def test_flat_worlds_search_plays_every_move_on_the_same_worlds() -> None:
    """`worlds`: every root move is judged on the same number of determinizations, the best mean
    wins (ties to the earlier, greedy's first), and the same seed gives the same search."""
    state = dealt_position("5H 6H 7H 7S 7D 2C", opponent=2)
    view, legal = game.view(state, 0), game.legal_moves(state)
    runs = []
    for _ in range(2):
        agent = MCTSAgent(worlds=3, moves="wide", solver_within=99, rollout_turns=400)
        agent.reset(5)
        move = agent.act(view, legal)
        runs.append((move, agent.last_stats))
    assert runs[0] == runs[1]
    move, stats = runs[0]
    assert game.validate(state, move) is None
    assert len(stats) > 1 and all(visits == 3 for _, visits, _ in stats)
    means = [q for _, _, q in stats]
    assert move == stats[means.index(max(means))][0]


def test_flat_worlds_search_goes_out_when_it_can() -> None:
    state = dealt_position("5H 6H 7H 8H 9C 9D 9S", opponent=8)
    agent = MCTSAgent(worlds=2, moves="wide", solver_within=99, rollout_turns=400)
    agent.reset(0)
    after = game.apply(state, agent.act(game.view(state, 0), game.legal_moves(state)))
    assert after.history and after.history[-1].winner == 0


def test_negative_worlds_raise() -> None:
    with pytest.raises(RummyError, match="worlds"):
        MCTSAgent(worlds=-1)


def test_flat_worlds_search_stops_at_its_time_budget() -> None:
    state = dealt_position("5H 6H 7H 7S 7D 2C", opponent=2)
    agent = MCTSAgent(worlds=50, time_per_move=1e-6, moves="wide", solver_within=99, rollout_turns=400)
    agent.reset(1)
    move = agent.act(game.view(state, 0), game.legal_moves(state))
    assert game.validate(state, move) is None
    assert {visits for _, visits, _ in agent.last_stats} == {1}  # one world, then the deadline


def test_pimc_preset_is_the_flat_search_with_solver_rollouts_to_the_end() -> None:
    from rummyai.agents import make_agent_from_spec

    agent = make_agent_from_spec("mcts-pimc:worlds=3")
    assert isinstance(agent, MCTSAgent)
    assert (agent.worlds, agent.moves, agent.infer) == (3, "wide", True)
    assert (agent.solver_within, agent.rollout_turns) == (99, 400)
    with pytest.raises(RummyError, match="no parameter 'iterations'"):
        make_agent_from_spec("mcts-pimc:iterations=5")


def test_pimc_rollout_option_plays_the_named_policy_in_rollouts() -> None:
    from rummyai.agents import make_agent_from_spec

    state = random_position("rummikub", 2, 3, 40)  # a position where the two policies differ
    view, legal = game.view(state, state.to_act), game.legal_moves(state)
    answers = {spec: make_agent_from_spec(spec).act(view, legal) for spec in ("greedy", "greedy-points")}
    assert answers["greedy"] != answers["greedy-points"]
    for policy, answer in answers.items():
        agent = make_agent_from_spec(f"mcts-pimc:worlds=1:rollout={policy}")
        assert isinstance(agent, MCTSAgent)
        assert agent.greedy_move(state) == answer
    with pytest.raises(RummyError, match="rollout must be greedy or greedy-points"):
        make_agent_from_spec("mcts-pimc:rollout=random")


def test_a_value_leaf_is_refused_before_a_draw_and_discard_game() -> None:
    from rummyai.agents import make_agent_from_spec
    from rummyai.agents.base import check_agent_fits
    from rummyai.variants import get_variant

    agent = make_agent_from_spec("mcts:leaf=value")
    check_agent_fits(agent, "mcts:leaf=value", get_variant("rummikub"), 2)
    with pytest.raises(RummyError, match="leaf=value needs a tile-style variant, not 'standard'"):
        check_agent_fits(agent, "mcts:leaf=value", get_variant("standard"), 2)
