"""Variants as data: decks (§1.1-§6.1, §8.1), every parameter of the §7.3 table, named options."""

from __future__ import annotations

import pickle
from collections import Counter
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from rummyai.cards import JOKER, RANKS, SUITS, make_card, parse_card
from rummyai.errors import VariantError
from rummyai.variants import BUILTINS, OPTIONS, VARIANT_IDS, RunRule, Variant, get_variant

S, H, D, C = range(4)


def kinds(tokens: str) -> list[int]:
    return [parse_card(t) for t in tokens.split()]


# ----------------------------------------------------------------------------- decks
@pytest.mark.parametrize(
    ("variant_id", "size", "jokers"),
    [
        ("rummikub", 106, 2),
        ("rhine", 108, 4),
        ("rummy-tiles", 106, 2),
        ("rummy-board", 106, 2),
        ("rummy-palace", 110, 6),
        ("standard", 52, 0),
        ("black-heart", 75, 0),
    ],
)
def test_every_deck_has_the_stated_size(variant_id: str, size: int, jokers: int) -> None:
    variant = get_variant(variant_id)
    assert len(variant.deck) == size
    assert variant.copies[JOKER] == jokers
    assert sum(variant.copies) == size


@pytest.mark.parametrize("variant_id", ["rummikub", "rhine", "rummy-tiles", "rummy-board", "rummy-palace"])
def test_two_pack_decks_hold_every_card_twice(variant_id: str) -> None:
    assert get_variant(variant_id).copies[:52] == (2,) * 52


def test_standard_deck_is_one_pack_and_decks_2_doubles_it() -> None:
    assert get_variant("standard").copies == (1,) * 52 + (0,)
    two = get_variant("standard", {"decks": 2})
    assert len(two.deck) == 104 and two.copies == (2,) * 52 + (0,)


def test_black_heart_deck_is_rebuilt_from_6_1() -> None:
    """§6.1: A-K spades x2, A-K clubs x2, A-10 hearts x2, J Q K diamonds x1: 75 cards."""
    expected: Counter[int] = Counter()
    for rank in range(1, 14):
        expected[make_card(rank, S)] += 2
        expected[make_card(rank, C)] += 2
    for rank in range(1, 11):
        expected[make_card(rank, H)] += 2
    for rank in (11, 12, 13):
        expected[make_card(rank, D)] += 1
    variant = get_variant("black-heart")
    assert Counter(variant.deck) == expected
    assert sum(expected.values()) == 75
    assert variant.decks == 2 and variant.jokers == 0 and len(variant.removed) == 29


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_deck_ids_follow_the_7_1_order(variant_id: str) -> None:
    """Packs in order, suits S H D C, ranks A..K, then jokers; removed cards simply drop out."""
    variant = get_variant(variant_id)
    full = [card for _ in range(variant.decks) for card in range(52)] + [JOKER] * variant.jokers
    it = iter(full)
    assert all(card in it for card in variant.deck), "the deck is an in-order subsequence of the full packs"
    assert variant.deck[len(variant.deck) - variant.jokers :] == (JOKER,) * variant.jokers, "jokers last"


def test_rhine_extra_packs_add_52_cards_and_2_jokers_each() -> None:
    one = get_variant("rhine", {"extra_packs": 1})
    assert len(one.deck) == 108 + 54 and one.copies[JOKER] == 6 and one.copies[0] == 3
    assert one.max_players == 10
    two = get_variant("rhine", ["extra_packs=2"])
    assert len(two.deck) == 108 + 108 and two.copies[JOKER] == 8
    assert get_variant("rhine", {"extra_packs": 0}).max_players == 6


