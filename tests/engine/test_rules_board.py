"""Board Rummy (docs/rules §3): each rule with its legal and illegal cases, the rule text's
shifting, splitting and substituting examples written as card tokens, and hand-written positions
with the verdict the rule text gives them."""

from __future__ import annotations

import pytest

from rummyai.engine import Draw, apply, judge_play, new_match, validate, view
from rummyai.engine.tile_position import play_from_text, position
from rummyai.errors import IllegalMoveError, RummyError
from rummyai.variants import get_variant

from .rule_cases import HEART_RUN, SPADES_2_TO_K, Case, check_case

V = "rummy-board"


def legal(hand: str, table: str, new: str, opened: bool = True) -> None:
    verdict = judge_play(V, hand.split(), table, new, opened=opened)
    assert verdict.legal, verdict.reason


def illegal(rule: str, hand: str, table: str, new: str, opened: bool = True) -> None:
    verdict = judge_play(V, hand.split(), table, new, opened=opened)
    assert not verdict.legal, f"expected a {rule} violation"
    assert verdict.rule == rule, (verdict.rule, verdict.reason)


# ------------------------------------------------------------------ §3.1 parameters
def test_board_3_1_deck_and_deal() -> None:
    assert len(get_variant(V).deck) == 106
    state = new_match(V, 4, seed=0)
    assert [len(h) for h in state.round.hands] == [18] * 4 and len(state.round.stock) == 106 - 72


def test_board_3_1_players_first_player_one_round() -> None:
    with pytest.raises(RummyError, match="2 to 4 players"):
        new_match(V, 5, seed=0)
    assert len({new_match(V, 2, seed=s).round.turn for s in range(20)}) == 2  # seeded random seat
    state = position(V, ["KS QS", "2C 3C"], "5S 6S 7S", stock="AD")
    assert apply(state, Draw()).match_over  # one round is the whole game


# ------------------------------------------------------------------ §3.2 turn
def test_board_3_2_one_to_twelve_hand_cards_per_turn() -> None:
    twelve = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS"
    legal(twelve, "", twelve)
    illegal("3.2", twelve + " KS", "", twelve + " KS")
    illegal("3.5", "", "5H 6H 7H", "5H 6H 7H")  # no hand card


def test_board_3_2_cap_counts_only_hand_cards() -> None:
    # twelve hand cards and six table cards moved
    legal(
        "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS",
        "8H 8D 8C | 9H 9D 9C",
        "AS 2S 3S 4S 5S 6S 7S | 8S 8H 8D 8C | 9S 9H 9D 9C | TS JS QS",
    )
    # the initial meld obeys the cap too
    hand = "TC JC QC AS 2S 3S 4S 5S 6S 7S 8S 9S TS"
    illegal("3.2", hand, "", "TC JC QC | AS 2S 3S 4S 5S 6S 7S 8S 9S TS", opened=False)
    legal(hand, "", "TC JC QC | AS 2S 3S 4S 5S 6S 7S 8S 9S", opened=False)
    state = position(V, [hand, "2C 3C"], "", opened=False)
    with pytest.raises(IllegalMoveError) as error:
        apply(state, play_from_text(state, "TC JC QC | AS 2S 3S 4S 5S 6S 7S 8S 9S TS"))
    assert error.value.rule == "3.2"


def test_board_3_2_no_invalid_play_penalty() -> None:
    from rummyai.engine import Rejected

    state = position(V, ["7H 8H", "2C 3C"], "5S 6S 7S", stock="AD 2D")
    bad = play_from_text(state, "5S 6S 7S 7H 8H")
    violation = validate(state, Rejected(bad))
    assert violation is not None and violation.rule == "3.2"


# ------------------------------------------------------------------ §3.3 melds
def test_board_3_3_melds_groups_distinct_runs_low_ace_jokers_any_number() -> None:
    legal("7C", "7S 7H 7D", "7S 7H 7D 7C")
    illegal("3.3", "7H", "7S 7H 7D", "7S 7H 7D 7H")
    illegal("3.3", "QS KS AS", "", "QS KS AS")
    legal("JK JK 5S", "", "JK 5S JK")  # any number of jokers, one natural


def test_board_3_3_runs_and_groups_limits() -> None:
    thirteen = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"
    legal("KS", thirteen[:-3], thirteen)
    illegal("3.3", "JK", thirteen, thirteen + " JK")
    illegal("3.3", "KS AS 2S", "", "KS AS 2S")
    illegal("3.3", "JK", "7S 7H 7D 7C", "7S 7H 7D 7C JK")
    illegal("3.3", "JK JK", "7S 7H 7D", "7S 7H 7D JK JK")  # five tiles
    legal("7S 7H JK JK", "", "7S 7H JK JK")  # the jokers take the two missing colours
    legal("7S JK JK", "", "7S JK JK")


