"""Draw-meld-discard engine API: deal, phases, views, truncation, move JSON, errors."""

from __future__ import annotations

import numpy as np
import pytest

from rummyai.cards import Meaning
from rummyai.engine.discard import (
    DeclineKnock,
    DiamondSwap,
    Discard,
    DiscardFamily,
    DrawStock,
    EndDeal,
    JokerSwap,
    Knock,
    LayOff,
    MeldCards,
    Opening,
    TakeDiscard,
)
from rummyai.engine.discard_moves import move_from_json, move_to_json
from rummyai.engine.discard_setup import build_state, hand_ids, hand_meld
from rummyai.engine.game import apply, family_of, legal_moves, new_match, validate, view
from rummyai.engine.moves import Draw, Play
from rummyai.engine.state import TableMeld
from rummyai.errors import IllegalMoveError, RummyError
from rummyai.variants import get_variant

FAMILY = DiscardFamily()


def test_family_is_registered_for_all_three_variants() -> None:
    for variant in ("rummy-palace", "standard", "black-heart"):
        assert isinstance(family_of(get_variant(variant)), DiscardFamily)


def test_deal_opens_players_whose_chart_line_has_no_requirement() -> None:
    rules = get_variant("black-heart")
    dealt = FAMILY.deal(rules, 3, 0, (-10, 50, 250), np.random.default_rng(1))
    assert dealt.opened == (True, False, False)
    palace = FAMILY.deal(get_variant("rummy-palace"), 2, 1, (0, 0), np.random.default_rng(1))
    assert palace.opened == (False, False) and palace.turn == 0


def test_same_seed_same_deal() -> None:
    a = new_match("standard", 3, seed=9)
    b = new_match("standard", 3, seed=9)
    assert a.round == b.round
    assert new_match("standard", 3, seed=10).round != a.round


def test_moves_out_of_phase_are_refused_with_a_reason() -> None:
    s = build_state("standard", ["2C 3C 4C 9D", "5D"], phase="draw")
    violation = validate(s, Discard(hand_ids(s, 0, "9D")[0]))
    assert violation is not None and violation.rule == "5.2" and "draw" in violation.reason
    s = apply(s, DrawStock())
    assert validate(s, DrawStock()) is not None
    assert validate(s, Play(())) is not None  # a tile-style move is not a move of this family
    with pytest.raises(IllegalMoveError, match=r"5\.2"):
        apply(s, TakeDiscard(0))


def test_cards_not_in_hand_are_refused() -> None:
    s = build_state("standard", ["2C 3C 4C 9D", "5D 6D 7D"])
    foreign = hand_meld(s, 1, "5D 6D 7D")
    violation = validate(s, MeldCards(foreign))
    assert violation is not None and "not in the hand" in violation.reason


def test_malformed_melds_are_refused_not_crashing() -> None:
    s = build_state("standard", ["8S 2C 3C", "4D"], table=["5S 6S 7S"])
    eight = hand_ids(s, 0, "8S")[0]
    old = s.round.table[0]
    short = TableMeld((*old.ids, eight), old.meanings)
    violation = validate(s, LayOff(0, short))
    assert violation is not None and "meaning" in violation.reason
    assert validate(s, LayOff(5, short)) is not None
    bad = TableMeld((eight,), (None, None))
    assert validate(s, MeldCards(bad)) is not None


def test_view_hides_other_hands_and_the_stock() -> None:
    s = new_match("rummy-palace", 3, seed=4)
    for seat in range(3):
        seen = view(s, seat)
        assert seen["hand"] == sorted(s.round.hands[seat])
        assert seen["hand_sizes"] == [13, 13, 13]
        assert seen["stock_size"] == len(s.round.stock)
        hidden = set(s.round.stock) | {i for k, h in enumerate(s.round.hands) if k != seat for i in h}
        shown = set(seen["hand"]) | set(seen["discard"])
        assert not shown & hidden
        assert "stock" not in seen and "hands" not in seen
    with pytest.raises(RummyError):
        view(s, 3)


@pytest.mark.parametrize(
    ("variant", "expected"),
    [("rummy-palace", (-(10 + 11), -(2 + 20))), ("standard", (15 - (10 + 15), -(5 + 0)))],
)
def test_truncation_scores_as_the_stock_out_ending(variant: str, expected: tuple[int, int]) -> None:
    hands = ["KS AD", "2C JK"] if variant == "rummy-palace" else ["KS AD", "2C"]
    s = build_state(variant, hands, table=["5S 6S 7S"] if variant == "standard" else ())
    ended = FAMILY.truncate(s)
    assert ended.result is not None and ended.result.reason == "max_turns"
    assert ended.result.winner is None
    assert ended.result.scores == expected


def test_max_turns_ends_the_round_in_a_match() -> None:
    state = new_match("standard", 2, seed=3, max_turns=2)
    rng = np.random.default_rng(0)
    while not state.history:
        moves = [m for m in legal_moves(state) if isinstance(m, DrawStock | Discard)]
        state = apply(state, moves[int(rng.integers(len(moves)))])
    assert state.history[0].reason == "max_turns"
    assert state.finished is not None and state.finished.turn_count == 2


def test_needs_rng_only_for_draws_knocks_or_an_empty_stock() -> None:
    s = build_state("rummy-palace", ["2C 3C", "4D"], discard="9S", phase="draw")
    assert FAMILY.needs_rng(s, DrawStock())
    assert not FAMILY.needs_rng(s, TakeDiscard(0))
    empty = build_state("rummy-palace", ["2C 3C", "4D"], discard="9S", stock="")
    assert FAMILY.needs_rng(empty, Discard(hand_ids(empty, 0, "2C")[0]))


def _meld() -> TableMeld:
    return TableMeld((1, 2, 3), (None, Meaning(5, 1), None), (None, 7, None))


@pytest.mark.parametrize(
    "move",
    [
        DrawStock(),
        TakeDiscard(3),
        EndDeal(),
        MeldCards(_meld()),
        LayOff(2, _meld()),
        Opening((MeldCards(_meld()), LayOff(0, _meld()))),
        JokerSwap(1, 104, 9, LayOff(0, _meld())),
        DiamondSwap(0, 38, 11, 14, MeldCards(_meld())),
        DiamondSwap(0, 38, 11),
        Discard(5),
        Knock(2),
        DeclineKnock(1),
    ],
)
def test_moves_round_trip_through_json(move) -> None:
    assert move_from_json(move_to_json(move)) == move


def test_plain_draw_is_a_stock_draw_and_unknown_json_is_refused() -> None:
    assert move_to_json(Draw()) == {"type": "draw"}
    with pytest.raises(RummyError, match="unknown move type"):
        move_from_json({"type": "teleport"})
    with pytest.raises(RummyError):
        move_from_json({"type": "opening", "plays": [{"type": "discard", "card": 1}]})


def test_every_listed_move_is_legal() -> None:
    state = new_match("black-heart", 3, seed=8)
    rng = np.random.default_rng(8)
    for _ in range(150):
        if state.match_over:
            break
        moves = legal_moves(state)
        assert moves and all(validate(state, m) is None for m in moves)
        state = apply(state, moves[int(rng.integers(len(moves)))])
