"""Meld validity and wild meanings for all seven variants, with the seeds' single-meld examples."""

from __future__ import annotations

import pytest

from rummyai.cards import Meaning, parse_card, parse_meld
from rummyai.errors import CardError, MeldError, RummyError
from rummyai.melds import (
    MeldInfo,
    analyze_meld,
    analyze_meld_uncached,
    card_count,
    is_valid_meld,
    may_open_with,
    opening_problem,
    opening_value,
    played_value,
)
from rummyai.variants import Variant, get_variant

ALL = ["rummikub", "rhine", "rummy-tiles", "rummy-board", "rummy-palace", "standard", "black-heart"]
JOKER_VARIANTS = ["rummikub", "rhine", "rummy-tiles", "rummy-board", "rummy-palace"]


def meld(variant: str | Variant, text: str) -> MeldInfo:
    return analyze_meld(variant if isinstance(variant, Variant) else get_variant(variant), text)


def written(variant: str | Variant, text: str) -> str:
    """The resolved meld as text: order and meanings."""
    return str(meld(variant, text))


def error(variant: str | Variant, text: str) -> str:
    with pytest.raises(MeldError) as caught:
        meld(variant, text)
    return str(caught.value)


def value(variant: str | Variant, text: str) -> int:
    v = variant if isinstance(variant, Variant) else get_variant(variant)
    return opening_value(v, analyze_meld(v, text))


# ============================================================================ shared rules (§0)
@pytest.mark.parametrize("variant_id", ALL)
def test_a_meld_needs_three_core_cards(variant_id: str) -> None:
    assert "needs at least 3" in error(variant_id, "7S 8S")
    assert meld(variant_id, "7S 8S 9S").kind == "run"
    assert meld(variant_id, "9S 9C 9D" if variant_id != "black-heart" else "9S 9C 9H").kind == "group"


@pytest.mark.parametrize("variant_id", ALL)
def test_runs_are_one_suit_consecutive_ranks_and_groups_one_rank(variant_id: str) -> None:
    assert "do not make consecutive" in error(variant_id, "7S 8S TS")
    assert "neither a rank nor a suit" in error(variant_id, "7S 8C 9S")
    repeat = error(variant_id, "7S 7S 8S")
    assert "repeat a rank" in repeat or "2 copies of 7S" in repeat
    info = meld(variant_id, "9S 7S 8S")
    assert written(variant_id, "9S 7S 8S") == "7S 8S 9S", "runs are put in rank order"
    assert info.positions == (7, 8, 9) and info.suit == 0 and info.naturals == 3


@pytest.mark.parametrize("variant_id", ALL)
def test_a_run_holds_each_rank_once_so_at_most_13_cards(variant_id: str) -> None:
    v = get_variant(variant_id)
    escort = iter(["AH", "2H", "3H", "4H", "5H", "6H"]) if v.escorts else None

    def card(rank: str) -> str:
        return f"{rank}C/{next(escort)}" if escort and rank in "JQK" else f"{rank}C"

    full = " ".join(card(r) for r in "A23456789TJQK")
    assert meld(v, full).positions == tuple(range(1, 14))
    rule = v.run_rules[3]
    assert rule is not None
    if rule.ace_high:
        escort = iter(["AH", "2H", "3H", "4H", "5H", "6H"]) if v.escorts else None
        high = " ".join(card(r) for r in "23456789TJQKA")
        assert meld(v, high).positions == tuple(range(2, 15))
    too_long = error(v, full + " AC")
    assert "repeat a rank" in too_long or "copies of AC" in too_long


@pytest.mark.parametrize("variant_id", ALL)
def test_a_card_that_is_not_wild_cannot_carry_another_meaning(variant_id: str) -> None:
    assert "7H is not wild in" in error(variant_id, "7H=8H 8S 9S")
    assert written(variant_id, "7H=7H 8H 9H") == "7H 8H 9H", "a card may be said to mean itself"


@pytest.mark.parametrize("variant_id", ALL)
def test_cards_the_deck_does_not_hold_are_rejected(variant_id: str) -> None:
    v = get_variant(variant_id)
    too_many = max(3, v.copies[parse_card("7H")] + 1)
    held = v.copies[parse_card("7H")]
    text = " ".join(["7H"] * too_many)
    assert f"{too_many} copies of 7H in '{text}' but the {variant_id} deck holds {held}" in error(v, text)


