"""Black Heart Rum rules (docs/rules §6, with §5 for the shared draw-and-discard turn): hand-made
positions played through the public API, each rule with its legal case (exact result) and its
illegal case (the section a refusal names), and the rule text's worked examples (escorts, every
diamond wild example, the Royale)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from rummyai.cards import card_str, parse_card, rank_of
from rummyai.engine.discard import (
    DISCARD_FAMILY,
    DiamondSwap,
    Discard,
    DrawStock,
    EndDeal,
    LayOff,
    MeldCards,
    Opening,
    TakeDiscard,
)
from rummyai.engine.discard_generate import play_candidates
from rummyai.engine.discard_melds import analyze
from rummyai.engine.discard_setup import build_state, hand_ids, hand_layoff, hand_meld
from rummyai.engine.game import apply, legal_moves, new_match, validate, view
from rummyai.engine.state import GameState
from rummyai.errors import IllegalMoveError, MeldError
from rummyai.variants import get_variant

from .discard_cases import meld, rule_of, table_id
from .discard_views import cards, kinds, pass_turn_to, place_committed, table_texts, tokens

BH = "black-heart"


def opened_state(hand: str, table=(), **kwargs):
    return build_state(BH, [hand, "2S 3S"], list(table), opened=[True, True], **kwargs)


def diamond_id(state, meld_index: int, token: str) -> int:
    kind = parse_card(token)
    m = state.round.table[meld_index]
    for i in m.all_ids():
        if state.variant.deck[i] == kind:
            return i
    raise AssertionError(token)


# ---------------------------------------------------------------------------- §6.1 deck
def test_deck_of_75_and_deal() -> None:
    v = get_variant(BH)
    assert len(v.deck) == 75
    s = new_match(BH, 6, seed=2)
    assert [len(h) for h in s.round.hands] == [10] * 6 and len(s.round.stock) == 14


def test_black_heart_deck_composition() -> None:
    v = get_variant(BH)
    counts: dict[int, int] = {}
    for kind in v.deck:
        counts[kind] = counts.get(kind, 0) + 1
    expected = {parse_card(r + s): 2 for s in "SC" for r in "A23456789TJQK"}
    expected.update({parse_card(r + "H"): 2 for r in "A23456789T"})
    expected.update({parse_card(t): 1 for t in ("JD", "QD", "KD")})
    assert counts == expected and len(v.deck) == 75
    assert v.jokers == 0


# ---------------------------------------------------------------------------- §6.2 escorts
def test_black_court_cards_need_one_heart_escort() -> None:
    s = opened_state("QS 6H KS 3H AS 9C")
    assert rule_of(s, meld(s, "QS/6H KS/3H AS")) is None  # the rule text's Q-K-A series
    assert rule_of(s, meld(s, "QS KS/3H AS")) == "6.2"
    assert rule_of(s, meld(s, "QS/6H KS/3H AS/9C")) == "6.2"  # aces take no escort


def test_escort_must_be_a_heart() -> None:
    s = opened_state("JS 2H JC 7C JD 9C")
    assert rule_of(s, meld(s, "JS/2H JC/7C JD")) == "6.2"
    s = opened_state("JS 2H JC 7H JD 9C")
    assert rule_of(s, meld(s, "JS/2H JC/7H JD")) is None  # J♦ as itself in a group: no escort


def test_escorts_are_credited_and_count_as_played() -> None:
    s = opened_state("QS 6H KS 3H AS 9C")
    after = apply(s, meld(s, "QS/6H KS/3H AS"))
    assert after.round.credited[0] == 10 + 5 + 10 + 5 + 15


def test_layoff_of_a_black_court_card_brings_its_escort() -> None:
    s = opened_state("KS 4H 9C", table=["9S TS JS/2H QS/5H"])
    assert rule_of(s, LayOff(0, hand_layoff(s, 0, 0, "KS/4H"))) is None
    assert rule_of(s, LayOff(0, hand_layoff(s, 0, 0, "KS"))) == "6.2"


def test_escorts_are_not_core_cards_and_come_from_the_players_hand() -> None:
    s = build_state(BH, ["QS 2H KS 3H AS 9C", "4H 5S"], table=["9S TS JS/6H"], opened=[True, True])
    # two core cards and two escorts are not a meld of three
    assert rule_of(s, meld(s, "QS/2H KS/3H")) in ("6.2", "6.3")
    assert rule_of(s, meld(s, "QS/2H KS/3H AS")) is None
    other_heart = hand_ids(s, 1, "4H")[0]
    queen = hand_ids(s, 0, "QS")[0]
    old = s.round.table[0]
    borrowed = replace(
        old, ids=(*old.ids, queen), meanings=(*old.meanings, None), escorts=(*old.escorts, other_heart)
    )
    assert rule_of(s, LayOff(0, borrowed)) == "5.2"  # the escort is not in the player's hand


@pytest.mark.parametrize(
    ("text", "legal"),
    [
        ("QC/JD=5H KC/2H AC", True),  # J♦ standing for a heart escorts
        ("QC/KD=5H KC/2H AC", True),  # so does K♦
        ("QC/5H=5H KC/2H AC", True),  # a heart written as itself
        ("QC/KD=QS KC/2H AC", False),  # K♦ standing for a spade is no escort
        ("QC/5H=6H KC/2H AC", False),  # a natural heart stands for nothing else
    ],
)
def test_a_written_escort_meaning_must_be_a_heart(text: str, legal: bool) -> None:
    # the table form keeps no escort meanings, so the written form is checked before it is dropped
    s = build_state(BH, ["QC KC AC JD KD 5H 2H 9C", "2S"])
    if legal:
        assert rule_of(s, meld(s, text)) is None
        assert build_state(BH, ["9C", "2S"], table=[text]).round.table
    else:
        with pytest.raises(MeldError, match=r"6\.2"):
            meld(s, text)
        with pytest.raises(MeldError, match=r"6\.2"):
            build_state(BH, ["9C", "2S"], table=[text])


# ---------------------------------------------------------------------------- §6.2 diamonds as wilds
@pytest.mark.parametrize(
    ("hand", "text"),
    [
        ("6H JD 8H 9C", "6H JD=7H 8H"),  # J♦ for any heart
        ("TC JC 4H QC JD 9C", "TC JC/4H QC/JD"),  # J♦ escorting as a heart
        ("3S 4S QD 9C", "3S 4S QD=5S"),  # Q♦ for any spade or club
        ("KS 9H KS 5H QD AH 9C", "KS/9H KS/5H QD=KS/AH"),  # Q♦ as a black king, escorted
        ("QC 2H QS 7H KD 9C", "QC/2H QS/7H KD=QD"),  # K♦ as the Q♦, no escort
        ("7S 7C JD 9C", "7S 7C JD=7H"),  # J♦ for a heart in a group of 7s
    ],
)
def test_worked_diamond_examples_are_legal(hand: str, text: str) -> None:
    s = opened_state(hand)
    assert rule_of(s, meld(s, text)) is None


@pytest.mark.parametrize(
    ("hand", "text"),
    [
        ("3S 4S JD 9C", "3S 4S JD=5S"),  # J♦ stands only for hearts
        ("6H 7H QD 9C", "6H 7H QD=8H"),  # Q♦ stands only for spades and clubs
        ("9H TH JD 9C", "9H TH JD=JH"),  # no heart court cards exist (§6.7.4)
        ("KS 9H KC QD 9C", "KS/9H KC QD=KS"),  # wild black court needs an escort too (and KC)
    ],
)
def test_diamond_wild_limits(hand: str, text: str) -> None:
    s = opened_state(hand)
    assert rule_of(s, meld(s, text)) in ("6.2", "6.3")


def test_every_meld_needs_a_natural() -> None:
    s = opened_state("JD QD KD 9C")
    assert rule_of(s, meld(s, "JD=5H QD=5S KD=5C")) == "6.3"


def test_diamond_scores_printed_value_as_wild() -> None:
    s = opened_state("3S 4S QD 9C")
    after = apply(s, meld(s, "3S 4S QD=5S"))
    assert after.round.credited[0] == 5 + 5 + 15


@pytest.mark.parametrize(
    ("hand", "text", "rule"),
    [
        ("QD QS 2H QC 3H 9C", "QD QS/2H QC/3H", None),  # Q♦ as itself: no escort
        ("QD 4H QS 2H QC 3H 9C", "QD/4H QS/2H QC/3H", None),  # Q♦ as a wild black queen, escorted
        ("JD 4H JS 2H JC 3H 9C", "JD/4H JS/2H JC/3H", "6.2"),  # J♦ as itself takes no escort
        ("JS 2H JC 3H KD 9C", "JS/2H JC/3H KD=JD", None),  # K♦ standing for J♦
        ("JS 2H JC 3H KD 4H 9C", "JS/2H JC/3H KD=JD/4H", "6.2"),
        ("7S 7C JD 9C", "7S 7C JD=7S", "6.3"),  # J♦ never stands for a spade
        ("7S 7C KD 9C", "7S 7C KD=7S", None),  # K♦ stands for any card of the deck
        ("AS AC AH 9C", "AS AC AH", None),  # a heart in a group of A-10
        ("TH AH 2H 9C", "TH AH 2H", "6.3"),  # hearts never wrap
        ("QS 2H KS 3H AS 2S 9C", "QS/2H KS/3H AS 2S", None),  # black suits wrap
    ],
)
def test_black_heart_card_roles(hand: str, text: str, rule: str | None) -> None:
    s = build_state(BH, [hand, "5S 6S"], opened=[True, True])
    assert rule_of(s, meld(s, text)) == rule


def test_black_heart_wild_diamond_credits_its_printed_value() -> None:
    s = build_state(BH, ["7S 7C KD 9C", "5S"], opened=[True, True])
    s = apply(s, meld(s, "7S 7C KD=7H"))
    assert s.round.credited == (5 + 5 + 20, 0)


# ---------------------------------------------------------------------------- §6.3 melds
def test_groups_may_repeat_suits_without_size_cap() -> None:
    s = opened_state("KS 9H KS 5H KC 2H KC 3H 9C")
    assert rule_of(s, meld(s, "KS/9H KS/5H KC/2H KC/3H")) is None


def test_black_runs_wrap_heart_runs_do_not() -> None:
    s = opened_state("KS 4H AS 2S AH TH 9H 2H 9C")
    assert rule_of(s, meld(s, "KS/4H AS 2S")) is None
    s = opened_state("TH 9H AH 2H 8H JD 9C")
    assert rule_of(s, meld(s, "9H TH AH")) == "6.3"  # hearts: ace low only, A-10
    assert rule_of(s, meld(s, "8H 9H TH")) is None
    assert rule_of(s, meld(s, "AH 2H JD=3H")) is None


# ---------------------------------------------------------------------------- §6.2 Royale
def test_royale_opens_at_any_score_and_scores_150() -> None:
    s = build_state(BH, ["JD QD KD 9C", "2S"], opened=[False, True], scores=[550, 0])
    royale = meld(s, "JD QD KD")
    assert rule_of(s, royale) is None
    after = apply(s, royale)
    assert after.round.credited[0] == 150 and after.round.opened[0]
    # in hand the three diamonds count separately: -45
    held = build_state(BH, ["9C", "JD QD KD"])
    out = apply(held, Discard(hand_ids(held, 0, "9C")[0]))
    assert out.history[-1].scores == (25, -45)


def test_royale_offered_among_many_larger_melds() -> None:
    # three wild diamonds make more than the two dozen larger melds the engine ranks first; the
    # Royale, the one meld that opens at 490, must still be on offer
    s = build_state(BH, ["4S 2H 4H 8H JD QD KD 2C 3C 6C 8C", "2S"], opened=[False, True], scores=[490, 0])
    royale = meld(s, "JD QD KD")
    assert rule_of(s, royale) is None
    openings = [m for m in legal_moves(s) if isinstance(m, MeldCards | Opening)]
    assert royale in openings
    # after a take from the row (KD committed), thirty larger openings come before it
    taken = build_state(
        BH,
        ["JD QD KD 4S 5S 6S 7S 8S 9S TS 4C 5C 6C 7C 8C 9C", "2S"],
        opened=[False, True],
        scores=[490, 0],
        taken="KD 4S 5S 6S 7S 8S",
        committed="KD",
    )
    royale = meld(taken, "JD QD KD")
    assert rule_of(taken, royale) is None
    assert royale in legal_moves(taken)


def test_royale_cannot_be_extended_or_swapped() -> None:
    s = opened_state("9C 9S 9H", table=["JD QD KD"])
    extended = hand_layoff(s, 0, 0, "9S")
    assert rule_of(s, LayOff(0, extended)) == "6.2"
    qd = diamond_id(s, 0, "QD")
    assert rule_of(s, DiamondSwap(0, qd, hand_ids(s, 0, "9S")[0])) == "6.5"


# ---------------------------------------------------------------------------- §6.4 opening chart
@pytest.mark.parametrize(
    ("score", "legal", "illegal"),
    [
        (0, "5S 6S 7S", None),
        (150, "5S 6S 7S 8S", "5S 6S 7S"),
        (250, "QS/6H KS/3H AS", "5S 6S 7S 8S"),  # escorts count: 5 cards
    ],
)
def test_opening_chart_one_meld(score: int, legal: str, illegal: str | None) -> None:
    hand = "5S 6S 7S 8S QS 6H KS 3H AS 9C"
    s = build_state(BH, [hand, "2S"], opened=[False, True], scores=[score, 0])
    assert rule_of(s, meld(s, legal)) is None
    if illegal is not None:
        assert rule_of(s, meld(s, illegal)) == "6.4"


def test_opening_chart_two_melds_between_them() -> None:
    hand = "5S 6S 7S 8S 4C 4C 4S 4H 9C TC"
    s = build_state(BH, [hand, "2S"], opened=[False, True], scores=[350, 0])
    assert rule_of(s, Opening((meld(s, "5S 6S 7S 8S"), meld(s, "4C 4C 4S 4H")))) is None
    assert rule_of(s, Opening((meld(s, "5S 6S 7S"), meld(s, "4C 4C 4S 4H")))) == "6.4"  # 7 cards
    assert rule_of(s, meld(s, "5S 6S 7S 8S")) == "6.4"
    s4 = build_state(BH, [hand, "2S"], opened=[False, True], scores=[450, 0])
    assert rule_of(s4, Opening((meld(s4, "5S 6S 7S 8S"), meld(s4, "4C 4C 4S 4H")))) == "6.4"  # 8 < 9


def test_negative_score_player_is_dealt_opened() -> None:
    dealt = DISCARD_FAMILY.deal(get_variant(BH), 3, 0, (-20, 0, 150), np.random.default_rng(0))
    assert dealt.opened == (True, False, False)


def test_negative_score_a_lone_layoff_is_a_legal_first_play_and_opens() -> None:
    # §6.4 (and §6.7.7): below 0 any first play opens, a lay-off too, even if not yet marked opened
    s = build_state(
        BH, ["8S 2C 9H", "2S"], table=["5S 6S 7S"], table_credit=[1], opened=[False, True], scores=[-20, 0]
    )
    layoff = LayOff(0, hand_layoff(s, 0, 0, "8S"))
    assert rule_of(s, layoff) is None
    after = apply(s, layoff)
    assert after.round.opened[0] and after.round.credited[0] == 5
    offered = [(m.target, m.meld.ids) for m in legal_moves(s) if isinstance(m, LayOff)]
    assert (0, layoff.meld.ids) in offered
    # the same lay-off at a score of 0 or more is refused, naming the opening chart
    s0 = build_state(BH, ["8S 2C 9H", "2S"], table=["5S 6S 7S"], opened=[False, True], scores=[0, 0])
    violation = validate(s0, LayOff(0, hand_layoff(s0, 0, 0, "8S")))
    assert violation is not None and violation.rule == "6.4" and "opening" in violation.reason
    assert not any(isinstance(m, LayOff) for m in legal_moves(s0))


def test_negative_score_layoff_first_in_a_bundle_is_legal() -> None:
    s = build_state(BH, ["8S 4C 4C 4S 9H", "2S"], table=["5S 6S 7S"], opened=[False, True], scores=[-5, 0])
    bundle = Opening((LayOff(0, hand_layoff(s, 0, 0, "8S")), meld(s, "4C 4C 4S")))
    assert rule_of(s, bundle) is None
    s0 = build_state(BH, ["8S 4C 4C 4S 9H", "2S"], table=["5S 6S 7S"], opened=[False, True])
    assert rule_of(s0, Opening((LayOff(0, hand_layoff(s0, 0, 0, "8S")), meld(s0, "4C 4C 4S")))) == "6.4"


def test_negative_score_committed_card_may_be_taken_for_a_layoff() -> None:
    # TAKE(i) is offered only if the committed card has a play: below 0 a lay-off is one
    s = build_state(
        BH,
        ["2C 9H", "2S"],
        table=["5S 6S 7S"],
        discard="8S",
        phase="draw",
        opened=[False, True],
        scores=[-5, 0],
    )
    assert TakeDiscard(0) in legal_moves(s)
    taken = apply(s, TakeDiscard(0))
    assert any(isinstance(m, LayOff) for m in legal_moves(taken))
    s0 = build_state(
        BH, ["2C 9H", "2S"], table=["5S 6S 7S"], discard="8S", phase="draw", opened=[False, True]
    )
    assert rule_of(s0, TakeDiscard(0)) == "5.2"


def test_take_offered_when_a_king_group_needs_the_queen_of_diamonds() -> None:
    # the J of diamonds cannot stand for a king: the group KS/2H KC/3H QD=KS/4H is found all the same
    s = build_state(
        BH, ["KS QD JD 2H 3H 4H 9C", "9S"], discard="5C KC", stock="4S", phase="draw", opened=[True, False]
    )
    assert TakeDiscard(1) in legal_moves(s)
    taken = apply(s, TakeDiscard(1))
    group = meld(taken, "KS/2H KC/3H QD=KS/4H")
    assert rule_of(taken, group) is None


def test_take_offered_when_the_committed_heart_is_a_core_card_of_the_bundle() -> None:
    # score 300: two melds of 8 cards; the taken 5H completes 2H 3H 4H 5H, the court run takes
    # other hearts as escorts
    s = build_state(
        BH,
        ["QS KS AS 2H 3H 4H 6H 7H 9C", "9S"],
        discard="8C 5H",
        stock="4S",
        phase="draw",
        opened=[False, False],
        scores=[300, 0],
    )
    assert TakeDiscard(1) in legal_moves(s)
    taken = apply(s, TakeDiscard(1))
    assert rule_of(taken, Opening((meld(taken, "QS/6H KS/7H AS"), meld(taken, "2H 3H 4H 5H")))) is None


def test_opening_melds_before_layoffs_in_the_bundle() -> None:
    s = build_state(BH, ["5S 6S 7S 8C 9C", "2S"], table=["5C 6C 7C"], opened=[False, True])
    early = Opening((LayOff(0, hand_layoff(s, 0, 0, "8C")), meld(s, "5S 6S 7S")))
    assert rule_of(s, early) == "6.4"
    s = apply(s, meld(s, "5S 6S 7S"))
    assert rule_of(s, LayOff(0, hand_layoff(s, 0, 0, "8C"))) is None


@pytest.mark.parametrize(
    ("score", "sizes", "legal"),
    [
        (-1, (3,), True),  # below 0: no requirement
        (99, (3,), True),
        (100, (3,), False),
        (100, (4,), True),
        (150, (3, 3), False),  # 1 meld: the largest must be big enough
        (150, (4, 3), True),
        (199, (4,), True),
        (200, (4,), False),
        (200, (5,), True),
        (299, (5,), True),
        (300, (5,), False),  # 2 melds from 300 on
        (300, (4, 3), False),
        (300, (5, 3), True),
        (300, (4, 3, 3), False),  # the two largest: 7
        (300, (4, 4, 3), True),  # extra melds allowed
        (399, (4, 4), True),
        (400, (4, 4), False),
        (400, (5, 4), True),
        (499, (5, 4), True),
        (500, (5, 4), False),
        (500, (5, 5), True),
        (5000, (6, 4), True),
    ],
)
def test_opening_chart_lines(score: int, sizes: tuple[int, ...], legal: bool) -> None:
    # sizes count every card of a meld; a spare KC keeps it from being a Black Heart
    pool = {
        3: ["2S 3S 4S", "2C 3C 4C", "AH 2H 3H"],
        4: ["5C 6C 7C 8C", "5S 6S 7S 8S"],
        5: ["4H 5H 6H 7H 8H", "9S 9C 9H 9S 9C"],
        6: ["TS TC TH TS TC TH"],
    }
    chosen = [pool[size][sizes[:k].count(size)] for k, size in enumerate(sizes)]
    s = build_state(BH, [" ".join([*chosen, "KC"]), "AC"], opened=[False, True], scores=[score, 0])
    plays = tuple(meld(s, text) for text in chosen)
    move = plays[0] if len(plays) == 1 else Opening(plays)
    assert rule_of(s, move) == (None if legal else "6.4")


# ---------------------------------------------------------------------------- §6.5 diamond swap
def test_worked_swap_kd_for_qc_with_a_ten_of_hearts_before_opening() -> None:
    s = build_state(BH, ["9C 4C", "QC TH 4S"], table=["QC/2H QS/7H KD=QD"], turn=1, opened=[True, False])
    kd = diamond_id(s, 0, "KD")
    swap = DiamondSwap(0, kd, hand_ids(s, 1, "QC")[0], hand_ids(s, 1, "TH")[0])
    assert rule_of(s, swap) is None  # allowed before opening, by an opponent
    after = apply(s, swap)
    assert kd in after.round.hands[1]
    assert after.round.credited[1] == 10 + 10 and after.round.credited[0] == 10 + 5 + 10 + 5
    assert not after.round.opened[1]  # a swap is not an opening
    # without the escort the queen of clubs cannot stand
    assert rule_of(s, DiamondSwap(0, kd, hand_ids(s, 1, "QC")[0])) == "6.2"


def test_swap_keeps_the_meld_rank() -> None:
    s = opened_state("5S 6S 9C", table=["3S 4S QD=5S"])
    qd = diamond_id(s, 0, "QD")
    assert rule_of(s, DiamondSwap(0, qd, hand_ids(s, 0, "5S")[0])) is None
    assert rule_of(s, DiamondSwap(0, qd, hand_ids(s, 0, "6S")[0])) == "6.5"


def test_swap_a_diamond_escort_for_a_heart() -> None:
    s = opened_state("4H 4S 9C", table=["TC JC/4H QC/JD"])
    jd = diamond_id(s, 0, "JD")
    assert rule_of(s, DiamondSwap(0, jd, hand_ids(s, 0, "4H")[0])) is None
    assert rule_of(s, DiamondSwap(0, jd, hand_ids(s, 0, "4S")[0])) == "6.5"


def test_swap_with_the_committed_card_must_replay_the_diamond() -> None:
    s = build_state(
        BH,
        ["4S 8S 9S 2C", "2C"],
        table=["3S 4S QD=5S"],
        discard="5S",
        phase="draw",
        opened=[True, True],
    )
    s = apply(s, TakeDiscard(0))
    qd = diamond_id(s, 0, "QD")
    five = hand_ids(s, 0, "5S")[0]
    assert rule_of(s, DiamondSwap(0, qd, five)) == "6.5"
    place = MeldCards(hand_meld_with(s, "8S 9S", qd, "TS"))
    assert rule_of(s, DiamondSwap(0, qd, five, place=place)) is None
    swaps = [m for m in legal_moves(s) if isinstance(m, DiamondSwap) and m.replacement == five]
    assert swaps and all(m.place is not None for m in swaps)


def hand_meld_with(state, text: str, wild: int, meaning: str):
    """A meld of hand cards plus a wild (not yet in hand) meaning `meaning`, appended at the end."""
    from dataclasses import replace

    from rummyai.cards import parse_meaning

    base = hand_meld(state, state.round.turn, text)
    return replace(
        base,
        ids=(*base.ids, wild),
        meanings=(*base.meanings, parse_meaning(meaning, meaning)),
        escorts=(*base.escorts, None),
    )


def test_swapped_diamond_may_be_kept_and_played_later() -> None:
    s = opened_state("5S 9C 9S", table=["3S 4S QD=5S"])
    qd = diamond_id(s, 0, "QD")
    s = apply(s, DiamondSwap(0, qd, hand_ids(s, 0, "5S")[0]))
    assert qd in s.round.hands[0]
    assert rule_of(s, Discard(qd)) is None


def test_analysis_of_wild_in_group_keeps_suit_for_escort() -> None:
    v = get_variant(BH)
    s = opened_state("KS 9H KS 5H QD AH 9C")
    info = analyze(v, meld(s, "KS/9H KS/5H QD=KS/AH").meld)
    assert info.kind == "group" and info.rank == 13


def swap_candidates(state) -> list[DiamondSwap]:
    """The diamond swaps the generator proposes (before the family filters them by validation)."""
    return [m for m in play_candidates(state) if isinstance(m, DiamondSwap)]


def test_generator_offers_diamond_escorts_for_a_swapped_in_black_court() -> None:
    # §6.2/§6.5: a black court card brought in by a swap needs a new escort: a heart, or J♦/K♦ as one
    s = opened_state("QS JD KD 4H 9C", table=["QC/2H QS/7H QD"])
    qd = diamond_id(s, 0, "QD")
    queen = hand_ids(s, 0, "QS")[0]
    jd, kd, heart = (hand_ids(s, 0, t)[0] for t in ("JD", "KD", "4H"))
    proposed = swap_candidates(s)
    assert {(qd, queen, heart), (qd, queen, jd), (qd, queen, kd)} <= {
        (m.diamond, m.replacement, m.escort) for m in proposed
    }
    assert all(rule_of(s, m) is None for m in proposed)
    after = apply(s, DiamondSwap(0, qd, queen, kd))
    assert after.round.credited[0] == 45 - 15 + 10 + 20  # the queen and K♦ in, Q♦ out
    assert qd in after.round.hands[0] and kd not in after.round.hands[0]
    # with J♦ the only possible escort it is still offered; Q♦ stands for no heart and never escorts
    s1 = opened_state("QS JD 9C", table=["QC/2H QS/7H QD"])
    assert [(m.replacement, m.escort) for m in swap_candidates(s1)] == [
        (hand_ids(s1, 0, "QS")[0], hand_ids(s1, 0, "JD")[0])
    ]
    s2 = opened_state("KS QD 9C", table=["KC/2H KS/7H KD"])
    assert swap_candidates(s2) == []


def test_generated_swaps_all_validate_along_random_games() -> None:
    # every swap candidate the generator proposes in random games passes the validator (with a
    # committed card pending, a swap may also take away its only play: those the family filters out)
    seen = 0
    for seed in range(4):
        state = new_match(BH, 3, seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(200):
            if state.match_over:
                break
            data = state.round.family_data
            pending = any(c in state.round.hands[state.round.turn] for c in data.committed)
            if data.phase == "play" and not pending:
                for move in swap_candidates(state):
                    assert validate(state, move) is None, move
                    seen += 1
            moves = legal_moves(state)
            state = apply(state, moves[int(rng.integers(len(moves)))])
    assert seen > 0


def test_escort_swap_keeps_the_core_card_credited_to_its_placer() -> None:
    # seat 0 placed TS JS/2H QD=QS/JD; seat 1 swaps the J♦ escort for 4H; seat 2 swaps the Q♦ for QS
    s = build_state(BH, ["9C 8C", "4H 9S", "QS 5S"], table=["TS JS/2H QD=QS/JD"], table_credit=[0], turn=1)
    assert s.round.credited == (10 + 10 + 5 + 15 + 10, 0, 0)
    s = apply(s, DiamondSwap(0, table_id(s, 0, "JD"), hand_ids(s, 1, "4H")[0]))
    assert s.round.credited == (50 - 10, 5, 0)
    assert s.round.table[0].credit == (0, 0, 0)  # the queen's slot is still seat 0's
    s = pass_turn_to(s, 2)
    s = apply(s, DiamondSwap(0, table_id(s, 0, "QD"), hand_ids(s, 2, "QS")[0]))
    # the Q♦ leaves seat 0's credit (who placed it), the natural queen is seat 2's
    assert s.round.credited == (40 - 15, 5, 10)
    # the view says who holds each escort's credit: 2H seat 0's, the 4H seat 1's (it swapped it in)
    shown = view(s, 0)["table"][0]
    assert shown["text"] == "TS JS/2H QS/4H"
    assert shown["escort_credit"] == [None, 0, 1]
    with pytest.raises(IllegalMoveError, match=r"6\.5"):
        apply(s, DiamondSwap(0, table_id(s, 0, "QS"), hand_ids(s, 2, "5S")[0]))


def test_a_diamond_escort_left_behind_stays_credited_to_its_placer() -> None:
    # seat 0 placed TS JS/2H QD=QS/JD; seat 1 swaps the Q♦ for QS (the J♦ escort stays with it);
    # seat 2 then swaps the J♦ escort for 4H: the J♦ leaves seat 0's credit, not seat 1's
    s = build_state(BH, ["9C 8C", "QS 9S", "4H 5S"], table=["TS JS/2H QD=QS/JD"], table_credit=[0], turn=1)
    s = apply(s, DiamondSwap(0, table_id(s, 0, "QD"), hand_ids(s, 1, "QS")[0]))
    assert s.round.credited == (50 - 15, 10, 0)
    s = apply(apply(s, Discard(hand_ids(s, 1, "9S")[0])), DrawStock())
    assert s.round.turn == 2
    s = apply(s, DiamondSwap(0, table_id(s, 0, "JD"), hand_ids(s, 2, "4H")[0]))
    assert s.round.credited == (35 - 10, 10, 5)
    assert sum(s.round.credited) == 10 + (10 + 5) + (10 + 5)  # TS, JS/2H, QS/4H on the table


def test_swap_a_diamond_playing_as_itself_in_a_group() -> None:
    s = build_state(BH, ["KS 4H 9C", "5S"], table=["KS/2H KC/3H KD"], table_credit=[1], opened=[False, True])
    kd = table_id(s, 0, "KD")
    king, heart = hand_ids(s, 0, "KS")[0], hand_ids(s, 0, "4H")[0]
    assert rule_of(s, DiamondSwap(0, kd, king)) == "6.2"  # the black king needs a heart escort
    after = apply(s, DiamondSwap(0, kd, king, heart))
    assert kd in after.round.hands[0] and not after.round.opened[0]
    assert after.round.credited == (10 + 5, 10 + 5 + 10 + 5)


def test_swap_a_group_wild_for_any_card_of_the_rank() -> None:
    s = build_state(BH, ["7S 8S 9C", "5S"], table=["7S 7C JD=7H"], opened=[True, True])
    jd = table_id(s, 0, "JD")
    assert rule_of(s, DiamondSwap(0, jd, hand_ids(s, 0, "7S")[0])) is None
    assert rule_of(s, DiamondSwap(0, jd, hand_ids(s, 0, "8S")[0])) == "6.5"


def test_escort_stays_with_the_replacement() -> None:
    s = build_state(BH, ["QS 6H 9C", "5S"], table=["TS JS/2H QD=QS/5H"], opened=[True, True])
    qd = table_id(s, 0, "QD")
    queen = hand_ids(s, 0, "QS")[0]
    assert rule_of(s, DiamondSwap(0, qd, queen, hand_ids(s, 0, "6H")[0])) == "6.5"
    after = apply(s, DiamondSwap(0, qd, queen))
    new = after.round.table[0]
    five = table_id(s, 0, "5H")
    assert new.escorts[new.ids.index(queen)] == five


def test_q_diamond_replaces_a_k_diamond_that_stood_for_an_escorted_queen() -> None:
    # QS/2H QC/3H K♦=QS/4H: Q♦ is a card of the group's rank; the 4H escort stays with it, so it
    # plays as a wild black queen (as it may in a new meld, §6.2) and the swapper takes the K♦
    s = build_state(BH, ["QD 9C", "2S"], table=["QS/2H QC/3H KD=QS/4H"], table_credit=[1])
    swap = DiamondSwap(0, table_id(s, 0, "KD"), hand_ids(s, 0, "QD")[0])
    assert rule_of(s, swap) is None
    assert swap in legal_moves(s)
    s = apply(s, swap)
    assert table_texts(s) == ["QS/2H QC/3H QD=QS/4H"]
    assert tokens(s, s.round.hands[0]) == ["9C", "KD"]
    # Q♦ (15) is seat 0's; seat 1 keeps QS/2H QC/3H and the 4H escort, loses the K♦ (20)
    assert s.round.credited == (15, 10 + 5 + 10 + 5 + 5)
    assert view(s, 0)["table"][0]["escort_credit"] == [1, 1, 1]


def test_a_diamond_replacing_an_unescorted_slot_plays_as_itself() -> None:
    # JS/2H JC/3H K♦=J♦: the natural J♦ takes the slot as itself (no escort needed, §6.2)
    s = build_state(BH, ["JD 9C", "2S"], table=["JS/2H JC/3H KD=JD"], table_credit=[1])
    s = apply(s, DiamondSwap(0, table_id(s, 0, "KD"), hand_ids(s, 0, "JD")[0]))
    assert table_texts(s) == ["JS/2H JC/3H JD"]
    assert s.round.credited == (10, 30)
    # J♦ cannot take over an escorted slot: it never stands for a black jack (§6.2), so 4H has
    # no card to escort
    s = build_state(BH, ["JD 9C", "2S"], table=["JS/2H JC/3H KD=JS/4H"], table_credit=[1])
    assert rule_of(s, DiamondSwap(0, table_id(s, 0, "KD"), hand_ids(s, 0, "JD")[0])) == "6.5"


def test_a_diamond_escort_is_taken_back_with_a_natural_heart_only() -> None:
    # QC/K♦ KC/2H AC: "any heart" (§6.5 [D]) replaces an escort diamond; J♦ standing for a heart
    # is no heart card. The 4H is the swapper's; the K♦ (20) leaves seat 1's credit
    s = build_state(BH, ["JD 4H 9C", "2S"], table=["QC/KD KC/2H AC"], table_credit=[1])
    kd = table_id(s, 0, "KD")
    assert rule_of(s, DiamondSwap(0, kd, hand_ids(s, 0, "JD")[0])) == "6.5"
    assert rule_of(s, DiamondSwap(0, kd, hand_ids(s, 0, "9C")[0])) == "6.5"
    s = apply(s, DiamondSwap(0, kd, hand_ids(s, 0, "4H")[0]))
    assert table_texts(s) == ["QC/4H KC/2H AC"]
    assert s.round.credited == (5, 10 + 10 + 5 + 15)


# ---------------------------------------------------------------------------- §6.6 Black Heart
def test_black_heart_goes_out_without_meeting_the_chart() -> None:
    hand = "5S 6S 7S 4C 4C 4S"
    s = build_state(BH, [hand, "AH 9C", "2C"], opened=[False, True, True], scores=[450, 0, 0])
    bundle = Opening((meld(s, "5S 6S 7S"), meld(s, "4C 4C 4S")))
    assert rule_of(s, bundle) is None
    out = apply(s, bundle)
    result = out.history[-1]
    assert result.reason == "out" and result.detail == "Black Heart"
    played = 5 * 6
    assert result.scores[0] == played + 25 + 25 * 3
    assert result.scores[1] == -(15 + 5)
    # a bundle that does not empty the hand must still meet the chart
    s2 = build_state(BH, [hand + " 9C", "AH 9C", "2C"], opened=[False, True, True], scores=[450, 0, 0])
    assert rule_of(s2, Opening((meld(s2, "5S 6S 7S"), meld(s2, "4C 4C 4S")))) == "6.4"


def test_black_heart_with_a_single_meld_or_layoff() -> None:
    s = build_state(BH, ["5S 6S 7S", "AH"], opened=[False, True], scores=[300, 0])
    out = apply(s, meld(s, "5S 6S 7S"))
    assert out.history[-1].detail == "Black Heart" and out.history[-1].scores[0] == 15 + 25 + 50
    s = build_state(
        BH, ["8S", "AH"], table=["5S 6S 7S"], table_credit=[1], opened=[False, True], scores=[300, 0]
    )
    out = apply(s, LayOff(0, hand_layoff(s, 0, 0, "8S")))
    assert out.history[-1].detail == "Black Heart" and out.history[-1].scores[0] == 5 + 25 + 50
    assert any(isinstance(m, LayOff) for m in legal_moves(s))
    s = build_state(BH, ["8S 9C", "AH"], table=["5S 6S 7S"], opened=[False, True], scores=[300, 0])
    assert rule_of(s, LayOff(0, hand_layoff(s, 0, 0, "8S"))) == "6.4"
    assert not any(isinstance(m, LayOff) for m in legal_moves(s))


def test_no_black_heart_after_an_earlier_play() -> None:
    s = build_state(BH, ["8S", "AH"], table=["5S 6S 7S"], played=[True, True])
    out = apply(s, LayOff(0, hand_layoff(s, 0, 0, "8S")))
    assert out.history[-1].detail == "" and out.history[-1].scores[0] == 15 + 5 + 25


def test_going_out_by_discard_gets_no_black_heart_bonus() -> None:
    s = build_state(BH, ["8S", "AH"])
    out = apply(s, Discard(hand_ids(s, 0, "8S")[0]))
    assert out.history[-1].scores == (25, -15)


def test_black_heart_by_a_meld_and_a_layoff_makes_the_take_legal() -> None:
    # score 300 asks two melds of 8 cards; 7S is playable only by going out at once (§5.2, §6.6)
    hands = ["5S 6S 8C", "2S 3S", "9H"]
    s = build_state(
        BH,
        hands,
        table=["5C 6C 7C"],
        table_credit=[1],
        discard="7S",
        phase="draw",
        opened=[False, True, True],
        scores=[300, 0, 0],
    )
    assert rule_of(s, TakeDiscard(0)) is None and TakeDiscard(0) in legal_moves(s)
    s = apply(s, TakeDiscard(0))
    outs = [m for m in legal_moves(s) if isinstance(m, Opening)]
    assert outs
    result = apply(s, outs[0]).history[-1]
    assert result.reason == "out" and result.detail == "Black Heart"
    # played 5S 6S 7S 8C (20) + 25 out + 25 x 3 players; seat 1: 15 on the table - 10 held
    assert result.scores == (20 + 25 + 75, 15 - 10, -5)
    bundle = Opening((meld(s, "5S 6S 7S"), LayOff(0, hand_layoff(s, 0, 0, "8C"))))
    assert rule_of(s, bundle) is None
    # with one more card that fits nowhere it is no Black Heart, and 3 cards miss the chart's 8
    s2 = build_state(
        BH,
        ["5S 6S 8C 9H", "2S 3S", "9H"],
        table=["5C 6C 7C"],
        discard="7S",
        phase="draw",
        opened=[False, True, True],
        scores=[300, 0, 0],
    )
    assert rule_of(s2, TakeDiscard(0)) == "5.2"


def test_black_heart_after_a_diamond_swap_in_the_same_turn() -> None:
    s = build_state(
        BH, ["5S 9C 9C", "AH"], table=["3S 4S QD=5S"], table_credit=[1], opened=[False, True], scores=[200, 0]
    )
    qd = table_id(s, 0, "QD")
    s = apply(s, DiamondSwap(0, qd, hand_ids(s, 0, "5S")[0]))
    out = apply(s, meld(s, "9C 9C QD=9S"))
    result = out.history[-1]
    # a swap is not a play: the first play empties the hand (no chart needed); seat 0 has 5S and
    # 9C 9C QD=9S on the table, seat 1 keeps 3S 4S and loses the Q♦, holding AH
    assert result.detail == "Black Heart"
    assert result.scores == (5 + (5 + 5 + 15) + 25 + 25 * 2, 5 + 5 - 15)


def test_a_diamond_swapped_on_an_earlier_turn_keeps_the_black_heart() -> None:
    # turn 1: seat 0 (score 300) swaps 7H for the K♦ and discards; its next turn it goes out with
    # 8S 8C 8H K♦=8x by one meld: its first play, so a Black Heart (§6.6: swaps are not plays)
    s = build_state(
        BH,
        ["7H 8S 8C 9C", "3S 2S"],
        table=["5H 6H KD=7H"],
        table_credit=[1],
        opened=[False, True],
        scores=[300, 0],
        stock="5C 8H AC",
    )
    s = apply(s, DiamondSwap(0, table_id(s, 0, "KD"), hand_ids(s, 0, "7H")[0]))
    s = apply(s, Discard(hand_ids(s, 0, "9C")[0]))
    assert s.round.played_before == (False, False)
    s = apply(apply(s, DrawStock()), Discard(hand_ids(s, 1, "3S")[0]))
    s = apply(s, DrawStock())
    assert tokens(s, s.round.hands[0]) == ["8C", "8H", "8S", "KD"]
    result = apply(s, meld(s, "8S 8C 8H KD=8S")).history[-1]
    assert result.detail == "Black Heart"
    # seat 0: 7H (5) + 8S 8C 8H K♦ (5+5+5+20) + 25 out + 25 x 2 seats; seat 1: 5H 6H - (2S AC)
    assert result.scores == (5 + 35 + 25 + 50, 10 - 20)


def test_black_heart_for_a_player_below_zero() -> None:
    s = build_state(
        BH, ["8S", "AH"], table=["5S 6S 7S"], table_credit=[1], opened=[True, True], scores=[-40, 0]
    )
    result = apply(s, LayOff(0, hand_layoff(s, 0, 0, "8S"))).history[-1]
    assert result.detail == "Black Heart" and result.scores == (5 + 25 + 50, 15 - 15)


def test_royale_as_a_black_heart() -> None:
    s = build_state(BH, ["JD QD KD", "AH", "2C"], opened=[False, True, True], scores=[400, 0, 0])
    result = apply(s, meld(s, "JD QD KD")).history[-1]
    assert result.detail == "Black Heart"
    assert result.scores == (150 + 25 + 25 * 3, -15, -5)


# ---------------------------------------------------------------------------- §6.6 scores
def test_black_heart_empty_draw_pile_ends_the_deal_as_in_standard() -> None:
    # §6.7.9 -> §5.4: take from the row or end the deal; played minus held, no bonus
    s = build_state(
        BH, ["7H 8H 2C", "3S"], table=["5S 6S 7S"], table_credit=[1], discard="9H", stock="", phase="draw"
    )
    assert rule_of(s, DrawStock()) == "5.2"
    assert TakeDiscard(0) in legal_moves(s) and EndDeal() in legal_moves(s)
    result = apply(s, EndDeal()).history[-1]
    assert result.reason == "stock_exhausted" and result.winner is None
    assert result.scores == (-15, 15 - 5)
    s2 = build_state(BH, ["7H 8H 2C", "3S"], discard="9H", stock="4C", phase="draw")
    assert rule_of(s2, EndDeal()) == "5.4"


PASSIVE = ("DrawStock", "Discard", "EndDeal", "DeclineKnock")


BH_DIAMONDS = {"JD": 10, "QD": 15, "KD": 20}


def bh_value(kind: int) -> int:
    """Black Heart card value written out from the §6.6 table."""
    token = card_str(kind)
    if token in BH_DIAMONDS:
        return BH_DIAMONDS[token]
    rank = rank_of(kind)
    return 15 if rank == 1 else 5 if rank <= 9 else 10


def bh_expected(state: GameState, before: GameState) -> list[int]:
    """The finished deal's scores from its table, escorts and hands (§6.6 with §5.4)."""
    finished = state.finished
    assert finished is not None
    deck, n = state.variant.deck, state.num_players
    shown = view(replace(before, round=finished), 0)["table"]
    credit = [0] * n
    for meld_, seen in zip(finished.table, shown, strict=True):
        if [card_str(deck[i]) for i in meld_.ids] == ["JD", "QD", "KD"] and not any(meld_.meanings):
            credit[meld_.credit[0]] += 150  # the Royale, only while it stands as one
            continue
        for card, seat in zip(meld_.ids, meld_.credit, strict=True):
            credit[seat] += bh_value(deck[card])
        for escort, seat in zip(meld_.escorts, seen["escort_credit"], strict=True):
            if escort is not None:
                credit[seat] += bh_value(deck[escort])
    scores = [
        c - sum(bh_value(deck[i]) for i in hand) for c, hand in zip(credit, finished.hands, strict=True)
    ]
    result = state.history[-1]
    if result.reason == "out":
        assert result.winner is not None
        scores[result.winner] += 25 + (25 * n if result.detail == "Black Heart" else 0)
    return scores


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_black_heart_deal_scores_follow_the_value_table(seed: int) -> None:
    state = new_match(BH, 2 + seed, seed, options={"max_deals": 3}, max_turns=300)
    rng = np.random.default_rng(seed)
    deals = 0
    while not state.match_over:
        moves = legal_moves(state)
        plays = [m for m in moves if type(m).__name__ not in PASSIVE]
        pool = plays if plays and rng.random() < 0.85 else moves
        before, state = state, apply(state, pool[int(rng.integers(len(pool)))])
        if len(state.history) > len(before.history):
            deals += 1
            assert list(state.history[-1].scores) == bh_expected(state, before)
    assert deals >= 1


