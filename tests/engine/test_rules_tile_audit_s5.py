"""Outside audit of the four rearrangement variants' move judge (VARIANTS.md §1, §2, §3, §8).

Each case is a position written by hand from the rule text (hand, table, new table, opened or
not) with the verdict the text gives: legal with the hand cards played, or illegal with the
section and words the reason must name. Every case goes through the Python judge and, all at
once, through `rummyai validate --jsonl`. Small positions whose best play can be worked out by
hand go through `solve`, `check_solution` and the judge; turn flow, scoring and penalties go
through the engine.

Rules and decisions covered (60). rummikub §8: runs (ace low, no wrap, at most 13), groups (at
most 4, distinct colours), any number of jokers, opening (>= 30 from the rack, jokers as the tile
they stand for, nothing else that turn), free table jokers, `official_jokers` (exact tile,
either missing colour, own tile per joker, new meld, not before the opening, melds not locked),
`joker_replacement_from`, going out, penalty option and its absence. rhine §1: 13-card runs,
ace not at both ends, basic qualifying (3 naturals, no wild, the turn goes on, the qualifying
meld joins the start table for R4/R5), points rule (ace 15 high, wild as represented, the
total named), R1-R5 with §1.8 8 and 9, Down & Out. rummy-tiles §2: ace low with jokers, rack
joker on a run's end (§2.7 7), opening (exactly 30, ace 1, no joker, exclusive), T3 (grows at
either end, takes tiles of other melds, never split, group joker keeps its rank), T4 a-d
(split with the joker replaced, extra rack tile, missing suit of a 3- or 4-group, joker at the
low end, reuse with table tiles, §2.7 5), going out on the opening turn, penalty. rummy-board
§3: 12-card cap on the opening, jokers 0 in the opening, two jokers with one natural, group
limits, free table jokers, going out. §0 and §7.1: a group joker's written suit is notation;
an unwritten start-table run joker reads from its place.
"""

from __future__ import annotations

import io
import json
import sys
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest

from rummyai.cards import card_str
from rummyai.cli import main
from rummyai.engine import apply, judge_play, validate
from rummyai.engine.tile import apply_or_penalize
from rummyai.engine.tile_position import play_from_text, position
from rummyai.errors import IllegalMoveError
from rummyai.solvers import make_position, solve
from rummyai.solvers.check import check_solution
from rummyai.solvers.reference import reference_solve
from rummyai.variants import get_variant

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