def test_meld_input_forms_are_equivalent() -> None:
    rummikub = get_variant("rummikub")
    by_text = analyze_meld(rummikub, "7h, 8h JK")
    assert analyze_meld(rummikub, ["7H", "8H", "JK"]) == by_text
    assert analyze_meld(rummikub, [parse_card(t) for t in ("7H", "8H", "JK")]) == by_text
    assert analyze_meld(rummikub, parse_meld("7H 8H JK")) == by_text
    assert analyze_meld_uncached(rummikub, "7H 8H JK") == by_text
    with pytest.raises(CardError, match="53"):
        analyze_meld(rummikub, [1, 2, 53])
    with pytest.raises(CardError, match="unknown suit"):
        analyze_meld(rummikub, "7H 8H 9X")


def test_the_cache_returns_the_same_answer_and_fresh_errors() -> None:
    rhine = get_variant("rhine")
    assert analyze_meld(rhine, "7C JK 9C") is analyze_meld(rhine, "7C JK 9C")
    first = second = None
    try:
        analyze_meld(rhine, "7C JK JK")
    except MeldError as e:
        first = e
    try:
        analyze_meld(rhine, "7C JK JK")
    except MeldError as e:
        second = e
    assert first is not None and second is not None and first is not second
    assert str(first) == str(second)
    assert isinstance(first, RummyError)
    assert not is_valid_meld(rhine, "7C JK JK") and is_valid_meld(rhine, "7C JK 9C")


# ============================================================================ wild meanings
@pytest.mark.parametrize("variant_id", JOKER_VARIANTS)
def test_unstated_run_wilds_follow_the_written_order(variant_id: str) -> None:
    assert written(variant_id, "JK 5H 6H") == "JK=4H 5H 6H"
    assert written(variant_id, "5H 6H JK") == "5H 6H JK=7H"
    assert written(variant_id, "5H JK 7H") == "5H JK=6H 7H"
    assert written(variant_id, "7H JK 5H") == "5H JK=6H 7H", "not a run as written: naturals at their ranks"


@pytest.mark.parametrize("variant_id", JOKER_VARIANTS)
def test_stated_meanings_are_binding(variant_id: str) -> None:
    assert written(variant_id, "5H 6H JK=4H") == "JK=4H 5H 6H"
    assert written(variant_id, "JK=7H 5H 6H") == "5H 6H JK=7H"
    assert "cannot stand in a run of hearts" in error(variant_id, "5H 6H JK=7S")
    assert "repeats a rank" in error(variant_id, "5H 6H JK=6H")
    assert "cannot stand in a group of 9s" in error(variant_id, "9S 9H JK=8")
    info = meld(variant_id, "9S 9H JK=9")
    assert info.kind == "group" and info.slots[2].meaning == Meaning(9)


def test_a_meld_of_one_rank_is_judged_as_a_group() -> None:
    """Wilds stated at the naturals' rank mean a group: the reason names the group's problem
    (the suit is taken), not that a wild cannot stand in a run."""
    reason = error("rummikub", "JK=5H JK=5H 5S")
    assert "group of 5s" in reason and "run" not in reason


@pytest.mark.parametrize("variant_id", ["rummikub", "rummy-tiles", "rummy-board", "rummy-palace"])
def test_group_wilds_take_missing_suits_only(variant_id: str) -> None:
    three = meld(variant_id, "4C 4S JK")
    assert three.kind == "group" and three.slots[2].meaning == Meaning(4), "either missing suit"
    assert meld(variant_id, "4C 4S 4H JK").slots[3].meaning == Meaning(4)
    assert written(variant_id, "4C 4S JK=4D") == "4C 4S JK=4D", "a stated missing suit is kept"
    assert "no free suit" in error(variant_id, "4C 4S JK=4C")
    assert "at most 4" in error(variant_id, "4C 4S 4H 4D JK")
    assert "repeat a suit" in error(variant_id, "4C 4C 4H")
    assert "repeat a suit" in error(variant_id, "4C 4C JK"), "the group's problem, not the run's"


