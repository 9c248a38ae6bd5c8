"""The HTTP service through FastAPI's TestClient (thread pool): the same answers as the CLI's JSON
contract, Black Heart's score and swaps included, and bad input answered 422 naming the field."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from rummyai.hint.limits import Limits
from rummyai.hint.service import create_app
from rummyai.solvers import solve_json

SOLVE_KEYS = {"status", "played", "melds", "cards_played", "points_played", "ms"}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """A service with one solver thread (no worker processes), started and stopped with the module."""
    with TestClient(create_app(Limits(pool="thread", workers=1, time_limit=5.0))) as http:
        yield http


def test_solve_lists_black_heart_swaps_like_the_cli(client: TestClient) -> None:
    # QD=7 leaves the group for 7H; the diamond then stands in 8S 9S QD=TS (§6.5)
    body = {"variant": "black-heart", "hand": "7H 8S 9S", "table": "7S 7C QD=7"}
    answer = client.post("/v1/solve", json=body).json()
    reference = solve_json(body)
    assert (
        answer["swaps"]
        == reference["swaps"]
        == [{"meld": 0, "diamond": "QD", "replacement": "7H", "escort": None}]
    )
    assert set(answer) == SOLVE_KEYS | {"swaps"}
    assert answer["played"] == reference["played"] and answer["melds"] == reference["melds"]


@pytest.mark.parametrize(("score", "played"), [(-1, ["6H"]), (0, [])])
def test_score_reaches_the_black_heart_opening_chart(
    client: TestClient, score: int, played: list[str]
) -> None:
    body = {"variant": "black-heart", "hand": "6H 2C", "table": "7H 8H 9H", "opened": False, "score": score}
    assert client.post("/v1/solve", json=body).json()["played"] == played
    hint = client.post("/v1/hint", json={**body, "alternatives": 0}).json()
    assert hint["best"]["played"] == played


@pytest.mark.parametrize(
    ("endpoint", "body", "needle"),
    [
        ("/v1/solve", {"score": "high"}, "score"),
        ("/v1/hint", {"score": 1.5}, "score"),
        ("/v1/validate", {"score": 0, "new_table": []}, "score"),  # the judge has no opening chart
        ("/v1/solve", {"hand": ["7H", 8]}, "hand"),
        ("/v1/solve", {"table": [["3C", 4, "5C"]]}, "table"),
    ],
)
def test_bad_fields_are_422_naming_them(
    client: TestClient, endpoint: str, body: dict[str, Any], needle: str
) -> None:
    answer = client.post(endpoint, json={"variant": "black-heart", "hand": "7H", **body})
    assert answer.status_code == 422
    assert needle in answer.json()["error"]


def test_solve_answers_as_the_cli_on_every_variant(client: TestClient) -> None:
    positions = [
        {"variant": "rummikub", "hand": "7H 8H 9H JK", "table": "3C 4C 5C"},
        {"variant": "rhine", "hand": "8C JC", "table": "7C JK 9C"},
        {"variant": "rummy-tiles", "hand": "6C TD", "table": "3C 4C 5C"},
        {"variant": "rummy-board", "hand": "6C JK", "table": "3C 4C 5C"},
        {"variant": "rummy-palace", "hand": "7H 8H 9H 2C", "table": "3C 4C JK=5C", "opened": False},
        {"variant": "standard", "hand": "7H 7H 7C", "options": ["decks=2"]},
        {"variant": "black-heart", "hand": "QS 5H 6H QC", "table": "QD QS/7H QC/8H"},
    ]
    for body in positions:
        answer = client.post("/v1/solve", json=body).json()
        reference = solve_json(body)
        assert "error" not in reference, (body, reference)
        assert {k: answer[k] for k in ("played", "melds", "status")} == {
            k: reference[k] for k in ("played", "melds", "status")
        }


@pytest.mark.parametrize(
    ("body", "needle"),
    [
        (
            b'{"hand": "7H", "score": ' + b"9" * 5000 + b"}",
            "digits",
        ),  # a huge number is named, not a bare 400
        (b"[" * 5000, "recursion"),  # deep nesting is named, not a bare 400
        (b'{"hand": "7H"', "malformed JSON"),
        (b'\xff\xfe{"hand": "7H"}', "malformed JSON"),
    ],
)
def test_unreadable_json_is_422_naming_the_problem(client: TestClient, body: bytes, needle: str) -> None:
    for endpoint in ("/v1/solve", "/v1/hint", "/v1/validate"):
        answer = client.post(endpoint, content=body)
        assert answer.status_code == 422, (endpoint, answer.text)
        assert "malformed JSON" in answer.json()["error"] and needle in answer.json()["error"]


def test_solve_takes_the_turn_duties_of_a_take(client: TestClient) -> None:
    """`committed` and `taken` as in the CLI's JSON: a run that must wait for the kept card, and
    a variant without the duty answered 422 naming it."""
    palace = {"variant": "rummy-palace", "hand": "5C 6C 7C 8H", "opened": True}
    assert client.post("/v1/solve", json=palace).json()["cards_played"] == 3
    assert client.post("/v1/solve", json={**palace, "taken": "8H"}).json()["cards_played"] == 0
    body = {"variant": "standard", "hand": "8S 9S 2C", "table": "5S 6S 7S", "committed": ["9S"]}
    assert sorted(client.post("/v1/solve", json=body).json()["played"]) == ["8S", "9S"]
    refused = client.post("/v1/solve", json={**palace, "committed": "5C"})
    assert refused.status_code == 422 and "not rummy-palace" in refused.json()["error"]


def test_solve_takes_the_opening_objective_as_the_cli_does(client: TestClient) -> None:
    body = {"variant": "rummikub", "hand": "TH JH QH KH JK 9S", "objective": "opening", "opened": False}
    answer = client.post("/v1/solve", json=body).json()
    assert answer["played"] == solve_json(body)["played"] == ["JH", "QH", "KH"]


@pytest.mark.parametrize("limit", [b"Infinity", b"1e999"])
def test_a_time_limit_that_is_not_finite_is_422_as_on_the_command_line(
    client: TestClient, limit: bytes
) -> None:
    for endpoint in ("/v1/solve", "/v1/hint"):
        answer = client.post(endpoint, content=b'{"hand": "7H 8H 9H", "time_limit": ' + limit + b"}")
        assert answer.status_code == 422, (endpoint, answer.text)
        assert "time_limit" in answer.json()["error"]


def test_the_hint_example_of_the_http_page_answers_as_shown(client: TestClient) -> None:
    import json
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "http.md").read_text()
    body = json.loads(re.search(r"-d '(\{.*?\})'", page).group(1))  # type: ignore[union-attr]
    answer = client.post("/v1/hint", json=body).json()
    best, other = answer["best"], answer["alternatives"][0]
    for shown in (
        f'"played": {json.dumps(best["played"])}',
        f'"melds": {json.dumps(best["melds"])}',
        f'"cards_played": {best["cards_played"]}, "points_played": {best["points_played"]}',
        json.dumps(best["steps"][0]["text"]),
        f'"label": "{other["label"]}"',
        f'"played": {json.dumps(other["played"])}',
    ):
        assert shown in page, shown
    validate = json.loads(re.search(r"`(\{\"variant\": \"rummikub\", \"hand\": \"6C\".*?\})`", page).group(1))  # type: ignore[union-attr]
    assert client.post("/v1/validate", json=validate).json() == {"legal": True, "played": ["6C"]}