CASES = [
    # ------------------------------------------------------------------ rummikub §8.2 melds
    Case("k-joker-below-a-2-to-K-run", "rummikub", "JK", SPADES_2_TO_K, "JK " + SPADES_2_TO_K, played="JK"),
    Case(
        "k-no-fourteenth-tile",
        "rummikub",
        "JK",
        "AS " + SPADES_2_TO_K,
        "AS " + SPADES_2_TO_K + " JK",
        "8.2",
        "at most 13",
    ),
    Case("k-two-jokers-below-the-king", "rummikub", "KS", "JK JK QS", "JK JK QS KS", played="KS"),
    Case("k-no-fifth-group-tile", "rummikub", "JK", "7S 7H 7D 7C", "7S 7H 7D 7C JK", "8.2", "at most 4"),
    Case("k-two-jokers-in-a-group", "rummikub", "JK", "7S 7H JK", "7S 7H JK JK", played="JK"),
    Case("k-ace-never-above-king", "rummikub", "AS", "JS QS KS", "JS QS KS AS", "8.2", "low only"),
    # ------------------------------------------------------------------ rummikub §8.2 opening
    Case(
        "k-opening-joker-read-as-4S-makes-30",
        "rummikub",
        "JK 2S 3S 7H 7D 7C",
        "",
        "JK 2S 3S | 7H 7D 7C",
        played="2S 3S 7H 7D 7C JK",
        opened=False,
    ),
    Case(
        "k-opening-joker-stated-as-ace-makes-27",
        "rummikub",
        "JK 2S 3S 7H 7D 7C",
        "",
        "JK=AS 2S 3S | 7H 7D 7C",
        "8.2",
        "worth 27|30",
        opened=False,
    ),
    Case(
        "k-opening-two-jokers-read-above-the-five",
        "rummikub",
        "5S JK JK 4H 4D 4C",
        "",
        "JK JK 5S | 4H 4D 4C",
        played="4H 4D 4C 5S JK JK",
        opened=False,
    ),
    Case(
        "k-opening-two-jokers-stated-below-the-five",
        "rummikub",
        "5S JK JK 4H 4D 4C",
        "",
        "JK=3S JK=4S 5S | 4H 4D 4C",
        "8.2",
        "worth 24",
        opened=False,
    ),
    Case(
        "k-opening-joker-below-queen-king",
        "rummikub",
        "QS KS JK",
        "",
        "JK QS KS",
        played="QS KS JK",
        opened=False,
    ),
    Case(
        "k-opening-group-joker-counts-9",
        "rummikub",
        "9S 9H JK",
        "",
        "9S 9H JK",
        "8.2",
        "worth 27",
        opened=False,
    ),
    Case(
        "k-no-joker-harvest-on-the-opening-turn",
        "rummikub",
        "8S 9D TD",
        "5S 6S 7S JK=8S",
        "5S 6S 7S 8S | 9D TD JK",
        "8.2",
        "only new melds from hand",
        opened=False,
        options=OFFICIAL,
    ),
    # ------------------------------------------------------------------ rummikub table jokers
    Case(
        "k-free-joker-joins-a-whole-meld",
        "rummikub",
        "7S",
        "5S 6S JK=7S | " + HEART_RUN,
        "5S 6S 7S | JK=7H " + HEART_RUN,
        played="7S",
    ),
    Case(
        "k-official-taken-joker-not-into-a-whole-old-meld",
        "rummikub",
        "7S",
        "5S 6S JK=7S | " + HEART_RUN,
        "5S 6S 7S | JK=7H " + HEART_RUN,
        "8.2",
        "new meld",
        options=OFFICIAL,
    ),
    Case(
        "k-official-taken-joker-into-a-new-meld-of-table-tiles",
        "rummikub",
        "7S",
        "5S 6S JK=7S | " + HEART_RUN,
        "5S 6S 7S | 8H 9H JK=TH | TH JH QH KH",
        played="7S",
        options=OFFICIAL,
    ),
    Case(
        "k-official-meaning-change-in-place",
        "rummikub",
        "4S",
        "5S 6S 7S JK=8S",
        "JK=3S 4S 5S 6S 7S",
        "8.2",
        "an 8S from the rack",
        options=OFFICIAL,
    ),
    Case(
        "k-free-meaning-change-in-place", "rummikub", "4S", "5S 6S 7S JK=8S", "JK=3S 4S 5S 6S 7S", played="4S"
    ),
    Case(
        "k-official-group-replacement-of-a-present-colour",
        "rummikub",
        "8S 9S TS",
        "8S 8D JK=8 | 8H 9H TH JH",
        "8S 8D 8H | 9H TH JH | 8S 9S TS JK",
        "8.2",
        "missing from the group (H or C)|from the rack",
        options=OFFICIAL,
    ),
    Case(
        "k-rack-or-table-group-replacement-from-a-run",
        "rummikub",
        "8S 9S TS",
        "8S 8D JK=8 | 8H 9H TH JH",
        "8S 8D 8H | 9H TH JH | 8S 9S TS JK",
        played="8S 9S TS",
        options=FROM_TABLE,
    ),
    Case(
        "k-official-one-of-two-jokers-taken",
        "rummikub",
        "5S 9D TD",
        "JK=5S JK=6S 7S",
        "5S JK=6S 7S | 9D TD JK",
        played="5S 9D TD",
        options=OFFICIAL,
    ),
    Case(
        "k-official-joker-meld-split-keeping-the-joker",
        "rummikub",
        "9S",
        "3S 4S JK=5S 6S 7S 8S",
        "3S 4S JK=5S | 6S 7S 8S 9S",
        played="9S",
        options=OFFICIAL,
    ),
    Case(
        "k-official-second-joker-needs-its-own-tile",
        "rummikub",
        "9D TD",
        "JK=5S JK=6S 7S 8S",
        "JK=6S 7S 8S | 9D TD JK",
        "8.2",
        "5S from the rack",
        options=OFFICIAL,
    ),
    # ------------------------------------------------------------------ rhine §1.3-§1.4
    Case(
        "r-thirteen-card-qualifying-run",
        "rhine",
        "AS " + SPADES_2_TO_K,
        "",
        "AS " + SPADES_2_TO_K,
        played="AS " + SPADES_2_TO_K,
        opened=False,
    ),
    Case(
        "r-ace-low-and-high-in-one-run",
        "rhine",
        "AS AS " + SPADES_2_TO_K,
        "",
        "AS " + SPADES_2_TO_K + " AS",
        "1.5 R2",
        "repeat a rank",
        opened=False,
    ),
    Case(
        "r-joker-past-a-13-card-run",
        "rhine",
        "JK AS",
        SPADES_2_TO_K,
        "AS " + SPADES_2_TO_K + " JK",
        "1.5 R2",
        "at most 13",
    ),
    Case(
        "r-basic-qualifying-meld-has-no-joker",
        "rhine",
        "7S 8S 9S JK",
        "",
        "7S 8S 9S JK",
        "1.4",
        "3 natural cards and no wild",
        opened=False,
    ),
    Case(
        # §1.4 engine form: qualify with 7S 8S 9S, then TS and the joker join it (R5: TS is new)
        "r-qualify-then-extend-with-a-natural-and-joker",
        "rhine",
        "7S 8S 9S TS JK",
        "",
        "7S 8S 9S TS JK",
        played="7S 8S 9S TS JK",
        opened=False,
    ),
    Case(
        "r-qualifying-meld-is-a-start-meld-for-r5",
        "rhine",
        "7S 8S 9S 7H",
        "5H 6H JK=7H",
        "5H 6H 7H | 7S 8S 9S JK",
        "1.5 R5",
        "7S 8S 9S",
        opened=False,
    ),
    # §1.4 engine form: the qualifying meld joins the start table, so R4 and R5 apply to it
    Case(
        "r-qualifying-group-split-to-free-a-joker",
        "rhine",
        "7H 7S 7D",
        "5H 6H JK=7H",
        "5H 6H 7H | 7S 7D JK",
        "1.5 R5",
        "7S 7H 7D",
        opened=False,
    ),
    Case(
        "r-fourth-seven-frees-the-joker-before-qualifying",
        "rhine",
        "7H 7S 7D 7C",
        "5H 6H JK=7H",
        "5H 6H 7H | 7S 7D 7C JK",
        played="7S 7H 7D 7C",
        opened=False,
    ),
    Case(
        "r-points-joker-as-high-ace-counts-15",
        "rhine",
        "KS AS JK",
        "",
        "JK=QS KS AS",
        played="AS KS JK",
        opened=False,
        options=POINTS,
    ),
    Case(
        "r-points-joker-read-as-low-ace",
        "rhine",
        "2S 3S JK 5H 5D 5C",
        "",
        "2S 3S JK | 5H 5D 5C",
        played="2S 3S 5H 5D 5C JK",
        opened=False,
        options=POINTS,
    ),
    Case(
        "r-points-total-of-all-melds-named",
        "rhine",
        "2S 3S JK 5H 5D 5C",
        "",
        "2S 3S JK=4S | 5H 5D 5C",
        "1.4",
        "worth 24",
        opened=False,
        options=POINTS,
    ),
    Case(
        "r-points-two-natural-melds-short",
        "rhine",
        "2S 3S 4S 5H 5D 5C",
        "",
        "5H 5D 5C | 2S 3S 4S",
        "1.4",
        "worth 24",
        opened=False,
        options=POINTS,
    ),
    # ------------------------------------------------------------------ rhine R3-R5
    Case("r-hand-joker-alone-onto-a-meld", "rhine", "JK", "2H 3H 4H", "2H 3H 4H JK", "1.5 R5", "2H 3H 4H"),
    Case("r-hand-joker-with-a-new-natural", "rhine", "JK 5H", "2H 3H 4H", "2H 3H 4H 5H JK", played="5H JK"),
    Case(
        "r-hand-joker-in-the-place-a-natural-left",
        "rhine",
        "JK AS",
        SPADES_2_TO_K,
        "2S 3S 4S 5S 6S | JK=6S 7S 8S 9S TS JS QS KS AS",
        "1.5 R5b",
        "place of a natural",
    ),
    Case(
        "r-hand-joker-on-a-split-piece-without-a-new-natural",
        "rhine",
        "JK AS",
        SPADES_2_TO_K,
        "AS 2S 3S 4S 5S 6S | JK=6S 7S 8S 9S TS JS QS KS",
        "1.5 R5",
        "no new natural",
    ),
    Case(
        "r-released-joker-needs-an-8S",
        "rhine",
        "9D 9H",
        "5S 6S 7S JK=8S",
        "5S 6S 7S | 9D 9H JK",
        "1.5 R4",
        "an 8S",
    ),
    Case("r-kept-group-joker-rank-only", "rhine", "7C", "7S 7H JK=7C", "7S 7H 7C JK", played="7C"),
    # ------------------------------------------------------------------ rummy-tiles §2.3-§2.4
    Case("t-rack-joker-below-jqk", "rummy-tiles", "JK", "JS QS KS", "JK JS QS KS", played="JK"),
    Case(
        "t-joker-as-ace-above-king", "rummy-tiles", "JK", "JS QS KS", "JS QS KS JK=AS", "2.5 T2", "low only"
    ),
    Case("t-opening-exactly-30", "rummy-tiles", "9S TS JS", "", "9S TS JS", played="9S TS JS", opened=False),
    Case(
        "t-opening-ace-counts-1-to-reach-30",
        "rummy-tiles",
        "AS 2S 3S 8S 8H 8D 5C",
        "",
        "AS 2S 3S | 8S 8H 8D",
        played="AS 2S 3S 8S 8H 8D",
        opened=False,
    ),
    Case(
        "t-opening-ace-counts-1-short",
        "rummy-tiles",
        "AS 2S 3S 7S 7H 7D",
        "",
        "AS 2S 3S | 7S 7H 7D",
        "2.4",
        "worth 27",
        opened=False,
    ),
    Case(
        "t-opening-joker-beyond-30",
        "rummy-tiles",
        "TS JS QS JK",
        "5H 6H 7H",
        "5H 6H 7H | TS JS QS JK",
        "2.4",
        "jokers may not appear",
        opened=False,
    ),
    Case(
        "t-opening-turn-adds-to-nothing",
        "rummy-tiles",
        "TS JS QS KS 8H",
        "5H 6H 7H",
        "5H 6H 7H 8H | TS JS QS KS",
        "2.4",
        "uses table cards",
        opened=False,
    ),
    # a group joker means the group's rank (§0, §7.1): writing its suit moves nothing
    Case(
        "t-opening-copies-a-group-joker-with-its-suit-written",
        "rummy-tiles",
        "TS JS QS",
        "7S 7H JK",
        "7S 7H JK=7D | TS JS QS",
        played="TS JS QS",
        opened=False,
    ),
    Case(
        "t-opening-copies-a-four-group-joker-as-7C",
        "rummy-tiles",
        "TS JS QS",
        "7S 7H 7D JK",
        "7S 7H 7D JK=7C | TS JS QS",
        played="TS JS QS",
        opened=False,
    ),
    Case(
        "k-opening-copies-a-group-joker-with-the-other-suit",
        "rummikub",
        "TS JS QS",
        "7S 7H JK=7D",
        "7S 7H JK=7C | TS JS QS",
        played="TS JS QS",
        opened=False,
    ),
    Case(
        "b-opening-copies-a-group-joker-by-rank",
        "rummy-board",
        "TS JS QS",
        "7S 7H JK=7D",
        "7S 7H JK | TS JS QS",
        played="TS JS QS",
        opened=False,
    ),
    Case(
        "t-opening-may-not-move-a-run-joker",
        "rummy-tiles",
        "TS JS QS",
        "5H 6H JK",
        "JK=4H 5H 6H | TS JS QS",
        "2.4",
        "nothing on the table may be moved",
        opened=False,
    ),
    # ------------------------------------------------------------------ rummy-tiles T3
    Case("t3-locked-meld-grows-below", "rummy-tiles", "4S", "5S 6S JK=7S", "4S 5S 6S JK=7S", played="4S"),
    Case("t3-locked-meld-grows-above", "rummy-tiles", "8S", "5S 6S JK=7S", "5S 6S JK=7S 8S", played="8S"),
    Case(
        "t3-locked-meld-takes-a-tile-from-a-four-group",
        "rummy-tiles",
        "8H",
        "4S 5S 6S JK=7S | 3S 3D 3C 3H | 8D 8C 8S",
        "3S 4S 5S 6S JK=7S | 3D 3C 3H | 8D 8C 8S 8H",
        played="8H",
    ),
    # melds split and rejoined: only the end of the turn is judged
    Case(
        "t3-locked-meld-takes-the-next-runs-first-card",
        "rummy-tiles",
        "9C",
        "3C 4C JK=5C | 6C 7C 8C",
        "3C 4C JK=5C 6C | 7C 8C 9C",
        played="9C",
    ),
    Case(
        "t3-locked-meld-absorbs-a-whole-run",
        "rummy-tiles",
        "9C",
        "3C 4C JK=5C | 6C 7C 8C",
        "3C 4C JK=5C 6C 7C 8C 9C",
        played="9C",
    ),
    Case(
        "r-kept-joker-meld-takes-the-next-runs-first-card",
        "rhine",
        "9C",
        "3C 4C JK=5C | 6C 7C 8C",
        "3C 4C JK=5C 6C | 7C 8C 9C",
        played="9C",
    ),
    Case(
        "t3-locked-meld-may-not-be-split",
        "rummy-tiles",
        "TS",
        "4S 5S 6S JK=7S 8S 9S",
        "4S 5S 6S | JK=7S 8S 9S TS",
        "2.5 T3",
        "may not be split|7S from the rack",
    ),
    Case("t3-group-joker-keeps-its-rank", "rummy-tiles", "7C", "7S 7H JK=7C", "7S 7H 7C JK=7D", played="7C"),
    # ------------------------------------------------------------------ rummy-tiles T4
    Case(
        "t4-a-no-retrieval-on-the-opening-turn",
        "rummy-tiles",
        "7S 9D 9H TS JS QS",
        "5S 6S JK=7S",
        "5S 6S 7S | 9D 9H JK | TS JS QS",
        "2.4",
        "uses table cards",
        opened=False,
    ),
    Case(
        "t4-split-with-the-joker-replaced",
        "rummy-tiles",
        "7S TS",
        "4S 5S 6S JK=7S 8S 9S",
        "4S 5S 6S 7S | JK=7S 8S 9S TS",
        played="7S TS",
    ),
    Case(
        "t4-d-split-without-a-second-rack-tile",
        "rummy-tiles",
        "7S",
        "4S 5S 6S JK=7S 8S 9S",
        "4S 5S 6S 7S | JK=7S 8S 9S",
        "2.5 T4",
        "rack tile besides the replacement",
    ),
    Case(
        "t4-b-group-replacement-of-a-present-suit",
        "rummy-tiles",
        "7S 8S",
        "7S 7H JK=7 | 7C 8C 9C TC",
        "7S 7H 7C | 8C 9C TC | 7S 8S JK=9S",
        "2.5 T4",
        "suit missing from the group (D or C)",
    ),
    Case(
        "t4-b-group-replacement-of-a-missing-suit-placed-elsewhere",
        "rummy-tiles",
        "7D 8D",
        "7S 7H JK=7 | 7C 8C 9C TC",
        "7S 7H 7C | 8C 9C TC | 7D 8D JK=9D",
        played="7D 8D",
    ),
    Case(
        "t4-b-four-group-joker-only-the-missing-suit",
        "rummy-tiles",
        "9D TD",
        "8S 8D 8C JK=8 | 4S 5S 6S 7S",
        "8S 8D 8C | 4S 5S 6S 7S | 9D TD JK",
        "2.5 T4",
        "missing from the group (H)",
    ),
    Case(
        "t4-low-end-joker-ace",
        "rummy-tiles",
        "AS 9D 9H",
        "JK=AS 2S 3S",
        "AS 2S 3S | 9D 9H JK",
        played="AS 9H 9D",
    ),
    Case(
        "t4-low-end-joker-not-replaced-by-4S",
        "rummy-tiles",
        "4S 9D 9H",
        "JK=AS 2S 3S",
        "2S 3S 4S | 9D 9H JK",
        "2.5 T4",
        "an AS from the rack",
    ),
    Case(
        "t4-retrieved-joker-reused-with-a-table-tile",
        "rummy-tiles",
        "8S 7D",
        "6S 7S JK=8S | 3D 4D 5D 6D",
        "6S 7S 8S | 3D 4D 5D | 6D 7D JK",
        played="7D 8S",
    ),
    Case(
        "t4-c-meaning-moved-to-the-high-end-stays-old",
        "rummy-tiles",
        "4S 5S",
        "2S 3S JK=4S",
        "2S 3S 4S 5S JK",
        "2.5 T4",
        "new meld",
    ),
    Case(
        # §7.1: runs are written in rank order, so an unwritten joker after 5S 6S stands for 7S
        "t-unwritten-start-joker-read-from-its-place",
        "rummy-tiles",
        "4S 9D 9H",
        "5S 6S JK",
        "4S 5S 6S | 9D 9H JK",
        "2.5 T4",
        "7S",
    ),
    Case(
        "t-unwritten-start-joker-at-the-front",
        "rummy-tiles",
        "4S 9D 9H",
        "JK 5S 6S",
        "4S 5S 6S | 9D 9H JK",
        played="4S 9H 9D",
    ),
    # ------------------------------------------------------------------ rummy-board §3
    Case(
        "b-twelve-card-opening",
        "rummy-board",
        "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS",
        "",
        "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS",
        played="AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS",
        opened=False,
    ),
    Case(
        "b-thirteen-card-opening",
        "rummy-board",
        "AS " + SPADES_2_TO_K,
        "",
        "AS " + SPADES_2_TO_K,
        "3.2",
        "13 hand cards|at most 12",
        opened=False,
    ),
    Case(
        "b-opening-jokers-zero-reach-30",
        "rummy-board",
        "TS JS JK 3H 3D 3C",
        "",
        "TS JS JK | 3H 3D 3C",
        played="3H 3D 3C TS JS JK",
        opened=False,
    ),
    Case(
        "b-opening-jokers-zero-short",
        "rummy-board",
        "TS JS JK 2H 2D 2C",
        "",
        "TS JS JK | 2H 2D 2C",
        "3.4",
        "worth 27",
        opened=False,
    ),
    Case(
        "b-opening-joker-run-end-counts-0",
        "rummy-board",
        "JK QS KS",
        "",
        "JK QS KS",
        "3.4",
        "worth 25",
        opened=False,
    ),
    Case("b-two-jokers-one-natural", "rummy-board", "JK JK 7S", "", "7S JK JK", played="7S JK JK"),
    Case("b-jokers-below-a-king", "rummy-board", "QS", "JK JK KS", "JK JK QS KS", played="QS"),
    Case("b-no-fifth-group-card", "rummy-board", "JK", "7S 7H 7D 7C", "7S 7H 7D 7C JK", "3.3", "at most 4"),
    Case(
        "b-group-jokers-take-missing-colours",
        "rummy-board",
        "JK JK 5S",
        "",
        "JK=5H JK=5H 5S",
        "3.3",
        "not a valid",
    ),
    Case(
        "b-table-jokers-gather-in-a-new-group",
        "rummy-board",
        "9H",
        "7S 8S 9S JK=TS | 3C 4C 5C JK=6C",
        "7S 8S 9S | 9H JK JK | 3C 4C 5C",
        played="9H",
    ),
    Case(
        "b-table-joker-whole-meld-free",
        "rummy-board",
        "7S",
        "5S 6S JK=7S | " + HEART_RUN,
        "5S 6S 7S | JK=7H " + HEART_RUN,
        played="7S",
    ),
]


