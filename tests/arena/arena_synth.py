"""A cheap, deterministic stand-in for an engine game, so arena tests run in milliseconds.

Each agent name carries a strength (``strong`` 3, ``mid`` 1.5, ``weak`` 0, anything else 1); each
seat of a deal gets a luck value from the match seed, and the agent adds its own seeded noise.
The highest total wins (a variant where the high score wins, like rummikub).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from rummyai.arena.duplicate import GameTask
from rummyai.arena.play import ranks_of

STRENGTH = {"strong": 3.0, "mid": 1.5, "weak": 0.0}


def synthetic_game(task: GameTask) -> dict[str, Any]:
    """A record like `play_game`'s, from luck (per seat and deal), strength and agent noise."""
    luck = np.random.default_rng(task.match_seed).normal(0.0, 4.0, size=len(task.seats))
    scores = []
    for seat, spec in enumerate(task.seats):
        noise = np.random.default_rng(task.agent_seeds[seat]).normal(0.0, 1.0)
        scores.append(round(10 * (luck[seat] + STRENGTH.get(spec, 1.0) + noise)))
    best = max(scores)
    winners = [seat for seat, score in enumerate(scores) if score == best]
    n = len(task.seats)
    return {
        "set": task.set_index,
        "seating": task.seating_index,
        "match_seed": task.match_seed,
        "seats": list(task.seats),
        "scores": scores,
        "winners": winners,
        "ranks": ranks_of(scores, winners, low_wins=False),
        "rounds": 1,
        "ends": ["out"],
        "decisions": [1] * n,
        "think_s": [0.0] * n,
        "seconds": 0.0,
    }


def slow_game(task: GameTask) -> dict[str, Any]:
    """The synthetic game taking 20 ms, so a test can kill a run part-way through."""
    time.sleep(0.02)
    return synthetic_game(task)


def start_slow_tournament(out: Path, games: int, workers: int = 1) -> subprocess.Popen[bytes]:
    """A child process running a `slow_game` tournament into `out`, for tests that kill it."""
    script = (
        f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "from arena_synth import slow_game\n"
        "from rummyai.arena.runner import run_tournament\n"
        f"run_tournament('rummikub', ['strong', 'weak'], {games}, 2, 3, {str(out)!r}, workers={workers}, "
        "progress=False, report=False, game_fn=slow_game)\n"
    )
    return subprocess.Popen([sys.executable, "-c", script])


def wait_for_games(out: Path, count: int, timeout: float, child: subprocess.Popen[bytes]) -> None:
    """Wait until `out/games.jsonl` holds `count` games, the child has exited, or `timeout` passes."""
    deadline = time.monotonic() + timeout
    path = out / "games.jsonl"
    while time.monotonic() < deadline and child.poll() is None:
        if path.exists() and path.read_bytes().count(b"\n") >= count:
            return
        time.sleep(0.005)


class FailAfter:
    """A game function that plays `k` games and then raises, like a run interrupted part-way."""

    def __init__(self, k: int) -> None:
        self.k = k
        self.played = 0

    def __call__(self, task: GameTask) -> dict[str, Any]:
        if self.played >= self.k:
            raise KeyboardInterrupt("simulated interruption")
        self.played += 1
        return synthetic_game(task)


def stable(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Records without timing fields, sorted by key (what must match across runs)."""
    drop = {"seconds", "think_s", "move_s"}
    rows = [{k: v for k, v in r.items() if k not in drop} for r in records]
    return sorted(rows, key=lambda r: (r["set"], r["seating"]))


class IllegalAgent:
    """An agent that always submits an empty table (never legal), to test error reporting."""

    name = "illegal"

    def reset(self, seed: int) -> None:
        """Nothing to reset."""

    def act(self, view: Any, legal: Any) -> Any:
        from rummyai.engine.moves import Play

        return Play(table=())


class NeedsInt(IllegalAgent):
    """An agent whose integer parameter is compared without a type check (TypeError on a string)."""

    def __init__(self, size: int = 1) -> None:
        if size < 1:
            raise ValueError(f"size must be at least 1, got {size}")
