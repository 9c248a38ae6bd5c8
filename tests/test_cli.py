"""The `rummyai` command: listing variants, JSON output and one-line errors with exit status 2."""

from __future__ import annotations

import io
import json
import subprocess
import sys

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


def test_console_script_exits_2_without_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rummyai.cli", "play", "--variant", "nope"], capture_output=True, text=True
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and "unknown variant" in done.stderr
