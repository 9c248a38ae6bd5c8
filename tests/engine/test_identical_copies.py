"""Identical copies are indistinguishable to the rules (§7.1): the verdict depends on card kinds.

Each joker rule that asks where a card came from (Rhine R3-R5b, Tile Rummy T3-T4, official
Rummikub's taken jokers) is read on the canonical copy assignment: the one keeping the most start
meld-mates together. Every example here comes as a twin (a second copy of a card lies in another
meld) and a control (no copy elsewhere): both get the same verdict, from the judge, from the
engine's `validate`, and never as a solver or hint answer. A property test renames identical
copies in engine plays and checks that no verdict changes.
"""

from __future__ import annotations

import random
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.test_judge_copies import _deal, _rearrange
from rummyai.cards import card_str
from rummyai.engine import judge_play, validate
from rummyai.engine.moves import Play
from rummyai.engine.state import GameState, TableMeld
from rummyai.engine.tile_position import play_from_text, position
from rummyai.hint.api import hint
from rummyai.solvers import solve
from rummyai.variants import get_variant

OFFICIAL = {"official_jokers": True}

# (variant, options, hand, table, new table, rule broken), twin then control
CASES = [
    # Rhine: "just adding a Joker to a tabled set is not allowed"
    ("rhine", None, "JK 2C", "8S 8D 8H | 7H 8H 9H", "8S 8D 8H JK | 7H 8H 9H", "1.5 R5"),
    ("rhine", None, "JK 2C", "8S 8D 8C | 7H 8H 9H", "8S 8D 8C JK | 7H 8H 9H", "1.5 R5"),
    # §7.1's example: the group's 8H stays, so the hand's 8H went to the run and the joker joined
    ("rhine", None, "8H JK", "8S 8D 8H | 5H 6H 7H", "8S 8D 8H JK | 5H 6H 7H 8H", "1.5 R5"),
    ("rhine", None, "8H JK", "8S 8D 8C | 5H 6H 7H", "8S 8D 8C JK | 5H 6H 7H 8H", "1.5 R5"),
    # Rhine R4: a released joker's replacement must not come from its own meld
    ("rhine", None, "5C", "4C JK 6C | 6C 7C 8C", "4C 5C 6C | JK 6C 7C 8C", "1.5 R5"),
    ("rhine", None, "5C", "4C JK 6C | 6D 7D 8D", "4C 5C 6C | JK=5D 6D 7D 8D", "1.5 R5"),
    # Rhine R5b: a joker may not take the place a natural left
    ("rhine", None, "JK 9C 6S 6H", "5C 6C 7C 8C", "5C JK=6C 7C 8C 9C | 6C 6S 6H", "1.5 R5b"),
    (
        "rhine",
        None,
        "JK 9C 6S 6H",
        "5C 6C 7C 8C | 6C 6D 6H",
        "5C JK=6C 7C 8C 9C | 6C 6D 6H 6C 6S 6H",
        "1.5 R5b",
    ),
    # Rhine §1.8 8: splitting a meld and hanging a joker on one piece is just adding a joker
    ("rhine", None, "JK", "3H 4H 5H 6H 7H 8H | 5H 6H 7H", "3H 4H 5H | 6H 7H 8H JK | 5H 6H 7H", "1.5 R5"),
    ("rhine", None, "JK", "3H 4H 5H 6H 7H 8H | 5D 6D 7D", "3H 4H 5H | 6H 7H 8H JK | 5D 6D 7D", "1.5 R5"),
    # Tile Rummy T4c: a retrieved joker goes into a new meld, not one holding a whole start meld
    (
        "rummy-tiles",
        None,
        "7S QH",
        "5S 6S JK=7S | 9H TH JH | 9H TH JH",
        "5S 6S 7S | 9H TH JH | 9H TH JH QH JK",
        "2.5 T4",
    ),
    (
        "rummy-tiles",
        None,
        "7S QH",
        "5S 6S JK=7S | 9H TH JH | 9D TD JD",
        "5S 6S 7S | 9D TD JD | 9H TH JH QH JK",
        "2.5 T4",
    ),
    # official Rummikub: a taken joker goes into a new meld
    (
        "rummikub",
        OFFICIAL,
        "7S QH",
        "5S 6S JK=7S | 9H TH JH | 9H TH JH",
        "5S 6S 7S | 9H TH JH | 9H TH JH QH JK",
        "8.2",
    ),
    (
        "rummikub",
        OFFICIAL,
        "7S QH",
        "5S 6S JK=7S | 9H TH JH | 9D TD JD",
        "5S 6S 7S | 9D TD JD | 9H TH JH QH JK",
        "8.2",
    ),
]


