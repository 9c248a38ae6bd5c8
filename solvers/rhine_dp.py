"""Rhine's meld program: the best play under Rhine's meld rules, by the compiled search of
`rummyai.solvers.rhine_kernels`, for the table-joker search of `rummyai.solvers.rhine_jokers`.

The program lays the table's cards and any hand cards as Rhine melds (§1.3: runs with the ace low
or high, groups of any size with repeated suits, one wild per meld) without the jokers' history
(R3-R5b): every legal turn's final table is one of its partitions, so its best play bounds the
answer. `Fixed` lays some melds first and adds the joker search's rules (a joker kept in its
rank's groups or laid as a natural of its card, a replacement the play must lay). Passes at falling thresholds find the best play
(`_Search`); jokers are placed where the search wants a stand-in, and the others join melds with
room at the end, table jokers first where they keep their meaning (else a second pass places
every joker itself). The layout keeps start groups whole where the cards allow (`tidy_groups`,
best effort for the fewest-broken tie-break).
"""

from __future__ import annotations

import itertools
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from rummyai.cards import JOKER, Meaning, Slot
from rummyai.solvers.dp_native import rhine_kernels
from rummyai.solvers.position import Position
from rummyai.solvers.run_dp import NoArrangement, _thresholds, _units
from rummyai.variants import RunRule, Variant

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]

SUITS = 4
PLACES = 14  # low ace, 2..K, high ace
CELLS = SUITS * PLACES
MOVES = 5  # as `rhine_kernels.MOVES`
MAX_JOKERS = 7  # the key's three bits
CAP = 1 << 19  # states one search may keep over all layers, else no answer (50k seen on mid-game tables)
HASH = 1 << 18  # the per-layer hash table (a layer of more than half as many states is no answer)


def rhine_dp_rules(rules: Variant) -> bool:
    """Whether the program's encoding covers a variant's melds: Rhine's (jokers the only wilds,
    two copies of a natural at most, seven jokers at most) and no cap on cards per turn."""
    naturals = rules.copies[:JOKER]
    return (
        rules.tile_style
        and len(rules.wilds) == 1
        and rules.wilds[0].card == JOKER
        and rules.run_rules == (RunRule(ace_low=True, ace_high=True),) * SUITS
        and rules.group_max is None
        and not rules.group_distinct_suits
        and rules.max_wilds_per_meld == 1
        and rules.min_meld == 3
        and rules.min_naturals_per_meld <= 2
        and max(naturals) <= 2
        and rules.copies[JOKER] <= MAX_JOKERS
        and rules.escorts is None
        and rules.max_hand_cards_per_turn is None
    )


def rhine_dp_applies(position: Position, max_cards: int | None) -> bool:
    """Whether the program may answer: an opened turn without a cap, under `rhine_dp_rules`."""
    return position.opened and max_cards is None and rhine_dp_rules(position.variant)


class _Buffers(threading.local):
    """The search's arrays, made once per thread."""

    def __init__(self) -> None:
        self.keys = np.zeros(CAP, dtype=np.int64)
        self.scores = np.zeros(CAP, dtype=np.int64)
        self.parents = np.zeros(CAP, dtype=np.int32)
        self.choices = np.zeros(CAP, dtype=np.int32)
        self.bounds = np.zeros(CELLS + 2, dtype=np.int64)
        self.hashed = np.full(HASH, -1, dtype=np.int32)
        self.where = np.zeros(CAP, dtype=np.int32)


_BUFFERS = _Buffers()


@dataclass(frozen=True)
class Fixed:
    """What a joker search fixes before the program lays the rest (`rummyai.solvers.rhine_jokers`):
    melds laid as they are and the card kinds they take from the table and from the hand, hand
    cards the play must lay, and jokers kept in their rank's groups (the rank, and the natural
    the group must hold when only one kind can witness it), and jokers kept in some run, laid as
    naturals of their cards."""

    melds: tuple[tuple[Slot, ...], ...] = ()
    from_table: tuple[int, ...] = ()
    from_hand: tuple[int, ...] = ()
    must_play: tuple[int, ...] = ()
    group_wilds: tuple[int, ...] = ()  # ranks 1..13, one per joker kept in a group
    grouped: tuple[int, ...] = ()  # naturals that must go to their rank's groups
    as_natural: tuple[int, ...] = ()  # table jokers laid as naturals of these cards (kept in a run)


