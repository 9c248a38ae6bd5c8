"""Property test: melds built by construction (a legal run or group, then wilds substituted within
the variant's limits) are accepted, and their resolved meanings are consistent with the rules."""

from __future__ import annotations

import os
from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rummyai.cards import Meaning, Slot, make_card, rank_of, suit_of
from rummyai.melds import MeldInfo, analyze_meld
from rummyai.variants import RunRule, Variant, get_variant

VARIANTS = [
    get_variant("rummikub"),
    get_variant("rhine"),
    get_variant("rhine", {"rhine.wild_twos": True}),
    get_variant("rummy-tiles"),
    get_variant("rummy-board"),
    get_variant("rummy-palace"),
    get_variant("rummy-palace", {"cyclic_laying": True}),
    get_variant("standard"),
    get_variant("standard", {"decks": 2}),
    get_variant("black-heart"),
]


def run_windows(rule: RunRule, length: int) -> list[list[int]]:
    """Rank positions of every legal run of this length, built from the rule's fields alone."""
    if rule.wrap:
        out = []
        for start in range(1, 14):
            ranks = [(start - 1 + k) % 13 + 1 for k in range(length)]
            out.append([14 if r == 1 and k > 0 else r for k, r in enumerate(ranks)])
        return out if length <= 13 else []
    low = 1 if rule.ace_low else 2
    high = 14 if rule.ace_high else rule.max_rank
    return [list(range(s, s + length)) for s in range(low, high - length + 2) if s + length - 1 - s < 13]


