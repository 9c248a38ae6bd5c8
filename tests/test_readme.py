"""The README's examples run as written: every Python block, and every `rummyai` command line."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()
BLOCKS = re.findall(r"```(\w+)\n(.*?)```", README, flags=re.S)
PYTHON = [code for lang, code in BLOCKS if lang == "python"]
COMMANDS = [
    line for lang, code in BLOCKS if lang == "sh" for line in code.splitlines() if line.startswith("rummyai ")
]


def test_the_readme_has_the_six_examples_and_the_commands() -> None:
    assert len(PYTHON) == 6
    assert {line.split()[1] for line in COMMANDS} >= {"solve", "hint", "validate", "play", "tournament"}


@pytest.mark.parametrize("code", PYTHON, ids=[f"python-{k}" for k in range(len(PYTHON))])
def test_python_example_runs(code: str, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()


@pytest.mark.parametrize("line", COMMANDS, ids=[line.split()[1] for line in COMMANDS])
def test_command_line_runs_as_written(line: str, tmp_path: Path) -> None:
    argv = shlex.split(line.split("#")[0])
    assert not [a for a in argv if a.startswith("[")], "an optional-flag fragment cannot be pasted"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "rummyai.cli",
            *argv[1:],
            *(["--no-progress"] if argv[1] == "tournament" else []),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()
