"""Study plans: parsing, the refusal of mixed code versions and of unregistered plans, resume,
the report, and the Holm correction."""

from __future__ import annotations

import gzip
import json
import math
import re
import subprocess
from pathlib import Path

import pytest
from arena_synth import FailAfter, stable, synthetic_game

from rummyai.arena.report import NO_INTERVAL
from rummyai.arena.study import PACKED_FILE, RECORD_FILE, cell_records, run_study
from rummyai.arena.study_plan import load_plan
from rummyai.arena.study_report import write_study_report
from rummyai.arena.study_stats import holm
from rummyai.arena.version import CodeVersion
from rummyai.errors import RummyError

V1 = CodeVersion("0.1.0", "a" * 40, False)
V2 = CodeVersion("0.1.0", "b" * 40, False)

PLAN = """
name = "synthetic"
question = "Is strong better than weak?"
seed = 7
sets = 6
options = ["rounds=1"]
primary = "margin"
correction = "holm"
power = "six sets are enough for a synthetic game"
analysis = "margin, z test over sets, Holm"

[[cell]]
id = "two"
variant = "rummikub"
players = 2
agents = ["strong", "weak"]

[[cell]]
id = "four"
variant = "rummikub"
players = 4
agents = ["mid", "weak", "weak", "weak"]
sets = 4
"""


def write_plan(folder: Path, text: str = PLAN) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "plan.toml"
    path.write_text(text)
    return path


def run(plan_path: Path, **kwargs: object) -> dict[str, int]:
    options: dict[str, object] = {
        "allow_uncommitted_plan": True,
        "progress": False,
        "version": V1,
        "game_fn": synthetic_game,
    }
    options.update(kwargs)
    return run_study(load_plan(plan_path), **options)  # type: ignore[arg-type]


def test_plan_parses_with_defaults_and_overrides(tmp_path: Path) -> None:
    plan = load_plan(write_plan(tmp_path))
    assert plan.name == "synthetic" and plan.primary == "margin" and plan.alpha == 0.05
    two, four = plan.cells
    assert (two.sets, four.sets) == (6, 4)
    assert two.options == ("rounds=1",) and four.focal == "mid" and four.reference == "weak"
    assert load_plan(tmp_path).sha256 == plan.sha256  # a folder means its plan.toml


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (('primary = "margin"', 'primary = "wins"'), "primary must be one of"),
        (("seed = 7", 'seed = 7\ncolour = "red"'), "unknown key 'colour'"),
        (('power = "six sets are enough for a synthetic game"\n', ""), "missing 'power'"),
        (('agents = ["strong", "weak"]', 'agents = ["strong", "strong"]'), "different reference"),
        (('id = "four"', 'id = "two"'), "repeated: two"),
        (("sets = 6", "sets = 0"), "sets must be between"),
        (("seed = 7", "seed = 7.5"), "seed must be int"),
        (("seed = 7", "seed = [7"), "not valid TOML"),
    ],
)
def test_bad_plans_are_refused_in_one_line(tmp_path: Path, edit: tuple[str, str], message: str) -> None:
    path = write_plan(tmp_path, PLAN.replace(*edit, 1))
    with pytest.raises(RummyError, match=message) as caught:
        load_plan(path)
    assert "\n" not in str(caught.value)


def test_records_carry_the_version_and_other_versions_are_refused(tmp_path: Path) -> None:
    path = write_plan(tmp_path)
    assert run(path, cells=["two"]) == {"two": 12}
    records = cell_records(tmp_path, load_plan(path).cell("two"))
    assert len(records) == 12 and all(r["code"]["commit"] == "a" * 40 for r in records)
    grown = write_plan(tmp_path / "grown", PLAN.replace("sets = 6", "sets = 8", 1))
    with pytest.raises(KeyboardInterrupt):  # stopped with games left to play
        run(grown, cells=["two"], game_fn=FailAfter(10))
    with pytest.raises(
        RummyError, match=re.escape("played with code 0.1.0+aaaaaaaaaaaa; this code is 0.1.0+bbbbbbbbbbbb")
    ):
        run(grown, version=V2, cells=["two"], game_fn=FailAfter(0))


def test_a_finished_cell_reruns_with_other_code_without_playing(tmp_path: Path) -> None:
    # nothing left to play: no game of the new version would join the old ones
    path = write_plan(tmp_path)
    run(path, cells=["two"])
    assert run(path, version=V2, cells=["two"], game_fn=FailAfter(0)) == {"two": 0}  # nothing left
    records = cell_records(tmp_path, load_plan(path).cell("two"))
    assert len(records) == 12 and all(r["code"]["commit"] == "a" * 40 for r in records)


