"""Greedy's solver plays are the recorded ones (speed work on the greedy path changes none).

`data/greedy_moves.json` holds views sampled from seeded games of the tile-style variants and the
plays greedy chose there (written by `experiments/benchmarks/greedy_regression.py --record
--fixture`; its `--check` compares thousands more, and mcts-pimc's moves).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rummyai.agents.greedy import GreedyAgent
from rummyai.agents.solver_play import seat_position, state_position
from rummyai.engine import game
from rummyai.engine.replay import move_to_json
from rummyai.solvers.position import make_position
from rummyai.solvers.run_dp import solve_dp

FIXTURE = json.loads((Path(__file__).parent / "data" / "greedy_moves.json").read_text())


def _play(objective: str, view: dict[str, Any]) -> Any:
    play = GreedyAgent(objective).best_play(seat_position(view))
    return None if play is None else move_to_json(play)


@pytest.mark.parametrize("objective", ["cards", "points"])
def test_recorded_plays_are_found_again(objective: str) -> None:
    """Every sampled view gives the recorded play, asked fresh and then again (from the caches)."""
    assert {case["view"]["variant"] for case in FIXTURE} >= {"rummikub", "rummy-board", "rummy-tiles"}
    for case in FIXTURE + FIXTURE[::4]:
        assert _play(objective, case["view"]) == case["best_play"][objective], case["view"]


@pytest.mark.parametrize("variant", ["rummikub", "rummy-tiles", "rummy-board"])
def test_state_position_reads_the_view_position(variant: str) -> None:
    """`state_position` is `seat_position` of the seat's view, at every turn of a seeded game."""
    state = game.new_match(variant, 2, 7, options=["rounds=1"], max_turns=60)
    agent = GreedyAgent("cards")
    while not state.match_over:
        for seat in range(2):
            assert state_position(state, seat) == seat_position(game.view(state, seat))
        view = game.view(state, state.to_act)
        state = game.apply(state, agent.act(view, game.legal_moves(state)))


def test_remembered_search_answers_alike() -> None:
    """`solve_dp(remember=True)` gives the fresh answer, the second time from its store too."""
    position = make_position("rummikub", "AS 2S 3S 5H 5D JK 9C", ["5S 6S 7S", "5C 5H 5D"])
    fresh = solve_dp(position, "cards")
    assert fresh is not None
    for _ in range(2):
        kept = solve_dp(position, "cards", remember=True)
        assert kept is not None
        assert (kept.played, kept.melds, kept.melds_broken) == (fresh.played, fresh.melds, fresh.melds_broken)


def test_an_opening_out_of_reach_plays_nothing() -> None:
    """An unopened rummikub hand holding 3-4-5 and 9-9-9 can lay 39 points and opens; one whose
    melds make 12 cannot open, and greedy then plays nothing without asking the solver."""
    from rummyai.agents.solver_play import SeatPosition, best_legal_play
    from rummyai.cards import parse_cards
    from rummyai.solvers.opening_reach import most_hand_points, opening_out_of_reach
    from rummyai.variants import get_variant

    rummikub = get_variant("rummikub")
    opens, short = parse_cards("3S 4S 5S 9H 9D 9C KD"), parse_cards("3S 4S 5S 2H 7D KC")
    assert most_hand_points(rummikub, opens) == 39
    assert most_hand_points(rummikub, short) == 12
    assert not opening_out_of_reach(rummikub, opens)
    assert opening_out_of_reach(rummikub, short)
    seat = SeatPosition(rummikub, 0, tuple(sorted(short)), (), False)
    assert best_legal_play(seat, "cards")[0] is None


def test_nothing_to_play_only_where_the_solver_proved_it() -> None:
    """An opened seat with no card to lay is proven to have nothing to play; an unopened one is not."""
    from rummyai.agents.solver_play import SeatPosition, best_legal_play, nothing_to_play
    from rummyai.variants import get_variant

    rummikub = get_variant("rummikub")
    for opened in (True, False):
        position = SeatPosition(rummikub, 0, (0, 20, 40), (), opened)  # three unrelated cards
        assert best_legal_play(position) == (None, "none")
        assert nothing_to_play(position) is opened