# ----------------------------------------------------------------------------- §7.3 parameters
EXPECTED: dict[str, dict[str, Any]] = {
    "rhine": dict(
        harvested_joker="stay_on_table", swap_requires_opened=True,
        decks=2, jokers=4, min_players=2, max_players=6, hand_size=10, discard_mode="none",
        family="play_or_draw", max_hand_cards_per_turn=None, group_max=None, group_distinct_suits=False,
        max_wilds_per_meld=1, wilds_le_naturals=False, escorts=None, royale=None,
        opening="natural_meld", opening_min_naturals=3, opening_single_meld=True,
        opening_wild_value="forbidden", manipulation=True, joker_policy="rhine", scoring="penalty_low",
        low_score_wins=True, down_and_out_bonus=-20, rounds=10, game_end="rounds",
        stock_out="end_if_no_play", first_player="left_of_dealer",
    ),
    "rummy-tiles": dict(
        harvested_joker="new_meld_with_hand_card", swap_requires_opened=True,
        decks=2, jokers=2, min_players=2, max_players=4, hand_size=14, discard_mode="none",
        family="play_or_draw", max_hand_cards_per_turn=None, group_max=4, group_distinct_suits=True,
        max_wilds_per_meld=1, wilds_le_naturals=False, opening="points", opening_points=30,
        opening_single_meld=False, opening_wild_value="forbidden", opening_turn_exclusive=True,
        manipulation=True, joker_policy="tiles_locked", invalid_play_penalty=3,
        scoring="winner_takes_sum", rounds=1, game_end="rounds", stock_out="stalemate_minipool",
        first_player="random_then_rotate",
    ),
    "rummy-board": dict(
        harvested_joker="stay_on_table", swap_requires_opened=True,
        decks=2, jokers=2, min_players=2, max_players=4, hand_size=18, discard_mode="none",
        family="play_or_draw", max_hand_cards_per_turn=12, group_max=4, group_distinct_suits=True,
        max_wilds_per_meld=None, min_naturals_per_meld=1, wilds_le_naturals=False, opening="points",
        opening_points=30, opening_wild_value="zero", opening_turn_exclusive=True, manipulation=True,
        joker_policy="free", invalid_play_penalty=0, scoring="rank_by_hand", rounds=1,
        stock_out="end_on_last_draw",
    ),
    "rummy-palace": dict(
        harvested_joker="replay_this_turn", swap_requires_opened=True,
        decks=2, jokers=6, min_players=2, max_players=6, hand_size=13, discard_mode="top",
        family="draw_meld_discard", group_max=4, group_distinct_suits=True, max_wilds_per_meld=None,
        wilds_le_naturals=True, opening="points", opening_points=30, opening_single_meld=False,
        opening_wild_value="represented", opening_group_ace=11, manipulation=False,
        joker_policy="swap_exact", no_rediscard_of_taken=True, go_out_by_discard_only=True,
        scoring="winner_takes_sum", going_rummy_multiplier=2, rounds=10, game_end="total_at_most",
        game_end_score=-500, stock_out="recycle_then_void", max_stock_recycles=1,
        first_player="random_then_rotate",
    ),
    "standard": dict(
        harvested_joker="none", swap_requires_opened=False,
        decks=1, jokers=0, min_players=2, max_players=4, hand_size=10, discard_mode="row",
        family="draw_meld_discard", wilds=(), opening="none", manipulation=False, take_must_play=True,
        go_out_by_discard_only=False, scoring="played_minus_held", going_out_bonus=25, rounds=20,
        game_end="out_with_at_least", game_end_score=500, stock_out="end_deal",
        first_player="left_of_dealer", escorts=None, royale=None,
    ),
    "black-heart": dict(
        harvested_joker="keep_unless_committed", swap_requires_opened=False,
        decks=2, jokers=0, min_players=2, max_players=6, hand_size=10, discard_mode="row",
        family="draw_meld_discard", group_max=None, group_distinct_suits=False, max_wilds_per_meld=None,
        min_naturals_per_meld=1, wilds_le_naturals=False, opening="chart", manipulation=False,
        joker_policy="diamond_swap", take_must_play=True, go_out_by_discard_only=False,
        scoring="played_minus_held", going_out_bonus=25, black_heart_bonus_per_player=25, rounds=20,
        game_end="out_with_at_least", game_end_score=500, stock_out="end_deal",
        first_player="left_of_dealer",
    ),
    "rummikub": dict(
        harvested_joker="stay_on_table", swap_requires_opened=True,
        decks=2, jokers=2, min_players=2, max_players=4, hand_size=14, discard_mode="none",
        family="play_or_draw", max_hand_cards_per_turn=None, group_max=4, group_distinct_suits=True,
        max_wilds_per_meld=None, min_naturals_per_meld=1, opening="points", opening_points=30,
        opening_wild_value="represented", opening_turn_exclusive=True, joker_policy="free",
        scoring="winner_takes_sum", rounds=1, stock_out="cycle_without_play",
        first_player="random_then_rotate",
    ),
}  # fmt: skip


@pytest.mark.parametrize("variant_id", sorted(EXPECTED))
def test_parameters_per_7_3(variant_id: str) -> None:
    variant = get_variant(variant_id)
    wrong = {k: (getattr(variant, k), v) for k, v in EXPECTED[variant_id].items() if getattr(variant, k) != v}
    assert not wrong, f"{variant_id}: field (actual, expected): {wrong}"