# ============================================================================ rhine (§1.3)
def test_rhine_groups_repeat_suits_without_a_cap() -> None:
    # seed 000: "4 Queens and a JOKER" lose their joker when a fifth queen is added
    four_and_joker = meld("rhine", "QS QH QD QC JK")
    assert four_and_joker.kind == "group" and four_and_joker.wild_count == 1
    five_and_joker = meld("rhine", "QS QH QD QC JK QS")
    assert five_and_joker.kind == "group" and five_and_joker.naturals == 5
    assert meld("rhine", "QS QH QD QC QS QH").naturals == 6
    assert meld("rhine", "QS QS QH").kind == "group"


def test_rhine_joker_examples_from_seed_000() -> None:
    assert written("rhine", "3S 4S JK") == "3S 4S JK=5S"
    assert written("rhine", "7C JK 9C") == "7C JK=8C 9C"
    # "It could even be returned to the original set to represent the 10♣ and you could add the J♣"
    assert written("rhine", "7C 8C 9C JK=TC JC") == "7C 8C 9C JK=TC JC"
    assert written("rhine", "7C 8C 9C JK JC") == "7C 8C 9C JK=TC JC"
    assert written("rhine", "3H 3S JK") == "3H 3S JK=3"
    assert written("rhine", "TS TH TD TC JK=T") == "TS TH TD TC JK=T"


def test_rhine_allows_one_wild_per_meld() -> None:
    assert "at most 1 wild" in error("rhine", "7C JK JK")
    assert "at most 1 wild" in error("rhine", "7C 8C JK JK")
    assert "at most 1 wild" in error("rhine", "7C 7H JK JK")


def test_rhine_ace_low_or_high_never_wrapping() -> None:
    assert meld("rhine", "AH 2H 3H").positions == (1, 2, 3)
    assert meld("rhine", "JH QH KH AH").positions == (11, 12, 13, 14)
    assert "wrap" in error("rhine", "KH AH 2H")
    assert "wrap" in error("rhine", "QH KH AH 2H")


def test_rhine_wild_twos_count_toward_the_limit_and_are_never_natural() -> None:
    rhine = get_variant("rhine", {"rhine.wild_twos": True})
    a23 = meld(rhine, "AH 2H 3H")
    assert a23.as_wild == (False, True, False), "the 2 in A-2-3 is a wild standing at the 2 position"
    assert str(a23) == "AH 2H=2H 3H"
    assert written(rhine, "5H 5D 2C=5S") == "5H 5D 2C=5S"
    assert written(rhine, "7C 2S 9C") == "7C 2S=8C 9C"
    assert "at most 1 wild" in error(rhine, "5S 5H 2C JK")
    assert "at most 1 wild" in error(rhine, "AH 2H 3H JK")
    assert "at most 1 wild" in error(rhine, "2C 2D 2H"), "a group of twos cannot exist"
    assert "natural" in error(rhine, "2C 2D 2H 2S 2C") or "wild" in error(rhine, "2C 2D 2H 2S 2C")
    assert not get_variant("rhine").is_wild(parse_card("2C"))
    assert meld("rhine", "2C 2D 2H").naturals == 3, "without the option twos are natural"


def test_rhine_opening_is_three_naturals_without_wilds() -> None:
    rhine = get_variant("rhine")
    assert may_open_with(rhine, meld(rhine, "7C 8C 9C"))
    assert may_open_with(rhine, meld(rhine, "7C 7S 7C 7H"))
    problem = opening_problem(rhine, meld(rhine, "7C JK 9C"))
    assert problem is not None and "wilds may not" in problem
    twos = get_variant("rhine", {"rhine.wild_twos": True})
    assert not may_open_with(twos, meld(twos, "AH 2H 3H")), "no wild two in the qualifying set"


def test_rhine_points_qualify_values_use_the_hand_table() -> None:
    rhine = get_variant("rhine", {"rhine.points_qualify": True})
    assert value(rhine, "QH KH AH") == 12 + 13 + 15
    assert value(rhine, "AH 2H 3H") == 15 + 2 + 3, "aces count 15 whether low or high"
    assert value(rhine, "AS AH JK") == 45, "a joker counts as the ace it stands for"
    assert value(rhine, "JK=AH 2H 3H") == 20
    assert value(rhine, "9S 9H JK") == 27
    assert may_open_with(rhine, meld(rhine, "9S 9H JK"))
    canasta = rhine.with_options({"rhine.canasta_values": True})
    assert value(canasta, "AH 2H 3H") == 20 + 5 + 5
    assert value(canasta, "8H 9H JK") == 30
    both = canasta.with_options({"rhine.wild_twos": True})
    assert value(both, "AS 2C 3S") == 20 + 5 + 5, "a wild two counts as represented, not 50"
    assert value(rhine.with_options({"rhine.wild_twos": True}), "AS 2C 3S") == 15 + 2 + 3


