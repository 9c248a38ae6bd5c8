"""Meld rules: is a list of cards a valid meld under a variant, and what does each wild stand for.

`analyze_meld` returns a `MeldInfo` (group, run or Royale, with every wild's meaning resolved) or
raises `MeldError` naming the reason. Where a wild's meaning is not written and several fit, the
written order is followed if it is a valid run, otherwise the first fitting choice is taken; a
stated meaning is always binding. `opening_value` gives the meld's worth for opening rules.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import product
from typing import Literal

from rummyai.cards import (
    SUITS,
    Meaning,
    Slot,
    card_str,
    make_card,
    parse_meld,
    rank_of,
    rank_str,
    suit_of,
)
from rummyai.errors import MeldError
from rummyai.variants import RunRule, Variant, WildRule

MeldKind = Literal["group", "run", "royale"]
MeldInput = str | Sequence[Slot] | Sequence[int]


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
    """Slots of a meld given as text, slots or plain card kinds."""
    if isinstance(meld, str):
        return parse_meld(meld)
    return tuple(s if isinstance(s, Slot) else Slot(int(s)) for s in meld)


def analyze_meld(variant: Variant, meld: MeldInput) -> MeldInfo:
    """Interpret `meld` under `variant`; raise `MeldError` naming why it is not a valid meld."""
    slots = to_slots(meld)
    cache = _cache(variant)
    hit = cache.get(slots)
    if hit is None:
        try:
            hit = _analyze(variant, slots)
        except MeldError as error:
            hit = error
        if len(cache) > 200_000:
            cache.clear()
        cache[slots] = hit
    if isinstance(hit, MeldError):
        raise MeldError(str(hit))
    return hit


def is_valid_meld(variant: Variant, meld: MeldInput) -> bool:
    """Whether `meld` is a valid meld under `variant`."""
    try:
        analyze_meld(variant, meld)
    except MeldError:
        return False
    return True


def _cache(variant: Variant) -> dict[tuple[Slot, ...], MeldInfo | MeldError]:
    cache = variant.__dict__.get("_meld_cache")
    if cache is None:
        cache = {}
        variant.__dict__["_meld_cache"] = cache
    return cache


def _text(slots: Sequence[Slot]) -> str:
    return " ".join(str(s) for s in slots)


def _analyze(variant: Variant, slots: tuple[Slot, ...]) -> MeldInfo:
    label = _text(slots)
    if len(slots) < variant.min_meld:
        raise MeldError(f"'{label}' has {len(slots)} cards; a meld needs at least {variant.min_meld}")
    for slot in slots:
        _check_slot(variant, slot, label)
    royale = _royale(variant, slots)
    if royale is not None:
        return royale
    choices = [_roles(variant, slot) for slot in slots]
    reasons: list[str] = []
    for roles in product(*choices):
        info = _interpret(variant, slots, roles, reasons)
        if info is not None:
            return info
    reason = reasons[0] if reasons else "it is neither a group nor a run"
    raise MeldError(f"'{label}' is not a valid meld: {reason}")


def _check_slot(variant: Variant, slot: Slot, label: str) -> None:
    if slot.meaning is not None and not variant.is_wild(slot.card):
        mean = slot.meaning
        if mean.rank != rank_of(slot.card) or mean.suit not in (None, suit_of(slot.card)):
            raise MeldError(f"{card_str(slot.card)} is not wild in {variant.id} and cannot mean {mean}")
    if slot.escort is not None:
        if variant.escorts is None:
            raise MeldError(f"escorts ('/') do not exist in {variant.id}: '{label}'")
        if slot.escort.escort is not None:
            raise MeldError(f"an escort cannot carry an escort: '{slot}'")


def _roles(variant: Variant, slot: Slot) -> list[bool]:
    """Whether this slot may play as a wild (True) and/or as itself (False)."""
    rule = variant.wild_map.get(slot.card)
    if rule is None:
        return [False]
    if not rule.plays_itself:
        return [True]
    if slot.meaning is not None:
        itself = slot.meaning.rank == rank_of(slot.card) and slot.meaning.suit in (
            None,
            suit_of(slot.card),
        )
        return [False] if itself else [True]
    return [False, True]


def _royale(variant: Variant, slots: tuple[Slot, ...]) -> MeldInfo | None:
    rule = variant.royale
    if rule is None or sorted(s.card for s in slots) != sorted(rule.cards):
        return None
    if any(s.meaning is not None and s.meaning.card() not in (None, s.card) for s in slots):
        return None
    if any(s.escort is not None for s in slots):
        raise MeldError("the Diamond Royale takes no escorts")
    ordered = tuple(Slot(c) for c in rule.cards)
    return MeldInfo(
        "royale",
        ordered,
        tuple(rank_of(c) for c in rule.cards),
        (False,) * 3,
        suit=suit_of(rule.cards[0]),
    )


def _count_check(variant: Variant, roles: Sequence[bool]) -> str | None:
    wilds = sum(roles)
    naturals = len(roles) - wilds
    if naturals < variant.min_naturals_per_meld:
        return f"a meld needs at least {variant.min_naturals_per_meld} natural card(s)"
    if variant.max_wilds_per_meld is not None and wilds > variant.max_wilds_per_meld:
        return f"at most {variant.max_wilds_per_meld} wild(s) per meld in {variant.id}"
    if variant.wilds_le_naturals and wilds > naturals:
        return "wilds may not outnumber natural cards"
    return None


def _interpret(
    variant: Variant, slots: tuple[Slot, ...], roles: tuple[bool, ...], reasons: list[str]
) -> MeldInfo | None:
    problem = _count_check(variant, roles)
    if problem:
        reasons.append(problem)
        return None
    naturals = [s.card for s, wild in zip(slots, roles, strict=True) if not wild]
    if len({rank_of(c) for c in naturals}) == 1:
        info = _as_group(variant, slots, roles, reasons)
        if info is not None:
            return info
    if len({suit_of(c) for c in naturals}) == 1:
        return _as_run(variant, slots, roles, reasons)
    if len({rank_of(c) for c in naturals}) > 1:
        reasons.append("its natural cards share neither a rank nor a suit")
    return None


# ------------------------------------------------------------------------------ escorts
def _escort_ok(variant: Variant, slot: Slot, meant: int | None) -> str | None:
    """Problem with slot's escort given the card it counts as, or None."""
    rule = variant.escorts
    if rule is None:
        return None
    needs = meant in rule.needs_escort
    if needs and slot.escort is None:
        return f"{card_str(meant or 0)} needs a heart escort (§6.2)"
    if not needs and slot.escort is not None:
        return f"only black court cards take an escort, not {card_str(slot.card)}"
    if slot.escort is not None:
        escort = slot.escort
        wild = variant.wild_map.get(escort.card)
        if escort.card in rule.escorts and (escort.meaning is None or escort.meaning.card() == escort.card):
            return None
        may_be_heart = wild is not None and any(c in rule.escorts for c in wild.stands_for)
        if may_be_heart and (escort.meaning is None or escort.meaning.card() in rule.escorts):
            return None
        return f"escort {escort} is not a heart"
    return None


