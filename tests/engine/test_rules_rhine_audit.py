"""Rhine Rummy audit (VARIANTS.md §1, §7): the rules and worked examples the first pass left open.

Each case is a hand-made position: legal plays are checked with the exact hand cards played,
illegal ones with the rule label and a reason naming the problem. Turn flow and scoring go
through the engine; bad input goes through the `validate` JSON contract and the CLI.
"""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest

from rummyai.cards import parse_card, parse_cards
from rummyai.cli import main
from rummyai.engine import Draw, Play, apply, judge_json, judge_play, validate
from rummyai.engine.state import GameState, TableMeld
from rummyai.engine.tile_position import play_from_text, position
from rummyai.variants import get_variant

V = "rhine"
POINTS = {"rhine.points_qualify": True}
TWOS = {"rhine.wild_twos": True}
CANASTA = {"rhine.canasta_values": True}


def legal(
    played: str, hand: str, table: str, new: str, opened: bool = True, options: object = None
) -> list[list[str]]:
    """Assert the play is legal and plays exactly `played` (tokens in §7.1 sort order)."""
    verdict = judge_play(V, hand.split(), table, new, opened=opened, options=options)
    assert verdict.legal, (verdict.rule, verdict.reason)
    assert verdict.played == played.split()
    return verdict.new_table


def illegal(
    rule: str, words: str, hand: str, table: str, new: str, opened: bool = True, options: object = None
) -> None:
    """Assert the play breaks `rule` and the reason mentions each of `words` (separated by |)."""
    verdict = judge_play(V, hand.split(), table, new, opened=opened, options=options)
    assert not verdict.legal, f"expected a {rule} violation"
    assert verdict.rule == rule, (verdict.rule, verdict.reason)
    assert verdict.reason
    for word in words.split("|"):
        assert word in verdict.reason, (word, verdict.reason)


# ------------------------------------------------------------------ §1.3 melds
def test_1_3_group_of_duplicates_and_two_naturals_with_joker() -> None:
    legal("QS QS QH QH QD QD QC QC", "QS QH QD QC QS QH QD QC", "", "QS QH QD QC QS QH QD QC")
    legal("5H 5H JK", "5H 5H JK", "", "5H 5H JK")
    illegal("1.5 R2", "wild", "5H JK JK", "5S 6S 7S", "5S 6S 7S | 5H JK JK")


def test_1_3_thirteen_card_run_is_the_longest() -> None:
    full = "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    legal("AH", "AH", "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", full)
    illegal("1.5 R2", "run", "JK", full, full + " JK")


# ------------------------------------------------------------------ §1.4 qualifying
def test_1_4_two_natural_melds_and_a_larger_meld_qualify() -> None:
    legal("3S 3D 3C 7H 8H 9H", "7H 8H 9H 3S 3D 3C", "", "7H 8H 9H | 3S 3D 3C", opened=False)
    legal("7H 8H 9H TH", "7H 8H 9H TH", "", "7H 8H 9H TH", opened=False)


def test_1_4_qualifying_meld_may_be_merged_with_a_table_meld_in_the_same_turn() -> None:
    # qualify with 7H 8H 9H, then (same turn, §1.5) join it to the table's 4H 5H 6H
    new = legal("7H 8H 9H", "7H 8H 9H", "4H 5H 6H", "4H 5H 6H 7H 8H 9H", opened=False)
    assert new == [["4H", "5H", "6H", "7H", "8H", "9H"]]
    # or spread its cards over table melds
    legal("7H 8H 9H", "7H 8H 9H", "7S 7D 7C | TH JH QH", "7S 7D 7C 7H | 8H 9H TH JH QH", opened=False)
    # without a natural meld from the hand there is no qualifying play
    illegal("1.4", "qualifying", "7H 8H", "4H 5H 6H", "4H 5H 6H 7H 8H", opened=False)