NOTHING_FIXED = Fixed()


Deal = tuple[int, ...]  # per suit, the aces that end runs high


@dataclass
class Relaxed:
    """A relaxed play and, per deal of the whole table's aces (`_table_deals`), a bound on the best
    play's `units` under it."""

    played: list[int]
    melds: list[tuple[Slot, ...]]
    bounds: dict[Deal, int] = field(default_factory=dict)
    states: int = 0  # the states its compiled searches kept


def relaxed_play(
    position: Position,
    objective: str,
    fixed: Fixed = NOTHING_FIXED,
    ceilings: dict[Deal, int] | None = None,
    tidy: bool = False,
    budget: int = 1 << 62,
) -> Relaxed | None:
    """The best play under the meld rules alone, jokers free, with `fixed` laid first; None when
    the states overflow. Raises `Unarranged` when the table's cards left by `fixed` fit no
    melds. `ceilings` bound the play's `units` per deal of the aces (a parent's `bounds` in a
    search that only adds rules): a deal is searched only up to its ceiling. With `tidy` the ties
    between the best plays are broken towards the start table's shape (`_shape`, best effort).
    None too when the searches keep more than `budget` states in all."""

    def counts(cards: Sequence[int]) -> I32:
        return np.bincount(np.array(cards, dtype=np.int64), minlength=JOKER + 1).astype(np.int32)

    on_table = [slot.card for info in position.table for slot in info.slots]
    hand = counts(position.hand) - counts(fixed.from_hand) - counts(fixed.must_play)
    table = counts(on_table) - counts(fixed.from_table) + counts(fixed.must_play) + counts(fixed.as_natural)
    jokers = int(hand[JOKER] + table[JOKER])
    if jokers > MAX_JOKERS or int((hand[:JOKER] + table[:JOKER]).max(initial=0)) > 2:
        return None
    naturals = playable(hand, table)
    search = _Search(
        table,
        naturals,
        _units(position, objective),
        jokers,
        counts(fixed.grouped)[:JOKER],
        np.bincount(np.array(fixed.group_wilds, dtype=np.int64) - 1, minlength=13).astype(np.int32),
        _shape(position) if tidy and position.table else None,
    )
    # the program's scores leave out the fixed hand cards, and the jokers when not `strict`
    offset = units(search.unit, [*fixed.from_hand, *fixed.must_play])
    # `bounds` and `ceilings` are per deal of the whole table (`_table_deals`), the program's
    # own deals per deal of the cards it lays
    aces_laid = _high_aces_laid(fixed.melds)
    first = _high_aces_laid([info.slots for info in position.table])  # the start table's deal
    as_aces = tuple(sum(1 for card in fixed.as_natural if card == suit * 13) for suit in range(SUITS))
    own: dict[Deal, int] | None = None  # `ceilings` per deal of the program's
    if ceilings is not None:
        top = max(ceilings.values())
        own = {}
        for deal in itertools.product(*(range(m + 1) for m in _high_aces(table + naturals).tolist())):
            over = [ceilings[whole] for whole in _table_deals(deal, aces_laid, as_aces) if whole in ceilings]
            own[deal] = max(over) if over else top
    bounds: dict[Deal, int] = {}
    for strict in (False, True):
        shift = offset + (0 if strict else int(hand[JOKER]) * int(search.unit[JOKER]))
        known = None if own is None else {deal: bound - shift for deal, bound in own.items()}
        path = search.best(strict, first, fixed == NOTHING_FIXED, known, budget)
        if path is None:
            return None
        if not strict:
            for deal, bound in search.bounds.items():
                for whole in _table_deals(deal, aces_laid, as_aces):
                    bounds[whole] = max(bounds.get(whole, bound + shift), bound + shift)
        if not path:
            return Relaxed([], [tuple(info.slots) for info in position.table], bounds, search.states)
        melds = _replay(path)
        laid = sum(slot.card == JOKER for meld in melds for slot in meld)
        if strict or not melds or _add_wilds(melds, jokers - laid, _homes(position)):
            kinds = Counter(slot.card for meld in melds for slot in meld)
            played = kinds - _elements(table) + Counter(fixed.must_play) + Counter(fixed.from_hand)
            return Relaxed(sorted(played.elements()), [*fixed.melds, *melds], bounds, search.states)
        # no meld has room for the jokers the search left over: it places every one itself
    return None


