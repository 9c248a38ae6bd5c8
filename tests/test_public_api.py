"""The entry points of `import rummyai`: what they answer, and that importing stays light."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

import rummyai


def _modules_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; print(' '.join(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(done.stdout.split())


def test_import_rummyai_loads_no_solver_agents_or_environments() -> None:
    loaded = _modules_after("import rummyai")
    heavy = {
        "rummyai.solvers",
        "rummyai.agents",
        "rummyai.envs",
        "rummyai.arena",
        "ortools",
        "numba",
        "gymnasium",
    }
    assert not loaded & heavy


def test_import_rummyai_solvers_loads_no_agents_or_environments() -> None:
    loaded = _modules_after("import rummyai.solvers")
    assert not {m for m in loaded if m.startswith(("rummyai.agents", "rummyai.envs", "gymnasium"))}


def test_a_checkout_finds_solvers_and_envs_beside_its_rummyai_folder() -> None:
    # Python started in a clone imports the clone's rummyai/ before any installed copy; the
    # editable install's finder is dropped here, as a plain `pip install .` has none
    root = Path(__file__).resolve().parents[1]
    code = (
        "import sys; sys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in repr(f).lower()]; "
        "import rummyai.solvers.position, rummyai.envs.candidates; "
        "print(rummyai.solvers.position.__file__); print(rummyai.envs.candidates.__file__)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, check=True)
    assert done.stdout.split() == [
        str(root / "solvers" / "position.py"),
        str(root / "envs" / "candidates.py"),
    ]


def test_solve_finds_the_four_card_run() -> None:
    move = rummyai.solve("rummikub", "7H 8H 9H JK", "3C 4C 5C | 8S 8D 8H")
    assert move.status == "optimal"
    assert move.cards_played == 4


def test_hint_gives_steps_and_stays_callable_after_the_hint_package_is_imported() -> None:
    first = rummyai.hint("rummikub", "9D TD JD", "")
    importlib.import_module("rummyai.hint.api")  # binds the package to the attribute rummyai.hint

    again = rummyai.hint("rummikub", "9D TD JD", "")
    assert first.best.cards_played == again.best.cards_played == 3
    assert [step.text for step in first.best.plan.steps]


def test_validate_names_the_rule_an_illegal_play_breaks() -> None:
    assert rummyai.validate("rhine", "8C JC", "7C JK 9C", "7C 8C 9C JK JC").legal
    verdict = rummyai.validate("rhine", "JK", "7C 8C 9C", "7C 8C 9C JK")
    assert not verdict.legal
    assert verdict.rule is not None and verdict.rule.startswith("1.5")


def test_play_match_is_replayed_by_its_seed_and_has_a_winner() -> None:
    first = rummyai.play_match("rummikub", ["random", "greedy"], seed=1)
    assert first == rummyai.play_match("rummikub", ["random", "greedy"], seed=1)
    assert first["players"] == 2 and first["agents"] == ["random", "greedy"]
    assert first["winners"]


def test_play_match_takes_agent_objects() -> None:
    agents = [rummyai.make_agent("greedy"), "random"]
    record = rummyai.play_match("rummikub", agents, seed=2)
    assert record["agents"] == ["GreedyAgent", "random"]


def test_run_tournament_records_moves_for_replays(tmp_path: Path) -> None:
    out = tmp_path / "t"
    summary = rummyai.run_tournament(
        "rummikub", ["greedy", "random"], 1, 2, 5, str(out), record_moves=True, seating="rotations"
    )
    assert summary is not None
    games = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines() if line.strip()]
    assert len(games) == 2 and all(game.get("moves") for game in games)


@pytest.mark.parametrize(
    ("agents", "seed", "message"),
    [
        (["random:seed=-1", "greedy"], 0, "seed must be between 0 and"),
        (["random"], 0, "2 to 4 players"),
        (["random", "nosuch"], 0, "unknown agent"),
        (["random", "greedy"], -1, "seed must be a non-negative integer"),
        (["value", "greedy"], 0, "tile-style"),
    ],
)
def test_play_match_refuses_bad_input_by_name(agents: list[str], seed: int, message: str) -> None:
    variant = "standard" if agents[0] == "value" else "rummikub"
    with pytest.raises(rummyai.RummyError, match=message):
        rummyai.play_match(variant, agents, seed=seed)


def test_lists_of_variants_and_agents() -> None:
    assert rummyai.list_variants()[0] == "rummikub" and len(rummyai.list_variants()) == 7
    assert {"random", "greedy", "mcts-pimc"} <= set(rummyai.list_agents())


def test_played_text_is_in_notation_order() -> None:
    move = rummyai.solve("rummikub", "9S 5H 6H 7H 9H 9C", "")
    assert move.played_text() == "5H 6H 7H 9S 9H 9C"  # rank, then suit, as the JSON answer
