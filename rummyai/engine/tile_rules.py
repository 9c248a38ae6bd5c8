"""End-of-turn checks of a tile-style PLAY (docs/rules §1.4-1.5, §2.4-2.5, §3.2-3.5, §8.2).

`check_play` compares the table before the turn with the table the player submits, on card
kinds (§7.1): conservation, meld validity, the opening rule, the per-turn card cap and the
variant's joker rules (`Variant.joker_rules`: Rhine R3-R5b, Tile Rummy's locked joker melds T3-T4,
the official Rummikub joker swap, or free jokers), the latter read on the canonical copy
assignment. Each broken rule comes back as a `Violation` citing its section.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice

from rummyai.cards import Meaning, Slot, card_str
from rummyai.engine.copies import ConservationProblem, canonical_search, check_deadline
from rummyai.engine.moves import Violation
from rummyai.engine.state import TableMeld
from rummyai.errors import MeldError
from rummyai.melds import MeldInfo, analyze_meld, opening_value
from rummyai.memo import memoized
from rummyai.variants import Variant

# Assignments that keep every start meld whole, judged before the canonical copy search (and the
# placements tried to find them): the first nearly always passes where any does.
WHOLE_TRIES = 16
WHOLE_STEPS = 2_000


@dataclass(frozen=True)
class Sections:
    """docs/rules sections cited for each kind of violation in one variant."""

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

    The verdict depends on card kinds only (§7.1): `new_table`'s ids say which kind lies where,
    and the rules that ask where a card came from read the canonical copy assignment
    (`copies.canonical_search`); of tied assignments, the first that passes is the one returned.
    """
    # where a card came from matters to the joker rules, and to an opening that may only add
    # new melds from the hand (§2.4, §3.4, §8.2)
    reads_origins = variant.joker_rules.reads_origins or (not opened and _exclusive(variant))
    if reads_origins:
        # canonical assignments that keep every start meld whole: legal if one passes
        for whole in islice(
            _start_melds_whole(variant.deck, (*table, *opening), hand, new_table), WHOLE_TRIES
        ):
            check = check_assigned(variant, table, hand, whole, opened, opening)
            if check.violation is None:
                return check
    first: PlayCheck | None = None
    order = list(range(len(new_table)))  # the melds as written
    while True:
        found = _assignments(variant, table, hand, new_table, opening, opened, reads_origins, order)
        if isinstance(found, Violation):
            return PlayCheck(found)
        assignments, complete = found
        for n, assigned in enumerate(assignments):
            if n % 16 == 15:
                check_deadline()  # judging a thousand tied assignments takes a while
            check = check_assigned(variant, table, hand, assigned, opened, opening)
            if check.violation is None:
                return check
            first = first or check
        # where the search kept only some of many tied assignments (which ones depends on the
        # melds' order), again in one fixed order, so that a turn this order finds legal is legal
        # however it is written (§7.1)
        fixed = _meld_order(variant.deck, new_table)
        if complete or fixed == order:
            break
        order = fixed
    assert first is not None
    return first


def _meld_order(deck: tuple[int, ...], melds: Sequence[TableMeld]) -> list[int]:
    """The melds' indexes in one order that does not depend on the order they are written in,
    nor on which copies their ids name (`meld_sort_key`)."""
    return sorted(range(len(melds)), key=lambda k: meld_sort_key(melds[k].slots(deck)))


def meld_sort_key(meld: Sequence[Slot]) -> tuple[list[int], list[str]]:
    """A meld's place in the one order the rules' readings use where the written order must not
    matter: by card kinds, then meanings."""
    return [s.card for s in meld], [str(s.meaning or "") for s in meld]


