"""Rules shared by several variants, checked on each at once: every written position of the
rearrangement variants through one `rummyai validate --jsonl` run, going out and refused openings
across the tile games, and seats, player counts, deal caps and TAKE(i) legality across the
draw-and-discard games (docs/rules §2-§8)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from rummyai.cards import card_str
from rummyai.engine import apply, validate
from rummyai.engine.discard import Discard, TakeDiscard
from rummyai.engine.discard_setup import build_state, hand_ids
from rummyai.engine.game import legal_moves, match_winners, new_match, view
from rummyai.engine.state import RoundResult
from rummyai.engine.tile import apply_or_penalize
from rummyai.engine.tile_position import play_from_text, position
from rummyai.errors import IllegalMoveError, RummyError
from rummyai.solvers import solve
from rummyai.variants import get_variant

from .discard_cases import rule_of
from .rule_cases import check_verdict, validate_answers
from .test_rules_board import CASES as BOARD_CASES
from .test_rules_rhine import CASES as RHINE_CASES
from .test_rules_rummikub import CASES as RUMMIKUB_CASES
from .test_rules_tiles import CASES as TILES_CASES

BH = "black-heart"
STANDARD = "standard"
PASSIVE = ("DrawStock", "Discard", "EndDeal", "DeclineKnock")


# ------------------------------------------------------------------ written positions of the tile games
def test_every_case_through_the_validate_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """The verdicts of every variant's written positions through one `rummyai validate --jsonl`
    run, one line per case and the variant named on each line."""
    cases = [*RUMMIKUB_CASES, *RHINE_CASES, *TILES_CASES, *BOARD_CASES]
    answers = validate_answers(cases, monkeypatch)
    assert len(answers) == len(cases)
    for case, answer in zip(cases, answers, strict=True):
        assert "error" not in answer, (case.name, answer)
        check_verdict(case, answer["legal"], answer.get("rule"), answer.get("reason"), answer.get("played"))


# ------------------------------------------------------------------ tile games: going out, penalties
@pytest.mark.parametrize(
    ("variant", "scores"),
    [
        ("rummy-tiles", (45, -45)),  # the other rack: JK 30 + KD 13 + 2C 2; winner takes the sum
        ("rummikub", (45, -45)),
        ("rummy-board", (0, -40)),  # joker 25 in hand; the one who went out scores 0
    ],
)
def test_hand_emptied_on_the_opening_turn(variant: str, scores: tuple[int, int]) -> None:
    state = position(variant, ["TS JS QS", "JK KD 2C"], "", opened=False)
    after = apply(state, play_from_text(state, "TS JS QS"))
    result = after.round.result
    assert result is not None and result.winner == 0 and result.scores == scores


@pytest.mark.parametrize(
    ("variant", "options", "rule"),
    [("rummy-tiles", None, "2.4"), ("rummikub", {"invalid_play_penalty": 3}, "8.2")],
)
def test_illegal_opening_is_penalized_and_the_table_restored(
    variant: str, options: dict[str, Any] | None, rule: str
) -> None:
    hands = ["8S 9S TS 2C", "KD 2C 3C"]
    state = position(variant, hands, "5H 6H 7H", opened=False, stock="AD 2D 3D 4D", options=options)
    bad = play_from_text(state, "5H 6H 7H | 8S 9S TS")
    violation = validate(state, bad)
    assert violation is not None and violation.rule == rule and "worth 27" in violation.reason
    after = apply_or_penalize(state, bad)
    assert after.round.table == state.round.table and len(after.round.hands[0]) == 4 + 3
    assert not after.round.opened[0] and after.round.passes == 1 and after.round.turn == 1


@pytest.mark.parametrize(("variant", "rule"), [("rummikub", "8.2"), ("rummy-board", "3.4")])
def test_illegal_opening_without_penalty_is_refused(variant: str, rule: str) -> None:
    state = position(variant, ["8S 9S TS 2C", "KD 2C 3C"], "", opened=False, stock="AD 2D 3D 4D")
    with pytest.raises(IllegalMoveError) as caught:
        apply_or_penalize(state, play_from_text(state, "8S 9S TS"))
    assert caught.value.rule == rule and "worth 27" in caught.value.reason


# ---------------------------------------------------------------------------- draw-and-discard seats and rounds (§4.1, §5.1)
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


# ---------------------------------------------------------------------------- §5.2 TAKE(i): engine and solver agree
@pytest.mark.parametrize(("variant", "seed"), [(BH, 1), (BH, 4), (STANDARD, 0)])
def test_take_legality_agrees_with_the_solver_along_a_game(variant: str, seed: int) -> None:
    """Every TAKE(i) the engine refuses has no placement of card i in the exact solver either,
    and every one it allows has one (the solver searches swaps, openings and lay-offs at once)."""
    state = new_match(variant, 2 + seed % 3, seed, options={"max_deals": 2}, max_turns=120)
    rng = np.random.default_rng(seed)
    checked = 0
    while not state.match_over:
        r = state.round
        if r.family_data.phase == "draw":
            seat, deck = r.turn, state.variant.deck
            table = [m["text"] for m in view(state, seat)["table"]]
            for i in range(len(r.discard)):
                hand = [card_str(deck[c]) for c in (*r.hands[seat], *r.discard[i:])]
                must = [card_str(deck[r.discard[i]])]
                try:
                    solve(
                        state.variant,
                        hand,
                        table,
                        opened=r.opened[seat],
                        committed=must,
                        score=state.scores[seat] if variant == BH else 0,
                    )
                    placeable = True
                except IllegalMoveError:
                    placeable = False
                assert (rule_of(state, TakeDiscard(i)) is None) == placeable, (hand, table, must)
                checked += 1
        moves = legal_moves(state)
        plays = [m for m in moves if type(m).__name__ not in PASSIVE]
        pool = plays if plays and rng.random() < 0.7 else moves
        state = apply(state, pool[int(rng.integers(len(pool)))])
    assert checked > 20
