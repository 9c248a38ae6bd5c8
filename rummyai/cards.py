"""Cards: integer kinds, the text notation, count vectors and decks.

A card *kind* is an int: naturals are ``suit * 13 + (rank - 1)`` with suits S, H, D, C = 0..3 and
ranks A=1 .. K=13; the joker is 52. Two copies of a card share a kind. Physical copies (needed for
conservation and joker tracking) are positions in the list returned by `build_deck`.

Notation: rank ``A 2 3 4 5 6 7 8 9 T J Q K`` (``10`` accepted for ``T``) then suit ``S H D C``; the
joker is ``JK``. A wild may carry its meaning after ``=`` (``JK=9H`` exact card, ``JK=9`` rank
only) and an escort after ``/`` (``KS/9H``). Melds are separated by ``|``. Parsing is
case-insensitive and accepts spaces or commas between tokens; a bad token raises `CardError`
naming it. `check_copies` raises `DeckError` when cards outnumber a variant's deck.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from numbers import Integral
from typing import Protocol

import numpy as np
import numpy.typing as npt

from rummyai.errors import CardError, DeckError

SUITS = "SHDC"
RANKS = "A23456789TJQK"
JOKER = 52
NUM_KINDS = 53
SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3

CountVector = npt.NDArray[np.int16]

# Tile colours written as suits: the board game (§7.1) and official Rummikub (§8).
BOARD_COLOURS = {"blue": "C", "red": "H", "green": "S", "yellow": "D"}
RUMMIKUB_COLOURS = {"black": "S", "red": "H", "orange": "D", "blue": "C"}


def make_card(rank: int, suit: int) -> int:
    """Kind of the natural card with `rank` (1..13, 14 read as ace) and `suit` (0..3)."""
    if rank == 14:
        rank = 1
    if not (1 <= rank <= 13 and 0 <= suit <= 3):
        raise CardError(f"no card with rank {rank} and suit {suit}")
    return suit * 13 + rank - 1


def rank_of(card: int) -> int:
    """Rank 1..13 of a natural card kind (0 for the joker)."""
    return 0 if card == JOKER else card % 13 + 1


def suit_of(card: int) -> int:
    """Suit 0..3 of a natural card kind (-1 for the joker)."""
    return -1 if card == JOKER else card // 13


def rank_str(rank: int) -> str:
    """Text of a rank 1..14 (14 is the high ace)."""
    return RANKS[(rank - 1) % 13]


def card_str(card: int) -> str:
    """Token of a card kind, e.g. ``7H`` or ``JK``."""
    if card == JOKER:
        return "JK"
    if not 0 <= card < JOKER:
        raise CardError(f"card kind {card} is out of range 0..52")
    return RANKS[card % 13] + SUITS[card // 13]


def _parse_rank(text: str, token: str) -> int:
    if text == "10":
        return 10
    if len(text) == 1 and text in RANKS:
        return RANKS.index(text) + 1
    raise CardError(f"unknown rank {text!r} in {token!r} (ranks are A 2-9 T/10 J Q K)")


def parse_card(token: str) -> int:
    """Kind of one plain card token such as ``7H``, ``10s`` or ``JK``."""
    text = token.strip().upper()
    if text in ("JK", "JOKER"):
        return JOKER
    if "=" in text or "/" in text:
        raise CardError(f"{token!r} carries a meaning or an escort; a plain card is expected here")
    if len(text) < 2:
        raise CardError(f"unknown card {token!r}: a card is a rank then a suit, e.g. 7H, or JK")
    suit_char = text[-1]
    if suit_char not in SUITS:
        raise CardError(f"unknown suit {suit_char!r} in card {token!r} (suits are S H D C)")
    return make_card(_parse_rank(text[:-1], token), SUITS.index(suit_char))


@dataclass(frozen=True)
class Meaning:
    """What a wild stands for: a rank (1..13) and, in a run or where stated, a suit (0..3)."""

    rank: int
    suit: int | None = None
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= 13 or self.suit not in (None, 0, 1, 2, 3):
            raise CardError(f"no meaning with rank {self.rank} and suit {self.suit}")
        # kept: meanings are hashed again and again inside table melds and memo keys
        object.__setattr__(self, "_hash", hash((self.rank, -1 if self.suit is None else self.suit)))

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return rank_str(self.rank) + ("" if self.suit is None else SUITS[self.suit])

    def card(self) -> int | None:
        """Kind of the exact card meant, or None when only the rank is known."""
        return None if self.suit is None else make_card(self.rank, self.suit)


def parse_meaning(text: str, token: str) -> Meaning:
    """Meaning after ``=``: ``9H`` (exact card) or ``9`` / ``10`` (rank only)."""
    text = text.strip().upper()
    if not text:
        raise CardError(f"empty meaning after '=' in {token!r}")
    if text in ("JK", "JOKER"):
        raise CardError(f"bad meaning in {token!r}: a wild stands for a card, not for a joker")
    if text == "10" or (len(text) == 1 and text not in SUITS):
        return Meaning(_parse_rank(text, token), None)
    if len(text) == 1:
        raise CardError(f"bad meaning {text!r} in {token!r}: write a rank (9) or a card (9H)")
    if text[-1] not in SUITS:
        raise CardError(f"unknown suit {text[-1]!r} in meaning {text!r} of {token!r} (suits are S H D C)")
    return Meaning(_parse_rank(text[:-1], token), SUITS.index(text[-1]))


@dataclass(frozen=True)
class Slot:
    """One card in a written meld: the card, the stated meaning of a wild, an optional escort."""

    card: int
    meaning: Meaning | None = None
    escort: Slot | None = None
    _hash: int | None = field(default=None, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        """Worked out once per slot (melds of slots are the keys of the meld caches), from the
        fields' values alone, so a slot sent to another process hashes there as it did here."""
        h = self._hash
        if h is None:
            meaning = -1 if self.meaning is None else hash(self.meaning)
            h = hash((self.card, meaning, -1 if self.escort is None else hash(self.escort)))
            object.__setattr__(self, "_hash", h)
        return h

    def __str__(self) -> str:
        text = card_str(self.card)
        if self.meaning is not None:
            text += f"={self.meaning}"
        if self.escort is not None:
            text += f"/{self.escort}"
        return text

    def cards(self) -> list[int]:
        """The physical card kinds in this slot (the card and its escort)."""
        return [self.card] + ([] if self.escort is None else self.escort.cards())


