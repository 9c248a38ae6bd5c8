"""Official Rummikub (docs/rules §8): each rule with its legal and illegal cases, and hand-written
positions with the verdict the rule text gives them."""

from __future__ import annotations

import pytest

from rummyai.engine import Draw, apply, judge_play, new_match
from rummyai.engine.tile import apply_or_penalize
from rummyai.engine.tile_position import play_from_text, position
from rummyai.errors import IllegalMoveError, RummyError
from rummyai.variants import get_variant

from .rule_cases import FROM_TABLE, HEART_RUN, OFFICIAL, SPADES_2_TO_K, Case, check_case

V = "rummikub"


def legal(hand: str, table: str, new: str, opened: bool = True, options: object = None) -> None:
    verdict = judge_play(V, hand.split(), table, new, opened=opened, options=options)
    assert verdict.legal, verdict.reason


def illegal(rule: str, hand: str, table: str, new: str, opened: bool = True, options: object = None) -> None:
    verdict = judge_play(V, hand.split(), table, new, opened=opened, options=options)
    assert not verdict.legal, f"expected a {rule} violation"
    assert verdict.rule == rule, (verdict.rule, verdict.reason)


# ------------------------------------------------------------------ §8.1 parameters
def test_rummikub_8_1_parameters() -> None:
    assert len(get_variant(V).deck) == 106
    state = new_match(V, 3, seed=5)
    assert [len(h) for h in state.round.hands] == [14] * 3 and len(state.round.stock) == 106 - 42
    assert len({new_match(V, 3, seed=s).round.turn for s in range(30)}) == 3


def test_rummikub_8_1_players_two_to_four() -> None:
    for n in (2, 4):
        assert new_match(V, n, seed=1).num_players == n
    for n in (1, 5):
        with pytest.raises(RummyError, match="2 to 4 players"):
            new_match(V, n, seed=1)


def test_rummikub_8_1_rounds_highest_cumulative_score_wins() -> None:
    state = new_match(V, 2, seed=3, options={"rounds": 2}, max_turns=2)
    first = state.round.turn
    state = apply(apply(state, Draw()), Draw())
    assert len(state.history) == 1 and not state.match_over
    assert state.round.turn == (first + 1) % 2  # the next round starts one seat on
    state = apply(apply(state, Draw()), Draw())
    assert state.match_over and len(state.history) == 2
    best = max(state.scores)
    assert state.winners == tuple(s for s in range(2) if state.scores[s] == best)
    assert state.scores == tuple(sum(r.scores[s] for r in state.history) for s in range(2))


# ------------------------------------------------------------------ §8.2 turn, melds, opening and jokers
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


def test_rummikub_8_2_draw_ends_the_turn_with_the_top_tile() -> None:
    state = position(V, ["7H 8H", "2C 3C"], "5S 6S 7S", stock="AD 9S")
    after = apply(state, Draw())
    top = state.round.stock[-1]
    assert after.round.turn == 1 and top in after.round.hands[0]
    assert after.round.stock == state.round.stock[:-1] and after.round.table == state.round.table


def test_rummikub_8_2_runs_no_wrap_at_most_thirteen() -> None:
    thirteen = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS"
    legal("KS", thirteen, thirteen + " KS")
    illegal("8.2", "JK", thirteen + " KS", thirteen + " KS JK")
    illegal("8.2", "KS AS 2S", "", "KS AS 2S")  # no wrap
    illegal("8.2", "QS KS JK", "", "QS KS JK=AS")  # the joker cannot be a high ace
    legal("QS KS JK", "", "QS KS JK")  # read as JK=JS QS KS
    illegal("8.2", "5S 6S 6S", "", "5S 6S 6S")
    illegal("8.2", "5S 6H 7S", "", "5S 6H 7S")


def test_rummikub_8_2_groups_at_most_four_jokers_take_missing_colours() -> None:
    legal("JK", "7S 7H 7D", "7S 7H 7D JK")
    illegal("8.2", "JK", "7S 7H 7D 7C", "7S 7H 7D 7C JK")
    illegal("8.2", "JK", "7S 7H 7D", "7S 7H 7D JK=7S")  # a colour already in the group
    legal("7S JK JK", "", "7S JK JK")  # any number of jokers with one natural


