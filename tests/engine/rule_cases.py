"""Written positions with the verdict the rule text gives them, shared by the rule tests of the
rearrangement variants (rummikub, rhine, rummy-tiles, rummy-board).

A case is a hand, a table and a new table written by hand from the rule text, opened or not, and
the verdict: legal with the hand cards played, or illegal with the section and the words its
reason must name. Each variant's file judges its cases with `judge_play`; every case of every
variant also goes through `rummyai validate --jsonl` in one run.
"""

from __future__ import annotations

import io
import json
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from rummyai.cli import main
from rummyai.engine import judge_play

OFFICIAL = {"official_jokers": True}
FROM_TABLE = {"official_jokers": True, "joker_replacement_from": "rack_or_table"}
POINTS = {"rhine.points_qualify": True}
HEART_RUN = "8H 9H TH JH QH KH"
SPADES_2_TO_K = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS"


@dataclass(frozen=True)
class Case:
    """A written position and the verdict the rule text gives it.

    `rule` None means legal, and `played` (when given) lists the hand cards it plays; otherwise
    the play breaks `rule` and its reason holds every `|`-separated part of `words`.
    """

    name: str
    variant: str
    hand: str
    table: str
    new: str
    rule: str | None = None
    words: str = ""
    played: str = ""
    opened: bool = True
    options: dict[str, Any] | None = None


def check_verdict(
    case: Case, legal: bool, rule: str | None, reason: str | None, played: list[str] | None
) -> None:
    """Compare one verdict with the case's expected one."""
    if case.rule is None:
        assert legal, (case.name, rule, reason)
        if case.played and played is not None:
            assert Counter(played) == Counter(case.played.split()), (case.name, played)
        return
    assert not legal, f"{case.name}: expected a {case.rule} violation"
    assert rule == case.rule, (case.name, rule, reason)
    for word in case.words.split("|"):
        assert reason is not None and word in reason, (case.name, word, reason)


def check_case(case: Case) -> None:
    """Judge the case with `judge_play` and compare the verdict with the expected one."""
    verdict = judge_play(case.variant, case.hand.split(), case.table, case.new, case.opened, case.options)
    check_verdict(case, verdict.legal, verdict.rule, verdict.reason, verdict.played)


def validate_answers(cases: Sequence[Case], monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The answers of one `rummyai validate --jsonl` run over the cases, one line per case."""
    lines = []
    for case in cases:
        obj: dict[str, Any] = {
            "variant": case.variant,
            "hand": case.hand.split(),
            "table": case.table,
            "new_table": case.new,
            "opened": case.opened,
        }
        if case.options:
            obj["options"] = case.options
        lines.append(json.dumps(obj))
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    out = io.StringIO()
    assert main(["validate", "--jsonl"], out=out) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]