def test_two_sets_of_uncommitted_edits_on_one_commit_are_two_versions(tmp_path: Path) -> None:
    edit_a = CodeVersion("0.1.0", "a" * 40, True, "1111aaaa2222")
    edit_b = CodeVersion("0.1.0", "a" * 40, True, "3333bbbb4444")
    path = write_plan(tmp_path)
    with pytest.raises(KeyboardInterrupt):  # stopped with games left to play
        run(path, cells=["two"], version=edit_a, allow_dirty=True, game_fn=FailAfter(6))
    with pytest.raises(RummyError, match=re.escape("0.1.0+aaaaaaaaaaaa.dirty-1111aaaa2222; this code is")):
        run(path, cells=["two"], version=edit_b, allow_dirty=True, game_fn=FailAfter(0))
    run(path, cells=["two"], version=edit_a, allow_dirty=True)  # the same edits carry on


def test_mixed_versions_only_when_asked(tmp_path: Path) -> None:
    small = write_plan(tmp_path / "s", PLAN.replace("sets = 6", "sets = 3", 1))
    run(small, cells=["two"])
    (tmp_path / "s" / "plan.toml").write_text(PLAN)  # the same cell, more sets, in a new study
    (tmp_path / "s" / RECORD_FILE).unlink()
    with pytest.raises(RummyError, match="--allow-mixed-versions"):
        run(small, cells=["two"], version=V2)
    run(small, cells=["two"], version=V2, allow_mixed_versions=True)
    records = cell_records(tmp_path / "s", load_plan(small).cell("two"))
    commits = sorted(r["code"]["commit"][0] for r in records)
    assert commits == ["a"] * 6 + ["b"] * 6


def test_a_plan_must_be_committed_and_unchanged(tmp_path: Path) -> None:
    path = write_plan(tmp_path)
    with pytest.raises(RummyError, match="is not committed"):
        run(path, allow_uncommitted_plan=False)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "add", "plan.toml"], check=True)
    subprocess.run(
        ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "plan"],
        check=True,
    )
    run(path, allow_uncommitted_plan=False, cells=["two"])
    record = json.loads((tmp_path / RECORD_FILE).read_text())
    assert len(record["plan_commit"]) == 40 and record["runs"][0]["code"]["commit"] == "a" * 40
    path.write_text(PLAN.replace("sets = 6", "sets = 60", 1))
    with pytest.raises(RummyError, match="uncommitted changes"):
        run(path, allow_uncommitted_plan=False)
    with pytest.raises(RummyError, match="changed since its first run"):
        run(path)


def test_dirty_code_is_refused_unless_allowed(tmp_path: Path) -> None:
    path = write_plan(tmp_path)
    dirty = CodeVersion("0.1.0", "c" * 40, True)
    with pytest.raises(RummyError, match="uncommitted changes"):
        run(path, version=dirty)
    run(path, version=dirty, allow_dirty=True, cells=["two"])


def test_an_interrupted_study_resumes_to_the_same_records(tmp_path: Path) -> None:
    path = write_plan(tmp_path / "cut")
    with pytest.raises(KeyboardInterrupt):
        run(path, game_fn=FailAfter(5))
    run(path)
    whole = write_plan(tmp_path / "whole")
    run(whole)
    for cell in load_plan(path).cells:
        assert stable(cell_records(tmp_path / "cut", cell)) == stable(cell_records(tmp_path / "whole", cell))


def test_a_fresh_checkout_resumes_and_reports_from_the_compressed_copy(tmp_path: Path) -> None:
    path = write_plan(tmp_path, PLAN.replace("sets = 6", "sets = 3", 1))
    run(path, cells=["two"])
    cell_dir = tmp_path / "two"
    packed = gzip.decompress((cell_dir / PACKED_FILE).read_bytes())
    assert packed == (cell_dir / "games.jsonl").read_bytes()
    (cell_dir / "games.jsonl").unlink()  # git keeps only the compressed copy
    assert len(cell_records(tmp_path, load_plan(path).cell("two"))) == 6
    (tmp_path / RECORD_FILE).unlink()
    path.write_text(PLAN)  # a larger plan resumes the 3 sets from the compressed copy
    run(path, cells=["two"], game_fn=FailAfter(6))
    assert len(cell_records(tmp_path, load_plan(path).cell("two"))) == 12


def test_report_recomputes_every_table_from_the_records(tmp_path: Path) -> None:
    path = write_plan(tmp_path)
    run(path, cells=["two"])
    report = write_study_report(load_plan(path))
    text = report.read_text()
    assert "| two | rummikub | 2 | `strong` | `weak` | 6 (6) |" in text
    # six sets are too few for a test; every set splits its placements alike, so their
    # resamples have no spread
    assert "| n/a | n/a | no test: fewer than 30 sets |" in text
    assert f"| 0.500 | {NO_INTERVAL} |" in text
    assert "| four | rummikub | 4 | `mid` | `weak` | 0 (4) |" in text and "not started" in text
    assert "`0.1.0+aaaaaaaaaaaa`: 12" in text
    assert (tmp_path / "forest.png").stat().st_size > 1000
    assert write_study_report(load_plan(path)).read_text() == text  # deterministic


