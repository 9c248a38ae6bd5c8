"""`rummyai validate` from the outside: hand-checked plays on the four tile variants answer
exactly ``{"legal": true, "played": [...]}`` or ``{"legal": false, "rule": ..., "reason": ...}``,
the same over --jsonl, --json and HTTP."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummyai.cli import main
from rummyai.hint.limits import Limits
from rummyai.hint.service import create_app

NO = False

# (why, play, the cards it plays when legal or the rule it breaks)
CASES: list[tuple[str, dict[str, Any], list[str] | str]] = [
    (
        "rummikub: a joker joins a run",
        {"variant": "rummikub", "hand": "JK", "table": "7C 8C 9C", "new_table": "7C 8C 9C JK"},
        ["JK"],
    ),
    (
        "rummikub: 33 opens beside the table",
        {
            "variant": "rummikub",
            "hand": "TH JH QH",
            "table": "3C 4C 5C",
            "new_table": "3C 4C 5C | TH JH QH",
            "opened": NO,
        },
        ["TH", "JH", "QH"],
    ),
    (
        "rummikub: 24 does not open",
        {
            "variant": "rummikub",
            "hand": "7H 8H 9H",
            "table": "3C 4C 5C",
            "new_table": "3C 4C 5C | 7H 8H 9H",
            "opened": NO,
        },
        "8.2",
    ),
    (
        "rummikub: split a run around a second 5H",
        {"variant": "rummikub", "hand": "5H", "table": "3H 4H 5H 6H 7H", "new_table": "3H 4H 5H | 5H 6H 7H"},
        ["5H"],
    ),
    (
        "rummikub: no rearranging on the opening turn",
        {
            "variant": "rummikub",
            "hand": "5H",
            "table": "3H 4H 5H 6H 7H",
            "new_table": "3H 4H 5H | 5H 6H 7H",
            "opened": NO,
        },
        "8.2",
    ),
    (
        "rhine: the seed's example",
        {"variant": "rhine", "hand": "8C JC", "table": "7C JK 9C", "new_table": "7C 8C 9C JK JC"},
        ["8C", "JC"],
    ),
    (
        "rhine: the example without JC",
        {"variant": "rhine", "hand": "8C", "table": "7C JK 9C", "new_table": "7C 8C 9C JK"},
        "1.5 R5",
    ),
    (
        "rhine: a natural run qualifies",
        {"variant": "rhine", "hand": "7H 8H 9H", "table": "", "new_table": "7H 8H 9H", "opened": NO},
        ["7H", "8H", "9H"],
    ),
    (
        "rhine: a joker does not qualify",
        {"variant": "rhine", "hand": "7H 8H JK", "table": "", "new_table": "7H 8H JK", "opened": NO},
        "1.4",
    ),
    (
        "tiles: a joker retrieved into a new meld",
        {
            "variant": "rummy-tiles",
            "hand": "9C 5H 5S",
            "table": "7C 8C JK=9C",
            "new_table": "7C 8C 9C | 5H 5S JK",
        },
        ["5S", "5H", "9C"],
    ),
    (
        "tiles: a retrieved joker may not stay",
        {"variant": "rummy-tiles", "hand": "9C", "table": "7C 8C JK=9C", "new_table": "7C 8C 9C JK=TC"},
        "2.5 T4",
    ),
    (
        "tiles: a locked meld may grow",
        {"variant": "rummy-tiles", "hand": "6C", "table": "7C 8C JK=9C", "new_table": "6C 7C 8C JK=9C"},
        ["6C"],
    ),
    (
        "tiles: no joker in the opening",
        {
            "variant": "rummy-tiles",
            "hand": "7H 8H 9H JK",
            "table": "",
            "new_table": "7H 8H 9H JK",
            "opened": NO,
        },
        "2.4",
    ),
    (
        "board: 13 hand cards are too many",
        {
            "variant": "rummy-board",
            "hand": "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
            "table": "",
            "new_table": "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
        },
        "3.2",
    ),
    (
        "board: 12 are allowed",
        {
            "variant": "rummy-board",
            "hand": "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
            "table": "",
            "new_table": "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
        },
        ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH"],
    ),
    (
        "board: 30 with a joker worth 0",
        {
            "variant": "rummy-board",
            "hand": "9H TH JH JK",
            "table": "",
            "new_table": "9H TH JH JK",
            "opened": NO,
        },
        ["9H", "TH", "JH", "JK"],
    ),
    (
        "board: 27 with a joker worth 0",
        {
            "variant": "rummy-board",
            "hand": "8H 9H TH JK",
            "table": "",
            "new_table": "8H 9H TH JK",
            "opened": NO,
        },
        "3.4",
    ),
    (
        "board: two jokers in one meld",
        {"variant": "rummy-board", "hand": "JK", "table": "7C 8C JK=9C", "new_table": "7C 8C JK JK"},
        ["JK"],
    ),
]


def check(answer: dict[str, Any], want: list[str] | str, why: str) -> None:
    if isinstance(want, list):
        assert answer == {"legal": True, "played": want}, (why, answer)
    else:
        assert set(answer) == {"legal", "rule", "reason"} and answer["legal"] is False, (why, answer)
        assert answer["rule"] == want and answer["reason"], (why, answer)


def test_hand_checked_plays_over_jsonl(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(json.dumps(p) + "\n" for _, p, _ in CASES)))
    out = io.StringIO()
    assert main(["validate", "--jsonl"], out=out) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == len(CASES)
    for (why, _, want), answer in zip(CASES, answers, strict=True):
        check(answer, want, why)


@pytest.mark.parametrize(("why", "play", "want"), CASES[:6], ids=[c[0] for c in CASES[:6]])
def test_json_flag_gives_the_same_answer(why: str, play: dict[str, Any], want: list[str] | str) -> None:
    argv = ["validate", "--variant", play["variant"], "--hand", play["hand"], "--table", play["table"]]
    argv += ["--new-table", play["new_table"], "--json"] + (
        ["--not-opened"] if play.get("opened") is False else []
    )
    out = io.StringIO()
    status = main(argv, out=out)
    answer = json.loads(out.getvalue())
    assert status == (0 if answer["legal"] else 1)  # 1: an illegal play (2 is bad input)
    check(answer, want, why)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Limits(pool="thread", workers=1))) as http:
        yield http


def test_http_validate_gives_the_same_answers(client: TestClient) -> None:
    for why, play, want in CASES:
        answer = client.post("/v1/validate", json=play)
        assert answer.status_code == 200, (why, answer.text)
        check(answer.json(), want, why)


def test_validate_json_defaults_the_table_and_names_unknown_keys() -> None:
    from rummyai.engine.judge import judge_json

    assert judge_json({"variant": "rummikub", "hand": "7H 8H 9H", "new_table": ["7H 8H 9H"]}) == {
        "legal": True,
        "played": ["7H", "8H", "9H"],
    }
    answer = judge_json({"variant": "rummikub", "hand": "7H", "new_table": [], "opend": True})
    assert "unknown key(s) 'opend'" in answer["error"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"new_table": "3C 4C 5C 6C/9H"}, "new table meld 1: escorts ('/') do not exist in rhine"),
        ({"new_table": ["3C 4C 5C", "3C 4C 5C 6C/JK"]}, "new table meld 2: escorts"),
        ({"new_table": ["3C 4C 5C 6C", []]}, "new table meld 2 is empty"),
        ({"new_table": "3C 4C 5C 6C | 3C 4C 5C | 3C 4C 5C"}, "3 copies of 3C in the new table"),
        ({"hand": "6C 6C 6C"}, "3 copies of 6C in hand and table"),
        ({"table": ["3C 4C 5C", "7H 8H"]}, "table meld 2: '7H 8H'"),
        ({"variant": None}, "'variant' must be a string, got None"),
        ({"options": [5]}, "'name=value' strings, got 5"),
    ],
)
def test_bad_moves_to_check_are_named(change: dict[str, object], message: str) -> None:
    """The new table is read as strictly as the start table, and errors say which of the two."""
    from rummyai.engine.judge import judge_json

    play = {"variant": "rhine", "hand": "6C 9H", "table": "3C 4C 5C", "new_table": "3C 4C 5C 6C", **change}
    answer = judge_json(play)
    assert set(answer) == {"error"} and message in answer["error"]
