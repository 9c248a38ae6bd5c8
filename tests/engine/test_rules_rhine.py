"""Rhine Rummy (docs/rules §1, §7): each rule with its legal and illegal cases, and the rule
text's worked examples.

Plays are written as card tokens and judged by `judge_play`: legal plays are checked with the exact
hand cards played where it matters, illegal ones with the rule label and a reason naming the
problem. Round flow and scoring go through the engine on positions built with
`tile_position.position`; bad input goes through the `validate` JSON contract and the CLI.
"""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest

from rummyai.cards import card_str, parse_card, parse_cards
from rummyai.cli import main
from rummyai.engine import (
    Draw,
    Judgement,
    Play,
    Rejected,
    apply,
    judge_json,
    judge_play,
    legal_moves,
    new_match,
    validate,
)
from rummyai.engine.game import match_winners
from rummyai.engine.state import GameState, RoundResult, TableMeld
from rummyai.engine.tile_position import play_from_text, position
from rummyai.errors import IllegalMoveError, RummyError
from rummyai.variants import get_variant

from .rule_cases import POINTS, SPADES_2_TO_K, Case, check_case

V = "rhine"
TWOS = {"rhine.wild_twos": True}
CANASTA = {"rhine.canasta_values": True}


def judge(hand: str, table: str, new: str, opened: bool = True, options: object = None) -> Judgement:
    """The judge's verdict on a Rhine play written as card tokens."""
    return judge_play(V, hand.split(), table, new, opened=opened, options=options)


def legal(hand: str, table: str, new: str, opened: bool = True, options: object = None) -> None:
    """Assert the play is legal."""
    verdict = judge(hand, table, new, opened, options)
    assert verdict.legal, verdict.reason


def illegal(rule: str, hand: str, table: str, new: str, opened: bool = True, options: object = None) -> str:
    """Assert the play breaks `rule` with a reason, and return the reason."""
    verdict = judge(hand, table, new, opened, options)
    assert not verdict.legal, f"expected a {rule} violation"
    assert verdict.rule == rule, (verdict.rule, verdict.reason)
    assert verdict.reason
    return verdict.reason


def plays(
    played: str, hand: str, table: str, new: str, opened: bool = True, options: object = None
) -> list[list[str]]:
    """Assert the play is legal and plays exactly `played` (tokens in §7.1 sort order)."""
    verdict = judge_play(V, hand.split(), table, new, opened=opened, options=options)
    assert verdict.legal, (verdict.rule, verdict.reason)
    assert verdict.played == played.split()
    return verdict.new_table


def refused(
    rule: str, words: str, hand: str, table: str, new: str, opened: bool = True, options: object = None
) -> None:
    """Assert the play breaks `rule` and the reason mentions each of `words` (separated by |)."""
    verdict = judge_play(V, hand.split(), table, new, opened=opened, options=options)
    assert not verdict.legal, f"expected a {rule} violation"
    assert verdict.rule == rule, (verdict.rule, verdict.reason)
    assert verdict.reason
    for word in words.split("|"):
        assert word in verdict.reason, (word, verdict.reason)


# ------------------------------------------------------------------ §1.1 parameters
def test_rhine_1_1_deck_deal_and_extra_packs() -> None:
    variant = get_variant(V)
    assert len(variant.deck) == 108 and variant.copies[52] == 4
    state = new_match(V, 3, seed=1)
    assert [len(h) for h in state.round.hands] == [10, 10, 10]
    assert len(state.round.stock) == 108 - 30
    big = get_variant(V, {"extra_packs": 1})
    assert len(big.deck) == 162 and big.max_players == 10
    with pytest.raises(RummyError, match="players"):
        new_match(V, 7, seed=1)


def test_rhine_1_1_first_player_left_of_dealer_and_dealer_rotates() -> None:
    state = new_match(V, 3, seed=4)
    dealer = state.round.dealer
    assert state.round.turn == (dealer + 1) % 3
    # finish round 1 quickly by truncation and look at round 2
    state = new_match(V, 3, seed=4, max_turns=1)
    state = apply(state, Draw())
    assert state.round_index == 1
    assert state.round.dealer == (dealer + 1) % 3
    assert state.round.turn == (dealer + 2) % 3


def test_rhine_1_1_deck_order_and_player_limits() -> None:
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


# ------------------------------------------------------------------ §1.2 turn
def test_rhine_1_2_draw_takes_top_card_and_ends_turn() -> None:
    state = position(V, ["7H 8H", "2C 3C"], "5S 6S 7S", stock="KD QD")
    after = apply(state, Draw())
    hand_kinds = sorted(after.variant.deck[i] for i in after.round.hands[0])
    assert len(hand_kinds) == 3 and parse_card("QD") in hand_kinds  # the top card is last
    assert after.round.turn == 1 and len(after.round.stock) == 1


def test_rhine_1_2_empty_stock_without_play_ends_round() -> None:
    state = position(V, ["7H 8H", "2C 3C"], "5S 6S 7S", stock="")
    after = apply(state, Draw())
    result = after.history[0]
    assert result.reason == "stock_exhausted" and result.winner is None
    assert result.scores == (15, 5)
    # with cards left, a draw does not end the round
    state = position(V, ["7H 8H", "2C 3C"], "5S 6S 7S", stock="KD")
    assert not apply(state, Draw()).history


# ------------------------------------------------------------------ §1.3 melds
def test_rhine_1_3_groups_may_repeat_suits_without_size_cap() -> None:
    legal("QH QS", "QD QC QH", "QD QC QH QH QS")
    illegal("1.5 R2", "QH KH", "QD QC QS", "QD QC QS QH KH")


def test_rhine_1_3_runs_ace_low_or_high_no_wrap() -> None:
    legal("AS 2S 3S", "", "AS 2S 3S")
    legal("QS KS AS", "", "QS KS AS")
    illegal("1.5 R2", "KS AS 2S", "", "KS AS 2S")


def test_rhine_1_3_one_wild_per_meld() -> None:
    legal("3S 4S JK", "", "3S 4S JK")
    illegal("1.5 R2", "3S JK JK", "", "3S JK JK")


def test_rhine_1_3_group_of_duplicates_and_two_naturals_with_joker() -> None:
    plays("QS QS QH QH QD QD QC QC", "QS QH QD QC QS QH QD QC", "", "QS QH QD QC QS QH QD QC")
    plays("5H 5H JK", "5H 5H JK", "", "5H 5H JK")
    refused("1.5 R2", "wild", "5H JK JK", "5S 6S 7S", "5S 6S 7S | 5H JK JK")