def test_sets_past_the_planned_size_do_not_count(tmp_path: Path) -> None:
    # a cell folder holding more sets than its plan (games added by hand) reports the planned ones
    path = write_plan(tmp_path)
    run(path, cells=["two"])
    records = tmp_path / "two" / "games.jsonl"
    lines = records.read_text().splitlines()
    extra = [json.loads(line) for line in lines[:2]]
    for record in extra:
        record["set"] = 6
    records.write_text("\n".join([*lines, *(json.dumps(r) for r in extra)]) + "\n")
    text = write_study_report(load_plan(path)).read_text()
    assert "| two | rummikub | 2 | `strong` | `weak` | 6 (6) |" in text


def test_holm_matches_a_worked_example() -> None:
    # sorted: 0.005*4 = 0.02, 0.01*3 = 0.03, 0.03*2 = 0.06, 0.04*1 = 0.04 -> raised to 0.06
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert holm([0.02]) == pytest.approx([0.02])


def test_the_command_line_reports_and_refuses_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from rummyai.cli import main

    path = write_plan(tmp_path)
    run(path, cells=["two"])
    assert main(["study", "report", str(tmp_path)]) == 0
    assert (tmp_path / "report.md").exists()
    assert main(["study", "run", str(tmp_path / "missing.toml")]) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("rummyai: error: cannot read the plan") and "\n" not in error


def test_the_packed_report_reads_only_the_compressed_copy(tmp_path: Path) -> None:
    path = write_plan(tmp_path, PLAN.replace("sets = 6", "sets = 3", 1))
    run(path, cells=["two"])
    raw = tmp_path / "two" / "games.jsonl"
    raw.write_bytes(
        raw.read_bytes() + raw.read_bytes().replace(b'"set": 0', b'"set": 9')
    )  # games not yet packed
    cell = load_plan(path).cell("two")
    assert len(cell_records(tmp_path, cell)) == 8 and len(cell_records(tmp_path, cell, packed_only=True)) == 6
    assert "| 3 (3) |" in write_study_report(load_plan(path), packed_only=True).read_text()


def test_seconds_per_move_and_its_99th_percentile_come_from_every_decision() -> None:
    from rummyai.arena.study_stats import cell_result

    def record(index: int, slow: float) -> dict[str, object]:
        return {
            "set": index, "seating": 0, "seats": ["a", "b"], "scores": [5, -5], "winners": [0],
            "ranks": [1, 2], "decisions": [50, 50], "think_s": [0.01 * 49 + slow, 0.5],
            "move_s": [[0.01] * 49 + [slow], [0.01] * 50],
        }  # fmt: skip

    result = cell_result([record(i, 2.0) for i in range(4)], "a", "b", low_wins=False, resamples=50)
    assert result.seconds_per_move["a"] == pytest.approx((0.49 + 2.0) / 50)
    # 4 slow decisions in 200: the 99th percentile lies between the fast and the slow ones
    assert 0.01 < result.p99_seconds["a"] <= 2.0
    assert result.p99_seconds["b"] == pytest.approx(0.01)
    older = [{k: v for k, v in record(i, 2.0).items() if k != "move_s"} for i in range(2)]
    assert math.isnan(cell_result(older, "a", "b", low_wins=False, resamples=50).p99_seconds["a"])


def test_a_finished_cell_waits_for_the_others_only_when_they_can_change_its_verdict() -> None:
    from rummyai.arena.study_report import _verdict

    assert _verdict(False, 0.001, 0.001, 0.05, False).startswith("running")
    assert _verdict(True, 0.001, 0.003, 0.05, False) == "better"  # final: Holm can only lower it
    assert _verdict(True, 0.02, 0.06, 0.05, False).startswith("pending")
    assert _verdict(True, 0.02, 0.06, 0.05, True) == "no difference shown"
    assert _verdict(True, 0.2, 0.4, 0.05, False) == "no difference shown"  # adjusted p >= raw p


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            ('agents = ["mid", "weak", "weak", "weak"]', 'agents = ["greedy", "noisy-greedyy"]'),
            "unknown agent",
        ),
        (
            ('agents = ["mid", "weak", "weak", "weak"]', 'agents = ["greedy", "holdback:hold_turns=abc"]'),
            "hold",
        ),
        (("players = 4", "players = 5"), "2 to 4 players"),
        (("sets = 4", 'sets = 4\noptions = ["roundz=1"]'), "unknown option 'roundz'"),
        (("sets = 4", "sets = 4\nmax_turns = 0"), "max_turns must be at least 1"),
        (("players = 4", "players = 3"), "4 agents for 3 seats"),
    ],
)
def test_a_cell_that_cannot_be_played_is_refused_before_any_game(
    tmp_path: Path, edit: tuple[str, str], message: str
) -> None:
    # the second cell is the bad one: the first must not have played when the run is refused
    text = PLAN.replace(*edit, 1).replace('agents = ["strong", "weak"]', 'agents = ["greedy", "random"]')
    path = write_plan(tmp_path, text)
    with pytest.raises(RummyError, match=message) as caught:
        run(path, game_fn=None)
    assert "cell 'four'" in str(caught.value) and "\n" not in str(caught.value)
    assert not (tmp_path / "two").exists() and not (tmp_path / RECORD_FILE).exists()
