"""A user's script type-checks against `import rummyai`: the entry points are typed functions."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

USER_SCRIPT = """\
import rummyai
from rummyai.agents import Agent

move = rummyai.solve("rummikub", "7H 8H 9H JK", "3C 4C 5C | 8S 8D 8H")
cards: int = move.cards_played
advice = rummyai.hint("rummikub", "6C 9D TD JD", "")
steps: list[str] = [step.text for step in advice.best.plan.steps]
verdict = rummyai.validate("rhine", "8C JC", "7C JK 9C", "7C 8C 9C JK JC")
legal: bool = verdict.legal
record = rummyai.play_match("rummikub", ["random", "greedy"], seed=1)
winners: list[int] = record["winners"]
ids: list[str] = rummyai.list_variants()
agents: dict[str, str] = rummyai.list_agents()
agent: Agent = rummyai.make_agent("greedy")
variant: rummyai.Variant = rummyai.get_variant("rhine", ["rhine.wild_twos"])
"""

WRONG_SCRIPT = """\
import rummyai

rummyai.solve(7, "7H")
name: str = rummyai.play_match("rummikub", ["random", "greedy"])["winners"]
rummyai.hint("rummikub", "7H", alternatives="three")
"""


def _installed_layout(target: Path) -> Path:
    """The package as an install lays it out (pyproject's package-dir mapping), as symlinks."""
    mapping = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    package = target / "rummyai"
    package.mkdir(parents=True)
    for entry in (ROOT / mapping["rummyai"]).iterdir():
        if entry.name != "__pycache__":
            (package / entry.name).symlink_to(entry)
    for name, folder in mapping.items():
        if name != "rummyai":
            (package / name.split(".", 1)[1]).symlink_to(ROOT / folder)
    return target


@pytest.fixture(scope="module")
def mypy_output(tmp_path_factory: pytest.TempPathFactory) -> str:
    """mypy --strict on both scripts, rummyai's own modules checked silently as an installed package is."""
    work = tmp_path_factory.mktemp("mypy")
    site = _installed_layout(work / "site")
    (work / "user_ok.py").write_text(USER_SCRIPT)
    (work / "user_wrong.py").write_text(WRONG_SCRIPT)
    (work / "mypy.ini").write_text("[mypy]\nstrict = True\nfollow_imports = silent\n")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "user_ok.py", "user_wrong.py"],
        cwd=work,
        env={**os.environ, "MYPYPATH": str(site)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    return done.stdout + done.stderr


def test_a_user_script_passes_mypy_strict(mypy_output: str) -> None:
    assert "user_ok.py" not in mypy_output, mypy_output
    assert "Found 3 errors in 1 file (checked 2 source files)" in mypy_output, mypy_output


def test_wrong_calls_are_caught_so_the_api_is_not_any(mypy_output: str) -> None:
    assert 'user_wrong.py:3: error: Argument 1 to "solve" has incompatible type "int"' in mypy_output
    assert "user_wrong.py:4: error: Incompatible types in assignment" in mypy_output
    assert (
        'user_wrong.py:5: error: Argument "alternatives" to "hint" has incompatible type "str"' in mypy_output
    )


def test_py_typed_is_shipped() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "py.typed" in config["rummyai"]
    assert (ROOT / "rummyai" / "py.typed").exists()