def _judge(case: Case) -> Any:
    return judge_play(case.variant, case.hand.split(), case.table, case.new, case.opened, case.options)


def _check(case: Case, legal: bool, rule: str | None, reason: str | None, played: list[str] | None) -> None:
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


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_judge_verdict(case: Case) -> None:
    verdict = _judge(case)
    _check(case, verdict.legal, verdict.rule, verdict.reason, verdict.played)


def test_every_case_through_the_validate_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same verdicts through `rummyai validate --jsonl`, one line per case."""
    lines = []
    for case in CASES:
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
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == len(CASES)
    for case, answer in zip(CASES, answers, strict=True):
        assert "error" not in answer, (case.name, answer)
        _check(case, answer["legal"], answer.get("rule"), answer.get("reason"), answer.get("played"))


# ------------------------------------------------------------------ best plays worked out by hand
BEST = [
    # one 7S against a joker run and a whole heart run: the joker may go to the hearts only where
    # table jokers are free (board, rummikub), or into a new meld of table tiles (official); Tile
    # Rummy needs a second rack tile in that meld (T4 d) and Rhine forbids hanging the joker on
    # one meld's naturals (R5), so there nothing can be played
    ("rummy-tiles", None, "7S", "5S 6S JK=7S | " + HEART_RUN, True, 0),
    ("rhine", None, "7S", "5S 6S JK=7S | " + HEART_RUN, True, 0),
    ("rummy-board", None, "7S", "5S 6S JK=7S | " + HEART_RUN, True, 1),
    ("rummikub", None, "7S", "5S 6S JK=7S | " + HEART_RUN, True, 1),
    ("rummikub", OFFICIAL, "7S", "5S 6S JK=7S | " + HEART_RUN, True, 1),
    # JK and AS against a 2-to-K run: the ace completes it and the joker extends a split piece
    # (in Rhine a joker may not take the place a natural left, R5b: see the test below)
    ("rummikub", None, "JK AS", SPADES_2_TO_K, True, 2),
    ("rummy-tiles", None, "JK AS", SPADES_2_TO_K, True, 2),
    ("rummy-board", None, "JK AS", SPADES_2_TO_K, True, 2),
    # the retrieved joker makes a group with the two nines; 2C never fits
    ("rummy-tiles", None, "7S 9D 9H 2C", "5S 6S JK=7S", True, 3),
    # T4 d: the retrieved joker's new meld needs a rack tile besides the 7S, here the second 9D
    # (a group takes one 9 from the four); with the 7S alone nothing can be played. Rhine puts
    # the joker in the nines with the new 9D (suits may repeat)
    ("rummy-tiles", None, "7S 9D", "5S 6S JK=7S | 9H 9C 9S 9D", True, 2),
    ("rummy-tiles", None, "7S", "5S 6S JK=7S | 9H 9C 9S 9D", True, 0),
    ("rhine", None, "7S 9D", "5S 6S JK=7S | 9H 9C 9S 9D", True, 2),
    # 13 spades, cap 12: leave the ace (fewest points) in hand
    ("rummy-board", None, "AS " + SPADES_2_TO_K, "", True, 12),
    # the joker must read 4S for the opening to reach 30
    ("rummikub", None, "JK 2S 3S 7H 7D 7C", "", False, 6),
    # only 5S 6S 7S (18) with the fours (12) reaches 30
    ("rummikub", None, "5S JK JK 4H 4D 4C", "", False, 6),
    # Tile Rummy: the joker may not open, the run alone is 33
    ("rummy-tiles", None, "TS JS QS JK 2C", "", False, 3),
    # Rhine points rule: JK=AS 2S 3S (20) and three fives (15)
    ("rhine", POINTS, "2S 3S JK 5H 5D 5C", "", False, 6),
]


@pytest.mark.parametrize(("variant", "options", "hand", "table", "opened", "cards"), BEST)
def test_solve_finds_the_hand_worked_optimum(
    variant: str, options: dict[str, Any] | None, hand: str, table: str, opened: bool, cards: int
) -> None:
    from rummyai.variants import get_variant

    rules = get_variant(variant, options)
    solution = solve(rules, hand, table, opened=opened)
    assert solution.status == "optimal"
    assert solution.cards_played == cards
    check_solution(make_position(rules, hand, table, opened), solution)
    if cards:
        verdict = judge_play(
            rules,
            hand.split(),
            table,
            [[str(s) for s in meld] for meld in solution.melds],
            opened,
        )
        assert verdict.legal, (verdict.rule, verdict.reason)
        assert Counter(verdict.played) == Counter(card_str(c) for c in solution.played)


def test_rhine_joker_finds_no_place_beside_a_full_run() -> None:
    # JK and AS against a 2-to-K run in Rhine: the ace completes the run, and every split piece
    # the joker could extend puts it in the place a natural left (R5b), so one card is the best.
    # The solver's model does not know R5b and bounds the play at two cards, so the answer is
    # legal but not proven here (14 cards: past the exhaustive reference's certification size)
    solution = solve("rhine", "JK AS", SPADES_2_TO_K)
    assert solution.cards_played == 1 and solution.status in ("optimal", "feasible")
    assert reference_solve("rhine", "JK AS", [SPADES_2_TO_K.split()]).cards_played == 1
    check_solution(make_position(get_variant("rhine"), "JK AS", SPADES_2_TO_K, True), solution)


def test_board_best_thirteen_spades_drops_the_ace() -> None:
    solution = solve("rummy-board", "AS " + SPADES_2_TO_K, "")
    assert "AS" not in [card_str(c) for c in solution.played] and solution.points_played == 90


# ------------------------------------------------------------------ engine: going out, penalties
@pytest.mark.parametrize(
    ("variant", "scores"),
    [
        ("rummy-tiles", (45, -45)),  # the other rack: JK 30 + KD 13 + 2C 2; winner takes the sum
        ("rummikub", (45, -45)),
        ("rummy-board", (0, -40)),  # joker 25 in hand; the one who went out scores 0
    ],
)
def test_hand_emptied_on_the_opening_turn(variant: str, scores: tuple[int, int]) -> None:
    state = position(variant, ["TS JS QS", "JK KD 2C"], "", opened=False)
    after = apply(state, play_from_text(state, "TS JS QS"))
    result = after.round.result
    assert result is not None and result.winner == 0 and result.scores == scores


@pytest.mark.parametrize(("opened", "score"), [(False, -20), (True, 0)])
def test_rhine_down_and_out_only_when_qualifying_that_turn(opened: bool, score: int) -> None:
    # a table joker may be part of the hand-emptying turn after qualifying in it
    state = position("rhine", ["TS JS QS 4H 5H JK", "JK KD AC"], "6H 7H 8H", opened=opened)
    after = apply(state, play_from_text(state, "TS JS QS | 4H 5H 6H 7H 8H JK"))
    assert after.history[-1].winner == 0
    assert after.history[-1].scores == (score, 20 + 13 + 15)


@pytest.mark.parametrize(
    ("variant", "options", "rule"),
    [("rummy-tiles", None, "2.4"), ("rummikub", {"invalid_play_penalty": 3}, "8.2")],
)
def test_illegal_opening_is_penalized_and_the_table_restored(
    variant: str, options: dict[str, Any] | None, rule: str
) -> None:
    hands = ["8S 9S TS 2C", "KD 2C 3C"]
    state = position(variant, hands, "5H 6H 7H", opened=False, stock="AD 2D 3D 4D", options=options)
    bad = play_from_text(state, "5H 6H 7H | 8S 9S TS")
    violation = validate(state, bad)
    assert violation is not None and violation.rule == rule and "worth 27" in violation.reason
    after = apply_or_penalize(state, bad)
    assert after.round.table == state.round.table and len(after.round.hands[0]) == 4 + 3
    assert not after.round.opened[0] and after.round.passes == 1 and after.round.turn == 1


@pytest.mark.parametrize(("variant", "rule"), [("rummikub", "8.2"), ("rummy-board", "3.4")])
def test_illegal_opening_without_penalty_is_refused(variant: str, rule: str) -> None:
    state = position(variant, ["8S 9S TS 2C", "KD 2C 3C"], "", opened=False, stock="AD 2D 3D 4D")
    with pytest.raises(IllegalMoveError) as caught:
        apply_or_penalize(state, play_from_text(state, "8S 9S TS"))
    assert caught.value.rule == rule and "worth 27" in caught.value.reason