def parse_slot(token: str) -> Slot:
    """One meld token with optional meaning and escort: ``JK=9H``, ``KS/9H``, ``QD=KC/AH``."""
    head, slash, escort_text = token.strip().partition("/")
    if slash and not escort_text.strip():
        raise CardError(f"empty escort after '/' in {token!r}")
    if "/" in escort_text:
        raise CardError(f"an escort cannot carry its own escort: {token!r}")
    card_text, eq, meaning_text = head.partition("=")
    if not card_text.strip():
        raise CardError(f"missing card before {'=' if eq else '/'} in {token!r}")
    card = parse_card(card_text)
    meaning = parse_meaning(meaning_text, token) if eq else None
    escort = parse_slot(escort_text) if slash else None
    return Slot(card, meaning, escort)


_SPLIT = re.compile(r"[\s,]+")


def _tokens(text: str) -> list[str]:
    return [t for t in _SPLIT.split(text.strip()) if t]


def _not_text(value: object, what: str) -> CardError:
    """The error for cards given as something other than text: the value itself, or its first
    item that is not a string (a number or None where cards were expected)."""
    if isinstance(value, Iterable) and not isinstance(value, bytes | bytearray):
        for item in value:
            if not isinstance(item, str):
                return CardError(f"unknown card {item!r} in {what} (write tokens such as '7H' or 'JK')")
    return CardError(f"{what} must be a string of cards or a list of card tokens, got {value!r}")


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Kinds of plain cards given as one string (``"7H 8H, JK"``) or an iterable of tokens."""
    if isinstance(text, str):
        tokens = _tokens(text)
    else:
        try:
            tokens = [t for s in text for t in _tokens(s)]
        except (TypeError, AttributeError):  # not iterable, or an item that is not text
            raise _not_text(text, "the cards") from None
    return [parse_card(t) for t in tokens]


def parse_meld(text: str | Iterable[str]) -> tuple[Slot, ...]:
    """One written meld (tokens may carry meanings and escorts)."""
    if isinstance(text, str):
        return _parse_written_meld(text)
    try:
        joined = " ".join(text)
    except TypeError:  # not iterable, or an item that is not text
        raise _not_text(text, "a meld") from None
    return _parse_written_meld(joined)


@lru_cache(maxsize=1 << 16)
def _parse_written_meld(text: str) -> tuple[Slot, ...]:
    """`parse_meld` of one string, remembered: solver calls and search rollouts turn the same table
    melds to text and back thousands of times a second (the result is immutable, errors are not kept)."""
    tokens = _tokens(text)
    if not tokens:
        raise CardError("empty meld")
    return tuple(parse_slot(t) for t in tokens)


def parse_table(text: str | Iterable[str | Iterable[str]]) -> list[tuple[Slot, ...]]:
    """A table: melds separated by ``|`` in one string, or a list of melds (strings or token lists)."""
    if isinstance(text, str):
        parts = [p for p in text.split("|") if p.strip()]
        if text.strip() and len(parts) != len(text.split("|")):
            raise CardError(f"empty meld between '|' separators in {text!r}")
        return [parse_meld(p) for p in parts]
    try:
        melds = list(text)
    except TypeError:
        raise CardError(f"a table must be a string of melds or a list of melds, got {text!r}") from None
    return [parse_meld(m) for m in melds]


def cards_str(cards: Iterable[int]) -> str:
    """Space-separated tokens of card kinds."""
    return " ".join(card_str(c) for c in cards)


def meld_str(meld: Sequence[Slot]) -> str:
    """Written form of a meld."""
    return " ".join(str(s) for s in meld)


def table_str(table: Iterable[Sequence[Slot]]) -> str:
    """Written form of a table, melds separated by `` | ``."""
    return " | ".join(meld_str(m) for m in table)


def slot_sort_key(slot: Slot) -> tuple[int, int]:
    """Sort order of a written slot: by its card (meanings and escorts do not move it)."""
    return sort_key(slot.card)


def sort_key(card: int) -> tuple[int, int]:
    """Sort order of §7.1: rank A..K, then suit S H D C, joker last."""
    return (99, 0) if card == JOKER else (rank_of(card), suit_of(card))


def sorted_cards(cards: Iterable[int]) -> list[int]:
    """Cards in the notation's sort order."""
    return sorted(cards, key=sort_key)