def test_rhine_1_3_thirteen_card_run_is_the_longest() -> None:
    full = "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    plays("AH", "AH", "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", full)
    refused("1.5 R2", "run", "JK", full, full + " JK")


# ------------------------------------------------------------------ §1.4 qualifying
def test_rhine_1_4_qualify_with_three_naturals_from_hand() -> None:
    legal("7H 8H 9H", "", "7H 8H 9H", opened=False)
    illegal("1.4", "7H 8H JK", "", "7H 8H JK", opened=False)
    illegal("1.4", "8S", "5S 6S 7S", "5S 6S 7S 8S", opened=False)


def test_rhine_1_4_turn_continues_after_qualifying() -> None:
    # qualify with 7H 8H 9H, then lay off 8S on the table run in the same turn
    legal("7H 8H 9H 8S", "5S 6S 7S", "5S 6S 7S 8S | 7H 8H 9H", opened=False)
    # a lay-off alone does not qualify
    illegal("1.4", "8S 2D", "5S 6S 7S", "5S 6S 7S 8S", opened=False)


def test_rhine_1_4_unqualified_player_may_always_draw() -> None:
    state = position(V, ["7H 8H 9H", "2C 3C"], "", opened=False, stock="KD")
    moves = legal_moves(state)
    assert Draw() in moves and len(moves) >= 2
    assert validate(state, Draw()) is None


def test_rhine_1_4_two_natural_melds_and_a_larger_meld_qualify() -> None:
    plays("3S 3D 3C 7H 8H 9H", "7H 8H 9H 3S 3D 3C", "", "7H 8H 9H | 3S 3D 3C", opened=False)
    plays("7H 8H 9H TH", "7H 8H 9H TH", "", "7H 8H 9H TH", opened=False)


def test_rhine_1_4_qualifying_meld_may_be_merged_with_a_table_meld_in_the_same_turn() -> None:
    # qualify with 7H 8H 9H, then (same turn, §1.5) join it to the table's 4H 5H 6H
    new = plays("7H 8H 9H", "7H 8H 9H", "4H 5H 6H", "4H 5H 6H 7H 8H 9H", opened=False)
    assert new == [["4H", "5H", "6H", "7H", "8H", "9H"]]
    # or spread its cards over table melds
    plays("7H 8H 9H", "7H 8H 9H", "7S 7D 7C | TH JH QH", "7S 7D 7C 7H | 8H 9H TH JH QH", opened=False)
    # without a natural meld from the hand there is no qualifying play
    refused("1.4", "qualifying", "7H 8H", "4H 5H 6H", "4H 5H 6H 7H 8H", opened=False)


def test_rhine_1_4_verdict_does_not_depend_on_the_order_of_the_new_melds() -> None:
    # qualify with TS JS JK=QS (33 points), then rebuild both table melds around it; whether a
    # qualifying set is looked for must not depend on which tied copy assignment fails first
    from itertools import permutations

    melds = ["JK=TS JS QS", "JS JK=QS KS", "TH JK=JH QH", "TS TS TD"]
    options = {"rhine.points_qualify": True}
    verdicts = {
        judge_play(
            V, "TS TS JS QH JK", "JK=TS JS QS KS | JK=T TH TD", " | ".join(order), False, options
        ).legal
        for order in permutations(melds)
    }
    assert verdicts == {True}


def test_rhine_1_4_hand_joker_after_qualifying_follows_r5() -> None:
    # 7H 8H 9H qualifies; TH and the joker are then added to it with a new natural (TH)
    plays("7H 8H 9H TH JK", "7H 8H 9H TH JK", "", "7H 8H 9H TH JK", opened=False)
    # a joker needs a new meld of its own: 3S 3D JK beside the qualifying meld
    plays("3S 3D 7H 8H 9H JK", "7H 8H 9H 3S 3D JK", "", "7H 8H 9H | 3S 3D JK", opened=False)
    # the qualifying set itself holds no wild
    refused("1.4", "natural|no wild", "7H 8H 9H JK", "", "7H 8H 9H JK", opened=False)
    refused("1.4", "natural|no wild", "7H 8H JK", "", "7H 8H JK", opened=False)


def test_rhine_1_4_released_joker_after_qualifying() -> None:
    table = "5S 6S JK 8S"
    # qualify with 7H 8H 9H, replace the joker by 7S, hang it on the qualifying meld with TH
    plays("7S 7H 8H 9H TH", "7H 8H 9H 7S TH", table, "5S 6S 7S 8S | 7H 8H 9H TH JK", opened=False)
    # ... but not on the qualifying meld alone: that meld was already on the table (R5)
    refused("1.5 R5", "7H 8H 9H", "7H 8H 9H 7S", table, "5S 6S 7S 8S | 7H 8H 9H JK", opened=False)


def test_rhine_1_4_unqualified_player_may_not_only_rearrange() -> None:
    refused("1.4", "qualifying", "6C", "3C 4C JK 6C 7C 8C", "3C 4C JK 6C | 6C 7C 8C", opened=False)


def _opening(state: GameState, tokens: str) -> tuple[TableMeld, ...]:
    """The seat on turn's qualifying meld: the first hand copy of each token."""
    hand = list(state.round.hands[state.round.turn])
    deck = state.variant.deck
    ids = []
    for kind in parse_cards(tokens):
        ids.append(next(i for i in hand if deck[i] == kind and i not in ids))
    return (TableMeld(tuple(ids), (None,) * len(ids)),)


def test_rhine_1_4_engine_form_and_down_and_out_after_merging_the_qualifying_meld() -> None:
    # §1.4 engine form (qualifying_melds, final_table); qualifying then going out: -20 (§1.6)
    state = position(V, ["7H 8H 9H", "AC KD"], "4H 5H 6H", opened=False, stock="2S 3S")
    table = play_from_text(state, "4H 5H 6H 7H 8H 9H").table
    play = Play(table, _opening(state, "7H 8H 9H"))
    assert validate(state, play) is None
    after = apply(state, play)
    assert after.history[0].reason == "out"
    assert after.history[0].scores == (-20, 15 + 13)


def test_rhine_1_4_engine_finds_a_qualifying_meld_the_move_does_not_name() -> None:
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