@pytest.mark.parametrize(("variant", "options", "hand", "table", "new", "rule"), CASES)
def test_judge_refuses_twin_and_control(
    variant: str, options: dict[str, bool] | None, hand: str, table: str, new: str, rule: str
) -> None:
    verdict = judge_play(variant, hand.split(), table, new, options=options)
    assert not verdict.legal, new
    assert verdict.rule is not None and verdict.rule.split()[0] == rule.split()[0], (
        verdict.rule,
        verdict.reason,
    )


@pytest.mark.parametrize(("variant", "options", "hand", "table", "new", "rule"), CASES)
def test_engine_refuses_every_copy_assignment(
    variant: str, options: dict[str, bool] | None, hand: str, table: str, new: str, rule: str
) -> None:
    state = position(variant, [hand], table, options=options, stock="2S 3S")
    play = play_from_text(state, new)
    for renamed in _renamings(state, play, limit=40):
        assert validate(state, renamed) is not None


@pytest.mark.parametrize(("variant", "options", "hand", "table", "new", "rule"), CASES)
def test_solver_and_hint_never_propose_it(
    variant: str, options: dict[str, bool] | None, hand: str, table: str, new: str, rule: str
) -> None:
    rules = get_variant(variant, options)
    answer = hint(rules, hand, table, alternatives=3)
    tables = [solve(rules, hand, table).melds, *(s.melds for s in (answer.best, *answer.alternatives))]
    for melds in tables:
        written = [[str(s) for s in meld] for meld in melds]
        assert written != [[str(s) for s in m] for m in judge_play(rules, hand.split(), table, new).new_table]
        played = sum(map(len, written)) > sum(len(m.split()) for m in table.split(" | "))
        if played:
            verdict = judge_play(rules, hand.split(), table, written)
            assert verdict.legal, (written, verdict.reason)


def _renamings(state: GameState, play: Play, limit: int) -> list[Play]:
    """`play` with the physical copies of each card kind permuted among the table's and the
    hand's copies of that kind (every way for the first kinds, up to `limit` plays)."""
    rs = state.round
    deck = state.variant.deck
    pool: dict[int, list[int]] = {}
    for i in [*(i for m in rs.table for i in m.ids), *rs.hands[rs.turn]]:
        pool.setdefault(deck[i], []).append(i)
    spots = [(m, p) for m, meld in enumerate(play.table) for p in range(len(meld.ids))]
    by_kind: dict[int, list[tuple[int, int]]] = {}
    for m, p in spots:
        by_kind.setdefault(deck[play.table[m].ids[p]], []).append((m, p))
    plays: list[Play] = [play]
    for kind, places in by_kind.items():
        if len(pool.get(kind, [])) < 2:
            continue
        for order in permutations(pool[kind], len(places)):
            ids = {s: play.table[s[0]].ids[s[1]] for s in spots}
            ids.update(dict(zip(places, order, strict=True)))
            table = tuple(
                TableMeld(tuple(ids[(m, p)] for p in range(len(meld.ids))), meld.meanings)
                for m, meld in enumerate(play.table)
            )
            plays.append(Play(table, play.opening))
            if len(plays) >= limit:
                return plays
    return plays


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**9), variant=st.sampled_from(["rhine", "rummy-tiles", "official"]))
def test_renaming_identical_copies_never_changes_a_verdict(seed: int, variant: str) -> None:
    rules = get_variant("rummikub", OFFICIAL) if variant == "official" else get_variant(variant)
    rng = random.Random(seed)
    table, hand = _deal(rng, rules)
    melds = _rearrange(rng, table, hand, rules)
    state = position(
        rules,
        [" ".join(card_str(c) for c in hand)],
        " | ".join(" ".join(card_str(c) for c in m) for m in table),
        stock="KC",
    )
    play = play_from_text(state, " | ".join(" ".join(card_str(c) for c in m) for m in melds))
    verdicts = {validate(state, p) is None for p in _renamings(state, play, limit=60)}
    assert len(verdicts) == 1
