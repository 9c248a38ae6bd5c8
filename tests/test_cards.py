"""Card kinds, the §7.1 text notation (parse and print), count vectors, decks and copy checks."""

from __future__ import annotations

import pickle
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummyai.cards import (
    BOARD_COLOURS,
    JOKER,
    RANKS,
    RUMMIKUB_COLOURS,
    SUITS,
    Meaning,
    Slot,
    build_deck,
    card_str,
    cards_str,
    check_copies,
    counts,
    from_counts,
    make_card,
    meld_str,
    parse_card,
    parse_cards,
    parse_meld,
    parse_slot,
    parse_table,
    rank_of,
    sort_key,
    sorted_cards,
    suit_of,
    table_str,
)
from rummyai.errors import CardError, DeckError
from rummyai.variants import get_variant

ALL_TOKENS = [r + s for s in SUITS for r in RANKS] + ["JK"]


# ----------------------------------------------------------------------------- card kinds
def test_kind_layout_is_suit_times_13_plus_rank_minus_1() -> None:
    for suit in range(4):
        for rank in range(1, 14):
            card = make_card(rank, suit)
            assert card == suit * 13 + rank - 1
            assert (rank_of(card), suit_of(card)) == (rank, suit)
    assert make_card(14, 2) == make_card(1, 2), "rank 14 is the high ace"
    assert (rank_of(JOKER), suit_of(JOKER)) == (0, -1)


@pytest.mark.parametrize(("rank", "suit"), [(0, 0), (15, 0), (5, 4), (5, -1)])
def test_make_card_rejects_impossible_cards(rank: int, suit: int) -> None:
    with pytest.raises(CardError, match="no card"):
        make_card(rank, suit)


def test_card_str_rejects_out_of_range_kinds() -> None:
    with pytest.raises(CardError, match="53"):
        card_str(53)


# ----------------------------------------------------------------------------- §7.1 tokens
def test_every_token_parses_and_prints_back() -> None:
    assert [parse_card(t) for t in ALL_TOKENS] == list(range(53))
    assert [card_str(k) for k in range(53)] == ALL_TOKENS


@pytest.mark.parametrize(
    ("token", "expected"),
    [("7h", "7H"), ("tS", "TS"), ("ad", "AD"), ("Kc", "KC"), ("jk", "JK"), ("Joker", "JK"), (" 9s ", "9S")],
)
def test_tokens_are_case_insensitive(token: str, expected: str) -> None:
    assert card_str(parse_card(token)) == expected


@pytest.mark.parametrize("suit", list(SUITS))
def test_10_is_accepted_for_t(suit: str) -> None:
    assert parse_card("10" + suit) == parse_card("T" + suit) == make_card(10, SUITS.index(suit))
    assert parse_card("10" + suit.lower()) == make_card(10, SUITS.index(suit))


@pytest.mark.parametrize(
    "text", ["7H 8H 9H", "7H,8H,9H", "7h, 8h ,9h", "  7H\t8H\n9H  ", "7H,,8H 9H", "7H , 8H , 9H"]
)
def test_spaces_or_commas_separate_tokens(text: str) -> None:
    assert parse_cards(text) == [make_card(r, 1) for r in (7, 8, 9)]


def test_parse_cards_takes_an_iterable_of_tokens() -> None:
    assert parse_cards(["7H", "8h", "JK"]) == [make_card(7, 1), make_card(8, 1), JOKER]


@pytest.mark.parametrize(
    ("token", "words"),
    [
        ("1H", ["unknown rank '1'", "'1H'"]),
        ("ZH", ["unknown rank 'Z'", "'ZH'"]),
        ("11C", ["unknown rank '11'", "'11C'"]),
        ("7X", ["unknown suit 'X'", "'7X'"]),
        ("77", ["unknown suit '7'", "'77'"]),
        ("7", ["unknown card '7'"]),
        ("", ["unknown card ''"]),
        ("JK=9H", ["'JK=9H'", "plain card"]),
    ],
)
def test_bad_tokens_are_card_errors_naming_the_token_and_why(token: str, words: list[str]) -> None:
    with pytest.raises(CardError) as error:
        parse_card(token)
    for word in words:
        assert word in str(error.value)


# ----------------------------------------------------------------------------- wild meanings
@pytest.mark.parametrize(
    ("token", "card", "meaning"),
    [
        ("JK=9H", "JK", Meaning(9, 1)),  # run joker: exact card
        ("JK=9", "JK", Meaning(9)),  # group joker: rank only
        ("jk=9c", "JK", Meaning(9, 3)),
        ("JK=10", "JK", Meaning(10)),
        ("JK=10d", "JK", Meaning(10, 2)),
        ("2C=5S", "2C", Meaning(5, 0)),  # Rhine wild two
        ("QD=KC", "QD", Meaning(13, 3)),  # Black Heart wild
        ("JK=A", "JK", Meaning(1)),
    ],
)
def test_wild_meanings_after_equals(token: str, card: str, meaning: Meaning) -> None:
    slot = parse_slot(token)
    assert slot == Slot(parse_card(card), meaning)


