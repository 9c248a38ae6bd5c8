"""Tile-style engine plumbing: dealing, the move enumerator, truncation, views, play_match."""

from __future__ import annotations

import json

import numpy as np
import pytest

from rummyai.cards import parse_cards
from rummyai.engine import (
    Draw,
    GameState,
    Move,
    Play,
    apply,
    legal_moves,
    new_match,
    play_match,
    random_choice,
    validate,
    view,
)
from rummyai.engine.tile_position import position
from rummyai.errors import RummyError


def _plays(state: GameState) -> list[Play]:
    return [m for m in legal_moves(state) if isinstance(m, Play)]


def _new_cards(state: GameState, play: Play) -> list[int]:
    on_table = {i for m in state.round.table for i in m.ids}
    return sorted(state.variant.deck[i] for m in play.table for i in m.ids if i not in on_table)


def test_deal_is_deterministic_from_seed() -> None:
    a = new_match("rummikub", 3, seed=9)
    b = new_match("rummikub", 3, seed=9)
    c = new_match("rummikub", 3, seed=10)
    assert a.round == b.round and a.round.hands != c.round.hands


def test_openings_enumerated_for_points_rule() -> None:
    state = position("rummikub", ["TC JC QC 2S 3S 9H", "AD"], "5S 6S 7S", opened=False)
    plays = _plays(state)
    assert plays and all(validate(state, p) is None for p in plays)
    assert parse_cards("TC JC QC") in [_new_cards(state, p) for p in plays]
    weak = position("rummikub", ["2C 3C 4C 9H", "AD"], "5S 6S 7S", opened=False)
    assert _plays(weak) == [] and legal_moves(weak) == [Draw()]


def test_openings_combine_disjoint_melds() -> None:
    state = position("rummy-tiles", ["2C 3C 4C 7S 7H 7D JK", "AD"], "", opened=False)
    plays = _plays(state)
    assert plays and all(validate(state, p) is None for p in plays)
    assert all(52 not in _new_cards(state, p) for p in plays)  # no jokers in a Tile Rummy opening
    assert any(len(p.table) == 2 for p in plays)


def test_rhine_opening_is_one_natural_meld() -> None:
    state = position("rhine", ["7H 8H 9H JK 3S 3D", "AD"], "", opened=False)
    plays = _plays(state)
    assert plays and all(validate(state, p) is None for p in plays)
    assert all(len(p.opening) == 1 and 52 not in _new_cards(state, p) for p in plays)


def test_layoffs_and_new_melds_when_opened() -> None:
    state = position("rummy-tiles", ["4S 9S 7C 7H 7D JK", "AD"], "5S 6S 7S 8S | 9H 9D 9C")
    plays = _plays(state)
    assert all(validate(state, p) is None for p in plays)
    singles = [_new_cards(state, p) for p in plays]
    for card in ("4S", "9S"):
        assert parse_cards(card) in singles
    assert [52] in singles  # a joker laid off in Tile Rummy
    assert parse_cards("7H 7D 7C") in singles
    rhine = position("rhine", ["4S JK", "AD"], "5S 6S 7S 8S")
    assert [52] not in [_new_cards(rhine, p) for p in _plays(rhine)]  # R5 forbids it


def test_board_enumerator_respects_twelve_card_cap() -> None:
    state = position("rummy-board", ["AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", "AD"], "", opened=True)
    plays = _plays(state)
    assert plays and max(len(_new_cards(state, p)) for p in plays) == 12


def test_truncation_scores_as_stock_exhausted() -> None:
    for variant in ("rummikub", "rummy-tiles", "rummy-board", "rhine"):
        state = new_match(variant, 2, seed=1, max_turns=2)
        state = apply(state, Draw())
        state = apply(state, Draw())
        result = state.history[0]
        assert result.reason == "max_turns"
        if variant in ("rummikub", "rummy-tiles"):
            assert sum(result.scores) == 0 and result.winner is not None
        elif variant == "rhine":
            assert result.winner is None and min(result.scores) > 0
        else:
            assert max(result.scores) < 0