def test_rhine_1_4_qualified_player_lays_off_on_the_next_turn() -> None:
    state = position(V, ["7H 8H 9H TH AS", "AC KD"], "", opened=False, stock="2S 3S 4D")
    state = apply(state, play_from_text(state, "7H 8H 9H"))
    assert state.round.opened == (True, False) and not state.history
    state = apply(state, Draw())  # seat 1
    play = play_from_text(state, "7H 8H 9H TH")
    assert validate(state, play) is None  # a lay-off alone is fine once qualified
    assert len(apply(state, play).round.hands[0]) == 1  # AS left


def test_rhine_1_4_qualifying_reads_the_canonical_copies() -> None:
    # Only an assignment that moves the run's QH into the Q group (replacing its joker) would pass,
    # but the canonical reading keeps each QH with its own meld-mates (§7.1): the group's joker
    # left with no Q replacing it (R4), whatever copies the qualifying 6C 7C 8C are
    refused(
        "1.5 R4",
        "QH QD QC",
        "6C 7C 8C",
        "QH QD QC JK | JH QH KH | 5C 6C 7C",
        "QH QD QC | JH QH KH | 5C 6C 7C JK | 6C 7C 8C",
        opened=False,
    )
    # a Q from the hand replacing the joker, and the joker in a new meld, is legal
    plays(
        "6C 7C 8C 9S 9D QS",
        "6C 7C 8C QS 9S 9D",
        "QH QD QC JK | JH QH KH | 5C 6C 7C",
        "QH QD QC QS | JH QH KH | 5C 6C 7C | 6C 7C 8C | JK 9S 9D",
        opened=False,
    )
    refused(
        "1.5 R4",
        "QH QD QC",
        "6C 7C 8C",
        "QH QD QC JK | 5C 6C 7C",
        "QH QD QC | 5C 6C 7C JK | 6C 7C 8C",
        opened=False,
    )


# ------------------------------------------------------------------ §1.5 R1-R5
def test_rhine_1_5_r1_conservation() -> None:
    legal("8S", "5S 6S 7S", "5S 6S 7S 8S")
    illegal("1.5 R1", "8S", "5S 6S 7S 8S", "5S 6S 7S")  # a table card back to the hand
    illegal("1.5 R1", "", "5S 6S 7S 8S", "5S 6S 7S 8S")  # no hand card
    illegal("1.5 R1", "8S", "5S 6S 7S", "5S 6S 7S 8S 9S")  # a card from nowhere


def test_rhine_1_5_r2_every_final_meld_valid() -> None:
    legal("8C", "3C 4C 5C 6C 7C", "3C 4C 5C | 6C 7C 8C")
    illegal("1.5 R2", "8C", "3C 4C 5C 6C 7C", "3C 4C | 5C 6C 7C 8C")


def test_rhine_1_5_r3_kept_joker_moves_with_a_piece_of_its_meld() -> None:
    # JK=5C stays 5C next to 4C when the run is split by a new 6C
    legal("6C", "3C 4C JK 6C 7C 8C", "3C 4C JK=5C 6C | 6C 7C 8C")
    legal("9C", "3C 4C JK 6C 7C 8C", "3C 4C JK 6C 7C 8C 9C")
    # a joker whose meaning changes is not kept: it is released and needs a 5C (R4)
    illegal("1.5 R4", "9C", "3C 4C JK 6C 7C 8C", "JK=2C 3C 4C | 6C 7C 8C 9C")


def test_rhine_1_5_r4_released_joker_needs_replacement() -> None:
    # seed: 7C JK 9C; replace the joker by 8C, then the joker starts a new meld
    legal("8C TD TS", "7C JK 9C", "7C 8C 9C | TD TS JK")
    # the replacement may come from another meld
    legal("TD TS", "5C 6C 7C JK 9C | 8S 8D 8H 8C", "5C 6C 7C 8C 9C | 8S 8D 8H | TD TS JK")
    # no 8C replaces the joker
    illegal("1.5 R4", "9S 9D TD TS", "5C 6C 7C JK 9C", "5C 6C 7C | 9C 9S 9D | TD TS JK")


def test_rhine_1_5_r5_joker_cannot_join_existing_meld() -> None:
    # seed: 7C JK 9C -> 7C 8C 9C JK=TC JC is legal (JC is new)
    legal("8C JC", "7C JK 9C", "7C 8C 9C JK=TC JC")
    # decision: the same layout without JC is not
    illegal("1.5 R5", "8C", "7C JK 9C", "7C 8C 9C JK=TC")
    # just adding a joker from the hand
    illegal("1.5 R5", "JK", "7C 8C 9C", "7C 8C 9C JK")
    # replacing a table natural with a joker
    illegal("1.5 R5", "JK 9S 9H", "7C 8C 9C", "7C 8C JK | 9C 9S 9H")
    # R5b: a joker may not take the place a natural left in its run, even with a new natural (7S)
    illegal("1.5 R5b", "JK 7S", "3S 4S 5S 6S | 6H 6D 6C", "3S 4S 5S JK=6S 7S | 6H 6D 6C 6S")
    illegal("1.5 R5b", "JK 9C 6S 6H", "5C 6C 7C 8C", "5C JK=6C 7C 8C 9C | 6C 6S 6H")
    # the control: the joker at the run's end, the 6C kept
    legal("JK 9C", "5C 6C 7C 8C", "5C 6C 7C 8C 9C JK=TC")
    illegal("1.5 R5", "JK", "3S 4S 5S 6S | 6H 6D 6C", "3S 4S 5S JK=6S | 6H 6D 6C 6S")


def test_rhine_1_5_r1_table_joker_may_not_go_back_to_the_hand() -> None:
    refused("1.5 R1", "JK|stay", "8C", "7C JK 9C", "7C 8C 9C")


def test_rhine_1_5_r2_hand_joker_and_released_joker_in_one_meld() -> None:
    refused("1.5 R2", "wild", "8C TS JK", "7C JK 9C", "7C 8C 9C | TS JK JK")


def test_rhine_1_5_r3_kept_joker_needs_a_natural_of_its_old_meld() -> None:
    # the joker stays 8C, but in a meld with none of 6C 7C: it is released and needs an 8C
    refused(
        "1.5 R4",
        "8C",
        "9C TC 6S 6D 7S 7D",
        "6C 7C JK",
        "6C 6S 6D | 7C 7S 7D | JK=8C 9C TC",
    )
    plays("9C TC", "9C TC", "6C 7C JK", "6C 7C JK=8C 9C TC")


