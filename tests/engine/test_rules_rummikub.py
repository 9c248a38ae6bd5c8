"""Official Rummikub (VARIANTS.md §8): one test per rule with a legal and an illegal case."""

from __future__ import annotations

import pytest

from rummyai.engine import Draw, apply, judge_play, new_match
from rummyai.engine.tile import apply_or_penalize
from rummyai.engine.tile_position import play_from_text, position
from rummyai.errors import IllegalMoveError
from rummyai.variants import get_variant

V = "rummikub"
OFFICIAL = {"official_jokers": True}
FROM_TABLE = {"official_jokers": True, "joker_replacement_from": "rack_or_table"}


def legal(hand: str, table: str, new: str, opened: bool = True, options: object = None) -> None:
    verdict = judge_play(V, hand.split(), table, new, opened=opened, options=options)
    assert verdict.legal, verdict.reason


def illegal(rule: str, hand: str, table: str, new: str, opened: bool = True, options: object = None) -> None:
    verdict = judge_play(V, hand.split(), table, new, opened=opened, options=options)
    assert not verdict.legal, f"expected a {rule} violation"
    assert verdict.rule == rule, (verdict.rule, verdict.reason)


def test_rummikub_8_1_parameters() -> None:
    assert len(get_variant(V).deck) == 106
    state = new_match(V, 3, seed=5)
    assert [len(h) for h in state.round.hands] == [14] * 3 and len(state.round.stock) == 106 - 42
    assert len({new_match(V, 3, seed=s).round.turn for s in range(30)}) == 3


def test_rummikub_8_2_melds() -> None:
    legal("7C", "7S 7H 7D", "7S 7H 7D 7C")
    illegal("8.2", "7D", "7S 7H 7D", "7S 7H 7D 7D")
    illegal("8.2", "QS KS AS", "", "QS KS AS")
    legal("JK JK 5S", "", "JK 5S JK")


def test_rummikub_8_2_opening_jokers_count_as_represented() -> None:
    legal("TC JC JK", "", "TC JC JK", opened=False)  # 10 + 11 + 12
    illegal("8.2", "2C 3C JK", "", "2C 3C JK", opened=False)
    illegal("8.2", "TC JC QC 8S", "5S 6S 7S", "5S 6S 7S 8S | TC JC QC", opened=False)


def test_rummikub_8_2_free_table_jokers_by_default() -> None:
    legal("9D 9H", "5S 6S 7S JK", "5S 6S 7S | 9D 9H JK")
    illegal("8.2", "9D", "5S 6S 7S JK", "5S 6S 7S | 9D JK")


def test_rummikub_8_2_official_jokers_replacement_from_rack() -> None:
    legal("8S 9D 9H", "5S 6S 7S JK", "5S 6S 7S 8S | 9D 9H JK", options=OFFICIAL)
    illegal("8.2", "9D 9H", "5S 6S 7S JK", "5S 6S 7S | 9D 9H JK", options=OFFICIAL)
    # a three-group's joker: either missing colour
    legal("8H 4C 5C", "8S 8D JK", "8S 8D 8H | 4C 5C JK", options=OFFICIAL)
    legal("8C 4C 5C", "8S 8D JK", "8S 8D 8C | 4C 5C JK", options=OFFICIAL)


def test_rummikub_8_2_official_jokers_replacement_from_table_option() -> None:
    table = "5S 6S 7S JK | 8S 8H 8D 8C"
    new = "5S 6S 7S 8S | 8H 8D 8C | 9D 9H JK"
    illegal("8.2", "9D 9H", table, new, options=OFFICIAL)
    legal("9D 9H", table, new, options=FROM_TABLE)


def test_rummikub_8_2_official_taken_joker_goes_to_a_new_meld() -> None:
    legal("8S 3C 2C", "5S 6S 7S JK | 4C 5C 6C", "5S 6S 7S 8S | 4C 5C 6C | 2C 3C JK", options=OFFICIAL)
    illegal("8.2", "8S 3C", "5S 6S 7S JK | 4C 5C 6C", "5S 6S 7S 8S | 3C 4C 5C 6C JK", options=OFFICIAL)


def test_rummikub_8_2_official_joker_melds_are_not_locked() -> None:
    legal("9S", "3S 4S JK 6S 7S 8S", "3S 4S JK=5S | 6S 7S 8S 9S", options=OFFICIAL)
    # the same split is a locked-meld violation in Tile Rummy
    verdict = judge_play("rummy-tiles", ["9S"], "3S 4S JK 6S 7S 8S", "3S 4S JK=5S | 6S 7S 8S 9S")
    assert not verdict.legal and verdict.rule == "2.5 T3"


def test_rummikub_8_2_invalid_play_penalty_option() -> None:
    state = position(V, ["7H 8H", "2C 3C"], "5S 6S 7S", stock="AD 2D 3D 4D")
    bad = play_from_text(state, "5S 6S 7S 7H 8H")
    with pytest.raises(IllegalMoveError):
        apply_or_penalize(state, bad)
    state = position(
        V, ["7H 8H", "2C 3C"], "5S 6S 7S", stock="AD 2D 3D 4D", options={"invalid_play_penalty": 3}
    )
    after = apply_or_penalize(state, play_from_text(state, "5S 6S 7S 7H 8H"))
    assert len(after.round.hands[0]) == 5 and after.round.table == state.round.table


def test_rummikub_8_3_going_out_winner_takes_sum() -> None:
    state = position(V, ["8S", "AC KD JK", "2C"], "5S 6S 7S", stock="2H")
    result = apply(state, play_from_text(state, "5S 6S 7S 8S")).history[0]
    assert result.winner == 0 and result.scores == (46, -44, -2)


def test_rummikub_8_3_cycle_without_play_ends_round() -> None:
    state = position(V, ["KS QS", "2C 3C", "AD 4H"], "5S 6S 7S", stock="")
    state = apply(state, Draw())
    state = apply(state, Draw())
    assert not state.history
    state = apply(state, Draw())
    result = state.history[0]
    assert result.reason == "no_play_cycle" and result.winner == 1
    assert result.scores == (-20, 20, 0)
    # a play during the cycle restarts the count
    state = position(V, ["KS QS", "8S 3C", "AD 4H"], "5S 6S 7S", stock="")
    state = apply(state, Draw())
    state = apply(state, play_from_text(state, "5S 6S 7S 8S"))
    state = apply(state, Draw())
    state = apply(state, Draw())
    assert not state.history
