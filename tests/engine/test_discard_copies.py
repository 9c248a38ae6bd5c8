"""Draw-and-discard duties on identical copies (§7.1): a card taken from the discard pile or row,
a committed card and a joker gained by a swap bind a card *kind*, not one physical copy. A play
of either copy is read as the copy with the duty, a discard as the copy without one."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from rummyai.cards import Meaning
from rummyai.engine import discard_search
from rummyai.engine.discard import DiamondSwap, Discard, JokerSwap, LayOff, MeldCards, TakeDiscard
from rummyai.engine.discard_setup import build_state, hand_ids, hand_layoff
from rummyai.engine.game import apply, legal_moves, new_match, validate
from rummyai.engine.state import GameState, TableMeld


def _copies(state: GameState, token: str) -> list[int]:
    """Both ids of `token` in seat 0's hand."""
    ids = hand_ids(state, 0, f"{token} {token}")
    assert len(set(ids)) == 2
    return ids


def _run_with(state: GameState, first: int, rest: str) -> MeldCards:
    """A new run of seat 0: card id `first`, then the written cards."""
    others = hand_ids(state, 0, rest)
    return MeldCards(TableMeld((first, *others), (None,) * (1 + len(others)), ()))


def _ten_of_hearts_joker(state: GameState) -> int:
    """Id of the joker standing for TH in table meld 0."""
    meld = state.round.table[0]
    return next(i for i, m in zip(meld.ids, meld.meanings, strict=True) if m == Meaning(10, 1))


def _discards(state: GameState) -> list[int]:
    return [m.card for m in legal_moves(state) if isinstance(m, Discard)]


@pytest.mark.parametrize("hand", ["5H 6H 7H 9C", "5H 6H 7H"])
def test_palace_either_copy_of_the_taken_card_melds(hand: str) -> None:
    start = build_state(
        "rummy-palace", [hand, "2C"], discard="5H", stock="KD", opened=[True, False], phase="draw"
    )
    taken = apply(start, TakeDiscard(0))
    for copy in _copies(taken, "5H"):
        play = _run_with(taken, copy, "6H 7H")
        assert validate(taken, play) is None
        after = apply(taken, play)
        # the 5H left in hand is the one held before the take: it may be discarded
        assert [after.variant.deck[c] for c in _discards(after)].count(taken.variant.deck[copy]) == 1


def test_palace_discarding_a_kind_also_held_before_the_take_is_allowed() -> None:
    start = build_state(
        "rummy-palace", ["5H 9C KS", "2C"], discard="5H", stock="KD", opened=[True, False], phase="draw"
    )
    taken = apply(start, TakeDiscard(0))
    took = taken.round.family_data.taken[0]
    assert validate(taken, Discard(took)) is None
    assert taken.variant.deck[took] in [taken.variant.deck[c] for c in _discards(taken)]
    after = apply(taken, Discard(took))
    held = [taken.variant.deck[c] for c in after.round.hands[0]]
    assert held.count(taken.variant.deck[took]) == 1  # one 5H stays in the hand


def test_palace_only_copy_of_the_taken_card_may_not_be_discarded() -> None:
    start = build_state(
        "rummy-palace", ["9C KS", "2C"], discard="5H", stock="KD", opened=[True, False], phase="draw"
    )
    taken = apply(start, TakeDiscard(0))
    took = taken.round.family_data.taken[0]
    violation = validate(taken, Discard(took))
    assert violation is not None and "just taken" in violation.reason


@pytest.mark.parametrize(("variant", "options"), [("black-heart", None), ("standard", ["decks=2"])])
def test_either_copy_of_the_committed_card_fulfils_the_duty(variant: str, options: list[str] | None) -> None:
    start = build_state(
        variant,
        ["5S 6S 7S 9C", "2C"],
        discard="5S",
        stock="KC",
        opened=[True, False],
        phase="draw",
        options=options,
    )
    taken = apply(start, TakeDiscard(0))
    for copy in _copies(taken, "5S"):
        play = _run_with(taken, copy, "6S 7S")
        if variant == "black-heart":
            play = MeldCards(replace(play.meld, escorts=(None, None, None)))
        assert validate(taken, play) is None
        after = apply(taken, play)
        assert not after.round.family_data.committed
        assert validate(after, Discard(hand_ids(after, 0, "9C")[0])) is None


def test_palace_swap_may_lay_the_other_joker_copy() -> None:
    start = build_state("rummy-palace", ["TH 4D JK 9C", "2C"], table=["9H JK=TH JK=JH QH", "4C 4S JK"])
    gained = _ten_of_hearts_joker(start)
    held = hand_ids(start, 0, "JK")[0]
    ten = hand_ids(start, 0, "TH")[0]
    layoff = hand_layoff(start, 0, 1, "4D")
    # the hand's own joker goes into 4C 4S JK (two jokers beside two naturals); the gained one stays
    place = LayOff(
        1, replace(layoff, ids=(*layoff.ids[:-1], held), meanings=(*layoff.meanings[:-1], Meaning(4, None)))
    )
    assert validate(start, JokerSwap(0, gained, ten, place)) is None
    after = apply(start, JokerSwap(0, gained, ten, place))
    assert sum(after.variant.deck[c] == after.variant.deck[held] for c in after.round.hands[0]) == 1
    # the joker laid is read as the gained one, so the joker left is the hand's own: discardable
    assert validate(after, Discard(hand_ids(after, 0, "JK")[0])) is None


