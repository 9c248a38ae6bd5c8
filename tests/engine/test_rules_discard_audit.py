"""Rule audit of the draw-meld-discard engine (VARIANTS.md §4 Rummy Palace, §5 Standard Rummy,
§6 Black Heart Rum): hand-made positions played through the public API, each rule with its legal
case (exact result) and its illegal case (the typed error naming the section)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rummyai.cards import Meaning, parse_card
from rummyai.engine.discard import (
    DeclineKnock,
    DiamondSwap,
    Discard,
    DrawStock,
    EndDeal,
    JokerSwap,
    Knock,
    LayOff,
    MeldCards,
    Opening,
    TakeDiscard,
)
from rummyai.engine.discard_rules import DiscardData
from rummyai.engine.discard_setup import build_state, hand_ids, hand_layoff, hand_meld
from rummyai.engine.game import apply, legal_moves, match_winners, new_match, view
from rummyai.engine.state import GameState, RoundResult
from rummyai.errors import IllegalMoveError, RummyError
from rummyai.variants import get_variant

from .discard_cases import meld, rule_of, table_id

BH = "black-heart"


def pass_turn_to(state: GameState, seat: int) -> GameState:
    """The same position with `seat` to play (after its draw)."""
    kept = state.round.family_data.escort_credit  # the round's escort credits carry over, as in play
    data = DiscardData(
        phase="play", fresh=not state.round.played_before[seat], next_turn=seat, escort_credit=kept
    )
    return replace(state, round=replace(state.round, turn=seat, family_data=data))


def kinds(state: GameState, ids) -> list[int]:
    return sorted(state.variant.deck[i] for i in ids)


def cards(text: str) -> list[int]:
    return sorted(parse_card(t) for t in text.split())


# ---------------------------------------------------------------------------- §6.5 swap credit
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


# ---------------------------------------------------------------------------- §5.2 TAKE(i): any legal play
def test_take_is_legal_when_the_card_fits_after_laying_off_the_cards_between() -> None:
    # 9S fits 5S 6S 7S only once 8S is laid off first: still a legal play of 9S this turn
    s = build_state(
        "standard", ["8S 2C", "3D"], table=["5S 6S 7S"], table_credit=[1], discard="9S", phase="draw"
    )
    assert rule_of(s, TakeDiscard(0)) is None
    assert TakeDiscard(0) in legal_moves(s)
    s = apply(s, TakeDiscard(0))
    nine = hand_ids(s, 0, "9S")[0]
    offered = [m for m in legal_moves(s) if isinstance(m, LayOff)]
    assert offered and all(kinds(s, m.meld.ids) == cards("5S 6S 7S 8S") for m in offered)
    s = apply(s, offered[0])
    s = apply(s, LayOff(0, hand_layoff(s, 0, 0, "9S")))
    assert nine in s.round.table[0].ids and s.round.credited == (10, 15)
    assert rule_of(s, Discard(hand_ids(s, 0, "2C")[0])) is None
    # without the 8S in hand there is no play of 9S: the take is refused, naming §5.2
    s0 = build_state("standard", ["8C 2C", "3D"], table=["5S 6S 7S"], discard="9S", phase="draw")
    assert rule_of(s0, TakeDiscard(0)) == "5.2"
    assert TakeDiscard(0) not in legal_moves(s0)


def test_take_for_a_chain_below_a_run_and_a_play_stranding_the_card_is_refused() -> None:
    s = build_state("standard", ["4D 5D 7C", "KC"], table=["6D 7D 8D"], discard="3D", phase="draw")
    s = apply(s, TakeDiscard(0))
    # laying off 7C elsewhere is fine; discarding before 3D is down is not
    assert rule_of(s, Discard(hand_ids(s, 0, "7C")[0])) == "5.2"
    s = apply(s, LayOff(0, hand_layoff(s, 0, 0, "5D", front=True)))
    s = apply(s, LayOff(0, hand_layoff(s, 0, 0, "4D", front=True)))
    s = apply(s, LayOff(0, hand_layoff(s, 0, 0, "3D", front=True)))
    assert kinds(s, s.round.table[0].ids) == cards("3D 4D 5D 6D 7D 8D")
    assert s.round.family_data.committed == ()


# ---------------------------------------------------------------------------- §6.6 Black Heart by melds and lay-offs
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


# ---------------------------------------------------------------------------- §4.1/§5.1 seats and rounds
@pytest.mark.parametrize(
    ("variant", "hand", "other"), [("rummy-palace", "5C", "AS 7D"), ("standard", "8S", "AH")]
)
def test_each_later_round_starts_one_seat_further(variant: str, hand: str, other: str) -> None:
    s = build_state(variant, [hand, other, "KD"], played=[True] * 3)
    assert s.round.dealer == 2 and s.round.turn == 0
    s = apply(s, Discard(hand_ids(s, 0, hand)[0]))
    assert s.round_index == 1 and s.history[-1].winner == 0
    # the deal passes one seat left: dealer 0, and the player left of the dealer starts
    assert s.round.dealer == 0 and s.round.turn == 1
    size = s.variant.hand_size
    assert [len(h) for h in s.round.hands] == [size] * 3 and len(s.round.discard) == 1


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


def test_standard_and_black_heart_deal_cap_default_20() -> None:
    for variant in ("standard", BH):
        v = get_variant(variant)
        assert v.rounds == 20
        out = RoundResult(1, (0, 0), "out")
        assert match_winners(v, (120, 80), (out,) * 19) == ()
        assert match_winners(v, (120, 80), (out,) * 20) == (0,)
        # going out with >= 500 wins at once, even with someone else higher
        assert match_winners(v, (700, 500), (out,)) == (1,)


@pytest.mark.parametrize(
    ("variant", "players", "options", "legal"),
    [
        ("standard", 2, None, True),
        ("standard", 4, None, True),
        ("standard", 5, None, False),
        ("standard", 4, ["decks=2"], False),
        ("standard", 5, ["decks=2"], True),
        ("standard", 8, ["decks=2"], True),
        ("standard", 9, ["decks=2"], False),
        (BH, 6, None, True),
        (BH, 7, None, False),
        ("rummy-palace", 6, None, True),
        ("rummy-palace", 7, None, False),
        ("rummy-palace", 1, None, False),
    ],
)
def test_player_counts(variant: str, players: int, options: list[str] | None, legal: bool) -> None:
    if legal:
        s = new_match(variant, players, seed=1, options=options)
        assert len(s.round.hands) == players
    else:
        with pytest.raises(RummyError, match="players"):
            new_match(variant, players, seed=1, options=options)


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


def test_standard_deck_has_no_jokers() -> None:
    v = get_variant("standard")
    assert len(v.deck) == 52 and len(set(v.deck)) == 52
    with pytest.raises(RummyError):
        build_state("standard", ["JK 2C", "3D"])


# ---------------------------------------------------------------------------- §4.2 turn
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


# ---------------------------------------------------------------------------- §4.4 opening
def test_palace_layoff_in_the_opening_bundle_only_after_thirty() -> None:
    s = build_state(
        "rummy-palace", ["7S 8S 9S 4H 4D 4C 9H 2C", "2C"], table=["6H 7H 8H"], opened=[False, True]
    )
    after = Opening((meld(s, "7S 8S 9S"), meld(s, "4H 4D 4C"), LayOff(0, hand_layoff(s, 0, 0, "9H"))))
    assert rule_of(s, after) is None
    before = Opening((meld(s, "7S 8S 9S"), LayOff(0, hand_layoff(s, 0, 0, "9H")), meld(s, "4H 4D 4C")))
    assert rule_of(s, before) == "4.4"  # the lay-off came at 24 points


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


# ---------------------------------------------------------------------------- §4.6/§4.7 Palace scoring and knocks
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


def test_palace_going_rummy_doubles_the_winners_gain_with_several_losers() -> None:
    s = build_state("rummy-palace", ["TS JS QS 9C", "AS", "JK 7D"], opened=[False, True, True])
    s = apply(s, meld(s, "TS JS QS"))
    result = apply(s, Discard(hand_ids(s, 0, "9C")[0])).history[-1]
    assert result.detail == "Going Rummy"
    assert result.scores == (2 * (11 + 27), -22, -54)


# ---------------------------------------------------------------------------- §5 Standard
def test_taking_the_top_card_commits_it() -> None:
    s = build_state("standard", ["7H 8H 2C", "3D"], discard="KS 9H", phase="draw")
    s = apply(s, TakeDiscard(1))
    nine = hand_ids(s, 0, "9H")[0]
    assert s.round.family_data.committed == (nine,)
    assert rule_of(s, Discard(nine)) == "5.2"
    assert rule_of(s, Discard(hand_ids(s, 0, "2C")[0])) == "5.2"


def test_standard_low_ace_is_worth_fifteen_on_the_table() -> None:
    s = build_state("standard", ["AS 2S 3S KD", "4C"])
    s = apply(s, meld(s, "AS 2S 3S"))
    assert s.round.credited == (15 + 5 + 5, 0)
    result = apply(s, Discard(hand_ids(s, 0, "KD")[0])).history[-1]
    assert result.scores == (25 + 25, -5)  # no Black Heart bonus in the standard game


def test_standard_two_decks_groups_without_cap_runs_without_repeats() -> None:
    hands = ["7H 7H 7S 7S 7C 7D 5H 6H 6H 2C", "4D", "4D", "5D", "6D"]
    s = build_state("standard", hands, options=["decks=2"])
    assert rule_of(s, meld(s, "7H 7H 7S 7S 7C 7D")) is None
    assert rule_of(s, meld(s, "5H 6H 6H 7H")) == "5.3"


def test_standard_group_of_one_deck_distinct_suits() -> None:
    s = build_state("standard", ["7H 7S 7C 2C", "7D"], table=["9S 9H 9D 9C"])
    assert rule_of(s, meld(s, "7H 7S 7C")) is None
    s = build_state("standard", ["9S 2C", "7D"], table=["9H 9D 9C"], stock="")
    assert rule_of(s, LayOff(0, hand_layoff(s, 0, 0, "9S"))) is None


def test_empty_draw_pile_and_empty_row_leave_only_ending_the_deal() -> None:
    s = build_state("standard", ["7H 8H 2C", "3D"], discard="", stock="", phase="draw")
    assert legal_moves(s) == [EndDeal()]
    assert rule_of(s, TakeDiscard(0)) == "5.2"


# ---------------------------------------------------------------------------- §6.2/§6.3 Black Heart cards
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


# ---------------------------------------------------------------------------- §6.4 chart
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


# ---------------------------------------------------------------------------- §6.5 diamond swaps
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


# ---------------------------------------------------------------------------- §6.6 Black Heart edges
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


def test_black_heart_for_a_player_below_zero() -> None:
    s = build_state(
        BH, ["8S", "AH"], table=["5S 6S 7S"], table_credit=[1], opened=[True, True], scores=[-40, 0]
    )
    result = apply(s, LayOff(0, hand_layoff(s, 0, 0, "8S"))).history[-1]
    assert result.detail == "Black Heart" and result.scores == (5 + 25 + 50, 15 - 15)


# ---------------------------------------------------------------------------- §4.3/§4.8.3 stated joker meanings
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


def test_royale_as_a_black_heart() -> None:
    s = build_state(BH, ["JD QD KD", "AH", "2C"], opened=[False, True, True], scores=[400, 0, 0])
    result = apply(s, meld(s, "JD QD KD")).history[-1]
    assert result.detail == "Black Heart"
    assert result.scores == (150 + 25 + 25 * 3, -15, -5)


def test_take_for_a_meld_with_cards_taken_after_it() -> None:
    # §5.2: the hand plus the cards taken: 8H is played with 7H from hand and 9H taken with it
    s = build_state("standard", ["7H 2C", "3D"], discard="KS 8H 9H", phase="draw")
    assert rule_of(s, TakeDiscard(1)) is None
    s = apply(s, TakeDiscard(1))
    assert rule_of(s, meld(s, "7H 8H 9H")) is None
    s2 = build_state("standard", ["7C 2C", "3D"], discard="KS 8H 9H", phase="draw")
    assert rule_of(s2, TakeDiscard(1)) == "5.2"


def test_palace_group_jokers_take_missing_suits_only() -> None:
    s = build_state("rummy-palace", ["4C 4S JK 9D", "2C"])
    assert rule_of(s, meld(s, "4C 4S JK=4C")) == "4.3"
    assert rule_of(s, meld(s, "4C 4S JK=4D")) is None
    s = build_state("rummy-palace", ["JK 9D", "2C"], table=["4C 4S JK=4"])
    after = apply(s, LayOff(0, hand_layoff(s, 0, 0, "JK=4")))  # 2 jokers beside 2 naturals
    assert len(after.round.table[0].ids) == 4


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
