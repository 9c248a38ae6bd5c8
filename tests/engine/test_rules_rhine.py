"""Rhine Rummy (VARIANTS.md §1): one test per rule, each with a legal and an illegal case.

Plays are written as card tokens and judged by `judge_play`; round flow and scoring go through
the engine on positions built with `tile_position.position`.
"""

from __future__ import annotations

import pytest

from rummyai.cards import parse_card
from rummyai.engine import Draw, Judgement, apply, judge_play, legal_moves, new_match, validate
from rummyai.engine.tile_position import play_from_text, position
from rummyai.errors import RummyError
from rummyai.variants import get_variant

V = "rhine"


def judge(hand: str, table: str, new: str, opened: bool = True, options: object = None) -> Judgement:
    return judge_play(V, hand.split(), table, new, opened=opened, options=options)


def legal(hand: str, table: str, new: str, opened: bool = True, options: object = None) -> None:
    verdict = judge(hand, table, new, opened, options)
    assert verdict.legal, verdict.reason


def illegal(rule: str, hand: str, table: str, new: str, opened: bool = True, options: object = None) -> str:
    verdict = judge(hand, table, new, opened, options)
    assert not verdict.legal, f"expected a {rule} violation"
    assert verdict.rule == rule, (verdict.rule, verdict.reason)
    assert verdict.reason
    return verdict.reason


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


# ------------------------------------------------------------------ the seed's joker examples
def test_rhine_seed_joker_examples() -> None:
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


# ------------------------------------------------------------------ §1.7 options
def test_rhine_1_7_points_qualify() -> None:
    opts = {"rhine.points_qualify": True}
    legal("QH KH AH", "", "QH KH AH", opened=False, options=opts)  # 12+13+15 = 40
    legal("TS TH JK", "", "TS TH JK", opened=False, options=opts)  # joker counts 10
    illegal("1.4", "2S 3S 4S", "", "2S 3S 4S", opened=False, options=opts)
    legal("2S 3S 4S 9D 9C 9H", "", "2S 3S 4S | 9D 9C 9H", opened=False, options=opts)


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
    # the seed's banned move: 7H JK 9H may not turn its joker into an 8 of a group
    # the joker may not become a 9 when no 8H replaces it
    illegal("1.5 R4", "5H 6H", "7H JK 9H | 9S 9D 9C", "5H 6H 7H | JK 9H 9S 9D 9C")


def test_rhine_1_8_11_empty_stock_everyone_scores_hand() -> None:
    state = position(V, ["8S 9D", "AC", "KC"], "5S 6S 7S", stock="")
    after = apply(state, play_from_text(state, "5S 6S 7S 8S"))
    assert not after.history  # a play with an empty stock continues the round
    after = apply(after, Draw())
    result = after.history[0]
    assert result.reason == "stock_exhausted" and result.scores == (9, 15, 13)
