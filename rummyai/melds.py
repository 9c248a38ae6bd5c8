"""Meld rules: is a list of cards a valid meld under a variant, and what does each wild stand for.

`analyze_meld` returns a `MeldInfo` (group, run or Royale, with every wild's meaning resolved) or
raises `MeldError` naming the reason. A stated meaning (``JK=9H``, ``JK=9``) is binding. Where a
wild's meaning is not written and several fit, the written order decides first: if the cards as
written form a run, with each wild standing at the position where it is written, that run is
the meaning; otherwise a group of the naturals' rank; otherwise a run with the naturals at their
ranks and the wilds on the free positions (lowest run first). Group wilds take suits missing from
the group where the variant needs distinct suits. `opening_value` gives a meld's worth toward a
points opening and `opening_problem` says whether a meld may be an opening meld at all.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from itertools import product
from typing import Literal

from rummyai.cards import (
    JOKER,
    NUM_KINDS,
    Meaning,
    Slot,
    card_str,
    check_copies,
    is_kind,
    make_card,
    parse_meld,
    parse_slot,
    rank_of,
    rank_str,
    suit_of,
)
from rummyai.errors import CardError, DeckError, MeldError
from rummyai.memo import memoized
from rummyai.runs import run_positions
from rummyai.variants import RunRule, Variant, WildRule

MeldKind = Literal["group", "run", "royale"]
MeldInput = str | Sequence[Slot] | Sequence[int] | Sequence[str]

SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


@dataclass(frozen=True)
class MeldInfo:
    """A valid meld with its interpretation.

    `slots` are the core cards in meld order (runs low to high) with each wild's meaning filled
    in; `positions` gives each core card's rank position (1..14, 14 = high ace) in runs, or the
    group's rank. `as_wild[i]` says whether core card i plays as a wild.
    """

    kind: MeldKind
    slots: tuple[Slot, ...]
    positions: tuple[int, ...]
    as_wild: tuple[bool, ...]
    rank: int | None = None
    suit: int | None = None

    @property
    def naturals(self) -> int:
        """Number of core cards playing as themselves."""
        return len(self.as_wild) - sum(self.as_wild)

    @property
    def wild_count(self) -> int:
        """Number of core cards playing as wilds."""
        return sum(self.as_wild)

    @property
    def cards(self) -> list[int]:
        """Every physical card kind in the meld, escorts included."""
        return [c for slot in self.slots for c in slot.cards()]

    @cached_property
    def kinds(self) -> tuple[int, ...]:
        """`cards` sorted: the meld as a multiset of kinds (kept: analysed melds are reused)."""
        return tuple(sorted(self.cards))

    def meant(self, i: int) -> int | None:
        """Card kind core card i counts as (its meaning if wild), None for a suitless group wild."""
        slot = self.slots[i]
        if not self.as_wild[i]:
            return slot.card
        assert slot.meaning is not None
        return slot.meaning.card()

    def __str__(self) -> str:
        return " ".join(str(s) for s in self.slots)


def to_slots(meld: MeldInput) -> tuple[Slot, ...]:
    """Slots of a meld given as text, slots, tokens (``["JK=9H", "KS/2H"]``) or plain kinds."""
    if isinstance(meld, str):
        return parse_meld(meld)
    if type(meld) is tuple and all(type(item) is Slot for item in meld):
        return meld  # already slots (the meld caches' key, looked up again and again)
    slots: list[Slot] = []
    for item in meld:
        if isinstance(item, Slot):
            slots.append(item)
        elif isinstance(item, str):
            slots.append(parse_slot(item))
        else:
            kind = int(item)
            if not 0 <= kind <= JOKER:
                raise CardError(f"card kind {kind} is out of range 0..52")
            slots.append(Slot(kind))
    return tuple(slots)


@memoized("_meld_cache", MeldError, 200_000, key=to_slots)
def analyze_meld(variant: Variant, meld: MeldInput) -> MeldInfo:
    """Interpret `meld` under `variant`; raise `MeldError` naming why it is not a valid meld.

    Answers, errors included, are remembered per variant (`rummyai.memo`).
    """
    return _analyze(variant, to_slots(meld))


def analyze_meld_uncached(variant: Variant, meld: MeldInput) -> MeldInfo:
    """`analyze_meld` without the per-variant cache (for benchmarks and cache tests)."""
    return _analyze(variant, to_slots(meld))


def is_valid_meld(variant: Variant, meld: MeldInput) -> bool:
    """Whether `meld` is a valid meld under `variant`."""
    try:
        analyze_meld(variant, meld)
    except MeldError:
        return False
    return True


def _text(slots: Sequence[Slot]) -> str:
    return " ".join(str(s) for s in slots)


class _Reasons:
    """Why interpretations failed; the most specific reason is reported."""

    def __init__(self) -> None:
        self.items: list[tuple[int, str]] = []

    def add(self, priority: int, text: str) -> None:
        """Record a reason; lower priority numbers are more specific."""
        self.items.append((priority, text))

    def best(self) -> str:
        """The most specific reason recorded first."""
        if not self.items:
            return "it is neither a group nor a run"
        return min(self.items, key=lambda item: item[0])[1]


# Reason priorities: stated meanings and escorts, then meld shape, then wild counts, then generic.
_MEANING, _SHAPE, _COUNT, _GENERIC = 0, 1, 2, 3


def _analyze(variant: Variant, slots: tuple[Slot, ...]) -> MeldInfo:
    if len(slots) < variant.min_meld:
        raise MeldError(
            f"'{_text(slots)}' has {len(slots)} core card{'' if len(slots) == 1 else 's'}; "
            f"a meld needs at least {variant.min_meld}"
        )
    _check_deck(variant, slots)
    for slot in slots:
        if slot.meaning is not None or slot.escort is not None:
            _check_slot(variant, slot, _text(slots))
    royale = _royale(variant, slots)
    if royale is not None:
        return royale
    reasons = _Reasons()
    for roles in product(*(_roles(variant, slot) for slot in slots)):
        info = _interpret(variant, slots, roles, reasons)
        if info is not None:
            return info
    rule = variant.royale
    escorted = any(s.escort is not None for s in slots)
    if rule is not None and escorted and sorted(s.card for s in slots) == sorted(rule.cards):
        raise MeldError(f"'{_text(slots)}' is not a valid meld: the Diamond Royale takes no escorts (§6.2)")
    raise MeldError(f"'{_text(slots)}' is not a valid meld: {reasons.best()}")


def _check_deck(variant: Variant, slots: tuple[Slot, ...]) -> None:
    """Reject cards the variant's deck does not hold (or not that many times)."""
    copies = variant.copies
    seen: dict[int, int] = {}
    over = False
    for slot in slots:
        for card in (slot.card,) if slot.escort is None else slot.cards():
            if not (is_kind(card) and 0 <= card < NUM_KINDS):  # a `Slot` built by hand
                raise MeldError(f"not a valid meld: card kind {card!r} is out of range 0..52")
            n = seen.get(card, 0) + 1
            seen[card] = n
            over = over or n > copies[card]
    if over:
        try:
            check_copies(variant, [c for slot in slots for c in slot.cards()], f"'{_text(slots)}'")
        except DeckError as error:
            raise MeldError(f"not a valid meld: {error}") from None