def test_meaning_printing_uses_t_for_ten_and_rank_only_for_groups() -> None:
    assert str(parse_slot("JK=10")) == "JK=T"
    assert str(parse_slot("jk=10h")) == "JK=TH"
    assert Meaning(9).card() is None
    assert Meaning(9, 1).card() == make_card(9, 1)


@pytest.mark.parametrize(
    ("token", "words"),
    [
        ("JK=", ["empty meaning", "'JK='"]),
        ("JK=H", ["bad meaning 'H'", "'JK=H'"]),
        ("JK=9X", ["unknown suit 'X'", "'JK=9X'"]),
        ("JK=1", ["unknown rank '1'", "'JK=1'"]),
        ("JK=ZS", ["unknown rank 'Z'", "'JK=ZS'"]),
        ("JK=JK", ["not for a joker", "'JK=JK'"]),
        ("=9H", ["missing card", "'=9H'"]),
        ("KS/", ["empty escort", "'KS/'"]),
        ("KS/9H/2H", ["escort cannot carry", "'KS/9H/2H'"]),
        ("KS/9X", ["unknown suit 'X'", "'9X'"]),
    ],
)
def test_bad_meanings_and_escorts_name_the_token(token: str, words: list[str]) -> None:
    with pytest.raises(CardError) as error:
        parse_slot(token)
    for word in words:
        assert word in str(error.value)


@pytest.mark.parametrize(("rank", "suit"), [(0, None), (14, None), (7, 4)])
def test_meaning_rejects_impossible_values(rank: int, suit: int | None) -> None:
    with pytest.raises(CardError):
        Meaning(rank, suit)


# ----------------------------------------------------------------------------- escorts
def test_escorts_after_slash() -> None:
    assert parse_slot("KS/9H") == Slot(make_card(13, 0), None, Slot(make_card(9, 1)))
    slot = parse_slot("qd=kc/ah")
    assert slot == Slot(make_card(12, 2), Meaning(13, 3), Slot(make_card(1, 1)))
    assert str(slot) == "QD=KC/AH"
    assert slot.cards() == [make_card(12, 2), make_card(1, 1)]
    wild_escort = parse_slot("QC/JD=7H")
    assert wild_escort.escort == Slot(make_card(11, 2), Meaning(7, 1))


# ----------------------------------------------------------------------------- melds and tables
def test_a_meld_is_tokens_and_a_table_is_melds_between_bars() -> None:
    table = parse_table("QS KS AS 2S | JK=AH 2H 3H|7c,7d,7h")
    assert [meld_str(m) for m in table] == ["QS KS AS 2S", "JK=AH 2H 3H", "7C 7D 7H"]
    assert table_str(table) == "QS KS AS 2S | JK=AH 2H 3H | 7C 7D 7H"
    assert parse_table("") == []
    assert parse_table([["7H", "8H", "9H"], "QS/2H KS/3H AS"]) == [
        parse_meld("7H 8H 9H"),
        parse_meld("QS/2H KS/3H AS"),
    ]


@pytest.mark.parametrize("text", ["", "  ", " , "])
def test_empty_meld_is_an_error(text: str) -> None:
    with pytest.raises(CardError, match="empty meld"):
        parse_meld(text)


@pytest.mark.parametrize("text", ["7H 8H 9H | | 2C 3C 4C", "7H 8H 9H |", "| 7H 8H 9H"])
def test_empty_meld_between_bars_is_an_error(text: str) -> None:
    with pytest.raises(CardError, match="empty meld"):
        parse_table(text)


_meanings = st.one_of(
    st.none(),
    st.builds(Meaning, st.integers(1, 13), st.one_of(st.none(), st.integers(0, 3))),
)
_plain_slots = st.builds(Slot, st.integers(0, 52), _meanings)
_slots = st.builds(Slot, st.integers(0, 52), _meanings, st.one_of(st.none(), _plain_slots))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(_slots, min_size=1, max_size=8), min_size=0, max_size=4))
def test_any_slot_sequence_prints_and_parses_back(table: list[list[Slot]]) -> None:
    for meld in table:
        text = meld_str(meld)
        assert parse_meld(text) == tuple(meld)
        assert parse_meld(text.lower().replace(" ", ", ")) == tuple(meld)
    assert parse_table(table_str(table)) == [tuple(m) for m in table]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 52), max_size=30))
