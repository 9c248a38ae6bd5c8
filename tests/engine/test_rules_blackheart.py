"""Black Heart Rum rules (VARIANTS.md §6), each with a legal and an illegal case, and the seed's
worked examples (escorts, every diamond wild example, the Royale)."""

from __future__ import annotations

import numpy as np
import pytest

from rummyai.cards import parse_card
from rummyai.engine.discard import (
    DISCARD_FAMILY,
    DiamondSwap,
    Discard,
    LayOff,
    MeldCards,
    Opening,
    TakeDiscard,
)
from rummyai.engine.discard_generate import play_candidates
from rummyai.engine.discard_melds import analyze
from rummyai.engine.discard_setup import build_state, hand_ids, hand_layoff, hand_meld
from rummyai.engine.game import apply, legal_moves, new_match, validate
from rummyai.variants import get_variant

from .discard_cases import meld, rule_of

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


# ---------------------------------------------------------------------------- §6.2 escorts
def test_black_court_cards_need_one_heart_escort() -> None:
    s = opened_state("QS 6H KS 3H AS 9C")
    assert rule_of(s, meld(s, "QS/6H KS/3H AS")) is None  # the seed's Q-K-A series
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
def test_seed_diamond_examples_are_legal(hand: str, text: str) -> None:
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


def test_opening_melds_before_layoffs_in_the_bundle() -> None:
    s = build_state(BH, ["5S 6S 7S 8C 9C", "2S"], table=["5C 6C 7C"], opened=[False, True])
    early = Opening((LayOff(0, hand_layoff(s, 0, 0, "8C")), meld(s, "5S 6S 7S")))
    assert rule_of(s, early) == "6.4"
    s = apply(s, meld(s, "5S 6S 7S"))
    assert rule_of(s, LayOff(0, hand_layoff(s, 0, 0, "8C"))) is None


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


# ---------------------------------------------------------------------------- §6.5 diamond swap
def test_seed_swap_kd_for_qc_with_a_ten_of_hearts_before_opening() -> None:
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


# ---------------------------------------------------------------------------- §5.2 with §6.4/§6.6: committed card
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