def test_palace_swap_keeping_one_joker_more_is_refused() -> None:
    start = build_state("rummy-palace", ["TH 4D 9C", "2C"], table=["9H JK=TH JK=JH QH", "4C 4S JK"])
    gained = _ten_of_hearts_joker(start)
    violation = validate(
        start, JokerSwap(0, gained, hand_ids(start, 0, "TH")[0], LayOff(1, hand_layoff(start, 0, 1, "4D")))
    )
    assert violation is not None and "same action" in violation.reason


def test_palace_swap_with_either_copy_of_the_taken_card_leaves_a_discardable_one() -> None:
    start = build_state(
        "rummy-palace",
        ["7H 9C KS QS", "2C"],
        table=["5H 6H JK=7H 8H", "4C 4S 4D"],
        discard="7H",
        stock="KD",
        opened=[True, False],
        phase="draw",
    )
    taken = apply(start, TakeDiscard(0))
    joker = next(i for i, m in zip(taken.round.table[0].ids, taken.round.table[0].meanings, strict=True) if m)
    group = taken.round.table[1]
    lay = LayOff(1, TableMeld((*group.ids, joker), (*group.meanings, Meaning(4, None)), ()))
    for copy in _copies(taken, "7H"):
        after = apply(taken, JokerSwap(0, joker, copy, lay))
        # the 7H left in hand is the one held before the take
        assert validate(after, Discard(hand_ids(after, 0, "7H")[0])) is None


def test_black_heart_new_escort_may_be_either_copy_of_the_committed_heart() -> None:
    start = build_state(
        "black-heart",
        ["JS 5H 9C 8C", "9S"],
        table=["JS/2H JC/3H JD"],
        discard="4S 5H",
        stock="4C",
        opened=[True, False],
        phase="draw",
    )
    taken = apply(start, TakeDiscard(1))
    diamond = taken.round.table[0].ids[2]
    jack = hand_ids(taken, 0, "JS")[0]
    for copy in _copies(taken, "5H"):
        swap = DiamondSwap(0, diamond, jack, copy)
        assert validate(taken, swap) is None
        assert not apply(taken, swap).round.family_data.committed  # the laid 5H was the committed one


def _black_heart_committed_seven(second_meld: str) -> tuple[GameState, int, list[int]]:
    """Seat 0 holds a 7S and takes another from the row (committed); table meld 0 is
    `5S 6S QD=7S`. Returns the state, the diamond's id and both 7S ids."""
    start = build_state(
        "black-heart",
        ["7S 2C 4H", "3S 4S"],
        table=["5S 6S QD=7S", second_meld],
        table_credit=[1, 1],
        discard="7S",
        phase="draw",
        opened=[True, True],
    )
    taken = apply(start, TakeDiscard(0))
    diamond = taken.round.table[0].ids[2]
    return taken, diamond, _copies(taken, "7S")


def test_black_heart_swap_placing_the_diamond_may_name_either_copy_of_the_committed_card() -> None:
    # the diamond goes onto the clubs as 7C in the same action: read as the committed 7S's swap,
    # whose duty the placed diamond meets, whichever 7S id the move names
    taken, diamond, sevens = _black_heart_committed_seven("8C 9C TC")
    clubs = taken.round.table[1]
    place = LayOff(1, TableMeld((diamond, *clubs.ids), (Meaning(7, 3), *clubs.meanings), (None,) * 4))
    for copy in sevens:
        swap = DiamondSwap(0, diamond, copy, place=place)
        assert validate(taken, swap) is None
        after = apply(taken, swap)
        assert not after.round.family_data.committed  # no duty is left on the 7S still held
        assert validate(after, Discard(hand_ids(after, 0, "7S")[0])) is None


def test_black_heart_swap_keeping_the_diamond_may_name_either_copy_of_the_committed_card() -> None:
    # the diamond stays in hand: read as the free 7S's swap, the committed 7S still to be played
    taken, diamond, sevens = _black_heart_committed_seven("8S 9S TS")
    for copy in sevens:
        swap = DiamondSwap(0, diamond, copy)
        assert validate(taken, swap) is None
        after = apply(taken, swap)
        held = hand_ids(after, 0, "7S")[0]
        assert after.round.family_data.committed == (held,)
        assert validate(after, Discard(diamond)) is not None  # the committed 7S is not played yet
        laid = apply(after, LayOff(1, hand_layoff(after, 0, 1, "7S", front=True)))
        assert not laid.round.family_data.committed


@pytest.mark.parametrize("variant", ["rummy-palace", "black-heart", "standard"])
def test_the_quick_copy_count_refuses_only_bundles_no_serving_order_holds(
    variant: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `_may_serve` spares the serving orders of bundles the hand cannot hold; the legal moves
    # along random matches are the same with the full search over orders alone
    rng = np.random.default_rng(5)
    state = new_match(variant, 2, seed=5, max_turns=120)
    for _ in range(120):
        if state.match_over:
            break
        state.variant.__dict__.pop("_dmd_place_cache", None)  # take checks are cached per position
        quick = legal_moves(state)
        state.variant.__dict__.pop("_dmd_place_cache", None)
        with monkeypatch.context() as m:
            m.setattr(discard_search, "_may_serve", lambda *args: True)
            full = legal_moves(state)
        assert quick == full
        state = apply(state, quick[int(rng.integers(len(quick)))])