# ---------------------------------------------------------------------------- §5.2 with §6.4/§6.5/§6.6: committed card
def test_committed_card_may_be_laid_off_after_an_opening_without_it() -> None:
    # §5.2: TAKE(i) needs some legal play of card i this turn; §6.4: after the opening anything goes
    s = build_state(
        BH,
        ["4C 4S 4H 9C", "2S 3S"],
        table=["5S 6S 7S"],
        discard="8S",
        phase="draw",
        opened=[False, True],
        scores=[50, 0],
    )
    assert rule_of(s, TakeDiscard(0)) is None and TakeDiscard(0) in legal_moves(s)
    s = apply(s, TakeDiscard(0))
    opening = meld(s, "4C 4S 4H")
    assert any(isinstance(m, MeldCards) and set(m.meld.ids) == set(opening.meld.ids) for m in legal_moves(s))
    s = apply(s, opening)
    eight = hand_ids(s, 0, "8S")[0]
    assert rule_of(s, Discard(eight)) == "5.2"  # still committed
    layoffs = [m for m in legal_moves(s) if isinstance(m, LayOff)]
    assert layoffs and all(eight in m.meld.ids for m in layoffs)
    # with nothing to open, the take stays refused
    s0 = build_state(
        BH, ["4C 4S 9H 9C", "2S 3S"], table=["5S 6S 7S"], discard="8S", phase="draw", opened=[False, True]
    )
    assert rule_of(s0, TakeDiscard(0)) == "5.2"


