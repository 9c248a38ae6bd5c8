"""Agents on real engine positions: greedy plays the solver's best, hold-back holds back safely."""

from __future__ import annotations

from dataclasses import replace

from rummyai.agents import make_agent, make_agent_from_spec
from rummyai.cards import parse_cards
from rummyai.engine import game
from rummyai.engine.moves import Draw, Play
from rummyai.engine.state import GameState


def position(hand: str, opponent: int = 10, opened: bool = True, variant: str = "rummikub") -> GameState:
    """A 2-player match with seat 0 to act holding `hand` on an empty table."""
    state = game.new_match(variant, 2, seed=5)
    deck = state.variant.deck
    free = list(range(len(deck)))
    ids = []
    for kind in parse_cards(hand):
        card = next(i for i in free if deck[i] == kind)
        free.remove(card)
        ids.append(card)
    other = tuple(free[:opponent])
    stock = tuple(free[opponent:])
    rs = replace(state.round, turn=0, hands=(tuple(ids), other), table=(), stock=stock, opened=(opened, True))
    return replace(state, round=rs)


def decide(spec: str, state: GameState) -> tuple[Play | Draw, list[str]]:
    agent = make_agent_from_spec(spec)
    agent.reset(0)
    move = agent.act(game.view(state, 0), game.legal_moves(state))
    assert game.validate(state, move) is None
    deck = state.variant.deck
    played: list[str] = []
    if isinstance(move, Play):
        hand = set(state.round.hands[0])
        from rummyai.cards import card_str

        played = sorted(card_str(deck[i]) for m in move.table for i in m.ids if i in hand)
    assert isinstance(move, (Play, Draw))
    return move, played


def test_greedy_plays_the_most_cards_and_greedy_points_the_most_points() -> None:
    state = position("5H 6H 7H 8H 9C 9D 9S 2S KD")
    _, played = decide("greedy", state)
    assert len(played) == 7
    state = position("AH 2H 3H 4H 5H KH KS KD 2S QH JH")
    _, cards = decide("greedy", state)
    _, points = decide("greedy-points", state)
    value = state.variant.hand_values

    def total(tokens: list[str]) -> int:
        return sum(value[k] for k in parse_cards(tokens))

    assert len(cards) >= len(points) and total(points) >= total(cards)


def test_greedy_draws_when_nothing_can_be_played() -> None:
    move, played = decide("greedy", position("2S 7H KD 9C"))
    assert isinstance(move, Draw) and not played


def test_greedy_opens_only_with_enough_points() -> None:
    move, _ = decide("greedy", position("2H 3H 4H 9C", opened=False))
    assert isinstance(move, Draw)
    _, played = decide("greedy", position("TH JH QH 9C", opened=False))
    assert played == ["JH", "QH", "TH"]


def test_holdback_keeps_the_fourth_card_of_a_new_run_while_safe() -> None:
    _, greedy = decide("greedy", position("5H 6H 7H 8H 2S KD"))
    _, held = decide("holdback", position("5H 6H 7H 8H 2S KD"))
    assert greedy == ["5H", "6H", "7H", "8H"]
    assert held == ["6H", "7H", "8H"]  # the lower-value end is kept back
    _, two = decide("holdback:hold=2", position("5H 6H 7H 8H 9H 2S KD"))
    assert two == ["7H", "8H", "9H"]
    _, off = decide("holdback:hold_fourth=false", position("5H 6H 7H 8H 2S KD"))
    assert off == greedy


def test_holdback_plays_everything_when_an_opponent_is_close_to_going_out() -> None:
    _, played = decide("holdback", position("5H 6H 7H 8H 2S KD", opponent=3))
    assert played == ["5H", "6H", "7H", "8H"]
    _, played = decide("holdback:danger=2", position("5H 6H 7H 8H 2S KD", opponent=3))
    assert played == ["6H", "7H", "8H"]


def test_holdback_goes_out_when_it_can() -> None:
    _, played = decide("holdback", position("5H 6H 7H 8H"))
    assert played == ["5H", "6H", "7H", "8H"]


def test_holdback_keeps_a_joker_if_it_can_play_without_it() -> None:
    _, greedy = decide("greedy", position("5H 6H 7H JK 2S KD"))
    _, held = decide("holdback", position("5H 6H 7H JK 2S KD"))
    assert "JK" in greedy
    assert held == ["5H", "6H", "7H"]
    _, played = decide("holdback:keep_joker=false:hold_fourth=false", position("5H 6H 7H JK 2S KD"))
    assert played == greedy