def _check_slot(variant: Variant, slot: Slot, label: str) -> None:
    """Reject meanings a card may never carry and misplaced escorts, naming the token."""
    meaning = slot.meaning
    rule = variant.wild_map.get(slot.card)
    if meaning is not None and not _means_itself(slot):
        if rule is None:
            raise MeldError(f"{card_str(slot.card)} is not wild in {variant.id} and cannot mean {meaning}")
        if not _meaning_in_scope(rule, meaning):
            raise MeldError(
                f"'{slot}' is not allowed: in {variant.id} {card_str(slot.card)} stands only for {rule.scope}"
            )
    if slot.escort is not None:
        if variant.escorts is None:
            raise MeldError(f"escorts ('/') do not exist in {variant.id}: '{label}'")
        if slot.escort.escort is not None:
            raise MeldError(f"an escort cannot carry an escort: '{slot}'")


def _means_itself(slot: Slot) -> bool:
    """Whether a slot's stated meaning is the card itself (``7H=7H``, ``KD=K``)."""
    meaning = slot.meaning
    if meaning is None or slot.card == JOKER:
        return False
    return meaning.rank == rank_of(slot.card) and meaning.suit in (None, suit_of(slot.card))


def _meaning_in_scope(rule: WildRule, meaning: Meaning) -> bool:
    exact = meaning.card()
    if exact is not None:
        return exact in rule.stands_for
    return any(make_card(meaning.rank, suit) in rule.stands_for for suit in range(4))