def test_1_4_hand_joker_after_qualifying_follows_r5() -> None:
    # 7H 8H 9H qualifies; TH and the joker are then added to it with a new natural (TH)
    legal("7H 8H 9H TH JK", "7H 8H 9H TH JK", "", "7H 8H 9H TH JK", opened=False)
    # a joker needs a new meld of its own: 3S 3D JK beside the qualifying meld
    legal("3S 3D 7H 8H 9H JK", "7H 8H 9H 3S 3D JK", "", "7H 8H 9H | 3S 3D JK", opened=False)
    # the qualifying set itself holds no wild
    illegal("1.4", "natural|no wild", "7H 8H 9H JK", "", "7H 8H 9H JK", opened=False)
    illegal("1.4", "natural|no wild", "7H 8H JK", "", "7H 8H JK", opened=False)


def test_1_4_released_joker_after_qualifying() -> None:
    table = "5S 6S JK 8S"
    # qualify with 7H 8H 9H, replace the joker by 7S, hang it on the qualifying meld with TH
    legal("7S 7H 8H 9H TH", "7H 8H 9H 7S TH", table, "5S 6S 7S 8S | 7H 8H 9H TH JK", opened=False)
    # ... but not on the qualifying meld alone: that meld was already on the table (R5)
    illegal("1.5 R5", "7H 8H 9H", "7H 8H 9H 7S", table, "5S 6S 7S 8S | 7H 8H 9H JK", opened=False)


def test_1_4_unqualified_player_may_not_only_rearrange() -> None:
    illegal("1.4", "qualifying", "6C", "3C 4C JK 6C 7C 8C", "3C 4C JK 6C | 6C 7C 8C", opened=False)


def _opening(state: GameState, tokens: str) -> tuple[TableMeld, ...]:
    """The seat on turn's qualifying meld: the first hand copy of each token."""
    hand = list(state.round.hands[state.round.turn])
    deck = state.variant.deck
    ids = []
    for kind in parse_cards(tokens):
        ids.append(next(i for i in hand if deck[i] == kind and i not in ids))
    return (TableMeld(tuple(ids), (None,) * len(ids)),)


def test_1_4_engine_form_and_down_and_out_after_merging_the_qualifying_meld() -> None:
    # §1.4 engine form (qualifying_melds, final_table); qualifying then going out: -20 (§1.6)
    state = position(V, ["7H 8H 9H", "AC KD"], "4H 5H 6H", opened=False, stock="2S 3S")
    table = play_from_text(state, "4H 5H 6H 7H 8H 9H").table
    play = Play(table, _opening(state, "7H 8H 9H"))
    assert validate(state, play) is None
    after = apply(state, play)
    assert after.history[0].reason == "out"
    assert after.history[0].scores == (-20, 15 + 13)


def test_1_4_engine_finds_a_qualifying_meld_the_move_does_not_name() -> None:
    # the same merge as a plain Play (no qualifying melds named): the engine looks inside the
    # played hand cards as the text judge does, and still refuses a play with no qualifying set
    state = position(V, ["7H 8H 9H", "AC KD"], "4H 5H 6H", opened=False, stock="2S 3S")
    table = play_from_text(state, "4H 5H 6H 7H 8H 9H").table
    assert validate(state, Play(table)) is None
    assert apply(state, Play(table)).history[0].scores == (-20, 15 + 13)
    short = position(V, ["7H 8H JK", "AC KD"], "4H 5H 6H", opened=False, stock="2S 3S")
    joined = play_from_text(short, "4H 5H 6H 7H 8H JK=9H").table
    violation = validate(short, Play(joined))
    assert violation is not None and violation.rule == "1.4"


# ------------------------------------------------------------------ §1.5 R1-R5
def test_1_5_r1_table_joker_may_not_go_back_to_the_hand() -> None:
    illegal("1.5 R1", "JK|stay", "8C", "7C JK 9C", "7C 8C 9C")


def test_1_5_r2_hand_joker_and_released_joker_in_one_meld() -> None:
    illegal("1.5 R2", "wild", "8C TS JK", "7C JK 9C", "7C 8C 9C | TS JK JK")


