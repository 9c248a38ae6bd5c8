"""The text judge behind `rummyai validate`: the JSON contract, typed errors, copies and meanings."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummyai.cards import Meaning, card_str
from rummyai.engine import judge_json, judge_play
from rummyai.errors import CardError, DeckError, MeldError, VariantError


def test_contract_examples() -> None:
    position = {
        "variant": "rhine",
        "hand": ["8C", "JC"],
        "table": [["7C", "JK", "9C"]],
        "new_table": [["7C", "8C", "9C", "JK", "JC"]],
        "opened": True,
    }
    assert judge_json(position) == {"legal": True, "played": ["8C", "JC"]}
    position["new_table"] = [["7C", "8C", "9C", "JK"]]
    position["hand"] = ["8C"]
    answer = judge_json(position)
    assert answer["legal"] is False and answer["rule"] == "1.5 R5"
    assert set(answer) == {"legal", "rule", "reason"} and answer["reason"]
    json.dumps(answer)


def test_bad_input_gets_an_error_line() -> None:
    base = {"variant": "rhine", "hand": ["8C"], "table": [], "new_table": [["8C"]]}
    assert "unknown" in judge_json({**base, "hand": ["8X"]})["error"]
    assert "copies" in judge_json({**base, "table": [["JK", "JK", "JK", "JK"]], "hand": ["JK"]})["error"]
    assert "not a valid meld" in judge_json({**base, "table": [["7C", "8H", "9C"]]})["error"]
    assert "missing" in judge_json({"variant": "rhine"})["error"]
    assert "unknown variant" in judge_json({**base, "variant": "poker"})["error"]
    assert "error" in judge_json({**base, "opened": "yes"})


def test_typed_errors() -> None:
    with pytest.raises(CardError, match="8X"):
        judge_play("rhine", ["8X"], "", "")
    with pytest.raises(DeckError, match="JK"):
        judge_play("rummikub", ["JK"], "JK 5S JK", "JK 5S JK JK")
    with pytest.raises(MeldError, match="table meld 2"):
        judge_play("rhine", ["8C"], "5S 6S 7S | 7C 8H 9C", "")
    with pytest.raises(VariantError):
        judge_play("standard", ["8C"], "", "")


def test_new_cards_counted_against_the_deck() -> None:
    with pytest.raises(DeckError, match="3 copies of 8C"):
        judge_play("rummikub", ["8C"], "8S 8D 8C", "8S 8D 8C | 8C 8C 8H")


def test_copies_are_indistinguishable() -> None:
    # two 6C: the canonical reading keeps each 6C with its meld-mates (§7.1), so the joker left
    # '4C JK 6C' for the 5C and simply joined '6C 7C 8C' (R5); the swapped copies would pass
    verdict = judge_play("rhine", ["5C"], "4C JK 6C | 6C 7C 8C", "4C 5C 6C | JK 6C 7C 8C")
    assert not verdict.legal and verdict.rule == "1.5 R5"
    # the same turn with a copy of nothing in common: the same verdict
    verdict = judge_play("rhine", ["5C"], "4C JK 6C | 6D 7D 8D", "4C 5C 6C | JK=5D 6D 7D 8D")
    assert not verdict.legal and verdict.rule == "1.5 R5"
    # a hand copy and a table copy of the same card
    verdict = judge_play("rummy-tiles", ["8C", "9C"], "8C 8D 8H | 5C 6C 7C", "8C 8D 8H | 5C 6C 7C 8C 9C")
    assert verdict.legal and verdict.played == ["8C", "9C"]


def test_unstated_meanings_use_some_fitting_choice() -> None:
    verdict = judge_play("rhine", ["9C"], "3C 4C JK 6C 7C 8C", "JK 3C 4C | 6C 7C 8C 9C")
    assert verdict.legal  # JK=5C written out of order keeps its meaning
    assert ["3C", "4C", "JK=5C"] in verdict.new_table
    # a stated meaning binds
    verdict = judge_play("rhine", ["9C"], "3C 4C JK 6C 7C 8C", "JK=2C 3C 4C | 6C 7C 8C 9C")
    assert not verdict.legal and verdict.rule == "1.5 R4"


def test_stated_table_meaning_is_held() -> None:
    # a group joker stated as a 9 on the table
    verdict = judge_play("rhine", ["9D"], "9S 9H JK=9", "9S 9H 9D JK")
    assert verdict.legal
    verdict = judge_play("rummy-board", ["5C"], "3C 4C JK=5C", "3C 4C 5C JK")
    assert verdict.legal and ["3C", "4C", "5C", "JK=6C"] in verdict.new_table


def test_unopened_player_opening_found_inside_new_table() -> None:
    verdict = judge_play(
        "rhine", ["7H", "8H", "9H", "8S"], "5S 6S 7S", "5S 6S 7S 8S | 7H 8H 9H", opened=False
    )
    assert verdict.legal and verdict.played == ["7H", "8S", "8H", "9H"]
    verdict = judge_play("rummikub", ["TC", "JC", "QC"], "5S 6S 7S", "5S 6S 7S | TC JC QC", opened=False)
    assert verdict.legal
    verdict = judge_play("rummikub", ["TC", "JC", "QC"], "5S 6S 7S", "5S 6S 7S | TC JC QC", opened=True)
    assert verdict.legal


def test_text_inputs_accept_strings() -> None:
    verdict = judge_play("rummikub", "8S 9S", "5S 6S 7S", "5S 6S 7S 8S 9S")
    assert verdict.legal and verdict.to_json() == {"legal": True, "played": ["8S", "9S"]}


@pytest.mark.parametrize("variant", ["rummikub", "rummy-tiles", "rummy-board", "rhine"])
def test_judge_agrees_with_engine_on_selfplay_plays(variant: str) -> None:
    from rummyai.engine import Play, apply, legal_moves, new_match
    from rummyai.engine.tile_rules import meld_text

    rng = np.random.default_rng(7)
    judged = 0
    for seed in range(4):
        state = new_match(variant, 2, seed=seed, options={"rounds": 1} if variant == "rhine" else None)
        while not state.match_over:
            moves = legal_moves(state)
            move = moves[int(rng.integers(len(moves)))]
            if isinstance(move, Play):
                rs = state.round
                deck = state.variant.deck
                hand = [card_str(deck[i]) for i in rs.hands[rs.turn]]
                table = [meld_text(m, deck).split() for m in rs.table]
                new = [meld_text(m, deck).split() for m in move.table]
                verdict = judge_play(variant, hand, table, new, opened=rs.opened[rs.turn])
                assert verdict.legal, (verdict.rule, verdict.reason, table, new)
                judged += 1
            state = apply(state, move)
    assert judged > 20


CASES = [
    ("rhine", "8C JC", "7C JK 9C", "7C 8C 9C JK JC"),
    ("rhine", "8C", "7C JK 9C", "7C 8C 9C JK=TC"),
    ("rhine", "JK", "6D 7D 8D | TS TH TD TC", "6D 7D 8D JK TD | TS TH TC"),
    ("rummy-tiles", "7S QH QD", "5S 6S JK 8S", "5S 6S 7S 8S | QH QD JK"),
    ("rummy-tiles", "TS", "5S 6S JK 8S 9S", "5S 6S JK=7S | 8S 9S TS"),
    ("rummy-board", "6S 4C 5C", "6C 6H 6D", "6S 6H 6D | 4C 5C 6C"),
    ("rummikub", "9D 9H", "5S 6S 7S JK", "5S 6S 7S | 9D 9H JK"),
]


@settings(max_examples=40, deadline=None)
@given(case=st.sampled_from(CASES), data=st.data())
def test_meld_order_and_group_card_order_do_not_matter(
    case: tuple[str, str, str, str], data: st.DataObject
) -> None:
    variant, hand, table, new = case
    expected = judge_play(variant, hand.split(), table, new)
    melds = [m.split() for m in new.split("|")]
    order = data.draw(st.permutations(range(len(melds))))
    shuffled = []
    for k in order:
        meld = melds[k]
        if len({t[0] for t in meld if not t.startswith("JK")}) == 1:  # a group: any card order
            meld = data.draw(st.permutations(meld))
        shuffled.append(list(meld))
    verdict = judge_play(variant, list(reversed(hand.split())), table, shuffled)
    assert (verdict.legal, verdict.rule) == (expected.legal, expected.rule)


def test_unstated_meanings_listed_once_per_reading() -> None:
    from rummyai.cards import parse_table
    from rummyai.engine.judge import _meanings
    from rummyai.variants import get_variant

    rhine = get_variant("rhine")
    # a group wild reads as its rank whatever suit is written; a middle joker has one reading
    assert len(_meanings(rhine, parse_table("9S 9H JK")[0])) == 1
    assert len(_meanings(rhine, parse_table("7C JK 9C")[0])) == 1
    assert [m[2] for m in _meanings(rhine, parse_table("7C 8C JK")[0])][1:] == [Meaning(6, 3)]


def test_many_joker_melds_still_find_the_kept_meaning() -> None:
    # eight wild melds (wild twos); only the first, written joker-first, needs its other reading
    rest = "9S TS JK | 3H 4H JK | JK 4S 5S | 6H 7H 2D | 8S 9S 2H | TC JC 2S | 9D TD 2C"
    table = "5C 6C JK=7C | " + rest + " | KS KH KD"
    new = "JK 5C 6C | " + rest + " | KS KH KD KC"
    verdict = judge_play("rhine", ["KC"], table, new, options={"rhine.wild_twos": True})
    assert verdict.legal, verdict.reason
    assert ["5C", "6C", "JK=7C"] in verdict.new_table


def test_copy_assignment_found_past_many_irrelevant_copies() -> None:
    # The two equal club runs give 2**9 placements of copies that the rules cannot tell apart;
    # the canonical reading keeps each club run whole and each heart run's cards together, so
    # the second heart run's joker, released by the 5H, returns to its meld alone (R5), and with
    # a 9H beside it the turn is legal
    clubs = "3C 4C 5C 6C 7C 8C 9C TC JC"
    table = f"6H 7H JK=5H | 6H 7H JK=5H | {clubs} | {clubs}"
    verdict = judge_play("rhine", ["5H"], table, f"JK=5H 6H 7H | 5H 6H 7H JK=8H | {clubs} | {clubs}")
    assert not verdict.legal and verdict.rule == "1.5 R5"
    new = f"JK=5H 6H 7H | 5H 6H 7H JK=8H 9H | {clubs} | {clubs}"
    verdict = judge_play("rhine", ["5H", "9H"], table, new)
    assert verdict.legal, verdict.reason
    # both jokers changing meaning need two 5H replacements, whatever the copies: R4
    verdict = judge_play("rhine", ["5H"], table, f"6H 7H JK=8H | 5H 6H 7H JK=8H | {clubs} | {clubs}")
    assert not verdict.legal and verdict.rule == "1.5 R4"


def test_replacement_meld_needs_a_copy_of_the_joker_meld() -> None:
    # the released JK=7H needs its 7H next to a 5H or 6H from its own start meld: only the
    # assignment putting those copies into '5H 6H 7H' (not the equal-looking '4H 5H 6H') works,
    # whichever of the two the text lists first
    table = "5H 6H JK=7H | 4H 5H 6H 7H"
    for new in ("4H 5H 6H | 5H 6H 7H | JK 9S 9D", "5H 6H 7H | 4H 5H 6H | JK 9S 9D"):
        verdict = judge_play("rhine", ["9S", "9D"], table, new)
        assert verdict.legal, verdict.reason


@pytest.mark.parametrize(
    "new",
    ["2S JK=3S 4S | AS 2S JK=3S 4S", "AS 2S JK=3S 4S | 2S JK=3S 4S"],
)
def test_official_joker_copies_tried_past_a_joker_rule_violation(new: str) -> None:
    """Rummikub cites §8.2 for invalid melds and for its table-joker rule alike: a copy
    assignment refused by the joker rule (the joker that stood for 3S taken) does not end the
    search, so the other assignment (the 2S joker replaced and moved) is tried and the table is
    legal in either meld order."""
    verdict = judge_play(
        "rummikub", ["2S", "2S", "4S"], "AS JK=2S JK=3S 4S", new, options=["official_jokers"]
    )
    assert verdict.legal, verdict.reason
    assert verdict.played == ["2S", "2S", "4S"]


def test_official_joker_taken_without_replacement_is_rejected() -> None:
    """A joker moved without the rack tile it stands for is refused (§8.2)."""
    verdict = judge_play(
        "rummikub",
        ["2S", "4S"],
        "AS JK=2S JK=3S 4S",
        "AS JK=2S 3S | 2S JK=3S 4S",
        options=["official_jokers"],
    )
    assert not verdict.legal
    assert verdict.rule == "8.2"


@pytest.mark.parametrize("fixed_order", [True, False])
@pytest.mark.parametrize("joker_first", [True, False])
def test_a_released_joker_refusal_names_its_start_meld(fixed_order: bool, joker_first: bool) -> None:
    """Rhine R4: the verdict says which start meld's joker left without a replacement, by its
    place in the table as given (the solver's repair keeps that joker next)."""
    joker_meld, plain = "7S 7H 7D JK=7", "3C 4C 5C"
    table = [joker_meld, plain] if joker_first else [plain, joker_meld]
    refused = judge_play("rhine", "QS QH", table, [plain, "7S 7H 7D", "QS QH JK=Q"], fixed_order=fixed_order)
    assert refused.rule == "1.5 R4"
    assert refused.start_meld == table.index(joker_meld)
    replaced = judge_play(
        "rhine", "QS QH 7C", table, [plain, "7S 7H 7D 7C", "QS QH JK=Q"], fixed_order=fixed_order
    )
    assert replaced.legal and replaced.start_meld is None
    joined = judge_play("rhine", "JK", [plain, "7S 7H 7D"], [plain, "7S 7H 7D JK=7"], fixed_order=fixed_order)
    assert joined.rule == "1.5 R5" and joined.start_meld is None  # a hand joker names no start meld