def _start_melds_whole(
    deck: Sequence[int], start: Sequence[TableMeld], hand: Sequence[int], final: Sequence[TableMeld]
) -> Iterator[tuple[TableMeld, ...]]:
    """`final` with every start meld's copies inside one final meld and hand copies in the other
    places, each way found (at most `WHOLE_STEPS` placements tried); none when some start meld
    lies whole in no final meld (or the kinds do not add up).

    Such an assignment keeps every pair of cards that began the turn in one meld, the most any
    can, so it is one of the canonical assignments of §7.1 and the turn is legal if it passes:
    the common turn that lays off and lays down without taking a meld apart is judged without
    the canonical search (the judge's costliest part on large tables). A start meld goes first
    into a final meld where its wilds keep what they stand for, then into one of exactly its
    kinds (one kept as it was), then into any that holds them: with identical copies about, two
    start melds of the same kinds (`JK=4C 5C 6C 7C`, `5C 6C 7C JK=8C`) can each fit where the
    other stays, and only one way round keeps their jokers."""
    start_ids = {i for meld in start for i in meld.ids}  # an opening's cards are placed already
    pool: dict[int, list[int]] = {}
    for i in hand:
        if i not in start_ids:
            pool.setdefault(deck[i], []).append(i)
    free: list[dict[int, int]] = []  # per final meld: card kind -> places not yet given
    holders: dict[int, list[int]] = {}  # card kind -> the final melds holding it, in order
    for m, meld in enumerate(final):
        places: dict[int, int] = {}
        for i in meld.ids:
            places[deck[i]] = places.get(deck[i], 0) + 1
        free.append(places)
        for kind in places:
            holders.setdefault(kind, []).append(m)
    final_kinds = [_kinds(deck, meld) for meld in final]
    start_kinds = [_kinds(deck, meld) for meld in start]
    needs = [tuple(Counter(kinds).items()) for kinds in start_kinds]
    extra = Counter(k for kinds in final_kinds for k in kinds)
    extra.subtract(k for kinds in start_kinds for k in kinds)
    if any(n < 0 or n > len(pool.get(k, ())) for k, n in extra.items()):
        return  # the kinds do not add up: a start card left the table, or the hand lacks copies
    ranks_of: dict[int, Counter[tuple[int, int | None]]] = {}  # final meld -> `_wild_ranks`, as needed
    exact = set(final_kinds)
    order = sorted(range(len(start)), key=lambda u: start_kinds[u] not in exact)
    untouched = [True] * len(final)
    home = [0] * len(start)  # the final meld each start meld lies in

    def choices(u: int) -> list[int]:
        need = needs[u]
        rarest = min(need, key=lambda kn: len(holders.get(kn[0], ())))[0]
        fits = [m for m in holders.get(rarest, ()) if all(free[m].get(k, 0) >= n for k, n in need)]
        if len(fits) < 2:
            return fits
        kinds = start_kinds[u]
        if not any(start[u].meanings):
            return sorted(fits, key=lambda m: not (untouched[m] and final_kinds[m] == kinds))
        ranks = _wild_ranks(deck, start[u])
        for m in fits:
            if m not in ranks_of:
                ranks_of[m] = _wild_ranks(deck, final[m])
        return sorted(
            fits, key=lambda m: (not ranks <= ranks_of[m], not (untouched[m] and final_kinds[m] == kinds))
        )

    if not order:
        yield _with_copies(deck, start, order, home, final, pool)
        return
    # depth-first over the start melds in `order`, each into one of its `choices` in turn
    options: list[list[int]] = [[] for _ in order]
    tried = [0] * len(order)
    placed: list[tuple[int, bool] | None] = [None] * len(order)  # (final meld, its `untouched` before)
    options[0] = choices(order[0])
    depth = steps = 0
    while depth >= 0:
        u = order[depth]
        last = placed[depth]
        if last is not None:  # take the last placement back
            m, was = last
            for k, n in needs[u]:
                free[m][k] += n
            untouched[m] = was
            placed[depth] = None
        if tried[depth] == len(options[depth]):
            depth -= 1
            continue
        steps += 1
        if steps > WHOLE_STEPS:
            return
        m = options[depth][tried[depth]]
        tried[depth] += 1
        for k, n in needs[u]:
            free[m][k] -= n
        placed[depth] = (m, untouched[m])
        untouched[m] = False
        home[u] = m
        if depth + 1 == len(order):
            yield _with_copies(deck, start, order, home, final, pool)
        else:
            depth += 1
            options[depth] = choices(order[depth])
            tried[depth] = 0


