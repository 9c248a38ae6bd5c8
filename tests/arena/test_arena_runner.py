"""Tournament runs on the synthetic game: determinism, resume after interruption, reports."""

from __future__ import annotations

import dataclasses
import json
import signal
from pathlib import Path
from typing import Any

import pytest
from arena_synth import FailAfter, stable, start_slow_tournament, synthetic_game, wait_for_games

from rummyai.arena import run_tournament
from rummyai.arena.store import load_records
from rummyai.errors import RummyError

AGENTS = ["strong", "mid", "weak"]


def run(out: Path, **kwargs: Any) -> Any:
    args: dict[str, Any] = {
        "variant": "rummikub",
        "agents": AGENTS,
        "games": 12,
        "players": 3,
        "seed": 7,
        "out_dir": out,
        "progress": False,
        "report": False,
        "resamples": 200,
        "game_fn": synthetic_game,
    }
    args.update(kwargs)
    return run_tournament(**args)


def records(out: Path) -> list[dict[str, Any]]:
    return load_records(out / "games.jsonl")


def test_same_seed_same_results_whatever_the_worker_count(tmp_path: Path) -> None:
    one = run(tmp_path / "one")
    two = run(tmp_path / "two", workers=2)
    assert one.games == 12 * 6 and one.sets == 12
    assert stable(records(tmp_path / "one")) == stable(records(tmp_path / "two"))
    assert one.ratings == two.ratings
    assert one.pairs == two.pairs
    run(tmp_path / "other", seed=8)
    assert stable(records(tmp_path / "other")) != stable(records(tmp_path / "one"))
    # the strongest synthetic agent comes out on top
    assert one.ratings[0].agent == "strong"


def test_interrupted_run_resumes_without_losing_or_repeating_games(tmp_path: Path) -> None:
    run(tmp_path / "ref")
    reference = stable(records(tmp_path / "ref"))
    out = tmp_path / "cut"
    with pytest.raises(KeyboardInterrupt):
        run(out, game_fn=FailAfter(17))
    assert len(records(out)) == 17
    # a second interruption, then a torn half-written line as if killed mid-write
    with pytest.raises(KeyboardInterrupt):
        run(out, game_fn=FailAfter(20))
    with (out / "games.jsonl").open("a") as handle:
        handle.write('{"set": 11, "seating": 5, "sco')
    summary = run(out)
    final = records(out)
    assert summary.games == len(final) == 72
    assert summary.resumed == 37  # the games the two cut runs finished
    assert len({(r["set"], r["seating"]) for r in final}) == 72
    assert stable(final) == reference
    # running again with everything done plays nothing and changes nothing
    assert run(out, game_fn=FailAfter(0)).resumed == 72
    assert stable(records(out)) == reference


def test_killed_process_resumes(tmp_path: Path) -> None:
    out = tmp_path / "killed"
    child = start_slow_tournament(out, 200)
    try:
        wait_for_games(out, 10, 30, child)
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait()
    partial = len(records(out))
    assert 10 <= partial < 400
    summary = run(out, agents=["strong", "weak"], games=200, players=2, seed=3, game_fn=synthetic_game)
    assert summary.games == 400
    reference = run(tmp_path / "ref", agents=["strong", "weak"], games=200, players=2, seed=3)
    assert stable(records(out)) == stable(records(tmp_path / "ref"))
    assert reference.pairs == summary.pairs


def test_resume_rejects_a_different_tournament_but_may_extend_one(tmp_path: Path) -> None:
    out = tmp_path / "t"
    run(out, games=4)
    with pytest.raises(RummyError, match="seed"):
        run(out, games=4, seed=99)
    with pytest.raises(RummyError, match="agents"):
        run(out, games=4, agents=["strong", "weak", "mid"])
    extended = run(out, games=6)
    assert extended.games == 36
    run(tmp_path / "fresh", games=6)
    assert stable(records(out)) == stable(records(tmp_path / "fresh"))


def test_resume_takes_the_same_options_written_in_another_order_or_form(tmp_path: Path) -> None:
    out = tmp_path / "t"
    run(out, games=2, options=["rounds=1", "official_jokers"])
    assert run(out, games=3, options=["official_jokers=true", "rounds=1"]).games == 18
    with pytest.raises(RummyError, match="options"):
        run(out, games=3, options=["rounds=2", "official_jokers"])
    # naming an option at the variant's default makes the same rules
    plain = tmp_path / "plain"
    run(plain, games=2)
    assert run(plain, games=3, options=["rounds=1"]).games == 18