def units(unit: I64, cards: Sequence[int]) -> int:
    """The program's score of hand cards played (`run_dp._units`: ordered as `score_key`)."""
    return sum(int(unit[card]) for card in cards)


def _elements(counts: I32) -> Counter[int]:
    """A count per card kind as a multiset."""
    return Counter({card: int(n) for card, n in enumerate(counts.tolist()) if n})


class Unarranged(NoArrangement):
    """The table's cards left by a `Fixed` fit no melds (`states`: what the searches kept)."""

    def __init__(self, states: int) -> None:
        super().__init__("the table's cards have no valid arrangement")
        self.states = states


class _Search:
    """The passes of one position's program, searched once per deal of the aces. With a `shape`
    (`_shape`) the scores are the units weighed by `TIE_WEIGHT` plus the tie-break's points; the
    thresholds and `bounds` count units alone."""

    def __init__(
        self, table: I32, naturals: I32, unit: I64, jokers: int, grouped: I32, wilds: I32, shape: I32 | None
    ) -> None:
        self.table = table
        self.naturals = naturals
        self.unit = unit
        self.jokers = jokers
        self.grouped = grouped
        self.wilds = wilds
        self.weight = 1 if shape is None else TIE_WEIGHT
        self.shape = _NO_SHAPE if shape is None else shape
        after = _after(naturals, unit) * self.weight
        if shape is not None:
            most = shape.sum(axis=1).astype(np.int64)
            after += np.concatenate((np.cumsum(most[::-1])[::-1][1:], [0]))
        self.after = after
        self.bounds: dict[Deal, int] = {}  # per deal, a bound on the best play's units
        self.states = 0

    def best(
        self,
        strict: bool,
        first: Deal,
        valid_table: bool,
        known: dict[Deal, int] | None = None,
        budget: int = CAP,
    ) -> list[int] | None:
        """The choices of the best play, [] for no play; None when the states overflow, or the
        searches kept more than `budget` states in all.

        Passes at falling thresholds (`run_dp._thresholds`): the first pass that finds a play
        finds the best. A pass searches once per way to deal the aces between runs' high ends and
        the rest (`_high_aces`; `first`, the start table's, first), each search at least as high
        as the best found so far and no deal above its bound (`known`, then what the passes
        learn: `bounds`): carried in the states, the aces set aside would multiply them. With
        `valid_table` (the cards on the table are the start table's) no play is found without
        the pass at 0; otherwise that pass finds how the table's cards are laid, and
        `NoArrangement` is raised (`Unarranged`) when they cannot be."""
        buf = _BUFFERS
        search = rhine_kernels()
        weight = self.weight
        unit = self.unit * weight
        have = self.table + self.naturals
        most = _high_aces(have).tolist()
        deals = sorted(
            (
                deal
                for deal in itertools.product(*(range(m + 1) for m in most))
                if sum(_wilds_wanted(have, suit, r) for suit, r in enumerate(deal)) <= self.jokers
            ),
            key=lambda deal: (
                sum(abs(a - min(b, m)) for a, b, m in zip(deal, first, most, strict=True)),
                deal,
            ),
        )
        bonus = int(self.naturals[JOKER]) * int(self.unit[JOKER]) if strict else 0
        thresholds = _thresholds(self.naturals, self.unit, bonus)
        top = thresholds[0]
        bounds = {deal: top for deal in deals}
        if known:
            ceiling = max(known.values())
            for deal in deals:
                bounds[deal] = min(top, known.get(deal, ceiling))
            top = max(bounds.values())
            if 0 <= top < thresholds[0]:
                thresholds = [top, *(t for t in thresholds if t < top)]
        if valid_table and len(thresholds) > 1 and not self.naturals[JOKER]:
            # the start table is valid melds: a play scores at least its cheapest card, and when
            # no pass finds one, playing nothing is best (the pass at 0 would arrange the table)
            cheapest = int(self.unit[:JOKER][self.naturals[:JOKER] > 0].min())
            thresholds[-1:] = [cheapest, -1] if cheapest < thresholds[-2] else [-1]
        self.bounds = bounds
        for threshold in thresholds:
            if threshold < 0:
                return []
            found: list[int] | None = None
            floor = threshold * weight  # in the search's scores
            for deal in deals:
                if (bounds[deal] + 1) * weight <= floor:
                    continue
                if self.states > budget:
                    return None
                best, score = search(
                    self.table,
                    self.naturals,
                    unit,
                    self.jokers,
                    int(self.table[JOKER]),
                    self.after,
                    floor,
                    strict,
                    np.array(deal, dtype=np.int32),
                    self.grouped,
                    self.wilds,
                    self.shape,
                    buf.keys,
                    buf.scores,
                    buf.parents,
                    buf.choices,
                    buf.bounds,
                    buf.hashed,
                    buf.where,
                )
                if score == -2:
                    return None
                self.states += int(buf.bounds[CELLS + 1])
                if best < 0:
                    bounds[deal] = min(bounds[deal], (floor - 1) // weight)
                    continue
                bounds[deal] = int(score) // weight
                found = _path(buf, int(best))
                if bounds[deal] >= top:
                    break  # no play scores more
                floor = int(score) + 1
            if found is not None:
                return found
        raise Unarranged(self.states)


# The tie-break's points per cell are at most 9 (two table copies kept in runs, two in groups,
# two runs going on, two wilds in place and a group's wild), under 512 over the 56 cells: weighing
# the play's units by more keeps the play first.
TIE_WEIGHT = 512
_NO_SHAPE = np.zeros((CELLS, 5), dtype=np.int32)


def _shape(position: Position) -> I32:
    """Per cell, the tie-break's points (`rhine_kernels.rhine_search`): the start table's copies
    in runs and in groups, its runs going on into the cell, its run wilds there, and on a rank's
    last cell its group wilds of that rank."""
    shape = np.zeros((CELLS, 5), dtype=np.int32)
    for info in position.table:
        if info.kind == "run" and info.suit is not None:
            for i, wild in enumerate(info.as_wild):
                cell = (info.positions[i] - 1) * SUITS + info.suit
                shape[cell, 3 if wild else 0] += 1
                if i:
                    shape[cell, 2] += 1
        elif info.rank is not None:
            place = info.rank - 1
            for slot, wild in zip(info.slots, info.as_wild, strict=True):
                if wild:
                    shape[place * SUITS + SUITS - 1, 4] += 1
                else:
                    shape[place * SUITS + slot.card // 13, 1] += 1
    return shape


def _table_deals(deal: Deal, laid: Deal, as_aces: Deal) -> list[Deal]:
    """The deals of the whole table a play with the program's `deal` may have: its fixed melds'
    high aces (`laid`) more, and, per suit, up to as many fewer as the program dealt high of the
    `as_aces` table jokers it lays as aces (a joker to a parent search, not a natural)."""
    ranges = (range(min(n, d) + 1) for n, d in zip(as_aces, deal, strict=True))
    return [
        tuple(d + extra - k for d, extra, k in zip(deal, laid, ks, strict=True))
        for ks in itertools.product(*ranges)
    ]


def _high_aces_laid(melds: Sequence[Sequence[Slot]]) -> Deal:
    """Per suit, the natural aces that end runs of `melds` high (a king, or a wild for one,
    before them)."""
    out = [0] * SUITS
    for meld in melds:
        if len(meld) < 2 or meld[-1].card == JOKER or meld[-1].card % 13:
            continue
        before = meld[-2]
        king = (
            before.meaning.rank == 13 if before.card == JOKER and before.meaning else before.card % 13 == 12
        )
        if king:
            out[meld[-1].card // 13] += 1
    return tuple(out)


def _high_aces(have: I32) -> I32:
    """Per suit, the most aces runs may end high with: each such run holds a queen and a king,
    one of them at most a wild."""
    out = np.zeros(SUITS, dtype=np.int32)
    for suit in range(SUITS):
        ace, queen, king = (int(have[suit * 13 + index]) for index in (0, 11, 12))
        out[suit] = min(ace, queen + king)
    return out


def _wilds_wanted(have: I32, suit: int, runs: int) -> int:
    """The wilds `runs` runs of a suit ending with the high ace need at least: a queen or a king
    for each run the naturals at hand leave without one."""
    queen, king = int(have[suit * 13 + 11]), int(have[suit * 13 + 12])
    return max(0, runs - queen) + max(0, runs - king)


def _add_wilds(
    melds: list[tuple[Slot, ...]], count: int, homes: list[tuple[Meaning | None, set[int]]]
) -> bool:
    """Put `count` more jokers into melds without a wild (a group, or a run with room at an end);
    False when they do not all fit. The table's jokers (`homes`: each one's meaning and its start
    meld's naturals) go first, each where it keeps its meaning beside a natural of its start
    meld if it can (R3 keeps it then), else where it keeps its meaning."""
    for k in range(count):
        home = homes[k] if k < len(homes) else None
        options = [
            (_preference(grown, meld, home), index, grown)
            for index, meld in enumerate(melds)
            for grown in _with_wild(meld)
        ]
        if not options:
            return False
        _, index, grown = min(options, key=lambda option: option[:2])
        melds[index] = grown
    return True


def _preference(
    grown: tuple[Slot, ...], meld: tuple[Slot, ...], home: tuple[Meaning | None, set[int]] | None
) -> int:
    """0 when the joker added to `meld` keeps a table joker's meaning beside a natural of its
    start meld, 1 when it keeps the meaning alone, else 2."""
    if home is None:
        return 2
    meaning, naturals = home
    added = grown[0] if grown[0].card == JOKER else grown[-1]
    if added.meaning != meaning:
        return 2
    return 0 if any(slot.card in naturals for slot in meld) else 1


def _homes(position: Position) -> list[tuple[Meaning | None, set[int]]]:
    """Each table joker's meaning and the naturals of its start meld."""
    return [
        (slot.meaning, {other.card for other in info.slots if other.card != JOKER})
        for info in position.table
        for slot in info.slots
        if slot.card == JOKER
    ]


def _with_wild(meld: tuple[Slot, ...]) -> list[tuple[Slot, ...]]:
    """`meld` (as `_replay` writes it) with a joker more, each way it can take one: none when it
    holds one already or is a run of thirteen."""
    if any(slot.card == JOKER for slot in meld):
        return []
    rank = group_rank(meld)
    if rank is not None:
        return [(*meld, Slot(JOKER, Meaning(rank)))]
    if len(meld) >= 13:
        return []
    suit = meld[0].card // 13
    low = meld[0].card % 13  # its place: a first ace is the low one (place 0)
    high = low + len(meld) - 1
    out = []
    if high < PLACES - 1:
        out.append((*meld, Slot(JOKER, Meaning(place_rank(high + 1), suit))))
    if low > 0:
        out.append((Slot(JOKER, Meaning(place_rank(low - 1), suit)), *meld))
    return out


def playable(hand: I32, table: I32) -> I32:
    """The hand's counts less the naturals that fit no meld even with every card at hand (a group
    of their rank, a run window of three places with one wild at most), dropped until none is left
    to drop: they never play, and the search is smaller without them."""
    hand = hand.copy()
    wild = int(hand[JOKER] + table[JOKER]) > 0
    while True:
        have = hand[:JOKER] + table[:JOKER]
        dropped = False
        for card in np.flatnonzero(hand[:JOKER]).tolist():
            suit, index = divmod(card, 13)
            if _fits(have, suit, index, wild):
                continue
            hand[card] = 0
            dropped = True
        if not dropped:
            return hand


def _fits(have: I32, suit: int, index: int, wild: bool) -> bool:
    """Whether a natural (suit, rank index 0..12) has a meld it could join among `have`."""
    rank_total = int(sum(have[s * 13 + index] for s in range(SUITS)))
    if rank_total >= 3 or (wild and rank_total >= 2):
        return True
    row = [int(have[place_card(suit, p)]) > 0 for p in range(PLACES)]
    places = (0, 13) if index == 0 else (index,)
    for place in places:
        for low in range(max(0, place - 2), min(place, PLACES - 3) + 1):
            missing = 3 - sum(row[low : low + 3])
            if missing == 0 or (wild and missing == 1):
                return True
    return False


def place_rank(place: int) -> int:
    """The rank (1..13) at a place of a suit's row: the ace at both ends."""
    return 1 if place in (0, PLACES - 1) else place + 1


def place_card(suit: int, place: int) -> int:
    """The card kind at a place of a suit's row (the high ace is the ace)."""
    return suit * 13 + place_rank(place) - 1


def _after(naturals: I32, unit: I64) -> I64:
    """Per cell, the most the hand's naturals of the later cells can score (an ace counts at its
    low place, where it is dealt)."""
    per_cell = np.zeros(CELLS, dtype=np.int64)
    for cell in range(CELLS):
        place, suit = divmod(cell, SUITS)
        if place < PLACES - 1:
            card = place_card(suit, place)
            per_cell[cell] = int(naturals[card]) * int(unit[card])
    suffix = np.cumsum(per_cell[::-1])[::-1]
    return np.concatenate((suffix[1:], [0])).astype(np.int64)


def _path(buf: _Buffers, best: int) -> list[int]:
    """The best final state's choice at each cell, first cell first."""
    path = []
    state = best
    for _ in range(CELLS):
        path.append(int(buf.choices[state]))
        state = int(buf.parents[state])
    return path[::-1]


def _code(slot: list[Slot]) -> int:
    """A run in progress as the kernel codes it (length 1, 2 or 3+, whether it holds a wild)."""
    if not slot:
        return 0
    wild = any(s.card == JOKER for s in slot)
    return 2 * (min(len(slot), 3) - 1) + 1 + wild


def _replay(path: list[int]) -> list[tuple[Slot, ...]]:
    """The melds the choices make: runs from the slots' moves, each rank's groups from its naturals
    and wilds (`_groups`)."""
    runs: list[list[list[Slot]]] = [[[], []] for _ in range(SUITS)]
    melds: list[tuple[Slot, ...]] = []
    grouped: list[int] = []
    for cell, choice in enumerate(path):
        place, suit = divmod(cell, SUITS)
        rest, g = divmod(choice, 8)
        rest, _kept_high = divmod(rest, 3)
        moves, k = divmod(rest, 9)
        da, db = divmod(moves, MOVES)
        rank = place_rank(place)
        card = place_card(suit, place)
        slots = runs[suit]
        if _code(slots[0]) < _code(slots[1]):
            slots.reverse()  # the kernel's pair: the higher code first
        for slot, move in zip(slots, (da, db), strict=True):
            if move in (0, 3, 4) and slot:
                melds.append(tuple(slot))
                slot.clear()
            if move in (1, 3):
                slot.append(Slot(card))
            elif move in (2, 4):
                slot.append(Slot(JOKER, Meaning(rank, suit)))
        if place == PLACES - 1:
            melds.extend(tuple(slot) for slot in slots if slot)
            slots[0], slots[1] = [], []
        grouped.extend([card] * k)
        if suit == SUITS - 1 and place < PLACES - 1:
            melds.extend(_groups(grouped, g, rank))
            grouped = []
    return [part for meld in melds for part in _within_length(meld)]


def _groups(cards: list[int], wilds: int, rank: int) -> list[tuple[Slot, ...]]:
    """One rank's naturals and wilds as valid groups: all in one without wilds, else one group per
    wild, two naturals each and the rest in the first."""
    if not cards:
        return []
    naturals = [Slot(card) for card in sorted(cards)]
    if not wilds:
        return [tuple(naturals)]
    joker = Slot(JOKER, Meaning(rank))
    first = len(naturals) - 2 * (wilds - 1)
    out = [(*naturals[:first], joker)]
    out.extend((*naturals[k : k + 2], joker) for k in range(first, len(naturals), 2))
    return out


def _within_length(meld: tuple[Slot, ...]) -> list[tuple[Slot, ...]]:
    """A run from the low ace to the high one (14 cards, the ace twice) as two runs of seven."""
    return [meld[:7], meld[7:]] if len(meld) > 13 else [meld]


def tidy_groups(position: Position, melds: list[tuple[Slot, ...]]) -> list[tuple[Slot, ...]]:
    """`melds` with each rank's groups laid out again to keep start groups whole where the rank's
    naturals and wilds allow: each start group whose cards are there is laid first, then the
    rank's other naturals join the first of them and its other wilds those without one, or, when
    the wilds outnumber them, the rest makes groups of its own."""
    wanted: dict[int, list[Counter[int]]] = {}
    for info in position.table:
        if info.kind == "group" and info.rank is not None:
            wanted.setdefault(info.rank, []).append(Counter(slot.card for slot in info.slots))
    if not wanted:
        return melds
    out: list[tuple[Slot, ...]] = []
    by_rank: dict[int, Counter[int]] = {}
    for meld in melds:
        rank = group_rank(meld)
        if rank in wanted:
            by_rank.setdefault(rank, Counter()).update(slot.card for slot in meld)
        else:
            out.append(meld)
    for rank, pool in by_rank.items():
        groups: list[Counter[int]] = []
        for need in wanted[rank]:
            if not need - pool:
                groups.append(need)
                pool = pool - need
        wilds = pool[JOKER]
        naturals = sorted(card for card in pool.elements() if card != JOKER)
        free = [g for g in groups if not g[JOKER]]
        if groups and wilds <= len(free):  # the rest joins the start groups laid
            groups[0].update(naturals)
            for g in free[:wilds]:
                g[JOKER] += 1
        elif _groups_ok(len(naturals), wilds):  # the rest makes groups of its own
            groups.extend(Counter(slot.card for slot in meld) for meld in _groups(naturals, wilds, rank))
        else:
            return melds
        joker = Slot(JOKER, Meaning(rank))
        out.extend(
            tuple(joker if card == JOKER else Slot(card) for card in sorted(g.elements())) for g in groups
        )
    return out


def _groups_ok(naturals: int, wilds: int) -> bool:
    """Whether naturals and wilds of one rank make valid groups (`rhine_kernels._groups_ok`)."""
    return wilds == 0 if naturals == 0 else naturals >= 2 * wilds and naturals + wilds >= 3


def group_rank(meld: tuple[Slot, ...]) -> int | None:
    """The rank of a group as this module writes it, else None."""
    if any(slot.card == JOKER and (slot.meaning is None or slot.meaning.suit is not None) for slot in meld):
        return None
    ranks = {slot.card % 13 + 1 for slot in meld if slot.card != JOKER}
    return ranks.pop() if len(ranks) == 1 else None
