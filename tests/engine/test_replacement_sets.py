"""Replacement sets for released jokers: each distinct set once, so the bound covers sets."""

from __future__ import annotations

from itertools import combinations, permutations

from rummyai.jokers.common import MAX_MATCHINGS, matchings, replacement_sets


def test_every_set_of_distinct_replacements_comes_once() -> None:
    options = [[1, 2, 3], [2, 3], [3, 4]]
    fits = (m for m in permutations(range(1, 5), 3) if all(c in o for c, o in zip(m, options, strict=True)))
    expected = {frozenset(m) for m in fits}
    got = list(replacement_sets(options))
    assert len(got) == len(set(got)) and set(got) == expected


def test_four_jokers_with_eight_candidates_each_reach_every_set() -> None:
    # 8 * 7 * 6 * 5 = 1,680 orderings, beyond the bound; the 70 sets are all within it
    options = [list(range(8))] * 4
    assert sum(1 for _ in matchings(options)) == MAX_MATCHINGS
    assert set(replacement_sets(options)) == {frozenset(c) for c in combinations(range(8), 4)}