def test_report_and_plots_are_written(tmp_path: Path) -> None:
    out = tmp_path / "rep"
    summary = run(out, report=True)
    text = (out / "report.md").read_text()
    for agent in AGENTS:
        assert f"`{agent}`" in text
    assert "## Ratings" in text and "## Pairwise" in text and "95% CI" in text
    assert "rummyai tournament --variant rummikub --agents strong,mid,weak --sets 12" in text
    for plot in ("ratings.png", "winrate.png", "scores.png"):
        data = (out / plot).read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 2000
        assert f"]({plot})" in text
    manifest = json.loads((out / "tournament.json").read_text())
    assert manifest["agents"] == AGENTS and manifest["games"] == 12
    assert len(summary.pairs) == 6


def test_the_reports_command_names_the_rating_method_and_recorded_moves(tmp_path: Path) -> None:
    run(tmp_path, report=True, ratings="openskill", record_moves=True, resamples=20)
    command = next(line for line in (tmp_path / "report.md").read_text().splitlines() if "- command:" in line)
    assert "--ratings openskill" in command and "--record-moves" in command


def test_bad_arguments_raise_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(RummyError, match="2 to 4 players"):
        run(tmp_path / "x", players=5)
    with pytest.raises(RummyError, match="two different agents"):
        run(tmp_path / "x", agents=["strong"], players=2)
    with pytest.raises(RummyError, match="unknown agent 'nobody'"):
        run(tmp_path / "x", agents=["random", "nobody"], players=2, game_fn=None)
    with pytest.raises(RummyError, match="backend"):
        run(tmp_path / "x", backend="cloud")


@pytest.mark.parametrize("agent", ["value"])
def test_a_tile_style_agent_is_refused_on_a_draw_and_discard_variant(tmp_path: Path, agent: str) -> None:
    with pytest.raises(RummyError, match=f"agent '{agent}' plays the tile-style variants only"):
        run_tournament(
            "rummy-palace",
            [agent, "greedy"],
            games=1,
            players=2,
            seed=1,
            out_dir=tmp_path / "t",
            progress=False,
        )
    assert not (tmp_path / "t").exists()  # refused before any file is written


def test_record_moves_keeps_every_move_of_the_real_game(tmp_path: Path) -> None:
    from rummyai.arena.cli import main

    out = tmp_path / "rec"
    args = ["--variant", "rummikub", "--agents", "greedy,random", "--sets", "1", "--players", "2"]
    assert (
        main(
            [*args, "--seed", "5", "--out", str(out), "--max-turns", "20", "--no-progress", "--record-moves"]
        )
        == 0
    )
    records = load_records(out / "games.jsonl")
    assert records and all(len(r["moves"]) == sum(r["decisions"]) for r in records)
    assert (
        main([*args, "--seed", "5", "--out", str(tmp_path / "plain"), "--max-turns", "20", "--no-progress"])
        == 0
    )
    assert all("moves" not in r for r in load_records(tmp_path / "plain" / "games.jsonl"))


def test_the_ratings_plot_takes_an_agent_that_has_not_played(tmp_path: Path) -> None:
    # more agents than seats and fewer sets than pairs: an agent rated 0 with the interval [0, 0]
    from rummyai.arena.ratings import Rating
    from rummyai.arena.report import plot_ratings

    ratings = [
        Rating("greedy", 40.0, 10.0, (20.0, 60.0), "bradley-terry"),
        Rating("learned", -1e-15, 0.0, (0.0, 0.0), "bradley-terry"),
    ]
    plot_ratings(ratings, tmp_path / "ratings.png")
    assert (tmp_path / "ratings.png").stat().st_size > 1000


@pytest.mark.parametrize(
    ("agents", "players", "seating"),
    [
        (("strong", "strong", "weak"), 2, "permutations"),
        (("strong", "mid", "weak", "strong"), 3, "permutations"),
        (("strong", "mid"), 3, "rotations"),
        (("strong", "mid", "weak", "mid", "weak"), 4, "rotations"),
        (("strong", "mid", "weak"), 3, "permutations"),
    ],
)
def test_planned_games_count_every_sets_seatings(agents: tuple[str, ...], players: int, seating: Any) -> None:
    from rummyai.arena.duplicate import lineup, planned_games, seatings

    for sets in (1, 2, 5, 11):
        every = sum(len(seatings(lineup(agents, players, s), seating)) for s in range(sets))
        assert planned_games(agents, players, sets, seating) == every