def test_rhine_1_5_r3_kept_group_joker_moves_with_a_piece() -> None:
    new = plays("9S", "9S", "9S 9H 9D 9C JK", "9S 9H JK | 9D 9C 9S")
    assert ["9S", "9H", "JK=9"] in new


def test_rhine_1_5_r3_group_joker_becoming_a_run_card_is_released() -> None:
    # JK=8 in a group may not turn into 8H of a run without an 8 replacing it (§1.8 9)
    refused("1.5 R4", "8", "7H 9H", "8S 8D 8C JK", "8S 8D 8C | 7H JK 9H")
    plays("6H 7H 8H", "8H 6H 7H", "8S 8D 8C JK", "8S 8D 8C 8H | 6H 7H JK")


def test_rhine_1_5_r4_replacement_sits_with_the_jokers_old_naturals() -> None:
    table = "9S 9H 9C JK | 6D 7D 8D"
    plays("9D QS QH", "9D QS QH", table, "9S 9H 9C 9D | 6D 7D 8D | QS QH JK")
    # the 9D is on the table but not next to 9S 9H 9C
    refused("1.5 R4", "9S 9H 9C", "9D QS QH", table, "9S 9H 9C | 6D 7D 8D 9D | QS QH JK")


def test_rhine_1_5_r4_each_released_joker_needs_its_own_replacement() -> None:
    table = "7C JK 9C | 7C JK 9C"
    rest = "7S 7D 9S 9D TS TD 5H 5D"
    refused(
        "1.5 R4",
        "8C",
        "8C " + rest,
        table,
        "7C 8C 9C | 7S 7D 7C | 9S 9D 9C | TS TD JK | 5H 5D JK",
    )
    plays(
        "5H 5D 8C 8C TS TD",
        "8C 8C TS TD 5H 5D",
        table,
        "7C 8C 9C | 7C 8C 9C | TS TD JK | 5H 5D JK",
    )


def test_rhine_1_5_r5_released_joker_may_not_join_an_existing_meld() -> None:
    table = "7C JK 9C | 5S 5H 5D"
    refused("1.5 R5", "5S 5H 5D", "8C", table, "7C 8C 9C | 5S 5H 5D JK")
    plays("5C 8C", "8C 5C", table, "7C 8C 9C | 5S 5H 5D 5C JK")


def test_rhine_1_5_r5_replacements_do_not_count_as_new_naturals() -> None:
    # 8C leaves the group to replace the joker; the group plus the joker is the old group (R5)
    table = "7C JK 9C | 8S 8D 8H 8C"
    refused("1.5 R5", "8S 8D 8H", "6C", table, "6C 7C 8C 9C | 8S 8D 8H JK")
    plays("6C 8D", "6C 8D", table, "6C 7C 8C 9C | 8S 8D 8H 8D JK")


def test_rhine_1_5_r5_joker_with_one_melds_naturals_and_a_hand_natural() -> None:
    plays("8S JK", "JK 8S", "5H 6H 7H 8H", "5H 6H 7H | 8H 8S JK")


def test_rhine_1_5_hand_joker_with_a_natural_taken_from_another_meld() -> None:
    plays("JK", "JK", "5S 5H 5D | 5C 6C 7C 8C", "6C 7C 8C | 5S 5H 5D 5C JK")


def test_rhine_engine_rejects_a_joker_rule_breach_with_its_rule() -> None:
    state = position(V, ["8C", "AC KD"], "7C JK 9C", stock="2S 3S")
    play = play_from_text(state, "7C 8C 9C JK")
    violation = validate(state, play)
    assert violation is not None and violation.rule == "1.5 R5"
    with pytest.raises(IllegalMoveError, match=r"1\.5 R5"):
        apply(state, play)
    assert not any(isinstance(m, Rejected) for m in legal_moves(state))  # no penalty draw in Rhine


# ------------------------------------------------------------------ worked joker examples (§1.5, §1.8)
def test_rhine_worked_joker_examples() -> None:
    legal("3H 3S JK", "", "3H 3S JK")  # table a 3H, 3S and joker
    legal("3H JK", "3S 3D 3C", "3S 3D 3C 3H JK")  # add 3H and joker to three 3s
    # remove 10D from four 10s; joker and 10D go to 6D 7D 8D
    legal("JK", "6D 7D 8D | TS TH TD TC", "6D 7D 8D JK TD | TS TH TC")
    # four queens and a joker: a fifth queen frees the joker for another set
    legal("QS 5H 5C", "QH QD QC QS JK", "QH QD QC QS QS | 5H 5C JK")
    # the freed joker may return as TC with JC
    legal("8C JC", "7C JK 9C", "7C 8C 9C JK JC")
    # 7H JK 9H may not become three 8s
    illegal("1.5 R4", "8S 8D", "7H JK 9H | 7S 7D 7C | 9S 9D 9C", "7S 7D 7C 7H | 9S 9D 9C 9H | 8S 8D JK")


def test_rhine_example_joker_returning_to_its_old_meld() -> None:
    plays("8C JC", "8C JC", "7C JK 9C", "7C 8C 9C JK=TC JC")
    refused("1.5 R5", "7C JK=8C 9C", "8C", "7C JK 9C", "7C 8C 9C JK=TC")
    refused("1.5 R5", "7C JK=8C 9C", "8C", "7C JK 9C", "JK 7C 8C 9C")


def test_rhine_example_three_eights_banned() -> None:
    # §1.8 9: 7H JK 9H may not become three 8s with the 7H and 9H joining other melds
    refused(
        "1.5 R4",
        "8H",
        "8S 8D",
        "7H JK 9H | 7S 7D 7C | 9S 9D 9C",
        "7S 7D 7C 7H | 9S 9D 9C 9H | 8S 8D JK",
    )


def test_rhine_example_split_and_hang_a_joker_on_one_piece() -> None:
    # §1.8 8: counts as "just adding a joker", whichever piece gets it
    for new in ("3H 4H 5H | 6H 7H 8H JK", "3H 4H 5H JK | 6H 7H 8H", "JK 3H 4H 5H | 6H 7H 8H"):
        refused("1.5 R5", "3H 4H 5H 6H 7H 8H", "JK", "3H 4H 5H 6H 7H 8H", new)