def test_committed_card_may_be_placed_by_a_black_heart() -> None:
    # §6.6: a Black Heart needs no opening, so it is a legal play of the committed card
    s = build_state(
        BH,
        ["5S 6S 4C 4C 4S", "2S 3S", "9H"],
        discard="7S",
        phase="draw",
        opened=[False, True, True],
        scores=[300, 0, 0],
    )
    assert rule_of(s, TakeDiscard(0)) is None
    s = apply(s, TakeDiscard(0))
    outs = [m for m in legal_moves(s) if isinstance(m, Opening)]
    assert outs
    result = apply(s, outs[0]).history[-1]
    assert result.detail == "Black Heart" and result.scores[0] == 6 * 5 + 25 + 25 * 3
    # the same hand plus a card that fits nowhere: no Black Heart, and 6 cards miss the chart's 8
    s2 = build_state(
        BH,
        ["5S 6S 4C 4C 4S 9H", "2S 3S", "9C"],
        discard="7S",
        phase="draw",
        opened=[False, True, True],
        scores=[300, 0, 0],
    )
    assert rule_of(s2, TakeDiscard(0)) == "5.2"


def test_generator_uses_diamonds_as_escorts_in_melds_and_layoffs() -> None:
    # §6.2: with no natural heart left, J♦/K♦ standing for a heart escort the black court cards
    s = opened_state("QS KS AS JD KD 9C")
    texts = {
        " ".join(str(x) for x in m.meld.slots(s.variant.deck))
        for m in play_candidates(s)
        if isinstance(m, MeldCards)
    }
    assert "QS/JD KS/KD AS" in texts
    s = opened_state("KS JD 9C", table=["TS JS/2H QS/3H"])
    layoffs = [m for m in legal_moves(s) if isinstance(m, LayOff)]
    assert [" ".join(str(x) for x in m.meld.slots(s.variant.deck)) for m in layoffs] == [
        "TS JS/2H QS/3H KS/JD"
    ]
    assert all(rule_of(s, m) is None for m in layoffs)
    # natural hearts are still preferred as escorts
    s = opened_state("KS JD 4H 9C", table=["TS JS/2H QS/3H"])
    texts = [
        " ".join(str(x) for x in m.meld.slots(s.variant.deck))
        for m in legal_moves(s)
        if isinstance(m, LayOff)
    ]
    assert texts[0] == "TS JS/2H QS/3H KS/4H"