def test_a_repeated_agent_spec_keeps_the_version_check(tmp_path: Path) -> None:
    """With `strong` twice, set 0 seats (strong, strong) one way only: the count of planned games
    must not take set 0's seatings for every set's, or a resume on other code slips through."""
    from rummyai.arena.version import CodeVersion

    agents = ["strong", "strong", "weak"]
    out = tmp_path / "t"
    run(out, agents=agents, players=2, games=3, version=CodeVersion("0.1.0", "a" * 40, False))
    path = out / "games.jsonl"
    lines = path.read_text().splitlines()
    assert len(lines) == 5  # 1 + 2 + 2 seatings
    path.write_text("\n".join(lines[:3]) + "\n")
    with pytest.raises(RummyError, match="holds games played with code"):
        run(out, agents=agents, players=2, games=3, version=CodeVersion("0.1.0", "b" * 40, False))
    run(out, agents=agents, players=2, games=3, version=CodeVersion("0.1.0", "a" * 40, False))
    # finished: other code only writes the report again
    run(out, agents=agents, players=2, games=3, version=CodeVersion("0.1.0", "b" * 40, False))
    assert len(records(out)) == 5


def test_the_ratings_count_the_sets_an_agent_sat_in(tmp_path: Path) -> None:
    summary = run(tmp_path / "t", agents=["strong", "strong", "weak"], players=2, games=3)
    sets = {r.agent: r.sets for r in summary.ratings}
    assert sets == {"strong": 3, "weak": 2}


def test_bad_python_arguments_are_refused_before_any_game(tmp_path: Path) -> None:
    with pytest.raises(RummyError, match="unknown rating method 'foo'"):
        run(tmp_path / "r", ratings="foo")
    assert not (tmp_path / "r" / "games.jsonl").exists()
    for out in (None, "", "  "):
        with pytest.raises(RummyError, match="output folder must be a path"):
            run(out)
    summary = run(tmp_path / "g", agents=(name for name in ["strong", "weak"]), players=2, games=1)
    assert {a.agent for a in summary.agents} == {"strong", "weak"}
    (tmp_path / "d" / "tournament.json").mkdir(parents=True)
    with pytest.raises(RummyError, match=r"tournament\.json is not a file"):
        run(tmp_path / "d")


def test_plots_leave_out_agents_without_games(tmp_path: Path) -> None:
    from rummyai.arena import report

    drawn: dict[str, Any] = {}
    original = (report.plot_ratings, report.plot_scores)
    report.plot_ratings = lambda ratings, path, source: drawn.update(ratings=[r.agent for r in ratings])  # type: ignore[assignment]
    report.plot_scores = lambda agents, path, source: drawn.update(scores=[a.agent for a in agents])  # type: ignore[assignment]
    try:
        run(tmp_path / "t", agents=["strong", "mid", "weak", "other"], players=2, games=1, report=True)
    finally:
        report.plot_ratings, report.plot_scores = original
    assert sorted(drawn["ratings"]) == sorted(drawn["scores"]) == ["mid", "strong"]


def test_the_report_and_plots_name_the_code_that_played(tmp_path: Path) -> None:
    from rummyai.arena import report

    signed: list[str] = []
    original = report._sign
    report._sign = lambda fig, source: signed.append(source)  # type: ignore[assignment]
    try:
        summary = run(tmp_path / "t", agents=["strong", "weak"], players=2, games=1, report=True)
    finally:
        report._sign = original
    (label,) = summary.versions
    assert summary.versions == {label: summary.games}
    assert f"- code: rummyai {label}" in (tmp_path / "t" / "report.md").read_text()
    assert len(signed) == 3 and all(s.startswith("rummyai tournament ") and label in s for s in signed)
    mixed = dataclasses.replace(summary, versions={"0.1.0": 2, label: 4})
    assert "(2 games)" in report.markdown(mixed) and "mixed" in report.markdown(mixed)


def test_resuming_with_record_moves_refuses_games_recorded_without_them(tmp_path: Path) -> None:
    run(tmp_path, games=2)
    with pytest.raises(RummyError, match="without their moves"):
        run(tmp_path, games=4, record_moves=True)
    assert len(records(tmp_path)) == 2 * 6  # nothing was added
    run(tmp_path, games=2, record_moves=True)  # nothing to add: the report is written again