def test_rhine_example_new_joker_meld_from_two_melds_but_not_from_one() -> None:
    new = plays("JK", "JK", "5H 6H 7H 8H | 9S 9D 9C 9H", "5H 6H 7H | 8H 9H JK | 9S 9D 9C")
    assert ["8H", "9H", "JK=TH"] in new
    # the same shape with every natural from one start meld
    refused("1.5 R5", "5H 6H 7H 8H 9H", "JK", "5H 6H 7H 8H 9H", "5H 6H 7H | 8H 9H JK")


def test_rhine_example_kept_joker_moves_with_a_piece_of_its_meld() -> None:
    new = plays("6C", "6C", "3C 4C JK 6C 7C 8C", "3C 4C JK 6C | 6C 7C 8C")
    assert ["3C", "4C", "JK=5C", "6C"] in new


def test_rhine_example_replacement_from_hand_or_from_another_meld() -> None:
    plays("8C TS TD", "8C TD TS", "7C JK 9C", "7C 8C 9C | TD TS JK")
    plays("TS TD", "TD TS", "5C 6C 7C JK 9C | 8S 8D 8H 8C", "5C 6C 7C 8C 9C | 8S 8D 8H | TD TS JK")


def test_rhine_example_fifth_queen_frees_the_group_joker() -> None:
    plays("5H 5C QS", "QS 5H 5C", "QH QD QC QS JK", "QH QD QC QS QS | 5H 5C JK")


# ------------------------------------------------------------------ §1.6 end and scoring
def test_rhine_1_6_going_out_scores_zero_others_hand_values() -> None:
    state = position(V, ["8S", "AC KD JK"], "5S 6S 7S", stock="2H 3H")
    after = apply(state, play_from_text(state, "5S 6S 7S 8S"))
    result = after.history[0]
    assert result.reason == "out" and result.winner == 0
    assert result.scores == (0, 15 + 13 + 20)


def test_rhine_1_6_down_and_out_scores_minus_20() -> None:
    state = position(V, ["7H 8H 9H 8S", "AC"], "5S 6S 7S", opened=False, stock="2H")
    after = apply(state, play_from_text(state, "5S 6S 7S 8S | 7H 8H 9H"))
    assert after.history[0].scores == (-20, 15)
    # going out without qualifying in the same turn: 0
    state = position(V, ["8S", "AC"], "5S 6S 7S", opened=[True, False], stock="2H")
    after = apply(state, play_from_text(state, "5S 6S 7S 8S"))
    assert after.history[0].scores == (0, 15)


def test_rhine_1_6_game_is_ten_rounds_lowest_total_wins() -> None:
    state = new_match(V, 2, seed=3, max_turns=1)
    for _ in range(10):
        assert not state.match_over
        state = apply(state, Draw())
    assert state.match_over and len(state.history) == 10
    best = min(state.scores)
    assert state.winners == tuple(s for s, v in enumerate(state.scores) if v == best)


def test_rhine_1_6_going_out_ends_the_round_before_anyone_else_plays() -> None:
    state = position(V, ["8S", "9S TS", "AC"], "5S 6S 7S", stock="2H 3H")
    after = apply(state, play_from_text(state, "5S 6S 7S 8S"))
    result = after.history[0]
    assert result.reason == "out" and result.winner == 0
    assert result.scores == (0, 19, 15)
    assert after.round_index == 1  # the next round is dealt


def test_rhine_1_6_stock_exhaustion_everyone_scores_hand_including_jokers() -> None:
    state = position(V, ["JK 2C", "KH AS"], "5S 6S 7S", stock="")
    after = apply(state, Draw())
    result = after.history[0]
    assert result.reason == "stock_exhausted" and result.winner is None
    assert result.scores == (20 + 2, 13 + 15)


def test_rhine_1_6_down_and_out_needs_qualifying_in_the_same_turn() -> None:
    state = position(V, ["7H 8H 9H 3S 3D 3C", "QS"], "", opened=False, stock="2H")
    after = apply(state, play_from_text(state, "7H 8H 9H | 3S 3D 3C"))
    assert after.history[0].scores == (-20, 12)


def test_rhine_1_6_tied_lowest_totals_share_the_win() -> None:
    variant = get_variant(V)
    history = (RoundResult(None, (0, 0, 0), "stock_exhausted"),) * 10
    assert match_winners(variant, (30, -20, -20), history) == (1, 2)
    assert match_winners(variant, (30, -20, -20), history[:9]) == ()  # 10 rounds are played


@pytest.mark.parametrize(("opened", "score"), [(False, -20), (True, 0)])
def test_rhine_down_and_out_only_when_qualifying_that_turn(opened: bool, score: int) -> None:
    # a table joker may be part of the hand-emptying turn after qualifying in it
    state = position("rhine", ["TS JS QS 4H 5H JK", "JK KD AC"], "6H 7H 8H", opened=opened)
    after = apply(state, play_from_text(state, "TS JS QS | 4H 5H 6H 7H 8H JK"))
    assert after.history[-1].winner == 0
    assert after.history[-1].scores == (score, 20 + 13 + 15)


# ------------------------------------------------------------------ §1.7 options
def test_rhine_1_7_points_qualify() -> None:
    opts = {"rhine.points_qualify": True}
    legal("QH KH AH", "", "QH KH AH", opened=False, options=opts)  # 12+13+15 = 40
    legal("TS TH JK", "", "TS TH JK", opened=False, options=opts)  # joker counts 10
    illegal("1.4", "2S 3S 4S", "", "2S 3S 4S", opened=False, options=opts)
    legal("2S 3S 4S 9D 9C 9H", "", "2S 3S 4S | 9D 9C 9H", opened=False, options=opts)


def test_rhine_1_7_points_qualifying_wild_may_take_another_meaning_once_released() -> None:
    """Qualifying with 3S 4S JK=5S (12) and 5S 6S 7S (18), then merging them with the joker
    released (the second 5S replaces it, R4) and laid as 2S: the final run alone would be worth
    27, but the qualifying melds are counted as laid (§1.4 engine form)."""
    opts = {"rhine.points_qualify": True}
    legal("3S 4S JK 5S 6S 7S", "", "JK=2S 3S 4S 5S 6S 7S", opened=False, options=opts)
    twos = {"rhine.points_qualify": True, "rhine.wild_twos": True}
    legal("3S 4S 2C 5S 6S 7S", "", "2C=2S 3S 4S 5S 6S 7S", opened=False, options=twos)
    illegal("1.4", "3S 4S JK 5S", "", "JK=2S 3S 4S 5S", opened=False, options=opts)  # 14 at most


