"""The results folder: a killed multi-worker run leaves no worker behind and resumes exactly, and a
folder holding anything but this tournament's results is refused with a clear error."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from arena_synth import FailAfter, stable, start_slow_tournament, synthetic_game, wait_for_games

from rummyai.agents import register_agent
from rummyai.arena import main, run_tournament
from rummyai.arena.store import load_records
from rummyai.errors import RummyError

COMMON: dict[str, Any] = {
    "variant": "rummikub",
    "agents": ["strong", "weak"],
    "games": 5,
    "players": 2,
    "seed": 7,
    "progress": False,
    "report": False,
    "resamples": 100,
    "game_fn": synthetic_game,
}


def children(pid: int) -> list[int]:
    """Live child processes of `pid` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """True while `pid` exists and is not a zombie."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_killing_a_multi_worker_run_leaves_no_worker_and_resumes_exactly(
    tmp_path: Path, sig: signal.Signals
) -> None:
    out = tmp_path / "killed"
    child = start_slow_tournament(out, 300, workers=2)
    workers: list[int] = []
    try:
        wait_for_games(out, 10, 60, child)
        workers = children(child.pid)  # the pool's workers (fork; with a forkserver, the server)
        child.send_signal(sig)
        child.wait()
        assert workers
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not [pid for pid in workers if alive(pid)], "pool workers outlived the killed tournament"
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        for pid in workers:  # never leave an orphan running, even when the test fails
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
    partial = len(load_records(out / "games.jsonl"))
    assert 10 <= partial < 600
    summary = run_tournament(**{**COMMON, "games": 300, "seed": 3}, out_dir=out)
    reference = run_tournament(**{**COMMON, "games": 300, "seed": 3}, out_dir=tmp_path / "ref")
    assert summary.games == 600
    assert stable(load_records(out / "games.jsonl")) == stable(load_records(tmp_path / "ref" / "games.jsonl"))
    assert summary.pairs == reference.pairs


def test_a_games_file_without_its_manifest_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "t"
    run_tournament(**COMMON, out_dir=out)
    (out / "tournament.json").unlink()
    with pytest.raises(RummyError, match=r"games.jsonl without tournament.json"):
        run_tournament(**{**COMMON, "agents": ["strong", "mid"]}, out_dir=out)


def test_another_tournaments_games_are_refused_even_under_a_matching_manifest(tmp_path: Path) -> None:
    run_tournament(**COMMON, out_dir=tmp_path / "a")
    run_tournament(**{**COMMON, "seed": 8}, out_dir=tmp_path / "b")
    shutil.copy(tmp_path / "a" / "games.jsonl", tmp_path / "b" / "games.jsonl")
    with pytest.raises(RummyError, match=r"another tournament's game \(0, 0\).*deal"):
        run_tournament(**{**COMMON, "seed": 8}, out_dir=tmp_path / "b")
    # a hand-edited seat is caught too
    lines = (tmp_path / "a" / "games.jsonl").read_text().splitlines()
    first = json.loads(lines[0])
    first["seats"] = list(reversed(first["seats"]))
    (tmp_path / "a" / "games.jsonl").write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    with pytest.raises(RummyError, match=r"seats \['weak', 'strong'\]"):
        run_tournament(**COMMON, out_dir=tmp_path / "a")


def test_a_folder_left_without_games_takes_another_tournament(tmp_path: Path) -> None:
    """A run stopped before its first game ended (here: at once) protects nothing from a new one."""
    out = tmp_path / "t"
    with pytest.raises(KeyboardInterrupt):
        run_tournament(**{**COMMON, "game_fn": FailAfter(0)}, out_dir=out)
    assert (out / "tournament.json").exists() and load_records(out / "games.jsonl") == []
    summary = run_tournament(**{**COMMON, "agents": ["strong", "mid"], "seed": 1}, out_dir=out)
    assert summary.games == 10
    assert json.loads((out / "tournament.json").read_text())["agents"] == ["strong", "mid"]
    with pytest.raises(RummyError, match="different tournament: agents"):
        run_tournament(**COMMON, out_dir=out)  # now it holds games


def test_a_folder_of_another_variant_is_refused_by_its_variant(tmp_path: Path) -> None:
    out = tmp_path / "t"
    run_tournament(**COMMON, out_dir=out)
    # rhine also flips low_score_wins, which the message would otherwise name first
    with pytest.raises(RummyError, match="different tournament: variant was 'rummikub', now 'rhine'"):
        run_tournament(**{**COMMON, "variant": "rhine"}, out_dir=out)


def test_bad_results_files_give_clear_errors(tmp_path: Path) -> None:
    a_file = tmp_path / "report.md"
    a_file.write_text("not a folder\n")
    with pytest.raises(RummyError, match="is a file, not a folder"):
        run_tournament(**COMMON, out_dir=a_file)
    out = tmp_path / "t"
    run_tournament(**COMMON, out_dir=out)
    (out / "tournament.json").write_text("{broken")
    with pytest.raises(RummyError, match="not a tournament manifest"):
        run_tournament(**COMMON, out_dir=out)
    other = tmp_path / "u"
    run_tournament(**COMMON, out_dir=other)
    with (other / "games.jsonl").open("a") as handle:
        handle.write("[1, 2]\n")
    with pytest.raises(RummyError, match=r"line 11 is not a game record"):
        run_tournament(**COMMON, out_dir=other)


def test_command_line_reports_a_file_as_out_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a_file = tmp_path / "taken"
    a_file.write_text("x")
    argv = ["--variant", "rummikub", "--agents", "random,greedy", "--games", "1", "--players", "2"]
    assert main([*argv, "--out", str(a_file), "--no-progress"]) == 2
    assert "is a file, not a folder" in capsys.readouterr().err


def test_command_line_run_killed_mid_way_resumes_to_the_uninterrupted_games(tmp_path: Path) -> None:
    """The real engine and the real command: SIGKILL part-way, rerun, same games as one clean run."""
    argv = ["--variant", "rummy-board", "--agents", "random,greedy", "--games", "5", "--players", "2"]
    argv += ["--seed", "5", "--max-turns", "10", "--no-progress", "--workers", "1"]
    out = tmp_path / "killed"
    child = subprocess.Popen(
        [sys.executable, "-m", "rummyai.arena", *argv, "--out", str(out)], stdout=subprocess.DEVNULL
    )
    try:
        wait_for_games(out, 3, 60, child)
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait()
    assert child.returncode == -signal.SIGKILL, "the run ended before it could be killed"
    partial = load_records(out / "games.jsonl")
    assert 3 <= len(partial) < 10
    assert main([*argv, "--out", str(out)]) == 0
    assert main([*argv, "--out", str(tmp_path / "clean")]) == 0
    resumed = load_records(out / "games.jsonl")
    assert len(resumed) == 10 == len({(r["set"], r["seating"]) for r in resumed})
    assert stable(resumed) == stable(load_records(tmp_path / "clean" / "games.jsonl"))
    assert stable(partial) == stable(resumed)[: len(partial)]  # games kept, not replayed
    report = (out / "report.md").read_text()
    assert "duplicate sets: 5 (10 games" in report


def test_an_agent_parameter_of_the_wrong_type_is_a_clear_error(tmp_path: Path) -> None:
    register_agent("needs-int-test", "arena_synth:NeedsInt", "compares an int parameter")
    with pytest.raises(RummyError, match=r"agent spec 'needs-int-test:size=abc' cannot be built"):
        run_tournament(
            **{**COMMON, "agents": ["random", "needs-int-test:size=abc"], "game_fn": None}, out_dir=tmp_path
        )
    assert not (tmp_path / "tournament.json").exists()
