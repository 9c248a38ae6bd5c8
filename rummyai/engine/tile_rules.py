"""End-of-turn checks of a tile-style PLAY (VARIANTS.md §1.4-1.5, §2.4-2.5, §3.2-3.5, §8.2).

`check_play` compares the table before the turn with the table the player submits, card by
physical id: conservation, meld validity, the opening rule, the per-turn card cap and the
variant's joker policy (Rhine R3-R5, Tile Rummy's locked joker melds T3-T4, the official
Rummikub joker swap, or free jokers). Each broken rule comes back as a `Violation` citing its
section.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import islice

from rummyai.cards import SUITS, Meaning, card_str, rank_of, rank_str, suit_of
from rummyai.engine.moves import Violation
from rummyai.engine.state import TableMeld
from rummyai.errors import MeldError
from rummyai.melds import MeldInfo, analyze_meld, opening_value
from rummyai.memo import memoized
from rummyai.variants import Variant

MAX_MATCHINGS = 256


@dataclass(frozen=True)
class Sections:
    """VARIANTS.md sections cited for each kind of violation in one variant."""

    conservation: str
    validity: str
    opening: str
    cap: str


_SECTIONS: dict[str, Sections] = {
    "rhine": Sections("1.5 R1", "1.5 R2", "1.4", "1.2"),
    "rummy-tiles": Sections("2.5 T1", "2.5 T2", "2.4", "2.2"),
    "rummy-board": Sections("3.5", "3.3", "3.4", "3.2"),
    "rummikub": Sections("8.2", "8.2", "8.2", "8.2"),
}
_GENERIC = Sections("0", "0", "0", "0")


def sections(variant: Variant) -> Sections:
    """Sections cited for this variant's violations."""
    return _SECTIONS.get(variant.id, _GENERIC)


@dataclass(frozen=True)
class Resolved:
    """A valid meld with its wilds' meanings filled in, and its natural and wild card ids."""

    meld: TableMeld
    kind: str
    ids: frozenset[int]
    naturals: frozenset[int]
    wild: frozenset[int]
    info: MeldInfo

    def meaning_of(self, card_id: int) -> Meaning | None:
        """Meaning of the wild with this id in this meld."""
        return self.meld.meanings[self.meld.ids.index(card_id)]

    def text(self, deck: Sequence[int]) -> str:
        """Written form of the meld (tokens with meanings)."""
        return meld_text(self.meld, deck)


def meld_text(meld: TableMeld, deck: Sequence[int]) -> str:
    """Tokens of a table meld, wilds with their meanings (``7C JK=8C 9C``)."""
    parts = []
    for i, m in zip(meld.ids, meld.meanings, strict=True):
        parts.append(card_str(deck[i]) + ("" if m is None else f"={m}"))
    return " ".join(parts)


@memoized("_tile_resolve", MeldError, 200_000)
def resolve(variant: Variant, meld: TableMeld) -> Resolved:
    """Interpret a table meld (raises `MeldError`); cached per variant."""
    if len(meld.meanings) != len(meld.ids):
        raise MeldError("a table meld needs one meaning entry (or None) per card")
    deck = variant.deck
    slots = meld.slots(deck)
    info = analyze_meld(variant, slots)
    used = [False] * len(slots)
    ids: list[int] = []
    meanings: list[Meaning | None] = []
    wild: set[int] = set()
    for out, as_wild in zip(info.slots, info.as_wild, strict=True):
        pick = -1
        for k, slot in enumerate(slots):
            if not used[k] and slot.card == out.card and slot.meaning == out.meaning:
                pick = k
                break
        if pick < 0:
            for k, slot in enumerate(slots):
                if not used[k] and slot.card == out.card and slot.meaning is None:
                    pick = k
                    break
        assert pick >= 0, "analyze_meld returned a card that is not in the meld"
        used[pick] = True
        ids.append(meld.ids[pick])
        meanings.append(out.meaning if as_wild else None)
        if as_wild:
            wild.add(meld.ids[pick])
    all_ids = frozenset(ids)
    return Resolved(
        TableMeld(tuple(ids), tuple(meanings)),
        info.kind,
        all_ids,
        all_ids - wild,
        frozenset(wild),
        info,
    )