# ------------------------------------------------------------------ §3.4 opening
def test_board_3_4_opening_thirty_jokers_count_zero() -> None:
    legal("TC JC QC", "", "TC JC QC", opened=False)  # 33
    illegal("3.4", "TC JC JK", "", "TC JC JK", opened=False)  # 21: the joker counts 0
    legal("TC JC QC JK", "", "TC JC QC JK", opened=False)


def test_board_3_4_opening_builds_on_nothing_on_the_table() -> None:
    legal("TC JC QC", "5S 6S JK", "5S 6S JK | TC JC QC", opened=False)
    illegal("3.4", "TC JC QC 7S", "5S 6S JK", "5S 6S JK 7S | TC JC QC", opened=False)
    # a table joker may not be harvested before the initial meld
    illegal("3.4", "TC JC 7S", "5S 6S JK", "5S 6S 7S | TC JC JK", opened=False)


def test_board_3_4_opening_values() -> None:
    legal("TC JC QC 2S 3S 4S", "", "TC JC QC | 2S 3S 4S", opened=False)  # several melds
    legal("JK 9S JK TC JC QC", "", "JK 9S JK | TC JC QC", opened=False)  # 9 + 33, jokers 0
    illegal("3.4", "TS TH JK", "", "TS TH JK", opened=False)  # 20
    illegal("3.4", "AS 2S 3S 4S 5S 6S 7S", "", "AS 2S 3S 4S 5S 6S 7S", opened=False)  # 28
    # nothing on the table is moved, split or joined that turn
    illegal("3.4", "TC JC QC", "5S 6S 7S | 8S 9S TS", "5S 6S 7S 8S 9S TS | TC JC QC", opened=False)
    illegal("3.4", "TC JC QC", "5S 6S 7S JK=8S", "JK=4S 5S 6S 7S | TC JC QC", opened=False)


def test_board_3_4_public_state_shows_who_opened() -> None:
    state = position(V, ["TC JC QC 2D", "2C 3C"], "", opened=False, stock="AD 5H")
    state = apply(state, play_from_text(state, "TC JC QC"))
    assert view(state, 1)["opened"] == [True, False]


# ------------------------------------------------------------------ §3.5 table manipulation
def test_board_3_5_free_manipulation_table_jokers_need_no_replacement() -> None:
    # a table joker moves to a new meld and a new meaning
    legal("9D 9H", "5S 6S 7S JK", "5S 6S 7S | 9D 9H JK")
    # harvested cards must stay on the table
    illegal("3.5", "8S", "5S 6S 7S JK", "6S 7S 8S JK")


def test_board_3_5_table_joker_into_an_existing_meld_with_a_new_meaning() -> None:
    legal("8S", "5S 6S 7S JK | 9D 9H 9C", "5S 6S 7S 8S | 9D 9H 9C JK")
    legal("4S", "5S 6S 7S JK=8S", "4S 5S 6S 7S JK=3S")  # meaning changed in place, no replacement
    # a table joker never goes to a hand: the play must keep it on the table
    illegal("3.5", "8S", "5S 6S 7S JK", "5S 6S 7S 8S")


# ------------------------------------------------------------------ §3.6 end and scoring
def test_board_3_6_last_draw_ends_game_highest_hand_loses() -> None:
    state = position(V, ["KS QS", "2C 3C"], "5S 6S 7S", stock="AD")
    after = apply(state, Draw())
    result = after.history[0]
    assert result.reason == "last_draw" and after.match_over
    assert result.scores == (-26, -5) and result.winner == 1
    assert after.winners == (1,)


def test_board_3_6_equal_totals_draw_and_going_out() -> None:
    # seat 0 draws the last card (AD): 5 + 1 against 2 + 4, a draw
    state = position(V, ["5S", "2C 4C"], "7S 8S 9S", stock="AD")
    result = apply(state, Draw()).history[0]
    assert result.winner is None and result.scores == (-6, -6)
    state = position(V, ["TS", "3C 4C JK"], "7S 8S 9S", stock="AD")
    result = apply(state, play_from_text(state, "7S 8S 9S TS")).history[0]
    assert result.reason == "out" and result.winner == 0 and result.scores == (0, -32)


def test_board_3_6_joker_in_hand_costs_twenty_five_and_ties_share() -> None:
    state = position(V, ["5S JK", "2C 4C"], "7S 8S 9S", stock="AD", turn=1)
    after = apply(state, Draw())
    assert after.history[0].scores == (-30, -7) and after.winners == (1,)
    # three players: seats 0 and 1 tie for the lowest hand and share the rank
    state = position(V, ["5S", "2C 3C", "KS QS"], "7S 8S 9S", stock="AD", turn=2)
    after = apply(state, Draw())
    result = after.history[0]
    assert result.scores == (-5, -5, -26) and result.winner is None
    assert after.winners == (0, 1) and after.match_over