def test_every_meld_has_two_naturals_where_one_wild_is_the_limit() -> None:
    for variant_id in ("rhine", "rummy-tiles"):
        variant = get_variant(variant_id)
        assert variant.max_wilds_per_meld == 1
        assert variant.min_meld - variant.max_wilds_per_meld == variant.min_naturals_per_meld == 2


@pytest.mark.parametrize(
    ("variant_id", "rules"),
    [
        ("rhine", [RunRule(True, True, False)] * 4),  # ace low or high, no wrap
        ("rummy-tiles", [RunRule(True, False, False)] * 4),  # ace low only
        ("rummy-board", [RunRule(True, False, False)] * 4),
        ("rummikub", [RunRule(True, False, False)] * 4),
        ("rummy-palace", [RunRule(True, True, False)] * 4),
        ("standard", [RunRule(True, True, False)] * 4),
        # black suits low/high and wrap; hearts A-10, ace low; no diamond runs (Royale only)
        (
            "black-heart",
            [RunRule(True, True, True), RunRule(True, False, False, 10), None, RunRule(True, True, True)],
        ),
    ],
)
def test_run_ace_and_wrap_rules(variant_id: str, rules: list[RunRule | None]) -> None:
    assert list(get_variant(variant_id).run_rules) == rules


def test_max_deals_and_upcard_helpers() -> None:
    assert get_variant("standard").max_deals == 20
    assert get_variant("black-heart", {"max_deals": 7}).max_deals == 7
    assert get_variant("rhine").max_deals is None
    assert [get_variant(v).upcard for v in ("rhine", "rummy-palace", "standard")] == [False, True, True]


# ----------------------------------------------------------------------------- hand values
def values(variant: Variant, tokens: str) -> list[int]:
    return [variant.hand_value(k) for k in kinds(tokens)]


TOKENS = "AS 2H 3D 5C 7S 8H 9D TC JS QH KD JK"


@pytest.mark.parametrize(
    ("variant_id", "expected"),
    [
        ("rhine", [15, 2, 3, 5, 7, 8, 9, 10, 11, 12, 13, 20]),
        ("rummy-tiles", [1, 2, 3, 5, 7, 8, 9, 10, 11, 12, 13, 30]),
        ("rummy-board", [1, 2, 3, 5, 7, 8, 9, 10, 11, 12, 13, 25]),
        ("rummikub", [1, 2, 3, 5, 7, 8, 9, 10, 11, 12, 13, 30]),
        ("rummy-palace", [11, 2, 3, 5, 7, 8, 9, 10, 10, 10, 10, 20]),
        ("standard", [15, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10, 0]),
    ],
)
def test_hand_values_per_7_3(variant_id: str, expected: list[int]) -> None:
    assert values(get_variant(variant_id), TOKENS) == expected


def test_black_heart_values_per_6_6() -> None:
    bh = get_variant("black-heart")
    assert values(bh, "AS AH AC 2S 9H 9C TS TH JS QC KS") == [15, 15, 15, 5, 5, 5, 10, 10, 10, 10, 10]
    assert values(bh, "JD QD KD") == [10, 15, 20]
    assert bh.royale is not None and bh.royale.value == 150
    assert sorted(bh.royale.cards) == sorted(kinds("JD QD KD"))


def test_rhine_wild_twos_are_always_wild_and_score_50() -> None:
    rhine = get_variant("rhine", {"rhine.wild_twos": True})
    for two in kinds("2S 2H 2D 2C"):
        assert rhine.is_wild(two) and rhine.always_wild(two)
        assert rhine.wild_map[two].stands_for == frozenset(range(52))
        assert rhine.hand_value(two) == 50
    assert rhine.max_wilds_per_meld == 1, "twos count toward the 1-wild limit"
    assert not get_variant("rhine").is_wild(parse_card("2S"))


def test_rhine_canasta_values_and_twos_stay_50_with_wild_twos() -> None:
    canasta = get_variant("rhine", {"rhine.canasta_values": True})
    assert values(canasta, "2S 3H 7D 8C KS AH JK") == [5, 5, 5, 10, 10, 20, 50]
    both = get_variant("rhine", ["rhine.canasta_values", "rhine.wild_twos"])
    assert values(both, "2S 2H 3H 7D 8C KS AH JK") == [50, 50, 5, 5, 10, 10, 20, 50]
    # the order options are given in does not matter
    assert both is get_variant("rhine", ["rhine.wild_twos", "rhine.canasta_values"])