def test_1_5_r3_kept_joker_needs_a_natural_of_its_old_meld() -> None:
    # the joker stays 8C, but in a meld with none of 6C 7C: it is released and needs an 8C
    illegal(
        "1.5 R4",
        "8C",
        "9C TC 6S 6D 7S 7D",
        "6C 7C JK",
        "6C 6S 6D | 7C 7S 7D | JK=8C 9C TC",
    )
    legal("9C TC", "9C TC", "6C 7C JK", "6C 7C JK=8C 9C TC")


def test_1_5_r3_kept_group_joker_moves_with_a_piece() -> None:
    new = legal("9S", "9S", "9S 9H 9D 9C JK", "9S 9H JK | 9D 9C 9S")
    assert ["9S", "9H", "JK=9"] in new


def test_1_5_r3_group_joker_becoming_a_run_card_is_released() -> None:
    # JK=8 in a group may not turn into 8H of a run without an 8 replacing it (§1.8 9)
    illegal("1.5 R4", "8", "7H 9H", "8S 8D 8C JK", "8S 8D 8C | 7H JK 9H")
    legal("6H 7H 8H", "8H 6H 7H", "8S 8D 8C JK", "8S 8D 8C 8H | 6H 7H JK")


def test_1_5_r4_replacement_sits_with_the_jokers_old_naturals() -> None:
    table = "9S 9H 9C JK | 6D 7D 8D"
    legal("9D QS QH", "9D QS QH", table, "9S 9H 9C 9D | 6D 7D 8D | QS QH JK")
    # the 9D is on the table but not next to 9S 9H 9C
    illegal("1.5 R4", "9S 9H 9C", "9D QS QH", table, "9S 9H 9C | 6D 7D 8D 9D | QS QH JK")


def test_1_5_r4_each_released_joker_needs_its_own_replacement() -> None:
    table = "7C JK 9C | 7C JK 9C"
    rest = "7S 7D 9S 9D TS TD 5H 5D"
    illegal(
        "1.5 R4",
        "8C",
        "8C " + rest,
        table,
        "7C 8C 9C | 7S 7D 7C | 9S 9D 9C | TS TD JK | 5H 5D JK",
    )
    legal(
        "5H 5D 8C 8C TS TD",
        "8C 8C TS TD 5H 5D",
        table,
        "7C 8C 9C | 7C 8C 9C | TS TD JK | 5H 5D JK",
    )


def test_1_5_r5_released_joker_may_not_join_an_existing_meld() -> None:
    table = "7C JK 9C | 5S 5H 5D"
    illegal("1.5 R5", "5S 5H 5D", "8C", table, "7C 8C 9C | 5S 5H 5D JK")
    legal("5C 8C", "8C 5C", table, "7C 8C 9C | 5S 5H 5D 5C JK")


def test_1_5_r5_replacements_do_not_count_as_new_naturals() -> None:
    # 8C leaves the group to replace the joker; the group plus the joker is the old group (R5)
    table = "7C JK 9C | 8S 8D 8H 8C"
    illegal("1.5 R5", "8S 8D 8H", "6C", table, "6C 7C 8C 9C | 8S 8D 8H JK")
    legal("6C 8D", "6C 8D", table, "6C 7C 8C 9C | 8S 8D 8H 8D JK")


def test_1_5_r5_joker_with_one_melds_naturals_and_a_hand_natural() -> None:
    legal("8S JK", "JK 8S", "5H 6H 7H 8H", "5H 6H 7H | 8H 8S JK")


# ------------------------------------------------------------------ worked examples (§1.5, §1.8)
def test_example_joker_returning_to_its_old_meld() -> None:
    legal("8C JC", "8C JC", "7C JK 9C", "7C 8C 9C JK=TC JC")
    illegal("1.5 R5", "7C JK=8C 9C", "8C", "7C JK 9C", "7C 8C 9C JK=TC")
    illegal("1.5 R5", "7C JK=8C 9C", "8C", "7C JK 9C", "JK 7C 8C 9C")


def test_example_three_eights_banned() -> None:
    # §1.8 9: 7H JK 9H may not become three 8s with the 7H and 9H joining other melds
    illegal(
        "1.5 R4",
        "8H",
        "8S 8D",
        "7H JK 9H | 7S 7D 7C | 9S 9D 9C",
        "7S 7D 7C 7H | 9S 9D 9C 9H | 8S 8D JK",
    )


