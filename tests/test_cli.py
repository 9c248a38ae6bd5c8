"""The `rummyai` command: listing variants, playing, judging and solving, the JSON and --jsonl
contracts, and every bad input answered in one line (or one ``{"error"}``) with exit status 2."""

from __future__ import annotations

import errno
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rummyai import cli
from rummyai.cli import main
from rummyai.variants import VARIANT_IDS


def run(
    *argv: str, stdin: str | None = None, monkeypatch: pytest.MonkeyPatch | None = None
) -> tuple[int, str]:
    """Run the command in process; returns the exit status and standard output."""
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


def lines(*positions: Any) -> str:
    """JSON lines: dicts and lists are dumped, strings are sent as they are."""
    return "".join((p if isinstance(p, str) else json.dumps(p)) + "\n" for p in positions)


def answers(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


# ------------------------------------------------------------------------------ commands
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
        (["play", "--variant", "rummikub", "--agents", ",greedy"], "--agents ',greedy' has an empty name"),
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


def test_solve_minimize_changes_flag() -> None:
    """--no-minimize-changes skips the fewest-changes tie-break; the cards played stay the best."""
    args = ("solve", "--variant", "rummikub", "--hand", "8H 9H", "--table", "5H 6H 7H | 8S 8D 8C", "--json")
    tidy, fast = (json.loads(run(*args, flag)[1]) for flag in ("--minimize-changes", "--no-minimize-changes"))
    assert tidy["cards_played"] == fast["cards_played"] == 2


def test_solve_json_contract_keys() -> None:
    status, text = run(
        "solve", "--variant", "rummikub", "--hand", "7H 8H 9H JK", "--table", "3C 4C 5C | 8S 8D 8H", "--json"
    )
    answer = json.loads(text)
    assert status == 0
    assert {"status", "played", "melds", "cards_played", "points_played", "ms"} <= set(answer)
    assert answer["status"] == "optimal" and answer["cards_played"] == 4


# ------------------------------------------------------------------------------ options
def test_solve_takes_variant_options_on_the_command_line() -> None:
    # three 7H exist only with two decks: the option must reach the solver, not be refused
    status, text = run(
        "solve", "--variant", "standard", "--option", "decks=2", "--hand", "7H 7H 7C", "--json"
    )
    assert status == 0, text
    assert json.loads(text)["cards_played"] == 3


def test_solve_jsonl_applies_options_to_lines_of_that_variant_only(monkeypatch: pytest.MonkeyPatch) -> None:
    stdin = lines({"hand": "7H 7H 7C"}, {"variant": "rhine", "hand": "7H 8H 9H"})
    status, text = run(
        "solve",
        "--jsonl",
        "--variant",
        "standard",
        "--option",
        "decks=2",
        stdin=stdin,
        monkeypatch=monkeypatch,
    )
    first, second = answers(text)
    assert status == 0
    assert first["cards_played"] == 3
    assert second["cards_played"] == 3  # decks=2 is not a rhine option and does not apply here


def test_solve_jsonl_without_variant_applies_options_to_every_line(monkeypatch: pytest.MonkeyPatch) -> None:
    # official jokers: a table joker is taken only by its replacement from the rack, so 9S 9D
    # cannot take the 3C 4C JK run's joker; free jokers would play both nines with it
    position = {"variant": "rummikub", "hand": "9S 9D", "table": "3C 4C JK | 5C 5S 5D 5H"}
    status, text = run(
        "solve", "--jsonl", "--option", "official_jokers", stdin=lines(position), monkeypatch=monkeypatch
    )
    assert status == 0 and answers(text)[0]["cards_played"] == 0
    status, text = run("solve", "--jsonl", stdin=lines(position), monkeypatch=monkeypatch)
    assert status == 0 and answers(text)[0]["cards_played"] == 2
    status, text = run(
        "solve", "--jsonl", "--option", "bogus", stdin=lines(position), monkeypatch=monkeypatch
    )
    assert "unknown option 'bogus'" in answers(text)[0]["error"]


def test_solve_jsonl_refuses_an_option_its_variant_does_not_know(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    stdin = lines({"hand": "7H 8H 9H"})
    status, text = run(
        "solve", "--jsonl", "--variant", "rummikub", "--option", "bogus", stdin=stdin, monkeypatch=monkeypatch
    )
    assert status == 2 and not text and "unknown option 'bogus'" in capsys.readouterr().err


def test_jsonl_lines_take_the_command_lines_flags_for_keys_they_leave_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # an unopened rummikub player may not open with 24 points; a line's own "opened" wins
    stdin = lines({"hand": "7H 8H 9H"}, {"hand": "7H 8H 9H", "opened": True}, {})
    status, text = run(
        "solve",
        "--jsonl",
        "--variant",
        "rummikub",
        "--not-opened",
        "--table",
        "3C 4C 5C",
        "--hand",
        "TD JD QD",
        stdin=stdin,
        monkeypatch=monkeypatch,
    )
    unopened, opened, from_flags = answers(text)
    assert status == 0
    assert unopened["cards_played"] == 0
    assert opened["played"] == ["7H", "8H", "9H"]
    assert from_flags["played"] == ["TD", "JD", "QD"]  # 33 points: an opening
    stdin = lines({"new_table": "3C 4C 5C | 7H 8H 9H"}, {"new_table": "3C 4C 5C | 7H 8H 9H", "opened": True})
    status, text = run(
        "validate",
        "--jsonl",
        "--variant",
        "rummikub",
        "--not-opened",
        "--hand",
        "7H 8H 9H",
        "--table",
        "3C 4C 5C",
        stdin=stdin,
        monkeypatch=monkeypatch,
    )
    refused, legal = answers(text)
    assert refused["legal"] is False and refused["rule"] == "8.2"
    assert legal["legal"] is True


def test_hint_jsonl_answers_every_line_with_the_command_lines_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    stdin = lines(
        {"hand": "7H 8H 9H 5C", "table": "5D 5S 5H"},
        "",
        {"hand": "7H QQ"},
        {"hand": "7H 8H 9H", "alternatives": 1, "objective": "points"},
    )
    status, text = run(
        "hint",
        "--jsonl",
        "--variant",
        "rummikub",
        "--alternatives",
        "0",
        stdin=stdin,
        monkeypatch=monkeypatch,
    )
    best, empty, bad, asked = answers(text)
    assert status == 0
    assert best["best"]["played"] == ["5C", "7H", "8H", "9H"] and best["alternatives"] == []
    assert "empty line" in empty["error"]
    assert "QQ" in bad["error"]
    assert asked["best"]["title"] == "Most points" and asked["best"]["played"] == ["7H", "8H", "9H"]
    with pytest.raises(SystemExit) as usage:  # one output form at a time
        run("hint", "--variant", "rummikub", "--json", "--jsonl", stdin="", monkeypatch=monkeypatch)
    assert usage.value.code == 2


@pytest.mark.parametrize(
    ("command", "shown"),
    [
        (["hint"], ["(default cards)", "(default 3)", "(default: no limit)"]),
        (["solve"], ["(default cards)", "(default: no limit)"]),
        (["serve"], ["(default 127.0.0.1)", "(default 8000)", "(default 2.0)"]),
        (["tournament"], ["(default 0)", "(default local)"]),
    ],
)
def test_help_names_the_defaults(
    command: list[str], shown: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    text = " ".join(capsys.readouterr().out.split())  # argparse wraps lines anywhere
    for default in shown:
        assert default in text


# ------------------------------------------------------------------------------ --jsonl lines
def test_jsonl_answers_every_line_in_order_including_empty_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    stdin = lines(
        {"hand": "7H 8H 9H"},
        "",
        "   ",
        "[1, 2]",
        '"hand"',
        "{broken",
        {"hand": ["7H", "8H", 9]},
        {"hand": "7H 8H 9H", "variant": 5},
        {"hand": "7H 8H 9H", "max_cards": 1.5},
        {"hand": "7H 8H 9H", "table": [["3C", 4, "5C"]]},
        {"hand": "JK 8C 9C"},
        '{"hand": "7H", "score": ' + "9" * 5000 + "}",
        "[" * 100_000,
    )
    status, text = run("solve", "--jsonl", "--variant", "rummikub", stdin=stdin, monkeypatch=monkeypatch)
    out = answers(text)
    assert status == 0 and len(out) == 13
    assert out[0]["cards_played"] == 3 and out[10]["cards_played"] == 3
    assert "empty line" in out[1]["error"] and "empty line" in out[2]["error"]
    assert "JSON object" in out[3]["error"] and "JSON object" in out[4]["error"]
    assert "malformed JSON" in out[5]["error"]
    assert "'hand'" in out[6]["error"]  # a number is not a card token (not the kind 9, TS)
    assert "'variant' must be a string" in out[7]["error"]
    assert "'max_cards' must be an integer" in out[8]["error"]  # not cut to 1 silently
    assert "'table'" in out[9]["error"]  # named, not Python's "invalid literal for int()"
    assert "malformed JSON" in out[11]["error"] and "digits" in out[11]["error"]
    assert "malformed JSON" in out[12]["error"]


def test_console_script_jsonl_survives_a_byte_order_mark_and_bad_bytes() -> None:
    stdin = b'\xef\xbb\xbf{"hand": "7H 8H 9H"}\r\n\xff\xfe{"hand": "7H"}\n{"hand": "7H 8H 9H"}\r\n'
    done = subprocess.run(
        [sys.executable, "-m", "rummyai.cli", "solve", "--jsonl", "--variant", "rummikub"],
        input=stdin,
        capture_output=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "LC_ALL": "C", "PYTHONUTF8": "0"},
    )
    out = answers(done.stdout.decode())
    assert done.returncode == 0 and len(out) == 3, done.stderr
    assert out[0]["cards_played"] == 3 and out[2]["cards_played"] == 3
    assert "malformed JSON" in out[1]["error"]


def test_jsonl_run_goes_on_after_an_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    from rummyai.solvers import solve_json as real

    def flaky(obj: dict[str, Any]) -> dict[str, Any]:
        if obj.get("hand") == "boom":
            raise KeyError("boom")
        return real(obj)

    monkeypatch.setattr("rummyai.solvers.solve_json", flaky)
    stdin = lines({"hand": "boom"}, {"hand": "7H 8H 9H"})
    status, text = run("solve", "--jsonl", "--variant", "rummikub", stdin=stdin, monkeypatch=monkeypatch)
    first, second = answers(text)
    assert "internal error" in first["error"] and second["cards_played"] == 3
    assert status == cli.EXIT_INTERNAL


def test_validate_jsonl_names_unknown_keys_instead_of_ignoring_them(monkeypatch: pytest.MonkeyPatch) -> None:
    play = {"hand": ["6C"], "table": "7C 8C 9C", "new_table": "6C 7C 8C 9C"}
    stdin = lines({**play, "opend": False}, "")
    status, text = run("validate", "--jsonl", "--variant", "rummikub", stdin=stdin, monkeypatch=monkeypatch)
    first, second = answers(text)
    assert status == 0
    assert "unknown key(s) 'opend'" in first["error"]  # a typo must not give the opened verdict
    assert "empty line" in second["error"]


# ------------------------------------------------------------------------------ one-line errors
def test_json_mode_errors_are_json_on_stdout_and_a_line_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    status, text = run("solve", "--variant", "rummikub", "--hand", "7H 8H XH", "--json")
    err = capsys.readouterr().err
    assert status == 2
    assert json.loads(text) == {"error": "unknown rank 'X' in 'XH' (ranks are A 2-9 T/10 J Q K)"}
    assert err.count("\n") == 1 and "XH" in err


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["solve", "--variant", "rummikub", "--hand", "7H", "--objective", "most"], "invalid choice: 'most'"),
        (["solve", "--variant", "rummikub", "--hand", "7H", "--time-limit", "soon"], "invalid float value"),
        (["hint", "--variant", "rummikub"], "--hand"),
        (
            ["validate", "--variant", "rummikub", "--hand", "6C", "--table", "7C 8C 9C"],
            "--new-table is required",
        ),
        (["play", "--variant", "rummikub", "--seed", "-3", "--max-turns", "2"], "--seed"),
        (["serve", "--port", "70000"], "--port must be 0..65535"),
        (["serve", "--workers", "0"], "--workers must be at least 1"),
        (["serve", "--time-limit", "-1"], "--time-limit must be a positive number"),
        (["hint", "--variant", "rummikub", "--hand", "7H", "--time-limit", "0"], "--time-limit must be"),
        (["hint", "--variant", "rummikub", "--hand", "7H", "--score", "1.5"], "invalid int value"),
        (["solve", "--variant", "rummikub", "--hand", "7H", "--time-limit", "nan"], "--time-limit must be"),
        (["nonsense"], "invalid choice"),
    ],
)
def test_bad_command_lines_are_one_line_with_status_2(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:  # argparse usage errors exit through SystemExit
        raise SystemExit(run(*argv)[0])
    err = capsys.readouterr().err
    assert stop.value.code == 2
    assert needle in err, err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_usage_error_under_json_is_also_an_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    with pytest.raises(SystemExit) as stop:
        main(["solve", "--variant", "rummikub", "--hand", "7H", "--time-limit", "abc", "--json"], out=out)
    assert stop.value.code == 2
    assert "invalid float value" in json.loads(out.getvalue())["error"]
    assert "invalid float value" in capsys.readouterr().err


def test_an_internal_error_is_one_line_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def broken(obj: dict[str, Any]) -> dict[str, Any]:
        raise IndexError("list index out of range")

    monkeypatch.delenv("RUMMYAI_DEBUG", raising=False)
    monkeypatch.setattr("rummyai.solvers.solve_json", broken)
    status, _ = run("solve", "--variant", "rummikub", "--hand", "7H 8H 9H")
    err = capsys.readouterr().err
    assert status == cli.EXIT_INTERNAL
    assert err == "rummyai: internal error (IndexError): list index out of range\n"


def test_console_script_answers_a_bad_seed_without_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rummyai.cli", "play", "--variant", "rummikub", "--seed", "-1"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "--seed" in done.stderr


def test_serve_passes_workers_and_time_limit_to_the_service(monkeypatch: pytest.MonkeyPatch) -> None:
    from rummyai.hint import service

    seen: dict[str, Any] = {}

    def fake_serve(host: str, port: int, limits: Any = None) -> None:
        seen.update(host=host, port=port, limits=limits)

    monkeypatch.setattr(service, "serve", fake_serve)
    status, _ = run("serve", "--port", "0", "--workers", "3", "--time-limit", "0.5")
    assert status == 0
    assert seen["port"] == 0 and seen["limits"].workers == 3 and seen["limits"].time_limit == 0.5


# ------------------------------------------------------------------------------ --score
@pytest.mark.parametrize(("score", "played"), [("-1", ["6H"]), ("0", [])])
def test_black_heart_score_picks_the_opening_chart_line(score: str, played: list[str]) -> None:
    # below 0 any first play opens, a lay-off too (§6.4); from 0 a new meld of 3 is needed
    common = ("--variant", "black-heart", "--hand", "6H 2C", "--table", "7H 8H 9H", "--not-opened")
    for command in ("solve", "hint"):
        status, text = run(command, *common, "--score", score, "--json")
        answer = json.loads(text)
        assert status == 0
        assert (answer if command == "solve" else answer["best"])["played"] == played


def test_plain_solve_output_counts_in_words() -> None:
    status, text = run("solve", "--variant", "rummikub", "--hand", "6C", "--table", "3C 4C 5C")
    assert status == 0
    assert text.startswith("optimal: play 6C (1 card, 6 points at hand value)\n")


# ------------------------------------------------------------------------------ validate's status
@pytest.mark.parametrize(
    ("new_table", "status"),
    [("7C 8C 9C JK JC", 0), ("7C 8C 9C JK", 1)],
)
def test_validate_exits_0_for_a_legal_play_and_1_for_an_illegal_one(new_table: str, status: int) -> None:
    argv = (
        "validate",
        "--variant",
        "rhine",
        "--hand",
        "8C JC",
        "--table",
        "7C JK 9C",
        "--new-table",
        new_table,
    )
    assert run(*argv)[0] == status
    code, text = run(*argv, "--json")
    assert code == status and json.loads(text)["legal"] is (status == 0)


def test_validate_exits_2_for_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    status, _ = run(
        "validate", "--variant", "rhine", "--hand", "8X", "--table", "7C JK 9C", "--new-table", "7C"
    )
    assert status == 2 and "8X" in capsys.readouterr().err


# ------------------------------------------------------------------------------ --jsonl FILE
def test_jsonl_reads_a_file_named_after_it(tmp_path: Path) -> None:
    source = tmp_path / "positions.jsonl"
    source.write_text(lines({"hand": "7H 8H 9H JK", "table": "3C 4C 5C | 8S 8D 8H"}, {"hand": "7H"}))
    status, text = run("solve", "--variant", "rummikub", "--jsonl", str(source))
    first, second = answers(text)
    assert status == 0 and first["cards_played"] == 4 and second["cards_played"] == 0


def test_jsonl_without_a_file_or_with_a_dash_reads_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    for argv in (("--jsonl",), ("--jsonl", "-")):
        status, text = run(
            "solve",
            "--variant",
            "rummikub",
            *argv,
            stdin=lines({"hand": "9D TD JD"}),
            monkeypatch=monkeypatch,
        )
        assert status == 0 and answers(text)[0]["cards_played"] == 3


@pytest.mark.parametrize(
    ("path", "needle"),
    [("missing.jsonl", "missing.jsonl: No such file"), (".", "is a folder"), ("", "empty path")],
)
def test_jsonl_file_that_cannot_be_read_is_named(
    path: str,
    needle: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    status, text = run("validate", "--variant", "rhine", "--jsonl", path)
    err = capsys.readouterr().err
    assert status == 2 and text == ""
    assert needle in err and err.count("\n") == 1


def test_jsonl_refuses_a_fractional_integer_option(monkeypatch: pytest.MonkeyPatch) -> None:
    stdin = lines(
        {"hand": "7H 8H 9H", "options": {"rounds": 2.5}}, {"hand": "7H 8H 9H", "options": {"rounds": 2}}
    )
    _, text = run("solve", "--variant", "rummikub", "--jsonl", stdin=stdin, monkeypatch=monkeypatch)
    refused, taken = answers(text)
    assert "'rounds' needs an integer, got 2.5" in refused["error"]
    assert taken["cards_played"] == 3


# ------------------------------------------------------------------------------ play and tournament input
@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (
            ["--agents", "random:seed=-1,greedy"],
            "agent 'random': seed must be between 0 and 4294967295, got -1",
        ),
        (["--agents", "random,nobody"], "unknown agent 'nobody'"),
        (["--agents", "random:depth=3,greedy"], "has no parameter 'depth'"),
        (["--max-turns", "0"], "--max-turns must be at least 1"),
        (["--players", "9"], "2 to 4 players, not 9"),
    ],
)
def test_play_refuses_bad_agents_and_limits_in_one_line(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _ = run("play", "--variant", "rummikub", *argv)
    err = capsys.readouterr().err
    assert status == 2 and needle in err, err
    assert err.count("\n") == 1 and "internal error" not in err


def test_tournament_refuses_an_empty_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    argv = (
        "tournament",
        "--variant",
        "rummikub",
        "--agents",
        "random,greedy",
        "--games",
        "1",
        "--players",
        "2",
    )
    status, _ = run(*argv, "--out", "")
    assert status == 2 and "--out names an empty path" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("error", "needle"),
    [
        (OSError(errno.ENOSPC, "No space left on device"), "cannot write to {out}: No space left on device"),
        (
            PermissionError(errno.EROFS, "Read-only file system", "{out}/games.jsonl"),
            "cannot use {out}/games.jsonl: Read-only",
        ),
    ],
)
def test_an_output_folder_that_cannot_be_written_is_named(
    error: OSError,
    needle: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = str(tmp_path / "t")
    if error.filename is not None:
        error = type(error)(error.errno, error.strerror, error.filename.format(out=out))

    def full_disk(*args: Any, **kwargs: Any) -> Any:
        raise error

    monkeypatch.setattr("rummyai.arena.cli.run_tournament", full_disk)
    argv = (
        "tournament",
        "--variant",
        "rummikub",
        "--agents",
        "random,greedy",
        "--games",
        "1",
        "--players",
        "2",
    )
    status, _ = run(*argv, "--out", out)
    err = capsys.readouterr().err
    assert status == 2 and needle.format(out=out) in err, err
    assert err.count("\n") == 1 and "internal error" not in err


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["variants", "--json"], "No space left on device"),
        (["variants"], "No space left on device"),
        (["solve", "--variant", "rummikub", "--hand", "ZZ", "--json"], "'ZZ'"),
    ],
)
def test_a_full_standard_output_is_one_line(argv: list[str], needle: str) -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "rummyai.cli", *argv],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
        )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and needle in done.stderr, done.stderr