def test_agents_play_whole_matches_through_the_arena_game_function() -> None:
    from rummyai.arena.duplicate import set_tasks
    from rummyai.arena.play import play_game

    (task, _) = set_tasks(
        0, agents=("random", "holdback"), players=2, seed=2, variant="rummikub", max_turns=16
    )
    record = play_game(task)
    assert record["seats"] == ["random", "holdback"]
    assert sum(record["scores"]) == 0  # rummikub: the winner takes what the others lose
    assert sorted(record["ranks"]) in ([1, 2], [1, 1])
    assert record["decisions"][0] >= 8 and record["decisions"][1] >= 8
    assert make_agent("holdback", danger=2).name == "holdback"


def test_noisy_greedy_is_greedy_at_zero_noise_and_random_at_full_noise() -> None:
    state = position("5H 6H 7H 8H 9C 9D 9S 2S KD")
    greedy_move, _ = decide("greedy", state)
    assert decide("noisy-greedy:noise=0", state)[0] == greedy_move
    legal = game.legal_moves(state)
    chosen = set()
    for seed in range(12):
        agent = make_agent_from_spec(f"noisy-greedy:noise=1:seed={seed}")
        agent.reset(seed)
        move = agent.act(game.view(state, 0), legal)
        assert move in legal
        chosen.add(move)
    assert len(chosen) > 1  # random moves, not always the same one


def test_noisy_greedy_repeats_its_mistakes_under_the_same_seed() -> None:
    state = position("5H 6H 7H 8H 9C 9D 9S 2S KD")
    legal = game.legal_moves(state)

    def moves(seed: int) -> list[object]:
        agent = make_agent_from_spec("noisy-greedy:noise=0.5")
        agent.reset(seed)
        return [agent.act(game.view(state, 0), legal) for _ in range(8)]

    assert moves(3) == moves(3)
    assert moves(3) != moves(4)


def test_noisy_greedy_refuses_a_noise_outside_zero_to_one() -> None:
    import pytest

    from rummyai.errors import RummyError

    with pytest.raises(RummyError, match="noise must be between 0 and 1"):
        make_agent_from_spec("noisy-greedy:noise=1.5")


def test_greedy_lays_the_most_cards_and_discards_its_highest_card_in_draw_and_discard_games() -> None:
    """Standard rummy: greedy's meld or lay-off places the most hand cards of any listed move, and
    its discard is a card worth most in its hand (what it keeps does not depend on the hand's order)."""
    from rummyai.agents.solver_play import hand_cards_in
    from rummyai.engine.discard_moves import Discard

    greedy = make_agent("greedy")
    discards = placements = 0
    for seed in range(4):
        state = game.new_match("standard", 2, seed, options={"max_deals": 1})
        while not state.match_over:
            legal = game.legal_moves(state)
            hand = state.round.hands[state.to_act]
            move = greedy.act(game.view(state, state.to_act), legal)
            most = max(hand_cards_in(m, hand) for m in legal)
            assert hand_cards_in(move, hand) == most
            if isinstance(move, Discard):
                values, deck = state.variant.hand_values, state.variant.deck
                assert values[deck[move.card]] == max(values[deck[i]] for i in hand)
                discards += 1
            placements += most > 0
            state = game.apply(state, move)
    assert discards > 20 and placements > 5


def test_greedy_keeps_its_jokers_while_another_card_can_go() -> None:
    """Rummy Palace: a joker is worth most in hand, yet greedy discards it only when no other
    card may be discarded."""
    from rummyai.cards import JOKER
    from rummyai.engine.discard_moves import Discard

    greedy = make_agent("greedy")
    kept = 0
    for seed in range(12):
        state = game.new_match("rummy-palace", 2, seed, options={"max_rounds": 1})
        while not state.match_over:
            legal = game.legal_moves(state)
            move = greedy.act(game.view(state, state.to_act), legal)
            deck = state.variant.deck
            if isinstance(move, Discard) and any(
                deck[m.card] == JOKER for m in legal if isinstance(m, Discard)
            ):
                assert deck[move.card] != JOKER or all(
                    deck[m.card] == JOKER for m in legal if isinstance(m, Discard)
                )
                kept += deck[move.card] != JOKER
            state = game.apply(state, move)
    assert kept > 5
