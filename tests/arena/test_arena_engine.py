"""Tournaments on the real engine: records are consistent, reproducible across worker counts, and
the command-line entry point writes the report."""

from __future__ import annotations

from pathlib import Path

import pytest
from arena_synth import stable

from rummyai.agents import register_agent
from rummyai.arena import main, run_tournament
from rummyai.arena.store import load_records
from rummyai.errors import RummyError


def test_engine_tournament_is_consistent_and_reproducible(tmp_path: Path) -> None:
    common = {
        "variant": "rummikub",
        "agents": ["random", "greedy"],
        "games": 2,
        "players": 2,
        "seed": 9,
        "max_turns": 10,
        "progress": False,
        "report": False,
    }
    one = run_tournament(out_dir=tmp_path / "one", **common)  # type: ignore[arg-type]
    two = run_tournament(out_dir=tmp_path / "two", workers=2, **common)  # type: ignore[arg-type]
    first = load_records(tmp_path / "one" / "games.jsonl")
    assert one.games == 4 and len(first) == 4
    assert stable(first) == stable(load_records(tmp_path / "two" / "games.jsonl"))
    assert one.ratings == two.ratings
    for record in first:
        assert sum(record["scores"]) == 0  # rummikub: the winner takes what the others lose
        assert set(record["seats"]) == {"random", "greedy"}
        best = max(record["scores"])
        assert record["winners"] == [s for s, v in enumerate(record["scores"]) if v == best]
        assert all(d >= 1 for d in record["decisions"])
    # both seatings of a set replay the same deal
    assert first[0]["match_seed"] == first[1]["match_seed"] != first[2]["match_seed"]


def test_command_line_runs_a_tournament_and_reports_errors(tmp_path: Path) -> None:
    out = tmp_path / "cli"
    argv = ["--variant", "rummy-board", "--agents", "random,random:seed=1", "--games", "2"]
    argv += ["--players", "3", "--seed", "1", "--out", str(out), "--max-turns", "9", "--no-progress"]
    argv += ["--seating", "rotations"]
    assert main(argv) == 0
    assert (out / "report.md").exists() and (out / "winrate.png").exists()
    records = load_records(out / "games.jsonl")
    assert len(records) == 2 * 3
    bad = ["--variant", "rummikub", "--agents", "random,nobody", "--games", "1", "--players", "2"]
    assert main([*bad, "--out", str(tmp_path / "bad")]) == 2


def test_an_illegal_move_stops_the_tournament_naming_the_agent(tmp_path: Path) -> None:
    register_agent("illegal-test", "arena_synth:IllegalAgent", "always submits an empty table")
    with pytest.raises(
        RummyError, match=r"agent 'illegal-test' at seat \d of game \(0, 0\) chose an illegal move"
    ):
        run_tournament("rummikub", ["illegal-test", "random"], 1, 2, 0, tmp_path, progress=False)
    assert load_records(tmp_path / "games.jsonl") == []


def test_play_game_reports_every_decision_with_its_seconds() -> None:
    from rummyai.arena.duplicate import set_tasks
    from rummyai.arena.play import play_game

    task = set_tasks(
        0, agents=("greedy", "random"), players=2, seed=4, variant="rummikub", options=("rounds=1",)
    )[0]
    heard: list[tuple[int, float]] = []
    record = play_game(task, lambda seat, seconds: heard.append((seat, seconds)))
    assert len(heard) == sum(record["decisions"])
    for seat in (0, 1):
        mine = [s for k, s in heard if k == seat]
        assert len(mine) == record["decisions"][seat]
        assert sum(mine) == pytest.approx(record["think_s"][seat], abs=1e-5)
        assert record["move_s"][seat] == pytest.approx(mine, abs=1e-4)  # every decision, to 0.1 ms