def test_version_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    import rummyai

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.strip() == f"rummyai {rummyai.__version__}"


def test_serve_on_a_port_in_use_is_one_line_and_status_2() -> None:
    import socket

    pytest.importorskip("uvicorn")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        command = [sys.executable, "-m", "rummyai.cli", "serve", "--port", str(port)]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"rummyai: error: cannot listen on 127.0.0.1:{port}: Address already in use"
    ]


def test_variants_names_every_variants_options() -> None:
    status, text = run("variants")
    assert status == 0 and "Options (--option NAME or NAME=VALUE):" in text
    assert "official_jokers" in text and "cyclic_laying" in text and "max_deals" in text


def test_a_wrong_argument_points_at_the_subcommands_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        run("solve", "--variant", "rummikub", "--hand", "7H", "--hnd", "x")
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments: --hnd x" in err and "(see rummyai solve --help)" in err
    with pytest.raises(SystemExit):  # an error the subcommand's own parser finds
        run("solve", "--variant", "rummikub", "--hand", "7H", "--objective", "most")
    assert "(see rummyai solve --help)" in capsys.readouterr().err


def test_no_subcommand_prints_the_help_with_card_notation_and_exit_codes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, _ = run()
    err = capsys.readouterr().err
    assert status == 2 and "usage: rummyai" in err
    assert "Exit status: 0 done, 1 an illegal play" in " ".join(err.split())


