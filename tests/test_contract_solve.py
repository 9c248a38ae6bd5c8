"""The Python and JSON solve/hint contracts from the outside: `ms` is the whole in-process time of
the position, JSON types are checked, Black Heart's score reaches the hint, options are taken."""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
import time
from typing import Any

import pytest

from rummyai.errors import RummyError
from rummyai.hint import hint, hint_json
from rummyai.solvers import make_position, solve, solve_json

API = importlib.import_module("rummyai.solvers.api")
HINT_API = importlib.import_module("rummyai.hint.api")
ANY_SOLVE: Any = solve  # called with wrong types on purpose
ANY_HINT: Any = hint


def test_ms_counts_every_phase_of_the_solve(monkeypatch: pytest.MonkeyPatch) -> None:
    # a Rummy Palace opening turn with a joker to swap runs a second phase after the tile model
    real = API.with_opening_swaps

    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.3)
        return real(*args, **kwargs)

    monkeypatch.setattr(API, "with_opening_swaps", slow)
    solution = solve("rummy-palace", "5C 9H TH JH QH 2S", "3C 4C JK=5C", opened=False)
    assert solution.cards_played == 5  # the 39-point run, then 5C for the joker, which joins the run
    assert solution.ms >= 300


def test_hint_ms_leaves_out_importing_the_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    # the first call of `solver_module` stands for the import of OR-Tools (about a second cold)
    real = HINT_API.solver_module
    calls: list[int] = []

    def first_call_slow() -> Any:
        if not calls:
            time.sleep(1.5)
        calls.append(1)
        return real()

    monkeypatch.setattr(HINT_API, "solver_module", first_call_slow)
    answer = hint("rummikub", "7H 8H 9H", "", alternatives=0)
    assert answer.best.cards_played == 3
    assert answer.ms < 1500


@pytest.mark.parametrize(("score", "played"), [(-1, 1), (0, 0), (100, 0)])
def test_hint_reads_black_heart_score(score: int, played: int) -> None:
    result = hint("black-heart", "6H 2C", "7H 8H 9H", opened=False, score=score, alternatives=0)
    assert result.best.cards_played == played
    as_json = hint_json(
        {"variant": "black-heart", "hand": "6H 2C", "table": "7H 8H 9H", "opened": False, "score": score}
    )
    assert as_json["best"]["cards_played"] == played


def test_hint_score_must_be_an_integer() -> None:
    assert "'score' must be an integer" in hint_json({"hand": "7H", "score": "low"})["error"]
    with pytest.raises(RummyError, match="score"):
        ANY_HINT("black-heart", "7H", score=1.5)


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        ({"hand": ["7H", "8H", 9]}, "'hand'"),
        ({"hand": "7H", "table": [["3C", 4, "5C"]]}, "'table'"),
        ({"hand": "7H", "table": [[3, 4, 5]]}, "'table'"),
        ({"hand": "7H 8H 9H", "max_cards": 1.5}, "'max_cards' must be an integer"),
        ({"hand": "7H 8H 9H", "max_cards": True}, "'max_cards' must be an integer"),
        ({"hand": "7H", "variant": 5}, "'variant' must be a string"),
        ({"hand": "7H", "variant": None}, "'variant' must be a string"),
        ({"hand": "7H", "objective": ["cards"]}, "'objective' must be a string"),
        ({"hand": "7H", "options": "decks=2"}, "'options'"),
        ({"hand": "7H", "options": [2]}, "'options'"),
        ({"hand": "7H", "work_limit": "soon"}, "'work_limit' must be a number"),
        ({"hand": "7H", "score": 2.5}, "'score' must be an integer"),
        (
            {"variant": "black-heart", "hand": "7H", "opened": False, "score": None},
            "score must be an integer",
        ),
        ({"hand": "7H", "variant": ""}, "unknown variant ''"),
        ({"hand": "7H", "time_limit": 10**400}, "time_limit must be a positive number"),
        ({"hand": "7H", "work_limit": 10**400}, "work_limit must be a positive number"),
        ({"table": "3C 4C 5C"}, "missing field(s): hand"),
        ({"variant": "rummy-palace", "hand": "7H", "score": -40}, "'score'"),
        (
            {"variant": "standard", "hand": "JK"},
            "1 copy of JK in hand and table but the standard deck has no JK",
        ),
    ],
)
def test_solve_json_names_wrong_types(body: dict[str, Any], needle: str) -> None:
    answer = solve_json(body)
    assert set(answer) == {"error"} and needle in answer["error"], answer


