"""Small positions checked by hand on all seven variants, asked through `rummyai solve --jsonl`
and the hint engine: the number of cards is the rule's answer, every wild placed states its
meaning, and a tile-style answer is a play the engine's judge accepts."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest

from rummyai.cards import parse_slot
from rummyai.cli import main
from rummyai.engine.judge import judge_json
from rummyai.hint import hint_json
from rummyai.variants import get_variant

NO = False  # "opened": NO reads as "not opened yet"

# (why the answer is what it is, position, cards the best move plays)
CASES: list[tuple[str, dict[str, Any], int]] = [
    (
        "rummikub: a joker ends the run",
        {"variant": "rummikub", "hand": "7H 8H 9H JK", "table": "3C 4C 5C | 8S 8D 8H"},
        4,
    ),
    ("rummikub §8.2: 24 < 30 cannot open", {"variant": "rummikub", "hand": "7H 8H 9H", "opened": NO}, 0),
    ("rummikub: 33 opens", {"variant": "rummikub", "hand": "TH JH QH", "opened": NO}, 3),
    (
        "rummikub: the joker counts as its card (30+)",
        {"variant": "rummikub", "hand": "7H 8H 9H JK", "opened": NO},
        4,
    ),
    (
        "rummikub: split 3H-7H around the second 5H",
        {"variant": "rummikub", "hand": "5H", "table": "3H 4H 5H 6H 7H"},
        1,
    ),
    ("rummikub: the ace is low only", {"variant": "rummikub", "hand": "QC KC AC"}, 0),
    (
        "rummikub: a group has distinct suits",
        {"variant": "rummikub", "hand": "5C 5C", "table": "5S 5H 5D"},
        1,
    ),
    ("rhine §1.4: qualifying needs 3 naturals", {"variant": "rhine", "hand": "7H 8H JK", "opened": NO}, 0),
    ("rhine §1.3: suits may repeat in a group", {"variant": "rhine", "hand": "7H 7H 7S", "opened": NO}, 3),
    ("rhine §1.5 R5: the seed's example", {"variant": "rhine", "hand": "8C JC", "table": "7C JK 9C"}, 2),
    ("rhine §1.5 R5: the example without JC", {"variant": "rhine", "hand": "8C", "table": "7C JK 9C"}, 0),
    ("rhine R5: a joker cannot simply join", {"variant": "rhine", "hand": "JK", "table": "7C 8C 9C"}, 0),
    ("rhine: a joker may start a new meld", {"variant": "rhine", "hand": "JK 5D 5S"}, 3),
    ("rhine §1.3: Q-K-A is a run", {"variant": "rhine", "hand": "QS KS AS"}, 3),
    ("rhine §1.3: no wrap", {"variant": "rhine", "hand": "KS AS 2S"}, 0),
    ("rhine: a four-card qualifying run", {"variant": "rhine", "hand": "7H 8H 9H 6H", "opened": NO}, 4),
    ("tiles §2.4: 33 opens", {"variant": "rummy-tiles", "hand": "TH JH QH", "opened": NO}, 3),
    (
        "tiles §2.4: no joker in the opening, 24 < 30",
        {"variant": "rummy-tiles", "hand": "7H 8H 9H JK", "opened": NO},
        0,
    ),
    (
        "tiles §2.7.7: a rack joker joins a joker-free meld",
        {"variant": "rummy-tiles", "hand": "JK", "table": "7C 8C 9C"},
        1,
    ),
    ("tiles §2.3: one joker per meld", {"variant": "rummy-tiles", "hand": "JK", "table": "7C 8C JK=9C"}, 0),
    (
        "tiles T4(d): the retrieved joker needs another rack tile",
        {"variant": "rummy-tiles", "hand": "9C", "table": "7C 8C JK=9C"},
        0,
    ),
    (
        "tiles T4: retrieve the joker into 5H 5S JK",
        {"variant": "rummy-tiles", "hand": "9C 5H 5S", "table": "7C 8C JK=9C"},
        3,
    ),
    ("tiles §2.3: the ace is low only", {"variant": "rummy-tiles", "hand": "QC KC AC"}, 0),
    ("board §3.4: 33 opens", {"variant": "rummy-board", "hand": "TH JH QH", "opened": NO}, 3),
    ("board §3.4: a joker counts 0 (17)", {"variant": "rummy-board", "hand": "8H 9H JK", "opened": NO}, 0),
    ("board §3.4: 9+10+11 with a joker", {"variant": "rummy-board", "hand": "9H TH JH JK", "opened": NO}, 4),
    (
        "board §3.2: at most 12 hand cards a turn",
        {"variant": "rummy-board", "hand": "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"},
        12,
    ),
    (
        "board §3.3: no joker limit per meld",
        {"variant": "rummy-board", "hand": "JK", "table": "7C 8C JK=9C"},
        1,
    ),
    ("palace §4.4: 24 < 30", {"variant": "rummy-palace", "hand": "7H 8H 9H 2C", "opened": NO}, 0),
    (
        "palace §4.4: JK=TH makes 34, 2C kept to discard",
        {"variant": "rummy-palace", "hand": "7H 8H 9H JK 2C", "opened": NO},
        4,
    ),
    ("palace §4.2: a card is kept for the discard", {"variant": "rummy-palace", "hand": "7H 8H 9H"}, 0),
    ("palace: a lay-off", {"variant": "rummy-palace", "hand": "6C 2S", "table": "3C 4C 5C"}, 1),
    ("palace §4.8.8: a joker laid off", {"variant": "rummy-palace", "hand": "JK 2S", "table": "3C 4C 5C"}, 1),
    ("palace §4.3: Q-K-A", {"variant": "rummy-palace", "hand": "QC KC AC 2S"}, 3),
    ("palace §4.3: no wrap", {"variant": "rummy-palace", "hand": "KC AC 2C 5S"}, 0),
    (
        "palace §4.7: wrap with cyclic_laying",
        {"variant": "rummy-palace", "hand": "KC AC 2C 5S", "options": ["cyclic_laying"]},
        3,
    ),
    ("standard §5.2: out by playing the last card", {"variant": "standard", "hand": "7H 8H 9H"}, 3),
    ("standard §5.3: Q-K-A", {"variant": "standard", "hand": "QC KC AC"}, 3),
    ("standard §5.3: no wrap", {"variant": "standard", "hand": "KC AC 2C"}, 0),
    ("standard: a lay-off", {"variant": "standard", "hand": "6C 2S", "table": "3C 4C 5C"}, 1),
    (
        "black-heart §6.4: from 0 a lay-off does not open",
        {"variant": "black-heart", "hand": "6H 2C", "table": "7H 8H 9H", "opened": NO},
        0,
    ),
    (
        "black-heart §6.4: below 0 a lay-off opens",
        {"variant": "black-heart", "hand": "6H 2C", "table": "7H 8H 9H", "opened": NO, "score": -1},
        1,
    ),
    (
        "black-heart §6.6: a Black Heart needs no chart line",
        {"variant": "black-heart", "hand": "JD QD KD 5S", "opened": NO, "score": 300},
        4,
    ),
    ("black-heart §6.3: a meld needs 3 core cards", {"variant": "black-heart", "hand": "QS 5H"}, 0),
    (
        "black-heart §6.2: QS with its escort joins the queens",
        {"variant": "black-heart", "hand": "QS 5H", "table": "QC/6H QC/7H QD"},
        2,
    ),
]


def solve_lines(positions: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(json.dumps(p) + "\n" for p in positions)))
    out = io.StringIO()
    assert main(["solve", "--jsonl"], out=out) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def unstated_wilds(variant_id: str, melds: list[list[str]]) -> list[str]:
    """Tokens of wilds placed without a meaning (a Black Heart diamond as itself needs none)."""
    variant = get_variant(variant_id)
    missing = []
    for meld in melds:
        for token in meld:
            slot = parse_slot(token)
            if (
                variant.is_wild(slot.card)
                and slot.meaning is None
                and token.split("/")[0] not in ("JD", "QD", "KD")
            ):
                missing.append(token)
    return missing


def test_hand_checked_positions_through_the_cli(monkeypatch: pytest.MonkeyPatch) -> None:
    answers = solve_lines([position for _, position, _ in CASES], monkeypatch)
    assert len(answers) == len(CASES)
    for (why, position, cards), answer in zip(CASES, answers, strict=True):
        assert "error" not in answer, (why, answer)
        assert answer["cards_played"] == cards == len(answer["played"]), (why, answer)
        assert answer["status"] == "optimal" or cards == 0, (why, answer)
        assert not unstated_wilds(position["variant"], answer["melds"]), (why, answer)
        if cards and get_variant(position["variant"]).tile_style:
            verdict = judge_json({"table": "", **position, "new_table": answer["melds"]})
            assert verdict.get("legal") is True, (why, verdict)
            assert sorted(verdict["played"]) == sorted(answer["played"]), (why, verdict)


@pytest.mark.parametrize(("why", "position", "cards"), CASES, ids=[c[0] for c in CASES])
def test_hint_agrees_with_the_hand_checked_answer(why: str, position: dict[str, Any], cards: int) -> None:
    answer = hint_json({**position, "alternatives": 0})
    assert answer["best"]["cards_played"] == cards, answer
    assert not unstated_wilds(position["variant"], answer["best"]["melds"])