def test_swap_with_committed_card_places_the_diamond_after_an_opening_without_it() -> None:
    # §6.5: the freed Q♦ must be placed again; §6.4: the opening (5 hearts) comes first, then the lay-off
    s = build_state(
        BH,
        ["2H 3H 4H 5H 6H 2C", "9C"],
        table=["3S 4S QD=5S", "6C 7C 8C"],
        table_credit=[1, 1],
        discard="5S",
        phase="draw",
        opened=[False, True],
        scores=[250, 0],
    )
    assert rule_of(s, TakeDiscard(0)) is None  # 5S has a play only through the swap
    s = apply(s, TakeDiscard(0))
    five, qd = hand_ids(s, 0, "5S")[0], diamond_id(s, 0, "QD")
    swaps = [m for m in legal_moves(s) if isinstance(m, DiamondSwap) and m.replacement == five]
    assert swaps and all(isinstance(m.place, Opening) for m in swaps)
    after = apply(s, swaps[0])
    assert after.round.opened[0] and qd not in after.round.hands[0]
    assert rule_of(s, DiamondSwap(0, qd, five)) == "6.5"  # the diamond may not stay in hand


def test_committed_heart_as_the_new_escort_leaves_the_diamond_free() -> None:
    # §6.5/§6.7.6: only a committed *replacement* makes the freed diamond committed; a committed
    # heart put down as the new escort is placed by the swap itself, and the diamond may be kept
    s = build_state(
        BH,
        ["QS 9C 8S", "2C"],
        table=["QC/2H QS/7H QD"],
        discard="4H",
        phase="draw",
        opened=[True, True],
    )
    s = apply(s, TakeDiscard(0))
    qd = diamond_id(s, 0, "QD")
    queen = hand_ids(s, 0, "QS")[0]
    heart = hand_ids(s, 0, "4H")[0]
    assert rule_of(s, DiamondSwap(0, qd, queen, heart)) is None
    after = apply(s, DiamondSwap(0, qd, queen, heart))
    assert qd in after.round.hands[0]
    assert rule_of(after, Discard(qd)) is None  # the diamond is the player's to keep or discard
    offered = [m for m in legal_moves(s) if isinstance(m, DiamondSwap) and m.escort == heart]
    assert offered and any(m.place is None for m in offered)