def test_a_played_match_says_how_rounds_ended_and_which_way_scores_count() -> None:
    status, text = run(
        "play", "--variant", "rhine", "--agents", "greedy,random", "--seed", "1", "--max-turns", "6"
    )
    assert status == 0
    assert "low score wins" in text and "the turn limit was reached" in text and "max_turns" not in text
    status, text = run(
        "play", "--variant", "rummikub", "--agents", "greedy,random", "--seed", "1", "--max-turns", "6"
    )
    assert status == 0 and "high score wins" in text


def test_a_plain_solve_that_is_not_proven_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import rummyai.solvers

    cut = {"status": "feasible", "played": [], "melds": [["3C", "4C", "5C"]], "cards_played": 0}
    monkeypatch.setattr(rummyai.solvers, "solve_json", lambda *a, **k: {**cut, "points_played": 0, "ms": 1.0})
    status, text = run("solve", "--variant", "rummikub", "--hand", "6C", "--table", "3C 4C 5C")
    assert status == 0 and text.splitlines()[:2] == [
        "feasible: play nothing (0 cards, 0 points at hand value)",
        "  not proven the best: a time or work limit cut the search, or the joker-rule check could not prove it",
    ]


def test_a_plain_solve_that_plays_nothing_says_why_as_the_hint_does() -> None:
    cases = [
        (
            ("--variant", "rummikub", "--hand", "KD", "--table", "3S 4S 5S"),
            "No card from your hand can be played: draw.",
        ),
        (
            ("--variant", "rummikub", "--hand", "KD 5S", "--table", "3S 4S 5S", "--not-opened"),
            "You cannot make your opening with this hand yet: draw.",
        ),
        (
            ("--variant", "standard", "--hand", "KD 5S 2C"),
            "No card from your hand can be played: just discard.",
        ),
    ]
    for flags, reason in cases:
        status, text = run("solve", *flags)
        assert status == 0 and text.splitlines()[1] == f"  {reason}", text
        _, hinted = run("hint", *flags, "--json")
        assert json.loads(hinted)["best"]["explanation"] == reason


def test_a_refused_value_is_named_by_the_flag_that_gave_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = [
        (("solve", "--variant", "rummikub", "--hand", "6C", "--time-limit", "-1"), "--time-limit must be"),
        (("hint", "--variant", "rummikub", "--hand", "6C", "--time-limit", "0"), "--time-limit must be"),
        (("hint", "--variant", "rummikub", "--hand", "6C", "--alternatives", "9"), "--alternatives must be"),
        (("solve", "--variant", "standard", "--hand", "6C", "--taken", "7C"), "--taken (the card taken"),
    ]
    for flags, start in cases:
        status, _ = run(*flags)
        assert status == cli.EXIT_BAD_INPUT
        assert capsys.readouterr().err.startswith(f"rummyai: error: {start}")
    # a --jsonl line is JSON: its refusal names the key
    position = {"variant": "rummikub", "hand": "6C", "time_limit": -1}
    _, text = run("solve", "--jsonl", stdin=lines(position), monkeypatch=monkeypatch)
    assert answers(text)[0]["error"].startswith("time_limit must be")