@st.composite
def constructed(draw: st.DrawFn, variant: Variant) -> tuple[tuple[Slot, ...], str]:
    """A valid meld by construction, and whether it was built as a "run" or a "group"."""
    left = Counter({k: n for k, n in enumerate(variant.copies) if n})
    kind = draw(st.sampled_from(["run", "group"]))
    if kind == "run":
        suit = draw(st.sampled_from([s for s in range(4) if variant.run_rules[s] is not None]))
        rule = variant.run_rules[suit]
        assert rule is not None
        windows = [w for n in range(3, 14) for w in run_windows(rule, n)]
        cards = [make_card(p, suit) for p in draw(st.sampled_from(windows))]
    else:
        pools = {}
        for rank in range(1, 14):
            pool = [make_card(rank, s) for s in range(4) for _ in range(left[make_card(rank, s)])]
            pool = [c for c in pool if not variant.always_wild(c)]
            if variant.group_distinct_suits:
                pool = sorted(set(pool))
            if len(pool) >= 3:
                pools[rank] = pool
        pool = pools[draw(st.sampled_from(sorted(pools)))]
        size = draw(st.integers(3, min(len(pool), variant.group_max or 7)))
        cards = draw(st.permutations(pool))[:size]
    for card in cards:
        left[card] -= 1
    # Wild positions: cards that can never be natural (Rhine's wild twos) must be wilds.
    must = [i for i, c in enumerate(cards) if variant.always_wild(c)]
    for i in must:
        left[cards[i]] += 1  # that two is free to be used as the wild itself
    cap = len(cards) - max(1, variant.min_naturals_per_meld)
    if variant.max_wilds_per_meld is not None:
        cap = min(cap, variant.max_wilds_per_meld)
    if variant.wilds_le_naturals:
        cap = min(cap, len(cards) // 2)
    assume(len(must) <= cap)
    optional = [i for i in range(len(cards)) if i not in must] if variant.wilds else []
    extra = (
        draw(st.lists(st.sampled_from(optional), unique=True, max_size=cap - len(must))) if optional else []
    )
    chosen = set(must) | set(extra)
    slots: list[Slot] = []
    for i, card in enumerate(cards):
        if i in chosen:
            fits = [r.card for r in variant.wilds if card in r.stands_for and left[r.card] > 0]
            if fits:
                wild = draw(st.sampled_from(fits))
                left[wild] -= 1
                states = ["exact", "rank", "none"] if kind == "group" else ["exact", "none"]
                meaning = {
                    "exact": Meaning(rank_of(card), suit_of(card)),
                    "rank": Meaning(rank_of(card)),
                    "none": None,
                }[draw(st.sampled_from(states))]
                slots.append(Slot(wild, meaning, _escort(variant, card, left, draw)))
                continue
            assume(i not in must)
        slots.append(Slot(card, None, _escort(variant, card, left, draw)))
    return tuple(slots), kind


def _escort(variant: Variant, meant: int, left: Counter[int], draw: st.DrawFn) -> Slot | None:
    """A heart escort (natural, or a diamond standing for a heart) for a black court card."""
    if variant.escorts is None or meant not in variant.escorts.needs_escort:
        return None
    hearts = [c for c in sorted(variant.escorts.escorts) if left[c] > 0]
    wild_hearts = [
        r.card for r in variant.wilds if left[r.card] > 0 and r.stands_for & variant.escorts.escorts
    ]
    choice = draw(st.sampled_from(hearts + wild_hearts))
    left[choice] -= 1
    return Slot(choice)


def check_consistent(variant: Variant, slots: tuple[Slot, ...], info: MeldInfo) -> None:
    """Every natural at its rank, every wild's meaning inside its scope, limits and escorts kept."""
    assert Counter(info.cards) == Counter(c for s in slots for c in s.cards()), "same physical cards"
    assert len(info.slots) == len(slots) == len(info.positions) == len(info.as_wild)
    assert info.naturals >= max(1, variant.min_naturals_per_meld)
    assert variant.max_wilds_per_meld is None or info.wild_count <= variant.max_wilds_per_meld
    assert not variant.wilds_le_naturals or info.wild_count <= info.naturals
    for i, (slot, wild, position) in enumerate(zip(info.slots, info.as_wild, info.positions, strict=True)):
        meant = info.meant(i)
        if wild:
            rule = variant.wild_map[slot.card]
            assert slot.meaning is not None
            if meant is not None:
                assert meant in rule.stands_for, f"{slot} outside its scope"
            else:
                assert any(make_card(slot.meaning.rank, s) in rule.stands_for for s in range(4))
        else:
            assert not variant.always_wild(slot.card), f"{slot} can never be natural"
            assert meant == slot.card
        if info.kind == "run":
            assert info.suit is not None
            assert meant == make_card(position, info.suit), f"{slot} is not at its rank {position}"
        else:
            assert info.rank is not None and position == info.rank
            assert (slot.meaning.rank if wild and slot.meaning else rank_of(slot.card)) == info.rank
        if variant.escorts is not None:
            assert (slot.escort is not None) == (meant in variant.escorts.needs_escort), f"escort of {slot}"
    if info.kind == "run":
        run_rule = variant.run_rules[info.suit or 0]
        assert run_rule is not None
        assert list(info.positions) in run_windows(run_rule, len(slots)), "a legal run window"
    elif variant.group_distinct_suits:
        natural_suits = [suit_of(s.card) for s, w in zip(info.slots, info.as_wild, strict=True) if not w]
        assert len(set(natural_suits)) == len(natural_suits) and len(info.slots) <= 4


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: "+".join([v.id, *sorted(v.options)]))
@settings(max_examples=int(os.environ.get("RUMMYAI_MELD_EXAMPLES", "120")), deadline=None)
@given(data=st.data())
def test_constructed_melds_are_accepted_with_consistent_meanings(
    variant: Variant, data: st.DataObject
) -> None:
    slots, kind = data.draw(constructed(variant))
    info = analyze_meld(variant, slots)
    check_consistent(variant, slots, info)
    stated = [s for s in slots if s.meaning is not None and s.meaning.suit is not None]
    for given_slot in stated:
        assert any(s.card == given_slot.card and s.meaning == given_slot.meaning for s in info.slots), (
            f"stated meaning {given_slot} kept"
        )
    wilds = [s for s in slots if variant.is_wild(s.card) and s.meaning is None]
    if kind == "run" and not wilds:
        # written in order with every wild's card stated: exactly the constructed run
        assert info.kind == "run"
        assert [(s.card, s.meaning) for s in info.slots] == [
            (s.card, None if not variant.is_wild(s.card) else s.meaning) for s in slots
        ]
    # any order of the same cards is a valid meld too
    shuffled = tuple(data.draw(st.permutations(slots)))
    check_consistent(variant, shuffled, analyze_meld(variant, shuffled))