def test_rhine_points_qualify_uses_the_hand_table_and_several_melds() -> None:
    rhine = get_variant("rhine", {"rhine.points_qualify": True})
    assert rhine.opening == "points" and rhine.opening_points == 30
    assert not rhine.opening_single_meld, "one or more melds (§1.7)"
    assert rhine.opening_min_naturals == 0 and rhine.opening_wild_value == "represented"
    assert rhine.opening_values[1] == rhine.opening_values[14] == rhine.opening_group_ace == 15
    assert [rhine.opening_values[r] for r in range(2, 14)] == [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]
    canasta = rhine.with_options({"rhine.canasta_values": True})
    assert canasta.opening_values[1] == canasta.opening_values[14] == canasta.opening_group_ace == 20


def test_palace_meld_values_ace_1_low_11_high_or_in_a_group() -> None:
    palace = get_variant("rummy-palace")
    assert (
        palace.opening_values[1] == 1 and palace.opening_values[14] == 11 and palace.opening_group_ace == 11
    )
    assert [palace.opening_values[r] for r in range(2, 14)] == [2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]


@pytest.mark.parametrize("variant_id", ["rummy-tiles", "rummy-board", "rummikub"])
def test_tile_opening_values_are_face_values_ace_1(variant_id: str) -> None:
    variant = get_variant(variant_id)
    assert [variant.opening_values[r] for r in range(1, 14)] == list(range(1, 14))
    assert variant.opening_group_ace == 1


def test_black_heart_opening_chart_per_6_4() -> None:
    chart = get_variant("black-heart").opening_chart
    assert [(s.min_score, s.melds, s.min_cards) for s in chart[1:]] == [
        (0, 1, 3),
        (100, 1, 4),
        (200, 1, 5),
        (300, 2, 8),
        (400, 2, 9),
        (500, 2, 10),
    ]
    assert chart[0].min_score < 0 and chart[0].melds == 0, "below 0: no requirement"


# ----------------------------------------------------------------------------- wild scopes
def test_jokers_stand_for_any_natural_card() -> None:
    for variant_id in ("rummikub", "rhine", "rummy-tiles", "rummy-board", "rummy-palace"):
        variant = get_variant(variant_id)
        assert variant.always_wild(JOKER)
        assert variant.wild_map[JOKER].stands_for == frozenset(range(52))


def test_black_heart_diamond_wild_scopes_6_2_and_6_7_4() -> None:
    bh = get_variant("black-heart")
    jd, qd, kd = kinds("JD QD KD")
    in_deck = {k for k in range(52) if bh.copies[k]}
    assert bh.wild_map[jd].stands_for == {make_card(r, H) for r in range(1, 11)}, "J♦: any heart A-10"
    assert bh.wild_map[qd].stands_for == {make_card(r, s) for s in (S, C) for r in range(1, 14)}
    assert bh.wild_map[kd].stands_for == in_deck - {kd}, "K♦: any card of the 75-card deck"
    assert jd in bh.wild_map[kd].stands_for and qd in bh.wild_map[kd].stands_for
    for card in (jd, qd, kd):
        assert bh.is_wild(card) and not bh.always_wild(card), "diamonds may play as themselves"
    for rule in bh.wilds:
        assert rule.stands_for <= in_deck, "wilds only stand for cards of the 75-card deck"
    assert bh.escorts is not None
    assert bh.escorts.needs_escort == set(kinds("JS QS KS JC QC KC"))
    assert bh.escorts.escorts == {make_card(r, H) for r in range(1, 11)}