def test_example_split_and_hang_a_joker_on_one_piece() -> None:
    # §1.8 8: counts as "just adding a joker", whichever piece gets it
    for new in ("3H 4H 5H | 6H 7H 8H JK", "3H 4H 5H JK | 6H 7H 8H", "JK 3H 4H 5H | 6H 7H 8H"):
        illegal("1.5 R5", "3H 4H 5H 6H 7H 8H", "JK", "3H 4H 5H 6H 7H 8H", new)


def test_example_new_joker_meld_from_two_melds_but_not_from_one() -> None:
    new = legal("JK", "JK", "5H 6H 7H 8H | 9S 9D 9C 9H", "5H 6H 7H | 8H 9H JK | 9S 9D 9C")
    assert ["8H", "9H", "JK=TH"] in new
    # the same shape with every natural from one start meld
    illegal("1.5 R5", "5H 6H 7H 8H 9H", "JK", "5H 6H 7H 8H 9H", "5H 6H 7H | 8H 9H JK")


def test_example_kept_joker_moves_with_a_piece_of_its_meld() -> None:
    new = legal("6C", "6C", "3C 4C JK 6C 7C 8C", "3C 4C JK 6C | 6C 7C 8C")
    assert ["3C", "4C", "JK=5C", "6C"] in new


def test_example_replacement_from_hand_or_from_another_meld() -> None:
    legal("8C TS TD", "8C TD TS", "7C JK 9C", "7C 8C 9C | TD TS JK")
    legal("TS TD", "TD TS", "5C 6C 7C JK 9C | 8S 8D 8H 8C", "5C 6C 7C 8C 9C | 8S 8D 8H | TD TS JK")


def test_example_fifth_queen_frees_the_group_joker() -> None:
    legal("5H 5C QS", "QS 5H 5C", "QH QD QC QS JK", "QH QD QC QS QS | 5H 5C JK")


# ------------------------------------------------------------------ §1.6 end and scoring
def test_1_6_going_out_ends_the_round_before_anyone_else_plays() -> None:
    state = position(V, ["8S", "9S TS", "AC"], "5S 6S 7S", stock="2H 3H")
    after = apply(state, play_from_text(state, "5S 6S 7S 8S"))
    result = after.history[0]
    assert result.reason == "out" and result.winner == 0
    assert result.scores == (0, 19, 15)
    assert after.round_index == 1  # the next round is dealt


def test_1_6_stock_exhaustion_everyone_scores_hand_including_jokers() -> None:
    state = position(V, ["JK 2C", "KH AS"], "5S 6S 7S", stock="")
    after = apply(state, Draw())
    result = after.history[0]
    assert result.reason == "stock_exhausted" and result.winner is None
    assert result.scores == (20 + 2, 13 + 15)


def test_1_6_down_and_out_needs_qualifying_in_the_same_turn() -> None:
    state = position(V, ["7H 8H 9H 3S 3D 3C", "QS"], "", opened=False, stock="2H")
    after = apply(state, play_from_text(state, "7H 8H 9H | 3S 3D 3C"))
    assert after.history[0].scores == (-20, 12)


# ------------------------------------------------------------------ §1.7 options
def test_1_7_points_ace_low_counts_15() -> None:
    # §1.8 3: AS counts 15 low as well as high
    legal("AS 2S 3S 4S 5S 6S", "AS 2S 3S 4S 5S 6S", "", "AS 2S 3S 4S 5S 6S", opened=False, options=POINTS)
    illegal("1.4", "20|30", "AS 2S 3S", "", "AS 2S 3S", opened=False, options=POINTS)


def test_1_7_points_stated_joker_meaning_sets_its_value() -> None:
    legal("9S TS JK", "9S TS JK", "", "9S TS JK=JS", opened=False, options=POINTS)  # 30
    illegal("1.4", "27", "9S TS JK", "", "JK=8S 9S TS", opened=False, options=POINTS)