# ============================================================================ rummy-tiles (§2.3)
def test_tiles_ace_is_always_low() -> None:
    assert meld("rummy-tiles", "AH 2H 3H").positions == (1, 2, 3)
    assert "ace is low only" in error("rummy-tiles", "QH KH AH")
    assert "may not wrap around from K to A to 2" in error("rummy-tiles", "KH AH 2H")
    assert written("rummy-tiles", "JK QH KH") == "JK=JH QH KH"
    assert "ace is low only" in error("rummy-tiles", "QH KH JK=AH")


def test_tiles_one_joker_per_meld_and_none_in_openings() -> None:
    tiles = get_variant("rummy-tiles")
    assert "at most 1 wild" in error(tiles, "7H JK JK")
    info = meld(tiles, "7S 7H JK")
    assert not may_open_with(tiles, info)
    assert may_open_with(tiles, meld(tiles, "TH JH QH"))
    assert value(tiles, "TH JH QH") == 33
    assert value(tiles, "AS AH AD") == 3, "A=1 in tile openings"


# ============================================================================ rummy-board (§3.3)
def test_board_any_number_of_jokers_with_a_natural() -> None:
    board = get_variant("rummy-board")
    assert written(board, "JK 5H JK") == "JK=4H 5H JK=6H"
    assert written(board, "JK JK 5H") == "JK=3H JK=4H 5H"
    assert meld(board, "5H 5S JK JK").kind == "group"
    assert "3 copies of JK" in error(board, "JK JK JK")
    assert value(board, "JK JK 5H") == 5, "jokers count 0 in the initial meld"
    assert value(board, "JK TH JK") == 10
    assert may_open_with(board, meld(board, "JK TH JK"))


def test_rummikub_jokers_count_as_represented() -> None:
    rummikub = get_variant("rummikub")
    assert value(rummikub, "JK JK 5H") == 3 + 4 + 5
    assert value(rummikub, "TS TH JK") == 30
    assert "ace is low only" in error(rummikub, "QH KH AH")
    assert "ace is low only" in error(rummikub, "AH JK KH")  # JK=QH, the ace above the king


@pytest.mark.parametrize("cards", ["AS 3S 4S", "AS 2S 4S", "AS 4S 5S JK"])
def test_a_run_with_a_gap_is_not_blamed_on_the_ace(cards: str) -> None:
    # no reading of the ace, low or high, makes these consecutive: a card is missing
    assert error("rummikub", cards).endswith("its cards do not make consecutive ranks of one suit")


# ============================================================================ rummy-palace (§4.3)
def test_palace_jokers_may_not_outnumber_naturals() -> None:
    assert written("rummy-palace", "JH QH JK AH") == "JH QH JK=KH AH"  # seed: "Jack-Queen-Joker-Ace"
    assert written("rummy-palace", "9H JK JK QH") == "9H JK=TH JK=JH QH"  # seed: two jokers in a run
    group = meld("rummy-palace", "3H 3D JK JK")  # seed: "3♥-3♦-Joker-Joker"
    assert group.kind == "group" and group.wild_count == 2
    assert written("rummy-palace", "4C 4S JK") == "4C 4S JK=4"  # seed: either missing 4
    assert "outnumber" in error("rummy-palace", "JK JK 5H")
    assert "outnumber" in error("rummy-palace", "5H JK JK 8H JK")


def test_palace_meld_values_for_the_first_meld() -> None:
    palace = get_variant("rummy-palace")
    assert value(palace, "JH QH JK AH") == 10 + 10 + 10 + 11, "the joker counts as the king"
    assert value(palace, "AS AH AD") == 33, "seed: a set of aces is worth 33"
    assert value(palace, "AH 2H 3H") == 1 + 2 + 3
    assert value(palace, "QH KH AH") == 31
    assert value(palace, "JK AH 2H") == 6
    assert value(palace, "JK QH KH") == 30
    assert value(palace, "QH KH JK") == 31, "a joker after a king is the high ace, 11"
    assert value(palace, "TH JH QH KH") == 40
    assert value(palace, "7H 8H 9H TH JH") == 44
    assert value(palace, "3H 3D JK JK") == 12


