"""`copies.canonical_tables` against a brute force over every placement of identical copies.

The canonical assignment (§7.1) is a pure matter of counting: of every way to place the start
table's and the hand's copies of each card kind on the final table, keep those with the most
pairs of start meld-mates together. Melds need not be valid for that, so the final tables here
are random regroupings of random cards from a two-pack deck with jokers, small enough to list
every placement. The exact search is checked on its own paths too: the settling of kinds whose
best placement does not depend on the others, the scoring of small groups and CP-SAT for large
ones.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import permutations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummyai.engine import copies
from rummyai.engine.copies import ConservationProblem, canonical_search, canonical_tables
from rummyai.engine.state import TableMeld
from rummyai.variants import get_variant

TILES = get_variant("rummy-tiles")
DECK = TILES.deck


def _position(seed: int) -> tuple[list[TableMeld], list[int], list[TableMeld]]:
    """Start melds and a hand from a few kinds (copies repeat), and a final table regrouping them."""
    rng = random.Random(seed)
    kinds = [*rng.sample(range(52), rng.randint(2, 4)), 52]
    ids = [i for i in range(len(DECK)) if DECK[i] in kinds]
    rng.shuffle(ids)
    cards = ids[: rng.randint(5, min(9, len(ids)))]
    hand = cards[rng.randint(3, len(cards) - 1) :]
    table_cards = cards[: len(cards) - len(hand)]
    start = _split(rng, table_cards)
    played = rng.sample(hand, rng.randint(0, len(hand)))
    final_cards = table_cards + played
    rng.shuffle(final_cards)
    final = _split(rng, final_cards)
    return start, hand, final


def _split(rng: random.Random, cards: list[int]) -> list[TableMeld]:
    melds, rest = [], list(cards)
    while rest:
        size = min(len(rest), rng.randint(1, 4))
        part, rest = rest[:size], rest[size:]
        melds.append(TableMeld(tuple(part), tuple(None for _ in part)))
    return melds


def _signature(start: list[TableMeld], final: tuple[TableMeld, ...]) -> tuple[object, ...]:
    """What the rules can see of an assignment: each final meld's naturals by (kind, start meld)
    and each wild's own place with its start meld."""
    owner = {i: u for u, m in enumerate(start) for i in m.ids}
    out = []
    for meld in final:
        naturals = sorted((DECK[i], owner.get(i, -1)) for i in meld.ids if not TILES.is_wild(DECK[i]))
        wilds = tuple((p, owner.get(i, -1)) for p, i in enumerate(meld.ids) if TILES.is_wild(DECK[i]))
        out.append((tuple(naturals), wilds))
    return tuple(out)


def _pairs(start: list[TableMeld], final: tuple[TableMeld, ...]) -> int:
    owner = {i: u for u, m in enumerate(start) for i in m.ids}
    cells = Counter((f, owner[i]) for f, meld in enumerate(final) for i in meld.ids if i in owner)
    return sum(n * (n - 1) // 2 for n in cells.values())


def _brute_force(start: list[TableMeld], hand: list[int], final: list[TableMeld]) -> set[tuple[object, ...]]:
    """The signatures of every assignment keeping the most pairs together."""
    sources: dict[int, list[int]] = {}
    for i in [*(i for m in start for i in m.ids), *hand]:
        sources.setdefault(DECK[i], []).append(i)
    spots: dict[int, list[tuple[int, int]]] = {}
    for f, meld in enumerate(final):
        for p, i in enumerate(meld.ids):
            spots.setdefault(DECK[i], []).append((f, p))
    on_table = {i for m in start for i in m.ids}
    kinds = sorted(spots)
    best, found = -1, set()
    for combo in product(*(permutations(sources[k], len(spots[k])) for k in kinds)):
        ids = {
            s: i for k, order in zip(kinds, combo, strict=True) for s, i in zip(spots[k], order, strict=True)
        }
        if not on_table <= set(ids.values()):
            continue
        table = tuple(
            TableMeld(tuple(ids[(f, p)] for p in range(len(m.ids))), m.meanings) for f, m in enumerate(final)
        )
        score = _pairs(start, table)
        if score > best:
            best, found = score, {_signature(start, table)}
        elif score == best:
            found.add(_signature(start, table))
    return found


@pytest.mark.parametrize("largest", [copies.MAX_SCORED, 0])
@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_canonical_assignments_are_exactly_the_best(seed: int, largest: int) -> None:
    start, hand, final = _position(seed)
    saved = copies.MAX_SCORED
    copies.MAX_SCORED = largest  # 0: every group of coupled kinds goes to CP-SAT
    try:
        found = canonical_search(DECK, TILES.is_wild, start, hand, final)
    finally:
        copies.MAX_SCORED = saved
    assert not isinstance(found, ConservationProblem)
    tables, complete = found
    expected = _brute_force(start, hand, final)
    got = {_signature(start, t) for t in tables}
    assert got <= expected
    assert len(got) == min(len(expected), copies.MAX_TABLES)
    assert not complete or got == expected  # a search that says it kept every tie did
    for table in tables:
        assert Counter(DECK[i] for m in table for i in m.ids) == Counter(
            DECK[i] for m in final for i in m.ids
        )


def test_a_table_card_missing_from_the_final_table_is_named() -> None:
    start = [TableMeld((0, 1, 2), (None, None, None))]
    problem = canonical_tables(DECK, TILES.is_wild, start, [], [TableMeld((0, 1), (None, None))])
    assert isinstance(problem, ConservationProblem)
    assert "must stay there" in problem.reason