# ----------------------------------------------------------------------------- options
ALL_OPTION_VALUES: list[tuple[str, str, Any, dict[str, Any]]] = [
    (
        "rummikub",
        "official_jokers",
        True,
        {"joker_policy": "official", "harvested_joker": "new_meld_this_turn"},
    ),
    ("rummikub", "joker_replacement_from", "rack", {"joker_replacement_from": "rack"}),
    ("rummikub", "invalid_play_penalty", 3, {"invalid_play_penalty": 3}),
    ("rummikub", "rounds", 4, {"rounds": 4}),
    ("rhine", "rhine.points_qualify", True, {"opening": "points", "opening_single_meld": False}),
    ("rhine", "rhine.wild_twos", True, {"max_wilds_per_meld": 1}),
    ("rhine", "rhine.canasta_values", True, {"opening_group_ace": 20}),
    ("rhine", "extra_packs", 1, {"decks": 3, "jokers": 6, "max_players": 10}),
    ("rhine", "rounds", 3, {"rounds": 3}),
    ("rummy-tiles", "invalid_play_penalty", 0, {"invalid_play_penalty": 0}),
    ("rummy-tiles", "rounds", 5, {"rounds": 5}),
    ("rummy-board", "rounds", 2, {"rounds": 2}),
    ("rummy-palace", "cyclic_laying", True, {"run_rules": (RunRule(True, True, True),) * 4}),
    ("rummy-palace", "knocking", True, {"knocking": True}),
    ("rummy-palace", "opening_single_meld", True, {"opening_single_meld": True}),
    ("rummy-palace", "max_rounds", 6, {"rounds": 6}),
    ("rummy-palace", "max_stock_recycles", 0, {"max_stock_recycles": 0}),
    ("standard", "decks", 2, {"decks": 2, "min_players": 5, "max_players": 8, "group_max": None}),
    ("standard", "max_deals", 30, {"rounds": 30}),
    ("black-heart", "max_deals", 12, {"rounds": 12}),
]


def test_the_option_table_covers_every_named_option() -> None:
    named = {(v, name) for v, options in OPTIONS.items() for name in options}
    assert named == {(v, name) for v, name, _, _ in ALL_OPTION_VALUES}


def test_joker_replacement_from_the_table_needs_the_official_joker_rule() -> None:
    """`rack_or_table` only means something under `official_jokers`; alone it is refused, not ignored."""
    with pytest.raises(VariantError, match="official_jokers"):
        get_variant("rummikub", {"joker_replacement_from": "rack_or_table"})
    both = get_variant("rummikub", {"official_jokers": True, "joker_replacement_from": "rack_or_table"})
    assert both.joker_replacement_from == "rack_or_table"
    assert both.joker_policy == "official"


@pytest.mark.parametrize(("variant_id", "name", "value", "fields"), ALL_OPTION_VALUES)
def test_with_options_applies_every_named_option(
    variant_id: str, name: str, value: Any, fields: dict[str, Any]
) -> None:
    base = get_variant(variant_id)
    for variant in (
        base.with_options({name: value}),
        base.with_options([f"{name}={value}"]),
        get_variant(variant_id, {name: str(value)}),
    ):
        for field, expected in fields.items():
            assert getattr(variant, field) == expected, field
        recorded = name if value is True else f"{name}={value}"
        assert recorded in variant.options
        assert variant.describe()["options"] == sorted(variant.options)
    assert base.options == frozenset(), "the built-in is untouched"


def test_options_as_keywords_and_bare_flag_strings() -> None:
    palace = get_variant("rummy-palace")
    assert palace.with_options(knocking=True).knocking
    assert palace.with_options(["cyclic_laying"]).run_rules[0] == RunRule(True, True, True)


def test_turning_a_flag_off_restores_the_rules() -> None:
    rhine = get_variant("rhine")
    twos = rhine.with_options({"rhine.wild_twos": True, "rhine.canasta_values": True})
    off = twos.with_options({"rhine.wild_twos": False})
    assert not off.is_wild(parse_card("2S")) and off.hand_value(parse_card("2S")) == 5
    assert off.options == frozenset({"rhine.canasta_values"})
    assert off.with_options({"rhine.canasta_values": "off"}) is rhine
    assert rhine.with_options({"rhine.wild_twos": False}) is rhine
    official = get_variant("rummikub", {"official_jokers": True})
    assert official.with_options(official_jokers=False).joker_policy == "free"
    packs = get_variant("rhine", {"extra_packs": 2}).with_options({"extra_packs": 0})
    assert len(packs.deck) == 108


def test_options_accumulate_and_the_same_settings_give_the_same_variant() -> None:
    a = get_variant("rummy-palace", ["knocking"]).with_options(["cyclic_laying"])
    b = get_variant("rummy-palace", {"cyclic_laying": True, "knocking": "yes"})
    assert a is b
    assert a.knocking and a.run_rules[0] == RunRule(True, True, True)


def test_get_variant_accepts_ids_in_any_case_and_variants() -> None:
    assert get_variant(" Rhine ") is BUILTINS["rhine"]
    rhine = get_variant("rhine")
    assert get_variant(rhine) is rhine
    assert get_variant(rhine, {"rounds": 2}).rounds == 2


def test_unknown_variant_is_a_variant_error_naming_it() -> None:
    with pytest.raises(VariantError) as error:
        get_variant("gin-rummy")
    assert "'gin-rummy'" in str(error.value) and "rhine" in str(error.value)


