"""The Ray backend on a local Ray instance gives exactly the local backend's results."""

from __future__ import annotations

from pathlib import Path

import arena_synth
import pytest
from arena_synth import stable, synthetic_game

from rummyai.arena import run_tournament
from rummyai.arena.store import load_records

ray = pytest.importorskip("ray", reason="the optional 'ray' extra is not installed")


def test_ray_backend_matches_local_backend(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ray import cloudpickle

    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    # workers cannot import the test folder, so ship the synthetic game by value
    cloudpickle.register_pickle_by_value(arena_synth)
    common = {
        "variant": "rummikub",
        "agents": ["strong", "mid", "weak"],
        "games": 10,
        "players": 2,
        "seed": 4,
        "progress": False,
        "report": False,
        "game_fn": synthetic_game,
    }
    try:
        on_ray = run_tournament(out_dir=tmp_path / "ray", backend="ray", workers=2, **common)  # type: ignore[arg-type]
    finally:
        cloudpickle.unregister_pickle_by_value(arena_synth)
    local = run_tournament(out_dir=tmp_path / "local", **common)  # type: ignore[arg-type]
    assert on_ray.games == local.games == 20
    assert stable(load_records(tmp_path / "ray" / "games.jsonl")) == stable(
        load_records(tmp_path / "local" / "games.jsonl")
    )
    assert on_ray.ratings == local.ratings
    assert not ray.is_initialized()