def counts(cards: Iterable[int]) -> CountVector:
    """Count vector (length 53) of a multiset of card kinds."""
    vector = np.zeros(NUM_KINDS, dtype=np.int16)
    for card in cards:
        vector[card] += 1
    return vector


def from_counts(vector: npt.ArrayLike) -> list[int]:
    """Card kinds (sorted by kind) of a count vector."""
    array = np.asarray(vector)
    return [int(k) for k in np.repeat(np.arange(NUM_KINDS), array.astype(np.int64))]


def standard_pack(jokers: int = 0) -> list[int]:
    """One 52-card pack in deck order (suits S H D C, ranks A..K) followed by `jokers` jokers."""
    return list(range(52)) + [JOKER] * jokers


def build_deck(decks: int, jokers: int, removed: Iterable[int] = ()) -> list[int]:
    """Physical deck in §7.1 order: each pack's suits S H D C and ranks A..K, then the jokers.

    `removed` lists card kinds to drop, one entry per physical copy (earliest copies go first).
    Index i of the result is the kind of physical card id i.
    """
    deck = [card for _ in range(decks) for card in range(52)] + [JOKER] * jokers
    for card in removed:
        deck.remove(card)
    return deck


class DeckSource(Protocol):
    """Anything with an id and per-kind copy counts: a `rummyai.variants.Variant`."""

    @property
    def id(self) -> str: ...

    @property
    def copies(self) -> Sequence[int]: ...


def check_copies(variant: DeckSource, kinds: Iterable[int], what: str = "") -> None:
    """Raise `DeckError` if `kinds` (a multiset of card kinds) holds more copies of a card than
    the variant's deck, naming the card, e.g. "3 copies of 7H but the rummikub deck holds 2".

    `what` names where the cards are ("hand and table") and goes into the message.
    """
    tally = Counter(kinds)
    where = f" in {what}" if what else ""
    for kind in sorted(
        tally, key=lambda k: sort_key(k) if isinstance(k, int) and 0 <= k <= JOKER else (0, 0)
    ):
        if not isinstance(kind, int) or not 0 <= kind <= JOKER:
            raise CardError(f"card kind {kind!r}{where} is out of range 0..52")
        held, n = variant.copies[kind], tally[kind]
        if n > held:
            copies = "copy" if n == 1 else "copies"
            deck = f"holds {held}" if held else f"has no {card_str(kind)}"
            raise DeckError(f"{n} {copies} of {card_str(kind)}{where} but the {variant.id} deck {deck}")


CardsInput = str | Iterable[int | str]


def is_kind(item: object) -> bool:
    """Whether `item` is a card kind given as a number (an integer, not a bool)."""
    return isinstance(item, Integral) and not isinstance(item, bool)


def read_cards(cards: CardsInput, what: str = "the hand") -> list[int]:
    """Card kinds of cards given as text, tokens or kinds (range-checked, copies not counted);
    `CardError` naming `what` for anything else (a mapping, bytes, a float, a bool)."""
    if isinstance(cards, str):
        return parse_cards(cards)
    if isinstance(cards, bytes | bytearray | Mapping) or not isinstance(cards, Iterable):
        raise CardError(f"{what} must be a string of cards or a list of cards, got {cards!r}")
    kinds: list[int] = []
    for item in cards:
        if type(item) is int and 0 <= item < NUM_KINDS:  # the common case, checked first
            kinds.append(item)
        elif isinstance(item, str):
            kinds.extend(parse_cards(item))
        elif is_kind(item):
            card = int(item)
            if not 0 <= card < NUM_KINDS:
                raise DeckError(f"card kind {card} in {what} is out of range 0..52")
            kinds.append(card)
        else:
            raise CardError(f"unknown card {item!r} in {what} (give tokens such as '7H' or kinds 0..52)")
    return kinds