def _with_copies(
    deck: Sequence[int],
    start: Sequence[TableMeld],
    order: Sequence[int],
    home: Sequence[int],
    final: Sequence[TableMeld],
    pool: dict[int, list[int]],
) -> tuple[TableMeld, ...]:
    """`final` with each start meld's ids in the first free places of its kinds in its `home`
    meld (start melds in `order`), then the hand's copies (`pool`, per kind) in the places left."""
    free: list[dict[int, list[int]]] = []
    for meld in final:
        places: dict[int, list[int]] = {}
        for p, i in enumerate(meld.ids):
            places.setdefault(deck[i], []).append(p)
        free.append(places)
    ids = [list(meld.ids) for meld in final]
    for u in order:
        m = home[u]
        for i in start[u].ids:
            ids[m][free[m][deck[i]].pop(0)] = i
    left = {kind: list(copies) for kind, copies in pool.items()}
    for m, places in enumerate(free):
        for kind, spots in places.items():
            for p in spots:
                ids[m][p] = left[kind].pop(0)
    return tuple(TableMeld(tuple(x), meld.meanings) for x, meld in zip(ids, final, strict=True))


def _kinds(deck: Sequence[int], meld: TableMeld) -> tuple[int, ...]:
    """A meld's card kinds, sorted: equal for melds of the same cards in any order."""
    return tuple(sorted(deck[i] for i in meld.ids))


def _wild_ranks(deck: Sequence[int], meld: TableMeld) -> Counter[tuple[int, int | None]]:
    """A meld's cards with the rank each stands for: tells `5H 6H JK=7H` from `JK=4H 5H 6H`."""
    return Counter(
        (deck[i], None if m is None else m.rank) for i, m in zip(meld.ids, meld.meanings, strict=True)
    )


def _assignments(
    variant: Variant,
    table: Sequence[TableMeld],
    hand: Sequence[int],
    new_table: Sequence[TableMeld],
    opening: Sequence[TableMeld],
    opened: bool,
    reads_origins: bool,
    order: Sequence[int],
) -> tuple[Sequence[Sequence[TableMeld]], bool] | Violation:
    """The physical new tables to judge: `new_table` itself where no rule reads card origins and its
    ids are a possible assignment, else the canonical assignments of its kinds (on an opened turn
    only the joker rules read origins, so only ties that touch a meld with a wild are kept), the
    melds read in `order` (indexes of `new_table`); and whether these are every assignment to judge."""
    if not reads_origins and _ids_conserved(table, hand, new_table):
        return [new_table], True
    opening_ids = {i for m in opening for i in m.ids}
    start = (*table, *opening)
    rest = tuple(i for i in hand if i not in opening_ids)
    kinds = tuple(tuple(variant.deck[i] for i in m.ids) for m in new_table)
    start, rest, real = _relabelled(variant, start, rest)
    found = _canonical_ids(variant, (start, rest, tuple(kinds[k] for k in order), opened))
    if isinstance(found, ConservationProblem):
        return Violation(sections(variant).conservation, found.reason)
    assignments, complete = found
    place = {k: at for at, k in enumerate(order)}
    tables = [
        tuple(
            TableMeld(tuple(real[i] for i in assigned[place[k]]), m.meanings) for k, m in enumerate(new_table)
        )
        for assigned in assignments
    ]
    return tables, complete


