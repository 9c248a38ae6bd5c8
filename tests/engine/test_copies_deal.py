"""`copies._distributions` lists the same deals of labelled copies into classes, in the same
order, as a plain recursive deal over multisets (the order numbers the options that
`canonical_tables` scores and returns, so the tied assignments it gives depend on it)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from rummyai.cards import Meaning
from rummyai.engine.copies import HAND, Label, _distributions, _label_key

LABELS: list[Label] = [(HAND, None), (0, None), (1, None), (2, None), (0, Meaning(5, 1)), (1, Meaning(7))]


def _reference(labels: list[Label], sizes: list[int]) -> Iterator[tuple[tuple[Label, ...], ...]]:
    """Each class in turn takes a sub-multiset (each label from most copies to none, labels in
    key order), the rest is dealt to the later classes."""
    if not sizes:
        yield ()
        return
    counts = Counter(labels)
    distinct = sorted(counts, key=_label_key)

    def subsets(k: int, left: int) -> Iterator[tuple[Label, ...]]:
        if left == 0:
            yield ()
            return
        if k == len(distinct):
            return
        for take in range(min(left, counts[distinct[k]]), -1, -1):
            for rest in subsets(k + 1, left - take):
                yield (distinct[k],) * take + rest

    for part in subsets(0, sizes[0]):
        remaining = sorted((counts - Counter(part)).elements(), key=_label_key)
        for tail in _reference(remaining, sizes[1:]):
            yield (part, *tail)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(LABELS), max_size=7), st.randoms(use_true_random=False))
def test_same_deals_in_the_same_order(labels: list[Label], rng: random.Random) -> None:
    sizes: list[int] = []
    left = len(labels)
    while left:
        size = rng.randint(1, left)
        sizes.append(size)
        left -= size
    ordered = sorted(labels, key=_label_key)
    assert list(_distributions(ordered, sizes)) == list(_reference(ordered, sizes))


def test_two_labels_two_classes() -> None:
    a, b = (0, None), (1, None)
    assert list(_distributions([a, b], [1, 1])) == [((a,), (b,)), ((b,), (a,))]
