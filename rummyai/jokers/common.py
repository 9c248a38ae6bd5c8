"""Small readings shared by the end-of-turn joker checks: meanings, replacements, new melds."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import islice
from typing import TYPE_CHECKING

from rummyai.cards import SUITS, Meaning, rank_of, rank_str, suit_of

if TYPE_CHECKING:
    from rummyai.engine.tile_rules import Resolved

MAX_MATCHINGS = 256  # replacement choices tried when several cards could replace the jokers


def same_meaning(kind0: str, m0: Meaning | None, kind1: str, m1: Meaning | None) -> bool:
    """A joker keeps its meaning: the same exact card in a run, the same rank in a group."""
    if m0 is None or m1 is None or kind0 != kind1:
        return False
    if kind0 == "group":
        return m0.rank == m1.rank
    return m0.rank == m1.rank and m0.suit == m1.suit


def kept(start: Resolved, joker: int, final: Resolved) -> bool:
    """Whether `joker` from start meld `start` still plays with the same meaning in `final`."""
    return joker in final.wild and same_meaning(
        start.kind, start.meaning_of(joker), final.kind, final.meaning_of(joker)
    )


def stands_for(kind: str, meaning: Meaning, card: int, missing_suits: set[int] | None = None) -> bool:
    """Whether natural `card` has the joker's meaning (a suit missing from the group if given)."""
    if kind == "group":
        if rank_of(card) != meaning.rank:
            return False
        return missing_suits is None or suit_of(card) in missing_suits
    return rank_of(card) == meaning.rank and suit_of(card) == meaning.suit


def missing_suits(start: Resolved, deck: Sequence[int]) -> set[int]:
    """Suits that no natural card of the meld has."""
    return {0, 1, 2, 3} - {suit_of(deck[n]) for n in start.naturals}


def article(text: str) -> str:
    """'a 7S' but 'an 8S', 'an AS' (the message names a card)."""
    return f"an {text}" if text[:1] in ("8", "A") else f"a {text}"


def wanted(kind: str, meaning: Meaning, missing: set[int] | None = None) -> str:
    """The natural card a joker's replacement must be, in words: the exact card for a run; for a
    group, its rank, in a suit missing from the group where the variant says so."""
    if kind != "group":
        return article(str(meaning))
    rank = article(rank_str(meaning.rank))
    if missing is None:
        return rank
    suits = " or ".join(SUITS[s] for s in sorted(missing))
    return f"{rank} of a suit missing from the group ({suits})"


def locate(final: Sequence[Resolved]) -> dict[int, int]:
    """Final meld index of every card id."""
    return {i: k for k, r in enumerate(final) for i in r.meld.ids}


def matchings(options: list[list[int]]) -> Iterator[tuple[int, ...]]:
    """Distinct choices, one per list (bounded)."""

    def rec(k: int, taken: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if k == len(options):
            yield taken
            return
        for c in options[k]:
            if c not in taken:
                yield from rec(k + 1, (*taken, c))

    return islice(rec(0, ()), MAX_MATCHINGS)


def replacement_sets(options: list[list[int]]) -> Iterator[frozenset[int]]:
    """Distinct sets of cards holding one distinct card per list (bounded): where only which cards
    replace matters, not which joker each replaces, every set is met once, so the bound is spent on
    different sets rather than on orderings of one."""
    seen: set[tuple[int, frozenset[int]]] = set()

    def rec(k: int, taken: frozenset[int]) -> Iterator[frozenset[int]]:
        if (k, taken) in seen:
            return
        seen.add((k, taken))
        if k == len(options):
            yield taken
            return
        for c in options[k]:
            if c not in taken:
                yield from rec(k + 1, taken | {c})

    return islice(rec(0, frozenset()), MAX_MATCHINGS)


def is_new(s: Resolved, start: Sequence[Resolved]) -> bool:
    """A meld that does not contain every card of any start meld."""
    return not any(u.ids <= s.ids for u in start)