def test_card_lists_print_and_parse_back(cards: list[int]) -> None:
    assert parse_cards(cards_str(cards)) == cards


# ----------------------------------------------------------------------------- sort order
def test_sort_order_is_rank_then_suit_s_h_d_c_joker_last() -> None:
    expected = [make_card(r, s) for r in range(1, 14) for s in range(4)] + [JOKER]
    shuffled = expected[:]
    random.Random(7).shuffle(shuffled)
    assert sorted_cards(shuffled) == expected
    assert cards_str(sorted_cards(parse_cards("JK KC 2S AH AS TD"))) == "AS AH 2S TD KC JK"
    assert sort_key(JOKER) > sort_key(make_card(13, 3))


# ----------------------------------------------------------------------------- count vectors
def test_count_vectors_round_trip() -> None:
    cards = parse_cards("7H 7H JK AS KC")
    vector = counts(cards)
    assert vector.shape == (53,)
    assert vector[make_card(7, 1)] == 2 and vector[JOKER] == 1 and vector.sum() == 5
    assert from_counts(vector) == sorted(cards)


# ----------------------------------------------------------------------------- decks
def test_build_deck_follows_the_7_1_order() -> None:
    deck = build_deck(2, 3)
    assert deck[:52] == list(range(52)), "pack 0: suits S H D C, ranks A..K"
    assert deck[52:104] == list(range(52)), "then pack 1"
    assert deck[104:] == [JOKER] * 3, "then the jokers"
    assert card_str(deck[0]) == "AS" and card_str(deck[13]) == "AH" and card_str(deck[51]) == "KC"


def test_build_deck_drops_removed_cards_then_numbers_ids() -> None:
    seven_h = make_card(7, 1)
    deck = build_deck(2, 0, [seven_h])
    assert len(deck) == 103
    assert deck.count(seven_h) == 1
    assert deck[:19] == [c for c in range(20) if c != seven_h], "the earliest copy is removed first"


# ----------------------------------------------------------------------------- copy checks
def test_check_copies_names_the_card_and_the_deck() -> None:
    rummikub = get_variant("rummikub")
    check_copies(rummikub, parse_cards("7H 7H JK JK"))
    with pytest.raises(DeckError) as error:
        check_copies(rummikub, parse_cards("7H 8H 7H 7H"))
    assert str(error.value) == "3 copies of 7H but the rummikub deck holds 2"


def test_check_copies_says_where_and_when_the_deck_has_no_such_card() -> None:
    with pytest.raises(DeckError) as error:
        check_copies(get_variant("black-heart"), parse_cards("JH"), what="hand")
    assert str(error.value) == "1 copy of JH in hand but the black-heart deck has no JH"
    with pytest.raises(DeckError, match="3 copies of JK in hand and table but the rummy-tiles deck holds 2"):
        check_copies(get_variant("rummy-tiles"), parse_cards("JK JK JK"), what="hand and table")
    with pytest.raises(DeckError, match="standard deck has no JK"):
        check_copies(get_variant("standard"), [JOKER])


def test_check_copies_rejects_kinds_out_of_range() -> None:
    with pytest.raises(CardError, match="53"):
        check_copies(get_variant("rhine"), [53])


def test_tile_colours_map_to_suits() -> None:
    assert BOARD_COLOURS == {"blue": "C", "red": "H", "green": "S", "yellow": "D"}
    assert RUMMIKUB_COLOURS == {"black": "S", "red": "H", "orange": "D", "blue": "C"}
    assert sorted(BOARD_COLOURS.values()) == sorted(RUMMIKUB_COLOURS.values()) == sorted(SUITS)


def test_slots_from_another_process_find_their_equals() -> None:
    """Slots keep their hash once worked out; one unpickled from another process (a tournament
    or vector-environment worker) must still find the equal slot built here in a dict."""
    code = (
        "import pickle, sys\n"
        "from rummyai.cards import Meaning, Slot\n"
        "slots = [Slot(5), Slot(52, Meaning(7, 1)), Slot(52, Meaning(9)), Slot(3, None, Slot(40))]\n"
        "[hash(s) for s in slots]\n"
        "sys.stdout.buffer.write(pickle.dumps(slots))\n"
    )
    sent = pickle.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, check=True).stdout)
    here = {Slot(5): 0, Slot(52, Meaning(7, 1)): 1, Slot(52, Meaning(9)): 2, Slot(3, None, Slot(40)): 3}
    assert [here[slot] for slot in sent] == [0, 1, 2, 3]
    assert Slot(52, Meaning(7, 1)) != Slot(52, Meaning(7, 2)) and str(sent[1]) == "JK=7H"
