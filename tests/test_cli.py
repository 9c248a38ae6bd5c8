"""The `rummyai` command: listing variants, JSON output and one-line errors with exit status 2."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rummyai.cli import main
from rummyai.variants import VARIANT_IDS


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    status = main(list(argv), out=out)
    return status, out.getvalue()


def test_variants_lists_the_seven_ids() -> None:
    status, text = run("variants")
    assert status == 0
    for variant_id in VARIANT_IDS:
        assert variant_id in text


def test_variants_json_has_ids_and_summaries() -> None:
    status, text = run("variants", "--json")
    rows = json.loads(text)
    assert status == 0
    assert [r["id"] for r in rows] == list(VARIANT_IDS)
    assert all(r["summary"] for r in rows)
    assert {r["id"]: r["cards"] for r in rows}["black-heart"] == 75


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["play", "--variant", "nope"], "unknown variant 'nope'"),
        (["play", "--variant", "rhine", "--option", "bogus"], "unknown option 'bogus'"),
        (["play", "--variant", "standard", "--option", "decks=7"], "decks"),
        (["solve", "--hand", "7H"], "--variant is required"),
        (["solve", "--variant", "rummikub"], "--hand is required"),
        (["validate", "--variant", "rhine", "--new-table", "7H 8H 9H"], "--hand is required"),
        (["solve", "--variant", "rhine", "--hand", "7H 8H 9H", "--score", "40"], "applies to black-heart"),
    ],
)
def test_bad_input_is_one_line_on_stderr_with_status_2(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _ = run(*argv)
    err = capsys.readouterr().err
    assert status == 2
    assert needle in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_tournament_errors_read_like_every_other_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "t"
    status, _ = run(
        "tournament",
        "--variant",
        "rummikub",
        "--agents",
        "nope,greedy",
        "--players",
        "2",
        "--games",
        "1",
        "--out",
        str(out),
    )
    err = capsys.readouterr().err
    assert status == 2 and err.startswith("rummyai: error: agent spec 'nope'")
    assert not out.exists()


def test_validate_names_a_card_played_once_too_often() -> None:
    status, text = run(
        "validate",
        "--variant",
        "rummikub",
        "--hand",
        "4S",
        "--table",
        "5S 6S 7S",
        "--new-table",
        "4S 5S 6S 7S 4S",
    )
    assert status == 1 and "holds 2 copies of 4S, but the table and hand hold 1" in text


def test_console_script_exits_2_without_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rummyai.cli", "play", "--variant", "nope"], capture_output=True, text=True
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "unknown variant" in done.stderr


def test_jsonl_answers_every_line_and_reports_bad_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [
        {"hand": ["8C", "JC"], "table": [["7C", "JK", "9C"]], "new_table": [["7C", "8C", "9C", "JK", "JC"]]},
        "not json",
        {"hand": ["8C"], "table": [["7C", "JK", "9C"]], "new_table": [["7C", "8C", "9C", "JK"]]},
        {"hand": ["ZZ"], "table": [], "new_table": []},
    ]
    text = "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines) + "\n"
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    status, out = run("validate", "--variant", "rhine", "--jsonl")
    answers = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and len(answers) == 4
    assert answers[0] == {"legal": True, "played": ["8C", "JC"]}
    assert "malformed JSON" in answers[1]["error"]
    assert answers[2]["legal"] is False and answers[2]["rule"] == "1.5 R5"
    assert "ZZ" in answers[3]["error"]


def test_play_json_is_reproducible_and_complete() -> None:
    argv = (
        "play",
        "--variant",
        "rummy-board",
        "--players",
        "2",
        "--agents",
        "random,random",
        "--seed",
        "5",
        "--json",
    )
    first, second = run(*argv), run(*argv)
    record = json.loads(first[1])
    assert first == second
    assert {"variant", "seed", "players", "rounds", "totals", "winner"} <= set(record)
    assert record["totals"] == [sum(r["scores"][seat] for r in record["rounds"]) for seat in range(2)]


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_play_finishes_every_variant_with_four_players(variant_id: str) -> None:
    status, text = run(
        "play", "--variant", variant_id, "--players", "4", "--seed", "2", "--json", "--max-turns", "400"
    )
    record = json.loads(text)
    assert status == 0 and record["players"] == 4 and record["winners"]


def test_solve_takes_the_turn_duties_of_a_take() -> None:
    """--committed and --taken: the cards taken from the discards that must be played / kept."""
    args = ("solve", "--variant", "standard", "--hand", "8S 9S 2C", "--table", "5S 6S 7S", "--json")
    status, text = run(*args, "--committed", "9S")
    assert status == 0 and sorted(json.loads(text)["played"]) == ["8S", "9S"]
    palace = ("solve", "--variant", "rummy-palace", "--hand", "5C 6C 7C 8H", "--json")
    assert json.loads(run(*palace)[1])["cards_played"] == 3
    assert json.loads(run(*palace, "--taken", "8H")[1])["cards_played"] == 0
    status, text = run(*palace[:-1], "--committed", "5C")
    assert status == 2


def test_solve_json_contract_keys() -> None:
    status, text = run(
        "solve", "--variant", "rummikub", "--hand", "7H 8H 9H JK", "--table", "3C 4C 5C | 8S 8D 8H", "--json"
    )
    answer = json.loads(text)
    assert status == 0
    assert {"status", "played", "melds", "cards_played", "points_played", "ms"} <= set(answer)
    assert answer["status"] == "optimal" and answer["cards_played"] == 4