def test_rhine_1_7_wild_twos() -> None:
    opts = {"rhine.wild_twos": True}
    legal("AS 2H 3S", "", "AS 2H=2S 3S", opened=True, options=opts)
    illegal("1.5 R2", "AS 2S 3S JK", "", "AS 2S 3S JK", options=opts)  # two wilds in one meld
    illegal("1.5 R5", "2D", "5S 6S 7S", "5S 6S 7S 2D", options=opts)  # a wild two follows joker rules
    variant = get_variant(V, opts)
    assert variant.hand_value(variant.deck[1]) == 50


def test_rhine_1_7_canasta_values() -> None:
    variant = get_variant(V, {"rhine.canasta_values": True})
    state = position(variant, ["8S", "AC 7D KD JK"], "5S 6S 7S", stock="2H")
    after = apply(state, play_from_text(state, "5S 6S 7S 8S"))
    assert after.history[0].scores == (0, 20 + 5 + 10 + 50)


def test_rhine_1_7_points_ace_low_counts_15() -> None:
    # §1.8 3: AS counts 15 low as well as high
    plays("AS 2S 3S 4S 5S 6S", "AS 2S 3S 4S 5S 6S", "", "AS 2S 3S 4S 5S 6S", opened=False, options=POINTS)
    refused("1.4", "20|30", "AS 2S 3S", "", "AS 2S 3S", opened=False, options=POINTS)


def test_rhine_1_7_points_stated_joker_meaning_sets_its_value() -> None:
    plays("9S TS JK", "9S TS JK", "", "9S TS JK=JS", opened=False, options=POINTS)  # 30
    refused("1.4", "27", "9S TS JK", "", "JK=8S 9S TS", opened=False, options=POINTS)


def test_rhine_1_7_points_melds_come_from_the_hand_and_the_turn_continues() -> None:
    refused("1.4", "qualifying", "TD", "TS TH TC", "TS TH TC TD", opened=False, options=POINTS)
    plays("TD QH KH JK", "TD QH KH JK", "TS TH TC", "TS TH TC TD | QH KH JK", opened=False, options=POINTS)
    # 33 points of hand cards, then joined to the table run in the same turn
    plays("TH JH QH", "TH JH QH", "7H 8H 9H", "7H 8H 9H TH JH QH", opened=False, options=POINTS)


def test_rhine_1_7_points_with_canasta_values() -> None:
    both = {**POINTS, **CANASTA}
    plays("8S 9S TS", "8S 9S TS", "", "8S 9S TS", opened=False, options=both)  # 10+10+10
    refused("1.4", "27", "8S 9S TS", "", "8S 9S TS", opened=False, options=POINTS)
    plays("2S 3S 4S 5S 6S 7S", "2S 3S 4S 5S 6S 7S", "", "2S 3S 4S 5S 6S 7S", opened=False, options=both)


def test_rhine_1_7_points_wild_two_counts_as_represented() -> None:
    both = {**POINTS, **TWOS}
    plays("2H QS KS", "QS KS 2H", "", "QS KS 2H=AS", opened=False, options=both)  # 12 + 13 + 15
    refused("1.4", "27", "9S TS 2H", "", "9S TS 2H=8S", opened=False, options=both)


def test_rhine_1_7_wild_twos_are_never_natural() -> None:
    new = plays("AS 2S 3S", "AS 2S 3S", "", "AS 2S 3S", options=TWOS)
    assert new == [["AS", "2S=2S", "3S"]]
    refused("1.5 R2", "wild", "2S 2H 2D", "", "2S 2H 2D", options=TWOS)  # no group of twos
    refused("1.5 R2", "wild", "AS 2S JK", "", "AS 2S JK", options=TWOS)
    refused("1.4", "natural", "AS 2S 3S", "", "AS 2S 3S", opened=False, options=TWOS)
    # without the option a 2 is an ordinary card
    plays("2S 2H 2D", "2S 2H 2D", "", "2S 2H 2D")
    plays("AS 2S 3S", "AS 2S 3S", "", "AS 2S 3S", opened=False)


def test_rhine_1_7_wild_two_follows_the_joker_rules() -> None:
    plays("8C TS TD", "8C TD TS", "7C 2S 9C", "7C 8C 9C | TD TS 2S", options=TWOS)
    refused("1.5 R5", "7C 2S=8C 9C", "8C", "7C 2S 9C", "7C 8C 9C 2S=TC", options=TWOS)
    plays("8C JC", "8C JC", "7C 2S 9C", "7C 8C 9C 2S=TC JC", options=TWOS)
    refused("1.5 R4", "8C", "9S 9D TD TS", "5C 6C 7C 2S 9C", "5C 6C 7C | 9C 9S 9D | TD TS 2S", options=TWOS)


@pytest.mark.parametrize(
    "options",
    [
        {"rhine.wild_twos": True, "rhine.canasta_values": True},
        {"rhine.canasta_values": True, "rhine.wild_twos": True},
        ["rhine.canasta_values", "rhine.wild_twos"],
        ["rhine.wild_twos", "rhine.canasta_values"],
    ],
)
def test_rhine_1_7_canasta_values_with_wild_twos_keep_twos_at_50(options: Any) -> None:
    variant = get_variant(V, options)
    values = {t: variant.hand_value(parse_card(t)) for t in ("2C", "3D", "7S", "8H", "KC", "AS", "JK")}
    assert values == {"2C": 50, "3D": 5, "7S": 5, "8H": 10, "KC": 10, "AS": 20, "JK": 50}


def test_rhine_1_7_scores_with_wild_twos_and_canasta_through_the_engine() -> None:
    state = position(get_variant(V, TWOS), ["8S", "2C 9D"], "5S 6S 7S", stock="3H")
    after = apply(state, play_from_text(state, "5S 6S 7S 8S"))
    assert after.history[0].scores == (0, 50 + 9)
    state = position(get_variant(V, CANASTA), ["7H 8H 9H", "2C 9D JK"], "", opened=False, stock="3H")
    after = apply(state, play_from_text(state, "7H 8H 9H"))
    assert after.history[0].scores == (-20, 5 + 10 + 50)


def test_rhine_1_7_extra_packs_add_copies() -> None:
    opts = {"extra_packs": 1}
    plays("8C 8C 8C", "8C 8C 8C", "", "8C 8C 8C", options=opts)
    assert get_variant(V, opts).copies[parse_card("JK")] == 6
    answer = judge_json({"variant": V, "hand": ["8C"] * 3, "table": [], "new_table": [["8C"] * 3]})
    assert "3 copies of 8C" in answer["error"]