def _resolve_escort(variant: Variant, slot: Slot) -> Slot:
    """Fill in the heart a wild escort stands for."""
    escort = slot.escort
    if escort is None or escort.meaning is not None or variant.escorts is None:
        return slot
    if escort.card in variant.escorts.escorts:
        return slot
    rule = variant.wild_map[escort.card]
    heart = min(c for c in rule.stands_for if c in variant.escorts.escorts)
    return replace(slot, escort=replace(escort, meaning=Meaning(rank_of(heart), suit_of(heart))))


# ------------------------------------------------------------------------------ groups
def _as_group(
    variant: Variant, slots: tuple[Slot, ...], roles: tuple[bool, ...], reasons: list[str]
) -> MeldInfo | None:
    naturals = [s.card for s, wild in zip(slots, roles, strict=True) if not wild]
    rank = rank_of(naturals[0])
    if variant.group_max is not None and len(slots) > variant.group_max:
        reasons.append(f"a group holds at most {variant.group_max} cards")
        return None
    used = [suit_of(c) for c in naturals]
    if variant.group_distinct_suits and len(set(used)) < len(used):
        reasons.append("a group may not repeat a suit")
        return None
    wild_index = [i for i, wild in enumerate(roles) if wild]
    options: list[list[int]] = []
    for i in wild_index:
        slot, rule = slots[i], variant.wild_map[slots[i].card]
        meaning = slot.meaning
        if meaning is not None and meaning.rank != rank:
            reasons.append(f"{slot} cannot stand in a group of {rank_str(rank)}s")
            return None
        suits = [s for s in range(4) if make_card(rank, s) in rule.stands_for]
        if meaning is not None and meaning.suit is not None:
            suits = [s for s in suits if s == meaning.suit]
        if not suits:
            reasons.append(f"{card_str(slot.card)} cannot stand for a {rank_str(rank)}")
            return None
        options.append(suits)
    for choice in _suit_choices(options, used, variant.group_distinct_suits):
        resolved = list(slots)
        problem = None
        for i, slot in enumerate(slots):
            if roles[i]:
                suit = choice[wild_index.index(i)]
                meant: int | None = make_card(rank, suit)
                keep_suit = variant.escorts is not None or (
                    slot.meaning is not None and slot.meaning.suit is not None
                )
                resolved[i] = replace(slot, meaning=Meaning(rank, suit if keep_suit else None))
            else:
                meant = slot.card
            problem = problem or _escort_ok(variant, slot, meant)
            resolved[i] = _resolve_escort(variant, resolved[i])
        if problem is None:
            return MeldInfo("group", tuple(resolved), (rank,) * len(slots), roles, rank=rank)
        reasons.append(problem)
    if not options or not reasons:
        reasons.append("its wilds have no free suit left in the group")
    return None