def test_1_7_points_melds_come_from_the_hand_and_the_turn_continues() -> None:
    illegal("1.4", "qualifying", "TD", "TS TH TC", "TS TH TC TD", opened=False, options=POINTS)
    legal("TD QH KH JK", "TD QH KH JK", "TS TH TC", "TS TH TC TD | QH KH JK", opened=False, options=POINTS)
    # 33 points of hand cards, then joined to the table run in the same turn
    legal("TH JH QH", "TH JH QH", "7H 8H 9H", "7H 8H 9H TH JH QH", opened=False, options=POINTS)


def test_1_7_points_with_canasta_values() -> None:
    both = {**POINTS, **CANASTA}
    legal("8S 9S TS", "8S 9S TS", "", "8S 9S TS", opened=False, options=both)  # 10+10+10
    illegal("1.4", "27", "8S 9S TS", "", "8S 9S TS", opened=False, options=POINTS)
    legal("2S 3S 4S 5S 6S 7S", "2S 3S 4S 5S 6S 7S", "", "2S 3S 4S 5S 6S 7S", opened=False, options=both)


def test_1_7_points_wild_two_counts_as_represented() -> None:
    both = {**POINTS, **TWOS}
    legal("2H QS KS", "QS KS 2H", "", "QS KS 2H=AS", opened=False, options=both)  # 12 + 13 + 15
    illegal("1.4", "27", "9S TS 2H", "", "9S TS 2H=8S", opened=False, options=both)


def test_1_7_wild_twos_are_never_natural() -> None:
    new = legal("AS 2S 3S", "AS 2S 3S", "", "AS 2S 3S", options=TWOS)
    assert new == [["AS", "2S=2S", "3S"]]
    illegal("1.5 R2", "wild", "2S 2H 2D", "", "2S 2H 2D", options=TWOS)  # no group of twos
    illegal("1.5 R2", "wild", "AS 2S JK", "", "AS 2S JK", options=TWOS)
    illegal("1.4", "natural", "AS 2S 3S", "", "AS 2S 3S", opened=False, options=TWOS)
    # without the option a 2 is an ordinary card
    legal("2S 2H 2D", "2S 2H 2D", "", "2S 2H 2D")
    legal("AS 2S 3S", "AS 2S 3S", "", "AS 2S 3S", opened=False)


def test_1_7_wild_two_follows_the_joker_rules() -> None:
    legal("8C TS TD", "8C TD TS", "7C 2S 9C", "7C 8C 9C | TD TS 2S", options=TWOS)
    illegal("1.5 R5", "7C 2S=8C 9C", "8C", "7C 2S 9C", "7C 8C 9C 2S=TC", options=TWOS)
    legal("8C JC", "8C JC", "7C 2S 9C", "7C 8C 9C 2S=TC JC", options=TWOS)
    illegal("1.5 R4", "8C", "9S 9D TD TS", "5C 6C 7C 2S 9C", "5C 6C 7C | 9C 9S 9D | TD TS 2S", options=TWOS)


@pytest.mark.parametrize(
    "options",
    [
        {"rhine.wild_twos": True, "rhine.canasta_values": True},
        {"rhine.canasta_values": True, "rhine.wild_twos": True},
        ["rhine.canasta_values", "rhine.wild_twos"],
        ["rhine.wild_twos", "rhine.canasta_values"],
    ],
)
def test_1_7_canasta_values_with_wild_twos_keep_twos_at_50(options: Any) -> None:
    variant = get_variant(V, options)
    values = {t: variant.hand_value(parse_card(t)) for t in ("2C", "3D", "7S", "8H", "KC", "AS", "JK")}
    assert values == {"2C": 50, "3D": 5, "7S": 5, "8H": 10, "KC": 10, "AS": 20, "JK": 50}