@dataclass(frozen=True)
class PlayCheck:
    """Outcome of `check_play`: the violation, or the resolved new table and what was played."""

    violation: Violation | None
    table: tuple[TableMeld, ...] = ()
    played: tuple[int, ...] = ()
    opened_now: bool = False
    opening: tuple[TableMeld, ...] = ()


def _bad(rule: str, reason: str) -> PlayCheck:
    return PlayCheck(Violation(rule, reason))


def check_play(
    variant: Variant,
    table: Sequence[TableMeld],
    hand: Sequence[int],
    new_table: Sequence[TableMeld],
    opened: bool,
    opening: Sequence[TableMeld] = (),
) -> PlayCheck:
    """Judge a PLAY that turns `table` into `new_table` with cards from `hand`.

    `opened` says whether the player opened on an earlier turn. For an unopened player in a
    variant whose opening is not exclusive (Rhine), `opening` may name the qualifying melds;
    otherwise they are searched among the new melds made only of hand cards.
    """
    sec = sections(variant)
    deck = variant.deck
    start_ids = {i for m in table for i in m.ids}
    hand_set = set(hand)
    seen: set[int] = set()
    for meld in new_table:
        for i in meld.ids:
            if i in seen:
                return _bad(sec.conservation, f"card {_name(deck, i)} (id {i}) appears twice")
            seen.add(i)
    for i in start_ids - seen:
        return _bad(sec.conservation, f"{_name(deck, i)} was on the table and must stay there")
    played_set = seen - start_ids
    for i in played_set - hand_set:
        return _bad(sec.conservation, f"{_name(deck, i)} (id {i}) is neither on the table nor in the hand")
    played = tuple(i for i in hand if i in played_set)
    if not played:
        return _bad(sec.conservation, "a play must add at least one card from the hand")
    cap = variant.max_hand_cards_per_turn
    if cap is not None and len(played) > cap:
        return _bad(sec.cap, f"{len(played)} hand cards played; at most {cap} per turn")
    final: list[Resolved] = []
    for meld in new_table:
        try:
            final.append(resolve(variant, meld))
        except MeldError as error:
            return _bad(sec.validity, str(error))
    start = [resolve(variant, m) for m in table]
    new = tuple(r.meld for r in final)
    if opened:
        violation = _joker_rules(variant, start, final, set(played))
        return PlayCheck(violation, new, played) if violation else PlayCheck(None, new, played)
    if variant.opening_turn_exclusive or not variant.manipulation:
        violation, melds = _exclusive_opening(variant, start, final, played_set)
        if violation is not None:
            return PlayCheck(violation)
        return PlayCheck(None, new, played, True, melds)
    return _qualify_then_play(variant, start, final, played, opening)


def _name(deck: Sequence[int], card_id: int) -> str:
    return card_str(deck[card_id]) if 0 <= card_id < len(deck) else f"#{card_id}"


# ------------------------------------------------------------------------------ openings
def _opening_total(variant: Variant, melds: Sequence[Resolved]) -> tuple[int, str | None]:
    """Points of the opening melds, or a problem with a wild in them."""
    total = 0
    for r in melds:
        if r.wild and variant.opening_wild_value == "forbidden":
            return 0, f"jokers may not appear in the opening ('{r.text(variant.deck)}')"
        total += opening_value(variant, r.info)
    return total, None


def _exclusive_opening(
    variant: Variant, start: list[Resolved], final: list[Resolved], played: set[int]
) -> tuple[Violation | None, tuple[TableMeld, ...]]:
    """Opening turn where nothing but new melds from hand may be placed (§2.4, §3.4, §8.2)."""
    rule = sections(variant).opening
    deck = variant.deck
    untouched = {r.meld for r in start}
    news: list[Resolved] = []
    for r in final:
        if r.ids & played:
            if not r.ids <= played:
                return (
                    Violation(
                        rule,
                        f"the opening turn allows only new melds from hand; '{r.text(deck)}' uses table cards",
                    ),
                    (),
                )
            news.append(r)
        elif r.meld not in untouched and not _same_meld(r, start):
            return Violation(
                rule, f"nothing on the table may be moved on the opening turn ('{r.text(deck)}')"
            ), ()
    total, problem = _opening_total(variant, news)
    if problem:
        return Violation(rule, problem), ()
    if total < variant.opening_points:
        return (
            Violation(
                rule, f"the opening melds are worth {total}; at least {variant.opening_points} are needed"
            ),
            (),
        )
    return None, tuple(r.meld for r in news)