def test_view_hides_other_hands_and_stock() -> None:
    state = position("rummy-tiles", ["8S 9D", "2C 3C KH", "AD"], "5S 6S 7S", stock="4H 5H")
    seen = view(state, 1)
    json.dumps(seen)
    assert sorted(seen["hand"]) == sorted(state.round.hands[1]) and seen["hand_cards"] == ["2C", "3C", "KH"]
    assert seen["hand_sizes"] == [2, 3, 1] and seen["stock_size"] == 2
    assert seen["table"] == [{"ids": list(state.round.table[0].ids), "cards": ["5S", "6S", "7S"]}]
    assert not {"hands", "stock", "minipool"} & set(seen)
    visible = set(seen["hand"]) | {i for m in seen["table"] for i in m["ids"]}
    hidden = set(state.round.hands[0]) | set(state.round.hands[2]) | set(state.round.stock)
    assert not visible & hidden
    assert seen["opened"] == [True, True, True] and seen["scores"] == [0, 0, 0]


@pytest.mark.parametrize("seat", [None, "0", 1.5, True, 3])
def test_view_of_a_seat_that_is_not_one_is_refused_by_name(seat: object) -> None:
    state = position("rummy-tiles", ["8S 9D", "2C 3C KH", "AD"], "5S 6S 7S", stock="4H 5H")
    with pytest.raises(RummyError, match="seat"):
        view(state, seat)  # type: ignore[arg-type]


def test_play_match_is_deterministic_and_finishes() -> None:
    a = play_match("rummy-board", 2, 21, random_choice)
    b = play_match("rummy-board", 2, 21, random_choice)
    assert a.match_over and a.scores == b.scores and a.round.table == b.round.table
    seen: list[int] = []

    def first_move(state: GameState, seat: int, moves: list[Move], rng: np.random.Generator) -> Move:
        seen.append(seat)
        return moves[0]

    final = play_match("rummikub", 2, 3, first_move)
    assert final.match_over and seen[0] == (final.round.dealer + 1) % 2


def _written(state: GameState, play: Play) -> list[str]:
    """The play's melds that hold hand cards, as tokens with the wilds' meanings."""
    on_table = {i for m in state.round.table for i in m.ids}
    deck = state.variant.deck
    out = []
    for meld in play.table:
        if set(meld.ids) - on_table:
            slots = meld.slots(deck)
            out.append(" ".join(str(s) for s in slots))
    return sorted(out)


def test_enumerator_offers_every_kind_of_simple_meld_the_rules_allow() -> None:
    # Rhine groups repeat suits: 5S 5H 5D out of 5S 5S 5H 5D (not only the first copies)
    rhine = position("rhine", ["5S 5S 5H 5D 6S 7S KC", "AD"], opened=True)
    assert ["5S 5H 5D"] in [_written(rhine, p) for p in _plays(rhine)]
    # one natural and two jokers (§8.2, §3.3)
    for variant in ("rummikub", "rummy-board"):
        state = position(variant, ["5S JK JK", "AD"], opened=True)
        assert ["5S JK=6S JK=7S"] in [_written(state, p) for p in _plays(state)]
    # the same meld twice from two copies of each card (§7.1), as an opening
    twice = position("rummikub", ["4S 4S 5S 5S 6S 6S 9C", "AD"], opened=False)
    assert ["4S 5S 6S", "4S 5S 6S"] in [_written(twice, p) for p in _plays(twice)]
    # Rhine's wild twos of different suits are different cards: either may fill the gap
    twos = position("rhine", ["2D 2S 3H 5H 9C", "AD"], opened=True, options=["rhine.wild_twos"])
    melds = [_written(twos, p) for p in _plays(twos)]
    assert ["3H 2S=4H 5H"] in melds and ["3H 2D=4H 5H"] in melds
    for state in (rhine, twice, twos):
        assert all(validate(state, p) is None for p in _plays(state))
