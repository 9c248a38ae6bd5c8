"""The Python hint API: best move, alternatives that the judge accepts, explanations and text."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummyai.cards import card_str, parse_cards
from rummyai.engine.judge import judge_json
from rummyai.errors import CardError, DeckError, MeldError, RummyError, VariantError
from rummyai.hint import Hint, api, format_hint, hint, hint_json
from rummyai.hint.api import Suggestion, position_json
from rummyai.hint.position import read_position
from rummyai.melds import analyze_meld
from rummyai.solvers import solve
from rummyai.solvers.random_positions import random_position

HAND = "6C 9D TD JD 5S 5D KS KH KD KC 2H"
TABLE = "3C 4C 5C | 8S 8D 8H | 5H 6H 7H 8H"


def _kinds(melds: object) -> Counter[int]:
    return Counter(c for m in melds for s in m for c in s.cards())  # type: ignore[attr-defined]


def check_suggestion(variant: str, hand: object, table: object, opened: bool, move: Suggestion) -> None:
    """The move's melds are valid, its steps carry exactly its cards, and a move built by the hint
    engine (not taken from the solver as it is) is legal by the engine's judge."""
    position = read_position(variant, hand, table, opened=opened)  # type: ignore[arg-type]
    for meld in move.melds:
        analyze_meld(position.variant, meld)
    assert _kinds(move.melds) == _kinds(position.table) + Counter(move.played)
    assert Counter(move.played) <= Counter(position.hand)
    played_in_steps = Counter(c for s in move.plan.steps if s.action == "play" for c in s.cards)
    assert played_in_steps == Counter(move.played)
    if move.played and move.label in ("hold_back", "fewest_changes"):
        verdict = judge_json(
            {**position_json(position), "new_table": [[str(s) for s in m] for m in move.melds]}
        )
        assert verdict.get("legal") is True, verdict
        assert sorted(verdict["played"]) == sorted(card_str(c) for c in move.played)


def check_hint(variant: str, hand: object, table: object, opened: bool, result: Hint) -> None:
    moves = [result.best, *result.alternatives]
    for move in moves:
        check_suggestion(variant, hand, table, opened, move)
    keys = [m.key() for m in moves]
    assert len(keys) == len(set(keys)), "an alternative repeats another move"
    assert all(alt.played for alt in result.alternatives)
    for alt in result.alternatives:
        assert alt.cards_played <= result.best.cards_played  # a better one found is shown as best
        if alt.label == "hold_back":
            assert alt.held_back
            assert Counter(alt.played) + Counter(alt.held_back) == Counter(result.best.played)
    steps = [len(a.plan.steps) for a in result.alternatives]
    assert steps == sorted(steps), "alternatives are listed fewest steps first"


def test_best_move_is_the_solvers_and_alternatives_are_legal() -> None:
    result = hint("rummikub", HAND, TABLE)
    solution = solve("rummikub", HAND, TABLE)
    assert result.best.cards_played == solution.cards_played == 10
    assert result.status == "optimal"
    check_hint("rummikub", HAND, TABLE, True, result)
    labels = {a.label for a in result.alternatives}
    assert {"hold_back", "fewest_changes"} <= labels
    simple = next(a for a in result.alternatives if a.label == "fewest_changes")
    assert simple.plan.melds_with("changed") == [] and simple.plan.melds_with("taken_apart") == []


def test_hold_back_keeps_the_fourth_king() -> None:
    result = hint("rummikub", "9D TD JD KS KH KD KC", "", alternatives=3)
    held = next(a for a in result.alternatives if a.label == "hold_back")
    assert len(held.held_back) == 1 and card_str(held.held_back[0])[0] == "K"
    assert held.cards_played == 6
    assert "keep" in held.explanation and "for later" in held.explanation