def test_palace_no_wrap_unless_cyclic_laying() -> None:
    assert "wrap" in error("rummy-palace", "KH AH 2H")
    cyclic = get_variant("rummy-palace", {"cyclic_laying": True})
    assert meld(cyclic, "KH AH 2H").positions == (13, 14, 2)
    assert value(cyclic, "KH AH 2H") == 10 + 11 + 2, "an ace after a king is worth 11"
    assert value(cyclic, "QS KS AS 2S") == 33
    assert value(cyclic, "AS 2S 3S") == 6
    assert value(cyclic, "JK AS 2S") == 10 + 11 + 2, "the joker takes the king's place (written order)"
    assert "at most 13" in error(cyclic, "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS JK")


# ============================================================================ standard (§5.3)
def test_standard_has_no_wilds_and_distinct_groups_with_one_deck() -> None:
    standard = get_variant("standard")
    assert "deck has no JK" in error(standard, "7H 8H JK")
    assert "2 copies of 7S" in error(standard, "7S 7S 7H")
    assert meld(standard, "7S 7H 7D 7C").kind == "group"
    assert meld(standard, "QH KH AH").positions == (12, 13, 14)
    assert "wrap" in error(standard, "KH AH 2H")


def test_standard_two_decks_allow_duplicate_cards_in_groups() -> None:
    two = get_variant("standard", {"decks": 2})
    assert meld(two, "7S 7S 7H").kind == "group"
    assert meld(two, "7S 7S 7H 7H 7D 7C").naturals == 6


# ============================================================================ black-heart (§6)
BH = "black-heart"


def test_black_heart_escort_examples_from_seed_004() -> None:
    info = meld(BH, "QS/6H KS/3H AS")
    assert info.kind == "run" and info.positions == (12, 13, 14)
    assert card_count(info) == 5, "escorts count as cards played"
    assert played_value(get_variant(BH), info) == 10 + 5 + 10 + 5 + 15
    assert meld(BH, "JS/2H JC/7H JD").naturals == 3, "J♦ in a group of jacks, as itself, no escort"


def test_black_heart_k_spade_k_spade_groups() -> None:
    assert meld(BH, "KS/9H KS/5H KC/2H").kind == "group"
    assert written(BH, "KS/9H KS/5H QD/AH") == "KS/9H KS/5H QD=KS/AH"
    assert "needs a heart escort" in error(BH, "KS KS KC")


def test_black_heart_diamond_wild_examples_from_seed_004() -> None:
    assert written(BH, "6H JD 8H") == "6H JD=7H 8H"  # J♦ for any heart
    info = meld(BH, "TC JC/4H QC/JD")  # J♦ as the escort of Q♣
    assert info.kind == "run" and info.naturals == 3 and info.slots[2].escort is not None
    assert written(BH, "3S 4S QD") == "3S 4S QD=5S"  # Q♦ for any spade or club
    assert written(BH, "KS/9H KS/5H QD/AH") == "KS/9H KS/5H QD=KS/AH"
    assert written(BH, "QC/2H QS/7H KD") == "QC/2H QS/7H KD=QD"  # K♦ as the Q♦
    assert written(BH, "QC/2H QS/7H KD=QD") == "QC/2H QS/7H KD=QD"
    assert written(BH, "7S 7C JD") == "7S 7C JD=7H", "J♦ for 7♥ in a group of 7s"
    # seed: "the K♦ in the previous example may be replaced with a Q♣/10♥ pair"
    assert meld(BH, "QC/2H QS/7H QC/TH").kind == "group"


def test_black_heart_diamond_scopes_are_binding() -> None:
    assert "stands only for a heart" in error(BH, "7S 7C JD=7S")
    assert "stands only for a spade or a club" in error(BH, "7S 7C QD=7H")
    assert "JD=JH" in error(BH, "JS/2H JC/3H JD=JH"), "no heart court cards exist"
    assert "KD=KH" in error(BH, "KS/2H KC/3H KD=KH")
    assert "ranks" in error(BH, "9H TH JD=JH") or "stands only" in error(BH, "9H TH JD=JH")
    assert written(BH, "9H TH JD") == "JD=8H 9H TH", "hearts runs stop at 10"


