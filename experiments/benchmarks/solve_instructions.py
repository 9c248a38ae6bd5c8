"""Instructions per warm Rummikub solve, counted by valgrind: a speed figure the machine's load
does not move.

Timings on a shared machine move by a fifth or more from one run to the next; the number of
instructions a solve executes does not (the same code, positions and Python give the same count).
This runs `solver_bench.py`'s 200 positions (seed 0) under ``valgrind --tool=callgrind`` twice, once
solving them once (the warm-up) and once solving them `--rounds` more times, and divides the
difference by the extra solves, so start-up and the warm-up cancel out. Both `solve` settings
are counted: cards only (``minimize_changes=False``) and the default answer (fewest start melds
broken). It takes a few minutes: valgrind runs the code about fifty times slower.

    .venv/bin/python experiments/benchmarks/solve_instructions.py [--rounds 2]

Needs valgrind (Debian's package). With ``--solve-only`` (used by the counting runs themselves) it
only solves.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from solver_bench import positions  # the sibling script's generator: the same 200 positions

from rummyai import __version__
from rummyai.solvers import make_position, solve

HERE = Path(__file__).resolve()


def solve_rounds(rounds: int, default: bool) -> None:
    """Solve the 200 positions once (warm-up) and then `rounds` more times."""
    cases = [make_position("rummikub", hand, table) for hand, table in positions("rummikub", 200, 0)]
    calls = [(p.variant, p.hand, [info.slots for info in p.table]) for p in cases]
    for _ in range(1 + rounds):
        for call in calls:
            solve(*call, minimize_changes=default)


def counted(rounds: int, default: bool) -> int:
    """Instructions valgrind counts for a process solving `rounds` rounds after the warm-up."""
    with tempfile.TemporaryDirectory() as folder:
        command = [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={folder}/out",
            sys.executable,
            str(HERE),
            "--solve-only",
            "--rounds",
            str(rounds),
            *(["--default"] if default else []),
        ]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
    found = re.search(r"Collected : ([\d,]+)", done.stderr)
    if done.returncode != 0 or found is None:  # the counted run failed: say how, without a traceback
        raise SystemExit(f"the counted run failed (exit {done.returncode}):\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2, help="rounds of 200 solves counted (default 2)")
    parser.add_argument("--solve-only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--default", action="store_true", help=argparse.SUPPRESS)
    ns = parser.parse_args()
    if ns.solve_only:  # a counting run: 0 rounds is the warm-up alone
        solve_rounds(ns.rounds, ns.default)
        return
    if ns.rounds < 1:
        parser.error("--rounds must be at least 1")
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    print(f"rummyai {__version__}, Python {sys.version.split()[0]}, 200 rummikub positions (seed 0)")
    for label, default in (("cards only", False), ("default (fewest melds broken)", True)):
        extra = counted(ns.rounds, default) - counted(0, default)
        print(f"{label:32s} {extra / (200 * ns.rounds) / 1e6:8.2f} million instructions per solve")


if __name__ == "__main__":
    main()