def _roles(variant: Variant, slot: Slot) -> list[bool]:
    """Whether this slot may play as a wild (True) and/or as itself (False)."""
    rule = variant.wild_map.get(slot.card)
    if rule is None:
        return [False]
    if not rule.plays_itself:
        return [True]
    if slot.meaning is not None and slot.meaning.suit is not None:
        return [False] if _means_itself(slot) else [True]
    if slot.meaning is not None and not _means_itself(slot):
        return [True]
    return [False, True]  # no meaning, or its own rank only ("KD=K": itself, or a K as a wild)


def _royale(variant: Variant, slots: tuple[Slot, ...]) -> MeldInfo | None:
    rule = variant.royale
    if rule is None or sorted(s.card for s in slots) != sorted(rule.cards):
        return None
    if any(s.meaning is not None and not _means_itself(s) for s in slots):
        return None
    if any(s.escort is not None for s in slots):
        return None  # no Royale (it takes no escorts), but maybe a group: J♦ Q♦=J♠/A♥ K♦=J♣/2♥

    ordered = tuple(Slot(c) for c in rule.cards)
    return MeldInfo(
        "royale",
        ordered,
        tuple(rank_of(c) for c in rule.cards),
        (False,) * len(rule.cards),
        suit=suit_of(rule.cards[0]),
    )


def _count_problem(variant: Variant, roles: Sequence[bool]) -> str | None:
    wilds = sum(roles)
    naturals = len(roles) - wilds
    if variant.max_wilds_per_meld is not None and wilds > variant.max_wilds_per_meld:
        return f"at most {variant.max_wilds_per_meld} wild(s) per meld in {variant.id}, not {wilds}"
    if naturals < variant.min_naturals_per_meld:
        return f"a meld needs at least {variant.min_naturals_per_meld} natural card(s) in {variant.id}"
    if variant.wilds_le_naturals and wilds > naturals:
        return f"wilds may not outnumber natural cards ({wilds} wilds, {naturals} naturals)"
    return None