def test_rhine_1_7_wild_two_at_the_two_position_is_never_replaced() -> None:
    # a joker meaning 2S needs a natural 2S; under wild twos every 2 is a wild (R4)
    refused("1.5 R4", "2S", "2S QH QD", "AS JK 3S", "AS 2S 3S | QH QD JK", options=TWOS)
    plays("2S QH QD", "2S QH QD", "AS JK 3S", "AS 2S 3S | QH QD JK")  # without the option


def test_rhine_1_7_group_wild_two_released_by_a_natural_of_its_rank() -> None:
    plays("5C QH QD", "5C QH QD", "5S 5H 2C", "5S 5H 5C | QH QD 2C", options=TWOS)
    refused("1.5 R4", "5", "QH QD", "5S 5H 5D 2C", "5S 5H 5D | QH QD 2C", options=TWOS)


# ------------------------------------------------------------------ §1.8 decisions
def test_rhine_1_8_2_ace_not_both_low_and_high() -> None:
    legal("AS", "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS")
    illegal(
        "1.5 R2", "AS AS", "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"
    )


def test_rhine_1_8_3_points_use_hand_values_and_represented_wilds() -> None:
    opts = {"rhine.points_qualify": True}
    legal("AS AH AD", "", "AS AH AD", opened=False, options=opts)  # 45
    illegal("1.4", "JK 2S 3S", "", "JK 2S 3S", opened=False, options=opts)  # JK=AS: 15 + 2 + 3 = 20
    legal("QS KS JK", "", "QS KS JK", opened=False, options=opts)  # JK=AS counts 15, not 20: 40


def test_rhine_1_8_5_group_joker_replaced_by_any_suit() -> None:
    legal("QS 5H 5C", "QH QD JK", "QH QD QS | 5H 5C JK")
    legal("QH 5H 5C", "QH QD JK", "QH QD QH | 5H 5C JK")
    illegal("1.5 R4", "5H 5C", "QH QD QC JK", "QH QD QC | 5H 5C JK")


def test_rhine_1_8_12_cumulative_scores_may_go_negative() -> None:
    state = position(V, ["7H 8H 9H", "AC"], "", opened=False, stock="2H 3H")
    after = apply(state, play_from_text(state, "7H 8H 9H"))
    assert after.scores == (-20, 15) and after.round_index == 1


def test_rhine_1_8_8_new_joker_needs_naturals_from_two_melds() -> None:
    legal("JK", "5H 6H 7H 8H | 9S 9D 9C 9H", "5H 6H 7H | 8H 9H JK | 9S 9D 9C")
    illegal("1.5 R5", "JK", "3H 4H 5H 6H 7H 8H", "3H 4H 5H | 6H 7H 8H JK")


def test_rhine_1_8_9_meaning_change_needs_release() -> None:
    # kept: JK=8H stays 8H when 6H is added
    legal("6H", "7H JK 9H", "6H 7H JK 9H")
    # the rule text's banned move: 7H JK 9H may not turn its joker into an 8 of a group
    # the joker may not become a 9 when no 8H replaces it
    illegal("1.5 R4", "5H 6H", "7H JK 9H | 9S 9D 9C", "5H 6H 7H | JK 9H 9S 9D 9C")


def test_rhine_1_8_11_empty_stock_everyone_scores_hand() -> None:
    state = position(V, ["8S 9D", "AC", "KC"], "5S 6S 7S", stock="")
    after = apply(state, play_from_text(state, "5S 6S 7S 8S"))
    assert not after.history  # a play with an empty stock continues the round
    after = apply(after, Draw())
    result = after.history[0]
    assert result.reason == "stock_exhausted" and result.scores == (9, 15, 13)


def test_rhine_1_8_8_hand_joker_bridging_two_table_melds() -> None:
    # the joker's meld holds naturals of two start melds, so no single start meld covers it (R5)
    new = plays("JK", "JK", "5H 6H 7H | 9H TH JH", "5H 6H 7H JK 9H TH JH")
    assert new == [["5H", "6H", "7H", "JK=8H", "9H", "TH", "JH"]]


def test_rhine_1_8_3_canasta_points_count_wilds_as_represented_never_50() -> None:
    both = {**POINTS, **CANASTA}
    plays("QS KS JK", "QS KS JK", "", "QS KS JK=AS", opened=False, options=both)  # 10 + 10 + 20
    refused("1.4", "15", "5S 6S JK", "", "5S 6S JK=7S", opened=False, options=both)  # not 5 + 5 + 50
    assert get_variant(V, CANASTA).hand_value(parse_card("2D")) == 5  # twos are 5 unless wild


# ------------------------------------------------------------------ §7 notation
def test_rhine_7_1_meaning_forms() -> None:
    assert plays("9D", "9D", "9S 9H JK=9", "9S 9H 9D JK=9C") == [["9S", "9H", "9D", "JK=9C"]]
    # a rank-only meaning in a run takes the run's suit; a natural may state itself
    assert plays("8C JC", "8C JC", "7C JK 9C", "7C 8C 9C JK=T JC") == [["7C", "8C", "9C", "JK=TC", "JC"]]
    plays("8C JC", "8C JC", "7C JK 9C", "7C 8C=8C 9C JK JC")
    refused("1.5 R2", "JK=5H", "8C", "7C JK 9C", "7C 8C 9C JK=5H")


def test_rhine_7_1_played_cards_in_sort_order() -> None:
    verdict = judge_play(V, ["JK", "9H", "3D", "8H", "3S", "7H"], "", "7H 8H 9H | 3S 3D JK", opened=False)
    assert verdict.played == ["3S", "3D", "7H", "8H", "9H", "JK"]


def test_rhine_7_1_runs_may_be_written_in_any_order() -> None:
    assert plays("TC", "TC", "7C 8C 9C", "TC 9C 8C 7C") == [["7C", "8C", "9C", "TC"]]