def test_black_heart_wilds_for_black_courts_need_escorts() -> None:
    assert "needs a heart escort" in error(BH, "JS/2H KD=QS KS/4H")
    assert written(BH, "JS/2H KD=QS/3H KS/4H") == "JS/2H KD=QS/3H KS/4H"
    assert written(BH, "JS/2H KD/3H KS/4H") == "JS/2H KD=QS/3H KS/4H"
    assert meld(BH, "JS/2H QD/JD KS/4H").slots[1].meaning == Meaning(12, 0)


def test_black_heart_rank_only_meaning_of_a_diamond_may_be_itself_or_a_wild() -> None:
    assert written(BH, "KD=K KS/AH KC/2H") == "KD KS/AH KC/2H", "K♦ as itself, no escort"
    assert written(BH, "KD=K/AH KS/AH KC/2H") == "KD=KS/AH KS/AH KC/2H", "K♦ as a black king, escorted"


def test_black_heart_escorts_are_hearts_on_black_courts_only() -> None:
    assert "only black court cards take an escort" in error(BH, "7S/2H 7C 7H")
    assert "not a heart" in error(BH, "KS/2S KC/3H KS/4H")
    assert "not a heart" in error(BH, "KS/QD KC/3H KS/4H")
    assert meld(BH, "KS/KD=9H KC/3H KS/4H").kind == "group", "a K♦ standing for a heart escorts"
    assert "needs a heart escort" in error(BH, "JS QS/2H KS/3H")
    assert "do not exist" in error("rhine", "KS/2H KC KD")


def test_black_heart_runs_wrap_for_black_suits_only() -> None:
    assert meld(BH, "KS/9H AS 2S").positions == (13, 14, 2)
    assert meld(BH, "QC/2H KC/3H AC 2C 3C").kind == "run"
    assert meld(BH, "8H 9H TH").kind == "run"
    assert "low only" in error(BH, "9H TH AH") or "do not make" in error(BH, "9H TH AH")
    assert "no runs of diamonds" in error(BH, "JD QD=JS KD=QD") or "valid" in error(BH, "JD QD=JS KD=QD")


def test_black_heart_hearts_runs_are_a_to_10() -> None:
    assert meld(BH, "AH 2H 3H 4H 5H 6H 7H 8H 9H TH").positions == tuple(range(1, 11))
    assert "at most 10" in error(BH, "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JD")
    assert meld(BH, "7H 7S 7C").kind == "group", "hearts stand in groups of A-10"


def test_black_heart_diamond_royale() -> None:
    bh = get_variant(BH)
    royale = meld(bh, "KD JD QD")
    assert royale.kind == "royale" and str(royale) == "JD QD KD"
    assert played_value(bh, royale) == 150
    assert may_open_with(bh, royale)
    assert "no escorts" in error(bh, "JD/2H QD KD")
    assert meld(bh, "JD QD KD AS").kind == "group", "with a fourth card it is no Royale (aces, 3 wilds)"


def test_black_heart_wilds_any_number_with_one_natural() -> None:
    assert meld(BH, "7S QD KD").wild_count == 2
    assert meld(BH, "7S QD KD").kind == "run", "written order first: 7♠ 8♠ 9♠"
    assert meld(BH, "7H JD=7H KD").kind == "group"
    assert "natural" in error(BH, "JD=5H QD=5S KD=5C")


def test_black_heart_played_values_count_diamonds_by_print() -> None:
    bh = get_variant(BH)
    assert played_value(bh, meld(bh, "3S 4S QD")) == 5 + 5 + 15
    assert played_value(bh, meld(bh, "6H JD 8H")) == 5 + 10 + 5
    assert played_value(bh, meld(bh, "QC/2H QS/7H KD")) == 10 + 5 + 10 + 5 + 20


def test_black_heart_6_2_all_three_diamonds_with_escorts_are_a_group_not_a_royale() -> None:
    variant = get_variant("black-heart")
    info = analyze_meld(variant, "JD QD/AH KD/2H")
    assert info.kind == "group" and info.rank == 11
    with pytest.raises(MeldError, match="escort"):
        analyze_meld(variant, "JD/2H QD KD")