def test_1_7_scores_with_wild_twos_and_canasta_through_the_engine() -> None:
    state = position(get_variant(V, TWOS), ["8S", "2C 9D"], "5S 6S 7S", stock="3H")
    after = apply(state, play_from_text(state, "5S 6S 7S 8S"))
    assert after.history[0].scores == (0, 50 + 9)
    state = position(get_variant(V, CANASTA), ["7H 8H 9H", "2C 9D JK"], "", opened=False, stock="3H")
    after = apply(state, play_from_text(state, "7H 8H 9H"))
    assert after.history[0].scores == (-20, 5 + 10 + 50)


def test_1_7_extra_packs_add_copies() -> None:
    opts = {"extra_packs": 1}
    legal("8C 8C 8C", "8C 8C 8C", "", "8C 8C 8C", options=opts)
    assert get_variant(V, opts).copies[parse_card("JK")] == 6
    answer = judge_json({"variant": V, "hand": ["8C"] * 3, "table": [], "new_table": [["8C"] * 3]})
    assert "3 copies of 8C" in answer["error"]


# ------------------------------------------------------------------ §7 notation
def test_7_1_meaning_forms() -> None:
    assert legal("9D", "9D", "9S 9H JK=9", "9S 9H 9D JK=9C") == [["9S", "9H", "9D", "JK=9C"]]
    # a rank-only meaning in a run takes the run's suit; a natural may state itself
    assert legal("8C JC", "8C JC", "7C JK 9C", "7C 8C 9C JK=T JC") == [["7C", "8C", "9C", "JK=TC", "JC"]]
    legal("8C JC", "8C JC", "7C JK 9C", "7C 8C=8C 9C JK JC")
    illegal("1.5 R2", "JK=5H", "8C", "7C JK 9C", "7C 8C 9C JK=5H")


def test_7_1_played_cards_in_sort_order() -> None:
    verdict = judge_play(V, ["JK", "9H", "3D", "8H", "3S", "7H"], "", "7H 8H 9H | 3S 3D JK", opened=False)
    assert verdict.played == ["3S", "3D", "7H", "8H", "9H", "JK"]


# ------------------------------------------------------------------ bad input on validate
BASE: dict[str, Any] = {"variant": V, "hand": ["8C"], "table": [["7C", "JK", "9C"]], "new_table": []}


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"hand": ["8X"]}, "8X"),
        ({"hand": ["8C", "8C", "8C"]}, "3 copies of 8C"),
        ({"table": [["JK", "JK", "JK"], ["JK", "5S", "6S"]], "hand": ["JK"]}, "5 copies of JK"),
        ({"table": [["7C", "8H", "9C"]]}, "table meld 1"),
        ({"table": [["7C", "JK=5H", "9C"]]}, "JK=5H"),
        ({"table": [["7C", "JK", "9C"], []]}, "empty meld"),
        ({"new_table": [["7C", "8C", "9C", "JK="]]}, "JK="),
        ({"hand": "8C", "new_table": 7}, "new_table"),
        ({"options": {"rhine.bogus": True}}, "rhine.bogus"),
        ({"variant": "poker"}, "poker"),
        ({"opened": "no"}, "opened"),
    ],
)
def test_bad_input_gives_an_error_line(change: dict[str, Any], needle: str) -> None:
    answer = judge_json({**BASE, "new_table": [["7C", "8C", "9C", "JK", "JC"]], **change})
    assert set(answer) == {"error"} and needle in answer["error"]


@pytest.mark.parametrize(
    ("new_table", "rule", "needle"),
    [
        ([["7C", "8C", "9C", "JK=5H"]], "1.5 R2", "JK=5H"),  # a meaning that does not fit
        ([["7C", "8C", "9C", "JK=QC"]], "1.5 R2", "consecutive"),
        ([["7C", "8C", "9C"]], "1.5 R1", "JK"),  # the new table lost a card
        ([], "1.5 R1", "stay"),
        ([["7C", "8C", "9C", "JK", "JC"]], "1.5 R1", "JC"),  # a card from nowhere
        ([["7C", "JK", "9C"]], "1.5 R1", "hand"),  # nothing played
    ],
)
def test_impossible_new_tables_are_illegal_with_a_reason(
    new_table: list[list[str]], rule: str, needle: str
) -> None:
    answer = judge_json({**BASE, "new_table": new_table})
    assert answer["legal"] is False and answer["rule"] == rule and needle in answer["reason"]