@pytest.mark.parametrize(
    ("variant_id", "options", "words"),
    [
        ("rhine", {"cyclic_laying": True}, ["'cyclic_laying'", "'rhine'"]),
        ("standard", {"extra_packs": 1}, ["'extra_packs'", "decks"]),
        ("rummikub", ["knocking"], ["'knocking'"]),
    ],
)
def test_unknown_option_is_a_variant_error_naming_it(variant_id: str, options: Any, words: list[str]) -> None:
    with pytest.raises(VariantError) as error:
        get_variant(variant_id, options)
    for word in words:
        assert word in str(error.value)


@pytest.mark.parametrize(
    ("variant_id", "options", "words"),
    [
        ("standard", {"decks": 3}, ["'decks'", "3"]),
        ("standard", {"decks": "two"}, ["'decks'", "int", "'two'"]),
        ("rhine", {"extra_packs": -1}, ["'extra_packs'", "-1"]),
        ("rhine", {"extra_packs": 1_000_000_000}, ["'extra_packs'", "between 0 and 4", "1000000000"]),
        ("rhine", {"rhine.wild_twos": "maybe"}, ["'rhine.wild_twos'", "bool", "'maybe'"]),
        ("rummikub", {"rounds": 0}, ["'rounds'", "0"]),
        ("rummikub", {"rounds": True}, ["'rounds'", "int"]),
        (
            "rummikub",
            {"joker_replacement_from": "hand"},
            ["'joker_replacement_from'", "rack_or_table", "'hand'"],
        ),
        ("rummy-palace", {"max_stock_recycles": -2}, ["'max_stock_recycles'", "-2"]),
        ("rummy-tiles", {"invalid_play_penalty": "x"}, ["'invalid_play_penalty'", "'x'"]),
        ("rummy-palace", "knocking", ["string"]),
        ("rhine", ["extra_packs"], ["'extra_packs'", "needs a value"]),
        ("rhine", [5], ["'name=value' strings", "5"]),
        ("rhine", "", ["string ''"]),  # empty or false options are still checked
        ("rhine", 0, ["list of strings", "0"]),
        ("rhine", False, ["list of strings", "False"]),
        ("rhine", {1: 2}, ["option names are strings", "1"]),
        ("rhine", {"extra_packs": np.float32(2.5)}, ["'extra_packs'", "2.5"]),
        ("rummikub", {"rounds": Fraction(5, 2)}, ["'rounds'", "Fraction(5, 2)"]),
    ],
)
def test_bad_option_values_are_variant_errors_naming_option_and_value(
    variant_id: str, options: Any, words: list[str]
) -> None:
    with pytest.raises(VariantError) as error:
        get_variant(variant_id, options)
    for word in words:
        assert word in str(error.value)


def test_whole_numbers_in_any_numeric_type_are_option_counts() -> None:
    for value in (2, 2.0, "2", np.int64(2), np.float32(2.0), Fraction(4, 2)):
        assert get_variant("rhine", {"extra_packs": value}) is get_variant("rhine", ["extra_packs=2"])


def test_variants_pickle_without_their_caches_and_keep_their_options() -> None:
    from rummyai.melds import analyze_meld

    variant = get_variant("rhine", {"rhine.wild_twos": True})
    analyze_meld(variant, "7H 8H 9H")
    copy = pickle.loads(pickle.dumps(variant))
    assert copy == variant and "_meld_cache" not in copy.__dict__
    assert copy.with_options({"rhine.wild_twos": False}).options == frozenset()
    assert not copy.with_options({"rhine.wild_twos": False}).is_wild(parse_card("2H"))


def test_describe_lists_the_summary_fields() -> None:
    info = get_variant("black-heart").describe()
    assert info["cards"] == 75 and info["players"] == [2, 6] and info["hand_size"] == 10
    assert info["available_options"] == ["max_deals"]


def test_rank_and_suit_alphabets() -> None:
    assert RANKS == "A23456789TJQK" and SUITS == "SHDC"


@pytest.mark.parametrize(
    "given",
    [["rounds=2", "rounds=3"], ["official_jokers", "official_jokers=false"], [" rounds=2", "rounds =2"]],
)
def test_an_option_given_twice_is_refused(given: list[str]) -> None:
    with pytest.raises(VariantError, match="is given twice"):
        get_variant("rummikub", given)
    with pytest.raises(VariantError, match="'rounds' is given twice"):
        get_variant("rummikub").with_options({"rounds": 2}, rounds=3)