def test_rummikub_8_2_opening_values_faces_ace_one_joker_as_represented() -> None:
    legal("TS TH JK", "", "TS TH JK", opened=False)  # 10 + 10 + 10
    illegal("8.2", "9S 9H JK", "", "9S 9H JK", opened=False)  # 27
    legal("JK 9S JK", "", "JK 9S JK", opened=False)  # some reading reaches 30: 9 10 J
    legal("AS AH AD AC 2S 3S 4S 5S 6S 7S", "", "AS AH AD AC | 2S 3S 4S 5S 6S 7S", opened=False)  # 4 + 27
    illegal("8.2", "AS 2S 3S 4S 5S 6S 7S", "", "AS 2S 3S 4S 5S 6S 7S", opened=False)  # 28: the ace is 1
    legal("TC JC QC 2S 3S 4S", "", "TC JC QC | 2S 3S 4S", opened=False)  # extra melds beyond 30


def test_rummikub_8_2_nothing_else_on_the_opening_turn() -> None:
    # splitting or joining table melds, even without adding to them
    illegal("8.2", "TC JC QC", "5S 6S 7S 8S 9S TS", "5S 6S 7S | 8S 9S TS | TC JC QC", opened=False)
    illegal("8.2", "TC JC QC", "5S 6S 7S | 8S 9S TS", "5S 6S 7S 8S 9S TS | TC JC QC", opened=False)
    # a table joker may not move or change meaning before the opening
    illegal("8.2", "TC JC QC", "5S 6S 7S JK=8S", "JK=4S 5S 6S 7S | TC JC QC", opened=False)
    illegal("8.2", "TC JC", "5S 6S 7S JK", "5S 6S 7S | TC JC JK", opened=False)
    # the same table in another written order is untouched
    legal("TC JC QC", "5S 6S 7S | 8H 8D 8C", "8C 8H 8D | 5S 6S 7S | TC JC QC", opened=False)


def test_rummikub_8_2_opening_then_manipulation_from_the_next_turn() -> None:
    state = position(V, ["TC JC QC 8S", "2C 3C 9D"], "5S 6S 7S", opened=False, stock="AD 4H")
    with pytest.raises(IllegalMoveError) as error:
        apply(state, play_from_text(state, "5S 6S 7S 8S | TC JC QC"))
    assert error.value.rule == "8.2"
    state = apply(state, play_from_text(state, "5S 6S 7S | TC JC QC"))
    assert state.round.opened == (True, False)
    state = apply(state, Draw())
    state = apply(state, play_from_text(state, "5S 6S 7S 8S | TC JC QC"))
    assert state.history[0].winner == 0 and state.history[0].reason == "out"


def test_rummikub_8_2_official_joker_needs_its_replacement_tile() -> None:
    # the joker may not change meaning or move without the tile it stands for
    illegal("8.2", "9S QH QD", "5S 6S JK 8S", "5S 6S | JK 8S 9S | QH QD JK", options=OFFICIAL)
    illegal("8.2", "7S", "5S 6S JK 8S", "5S 6S 7S 8S JK", options=OFFICIAL)  # not a new meld
    # a four-group's joker: only the missing colour replaces it (the rack's 8H goes to a run)
    table = "8D 8H 8S JK | 9H TH JH"
    illegal("8.2", "8H 4C 5C", table, "8D 8H 8S | 4C 5C JK | 8H 9H TH JH", options=OFFICIAL)
    legal("8C 4C 5C", table, "8D 8H 8S 8C | 4C 5C JK | 9H TH JH", options=OFFICIAL)
    # a meld with its joker kept may be rearranged freely under this option
    legal("9S", "4S 5S JK 7S 8S", "4S 5S JK | 7S 8S 9S", options=OFFICIAL)


# ------------------------------------------------------------------ §8.3 end and scoring
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