def test_take_legal_through_an_opening_then_a_chain_of_layoffs() -> None:
    # §5.2 with §6.4: open with 4C 4S 4H, then 8S and the committed 9S go onto 5S 6S 7S
    def position(hand: str) -> GameState:
        return build_state(
            BH,
            [hand, "2S 3S"],
            table=["5S 6S 7S"],
            table_credit=[1],
            discard="9S",
            phase="draw",
            opened=[False, True],
            scores=[50, 0],
        )

    s = position("4C 4S 4H 8S 9C")
    assert rule_of(s, TakeDiscard(0)) is None
    s = apply(s, TakeDiscard(0))
    while any(c in s.round.hands[0] for c in s.round.family_data.committed):
        plays = [m for m in legal_moves(s) if not isinstance(m, Discard)]
        assert plays
        s = apply(s, plays[0])
    assert s.round.opened[0] and kinds(s, s.round.hands[0]) == cards("9C")
    assert kinds(s, s.round.table[0].ids) == cards("5S 6S 7S 8S 9S")
    assert s.round.credited == (15 + 10, 15)
    assert rule_of(position("4C 4S 4H 8C 9C"), TakeDiscard(0)) == "5.2"


def test_take_is_legal_when_a_free_diamond_swap_lets_the_card_meld() -> None:
    # 8S fits nowhere as the hand stands; taking K♦ back from 5H 6H K♦=7H with the 7H (a free
    # swap, §6.5) gives 8S 8C K♦=8x: a legal play of 8S this turn, so TAKE(8S) is legal (§5.2)
    s = build_state(
        BH, ["7H 8C 2C", "3S"], table=["5H 6H KD=7H"], table_credit=[1], discard="8S", phase="draw"
    )
    assert rule_of(s, TakeDiscard(0)) is None
    assert TakeDiscard(0) in legal_moves(s)
    s = apply(s, TakeDiscard(0))
    s = apply(s, DiamondSwap(0, table_id(s, 0, "KD"), hand_ids(s, 0, "7H")[0]))
    assert tokens(s, s.round.hands[0]) == ["2C", "8C", "8S", "KD"]
    s = apply(s, meld(s, "8S 8C KD=8H"))
    assert table_texts(s)[0] == "5H 6H 7H"
    assert s.round.credited == (5 + 5 + 5 + 20, 5 + 5)  # the K♦ now counts for seat 0
    # the generator finds the same way on its own
    s = place_committed(
        apply(
            build_state(
                BH, ["7H 8C 2C", "3S"], table=["5H 6H KD=7H"], table_credit=[1], discard="8S", phase="draw"
            ),
            TakeDiscard(0),
        )
    )
    assert tokens(s, s.round.hands[0]) == ["2C"]


