"""Golden replays: a recorded match per tile-style variant replays to the same rounds and scores.

The files in tests/golden/ were recorded with random agents (`random_choice`). Regenerate them
after an intended rule change with ``python tests/engine/test_golden_tile.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from rummyai.engine import random_choice
from rummyai.engine.replay import MatchRecord, move_from_json, move_to_json, record_match, replay

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
MATCHES = {
    "rummikub": (3, 11, None),
    "rummy-tiles": (3, 12, None),
    "rummy-board": (2, 13, None),
    "rhine": (2, 14, {"rounds": 2}),
}


def _path(variant: str) -> Path:
    return GOLDEN / f"{variant}-random.json"


@pytest.mark.parametrize("variant", list(MATCHES))
def test_golden_replay_reaches_recorded_scores(variant: str) -> None:
    record = MatchRecord.load(_path(variant))
    assert record.variant == variant and record.moves
    final = replay(record)
    assert final.match_over
    assert list(final.scores) == record.scores
    rounds = [{"winner": r.winner, "scores": list(r.scores), "reason": r.reason} for r in final.history]
    assert rounds == record.rounds


@pytest.mark.parametrize("variant", list(MATCHES))
def test_recording_is_deterministic_and_moves_round_trip(variant: str) -> None:
    players, seed, options = MATCHES[variant]
    first, record = record_match(variant, players, seed, random_choice, options=options)
    again, record2 = record_match(variant, players, seed, random_choice, options=options)
    assert record.moves == record2.moves and first.scores == again.scores
    for data in record.moves[:50]:
        assert move_to_json(move_from_json(data)) == data


def regenerate() -> None:
    """Record the golden files anew."""
    GOLDEN.mkdir(exist_ok=True)
    for variant, (players, seed, options) in MATCHES.items():
        _, record = record_match(variant, players, seed, random_choice, options=options)
        record.save(_path(variant))
        print(variant, len(record.moves), "moves, scores", record.scores)


if __name__ == "__main__":
    regenerate()
    sys.exit(0)