def test_rummikub_8_3_cycle_counts_from_the_empty_pool() -> None:
    # seat 2 draws the last tile: the cycle without play starts only then, and seat 2 passes too
    state = position(V, ["KS QS", "2C 3C", "AD 4H"], "5S 6S 7S", stock="9H 8D 2D")
    state = apply(apply(state, Draw()), Draw())
    state = apply(state, Draw())  # seat 2 draws 9H, the last tile
    assert not state.history and not state.round.stock
    state = apply(apply(state, Draw()), Draw())
    assert not state.history  # seats 0 and 1 passed; seat 2 has not passed yet
    state = apply(state, Draw())
    result = state.history[0]
    assert result.reason == "no_play_cycle" and result.winner == 1
    assert result.scores == (-14, 15, -1)  # totals 27, 13, 14


def test_rummikub_8_3_blocked_ties_fewer_tiles_then_cycle_order() -> None:
    # totals 5, 5, 5: seat 1 holds one tile
    state = position(V, ["2C 3C", "5H", "AD 4H"], "5S 6S 7S", stock="")
    for _ in range(3):
        state = apply(state, Draw())
    assert state.history[0].winner == 1 and state.history[0].scores == (0, 0, 0)
    # totals 5 and 5 with one tile each: the earlier seat in the cycle (it began at seat 1)
    state = position(V, ["5D", "5H", "KC"], "5S 6S 7S", stock="", turn=1)
    for _ in range(3):
        state = apply(state, Draw())
    result = state.history[0]
    assert result.winner == 1 and result.scores == (0, 8, -8)


def test_rummikub_8_3_joker_left_in_rack_costs_thirty() -> None:
    state = position(V, ["8S", "JK", "JK 2C"], "5S 6S 7S", stock="2H")
    result = apply(state, play_from_text(state, "5S 6S 7S 8S")).history[0]
    assert result.scores == (62, -30, -32)


