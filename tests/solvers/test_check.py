"""`check_solution`, the independent check the solver tests and benchmark rely on, rejects bad answers."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rummyai.cards import parse_cards, parse_table
from rummyai.errors import IllegalMoveError
from rummyai.melds import analyze_meld
from rummyai.solvers import Solution, make_position, solve
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


@pytest.mark.parametrize(
    ("variant", "hand", "table", "opened", "new_table", "rule"),
    [
        # rummy-tiles: the opening meld is made of natural tiles only (a joker may not open)
        (
            "rummy-tiles",
            "TS JS QS JK",
            "",
            False,
            "TS JS QS JK",
            r"2\.4.*jokers may not appear in the opening",
        ),
        # rummy-board: at most 12 cards from the hand in one turn
        (
            "rummy-board",
            "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
            "",
            True,
            "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
            r"3\.2.*at most 12",
        ),
        # rhine: a seat that has not qualified needs a meld of three natural cards
        ("rhine", "7S 8S JK", "", False, "7S 8S JK=9S", r"1\.4.*3 natural cards"),
    ],
)
def test_rejects_what_the_engine_judge_refuses(
    variant: str, hand: str, table: str, opened: bool, new_table: str, rule: str
) -> None:
    """Tile-style answers go through the engine's judge too, so turn rules the card counts cannot
    see (an opening's make-up, a cap on the cards played) are checked."""
    position = make_position(variant, hand, table, opened)
    melds = tuple(tuple(m) for m in parse_table(new_table))
    played = tuple(parse_cards(hand))
    answer = replace(
        solve(variant, hand, table, opened=opened), played=played, melds=melds, cards_played=len(played)
    )
    with pytest.raises(IllegalMoveError, match=rule):
        check_solution(position, answer)


def _claimed(variant: str, hand: str, table: str, new_table: str, played: str) -> tuple[object, Solution]:
    """A made-up answer: `played` from `hand` turning `table` into `new_table`."""
    position = make_position(variant, hand, table)
    melds = tuple(tuple(analyze_meld(position.variant, m).slots) for m in parse_table(new_table))
    cards = tuple(sorted(parse_cards(played)))
    return position, Solution(cards, melds, "optimal", "cards", len(cards), len(cards), 0, 0.0)


def test_rejects_a_draw_and_discard_answer_that_takes_a_meld_apart() -> None:
    position, answer = _claimed("standard", "4H 4D", "4S 5S 6S 7S", "5S 6S 7S | 4S 4H 4D", "4H 4D")
    with pytest.raises(IllegalMoveError, match="4S 5S 6S 7S was taken apart"):
        check_solution(position, answer)
    # two start melds that fit the same new meld are matched one to one
    position, answer = _claimed(
        "rummy-palace", "4S 9D", "5S 6S 7S | 5S 6S 7S 8S", "5S 6S 7S 8S | 4S 5S 6S 7S", "4S"
    )
    check_solution(position, answer)


def test_rejects_a_rummy_palace_answer_that_leaves_nothing_to_discard() -> None:
    position, answer = _claimed("rummy-palace", "5H 6H 7H", "", "5H 6H 7H", "5H 6H 7H")
    with pytest.raises(IllegalMoveError, match="a card must be kept for the discard"):
        check_solution(position, answer)


def test_rejects_a_rummy_palace_opening_under_its_points() -> None:
    position, answer = _claimed("rummy-palace", "5H 6H 7H 9C", "", "5H 6H 7H", "5H 6H 7H")
    position = replace(position, opened=False)
    with pytest.raises(IllegalMoveError, match="new melds worth 18 < 30"):
        check_solution(position, answer)