def test_rhine_7_1_play_from_text_reads_meanings_as_the_judge_does() -> None:
    # a natural stating itself and a rank-only run meaning are read in the one form (§7.1)
    state = position(V, ["8C JC", "AC KD"], "7C JK 9C", opened=True, stock="2S 3S")
    for text in ("7C 8C=8C 9C JK JC", "7C 8C 9C JK=T JC"):
        assert validate(state, play_from_text(state, text)) is None


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
        ({"table": [["7C", "JK", "9C"], []]}, "table meld 2 is empty"),
        ({"new_table": [["7C", "8C", "9C", "JK="]]}, "JK="),
        ({"hand": "8C", "new_table": 7}, "new_table"),
        ({"options": {"rhine.bogus": True}}, "rhine.bogus"),
        ({"variant": "poker"}, "poker"),
        ({"opened": "no"}, "opened"),
    ],
)
def test_rhine_bad_input_gives_an_error_line(change: dict[str, Any], needle: str) -> None:
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
def test_rhine_impossible_new_tables_are_illegal_with_a_reason(
    new_table: list[list[str]], rule: str, needle: str
) -> None:
    answer = judge_json({**BASE, "new_table": new_table})
    assert answer["legal"] is False and answer["rule"] == rule and needle in answer["reason"]


def test_rhine_cli_jsonl_answers_bad_lines_without_traceback(
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


# ------------------------------------------------------------------ written positions and their verdicts
CASES = [
    # ------------------------------------------------------------------ §1.3-§1.4
    Case(
        "r-thirteen-card-qualifying-run",
        "rhine",
        "AS " + SPADES_2_TO_K,
        "",
        "AS " + SPADES_2_TO_K,
        played="AS " + SPADES_2_TO_K,
        opened=False,
    ),
    Case(
        "r-ace-low-and-high-in-one-run",
        "rhine",
        "AS AS " + SPADES_2_TO_K,
        "",
        "AS " + SPADES_2_TO_K + " AS",
        "1.5 R2",
        "repeat a rank",
        opened=False,
    ),
    Case(
        "r-joker-past-a-13-card-run",
        "rhine",
        "JK AS",
        SPADES_2_TO_K,
        "AS " + SPADES_2_TO_K + " JK",
        "1.5 R2",
        "at most 13",
    ),
    Case(
        "r-basic-qualifying-meld-has-no-joker",
        "rhine",
        "7S 8S 9S JK",
        "",
        "7S 8S 9S JK",
        "1.4",
        "3 natural cards and no wild",
        opened=False,
    ),
    Case(
        # §1.4 engine form: qualify with 7S 8S 9S, then TS and the joker join it (R5: TS is new)
        "r-qualify-then-extend-with-a-natural-and-joker",
        "rhine",
        "7S 8S 9S TS JK",
        "",
        "7S 8S 9S TS JK",
        played="7S 8S 9S TS JK",
        opened=False,
    ),
    Case(
        "r-qualifying-meld-is-a-start-meld-for-r5",
        "rhine",
        "7S 8S 9S 7H",
        "5H 6H JK=7H",
        "5H 6H 7H | 7S 8S 9S JK",
        "1.5 R5",
        "7S 8S 9S",
        opened=False,
    ),
    # §1.4 engine form: the qualifying meld joins the start table, so R4 and R5 apply to it
    Case(
        "r-qualifying-group-split-to-free-a-joker",
        "rhine",
        "7H 7S 7D",
        "5H 6H JK=7H",
        "5H 6H 7H | 7S 7D JK",
        "1.5 R5",
        "7S 7H 7D",
        opened=False,
    ),
    Case(
        "r-fourth-seven-frees-the-joker-before-qualifying",
        "rhine",
        "7H 7S 7D 7C",
        "5H 6H JK=7H",
        "5H 6H 7H | 7S 7D 7C JK",
        played="7S 7H 7D 7C",
        opened=False,
    ),
    Case(
        "r-points-joker-as-high-ace-counts-15",
        "rhine",
        "KS AS JK",
        "",
        "JK=QS KS AS",
        played="AS KS JK",
        opened=False,
        options=POINTS,
    ),
    Case(
        "r-points-joker-read-as-low-ace",
        "rhine",
        "2S 3S JK 5H 5D 5C",
        "",
        "2S 3S JK | 5H 5D 5C",
        played="2S 3S 5H 5D 5C JK",
        opened=False,
        options=POINTS,
    ),
    Case(
        "r-points-total-of-all-melds-named",
        "rhine",
        "2S 3S JK 5H 5D 5C",
        "",
        "2S 3S JK=4S | 5H 5D 5C",
        "1.4",
        "worth 24",
        opened=False,
        options=POINTS,
    ),
    Case(
        "r-points-two-natural-melds-short",
        "rhine",
        "2S 3S 4S 5H 5D 5C",
        "",
        "5H 5D 5C | 2S 3S 4S",
        "1.4",
        "worth 24",
        opened=False,
        options=POINTS,
    ),
    # ------------------------------------------------------------------ §1.5 R3-R5
    Case("r-hand-joker-alone-onto-a-meld", "rhine", "JK", "2H 3H 4H", "2H 3H 4H JK", "1.5 R5", "2H 3H 4H"),
    Case("r-hand-joker-with-a-new-natural", "rhine", "JK 5H", "2H 3H 4H", "2H 3H 4H 5H JK", played="5H JK"),
    Case(
        "r-hand-joker-in-the-place-a-natural-left",
        "rhine",
        "JK AS",
        SPADES_2_TO_K,
        "2S 3S 4S 5S 6S | JK=6S 7S 8S 9S TS JS QS KS AS",
        "1.5 R5b",
        "place of a natural",
    ),
    Case(
        "r-hand-joker-on-a-split-piece-without-a-new-natural",
        "rhine",
        "JK AS",
        SPADES_2_TO_K,
        "AS 2S 3S 4S 5S 6S | JK=6S 7S 8S 9S TS JS QS KS",
        "1.5 R5",
        "no new natural",
    ),
    Case(
        "r-released-joker-needs-an-8S",
        "rhine",
        "9D 9H",
        "5S 6S 7S JK=8S",
        "5S 6S 7S | 9D 9H JK",
        "1.5 R4",
        "an 8S",
    ),
    Case("r-kept-group-joker-rank-only", "rhine", "7C", "7S 7H JK=7C", "7S 7H 7C JK", played="7C"),
    # melds split and rejoined: only the end of the turn is judged
    Case(
        "r-kept-joker-meld-takes-the-next-runs-first-card",
        "rhine",
        "9C",
        "3C 4C JK=5C | 6C 7C 8C",
        "3C 4C JK=5C 6C | 7C 8C 9C",
        played="9C",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_rhine_judge_verdict(case: Case) -> None:
    check_case(case)