def test_cli_jsonl_answers_bad_lines_without_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = [
        {
            "hand": ["8C", "JC"],
            "table": [["7C", "JK", "9C"]],
            "new_table": [["7C", "8C", "9C", "JK=TC", "JC"]],
        },
        {"hand": ["8C"], "table": [["7C", "JK", "9C"]], "new_table": [["7C", "8C=8C", "9C", "JK=T"]]},
        {"hand": ["8C"] * 3, "table": [], "new_table": [["8C"] * 3]},
        {
            "hand": ["7H", "8H", "9H"],
            "table": [["4H", "5H", "6H"]],
            "new_table": [["4H", "5H", "6H", "7H", "8H", "9H"]],
            "opened": False,
        },
        [1, 2],
        {"hand": ["8C"], "table": [["7C", "JK", "9C"]], "new_table": [["7C", "8C", "9C"]]},
    ]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(json.dumps(x) for x in lines) + "\n"))
    out = io.StringIO()
    assert main(["validate", "--variant", V, "--jsonl"], out=out) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert answers[0] == {"legal": True, "played": ["8C", "JC"]}
    assert answers[1]["legal"] is False and answers[1]["rule"] == "1.5 R5"
    assert "copies" in answers[2]["error"]
    assert answers[3] == {"legal": True, "played": ["7H", "8H", "9H"]}
    assert "error" in answers[4]
    assert answers[5]["rule"] == "1.5 R1"
    assert "Traceback" not in capsys.readouterr().err


# ------------------------------------------------------------------ more joker cases
def test_1_8_8_hand_joker_bridging_two_table_melds() -> None:
    # the joker's meld holds naturals of two start melds, so no single start meld covers it (R5)
    new = legal("JK", "JK", "5H 6H 7H | 9H TH JH", "5H 6H 7H JK 9H TH JH")
    assert new == [["5H", "6H", "7H", "JK=8H", "9H", "TH", "JH"]]


def test_1_5_hand_joker_with_a_natural_taken_from_another_meld() -> None:
    legal("JK", "JK", "5S 5H 5D | 5C 6C 7C 8C", "6C 7C 8C | 5S 5H 5D 5C JK")


def test_1_7_wild_two_at_the_two_position_is_never_replaced() -> None:
    # a joker meaning 2S needs a natural 2S; under wild twos every 2 is a wild (R4)
    illegal("1.5 R4", "2S", "2S QH QD", "AS JK 3S", "AS 2S 3S | QH QD JK", options=TWOS)
    legal("2S QH QD", "2S QH QD", "AS JK 3S", "AS 2S 3S | QH QD JK")  # without the option


def test_1_7_group_wild_two_released_by_a_natural_of_its_rank() -> None:
    legal("5C QH QD", "5C QH QD", "5S 5H 2C", "5S 5H 5C | QH QD 2C", options=TWOS)
    illegal("1.5 R4", "5", "QH QD", "5S 5H 5D 2C", "5S 5H 5D | QH QD 2C", options=TWOS)


# ------------------------------------------------------------------ §1.1, §1.6 game frame
def test_1_1_deck_order_and_player_limits() -> None:
    from rummyai.cards import card_str
    from rummyai.engine import new_match
    from rummyai.errors import RummyError

    deck = get_variant(V).deck
    assert [card_str(deck[i]) for i in (0, 12, 13, 51, 52, 103, 104, 107)] == [
        "AS", "KS", "AH", "KC", "AS", "KC", "JK", "JK",
    ]  # fmt: skip
    with pytest.raises(RummyError, match="2 to 6"):
        new_match(V, 1, seed=0)
    big = new_match(V, 10, seed=0, options={"extra_packs": 1})
    assert len(big.round.stock) == 162 - 100
    with pytest.raises(RummyError, match="2 to 10"):
        new_match(V, 11, seed=0, options={"extra_packs": 1})