@pytest.mark.parametrize(
    ("hand", "score", "opened", "rule"),
    [
        ("7H 9C 2C", 0, True, "5.2"),  # no second eight: even with the K♦ back, 8S has no meld
        ("7H 8C 2C", 0, False, None),  # a 3-card meld also meets the 0-99 opening line (§6.4)
        ("7H 8C 2C", 100, False, "5.2"),  # 3 cards miss the 100-199 line's 4: no play of 8S
        ("7H 8C 2C", -5, True, None),
    ],
)
def test_take_through_a_free_swap_follows_the_opening_chart(
    hand: str, score: int, opened: bool, rule: str | None
) -> None:
    s = build_state(
        BH,
        [hand, "3S"],
        table=["5H 6H KD=7H"],
        table_credit=[1],
        discard="8S",
        phase="draw",
        opened=[opened, True],
        scores=[score, 0],
    )
    assert rule_of(s, TakeDiscard(0)) == rule


def test_take_is_legal_when_two_free_swaps_give_the_wilds_for_a_run() -> None:
    # 7S is played in 3S 4S Q♦=5S K♦=6S 7S once 3C and 5C have taken both diamonds back from
    # 2C K♦=3C 4C Q♦=5C 6C 7C (two swaps, §6.5); 3S 4S 7S then open with 5 cards (§6.4, 0-99)
    hand = "8H 9C 3S 3C 9H 5C KC KS TS 4S"
    table = ["2C KD=3C 4C QD=5C 6C 7C", "3H 4H 5H 6H"]
    s = build_state(
        BH, [hand, "AS"], table=table, table_credit=[1, 1], discard="7S", phase="draw", opened=[False, True]
    )
    assert rule_of(s, TakeDiscard(0)) is None
    s = apply(s, TakeDiscard(0))
    s = apply(s, DiamondSwap(0, table_id(s, 0, "KD"), hand_ids(s, 0, "3C")[0]))
    s = apply(s, DiamondSwap(0, table_id(s, 0, "QD"), hand_ids(s, 0, "5C")[0]))
    s = apply(s, meld(s, "3S 4S QD=5S KD=6S 7S"))
    assert table_texts(s) == ["2C 3C 4C 5C 6C 7C", "3H 4H 5H 6H", "3S 4S QD=5S KD=6S 7S"]
    assert s.round.opened[0] and s.round.family_data.committed == ()
    # without the 5C only the K♦ comes back: K♦ and 7S alone make no meld, so the take is refused
    s = build_state(
        BH,
        ["8H 9C 3S 3C 9H KC KS TS 2S", "AS"],
        table=table,
        table_credit=[1, 1],
        discard="7S",
        phase="draw",
        opened=[False, True],
    )
    assert rule_of(s, TakeDiscard(0)) == "5.2"
    assert TakeDiscard(0) not in legal_moves(s)


