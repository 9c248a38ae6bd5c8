"""The dynamic program's kernels as the process loads them (`dp_native.kernels`: built ahead of time,
or numba's just-in-time ones) give the same passes as numba's, and loading falls back cleanly."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from rummyai.solvers import dp_kernels, dp_native, make_position
from rummyai.solvers import run_dp as rd
from rummyai.solvers.random_positions import random_position


@pytest.mark.parametrize("seed", range(12))
def test_loaded_kernels_search_like_numbas(seed: int) -> None:
    """Every pass of a tie-broken solve gives the same best state and score from both kernels."""
    hand, table = random_position("rummikub", seed, 10 + 3 * seed, 8 + seed % 9)
    position = make_position("rummikub", hand, table)
    loaded, jit = dp_native.kernels(), dp_native._jit()
    calls: list[tuple[object, ...]] = []
    original = loaded.search

    def record(*args: object) -> tuple[int, int]:
        calls.append(tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args))
        return original(*args)

    patched = loaded._replace(search=record)
    monkey = pytest.MonkeyPatch()
    monkey.setattr(rd, "kernels", lambda: patched)
    try:
        answer = rd.solve_dp(position, "cards", tidy=bool(table))
    finally:
        monkey.undo()
    assert answer is not None and calls
    for args in calls:
        assert loaded.search(*args) == jit.search(*args)
    hand_counts = np.bincount(np.array(position.hand, dtype=np.int64), minlength=53).astype(np.int32)
    table_counts = np.zeros(53, dtype=np.int32)
    assert np.array_equal(loaded.playable(hand_counts, table_counts), jit.playable(hand_counts, table_counts))


def test_switched_off_or_failed_builds_use_numba(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("RUMMYAI_DP_NATIVE", "0")
    assert dp_native._native() is None
    monkeypatch.setenv("RUMMYAI_DP_NATIVE", "1")
    monkeypatch.setenv("RUMMYAI_CACHE", str(tmp_path))
    folder = dp_native.cache_folder()
    folder.mkdir(parents=True)
    (folder / "failed").write_text("no C compiler")
    assert dp_native._native() is None  # remembered: not built again
    assert dp_native._jit().search is dp_kernels.search


def test_tag_follows_the_kernels_source(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A build is only reused for the very source it was built from."""
    for name in dp_native.SOURCES:
        (tmp_path / name).write_bytes((dp_native.HERE / name).read_bytes())
    monkeypatch.setattr(dp_native, "HERE", tmp_path)
    same = dp_native.tag()
    (tmp_path / "dp_kernels.py").write_text((tmp_path / "dp_kernels.py").read_text() + "\n# changed\n")
    assert dp_native.tag() != same
