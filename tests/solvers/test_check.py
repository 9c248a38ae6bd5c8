"""`check_solution`, the independent check the solver tests and benchmark rely on, rejects bad answers."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rummyai.cards import parse_cards, parse_table
from rummyai.errors import IllegalMoveError
from rummyai.solvers import make_position, solve
from rummyai.solvers.check import check_solution


def test_accepts_the_solver_answer() -> None:
    position = make_position("rummikub", "7H 8H 9H JK", "3C 4C 5C | 8S 8D 8H")
    check_solution(position, solve("rummikub", "7H 8H 9H JK", "3C 4C 5C | 8S 8D 8H"))


def test_rejects_a_lost_table_card() -> None:
    position = make_position("rummikub", "6C", "3C 4C 5C | 8S 8D 8H 8C")
    answer = solve("rummikub", "6C", "3C 4C 5C | 8S 8D 8H 8C")
    lost = replace(answer, melds=(*answer.melds[:-1], tuple(answer.melds[-1])[:3]))
    with pytest.raises(IllegalMoveError, match="8"):
        check_solution(position, lost)


def test_rejects_a_miscounted_play() -> None:
    position = make_position("rummikub", "6C", "3C 4C 5C")
    answer = solve("rummikub", "6C", "3C 4C 5C")
    with pytest.raises(IllegalMoveError, match="cards_played"):
        check_solution(position, replace(answer, cards_played=2))


def test_a_swapped_diamond_may_go_to_the_hand_but_no_other_card() -> None:
    table = "7S 7C QD=7"
    position = make_position("black-heart", "7H", table)
    melds = tuple(tuple(m) for m in parse_table("7S 7C 7H"))
    (qd,) = parse_cards("QD")
    (seven,) = parse_cards("7H")
    swapped = solve("black-heart", "7H", table)
    kept = replace(swapped, played=(seven,), melds=melds, swaps=((0, qd, seven, None),), cards_played=0)
    check_solution(position, kept)
    with pytest.raises(IllegalMoveError, match="QD"):
        check_solution(position, replace(kept, swaps=()))