def _same_meld(r: Resolved, start: list[Resolved]) -> bool:
    """Whether r is a start meld with its cards and meanings unchanged (order aside).

    A group wild means the group's rank (§0): the suit written for it (``JK=7C``) is notation,
    so ``7S 7H JK`` and ``7S 7H JK=7D`` are the same meld.
    """

    def pairs(m: Resolved) -> set[tuple[int, tuple[int, int | None] | None]]:
        keys = [
            None if x is None else (x.rank, None if m.kind == "group" else x.suit) for x in m.meld.meanings
        ]
        return set(zip(m.meld.ids, keys, strict=True))

    mine = pairs(r)
    return any(s.ids == r.ids and s.kind == r.kind and pairs(s) == mine for s in start)


def _qualifies(variant: Variant, melds: Sequence[Resolved]) -> str | None:
    """Problem with these melds as a qualifying play (§1.4, §1.7 variation 1), or None."""
    if not melds:
        return "an unqualified player must first table a qualifying meld from the hand"
    if variant.opening == "natural_meld":
        if len(melds) != 1:
            return "the qualifying play is exactly one meld"
        r = melds[0]
        if r.wild or len(r.naturals) < variant.opening_min_naturals:
            return (
                f"the qualifying meld needs at least {variant.opening_min_naturals} natural cards "
                f"and no wild ('{r.text(variant.deck)}')"
            )
        return None
    total, problem = _opening_total(variant, melds)
    if problem:
        return problem
    if total < variant.opening_points:
        return f"the qualifying melds are worth {total}; at least {variant.opening_points} are needed"
    return None


def _qualify_then_play(
    variant: Variant,
    start: list[Resolved],
    final: list[Resolved],
    played: tuple[int, ...],
    opening: Sequence[TableMeld],
) -> PlayCheck:
    """Rhine: qualify with melds from hand, then the turn continues under R1-R5 (§1.4)."""
    rule = sections(variant).opening
    played_set = set(played)
    new = tuple(r.meld for r in final)
    choices: list[list[Resolved]]
    if opening:
        given: list[Resolved] = []
        used: set[int] = set()
        for meld in opening:
            try:
                r = resolve(variant, meld)
            except MeldError as error:
                return _bad(rule, f"qualifying meld: {error}")
            if not r.ids <= played_set or r.ids & used:
                return _bad(
                    rule, f"the qualifying meld '{r.text(variant.deck)}' must be new, from hand cards"
                )
            used |= r.ids
            given.append(r)
        choices = [given]
    else:
        hand_only = [r for r in final if r.ids <= played_set]
        if variant.opening == "natural_meld":
            choices = [[r] for r in sorted(hand_only, key=lambda r: -len(r.ids))]
        else:
            choices = [hand_only]
        # none qualifies: report the largest meld (one-meld rule) or all of them (points rule)
        fallback = hand_only[:1] if variant.opening == "natural_meld" else hand_only
        choices = [c for c in choices if _qualifies(variant, c) is None] or [fallback]
    first: Violation | None = None
    for qual in choices:
        problem = _qualifies(variant, qual)
        if problem:
            return _bad(rule, problem)
        q_ids = {i for r in qual for i in r.ids}
        violation = _joker_rules(variant, start + qual, final, played_set - q_ids)
        if violation is None:
            return PlayCheck(None, new, played, True, tuple(r.meld for r in qual))
        first = first or violation
    assert first is not None
    return PlayCheck(first)


# ------------------------------------------------------------------------------ jokers
def _joker_rules(
    variant: Variant, start: list[Resolved], final: list[Resolved], played: set[int]
) -> Violation | None:
    policy = variant.joker_policy
    if policy == "rhine":
        return _rhine(variant, start, final, played)
    if policy == "tiles_locked":
        return _tiles(variant, start, final, played)
    if policy == "official":
        return _official(variant, start, final, played)
    return None