def test_1_6_tied_lowest_totals_share_the_win() -> None:
    from rummyai.engine.game import match_winners
    from rummyai.engine.state import RoundResult

    variant = get_variant(V)
    history = (RoundResult(None, (0, 0, 0), "stock_exhausted"),) * 10
    assert match_winners(variant, (30, -20, -20), history) == (1, 2)
    assert match_winners(variant, (30, -20, -20), history[:9]) == ()  # 10 rounds are played


def test_1_8_3_canasta_points_count_wilds_as_represented_never_50() -> None:
    both = {**POINTS, **CANASTA}
    legal("QS KS JK", "QS KS JK", "", "QS KS JK=AS", opened=False, options=both)  # 10 + 10 + 20
    illegal("1.4", "15", "5S 6S JK", "", "5S 6S JK=7S", opened=False, options=both)  # not 5 + 5 + 50
    assert get_variant(V, CANASTA).hand_value(parse_card("2D")) == 5  # twos are 5 unless wild


def test_1_4_qualified_player_lays_off_on_the_next_turn() -> None:
    state = position(V, ["7H 8H 9H TH AS", "AC KD"], "", opened=False, stock="2S 3S 4D")
    state = apply(state, play_from_text(state, "7H 8H 9H"))
    assert state.round.opened == (True, False) and not state.history
    state = apply(state, Draw())  # seat 1
    play = play_from_text(state, "7H 8H 9H TH")
    assert validate(state, play) is None  # a lay-off alone is fine once qualified
    assert len(apply(state, play).round.hands[0]) == 1  # AS left


def test_engine_rejects_a_joker_rule_breach_with_its_rule() -> None:
    from rummyai.engine import Rejected, legal_moves
    from rummyai.errors import IllegalMoveError

    state = position(V, ["8C", "AC KD"], "7C JK 9C", stock="2S 3S")
    play = play_from_text(state, "7C 8C 9C JK")
    violation = validate(state, play)
    assert violation is not None and violation.rule == "1.5 R5"
    with pytest.raises(IllegalMoveError, match=r"1\.5 R5"):
        apply(state, play)
    assert not any(isinstance(m, Rejected) for m in legal_moves(state))  # no penalty draw in Rhine


def test_7_1_runs_may_be_written_in_any_order() -> None:
    assert legal("TC", "TC", "7C 8C 9C", "TC 9C 8C 7C") == [["7C", "8C", "9C", "TC"]]


def test_1_4_qualifying_reads_the_canonical_copies() -> None:
    # Only an assignment that moves the run's QH into the Q group (replacing its joker) would pass,
    # but the canonical reading keeps each QH with its own meld-mates (§7.1): the group's joker
    # left with no Q replacing it (R4), whatever copies the qualifying 6C 7C 8C are
    illegal(
        "1.5 R4",
        "QH QD QC",
        "6C 7C 8C",
        "QH QD QC JK | JH QH KH | 5C 6C 7C",
        "QH QD QC | JH QH KH | 5C 6C 7C JK | 6C 7C 8C",
        opened=False,
    )
    # a Q from the hand replacing the joker, and the joker in a new meld, is legal
    legal(
        "6C 7C 8C 9S 9D QS",
        "6C 7C 8C QS 9S 9D",
        "QH QD QC JK | JH QH KH | 5C 6C 7C",
        "QH QD QC QS | JH QH KH | 5C 6C 7C | 6C 7C 8C | JK 9S 9D",
        opened=False,
    )
    illegal(
        "1.5 R4",
        "QH QD QC",
        "6C 7C 8C",
        "QH QD QC JK | 5C 6C 7C",
        "QH QD QC | 5C 6C 7C JK | 6C 7C 8C",
        opened=False,
    )


def test_7_1_play_from_text_reads_meanings_as_the_judge_does() -> None:
    # a natural stating itself and a rank-only run meaning are read in the one form (§7.1)
    state = position(V, ["8C JC", "AC KD"], "7C JK 9C", opened=True, stock="2S 3S")
    for text in ("7C 8C=8C 9C JK JC", "7C 8C 9C JK=T JC"):
        assert validate(state, play_from_text(state, text)) is None
