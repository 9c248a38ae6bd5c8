"""Outside-checker audit of the draw-meld-discard variants against VARIANTS.md §4 (Rummy Palace),
§5 (Standard Rummy) and §6 (Black Heart Rum): each case is a position, a move and the result the
rules text asks for (table, hand, score) or the rule section a refusal must name. Cases already
pinned by the older rule tests are not repeated here."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from rummyai.cards import card_str, parse_card
from rummyai.engine.discard import (
    DiamondSwap,
    Discard,
    MeldCards,
    TakeDiscard,
)
from rummyai.engine.discard_setup import build_state, hand_ids, hand_meld
from rummyai.engine.game import apply, legal_moves, validate, view
from rummyai.engine.moves import Move
from rummyai.engine.state import GameState

BH = "black-heart"
PALACE = "rummy-palace"
STANDARD = "standard"


def rule_of(state: GameState, move: Move) -> str | None:
    """The VARIANTS.md section a refusal names, or None when the move is legal."""
    violation = validate(state, move)
    return None if violation is None else violation.rule


def meld(state: GameState, text: str) -> MeldCards:
    """A new meld of the seat to act, written in notation."""
    return MeldCards(hand_meld(state, state.round.turn, text))


def table_id(state: GameState, meld_index: int, token: str) -> int:
    """Physical id of the first card `token` in table meld `meld_index`."""
    kind = parse_card(token)
    for i in state.round.table[meld_index].all_ids():
        if state.variant.deck[i] == kind:
            return i
    raise AssertionError(f"{token} not in table meld {meld_index}")


def tokens(state: GameState, ids: Sequence[int]) -> list[str]:
    """Sorted tokens of physical ids."""
    return sorted(card_str(state.variant.deck[i]) for i in ids)


def table_texts(state: GameState) -> list[str]:
    """The table as written melds, as a player sees it."""
    return [m["text"] for m in view(state, state.round.turn)["table"]]


def place_committed(state: GameState) -> GameState:
    """Play the generator's first non-discard move until no committed card is left in the hand."""
    for _ in range(6):
        pending = [c for c in state.round.family_data.committed if c in state.round.hands[state.round.turn]]
        if not pending:
            return state
        plays = [m for m in legal_moves(state) if not isinstance(m, Discard)]
        assert plays, "a committed card was taken but no play is offered"
        state = apply(state, plays[0])
    raise AssertionError("the committed card never reached the table")


# ---------------------------------------------------------------------------- §5.2 + §6.5 TAKE through a swap
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


# ---------------------------------------------------------------------------- §6.5 a diamond for a diamond
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