def test_solve_json_takes_options() -> None:
    assert (
        solve_json({"variant": "standard", "hand": "7H 7H 7C", "options": ["decks=2"]})["cards_played"] == 3
    )
    assert (
        solve_json({"variant": "standard", "hand": "7H 7H 7C", "options": {"decks": 2}})["cards_played"] == 3
    )
    assert "unknown option" in solve_json({"hand": "7H", "options": ["wild_sevens"]})["error"]


@pytest.mark.parametrize(
    ("call", "needle"),
    [
        (lambda: ANY_SOLVE("rummikub", None), "the hand must be"),
        (lambda: ANY_SOLVE("rummikub", 5), "the hand must be"),
        (lambda: ANY_SOLVE("rummikub", [True]), "unknown card True"),
        (lambda: ANY_SOLVE("rummikub", ["7H"], 5), "the table must be"),
        (lambda: ANY_SOLVE("rummikub", ["7H"], [5]), "table meld 1"),
        (lambda: ANY_SOLVE("rummikub", "7H", [["3C", 4, "5C"]]), "table meld 1"),
        (lambda: ANY_SOLVE("rummikub", ["7H"], time_limit="1"), "time_limit must be a number"),
        (lambda: ANY_SOLVE("rummikub", ["7H"], max_cards="1"), "max_cards must be an integer"),
        (lambda: ANY_SOLVE("black-heart", ["7H"], score=1.0), "score must be an integer"),
        (lambda: ANY_SOLVE("black-heart", ["7H"], opened=False, score=None), "score must be an integer"),
        (lambda: ANY_SOLVE("rummikub", ["7H"], time_limit=10**400), "time_limit must be a positive"),
        (lambda: ANY_HINT("rummikub", None), "the hand must be"),
        (lambda: ANY_HINT("rummikub", "7H", 5), "the table must be"),
        (lambda: ANY_HINT("rummikub", "7H", [["3C", 4, "5C"]]), "mixes card tokens with 4"),
        (lambda: ANY_HINT("rummikub", "7H", alternatives="2"), "'alternatives' must be an integer"),
        (lambda: ANY_HINT("rummikub", "7H", time_limit="1"), "'time_limit'"),
        (lambda: ANY_HINT("rummikub", "7H", options=5), "options must be"),
    ],
)
def test_python_api_wrong_types_raise_typed_errors(call: Any, needle: str) -> None:
    with pytest.raises(RummyError, match=needle):
        call()


def test_python_api_still_takes_kinds_slots_and_generators() -> None:
    import numpy as np

    from rummyai.cards import parse_meld

    hand = (k for k in [np.int64(19), 20, 21])  # 7H 8H 9H as kinds, one a numpy integer
    table = [parse_meld("3C 4C 5C")]
    solution = solve("rummikub", hand, table)
    assert solution.cards_played == 3


@pytest.mark.parametrize(("limit", "why"), [(None, "the solver found no proof"), (5.0, "time limit")])
def test_hint_note_says_why_a_move_is_not_proven(
    monkeypatch: pytest.MonkeyPatch, limit: float | None, why: str
) -> None:
    # an unproven answer without any time limit must not blame a time limit
    import types
    from dataclasses import replace

    def unproven(*args: Any, **kwargs: Any) -> Any:
        return replace(solve(*args, **kwargs), status="feasible")

    stub = types.SimpleNamespace(solve=unproven, prepare_turn=API.prepare_turn)
    monkeypatch.setattr(HINT_API, "solver_module", lambda: stub)
    result = hint("rummikub", "7H 8H 9H", "", alternatives=0, time_limit=limit)
    assert result.status == "feasible"
    assert len(result.notes) == 1 and why in result.notes[0]