def test_alternatives_are_judged_within_the_hints_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    # Rummikub's official jokers need the judge for a hold-back; it gets the hint's deadline,
    # past which it refuses to decide (a large position's judgement could outrun the limit)
    seen: list[float | None] = []

    def judge(obj: object, deadline: float | None = None) -> dict[str, object]:
        seen.append(deadline)
        return judge_json(obj, deadline)  # type: ignore[arg-type]

    monkeypatch.setattr(api, "judge_function", lambda: judge)
    start = time.perf_counter()
    result = hint("rummikub", HAND, TABLE, options=["official_jokers"], time_limit=30)
    end = time.perf_counter()
    assert any(a.label == "hold_back" for a in result.alternatives)
    # the hint's clock starts within the call (after any first import, however slow the machine)
    assert seen and all(d is not None and start + 30 <= d <= end + 30 for d in seen)
    # an opening's joined runs are judged within the limit too
    seen.clear()
    start = time.perf_counter()
    hint("rummikub", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH", "", opened=False, time_limit=30)
    end = time.perf_counter()
    assert seen and all(d is not None and start + 30 <= d <= end + 30 for d in seen)


def test_points_objective_puts_the_most_points_first() -> None:
    result = hint("rummikub", HAND, TABLE, objective="points")
    assert result.best.title == "Most points"
    assert all(a.points <= result.best.points for a in result.alternatives)


def test_no_move_says_draw() -> None:
    result = hint("rummikub", "2H 9C KS", "3C 4C 5C")
    assert result.best.played == ()
    assert result.alternatives == ()
    assert "draw" in result.best.explanation
    closed = hint("rummikub", "2H 3H 4H", "", opened=False)
    assert closed.best.played == () and "opening" in closed.best.explanation
    free = hint("standard", "2S 4D", "3C 4C 5C", opened=False)  # no opening in standard rummy
    assert free.best.explanation == "No card from your hand can be played: just discard."


def test_opening_alternatives_still_open() -> None:
    result = hint("rummikub", "TH JH QH KH 9S 9D 9C 2C", "", opened=False)
    assert result.best.explanation.startswith(
        "Most cards: open with 9S 9D 9C TH JH QH KH (7 cards, 73 points; 73 toward the opening)"
    )
    # a joker counts as the card it stands for toward the opening, 30 in hand
    joker = hint("rummikub", "QH QS 2C JK", "", opened=False)
    assert "(3 cards, 54 points; 36 toward the opening)" in joker.best.explanation
    # rummy-board's jokers count nothing toward the opening
    board = hint("rummy-board", "TH TS TD JK 2C", "", opened=False)
    assert "(4 cards, 55 points; 30 toward the opening)" in board.best.explanation
    # Rummy Palace: the kings open; the joker they win by a swap is laid after the opening
    palace = hint("rummy-palace", "KS KD KC 5C 8H 9H 2S", "JK=5C 6C 7C", opened=False)
    assert "; 30 toward the opening)" in palace.best.explanation
    check_hint("rummikub", "TH JH QH KH 9S 9D 9C 2C", "", False, result)


def test_an_opening_lays_a_long_run_as_one_meld() -> None:
    # the opening search returns the hearts as three runs that meet; a person lays one
    hand = "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"
    for variant in ("rummy-board", "rummikub"):
        result = hint(variant, hand, "", opened=False)
        assert [len(m) for m in result.best.melds] == [12]
        check_hint(variant, hand, "", False, result)
    # a start meld the run meets stays as it is: an opening turn may not touch the table
    kept = hint("rummikub", "4H 5H 6H 7H 8H 9H TH JH QH", "AH 2H 3H", opened=False)
    assert "AH 2H 3H" in [" ".join(map(str, m)) for m in kept.best.melds]
    check_hint("rummikub", "4H 5H 6H 7H 8H 9H TH JH QH", "AH 2H 3H", False, kept)


def test_zero_alternatives() -> None:
    assert hint("rummikub", HAND, TABLE, alternatives=0).alternatives == ()


def test_format_hint_lists_numbered_steps() -> None:
    text = format_hint(hint("rummikub", HAND, TABLE))
    assert text.startswith("Most cards: play")
    assert "  1. " in text and "Table after:" in text and "Alternatives:" in text
    assert format_hint(hint_json({"hand": "7X"})).startswith("error: ")


@pytest.mark.parametrize(
    ("kwargs", "error", "needle"),
    [
        ({"variant": "nope"}, VariantError, "unknown variant 'nope'"),
        ({"hand": "7H 7X"}, CardError, "7X"),
        ({"hand": "7H 7H 7H"}, DeckError, "3 copies of 7H"),
        ({"table": "7H 8H"}, MeldError, "table meld 1"),
    ],
)
def test_bad_input_raises_typed_errors(kwargs: dict[str, str], error: type[Exception], needle: str) -> None:
    args = {"variant": "rummikub", "hand": "7H", "table": "", **kwargs}
    with pytest.raises(error, match=needle):
        hint(args["variant"], args["hand"], args["table"])


def test_hint_json_contract() -> None:
    answer = hint_json({"variant": "rummikub", "hand": HAND.split(), "table": TABLE, "alternatives": 2})
    assert set(answer) == {"variant", "status", "best", "alternatives", "notes", "ms"}
    best = answer["best"]
    for key in ("status", "played", "melds", "cards_played", "points_played", "steps", "explanation"):
        assert key in best
    assert len(answer["alternatives"]) <= 2
    assert hint_json({"hand": "7H", "objective": "most"})["error"].startswith("unknown objective 'most'")
    assert "alternatives" in hint_json({"hand": "7H", "alternatives": 9})["error"]
    assert "unknown key" in hint_json({"hand": "7H", "hnad": "8H"})["error"]


@settings(max_examples=12, deadline=None)
@given(
    st.sampled_from(["rummikub", "rhine", "rummy-tiles", "rummy-board"]),
    st.integers(0, 10**6),
    st.sampled_from([0, 12, 30]),
    st.booleans(),
)
def test_random_positions_give_legal_hints(variant: str, seed: int, table_cards: int, opened: bool) -> None:
    hand, table = random_position(variant, seed, table_cards, 10)
    result = hint(variant, hand, table, opened=opened, time_limit=5.0)
    check_hint(variant, hand, table, opened, result)


def test_parse_cards_round_trip_for_hand_tokens() -> None:
    # Kinds and tokens name the same hand.
    assert hint("rummikub", parse_cards("9D TD JD"), "").best.cards_played == 3


def test_the_package_is_callable_as_rummyai_hint() -> None:
    import rummyai
    import rummyai.hint

    assert rummyai.hint("rummikub", "9D TD JD", "").best.cards_played == 3  # type: ignore[operator]


@pytest.mark.parametrize("seed", range(12))
def test_other_objective_alternative_only_when_it_plays_other_cards(seed: int) -> None:
    """The most-points alternative is offered exactly when its cards differ from the best move's."""
    hand, table = random_position("rummikub", seed, 24, 12, related=0.6)
    result = hint("rummikub", hand, table, alternatives=3)
    points = solve("rummikub", hand, table, objective="points")
    offered = [s for s in result.alternatives if s.label == "points"]
    if Counter(points.played) == Counter(result.best.played):
        assert not offered
    else:
        assert len(offered) == 1 and Counter(offered[0].played) == Counter(points.played)


def test_black_heart_hint_shows_the_swap_as_a_step() -> None:
    result = hint("black-heart", "7H 8S 9S", "7S 7C QD=7")
    assert result.best.cards_played == 3
    first = result.best.plan.steps[0]
    assert first.action == "swap" and first.target == 0
    assert all(s.action != "move" for s in result.best.plan.steps)  # no rearranging in Black Heart


def test_a_swap_step_names_the_diamond_that_leaves_a_meld_of_two() -> None:
    # the group holds JD=5H and KD=5S: the hand's 5S frees KD, and the step's data says so
    result = hint("black-heart", "5S 2C 3C 4C 9S 8H AS AH", "5S 5C JD=5H KD=5S | 7C 8C 9C")
    swaps = [s for s in result.to_json()["best"]["steps"] if s["action"] == "swap"]
    assert [(s["cards"], s["wild"], s["swap_meld"]) for s in swaps] == [(["5S"], "KD", 0)]
    assert all("wild" not in s for s in result.to_json()["best"]["steps"] if s["action"] != "swap")


def test_a_diamond_freed_by_the_committed_card_is_laid_in_the_same_move() -> None:
    # §6.5: the taken 9S replaces KD, which must then go back on the table this turn
    result = hint("black-heart", "QD 5H 7S 9S 5C 7C", "6C 6H 6S | 9C KD=9S 9H", committed="9S", score=350)
    swap = result.best.plan.steps[0]
    assert swap.action == "swap"
    assert swap.text.endswith("KD must go back on the table this turn: swap it and lay it in one move")
    assert any("KD=" in " ".join(map(str, meld)) for meld in result.best.melds)  # laid again


def test_hint_after_a_take_plays_the_committed_card_and_keeps_a_discard() -> None:
    """`committed` and `taken` reach every solve of a hint (Python, JSON): the committed 4S forces
    the run over the richer group, and a Palace hand whose only spare card is the taken one plays
    nothing (the taken card may not be the discard)."""
    free = hint("standard", "4S 5S 6S 6H 6D")
    assert card_str(free.best.played[0]) != "4S"
    forced = hint_json({"variant": "standard", "hand": "4S 5S 6S 6H 6D", "committed": ["4S"]})
    assert "4S" in forced["best"]["played"] and "just discard" not in forced["best"]["explanation"]
    assert hint("rummy-palace", "TH JH QH 9C", opened=False).best.played
    kept = hint("rummy-palace", "TH JH QH 9C", opened=False, taken="9C")
    assert not kept.best.played and kept.best.explanation.endswith("just discard.")
    assert "applies to rummy-palace" in hint_json({"hand": "7H 8H 9H", "taken": "7H"})["error"]
    assert "'committed'" in hint_json({"variant": "standard", "hand": "7H", "committed": 7})["error"]


def test_an_alternative_beating_a_cut_search_is_shown_as_the_best_move() -> None:
    from rummyai.hint.api import _promote

    result = hint("rummikub", HAND, TABLE)
    cut = replace(result.best, status="feasible", played=result.best.played[:1], points=1)
    better = replace(result.best, label="points", title="Most points", explanation="Most points: x")
    hold = replace(result.best, label="hold_back")
    notes: list[str] = []
    best, rest = _promote(cut, [better, hold], "cards", notes)
    assert (best.label, best.title, best.status) == ("best", "Most cards", "feasible")
    assert best.played == better.played and best.explanation == "Most cards: x"
    assert rest == [] and "points alternative beat the cut search" in notes[0]
    proven = replace(cut, status="optimal")
    assert _promote(proven, [better], "cards", []) == (proven, [better])  # a proven best stays
    assert isinstance(best, Suggestion)


def test_built_alternatives_keep_the_cap_on_hand_cards_per_turn() -> None:
    """Rummy Board plays at most 12 hand tiles a turn: the fewest-changes alternative stops there
    too, and every move offered passes the engine's judge."""
    hand = "KS 2H 3H 4H 6H 6D JD KD 6C 7C 9C KC KC"
    table = "6D 7D 8D 9D TD | JK=4C JK=5C 6C | TC JC QC"
    result = hint("rummy-board", hand, table, alternatives=5)
    check_hint("rummy-board", hand, table, True, result)
    assert {a.label for a in result.alternatives} >= {"fewest_changes"}
    for move in [result.best, *result.alternatives]:
        assert move.cards_played <= 12
        verdict = judge_json(
            {
                "variant": "rummy-board",
                "hand": hand,
                "table": table,
                "new_table": [[str(s) for s in m] for m in move.melds],
            }
        )
        assert verdict["legal"] is True, (move.label, verdict)


def test_a_royale_counts_its_table_value_in_the_hint_as_in_the_solver() -> None:
    """Black Heart's Diamond Royale is worth 150 on the table: the hint reports the solver's points."""
    best = hint("black-heart", "JD QD KD 2C", "", objective="points").best
    assert best.points == solve("black-heart", "JD QD KD 2C", objective="points").points_played == 150
    result = hint("black-heart", "QS JD QD KD TC QC", "AH 2H 3H", objective="points")
    assert all(alt.points <= result.best.points for alt in result.alternatives)


@pytest.mark.parametrize(
    "limit", [10**400, float("inf"), 0, -1, True, "1"], ids=["huge", "inf", "0", "-1", "bool", "str"]
)
def test_a_time_limit_that_is_no_positive_finite_number_is_refused(limit: object) -> None:
    with pytest.raises(RummyError, match="time_limit"):
        hint("rummikub", "7H 8H 9H", time_limit=limit)  # type: ignore[arg-type]
    assert "time_limit" in hint_json({"hand": "7H 8H 9H", "time_limit": limit})["error"]


@pytest.mark.parametrize(("hand", "table"), [("5H 9C 9D 9S KD", "5S 5D JK"), ("6H 9C 9D 9S KD", "5H JK 7H")])
def test_a_palace_swap_of_a_joker_whose_meaning_is_not_written(hand: str, table: str) -> None:
    # the joker stands for what its place gives (a group's rank, a run's missing card)
    swap = hint("rummy-palace", hand, table).best.plan.steps[0]
    assert swap.action == "swap" and swap.text.startswith(f"Swap JK out of meld 1 ({table}) for {hand[:2]}")


def test_a_palace_swap_step_names_the_joker() -> None:
    steps = hint("rummy-palace", "5H 9C 9D 9S KD", "5S 5D JK").to_json()["best"]["steps"]
    assert [s["wild"] for s in steps if s["action"] == "swap"] == ["JK"]


def test_the_other_objectives_move_is_shown_only_when_it_does_better_by_that_objective() -> None:
    # the most-points move here plays other cards for the same 9 cards and 75 points as the best
    advice = hint(
        "black-heart",
        "6S AH 5H 6H 7H 8H TH 8C KC QC JS JD",
        "3S 3C 3H | 6C 7C 8C 9C TC | 4S 5S 6S 7S 8S | QD=5S 5C 5S | KS/AH AS 2S",
        score=-40,
        alternatives=5,
    )
    assert (advice.best.cards_played, advice.best.points) == (9, 75)
    assert all(s.label != "points" or s.points > advice.best.points for s in advice.alternatives)
    assert "points" not in [s.label for s in advice.alternatives]