def _same_meaning(kind0: str, m0: Meaning | None, kind1: str, m1: Meaning | None) -> bool:
    """A joker keeps its meaning: the same exact card in a run, the same rank in a group."""
    if m0 is None or m1 is None or kind0 != kind1:
        return False
    if kind0 == "group":
        return m0.rank == m1.rank
    return m0.rank == m1.rank and m0.suit == m1.suit


def _stands_for(kind: str, meaning: Meaning, card: int, missing_suits: set[int] | None = None) -> bool:
    """Whether natural `card` has the joker's meaning (a suit missing from the group if given)."""
    if kind == "group":
        if rank_of(card) != meaning.rank:
            return False
        return missing_suits is None or suit_of(card) in missing_suits
    return rank_of(card) == meaning.rank and suit_of(card) == meaning.suit


def _article(text: str) -> str:
    """'a 7S' but 'an 8S', 'an AS' (the message names a card)."""
    return f"an {text}" if text[:1] in ("8", "A") else f"a {text}"


def _wanted(kind: str, meaning: Meaning, missing: set[int] | None = None) -> str:
    """The natural card a joker's replacement must be, in words: the exact card for a run; for a
    group, its rank, in a suit missing from the group where the variant says so."""
    if kind != "group":
        return _article(str(meaning))
    rank = _article(rank_str(meaning.rank))
    if missing is None:
        return rank
    suits = " or ".join(SUITS[s] for s in sorted(missing))
    return f"{rank} of a suit missing from the group ({suits})"


def _locate(final: list[Resolved]) -> dict[int, int]:
    return {i: k for k, r in enumerate(final) for i in r.meld.ids}