def test_a_taken_card_not_in_the_hand_is_refused() -> None:
    with pytest.raises(RummyError, match="taken card KS is not in the hand"):
        solve("rummy-palace", "7H 8H 9H 2C", "", taken="KS")


@pytest.mark.parametrize(
    ("committed", "message"),
    [("9H 9H", "committed names 2 copies of 9H but the hand holds 1"), ("KS", "committed card KS is not in")],
)
def test_committed_cards_the_hand_does_not_hold_are_named(committed: str, message: str) -> None:
    with pytest.raises(RummyError, match=message):
        solve("standard", "9H 8H 7H", "", committed=committed)


@pytest.mark.parametrize("hand", [b"7H 8H 9H", {"7H": 1}, 7, [None]])
def test_a_hand_that_is_not_cards_is_refused_by_solve_and_hint(hand: object) -> None:
    for read in (make_position, solve, hint):
        with pytest.raises(
            RummyError, match=r"must be a string of cards or a list of cards|unknown card None"
        ):
            read("rummikub", hand)


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ([["7H", 8, "9H"]], "table meld 1 mixes card tokens with 8"),
        ([[19, 20, 99]], "card kind 99 in table meld 1 is out of range"),
        ([[19, True, 21]], "unknown card True in table meld 1"),
        ("3C 4C 5C | 7H 8H", "table meld 2: '7H 8H' has 2 core cards"),
        ("3C 4C 5C | 7H", "table meld 2: '7H' has 1 core card; a meld needs at least 3"),
        (["3C 4C 5C", ["7H", "8X", "9H"]], "table meld 2: unknown suit 'X'"),
        ([["3C", "4C", "5C"], []], "table meld 2 is empty"),
        ([["3C", "4C", "5C"], None], "table meld 2 must be a string or a list of cards, got None"),
        (b"3C 4C 5C", "the table must be a string of melds or a list of melds"),
        ({"3C 4C 5C": 1}, "the table must be a string of melds or a list of melds"),
    ],
)
def test_a_bad_table_gets_the_same_message_from_solve_and_hint(table: object, message: str) -> None:
    """One reader serves the solver and the hint engine: the bad meld is named by its number."""
    for read in (make_position, solve, hint):
        with pytest.raises(RummyError, match=re.escape(message)):
            read("rummikub", "2C", table)


def test_json_positions_carry_the_turn_duties_after_a_take() -> None:
    """`committed` (must be played) and `taken` (may not be the discard) reach the solver from JSON."""
    free = solve_json({"variant": "standard", "hand": "9S 2C 3D 4H", "table": "5S 6S 7S"})
    assert free["cards_played"] == 0  # nothing fits without the 8S
    bound = solve_json({"variant": "standard", "hand": "8S 9S 2C", "table": "5S 6S 7S", "committed": ["9S"]})
    assert sorted(bound["played"]) == ["8S", "9S"]
    stuck = solve_json({"variant": "standard", "hand": "9S 2C 3D", "table": "", "committed": "9S"})
    assert "5.2" in stuck["error"]
    # Rummy Palace keeps one card back for the discard, and the taken 8H may not be it: the run waits
    palace = {"variant": "rummy-palace", "hand": "5C 6C 7C 8H", "opened": True}
    assert solve_json(palace)["played"] == ["5C", "6C", "7C"]
    assert solve_json({**palace, "taken": "8H"})["played"] == []


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        (
            {"variant": "rummikub", "hand": "7H 8H 9H", "committed": "9H"},
            "applies to standard, black-heart, not rummikub",
        ),
        ({"variant": "standard", "hand": "7H 8H 9H", "taken": "9H"}, "applies to rummy-palace, not standard"),
        ({"variant": "rummy-palace", "hand": "7H 8H 9H 2C", "taken": 9}, "'taken' must be one card token"),
        ({"variant": "standard", "hand": "7H 8H 9H", "committed": [9]}, "'committed' must be a string"),
        ({"variant": "rummy-palace", "hand": "7H 8H 9H 2C", "taken": "7H 8H"}, "'taken' must be one card"),
    ],
)
def test_turn_duties_where_the_variant_has_none_are_refused(body: dict[str, Any], needle: str) -> None:
    assert needle in solve_json(body)["error"]