def test_board_3_6_going_out_ends_the_game_at_once() -> None:
    state = position(V, ["TS", "3C 4C JK", "KD"], "7S 8S 9S", stock="AD 2D")
    after = apply(state, play_from_text(state, "7S 8S 9S TS"))
    assert after.match_over and after.winners == (0,)
    assert after.history[0].scores == (0, -32, -13)


# ------------------------------------------------------------------ worked examples from the rule text
def test_board_worked_examples() -> None:
    # shifting a run: red 3 4 5 + red 6, the 3 is used elsewhere
    legal("6H 3S 3D", "3H 4H 5H", "4H 5H 6H | 3H 3S 3D")
    # splitting a run: blue 6..10 and a new blue 8
    legal("8C", "6C 7C 8C 9C TC", "6C 7C 8C | 8C 9C TC")
    # substituting in a group: green 6 in, the blue 6 out to a run
    legal("6S 4C 5C", "6C 6H 6D", "6S 6H 6D | 4C 5C 6C")
    # removing tiles: an end of a run, one tile of a four-group
    legal(
        "7H 8H 7C 8C",
        "9H TH JH QH | 9S 9D 9C 9H",
        "TH JH QH | 9S 9D 9H | 7H 8H 9H | 7C 8C 9C",
    )
    # joker substitution: a table joker moves to the hand's new meld
    legal("KD KC", "5S 6S 7S JK", "5S 6S 7S | KD KC JK")
    # harvested tiles must be played this turn
    illegal("3.5", "6H", "3H 4H 5H", "4H 5H 6H")


# ------------------------------------------------------------------ written positions and their verdicts
CASES = [
    # ------------------------------------------------------------------ §3
    Case(
        "b-twelve-card-opening",
        "rummy-board",
        "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS",
        "",
        "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS",
        played="AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS",
        opened=False,
    ),
    Case(
        "b-thirteen-card-opening",
        "rummy-board",
        "AS " + SPADES_2_TO_K,
        "",
        "AS " + SPADES_2_TO_K,
        "3.2",
        "13 hand cards|at most 12",
        opened=False,
    ),
    Case(
        "b-opening-jokers-zero-reach-30",
        "rummy-board",
        "TS JS JK 3H 3D 3C",
        "",
        "TS JS JK | 3H 3D 3C",
        played="3H 3D 3C TS JS JK",
        opened=False,
    ),
    Case(
        "b-opening-jokers-zero-short",
        "rummy-board",
        "TS JS JK 2H 2D 2C",
        "",
        "TS JS JK | 2H 2D 2C",
        "3.4",
        "worth 27",
        opened=False,
    ),
    Case(
        "b-opening-joker-run-end-counts-0",
        "rummy-board",
        "JK QS KS",
        "",
        "JK QS KS",
        "3.4",
        "worth 25",
        opened=False,
    ),
    # a group joker means the group's rank (§0, §7.1): writing its suit moves nothing
    Case(
        "b-opening-copies-a-group-joker-by-rank",
        "rummy-board",
        "TS JS QS",
        "7S 7H JK=7D",
        "7S 7H JK | TS JS QS",
        played="TS JS QS",
        opened=False,
    ),
    Case("b-two-jokers-one-natural", "rummy-board", "JK JK 7S", "", "7S JK JK", played="7S JK JK"),
    Case("b-jokers-below-a-king", "rummy-board", "QS", "JK JK KS", "JK JK QS KS", played="QS"),
    Case("b-no-fifth-group-card", "rummy-board", "JK", "7S 7H 7D 7C", "7S 7H 7D 7C JK", "3.3", "at most 4"),
    Case(
        "b-group-jokers-take-missing-colours",
        "rummy-board",
        "JK JK 5S",
        "",
        "JK=5H JK=5H 5S",
        "3.3",
        "not a valid",
    ),
    Case(
        "b-table-jokers-gather-in-a-new-group",
        "rummy-board",
        "9H",
        "7S 8S 9S JK=TS | 3C 4C 5C JK=6C",
        "7S 8S 9S | 9H JK JK | 3C 4C 5C",
        played="9H",
    ),
    Case(
        "b-table-joker-whole-meld-free",
        "rummy-board",
        "7S",
        "5S 6S JK=7S | " + HEART_RUN,
        "5S 6S 7S | JK=7H " + HEART_RUN,
        played="7S",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_board_judge_verdict(case: Case) -> None:
    check_case(case)