def _interpret(
    variant: Variant, slots: tuple[Slot, ...], roles: tuple[bool, ...], reasons: _Reasons
) -> MeldInfo | None:
    problem = _count_problem(variant, roles)
    if problem:
        reasons.add(_COUNT, problem)
        return None
    # Naturals playing as themselves lose any trivial stated meaning ("7H=7H" -> "7H").
    if any(s.meaning is not None and not w for s, w in zip(slots, roles, strict=True)):
        slots = tuple(
            s if w or s.meaning is None else Slot(s.card, None, s.escort)
            for s, w in zip(slots, roles, strict=True)
        )
    naturals = [s.card for s, wild in zip(slots, roles, strict=True) if not wild]
    same_rank = len({c % 13 for c in naturals}) == 1
    same_suit = len({c // 13 for c in naturals}) == 1
    if same_suit:
        info = _as_run(variant, slots, roles, reasons, written_only=True)
        if info is not None:
            return info
    if same_rank:
        info = _as_group(variant, slots, roles, reasons)
        if info is not None:
            return info
    if same_suit:
        return _as_run(variant, slots, roles, reasons, written_only=False)
    if not same_rank:
        reasons.add(_GENERIC, "its natural cards share neither a rank nor a suit")
    return None


# ------------------------------------------------------------------------------ escorts
def _escort_problem(variant: Variant, slot: Slot, meant: int | None, wild: bool) -> str | None:
    """Problem with a slot's escort given the card it counts as, or None."""
    rule = variant.escorts
    if rule is None:
        return None
    needs = meant is not None and meant in rule.needs_escort
    if needs and slot.escort is None:
        what = f"{slot} stands for {card_str(meant or 0)}, a black court card, and" if wild else f"{slot}"
        return f"{what} needs a heart escort (§6.2)"
    if not needs and slot.escort is not None:
        return f"only black court cards take an escort: '{slot}' (§6.2)"
    escort = slot.escort
    if escort is None:
        return None
    if escort.card in rule.escorts and (escort.meaning is None or _means_itself(escort)):
        return None
    wild_rule = variant.wild_map.get(escort.card)
    if wild_rule is not None and not _means_itself(escort):
        hearts = [c for c in wild_rule.stands_for if c in rule.escorts]
        if escort.meaning is None and hearts:
            return None
        if escort.meaning is not None and escort.meaning.card() in rule.escorts:
            return None
    return f"escort {escort} of {card_str(slot.card)} is not a heart (§6.2)"


def _resolve_escort(variant: Variant, slot: Slot) -> Slot:
    """Fill in the heart a wild escort stands for (the lowest heart in its scope)."""
    escort = slot.escort
    if escort is None or variant.escorts is None:
        return slot
    if escort.card in variant.escorts.escorts:
        return slot if escort.meaning is None else Slot(slot.card, slot.meaning, Slot(escort.card))
    rule = variant.wild_map.get(escort.card)
    if escort.meaning is not None or rule is None:
        return slot
    hearts = [c for c in rule.stands_for if c in variant.escorts.escorts]
    if not hearts:
        return slot
    heart = min(hearts)
    return Slot(slot.card, slot.meaning, Slot(escort.card, Meaning(rank_of(heart), suit_of(heart))))


# ------------------------------------------------------------------------------ groups
def _as_group(
    variant: Variant, slots: tuple[Slot, ...], roles: tuple[bool, ...], reasons: _Reasons
) -> MeldInfo | None:
    naturals = [s.card for s, wild in zip(slots, roles, strict=True) if not wild]
    rank = rank_of(naturals[0])
    if variant.group_max is not None and len(slots) > variant.group_max:
        reasons.add(_SHAPE, f"a group holds at most {variant.group_max} cards in {variant.id}")
        return None
    used = [suit_of(c) for c in naturals]
    if variant.group_distinct_suits and len(set(used)) < len(used):
        reasons.add(_SHAPE, f"a group may not repeat a suit in {variant.id}")
        return None
    wild_index = [i for i, wild in enumerate(roles) if wild]
    options: list[list[int]] = []
    for i in wild_index:
        slot, rule = slots[i], variant.wild_map[slots[i].card]
        meaning = slot.meaning
        if meaning is not None and meaning.rank != rank:
            reasons.add(_MEANING, f"{slot} cannot stand in a group of {rank_str(rank)}s")
            return None
        suits = [s for s in range(4) if make_card(rank, s) in rule.stands_for]
        if meaning is not None and meaning.suit is not None:
            suits = [s for s in suits if s == meaning.suit]
        if not suits:
            reasons.add(_MEANING, f"{card_str(slot.card)} cannot stand for a {rank_str(rank)} here")
            return None
        options.append(suits)
    # Group wilds name a suit only where it matters: escorts, or a suit the player stated.
    keep_suit = variant.escorts is not None
    tried = False
    for choice in _suit_choices(options, used, variant.group_distinct_suits):
        tried = True
        resolved = list(slots)
        problem = None
        for i, slot in enumerate(slots):
            meant: int | None = slot.card
            if roles[i]:
                suit = choice[wild_index.index(i)]
                meant = make_card(rank, suit)
                stated = slot.meaning is not None and slot.meaning.suit is not None
                resolved[i] = Slot(
                    slot.card, Meaning(rank, suit if keep_suit or stated else None), slot.escort
                )
            problem = problem or _escort_problem(variant, slot, meant, roles[i])
            resolved[i] = _resolve_escort(variant, resolved[i])
        if problem is None:
            return MeldInfo("group", tuple(resolved), (rank,) * len(slots), roles, rank=rank)
        reasons.add(_MEANING, problem)
    if not tried:
        reasons.add(_SHAPE, f"its wilds find no free suit left in the group of {rank_str(rank)}s")
    return None


def _suit_choices(options: list[list[int]], used: list[int], distinct: bool) -> Iterator[tuple[int, ...]]:
    """Suit assignments for the group's wilds (all different from each other and the naturals if
    `distinct`)."""
    taken = set(used)
    for choice in product(*options):
        if distinct and (len(set(choice)) < len(choice) or taken.intersection(choice)):
            continue
        yield choice


# ------------------------------------------------------------------------------ runs
def _windows(rule: RunRule, length: int) -> Iterator[list[int]]:
    """Every legal sequence of rank positions of this length, lowest start first."""
    for seq, _ in _window_table(rule, length):
        yield list(seq)


@lru_cache(maxsize=512)
def _window_table(rule: RunRule, length: int) -> tuple[tuple[tuple[int, ...], frozenset[int]], ...]:
    """The legal windows of this length with the ranks (1..13) each covers."""
    return tuple((seq, frozenset(1 if p == 14 else p for p in seq)) for seq in run_positions(rule, length))


def _longest(rule: RunRule) -> int:
    if rule.wrap:
        return 13
    low = 1 if rule.ace_low else 2
    high = 14 if rule.ace_high and rule.max_rank == 13 else rule.max_rank
    return min(13, high - low + 1)


def _as_run(
    variant: Variant,
    slots: tuple[Slot, ...],
    roles: tuple[bool, ...],
    reasons: _Reasons,
    written_only: bool,
) -> MeldInfo | None:
    naturals = [s.card for s, wild in zip(slots, roles, strict=True) if not wild]
    suit = suit_of(naturals[0])
    rule = variant.run_rules[suit]
    ranks = [rank_of(c) for c in naturals]
    # Shape problems are reported by the second (any order) pass, after the group was tried.
    shape = reasons if not written_only else _Reasons()
    if rule is None:
        shape.add(_SHAPE, f"there are no runs of {SUIT_NAMES[suit]} in {variant.id}")
        return None
    if len(set(ranks)) < len(ranks):
        shape.add(_SHAPE, "a run may not repeat a rank")
        return None
    if len(slots) > _longest(rule):
        shape.add(_SHAPE, f"a run of {SUIT_NAMES[suit]} holds at most {_longest(rule)} cards in {variant.id}")
        return None
    escort_reasons = _Reasons()
    fit = _fit_written if written_only else _fit_any
    # only windows that hold every natural's rank (and, as written, the first natural in its place)
    anchor = roles.index(False)
    first = ranks[0]
    for seq, covered in _window_table(rule, len(slots)):
        if not covered.issuperset(ranks):
            continue
        if written_only and seq[anchor] != first and not (first == 1 and seq[anchor] == 14):
            continue
        info = fit(variant, slots, roles, suit, list(seq), escort_reasons)
        if info is not None:
            return info
    if escort_reasons.items:
        reasons.add(_MEANING, escort_reasons.best())
        return None
    if written_only:
        return None
    reasons.add(*_run_reason(variant, rule, slots, roles, suit))
    return None


def _run_reason(
    variant: Variant, rule: RunRule, slots: tuple[Slot, ...], roles: tuple[bool, ...], suit: int
) -> tuple[int, str]:
    ranks = [rank_of(s.card) for s, wild in zip(slots, roles, strict=True) if not wild]
    meant = {s.meaning.rank for s, wild in zip(slots, roles, strict=True) if wild and s.meaning is not None}
    if meant and meant == set(ranks):
        # every card and stated meaning has one rank: it was meant as a group, whose reason tells more
        return _GENERIC, "its cards do not make consecutive ranks of one suit"
    for slot, wild in zip(slots, roles, strict=True):
        meaning = slot.meaning
        if wild and meaning is not None:
            if meaning.suit is not None and meaning.suit != suit:
                return _MEANING, f"{slot} cannot stand in a run of {SUIT_NAMES[suit]}"
            if meaning.rank in ranks:
                return _MEANING, f"{slot} repeats a rank of the run"
            ranks.append(meaning.rank)
    if any(r > rule.max_rank for r in ranks):
        return _SHAPE, f"runs of {SUIT_NAMES[suit]} end at {rank_str(rule.max_rank)} in {variant.id}"
    if 1 in ranks and not rule.ace_high:
        high = [14 if r == 1 else r for r in ranks]
        if max(high) - min(high) < len(slots):  # it would be a run with the ace above the king
            return _SHAPE, f"the ace is low only in {variant.id} runs (A-2-3, not Q-K-A)"
    if 1 in ranks and 13 in ranks and 2 in ranks and not rule.wrap:
        return _SHAPE, f"a run may not wrap around from K to A to 2 in {variant.id}"
    return _SHAPE, "its cards do not make consecutive ranks of one suit"


def _wild_fits(rule: WildRule, slot: Slot, card: int) -> bool:
    if card not in rule.stands_for:
        return False
    meaning = slot.meaning
    if meaning is None:
        return True
    return meaning.rank == rank_of(card) and meaning.suit in (None, suit_of(card))


def _run_info(
    variant: Variant,
    order: list[Slot],
    roles: list[bool],
    suit: int,
    seq: list[int],
    reasons: _Reasons,
) -> MeldInfo | None:
    resolved: list[Slot] = []
    for slot, wild, position in zip(order, roles, seq, strict=True):
        meant = make_card(position, suit)
        if wild:
            slot = Slot(slot.card, Meaning(rank_of(meant), suit), slot.escort)
        problem = _escort_problem(variant, slot, meant, wild)
        if problem is not None:
            reasons.add(_MEANING, problem)
            return None
        resolved.append(_resolve_escort(variant, slot))
    return MeldInfo("run", tuple(resolved), tuple(seq), tuple(roles), suit=suit)


def _fit_written(
    variant: Variant,
    slots: tuple[Slot, ...],
    roles: tuple[bool, ...],
    suit: int,
    seq: list[int],
    reasons: _Reasons,
) -> MeldInfo | None:
    """The run with slot k at window position k, if the written order fits this window."""
    for slot, wild, position in zip(slots, roles, seq, strict=True):
        card = make_card(position, suit)
        if wild:
            if not _wild_fits(variant.wild_map[slot.card], slot, card):
                return None
        elif slot.card != card:
            return None
    return _run_info(variant, list(slots), list(roles), suit, seq, reasons)


def _fit_any(
    variant: Variant,
    slots: tuple[Slot, ...],
    roles: tuple[bool, ...],
    suit: int,
    seq: list[int],
    reasons: _Reasons,
) -> MeldInfo | None:
    """Place naturals at their ranks and match wilds to the free positions (stated ones first,
    then in written order, each to the lowest position it fits)."""
    placed: list[int | None] = [None] * len(seq)
    for i, (slot, wild) in enumerate(zip(slots, roles, strict=True)):
        if wild:
            continue
        rank = rank_of(slot.card)
        spots = [k for k, p in enumerate(seq) if p == rank or (rank == 1 and p == 14)]
        if not spots or placed[spots[0]] is not None:
            return None
        placed[spots[0]] = i
    free = [k for k, v in enumerate(placed) if v is None]
    wild_ids = sorted((i for i, w in enumerate(roles) if w), key=lambda i: slots[i].meaning is None)
    assignment = _match_wilds(variant, slots, wild_ids, free, seq, suit)
    if assignment is None:
        return None
    for i, k in assignment.items():
        placed[k] = i
    order_ids = [i for i in placed if i is not None]
    return _run_info(
        variant, [slots[i] for i in order_ids], [roles[i] for i in order_ids], suit, seq, reasons
    )


def _match_wilds(
    variant: Variant,
    slots: tuple[Slot, ...],
    wild_ids: list[int],
    free: list[int],
    seq: list[int],
    suit: int,
) -> dict[int, int] | None:
    """Assign each wild to a free position it may stand for (backtracking; melds are small)."""
    if not wild_ids:
        return {}
    first, rest = wild_ids[0], wild_ids[1:]
    slot = slots[first]
    rule = variant.wild_map[slot.card]
    for k in free:
        card = make_card(seq[k], suit)
        if _wild_fits(rule, slot, card) and _escort_problem(variant, slot, card, True) is None:
            sub = _match_wilds(variant, slots, rest, [f for f in free if f != k], seq, suit)
            if sub is not None:
                return {first: k, **sub}
    return None


# ------------------------------------------------------------------------------ opening
def opening_problem(variant: Variant, info: MeldInfo) -> str | None:
    """Why this meld may not be (part of) an opening under `variant`, or None if it may.

    Wilds are banned from openings where the variant forbids them (rhine's basic qualifying set,
    rummy-tiles), and rhine's basic rule needs 3 natural cards. Whole-bundle rules (30 points,
    the chart's card counts, hand cards only) are the engine's to check.
    """
    if variant.opening == "none" or info.kind == "royale":
        return None
    if variant.opening_wild_value == "forbidden" and info.wild_count:
        return f"wilds may not be used in an opening meld in {variant.id}: '{info}'"
    if info.naturals < variant.opening_min_naturals:
        return f"an opening meld needs at least {variant.opening_min_naturals} natural cards in {variant.id}: '{info}'"
    return None


def may_open_with(variant: Variant, info: MeldInfo) -> bool:
    """Whether this meld may be (part of) an opening under `variant`."""
    return opening_problem(variant, info) is None


def opening_value(variant: Variant, info: MeldInfo) -> int:
    """Points the meld counts toward a points opening, by the variant's valuation.

    Wilds count as the card they stand for, or 0 where the variant says so; an ace counts as
    the variant's low or high value by its position (1 low, 14 high: after a king, also in a
    wrapped run), and `opening_group_ace` in a group. Where the variant forbids wilds in an
    opening, wilds still count as represented here: `opening_problem` is the check for that.
    """
    total = 0
    for i in range(len(info.slots)):
        if info.as_wild[i] and variant.opening_wild_value == "zero":
            continue
        position = info.positions[i]
        if info.kind == "group" and position == 1:
            total += variant.opening_group_ace
        else:
            total += variant.opening_values[position]
    return total


def card_count(info: MeldInfo) -> int:
    """Cards in the meld, escorts included (Black Heart's opening chart counts these)."""
    count = 0
    for slot in info.slots:
        part: Slot | None = slot
        while part is not None:  # a card, then its escort, and so on
            count += 1
            part = part.escort
    return count


def played_value(variant: Variant, info: MeldInfo) -> int:
    """Score value of the meld's cards on the table (Black Heart's Royale counts its fixed value)."""
    if info.kind == "royale" and variant.royale is not None:
        return variant.royale.value
    return sum(variant.hand_value(c) for c in info.cards)


TableInput = str | Iterable[str | Sequence[Slot] | Sequence[str] | Sequence[int] | MeldInfo]


def read_table(table: TableInput, name: str = "table") -> list[tuple[Slot, ...]]:
    """The melds of a table given as one string (melds separated by ``|``) or as a list of melds,
    each a string, a list of tokens, or a list of card kinds and `Slot`s; `CardError` (or
    `DeckError` for a kind out of range) naming the meld by its number for anything else."""
    if isinstance(table, str):
        parts = table.split("|")
        if table.strip() and not all(part.strip() for part in parts):
            raise CardError(f"empty meld between '|' separators in {table!r}")
        melds: Iterable[object] = [part for part in parts if part.strip()]
    elif isinstance(table, bytes | bytearray | Mapping) or not isinstance(table, Iterable):
        raise CardError(f"the {name} must be a string of melds or a list of melds, got {table!r}")
    else:
        melds = table
    return [_meld_slots(meld, f"{name} meld {k}") for k, meld in enumerate(melds, start=1)]


def _meld_slots(meld: object, label: str) -> tuple[Slot, ...]:
    """One table meld as slots (see `read_table`); `label` names it in errors."""
    if type(meld) is tuple and meld and all(type(x) is Slot for x in meld):  # `Solution.melds`: fast
        return meld
    if isinstance(meld, MeldInfo):
        return meld.slots
    if isinstance(meld, bytes | bytearray | Mapping) or not isinstance(meld, str | Iterable):
        raise CardError(f"{label} must be a string or a list of cards, got {meld!r}")
    items = [meld] if isinstance(meld, str) else list(meld)
    if items and all(isinstance(x, str) for x in items):
        try:
            return parse_meld(" ".join(items))
        except CardError as error:
            raise CardError(f"{label}: {error}") from None
    if not items:
        raise CardError(f"{label} is empty")
    if any(isinstance(x, str) for x in items):
        odd = next(x for x in items if not isinstance(x, str))
        raise CardError(f"{label} mixes card tokens with {odd!r}: write it in one form")
    slots: list[Slot] = []
    for x in items:
        if isinstance(x, Slot):
            slots.append(x)
        elif is_kind(x):
            if not 0 <= int(x) < NUM_KINDS:
                raise DeckError(f"card kind {x} in {label} is out of range 0..52")
            slots.append(Slot(int(x)))
        else:
            raise CardError(f"unknown card {x!r} in {label} (give tokens such as '7H', kinds 0..52 or slots)")
    return tuple(slots)


def analyze_table(variant: Variant, melds: Sequence[Sequence[Slot]], name: str = "table") -> list[MeldInfo]:
    """Each table meld read under `variant`; `MeldError` naming the first invalid one by number."""
    out: list[MeldInfo] = []
    for k, meld in enumerate(melds, start=1):
        try:
            out.append(analyze_meld(variant, meld))
        except MeldError as error:
            raise MeldError(f"{name} meld {k}: {error}") from None
    return out
