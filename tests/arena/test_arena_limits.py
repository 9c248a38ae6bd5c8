"""Tournament arguments that could never finish or make no sense are refused in one line."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest
from arena_synth import wait_for_games

from rummyai.agents import make_agent_from_spec
from rummyai.arena.store import load_records
from rummyai.errors import RummyError


def tournament(tmp_path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    args = ["--variant", "rummikub", "--players", "2", "--option", "rounds=1", "--out", str(tmp_path / "t")]
    return subprocess.run(
        [sys.executable, "-m", "rummyai.arena", *args, "--no-progress", *extra],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_an_absurd_number_of_sets_is_refused_at_once(tmp_path: Path) -> None:
    done = tournament(tmp_path, "--agents", "random,greedy", "--games", "1000000000000")
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0
    assert "1000000000000 duplicate sets is more than any run can play" in done.stderr


def test_games_is_an_alias_counting_duplicate_sets(tmp_path: Path) -> None:
    done = tournament(tmp_path, "--agents", "random,random:seed=3", "--games", "2")
    assert done.returncode == 0, done.stderr
    assert "2 duplicate sets, 4 games" in done.stdout


def test_a_negative_agent_seed_is_refused_in_one_line(tmp_path: Path) -> None:
    done = tournament(tmp_path, "--agents", "random:seed=-1,greedy", "--sets", "1")
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "rummyai: error: agent spec 'random:seed=-1' cannot be built: "
        "agent 'random': seed must be between 0 and 4294967295, got -1"
    )


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("holdback:work_limit=nan", "must be a finite number"),
        ("mcts:time_per_move=inf", "must be a finite number"),
        ("mcts:iterations=1000000000", "must be at most 1,000,000"),
        ("random:seed=4294967296", "seed must be between 0 and 4294967295"),
        ("mcts-pimc:worlds=0", "agent 'mcts-pimc': worlds must be at least 1"),
        ("greedy:work_limit=-1", "agent 'greedy': work_limit must be positive"),
        ("greedy-points:work_limit=0", "agent 'greedy-points': work_limit must be positive"),
        # each refusal names the agent asked for and its own parameter
        ("holdback:work_limit=0", "agent 'holdback': work_limit must be positive"),
        ("holdback:objective=foo", "agent 'holdback': objective must be cards or points"),
        ("value:work_limit=0", "agent 'value': work_limit must be positive"),
        ("mcts-pimc:moves=foo", "agent 'mcts-pimc': moves must be wide or equal"),
        ("mcts:scale=0", "agent 'mcts': scale and solver_work_limit must be positive"),
        ("mcts:solver_work_limit=0", "agent 'mcts': scale and solver_work_limit must be positive"),
        ("mcts:exploration=-2", "agent 'mcts': exploration, deviation_z, wide_within and solver_within"),
        ("mcts:solver_within=-3", "agent 'mcts': exploration, deviation_z, wide_within and solver_within"),
        ("mcts:value_weights=nowhere.npz", "agent 'mcts': value_weights is read only with leaf=value"),
        ("policy:target=mypolicy", "must be module.callable"),
    ],
)
def test_agent_options_out_of_range_are_refused(spec: str, message: str) -> None:
    with pytest.raises(RummyError, match=message):
        make_agent_from_spec(spec)


def test_an_empty_agent_name_is_refused_not_dropped(tmp_path: Path) -> None:
    done = tournament(tmp_path, "--agents", "greedy,,random", "--sets", "1")
    assert done.returncode == 2 and "empty name" in done.stderr


def test_ctrl_c_stops_a_tournament_with_one_line_and_the_rerun_resumes(tmp_path: Path) -> None:
    out = tmp_path / "t"
    argv = ["tournament", "--variant", "rummy-board", "--agents", "random,greedy", "--sets", "20"]
    argv += ["--players", "2", "--max-turns", "10", "--no-progress", "--out", str(out)]
    child = subprocess.Popen(
        [sys.executable, "-m", "rummyai.cli", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_for_games(out, 2, 60, child)
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err
    kept = len(load_records(out / "games.jsonl"))
    assert kept >= 2
    argv[argv.index("--sets") + 1] = "1"  # the first set's games are on disk: a rerun says so
    again = subprocess.run(
        [sys.executable, "-m", "rummyai.cli", *argv], capture_output=True, text=True, timeout=120
    )
    assert again.returncode == 0, again.stderr
    assert f"resumed: 2 of 2 games were already in {out}/games.jsonl; nothing left to play" in again.stdout


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"sets": 1.5}, "sets must be an integer, got 1.5"),
        ({"seed": "1"}, "seed must be an integer, got '1'"),
        ({"agents": "random"}, "agents must be a list of strings or a mapping, got 'random'"),
        ({"options": "rounds=1"}, "options must be a list of strings or a mapping, got 'rounds=1'"),
        ({"agents": [object(), "greedy"]}, "agents are names or specs .* got an instance of object"),
    ],
)
def test_python_tournament_arguments_of_the_wrong_kind_are_named(
    tmp_path: Path, change: dict[str, object], message: str
) -> None:
    import rummyai

    settings: dict[str, object] = {
        "agents": ["random", "greedy"],
        "sets": 1,
        "seed": 1,
        "options": ["rounds=1"],
    }
    settings.update(change)
    with pytest.raises(RummyError, match=message):
        rummyai.run_tournament("rummikub", players=2, out=str(tmp_path / "t"), progress=False, **settings)  # type: ignore[arg-type]
    with pytest.raises(RummyError, match="agents must be a list of agent specs"):
        rummyai.play_match("rummikub", "random")  # type: ignore[arg-type]


def test_a_variant_object_stands_for_its_id_and_options(tmp_path: Path) -> None:
    import rummyai

    variant = rummyai.get_variant("rummikub", ["rounds=1"])
    summary = rummyai.run_tournament(variant, ["random", "greedy"], 1, 2, 1, str(tmp_path / "t"))
    assert summary.manifest["variant"] == "rummikub" and summary.manifest["options"] == ["rounds=1"]
    for options in (None, {}):  # no further options: the variant's own stay
        again = rummyai.run_tournament(
            variant, ["random", "greedy"], 1, 2, 1, str(tmp_path / "t"), options=options
        )
        assert again.manifest["options"] == ["rounds=1"]


def test_tournament_options_may_be_a_mapping_as_elsewhere(tmp_path: Path) -> None:
    import rummyai

    summary = rummyai.run_tournament(
        "rummikub", ["random", "greedy"], 1, 2, 1, str(tmp_path / "t"), options={"rounds": 1.0}
    )
    assert summary.manifest["options"] == ["rounds=1"]
    with pytest.raises(RummyError, match="option names are strings"):
        rummyai.run_tournament("rummikub", ["random", "greedy"], 1, 2, 1, str(tmp_path / "u"), options={1: 2})


def test_the_terminal_summary_gives_no_interval_for_one_set(tmp_path: Path) -> None:
    import rummyai
    from rummyai.arena.cli import format_summary

    summary = rummyai.run_tournament("rummikub", ["random", "greedy"], 1, 2, 1, str(tmp_path / "t"))
    text = format_summary(summary)
    assert "none (all alike)" in text and "[" not in text.split("\n", 2)[2]
