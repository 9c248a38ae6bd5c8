"""The training scripts answer bad input with one line and exit status 2, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

TRAINING = Path(__file__).resolve().parents[1] / "experiments" / "training"
BENCHMARKS = TRAINING.parent / "benchmarks"


@pytest.mark.parametrize(
    ("script", "args", "message"),
    [
        ("decision_time.py", ["--agent", "nope", "--games", "1"], "unknown agent 'nope'"),
        ("ppo_selfplay.py", ["--env", "rummyai/Nope-v1", "--out", "run"], "rummyai/StandardRummy-v1"),
        ("departures.py", ["--variant", "nope", "--deals", "1"], "unknown variant 'nope'"),
        ("departures.py", ["--agent", "nope", "--deals", "1"], "unknown agent 'nope'"),
    ],
)
def test_bad_input_is_one_line(script: str, args: list[str], message: str, tmp_path: Path) -> None:
    assert_refused(TRAINING / script, args, tmp_path, message)


def test_the_dp_passes_benchmark_refuses_a_count_below_one(tmp_path: Path) -> None:
    assert_refused(BENCHMARKS / "dp_passes.py", ["--repeat", "0"], tmp_path, "--repeat must be at least 1")


def assert_refused(script: Path, args: list[str], cwd: Path, message: str) -> None:
    """`script` run with `args` in `cwd` exits with status 2 and one line holding `message`."""
    done = subprocess.run(
        [sys.executable, str(script), *args], capture_output=True, text=True, timeout=300, cwd=cwd
    )
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr


def test_collect_refuses_a_folder_labelled_by_another_expert(tmp_path: Path) -> None:
    def collect(*args: str) -> subprocess.CompletedProcess[str]:
        command = [
            sys.executable,
            str(TRAINING / "collect.py"),
            "--games",
            "1",
            "--out",
            str(tmp_path / "bc"),
        ]
        return subprocess.run([*command, *args], capture_output=True, text=True, timeout=300)

    assert collect("--expert", "greedy-points").returncode == 0
    again = collect("--expert", "greedy")
    assert again.returncode == 2 and "holds games collected with" in again.stderr
    assert collect("--expert", "greedy-points").returncode == 0  # the same settings resume


def test_train_value_data_resumes_game_by_game_and_is_read_only_with_its_settings(tmp_path: Path) -> None:
    def run(games: int) -> subprocess.CompletedProcess[str]:
        script = TRAINING.parent / "train_value.py"
        command = [sys.executable, str(script), "--games", str(games), "--hidden", "0", "--data", "d.npz"]
        return subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=tmp_path)

    import numpy as np

    assert run(2).returncode == 0
    whole = dict(np.load(tmp_path / "d.npz"))
    (tmp_path / "d.npz").unlink()
    (tmp_path / "d.npz.parts" / "game-000001.npz").unlink()  # as if stopped during the second game
    assert run(2).returncode == 0
    resumed = dict(np.load(tmp_path / "d.npz"))
    assert whole.keys() == resumed.keys()
    assert all(np.array_equal(whole[k], resumed[k], equal_nan=whole[k].dtype.kind == "f") for k in whole)
    refused = run(3)
    assert refused.returncode != 0 and "holds data made with" in refused.stderr


@pytest.mark.parametrize(
    ("study", "message"),
    [("nowhere", "cannot read the plan"), ("studies/value-agent", "sets mcts-pimc's worlds")],
)
def test_the_worlds_curve_refuses_a_folder_that_is_not_its_study(study: str, message: str) -> None:
    root = TRAINING.parents[1]
    assert_refused(root / "experiments" / "studies" / "worlds_curve.py", [study], root, message)


def test_the_instruction_count_benchmark_refuses_a_count_below_one(tmp_path: Path) -> None:
    assert_refused(
        BENCHMARKS / "solve_instructions.py", ["--rounds", "0"], tmp_path, "--rounds must be at least 1"
    )


def test_tiles_bench_names_why_rhines_program_hands_positions_over() -> None:
    """`tiles_bench.py --refusals`: every position counted once, as answered or under one of the
    named causes, and the judge and the budget put back afterwards."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import tiles_bench
    finally:
        sys.path.remove(str(BENCHMARKS))
    from rummyai.solvers import rhine_jokers
    from rummyai.solvers.random_positions import joker_positions
    from rummyai.variants import get_variant

    rhine = get_variant("rhine")
    judge, states = rhine_jokers.judge, rhine_jokers.MAX_STATES
    cases = joker_positions(rhine, 8, 2000)
    figures = tiles_bench.refusals_section("rhine", rhine, cases)
    assert rhine_jokers.judge is judge and states == rhine_jokers.MAX_STATES
    counts = {key: value for key, value in figures.items() if key != "section"}
    causes = {
        "answered",
        f"answered with {tiles_bench.MORE_STATES} times the states",
        "states ran out, nothing refused",
        "R4, joker kept",
        "R4, released, replacement beside",
        "R4, released, no replacement beside",
        "1.5 R5",
        "1.5 R5b",
    }
    assert set(counts) <= causes and sum(counts.values()) == len(cases)
    assert counts.get("answered", 0) < len(cases)  # these seeds include hand-overs