def test_take_is_legal_through_an_opening_then_a_lay_off_with_a_wild_below_a_run() -> None:
    # score 0, not opened: open with 3H 4H 5H 6H, then 2C K♦=3C go below 4C Q♦=5C 6C 7C (§6.4:
    # after the opening anything goes); the K♦ must not be spent on the opening
    s = build_state(
        BH,
        ["5H 4H JC 3H 6H 7S TC 4S KD 4H", "AS"],
        table=["4C QD=5C 6C 7C"],
        table_credit=[1],
        discard="2C",
        phase="draw",
        opened=[False, True],
    )
    assert rule_of(s, TakeDiscard(0)) is None
    s = place_committed(apply(s, TakeDiscard(0)))
    assert s.round.opened[0]
    assert "2C KD=3C 4C QD=5C 6C 7C" in table_texts(s)


def test_a_taken_card_that_is_not_committed_frees_the_diamond_it_replaces() -> None:
    # TAKE(0) takes 5S (committed) and 7H; the 7H swaps out K♦=7H: the K♦ is free, not committed
    # (§6.5 binds the diamond only to a committed replacement) and may even be discarded
    s = build_state(
        BH, ["5C 5H 2C", "3S"], table=["5H 6H KD=7H"], table_credit=[1], discard="5S 7H", phase="draw"
    )
    s = apply(s, TakeDiscard(0))
    s = apply(s, DiamondSwap(0, table_id(s, 0, "KD"), hand_ids(s, 0, "7H")[0]))
    assert tokens(s, s.round.family_data.committed) == ["5S"]
    assert rule_of(s, Discard(hand_ids(s, 0, "KD")[0])) == "5.2"  # 5S first
    s = apply(s, meld(s, "5S 5C 5H"))
    s = apply(s, Discard(hand_ids(s, 0, "KD")[0]))
    assert tokens(s, s.round.discard) == ["KD"]


