"""Rummy Palace rules (docs/rules §4): hand-made positions played through the public API, each
rule with its legal case (exact result) and its illegal case (the section a refusal names)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rummyai.cards import JOKER, Meaning, parse_card
from rummyai.engine.discard import (
    DeclineKnock,
    Discard,
    DiscardFamily,
    DrawStock,
    JokerSwap,
    Knock,
    LayOff,
    MeldCards,
    Opening,
    TakeDiscard,
)
from rummyai.engine.discard_melds import analyze
from rummyai.engine.discard_setup import build_state, hand_ids, hand_layoff, hand_meld
from rummyai.engine.game import apply, legal_moves, match_winners, new_match
from rummyai.engine.state import GameState, RoundResult
from rummyai.melds import opening_value
from rummyai.variants import get_variant

from .discard_cases import meld, rule_of, table_id
from .discard_views import cards, kinds, table_texts, tokens

PALACE = "rummy-palace"
BH = "black-heart"
FAMILY = DiscardFamily()
SEVEN_C, QUEEN_C = Meaning(7, 3), Meaning(12, 3)  # stated joker meanings 7♣ and Q♣


# ---------------------------------------------------------------------------- §4.1 deal, seats and match end
@pytest.mark.parametrize("players", [2, 6])
def test_deal_sizes(players: int) -> None:
    s = new_match("rummy-palace", players, seed=3)
    assert all(len(h) == 13 for h in s.round.hands)
    assert len(s.round.discard) == 1
    assert len(s.round.stock) == 110 - 13 * players - 1
    assert s.round.turn == (s.round.dealer + 1) % players


def test_palace_match_end_rules() -> None:
    v = get_variant("rummy-palace")
    out = RoundResult(0, (0, 0, 0), "out")
    assert v.rounds == 10  # [D] default max_rounds
    # a cumulative total of -500 or less ends the game; the highest total wins
    assert match_winners(v, (-500, 200, 300), (out,)) == (2,)
    assert match_winners(v, (-499, 200, 300), (out,)) == ()
    # ties for the highest total share the win
    assert match_winners(v, (300, 300, -510), (out,)) == (0, 1)
    assert match_winners(v, (10, 20, 20), (out,) * 9) == ()
    assert match_winners(v, (10, 20, 20), (out,) * 10) == (1, 2)
    assert match_winners(get_variant("rummy-palace", {"max_rounds": 2}), (5, 1, 0), (out,) * 2) == (0,)


# ---------------------------------------------------------------------------- §4.2 turn
def test_turn_starts_with_a_draw() -> None:
    s = build_state("rummy-palace", ["TS JS QS 4C", "2C"], discard="9D", phase="draw")
    assert rule_of(s, meld(s, "TS JS QS")) == "4.2"
    assert rule_of(s, DrawStock()) is None
    assert rule_of(s, TakeDiscard(0)) is None


def test_only_the_top_discard_may_be_taken() -> None:
    s = build_state("rummy-palace", ["TS JS QS 4C", "2C"], discard="9D 8D", phase="draw")
    assert rule_of(s, TakeDiscard(0)) == "4.2"
    after = apply(s, TakeDiscard(1))
    assert parse_card("8D") in [after.variant.deck[i] for i in after.round.hands[0]]


def test_card_taken_from_the_pile_may_not_be_discarded_again() -> None:
    s = build_state("rummy-palace", ["TS JS QS 4C", "2C"], discard="9D", phase="draw")
    s = apply(s, TakeDiscard(0))
    nine = hand_ids(s, 0, "9D")[0]
    assert rule_of(s, Discard(nine)) == "4.2"
    assert rule_of(s, Discard(hand_ids(s, 0, "4C")[0])) is None


def test_a_card_is_kept_for_the_final_discard() -> None:
    s = build_state("rummy-palace", ["TS JS QS", "2C"], opened=[True, True])
    assert rule_of(s, meld(s, "TS JS QS")) == "4.2"
    s = build_state("rummy-palace", ["TS JS QS 4C", "2C"], opened=[True, True])
    assert rule_of(s, meld(s, "TS JS QS")) is None


def test_taken_card_alone_left_is_refused() -> None:
    # 4.8.4: with the taken card unable to be discarded, a play leaving only it is refused.
    s = build_state("rummy-palace", ["4C 5D", "2C"], table=["6D 7D 8D"], discard="", taken="5D")
    four = hand_layoff(s, 0, 0, "5D", front=True)
    assert rule_of(s, LayOff(0, four)) is None  # lays off the taken 5D, keeps 4C to discard
    s = build_state("rummy-palace", ["9D 5C", "2C"], table=["6D 7D 8D"], taken="5C")
    assert rule_of(s, LayOff(0, hand_layoff(s, 0, 0, "9D"))) == "4.2"


def test_layoff_only_after_first_meld() -> None:
    s = build_state("rummy-palace", ["9H 4C 5C", "2C"], table=["6H 7H 8H"], opened=[False, True])
    layoff = LayOff(0, hand_layoff(s, 0, 0, "9H"))
    assert rule_of(s, layoff) == "4.4"
    s = replace(s, round=replace(s.round, opened=(True, True)))
    assert rule_of(s, layoff) is None


def test_palace_drawn_card_may_be_used_at_once() -> None:
    s = build_state("rummy-palace", ["TS JS 4C", "2C"], stock="QS", phase="draw", opened=[True, True])
    assert rule_of(s, meld(s, "TS JS 4C")) == "4.2"  # no play before the draw
    s = apply(s, DrawStock())
    assert rule_of(s, meld(s, "TS JS QS")) is None


def test_no_manipulation_a_layoff_keeps_every_table_card() -> None:
    s = build_state("rummy-palace", ["9H 4C", "2C"], table=["5H 6H 7H 8H"])
    old = s.round.table[0]
    nine = hand_ids(s, 0, "9H")[0]
    dropped = replace(old, ids=(*old.ids[1:], nine), meanings=(None,) * 4, credit=())
    assert rule_of(s, LayOff(0, dropped)) == "4.2"


# ---------------------------------------------------------------------------- §4.3 melds
def test_group_suits_distinct_and_at_most_four() -> None:
    s = build_state("rummy-palace", ["7H 7H 7S 7C 7D 2C", "2C"])
    assert rule_of(s, meld(s, "7H 7H 7S")) == "4.3"
    assert rule_of(s, meld(s, "7H 7S 7C")) is None
    assert rule_of(s, meld(s, "7H 7S 7C 7D")) is None


def test_run_ace_low_or_high_but_no_wrap() -> None:
    s = build_state("rummy-palace", ["QS KS AS 2S 3S 9C", "2C"])
    assert rule_of(s, meld(s, "KS AS 2S")) == "4.3"
    assert rule_of(s, meld(s, "QS KS AS")) is None
    assert rule_of(s, meld(s, "AS 2S 3S")) is None


def test_cyclic_laying_lets_runs_wrap() -> None:
    s = build_state("rummy-palace", ["QS KS AS 2S 9C", "2C"], options=["cyclic_laying"])
    move = meld(s, "QS KS AS 2S")
    assert rule_of(s, move) is None
    info = analyze(s.variant, move.meld)
    # the ace follows the king: 11 points (§4.7)
    assert opening_value(s.variant, info) == 10 + 10 + 11 + 2


def test_jokers_may_not_outnumber_naturals() -> None:
    s = build_state("rummy-palace", ["9H JK JK QH 3H 3D 8C JK", "2C"])
    assert rule_of(s, meld(s, "JK=7H JK=8H 9H")) == "4.3"
    # the rule text's two-joker melds
    assert rule_of(s, meld(s, "9H JK=TH JK=JH QH")) is None
    assert rule_of(s, meld(s, "3H 3D JK=3 JK=3")) is None
    # §4.3/§4.8.3: every joker's meaning is stated (at least the rank in a group)
    assert rule_of(s, meld(s, "3H 3D JK JK")) == "4.3"


def test_jokers_le_naturals_after_a_layoff() -> None:
    s = build_state("rummy-palace", ["JK JK 2C", "2C"], table=["5H 6H JK=7H"])
    one = LayOff(0, hand_layoff(s, 0, 0, "JK=8H"))
    assert rule_of(s, one) is None
    s = apply(s, one)
    assert rule_of(s, LayOff(0, hand_layoff(s, 0, 0, "JK=9H"))) == "4.3"


def test_joker_meaning_is_binding_in_a_run() -> None:
    s = build_state("rummy-palace", ["TH 9H 3C", "2C"], table=["7H 8H JK=9H"])
    assert rule_of(s, LayOff(0, hand_layoff(s, 0, 0, "TH"))) is None
    # the joker keeps meaning 9H, so a natural 9H cannot join the run
    assert rule_of(s, LayOff(0, hand_layoff(s, 0, 0, "9H"))) == "4.3"


def test_palace_group_layoff_never_past_four() -> None:
    s = build_state("rummy-palace", ["7D 7D 2C", "2C"], table=["7H 7S 7C"])
    s = apply(s, LayOff(0, hand_layoff(s, 0, 0, "7D")))
    assert len(s.round.table[0].ids) == 4
    assert rule_of(s, LayOff(0, hand_layoff(s, 0, 0, "7D"))) == "4.3"


def test_palace_run_at_most_thirteen_cards() -> None:
    s = build_state("rummy-palace", ["AS 4C", "2C"], table=["AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"])
    assert rule_of(s, LayOff(0, hand_layoff(s, 0, 0, "AS"))) == "4.3"
    s = build_state("rummy-palace", ["AS 4C", "2C"], table=["2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"])
    assert rule_of(s, LayOff(0, hand_layoff(s, 0, 0, "AS"))) is None  # high ace: 13 cards


def test_palace_two_group_jokers_may_not_mean_the_same_suit() -> None:
    s = build_state("rummy-palace", ["3H 3D JK JK 9C", "2C"])
    assert rule_of(s, meld(s, "3H 3D JK=3S JK=3S")) == "4.3"
    assert rule_of(s, meld(s, "3H 3D JK=3S JK=3C")) is None


def test_palace_joker_as_high_ace_counts_eleven() -> None:
    s = build_state("rummy-palace", ["QH KH JK 9C", "2C"], opened=[False, True])
    assert rule_of(s, meld(s, "QH KH JK=AH")) is None  # 10 + 10 + 11 = 31
    s = build_state("rummy-palace", ["2H 3H JK 9C", "2C"], opened=[False, True])
    assert rule_of(s, meld(s, "JK=AH 2H 3H")) == "4.4"  # 1 + 2 + 3


def test_palace_cyclic_ace_worth_eleven_only_after_a_king() -> None:
    hand = "KS AS 2S 3S 4S 5S 9C"
    s = build_state("rummy-palace", [hand, "2C"], opened=[False, True], options=["cyclic_laying"])
    assert rule_of(s, meld(s, "KS AS 2S")) == "4.4"  # 10 + 11 + 2 = 23
    assert rule_of(s, meld(s, "KS AS 2S 3S 4S")) is None  # 10 + 11 + 2 + 3 + 4 = 30
    assert rule_of(s, meld(s, "AS 2S 3S 4S 5S")) == "4.4"  # the ace is low: 15


def test_palace_every_joker_put_down_states_its_meaning() -> None:
    s = build_state("rummy-palace", ["5H 6H JK JK 4C 4S 9D", "2C"], table=["7S 8S 9S"])
    assert rule_of(s, meld(s, "5H 6H JK")) == "4.3"  # 4H or 7H: not stated
    assert rule_of(s, meld(s, "5H 6H JK=7H")) is None
    assert rule_of(s, meld(s, "4C 4S JK")) == "4.3"
    assert rule_of(s, meld(s, "4C 4S JK=4")) is None  # a group joker states its rank
    assert rule_of(s, LayOff(0, hand_layoff(s, 0, 0, "JK"))) == "4.3"
    after = apply(s, LayOff(0, hand_layoff(s, 0, 0, "JK=TS")))
    table = after.round.table[0]
    assert [m for m in table.meanings if m is not None] == [hand_meld(s, 0, "JK=TS").meanings[0]]
    # the standard game and Black Heart have no jokers to state (diamonds are resolved from the meld)
    bh = build_state(BH, ["7S 7C JD 9C", "5S"], opened=[True, True])
    assert rule_of(bh, meld(bh, "7S 7C JD")) is None


def test_palace_group_jokers_take_missing_suits_only() -> None:
    s = build_state("rummy-palace", ["4C 4S JK 9D", "2C"])
    assert rule_of(s, meld(s, "4C 4S JK=4C")) == "4.3"
    assert rule_of(s, meld(s, "4C 4S JK=4D")) is None
    s = build_state("rummy-palace", ["JK 9D", "2C"], table=["4C 4S JK=4"])
    after = apply(s, LayOff(0, hand_layoff(s, 0, 0, "JK=4")))  # 2 jokers beside 2 naturals
    assert len(after.round.table[0].ids) == 4


# ---------------------------------------------------------------------------- §4.4 opening
def test_first_meld_needs_30_points() -> None:
    s = build_state("rummy-palace", ["7S 8S 9S TS JS QS 2C", "2C"], opened=[False, True])
    assert rule_of(s, meld(s, "7S 8S 9S")) == "4.4"  # 24
    assert rule_of(s, meld(s, "TS JS QS")) is None  # 30


def test_opening_ace_values() -> None:
    s = build_state("rummy-palace", ["AS 2S 3S QH KH AH AD AC 5C", "2C"], opened=[False, True])
    assert rule_of(s, meld(s, "AS 2S 3S")) == "4.4"  # 1 + 2 + 3
    assert rule_of(s, meld(s, "QH KH AH")) is None  # 10 + 10 + 11
    assert opening_value(s.variant, analyze(s.variant, meld(s, "AS AD AC").meld)) == 33


def test_jack_queen_joker_ace_is_worth_41() -> None:
    s = build_state("rummy-palace", ["JH QH JK AH 5C", "2C"], opened=[False, True])
    move = meld(s, "JH QH JK=KH AH")
    info = analyze(s.variant, move.meld)
    assert info.meant(2) == parse_card("KH")
    assert opening_value(s.variant, info) == 41
    assert rule_of(s, move) is None


def test_joker_counts_as_the_card_it_stands_for() -> None:
    s = build_state("rummy-palace", ["4C 4S JK 9D", "2C"], opened=[False, True])
    info = analyze(s.variant, meld(s, "4C 4S JK").meld)
    assert opening_value(s.variant, info) == 12


def test_opening_may_be_several_melds_in_one_bundle() -> None:
    s = build_state("rummy-palace", ["7S 8S 9S 4H 4D 4C 2D", "2C"], opened=[False, True])
    bundle = Opening((meld(s, "7S 8S 9S"), meld(s, "4H 4D 4C")))  # 24 + 12
    assert rule_of(s, bundle) is None
    short = Opening((meld(s, "7S 8S 9S"),))
    assert rule_of(s, short) == "4.4"


def test_legal_moves_offer_an_opening_that_needs_both_copies_of_a_card() -> None:
    # §4.4 with §7.1: 6C 7C 8C and 7H 7D 7C each take one of the hand's two 7Cs (21 + 21 points)
    s = build_state("rummy-palace", ["6C 7C 8C 7H 7D 7C 2S 9D", "2C"], opened=[False, True])
    openings = [m for m in legal_moves(s) if isinstance(m, Opening)]
    bundles = [sorted(" ".join(tokens(s, part.meld.ids)) for part in m.plays) for m in openings]
    assert sorted(["6C 7C 8C", "7C 7D 7H"]) in bundles
    for move in openings:  # each part holds copies of its own
        ids = [i for part in move.plays for i in part.meld.all_ids()]
        assert len(ids) == len(set(ids)) and rule_of(s, move) is None


def test_legal_moves_offer_three_meld_openings_and_both_ends_for_a_run_joker() -> None:
    # §4.4: 9 + 9 + 12 points only open together
    s = build_state("rummy-palace", ["2S 3S 4S 2H 3H 4H 3D 4D 5D KC 9C", "2C"], opened=[False, True])
    bundles = [
        sorted(" ".join(tokens(s, p.meld.ids)) for p in m.plays)
        for m in legal_moves(s)
        if isinstance(m, Opening)
    ]
    assert sorted(["2S 3S 4S", "2H 3H 4H", "3D 4D 5D"]) in bundles
    # §4.3: the joker counts as the card it stands for, so JK=9S (30 points) opens and JK=5S (26) not
    s = build_state("rummy-palace", ["6S 7S 8S JK 2C 4D KH", "2C"], opened=[False, True])
    melds = [m.meld for m in legal_moves(s) if isinstance(m, MeldCards)]
    assert [str(x) for x in melds[0].meanings if x] == ["9S"] and len(melds) == 1


def test_legal_moves_offer_an_opening_that_needs_four_melds() -> None:
    # §4.4 "one or more new melds": 6 + 6 + 9 + 9 points open only all four together
    s = build_state("rummy-palace", ["AH 2H 3H AS 2S 3S 2D 3D 4D 2C 3C 4C 9S KS", "3C"], opened=[False, True])
    openings = [m for m in legal_moves(s) if isinstance(m, Opening)]
    bundles = [sorted(" ".join(tokens(s, p.meld.ids)) for p in m.plays) for m in openings]
    assert sorted(["2H 3H AH", "2S 3S AS", "2D 3D 4D", "2C 3C 4C"]) in bundles  # `tokens` sorts as text
    assert all(rule_of(s, move) is None for move in openings)


def test_legal_moves_offer_each_meaning_of_an_opening_joker() -> None:
    # §4.5: a joker's stated meaning binds its later swaps, so JK=JH QH KH (33 points) and
    # QH KH JK=AH (36) are two openings of the same cards
    s = build_state("rummy-palace", ["QH KH JK 5S", "3C"], opened=[False, True])
    meanings = sorted(
        str(x) for m in legal_moves(s) if isinstance(m, MeldCards) for x in m.meld.meanings if x
    )
    assert meanings == ["AH", "JH"]


def test_opening_single_meld_option() -> None:
    hands = ["7S 8S 9S 4H 4D 4C 2D", "2C"]
    s = build_state("rummy-palace", hands, opened=[False, True], options=["opening_single_meld"])
    assert rule_of(s, Opening((meld(s, "7S 8S 9S"), meld(s, "4H 4D 4C")))) == "4.4"
    s = build_state(
        "rummy-palace", ["TS JS QS 2D", "2C"], opened=[False, True], options=["opening_single_meld"]
    )
    assert rule_of(s, meld(s, "TS JS QS")) is None


def test_layoffs_allowed_later_in_the_opening_turn() -> None:
    s = build_state("rummy-palace", ["TS JS QS 9H 2D", "2C"], table=["6H 7H 8H"], opened=[False, True])
    layoff = LayOff(0, hand_layoff(s, 0, 0, "9H"))
    assert rule_of(s, layoff) == "4.4"
    s = apply(s, meld(s, "TS JS QS"))
    assert rule_of(s, LayOff(0, hand_layoff(s, 0, 0, "9H"))) is None


def test_palace_layoff_in_the_opening_bundle_only_after_thirty() -> None:
    s = build_state(
        "rummy-palace", ["7S 8S 9S 4H 4D 4C 9H 2C", "2C"], table=["6H 7H 8H"], opened=[False, True]
    )
    after = Opening((meld(s, "7S 8S 9S"), meld(s, "4H 4D 4C"), LayOff(0, hand_layoff(s, 0, 0, "9H"))))
    assert rule_of(s, after) is None
    before = Opening((meld(s, "7S 8S 9S"), LayOff(0, hand_layoff(s, 0, 0, "9H")), meld(s, "4H 4D 4C")))
    assert rule_of(s, before) == "4.4"  # the lay-off came at 24 points


@pytest.mark.parametrize(
    ("hand", "text", "options", "rule"),
    [
        ("TS TH TD 9C", "TS TH TD", [], None),  # exactly 30
        ("9S 9H 9D 9C 2C", "9S 9H 9D", [], "4.4"),  # 27
        ("9S 9H 9D 9C 2C", "9S 9H 9D 9C", [], None),  # 36
        ("AS AH JK 9C", "AS AH JK=A", [], None),  # a group joker counts as the ace: 33
        ("JK QS KS 9C", "JK=JS QS KS", [], None),  # 10 + 10 + 10
        ("AS 2S 3S 4S 5S 9C", "AS 2S 3S 4S 5S", [], "4.4"),  # low ace: 15
        ("QS JK AS 9C", "QS JK=KS AS", ["cyclic_laying"], None),  # ace after a joker king: 31
        ("KS JK 2S 3S 4S 9C", "KS JK=AS 2S 3S 4S", ["cyclic_laying"], None),  # joker ace after K: 11
        ("JK 2S 3S 4S 5S 6S 9C", "JK=AS 2S 3S 4S 5S 6S", ["cyclic_laying"], "4.4"),  # ace first: 21
        ("JS QS KS AS 2S 9C", "JS QS KS AS 2S", ["cyclic_laying"], None),  # 43 across the wrap
        ("KS AS 2S 9C", "KS AS 2S", [], "4.3"),  # no wrap without the option
    ],
)
def test_palace_first_meld_values(hand: str, text: str, options: list[str], rule: str | None) -> None:
    s = build_state(PALACE, [hand, "2C"], opened=[False, True], options=options)
    assert rule_of(s, meld(s, text)) == rule


# ---------------------------------------------------------------------------- §4.5 joker swap
def _swap_state(opened: bool = True):
    return build_state(
        "rummy-palace",
        ["TH TD 5C 6C 2D", "2C"],
        table=["9H JK=TH JK=JH QH", "4C 4S JK"],
        opened=[opened, True],
    )


def _joker(state, meld_index: int, meaning_rank: int | None = None) -> int:
    table_meld = state.round.table[meld_index]
    for i, m in zip(table_meld.ids, table_meld.meanings, strict=True):
        if state.variant.deck[i] == JOKER and (meaning_rank is None or (m and m.rank == meaning_rank)):
            return i
    raise AssertionError("no joker")


def test_joker_swap_with_the_exact_card_and_replacing_the_joker() -> None:
    s = _swap_state()
    joker = _joker(s, 0, 10)
    ten = hand_ids(s, 0, "TH")[0]
    place = MeldCards(
        replace(
            hand_meld(s, 0, "5C 6C"),
            ids=(*hand_meld(s, 0, "5C 6C").ids, joker),
            meanings=(None, None, SEVEN_C),
        )
    )
    swap = JokerSwap(0, joker, ten, place)
    assert rule_of(s, swap) is None
    after = apply(s, swap)
    assert joker not in after.round.hands[0]
    assert ten in after.round.table[0].ids
    wrong = JokerSwap(0, joker, hand_ids(s, 0, "TD")[0], place)
    assert rule_of(s, wrong) == "4.5"


def test_joker_swap_needs_the_first_meld() -> None:
    s = _swap_state(opened=False)
    joker = _joker(s, 0, 10)
    place = MeldCards(
        replace(
            hand_meld(s, 0, "5C 6C"),
            ids=(*hand_meld(s, 0, "5C 6C").ids, joker),
            meanings=(None, None, SEVEN_C),
        )
    )
    assert rule_of(s, JokerSwap(0, joker, hand_ids(s, 0, "TH")[0], place)) == "4.5"


def test_swapped_joker_must_return_to_the_table() -> None:
    s = build_state("rummy-palace", ["TH 4D 5C 6C", "2C"], table=["9H JK=TH JK=JH QH", "4C 4S JK"])
    joker = _joker(s, 0, 10)
    ten = hand_ids(s, 0, "TH")[0]
    # a valid lay-off that leaves the swapped joker in the hand is refused
    keeps_joker = LayOff(1, hand_layoff(s, 0, 1, "4D"))
    assert rule_of(s, JokerSwap(0, joker, ten, keeps_joker)) == "4.5"
    with_joker = replace(
        keeps_joker.meld,
        ids=(*keeps_joker.meld.ids[:-1], joker),
        meanings=(*keeps_joker.meld.meanings[:-1], Meaning(4, None)),
    )
    # laid off into 4C 4S JK instead: two jokers beside two naturals is allowed
    assert rule_of(s, JokerSwap(0, joker, ten, LayOff(1, with_joker))) is None


def test_group_joker_either_missing_suit() -> None:
    for suit in ("4D", "4H"):
        s = build_state("rummy-palace", [f"{suit} 7C 8C 2D", "2C"], table=["4C 4S JK", "9C TC JC"])
        joker = _joker(s, 0)
        place = LayOff(
            1,
            replace(
                s.round.table[1], ids=(*s.round.table[1].ids, joker), meanings=(None, None, None, QUEEN_C)
            ),
        )
        assert rule_of(s, JokerSwap(0, joker, hand_ids(s, 0, suit)[0], place)) is None, suit
    s = build_state("rummy-palace", ["4C 7C 2D", "2C"], table=["4C 4S JK", "9C TC JC"])
    joker = _joker(s, 0)
    place = LayOff(
        1, replace(s.round.table[1], ids=(*s.round.table[1].ids, joker), meanings=(None,) * 3 + (QUEEN_C,))
    )
    assert rule_of(s, JokerSwap(0, joker, hand_ids(s, 0, "4C")[0], place)) == "4.5"


def test_swap_offered_only_with_a_placement() -> None:
    s = _swap_state()
    swaps = [m for m in legal_moves(s) if isinstance(m, JokerSwap)]
    assert swaps
    for swap in swaps:
        after = apply(s, swap)
        assert swap.joker not in after.round.hands[0]


def test_palace_joker_swap_later_in_the_opening_turn() -> None:
    s = build_state(
        "rummy-palace", ["TS JS QS TH 5C 6C 2D", "2C"], table=["9H JK=TH JK=JH QH"], opened=[False, True]
    )
    table = s.round.table[0]
    joker = next(i for i, m in zip(table.ids, table.meanings, strict=True) if m and m.rank == 10)
    ten = hand_ids(s, 0, "TH")[0]
    base = hand_meld(s, 0, "5C 6C")
    place = MeldCards(replace(base, ids=(*base.ids, joker), meanings=(None, None, Meaning(7, 3))))  # JK=7C
    assert rule_of(s, JokerSwap(0, joker, ten, place)) == "4.5"  # not before the first meld
    s = apply(s, meld(s, "TS JS QS"))
    assert rule_of(s, JokerSwap(0, joker, ten, place)) is None


def test_palace_swapped_joker_goes_back_onto_the_meld_it_left() -> None:
    # 5H JK=6H 7H: the 6H takes the joker's place and the joker goes on at the top as 8H (§4.5)
    s = build_state(PALACE, ["6H 2C 3C", "2D"], table=["5H JK=6H 7H"], table_credit=[1])
    joker, six = table_id(s, 0, "JK"), hand_ids(s, 0, "6H")[0]
    old = s.round.table[0]
    ids = tuple(six if i == joker else i for i in old.ids)
    back = LayOff(0, replace(old, ids=(*ids, joker), meanings=(None, None, None, Meaning(8, 1))))
    s2 = apply(s, JokerSwap(0, joker, six, back))
    assert table_texts(s2) == ["5H 6H 7H JK=8H"]
    assert tokens(s2, s2.round.hands[0]) == ["2C", "3C"]
    # the joker's new place must be stated (§4.8.3)
    unstated = LayOff(0, replace(old, ids=(*ids, joker), meanings=(None, None, None, None)))
    assert rule_of(s, JokerSwap(0, joker, six, unstated)) == "4.3"


def test_palace_swapped_joker_may_become_the_high_ace_of_its_run() -> None:
    # TD JK=JD QD JK=KD: the KD takes the king joker's place, which goes on top as the ace (§4.3 Q-K-A)
    s = build_state(PALACE, ["2D 7S KD", "2C"], table=["TD JK=JD QD JK=KD"], table_credit=[1])
    old = s.round.table[0]
    king = next(i for i, m in zip(old.ids, old.meanings, strict=True) if m is not None and m.rank == 13)
    kd = hand_ids(s, 0, "KD")[0]
    ids = tuple(kd if i == king else i for i in old.ids)
    meanings = tuple(None if i == king else m for i, m in zip(old.ids, old.meanings, strict=True))
    place = LayOff(0, replace(old, ids=(*ids, king), meanings=(*meanings, Meaning(1, 2))))  # JK=AD
    s = apply(s, JokerSwap(0, king, kd, place))
    assert table_texts(s) == ["TD JK=JD QD KD JK=AD"]
    # the joker ace is high, so the 2D does not follow it (no wrap without cyclic_laying)
    assert rule_of(s, LayOff(0, hand_layoff(s, 0, 0, "2D"))) == "4.3"


# ---------------------------------------------------------------------------- §4.6 scoring
def test_going_out_by_discarding_the_last_card() -> None:
    s = build_state(
        "rummy-palace", ["5C", "AS JK 7D", "KH 2C"], table=["TS JS QS"], played=[True, True, True]
    )
    out = apply(s, Discard(hand_ids(s, 0, "5C")[0]))
    result = out.history[-1]
    assert result.reason == "out" and result.winner == 0
    assert result.scores == (11 + 20 + 7 + 10 + 2, -(11 + 20 + 7), -(10 + 2))


def test_going_rummy_doubles() -> None:
    hand = "TS JS QS 4H 5H 6H 7H 9C"
    s = build_state("rummy-palace", [hand, "AS JK"], opened=[False, True])
    s = apply(s, Opening((meld(s, "TS JS QS"), meld(s, "4H 5H 6H 7H"))))
    out = apply(s, Discard(hand_ids(s, 0, "9C")[0]))
    assert out.history[-1].scores == (62, -62)
    assert out.history[-1].detail == "Going Rummy"
    # not Going Rummy if the player had played on an earlier turn
    s = build_state("rummy-palace", ["9C 4H", "AS JK"], table=["5H 6H 7H"], played=[True, True])
    s = apply(s, LayOff(0, hand_layoff(s, 0, 0, "4H", front=True)))
    assert apply(s, Discard(hand_ids(s, 0, "9C")[0])).history[-1].scores == (31, -31)


def test_stock_recycled_once_then_void_round() -> None:
    s = build_state("rummy-palace", ["2C 3C", "4D 5D"], discard="9S 8S 7S", stock="KD", phase="draw")
    s = apply(s, DrawStock())
    assert s.round.recycles == 1
    assert sorted(s.variant.deck[i] for i in s.round.stock) == sorted(map(parse_card, ["9S", "8S"]))
    assert [s.variant.deck[i] for i in s.round.discard] == [parse_card("7S")]
    # no recycle left: an empty stock at the start of a turn ends the round with no winner
    s2 = build_state("rummy-palace", ["2C 3C", "4D 5D"], discard="7S", stock="", phase="play")
    s2 = replace(s2, round=replace(s2.round, recycles=1))
    out = apply(s2, Discard(hand_ids(s2, 0, "2C")[0]))
    assert out.history[-1].reason == "void" and out.history[-1].winner is None
    assert out.history[-1].scores == (-3, -9)


def test_palace_going_rummy_doubles_the_winners_gain_with_several_losers() -> None:
    s = build_state("rummy-palace", ["TS JS QS 9C", "AS", "JK 7D"], opened=[False, True, True])
    s = apply(s, meld(s, "TS JS QS"))
    result = apply(s, Discard(hand_ids(s, 0, "9C")[0])).history[-1]
    assert result.detail == "Going Rummy"
    assert result.scores == (2 * (11 + 27), -22, -54)


def test_palace_going_rummy_needs_no_empty_table() -> None:
    # §4.8.5 [D]: others' melds on the table do not stop a Going Rummy; the first meld, a lay-off
    # on another player's run and the discard in one turn double every penalty and the gain
    s = build_state(
        PALACE,
        ["TS TH TD 8C 2D", "AS JK", "KC 3S"],
        table=["5C 6C 7C"],
        table_credit=[1],
        opened=[False, True, True],
    )
    s = apply(s, Opening((meld(s, "TS TH TD"), LayOff(0, hand_layoff(s, 0, 0, "8C")))))
    result = apply(s, Discard(hand_ids(s, 0, "2D")[0])).history[-1]
    assert result.detail == "Going Rummy"
    assert result.scores == (2 * (31 + 13), -2 * 31, -2 * 13)  # A 11 + JK 20; K 10 + 3


# ---------------------------------------------------------------------------- §4.7 knocking
def test_knocking_order_and_penalty() -> None:
    s = build_state(
        "rummy-palace",
        ["5C 9D", "2H 3H", "4S 6S", "7C 8C"],
        stock="KD QD",
        opened=[True, True, False, True],
        options=["knocking"],
    )
    s = apply(s, Discard(hand_ids(s, 0, "9D")[0]))
    # q = seat 1 may not knock; seat 2 has not opened; seat 3 is asked
    assert s.round.turn == 3
    assert rule_of(s, Knock(1)) == "4.7"
    assert legal_moves(s) == [Knock(3), DeclineKnock(3)]
    knocked = apply(s, Knock(3))
    kinds = sorted(knocked.variant.deck[i] for i in knocked.round.hands[3])
    assert kinds == sorted(map(parse_card, ["7C", "8C", "9D", "QD"]))
    assert knocked.round.turn == 1 and knocked.round.family_data.phase == "draw"
    declined = apply(s, DeclineKnock(3))
    assert declined.round.turn == 1 and len(declined.round.discard) == 1


def test_no_knock_when_the_stock_is_empty() -> None:
    s = build_state(
        "rummy-palace",
        ["5C 9D", "2H 3H", "4S 6S"],
        discard="KC",
        stock="",
        opened=[True, True, True],
        options=["knocking"],
    )
    after = apply(s, Discard(hand_ids(s, 0, "9D")[0]))
    # nobody is asked: the next player's turn starts (the stock is rebuilt from the pile)
    assert after.round.turn == 1 and after.round.family_data.phase == "draw"
    assert after.round.recycles == 1


def test_pile_too_short_after_a_knock_is_recycled_at_the_next_turn() -> None:
    # §4.6 (decision): a knock leaves one card on the pile; the draw that empties the stock cannot
    # rebuild it, the next turn's start can once the discard has joined the pile
    s = build_state(
        PALACE,
        ["2C 5H 9S", "3C 6H TD", "4D 5D"],
        discard="9D",
        stock="KH QH JH",
        opened=[True, True, True],
        phase="draw",
        options=["knocking"],
    )
    s = apply(s, DrawStock())
    s = apply(s, Discard(hand_ids(s, 0, "2C")[0]))
    s = apply(s, Knock(2))
    assert len(s.round.stock) == 1 and len(s.round.discard) == 1 and s.round.turn == 1
    s = apply(s, DrawStock())
    assert not s.round.stock and s.round.recycles == 0
    s = apply(s, Discard(hand_ids(s, 1, "3C")[0]))
    assert s.round.result is None and s.round.recycles == 1
    assert tokens(s, s.round.stock) == ["9D"] and tokens(s, s.round.discard) == ["3C"]


def _knock_for_the_last_stock_card(*options: str) -> GameState:
    """Seat 0 discards 8D onto 9C with one stock card left; seat 2 knocks for it."""
    s = build_state(
        PALACE,
        ["5C 6C 7C 8D 9D 3S", "2S 3S 4S 9H TC", "2D 3D 4D TH JC"],
        discard="9C",
        stock="KS",
        opened=[True, True, True],
        options=["knocking", *options],
    )
    s = apply(s, Discard(hand_ids(s, 0, "8D")[0]))
    return apply(s, Knock(2))


def test_q_still_plays_when_a_knock_empties_the_stock_and_the_pile_is_too_short() -> None:
    # §4.7: "q then plays normally", taking the pile's new top card; the round ends (§4.6) only at
    # the turn after, when the pile still cannot rebuild the stock
    s = _knock_for_the_last_stock_card()
    assert not s.history and s.round.turn == 1 and not s.round.stock
    assert legal_moves(s) == [TakeDiscard(0)]
    s = apply(s, TakeDiscard(0))
    s = apply(s, Discard(hand_ids(s, 1, "TC")[0]))
    assert len(s.history) == 1 and s.history[-1].reason == "void"


def test_no_q_turn_after_a_knock_once_the_recycles_are_spent() -> None:
    s = _knock_for_the_last_stock_card("max_stock_recycles=0")
    assert len(s.history) == 1 and s.history[-1].reason == "void"


def test_no_knocking_without_the_option() -> None:
    s = build_state("rummy-palace", ["5C 9D", "2H 3H", "7C 8C"], stock="KD QD")
    s = apply(s, Discard(hand_ids(s, 0, "9D")[0]))
    assert s.round.turn == 1
    assert rule_of(s, Knock(2)) == "4.2"


def test_palace_knock_then_next_player_may_take_the_new_top() -> None:
    s = build_state(
        "rummy-palace",
        ["5C 9D", "2H 3H 4H", "7C 8C"],
        discard="6S",
        stock="KD QD",
        opened=[True, True, True],
        options=["knocking"],
    )
    s = apply(s, Discard(hand_ids(s, 0, "9D")[0]))
    assert legal_moves(s) == [Knock(2), DeclineKnock(2)]
    s = apply(s, Knock(2))
    assert kinds(s, s.round.hands[2]) == cards("7C 8C 9D QD")
    assert s.round.turn == 1 and kinds(s, s.round.discard) == cards("6S")
    assert rule_of(s, TakeDiscard(0)) is None
    assert rule_of(s, Knock(2)) == "4.2"  # nobody is asked twice


def test_palace_knock_order_wraps_round_the_table_and_the_card_is_the_knockers() -> None:
    # seat 2 discards 6S; q = seat 3; seats 0 then 1 are asked; seat 1 knocks: 6S and a stock card
    s = build_state(
        PALACE,
        ["5C 9D", "2H 3H", "4S 6S", "7C 8C"],
        turn=2,
        stock="KD QD AS",
        opened=[True, True, True, True],
        options=["knocking"],
    )
    s = apply(s, Discard(hand_ids(s, 2, "6S")[0]))
    assert s.round.family_data.knock_queue == (0, 1)
    assert legal_moves(s) == [Knock(0), DeclineKnock(0)]
    s = apply(apply(s, DeclineKnock(0)), Knock(1))
    assert tokens(s, s.round.hands[1]) == ["2H", "3H", "6S", "AS"]
    assert s.round.turn == 3 and s.round.family_data.phase == "draw"
    # round the table to seat 1's own turn: the knocked card is an ordinary card there (§4.7)
    for seat, card in ((3, "7C"), (0, "9D")):
        s = apply(s, DrawStock())
        s = apply(s, Discard(hand_ids(s, seat, card)[0]))
        while s.round.family_data.phase == "knock":
            s = apply(s, DeclineKnock(s.round.turn))
    assert s.round.turn == 1
    s = apply(s, DrawStock())
    assert rule_of(s, Discard(hand_ids(s, 1, "6S")[0])) is None