def _matchings(options: list[list[int]]) -> Iterator[tuple[int, ...]]:
    """Distinct choices, one per list (bounded)."""

    def rec(k: int, taken: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if k == len(options):
            yield taken
            return
        for c in options[k]:
            if c not in taken:
                yield from rec(k + 1, (*taken, c))

    return islice(rec(0, ()), MAX_MATCHINGS)


def _rhine(
    variant: Variant, start: list[Resolved], final: list[Resolved], played: set[int]
) -> Violation | None:
    """Rhine R3-R5 (§1.5, decisions §1.8)."""
    deck = variant.deck
    where = _locate(final)
    released: list[tuple[int, Resolved]] = []
    for m in start:
        for j in m.wild:
            s = final[where[j]]
            same = j in s.wild and _same_meaning(m.kind, m.meaning_of(j), s.kind, s.meaning_of(j))
            if not (same and s.naturals & m.naturals):
                released.append((j, m))
    options: list[list[int]] = []
    for j, m in released:
        meaning = m.meaning_of(j)
        assert meaning is not None
        cands = [
            n
            for f in final
            if f.naturals & m.naturals
            for n in f.naturals
            if n not in m.ids and _stands_for(m.kind, meaning, deck[n])
        ]
        if not cands:
            return Violation(
                "1.5 R4",
                f"the joker meaning {meaning} in '{m.text(deck)}' changed meaning or left its meld "
                f"without {_wanted(m.kind, meaning)} replacing it next to that meld's cards",
            )
        options.append(cands)
    movers = [j for j in played if j in final[where[j]].wild]
    movers += [j for j, _ in released]
    first: Violation | None = None
    any_matching = False
    for replacement in _matchings(options):
        any_matching = True
        problem = _accompaniment(variant, start, final, where, movers, set(replacement))
        if problem is None:
            return None
        first = first or problem
    if not any_matching:
        return Violation("1.5 R4", "each released joker needs its own replacement card")
    return first


def _accompaniment(
    variant: Variant,
    start: list[Resolved],
    final: list[Resolved],
    where: dict[int, int],
    movers: list[int],
    replacements: set[int],
) -> Violation | None:
    """R5: no moved joker's meld may hold only natural cards of one start meld plus replacements.
    This formal test decides; its plain-words summary ("a joker cannot take a natural's place") is
    read as its usual case, so a joker in a natural's old place is legal once an outside natural joins."""
    for j in movers:
        s = final[where[j]]
        for u in start:
            if s.naturals <= u.naturals | replacements:
                return Violation(
                    "1.5 R5",
                    f"a joker may not simply join an existing meld: '{s.text(variant.deck)}' holds no new "
                    f"natural card beyond '{u.text(variant.deck)}'",
                )
    return None


def _is_new(s: Resolved, start: list[Resolved]) -> bool:
    """A meld that does not contain every card of any start meld."""
    return not any(u.ids <= s.ids for u in start)


def _tiles(
    variant: Variant, start: list[Resolved], final: list[Resolved], played: set[int]
) -> Violation | None:
    """Tile Rummy T3-T4 (§2.5, §2.7): locked joker melds, retrieval with a rack tile."""
    deck = variant.deck
    where = _locate(final)
    retrieved: list[tuple[int, Resolved, list[int]]] = []
    for m in start:
        for j in m.wild:
            s = final[where[j]]
            same = j in s.wild and _same_meaning(m.kind, m.meaning_of(j), s.kind, s.meaning_of(j))
            if same and m.ids <= s.ids:
                continue
            meaning = m.meaning_of(j)
            assert meaning is not None
            missing = {0, 1, 2, 3} - {suit_of(deck[n]) for n in m.naturals}
            cands = [
                n
                for n in played
                if n in final[where[n]].naturals and _stands_for(m.kind, meaning, deck[n], missing)
            ]
            if not cands:
                if same:
                    return Violation(
                        "2.5 T3",
                        f"'{m.text(deck)}' holds a joker: it may not be split or lose tiles unless the "
                        f"joker is replaced by {_wanted(m.kind, meaning, missing)} from the rack",
                    )
                return Violation(
                    "2.5 T4",
                    f"the joker meaning {meaning} in '{m.text(deck)}' may only change meaning or move when "
                    f"{_wanted(m.kind, meaning, missing)} from the rack replaces it",
                )
            if not _is_new(final[where[j]], start):
                return Violation(
                    "2.5 T4",
                    f"a retrieved joker must go into a new meld, not '{final[where[j]].text(deck)}'",
                )
            retrieved.append((j, m, cands))
    if not retrieved:
        return None
    for rs in _matchings([c for _, _, c in retrieved]):
        if all((final[where[j]].ids & played) - {r} for (j, _, _), r in zip(retrieved, rs, strict=True)):
            return None
    j = retrieved[0][0]
    return Violation(
        "2.5 T4",
        f"the meld '{final[where[j]].text(deck)}' of a retrieved joker needs a rack tile besides the replacement",
    )


def _official(
    variant: Variant, start: list[Resolved], final: list[Resolved], played: set[int]
) -> Violation | None:
    """Official Rummikub table jokers (§8.2 option `official_jokers`)."""
    deck = variant.deck
    where = _locate(final)
    taken: list[list[int]] = []
    for m in start:
        for j in m.wild:
            s = final[where[j]]
            same = j in s.wild and _same_meaning(m.kind, m.meaning_of(j), s.kind, s.meaning_of(j))
            if same and s.naturals & m.naturals:
                continue
            meaning = m.meaning_of(j)
            assert meaning is not None
            missing = {0, 1, 2, 3} - {suit_of(deck[n]) for n in m.naturals}
            pool = played if variant.joker_replacement_from == "rack" else set(where) - m.ids
            cands = [
                n
                for n in pool
                if n not in m.ids
                and n in final[where[n]].naturals
                and _stands_for(m.kind, meaning, deck[n], missing)
            ]
            if not cands:
                source = "the rack" if variant.joker_replacement_from == "rack" else "the rack or the table"
                return Violation(
                    "8.2",
                    f"a table joker ({meaning} in '{m.text(deck)}') may only be taken by replacing it with "
                    f"{_wanted(m.kind, meaning, missing)} from {source}",
                )
            if not _is_new(s, start):
                return Violation("8.2", f"a taken joker must go into a new meld, not '{s.text(deck)}'")
            taken.append(cands)
    if taken and next(_matchings(taken), None) is None:
        return Violation("8.2", "each taken joker needs its own replacement tile")
    return None