def test_a_black_heart_needing_both_copies_of_a_card_is_offered_and_its_take_is_legal() -> None:
    # §6.6 with §7.1: 5S 6S 7S and 7S 7C 7H empty the hand, each meld with its own 7S
    s = build_state(BH, ["5S 6S 7S 7S 7C 7H", "AH 9C"], opened=[False, True], scores=[450, 0])
    bundles = [
        sorted(" ".join(tokens(s, p.meld.ids)) for p in m.plays if isinstance(p, MeldCards))
        for m in legal_moves(s)
        if isinstance(m, Opening)
    ]
    assert sorted(["5S 6S 7S", "7C 7H 7S"]) in bundles
    taking = build_state(
        BH, ["5S 6S 7S 7C 7H", "AH 9C"], discard="7S", phase="draw", opened=[False, True], scores=[450, 0]
    )
    assert rule_of(taking, TakeDiscard(0)) is None and TakeDiscard(0) in legal_moves(taking)


@pytest.mark.parametrize(
    ("hand", "score", "card"),
    [
        # §6.2: the jacks' escorts are hearts the run does not need (6H 9H TH, not 2H 3H 4H)
        ("JS JC JS 2H 3H 6H 9H TH 8C", 300, "4H"),
        # §6.2: QD stands in the spade run and KD in the club run, or the other way round
        ("2S 4S 5S 9C TC QD KD AH 3C", 350, "7C"),
    ],
)
def test_a_take_whose_opening_needs_other_escorts_or_wilds_is_legal(hand: str, score: int, card: str) -> None:
    s = build_state(BH, [hand, "AC 9S"], discard=card, phase="draw", opened=[False, True], scores=[score, 0])
    assert rule_of(s, TakeDiscard(0)) is None and TakeDiscard(0) in legal_moves(s)


@pytest.mark.parametrize(
    ("hand", "take", "table", "score", "opening"),
    [
        # the chart line wants 9 cards in two melds: the K of diamonds must stand for the escorted
        # Q of spades (QS/6H QS/9H KD=QS/3H and 3C 4C 5C), not for the Q of diamonds (8 cards)
        (
            "2H 3C 3H 4C 6H 8C 9H JC JD KD QS QS TC",
            "5C",
            ["KS/AH KC/6H KC/7H", "5S 6S 7S", "6S 7S 8S"],
            425,
            "5C",
        ),
        # the run holding the taken QS escorts with hearts, one of which (2H) the group of twos
        # needs as a natural: the group is served first
        ("2C 2H 2S 3C 3C 4H 5H 6S 9C 9H JS KC QD TH", "QS", [], 425, "2H"),
    ],
)
def test_a_take_whose_opening_needs_an_escort_or_a_heart_in_the_right_role_is_legal(
    hand: str, take: str, table: list[str], score: int, opening: str
) -> None:
    """§5.2 and §6.4: a take is legal when some opening bundle places the taken card."""
    s = build_state(
        "black-heart", [hand, "2S"], table=table, discard=f"9S {take}", phase="draw",
        opened=[False, False], scores=[score, 0], stock="AS AC",
    )  # fmt: skip
    assert validate(s, TakeDiscard(1)) is None
    after = apply(s, TakeDiscard(1))
    tables = [" | ".join(table_texts(apply(after, m))) for m in legal_moves(after) if isinstance(m, Opening)]
    assert tables and all(take in table for table in tables)  # every opening offered places it
    assert any(opening in table for table in tables)