def _relabelled(
    variant: Variant, start: Sequence[TableMeld], hand: Sequence[int]
) -> tuple[tuple[TableMeld, ...], tuple[int, ...], dict[int, int]]:
    """`start` and `hand` with their ids renamed by kind: the n-th copy of a kind met (start melds
    first, then the hand) gets that kind's n-th id, the hand sorted; and the real id of each new
    one. Copies of a kind keep their order, so the canonical search reads them alike and its
    answer maps back exactly, while two calls that differ only in which physical copies they hold
    (the engine's judge of a text table, then the bridge for the game's own cards) share one search."""
    deck = variant.deck
    ids = _ids_by_kind(deck)
    met: dict[int, int] = {}
    real: dict[int, int] = {}

    def renamed(i: int) -> int:
        kind = deck[i]
        n = met.get(kind, 0)
        met[kind] = n + 1
        new = ids[kind][n]
        real[new] = i
        return new

    try:
        melds = tuple(TableMeld(tuple(renamed(i) for i in m.ids), m.meanings) for m in start)
        return melds, tuple(sorted(renamed(i) for i in hand)), real
    except IndexError:  # more copies of a kind than the deck holds: left as they are, for the
        every = [i for m in start for i in m.ids] + list(hand)  # conservation check to name
        return tuple(start), tuple(hand), {i: i for i in every}


@lru_cache(maxsize=16)
def _ids_by_kind(deck: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
    """Each card kind's physical ids, in deck order."""
    ids: dict[int, list[int]] = {}
    for i, kind in enumerate(deck):
        ids.setdefault(kind, []).append(i)
    return {kind: tuple(v) for kind, v in ids.items()}


class _NeverRaised(Exception):
    """`memoized` remembers errors of one type; the canonical assignment raises none."""


CopiesKey = tuple[tuple[TableMeld, ...], tuple[int, ...], tuple[tuple[int, ...], ...], bool]


@memoized("_canonical_copies", _NeverRaised, 20_000)
def _canonical_ids(
    variant: Variant, key: CopiesKey
) -> tuple[list[tuple[tuple[int, ...], ...]], bool] | ConservationProblem:
    """The canonical copy assignments of a final table's kinds (ids per meld), and whether they
    are all of them (`canonical_search`), cached per variant: the judge tries many readings of the
    same cards, and a reading does not change the copies."""
    start, hand, kinds, opened = key
    ids = _ids_by_kind(variant.deck)
    final = [TableMeld(tuple(ids[k][0] for k in meld), (None,) * len(meld)) for meld in kinds]
    found = canonical_search(variant.deck, variant.is_wild, start, hand, final, wild_ties_only=opened)
    if isinstance(found, ConservationProblem):
        return found
    tables, complete = found
    return [tuple(m.ids for m in table) for table in tables], complete


def _ids_conserved(table: Sequence[TableMeld], hand: Sequence[int], new_table: Sequence[TableMeld]) -> bool:
    """Whether `new_table` holds every start id once and otherwise distinct hand ids."""
    ids = [i for m in new_table for i in m.ids]
    seen = set(ids)
    if len(seen) != len(ids):
        return False
    start = {i for m in table for i in m.ids}
    return start <= seen and seen - start <= set(hand)


def check_assigned(
    variant: Variant,
    table: Sequence[TableMeld],
    hand: Sequence[int],
    new_table: Sequence[TableMeld],
    opened: bool,
    opening: Sequence[TableMeld],
) -> PlayCheck:
    """`check_play` on one physical assignment of the new table's copies, taken as it is (the
    tests' exhaustive reading of §7.1 calls it on every assignment)."""
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
        violation = variant.joker_rules.check(variant, start, final, set(played))
        return PlayCheck(violation, new, played) if violation else PlayCheck(None, new, played)
    if _exclusive(variant):
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


def _exclusive(variant: Variant) -> bool:
    """Whether the opening turn may only add new melds from the hand."""
    return variant.opening_turn_exclusive or not variant.manipulation


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
        violation = variant.joker_rules.check(variant, start + qual, final, played_set - q_ids)
        if violation is None:
            return PlayCheck(None, new, played, True, tuple(r.meld for r in qual))
        first = first or violation
    assert first is not None
    return PlayCheck(first)
