"""Golden replays: a recorded match per draw-meld-discard variant replays to the same rounds and
final scores. The files in tests/golden/ were recorded with uniformly random moves; regenerate
them after an intended rule change with ``python tests/engine/test_golden_discard.py``."""

from __future__ import annotations

from pathlib import Path

import pytest

from rummyai.engine.discard_moves import move_from_json, move_to_json
from rummyai.engine.game import random_choice
from rummyai.engine.replay import MatchRecord, record_match, replay, round_summaries

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
MATCHES: dict[str, tuple[int, int, list[str]]] = {
    "rummy-palace": (3, 21, ["max_rounds=2", "knocking"]),
    "standard": (2, 22, ["max_deals=3"]),
    "black-heart": (3, 23, ["max_deals=2"]),
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
    assert round_summaries(final) == record.rounds


@pytest.mark.parametrize("variant", list(MATCHES))
def test_recorded_moves_round_trip(variant: str) -> None:
    record = MatchRecord.load(_path(variant))
    kinds = set()
    for data in record.moves:
        assert move_to_json(move_from_json(data)) == data
        kinds.add(data["type"])
    assert {"draw", "discard", "meld"} <= kinds


def test_recording_is_deterministic() -> None:
    players, seed, options = MATCHES["standard"]
    first, record = record_match("standard", players, seed, random_choice, options=options)
    again, record2 = record_match("standard", players, seed, random_choice, options=options)
    assert record.moves == record2.moves and first.scores == again.scores


def regenerate() -> None:
    """Record the golden files anew."""
    GOLDEN.mkdir(exist_ok=True)
    for variant, (players, seed, options) in MATCHES.items():
        _, record = record_match(variant, players, seed, random_choice, options=options)
        record.save(_path(variant))
        print(
            variant, len(record.moves), "moves, scores", record.scores, [r["reason"] for r in record.rounds]
        )


if __name__ == "__main__":
    regenerate()