def _suit_choices(options: list[list[int]], used: list[int], distinct: bool) -> Iterator[tuple[int, ...]]:
    """Suit assignments for the group's wilds (all different from each other and the naturals if
    `distinct`)."""
    for choice in product(*options):
        if distinct and (len(set(choice)) < len(choice) or set(choice) & set(used)):
            continue
        yield choice


# ------------------------------------------------------------------------------ runs
def _windows(rule: RunRule, length: int) -> Iterator[list[int]]:
    """Every legal sequence of rank positions of this length, lowest start first."""
    if length > 13:
        return
    if rule.wrap:
        for start in range(1, 14):
            seq = [(start - 1 + k) % 13 + 1 for k in range(length)]
            if not rule.ace_high and not rule.ace_low and 1 in seq:
                continue
            # an ace right after a king is the high ace
            yield [14 if r == 1 and k > 0 and seq[k - 1] == 13 else r for k, r in enumerate(seq)]
        return
    low = 1 if rule.ace_low else 2
    high = 14 if rule.ace_high and rule.max_rank == 13 else rule.max_rank
    for start in range(low, high - length + 2):
        yield list(range(start, start + length))


def _as_run(
    variant: Variant, slots: tuple[Slot, ...], roles: tuple[bool, ...], reasons: list[str]
) -> MeldInfo | None:
    naturals = [s.card for s, wild in zip(slots, roles, strict=True) if not wild]
    suit = suit_of(naturals[0])
    rule = variant.run_rules[suit]
    if rule is None:
        reasons.append(f"there are no runs of {SUITS[suit]} in {variant.id}")
        return None
    ranks = [rank_of(c) for c in naturals]
    if len(set(ranks)) < len(ranks):
        reasons.append("a run may not repeat a rank")
        return None
    windows = list(_windows(rule, len(slots)))
    # The written order first: slot k at window position k.
    escort_reasons: list[str] = []
    for seq in windows:
        info = _fit_written(variant, slots, roles, suit, seq, escort_reasons)
        if info is not None:
            return info
    for seq in windows:
        info = _fit_any(variant, slots, roles, suit, seq, escort_reasons)
        if info is not None:
            return info
    reasons.extend(escort_reasons[:1] or [_run_reason(rule, ranks, len(slots))])
    return None


def _run_reason(rule: RunRule, ranks: list[int], length: int) -> str:
    if 1 in ranks and 13 in ranks and not rule.wrap and length < 13:
        return "a run may not wrap around from K to A to 2"
    if 1 in ranks and not rule.ace_high and len(ranks) > 1 and max(ranks) > length:
        return "the ace is low only in this run"
    return "its cards do not make consecutive ranks of one suit"


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
    reasons: list[str],
) -> MeldInfo | None:
    resolved: list[Slot] = []
    for slot, wild, position in zip(order, roles, seq, strict=True):
        meant = make_card(position, suit)
        if wild:
            slot = replace(slot, meaning=Meaning(rank_of(meant), suit))
        problem = _escort_ok(variant, slot, meant)
        if problem is not None:
            reasons.append(problem)
            return None
        resolved.append(_resolve_escort(variant, slot))
    return MeldInfo("run", tuple(resolved), tuple(seq), tuple(roles), suit=suit)


def _fit_written(
    variant: Variant,
    slots: tuple[Slot, ...],
    roles: tuple[bool, ...],
    suit: int,
    seq: list[int],
    reasons: list[str],
) -> MeldInfo | None:
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
    reasons: list[str],
) -> MeldInfo | None:
    """Place naturals at their ranks and match wilds to the free positions (stated ones first)."""
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
    rule = variant.wild_map[slots[first].card]
    for k in free:
        if _wild_fits(rule, slots[first], make_card(seq[k], suit)):
            sub = _match_wilds(variant, slots, rest, [f for f in free if f != k], seq, suit)
            if sub is not None:
                return {first: k, **sub}
    return None


# ------------------------------------------------------------------------------ values
def opening_value(variant: Variant, info: MeldInfo) -> int:
    """Points the meld counts toward a points opening, by the variant's valuation.

    Wilds count as the card they stand for, or 0 where the variant says so; an ace counts as
    the variant's low or high value by its position (groups use `opening_group_ace`).
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
    return len(info.cards)


def played_value(variant: Variant, info: MeldInfo) -> int:
    """Score value of the meld's cards on the table (Black Heart's Royale counts its fixed value)."""
    if info.kind == "royale" and variant.royale is not None:
        return variant.royale.value
    return sum(variant.hand_value(c) for c in info.cards)