# ------------------------------------------------------------------ written positions and their verdicts
CASES = [
    # ------------------------------------------------------------------ §8.2 melds
    Case("k-joker-below-a-2-to-K-run", "rummikub", "JK", SPADES_2_TO_K, "JK " + SPADES_2_TO_K, played="JK"),
    Case(
        "k-no-fourteenth-tile",
        "rummikub",
        "JK",
        "AS " + SPADES_2_TO_K,
        "AS " + SPADES_2_TO_K + " JK",
        "8.2",
        "at most 13",
    ),
    Case("k-two-jokers-below-the-king", "rummikub", "KS", "JK JK QS", "JK JK QS KS", played="KS"),
    Case("k-no-fifth-group-tile", "rummikub", "JK", "7S 7H 7D 7C", "7S 7H 7D 7C JK", "8.2", "at most 4"),
    Case("k-two-jokers-in-a-group", "rummikub", "JK", "7S 7H JK", "7S 7H JK JK", played="JK"),
    Case("k-ace-never-above-king", "rummikub", "AS", "JS QS KS", "JS QS KS AS", "8.2", "low only"),
    # ------------------------------------------------------------------ §8.2 opening
    Case(
        "k-opening-joker-read-as-4S-makes-30",
        "rummikub",
        "JK 2S 3S 7H 7D 7C",
        "",
        "JK 2S 3S | 7H 7D 7C",
        played="2S 3S 7H 7D 7C JK",
        opened=False,
    ),
    Case(
        "k-opening-joker-stated-as-ace-makes-27",
        "rummikub",
        "JK 2S 3S 7H 7D 7C",
        "",
        "JK=AS 2S 3S | 7H 7D 7C",
        "8.2",
        "worth 27|30",
        opened=False,
    ),
    Case(
        "k-opening-two-jokers-read-above-the-five",
        "rummikub",
        "5S JK JK 4H 4D 4C",
        "",
        "JK JK 5S | 4H 4D 4C",
        played="4H 4D 4C 5S JK JK",
        opened=False,
    ),
    Case(
        "k-opening-two-jokers-stated-below-the-five",
        "rummikub",
        "5S JK JK 4H 4D 4C",
        "",
        "JK=3S JK=4S 5S | 4H 4D 4C",
        "8.2",
        "worth 24",
        opened=False,
    ),
    Case(
        "k-opening-joker-below-queen-king",
        "rummikub",
        "QS KS JK",
        "",
        "JK QS KS",
        played="QS KS JK",
        opened=False,
    ),
    Case(
        "k-opening-group-joker-counts-9",
        "rummikub",
        "9S 9H JK",
        "",
        "9S 9H JK",
        "8.2",
        "worth 27",
        opened=False,
    ),
    Case(
        "k-no-joker-harvest-on-the-opening-turn",
        "rummikub",
        "8S 9D TD",
        "5S 6S 7S JK=8S",
        "5S 6S 7S 8S | 9D TD JK",
        "8.2",
        "only new melds from hand",
        opened=False,
        options=OFFICIAL,
    ),
    # ------------------------------------------------------------------ §8.2 table jokers
    Case(
        "k-free-joker-joins-a-whole-meld",
        "rummikub",
        "7S",
        "5S 6S JK=7S | " + HEART_RUN,
        "5S 6S 7S | JK=7H " + HEART_RUN,
        played="7S",
    ),
    Case(
        "k-official-taken-joker-not-into-a-whole-old-meld",
        "rummikub",
        "7S",
        "5S 6S JK=7S | " + HEART_RUN,
        "5S 6S 7S | JK=7H " + HEART_RUN,
        "8.2",
        "new meld",
        options=OFFICIAL,
    ),
    Case(
        "k-official-taken-joker-into-a-new-meld-of-table-tiles",
        "rummikub",
        "7S",
        "5S 6S JK=7S | " + HEART_RUN,
        "5S 6S 7S | 8H 9H JK=TH | TH JH QH KH",
        played="7S",
        options=OFFICIAL,
    ),
    Case(
        "k-official-meaning-change-in-place",
        "rummikub",
        "4S",
        "5S 6S 7S JK=8S",
        "JK=3S 4S 5S 6S 7S",
        "8.2",
        "an 8S from the rack",
        options=OFFICIAL,
    ),
    Case(
        "k-free-meaning-change-in-place", "rummikub", "4S", "5S 6S 7S JK=8S", "JK=3S 4S 5S 6S 7S", played="4S"
    ),
    Case(
        "k-official-group-replacement-of-a-present-colour",
        "rummikub",
        "8S 9S TS",
        "8S 8D JK=8 | 8H 9H TH JH",
        "8S 8D 8H | 9H TH JH | 8S 9S TS JK",
        "8.2",
        "missing from the group (H or C)|from the rack",
        options=OFFICIAL,
    ),
    Case(
        "k-rack-or-table-group-replacement-from-a-run",
        "rummikub",
        "8S 9S TS",
        "8S 8D JK=8 | 8H 9H TH JH",
        "8S 8D 8H | 9H TH JH | 8S 9S TS JK",
        played="8S 9S TS",
        options=FROM_TABLE,
    ),
    Case(
        "k-official-one-of-two-jokers-taken",
        "rummikub",
        "5S 9D TD",
        "JK=5S JK=6S 7S",
        "5S JK=6S 7S | 9D TD JK",
        played="5S 9D TD",
        options=OFFICIAL,
    ),
    Case(
        "k-official-joker-meld-split-keeping-the-joker",
        "rummikub",
        "9S",
        "3S 4S JK=5S 6S 7S 8S",
        "3S 4S JK=5S | 6S 7S 8S 9S",
        played="9S",
        options=OFFICIAL,
    ),
    Case(
        "k-official-second-joker-needs-its-own-tile",
        "rummikub",
        "9D TD",
        "JK=5S JK=6S 7S 8S",
        "JK=6S 7S 8S | 9D TD JK",
        "8.2",
        "5S from the rack",
        options=OFFICIAL,
    ),
    # a group joker means the group's rank (§0, §7.1): writing its suit moves nothing
    Case(
        "k-opening-copies-a-group-joker-with-the-other-suit",
        "rummikub",
        "TS JS QS",
        "7S 7H JK=7D",
        "7S 7H JK=7C | TS JS QS",
        played="TS JS QS",
        opened=False,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_rummikub_judge_verdict(case: Case) -> None:
    check_case(case)