def test_played_cards_come_in_the_notations_order_rank_then_suit() -> None:
    answer = solve_json({"variant": "rummikub", "hand": "KC KS 3H AH KD 2H"})
    assert answer["played"] == ["AH", "2H", "3H", "KS", "KD", "KC"]


@pytest.mark.parametrize(
    "call",
    [
        "s = rummyai.solve('rhine', '7H 8H 9H', '3C 4C 5C', time_limit=0.2)",
        "s = rummyai.hint('standard', '7H 8H 9H 2C', time_limit=0.2, alternatives=0).best",
    ],
)
def test_a_fresh_process_keeps_a_short_time_limit_for_its_first_cp_sat_solve(call: str) -> None:
    # importing OR-Tools (about 0.3 s) is start-up work: it must not eat the first solve's limit
    code = f"import json, rummyai\n{call}\nprint(json.dumps([s.status, s.cards_played]))\n"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == ["optimal", 3]


def test_solve_takes_variant_options_as_hint_does() -> None:
    both = {"options": ["rhine.wild_twos"]}
    solution = solve("rhine", "7H 8H 2C", **both)
    assert solution.cards_played == 3 and "2C=9H" in solution.table_text()
    assert sorted(hint("rhine", "7H 8H 2C", **both).best.played) == sorted(solution.played)
    assert solve("rhine", "7H 8H 2C").cards_played == 0  # twos are not wild without the option


@pytest.mark.parametrize(
    ("variant", "taken", "message"),
    [
        ("rummy-palace", True, "'taken' must be one card (a token such as '7H' or a kind), got True"),
        ("rummy-palace", ["3S", "4S"], "'taken' must be one card"),
        ("standard", "JK", "taken"),
    ],
)
def test_a_bad_taken_card_gets_the_same_message_from_solve_and_hint(
    variant: str, taken: object, message: str
) -> None:
    messages = []
    for read in (solve, hint):
        with pytest.raises(RummyError, match=re.escape(message)) as error:
            read(variant, "3S 4S 5S 9H", taken=taken)
        messages.append(str(error.value))
    assert messages[0] == messages[1]


def test_numpy_integers_are_accepted_wherever_a_whole_number_is() -> None:
    import numpy as np

    nine = make_position("rummy-palace", "9H").hand[0]
    plain = hint("rummy-palace", "3S 4S 5S 9H 9S", taken=nine, score=0, alternatives=2)
    numpy = hint(
        "rummy-palace", "3S 4S 5S 9H 9S", taken=np.int64(nine), score=np.int64(0), alternatives=np.int64(2)
    )
    assert [s.played for s in (plain.best, *plain.alternatives)] == [
        s.played for s in (numpy.best, *numpy.alternatives)
    ]


def test_a_solution_writes_the_solve_contract_itself() -> None:
    import rummyai
    from rummyai.solvers import solve_json

    solution = rummyai.solve("rummikub", "7H 8H 9H JK", "3C 4C 5C | 8S 8D 8H")
    answer = solve_json({"variant": "rummikub", "hand": "7H 8H 9H JK", "table": "3C 4C 5C | 8S 8D 8H"})
    mine = solution.to_json()
    assert {k: v for k, v in mine.items() if k != "ms"} == {k: v for k, v in answer.items() if k != "ms"}
