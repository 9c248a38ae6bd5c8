"""A warm start for the fast path's universe model: a quick greedy layout of the hand on the table.

`warm_start` starts from the table's melds as they lie and adds hand cards by the usual moves of
a free-joker tile game, repeated until none applies: a hand card takes a joker's place (the
joker then goes elsewhere), extends a run end, completes a group, splits a long run at a copy of
itself; new melds from hand cards, jokers and spare table cards (an end of a run of four or
more, one card of a full group, the middle of a long run) are laid. The result, a `Layout`,
is a complete assignment of `rummyai.solvers.fast`'s universe variables (`hint_values`): every
run window and group set count, every joker allowance, every played count. It is a feasible
answer, so a CP-SAT hint, and when it plays every card `playable_cards` allows, an optimal one
(`is_optimal_alone`): then no search is needed. `Values` reads a layout the way `decode`
reads a solver, so such an answer decodes to melds without CP-SAT.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from rummyai.cards import JOKER, NUM_KINDS, make_card, rank_of, suit_of
from rummyai.errors import RummyError
from rummyai.melds import MeldInfo
from rummyai.playable import playable_cards
from rummyai.runs import position_range
from rummyai.solvers.position import Position
from rummyai.variants import Variant

_MAX_WINDOW = 5  # the universe's run windows are 3..5 cards long


@dataclass(frozen=True)
class Layout:
    """A full new table as the universe model sees it.

    `windows` lists every run window (cards low to high) and group set (cards by suit) in use,
    a joker's place written as the card it stands for; `allowance[c]` is how many jokers stand
    for card kind c; `played` are the hand's card kinds put down (sorted).
    """

    windows: tuple[tuple[int, ...], ...]
    allowance: tuple[int, ...]
    played: tuple[int, ...]


class _Run:
    """A run in the making: suit, first rank position (14 = high ace) and a card per position."""

    __slots__ = ("cells", "first", "suit")

    def __init__(self, suit: int, first: int, cells: list[int]) -> None:
        self.suit = suit
        self.first = first
        self.cells = cells

    @property
    def last(self) -> int:
        """Rank position of the last cell."""
        return self.first + len(self.cells) - 1


class _Group:
    """A group in the making: its rank and, per suit, the natural card or JOKER standing in."""

    __slots__ = ("cells", "rank")

    def __init__(self, rank: int, cells: dict[int, int]) -> None:
        self.rank = rank
        self.cells = cells


def _kind(suit: int, position: int) -> int:
    """Card kind at a run position (14 is the high ace)."""
    return suit * 13 + (position - 1) % 13


@dataclass(frozen=True)
class _Rules:
    """What the greedy needs of the variant: run ranges per suit, group size, the turn's cap."""

    ranges: tuple[tuple[int, int] | None, ...]
    group_max: int
    min_meld: int
    cap: int | None


def _rules(variant: Variant) -> _Rules:
    """The variant's rules as the greedy reads them; a variant outside the fast path is refused."""
    if variant.group_max is None or not variant.group_distinct_suits or variant.joker_policy != "free":
        raise RummyError(
            f"warm start needs free jokers and distinct-suit groups; {variant.id} has other rules"
        )
    if any(w.card != JOKER for w in variant.wilds):
        raise RummyError(f"warm start needs jokers as the only wilds; {variant.id} has others")
    ranges: list[tuple[int, int] | None] = []
    for rule in variant.run_rules:
        if rule is not None and rule.wrap:
            raise RummyError(f"warm start does not handle wrapping runs ({variant.id})")
        ranges.append(None if rule is None else position_range(rule))
    return _Rules(tuple(ranges), variant.group_max, variant.min_meld, variant.max_hand_cards_per_turn)


class _Greedy:
    """The layout being built: the melds, the hand left, jokers waiting for a place."""

    def __init__(self, rules: _Rules, position: Position, swaps: bool, plan: _Plan) -> None:
        self.rules = rules
        self.swaps = swaps
        self.plan = plan
        self.hand = position.hand_counts()
        self.played = [0] * NUM_KINDS
        self.count = 0
        self.pending = 0  # table jokers freed by a swap: they must find a place
        self.runs: list[_Run] = []
        self.groups: list[_Group] = []
        for info in position.table:
            self._take_meld(info)

    # ------------------------------------------------------------ the start table
    def _take_meld(self, info: MeldInfo) -> None:
        cells = [JOKER if wild else slot.card for slot, wild in zip(info.slots, info.as_wild, strict=True)]
        if info.kind == "run":
            assert info.suit is not None
            self.runs.append(_Run(info.suit, info.positions[0], cells))
            return
        assert info.rank is not None
        by_suit = {suit_of(c): c for c in cells if c != JOKER}
        free = [s for s in range(4) if s not in by_suit]
        for _ in range(cells.count(JOKER)):
            by_suit[free.pop(0)] = JOKER
        self.groups.append(_Group(info.rank, by_suit))

    # ------------------------------------------------------------ bookkeeping
    def room(self) -> int:
        """How many more hand cards the turn may play."""
        cap = self.rules.cap
        return 1 << 30 if cap is None else cap - self.count

    def _spend(self, card: int) -> None:
        self.hand[card] -= 1
        self.played[card] += 1
        self.count += 1

    def _positions(self, card: int) -> tuple[int, ...]:
        """Run positions a natural card may take in its suit (the ace low and high)."""
        span = self.rules.ranges[suit_of(card)]
        if span is None:
            return ()
        rank = rank_of(card)
        out = tuple(p for p in ((rank, 14) if rank == 1 else (rank,)) if span[0] <= p <= span[1])
        return out

    # ------------------------------------------------------------ one hand card
    def place(self, card: int) -> bool:
        """Put one natural hand card on the table by a swap, an extension or a split."""
        if self.room() <= 0:
            return False
        done = (
            (self.swaps and self._swap(card))
            or self._extend(card)
            or self._group_add(card)
            or self._split(card)
        )
        if done:
            self._spend(card)
        return done

    def _swap(self, card: int) -> bool:
        """The card takes a joker's place; the joker waits for another place."""
        suit, rank = suit_of(card), rank_of(card)
        for run in self.runs:
            if run.suit != suit:
                continue
            for i, cell in enumerate(run.cells):
                if cell == JOKER and _kind(suit, run.first + i) == card:
                    run.cells[i] = card
                    self.pending += 1
                    return True
        for group in self.groups:
            if (
                group.rank != rank
                or group.cells.get(suit, JOKER) != JOKER
                or JOKER not in group.cells.values()
            ):
                continue
            if suit not in group.cells:
                joker_suit = next(s for s, c in group.cells.items() if c == JOKER)
                del group.cells[joker_suit]
            group.cells[suit] = card
            self.pending += 1
            return True
        return False

    def _extend(self, card: int) -> bool:
        suit = suit_of(card)
        for p in self._positions(card):
            for run in self.runs:
                if run.suit != suit or len(run.cells) >= 13:
                    continue
                if p == run.first - 1:
                    run.cells.insert(0, card)
                    run.first = p
                    return True
                if p == run.last + 1:
                    run.cells.append(card)
                    return True
        return False

    def _group_add(self, card: int) -> bool:
        suit, rank = suit_of(card), rank_of(card)
        for group in self.groups:
            if group.rank == rank and suit not in group.cells and len(group.cells) < self.rules.group_max:
                group.cells[suit] = card
                return True
        return False

    def _split(self, card: int) -> bool:
        """A long run holding the card's position becomes two runs that both hold it."""
        suit, least = suit_of(card), self.rules.min_meld
        for p in self._positions(card):
            for run in self.runs:
                if run.suit == suit and run.first + least - 1 <= p <= run.last - least + 1:
                    cut = p - run.first + 1
                    self.runs.append(_Run(suit, p, [card, *run.cells[cut:]]))
                    del run.cells[cut:]
                    return True
        return False

    def _bridge(self, card: int) -> bool:
        """Extend a run up to the card through a gap of one or two positions, filled from the
        hand, spare cards of other melds or jokers."""
        suit = suit_of(card)
        spares: _Spares | None = None
        for p in self._positions(card):
            for run in self.runs:
                if run.suit != suit or len(run.cells) > 10:
                    continue
                if 2 <= p - run.last <= 3:
                    gap = range(run.last + 1, p)
                elif 2 <= run.first - p <= 3:
                    gap = range(p + 1, run.first)
                else:
                    continue
                spares = spares or self._spare_index()
                needed = tuple(_kind(suit, q) for q in gap)
                sources = self._sources(needed, card, spares, run)
                if sources is not None and len(sources) - self._hand_jokers(sources) <= self.room() - 1:
                    self._fill(run, card, p, sources)
                    return True
        return False

    def _fill(self, run: _Run, card: int, p: int, sources: list[_Source]) -> None:
        """Lay the gap's cards (see `_bridge`) and the card on the run."""
        cells = [self._apply(source) for source in sources]
        if p > run.last:
            run.cells.extend([*cells, card])
        else:
            run.cells[:0] = [card, *cells]
            run.first = p

    @staticmethod
    def _hand_jokers(sources: list[_Source]) -> int:
        return sum(1 for s in sources if s.origin == "joker" and s.from_hand)

    # ------------------------------------------------------------ jokers
    def place_joker(self) -> bool:
        """Put one joker (a waiting table joker first, else a hand joker) at a run end or in a group."""
        spot = self._joker_spot()
        if spot is None:
            return False
        if self.pending:
            self.pending -= 1
        elif self.hand[JOKER] and self.room() > 0:
            self._spend(JOKER)
        else:
            return False
        meld, where = spot
        if isinstance(meld, _Group):
            meld.cells[where] = JOKER
        elif where < meld.first:
            meld.cells.insert(0, JOKER)
            meld.first = where
        else:
            meld.cells.append(JOKER)
        return True

    def _joker_spot(self) -> tuple[_Run | _Group, int] | None:
        for group in self.groups:
            if len(group.cells) < self.rules.group_max:
                return group, next(s for s in range(4) if s not in group.cells)
        for run in self.runs:
            span = self.rules.ranges[run.suit]
            assert span is not None
            if run.last < span[1]:
                return run, run.last + 1
            if run.first > span[0]:
                return run, run.first - 1
        return None

    # ------------------------------------------------------------ new melds
    def hand_melds(self) -> bool:
        """Lay every run and group made of hand cards alone (longest runs first, then groups, or
        groups first as the plan says)."""
        changed = False
        if self.plan.groups_first:
            changed = self._hand_groups()
        for suit, span in enumerate(self.rules.ranges):
            if span is not None:
                while self._hand_run(suit, span):
                    changed = True
        return self._hand_groups() or changed

    def _hand_groups(self) -> bool:
        changed = False
        hand, least = self.hand, self.rules.min_meld
        for rank in range(1, 14):
            while (hand[rank - 1] > 0) + (hand[rank + 12] > 0) + (hand[rank + 25] > 0) + (
                hand[rank + 38] > 0
            ) >= least and self._hand_group(rank):
                changed = True
        return changed

    def _hand_run(self, suit: int, span: tuple[int, int]) -> bool:
        """Lay the longest run of this suit the hand holds alone (at least a meld long)."""
        best_start, best_len = 0, 0
        start, length = span[0], 0
        for p in range(span[0], span[1] + 1):
            if self.hand[_kind(suit, p)] and length < 13 and not (p == 14 and start == 1):
                length += 1
            else:
                start, length = p, 1 if self.hand[_kind(suit, p)] else 0
                if not length:
                    start = p + 1
            if length > best_len:
                best_start, best_len = start, length
        length = min(best_len, self.room())
        if length < self.rules.min_meld:
            return False
        cells = [_kind(suit, p) for p in range(best_start, best_start + length)]
        for c in cells:
            self._spend(c)
        self.runs.append(_Run(suit, best_start, cells))
        return True

    def _hand_group(self, rank: int) -> bool:
        cards = [c for c in range(rank - 1, JOKER, 13) if self.hand[c]]
        cards = cards[: min(self.rules.group_max, self.room())]
        if len(cards) < self.rules.min_meld:
            return False
        for c in cards:
            self._spend(c)
        self.groups.append(_Group(rank, {suit_of(c): c for c in cards}))
        return True

    # ------------------------------------------------------------ new melds with spare cards
    def meld_with(self, card: int) -> bool:
        """A new meld around a hand card, its other cards from the hand, spare table cards or
        jokers: the shape that plays the most hand cards."""
        best = self._best_meld(card, self._spare_index())
        if best is None:
            return False
        self._lay(card, best[1], best[2])
        return True

    def _best_meld(self, card: int, spares: _Spares) -> tuple[tuple[int, int], _Shape, list[_Source]] | None:
        """The best new meld around `card`: (hand cards played, -jokers used), shape, sources."""
        room = self.room()
        if room <= 0 or not self.hand[card]:
            return None
        best: tuple[tuple[int, int], _Shape, list[_Source]] | None = None
        hand = self.hand
        naturals = spares.naturals
        jokers = self.pending + len(spares.jokers) + len(spares.held) + hand[JOKER]
        for shape in _shape_table(self.rules)[card]:
            held = sum(1 for c in shape.others if hand[c])
            if best is not None and 1 + held < best[0][0]:
                continue
            missing = sum(1 for c in shape.others if not hand[c] and c not in naturals)
            if missing > jokers:
                continue
            sources = self._sources(shape.others, card, spares)
            if sources is None:
                continue
            # a hand joker finds a place at the end anyway: it is no gain here; fewer jokers
            # moved keep more for later
            gain = 1 + sum(1 for s in sources if s.origin == "hand")
            jokers = sum(1 for s in sources if s.origin in ("joker", "harvest"))
            if gain + self._hand_jokers(sources) <= room and (best is None or (gain, -jokers) > best[0]):
                best = ((gain, -jokers), shape, sources)
        return best

    def _sources(
        self, needed: tuple[int, ...], card: int, spares: _Spares, exclude: _Run | None = None
    ) -> list[_Source] | None:
        """Where each other card of a shape comes from: the hand first, then a spare table card
        (one per meld), then a joker (waiting, then spare on the table, then from the hand)."""
        out: list[_Source] = []
        hand = self.hand
        taken: list[int] = []
        pending, hand_jokers = self.pending, hand[JOKER]
        used: list[_Run | _Group] = [] if exclude is None else [exclude]
        for c in needed:
            if hand[c] - (c == card) - taken.count(c) > 0:
                taken.append(c)
                out.append(_Source("hand", c))
                continue
            meld = next((m for m in spares.naturals.get(c, ()) if m not in used), None)
            holder = (
                None
                if meld is not None or pending
                else next((m for m in spares.jokers if m not in used), None)
            )
            if meld is not None:
                used.append(meld)
                out.append(_Source("spare", c, meld))
            elif pending:
                pending -= 1
                out.append(_Source("joker", c))
            elif holder is not None:
                used.append(holder)
                out.append(_Source("joker", c, holder))
            elif (harvest := self._harvest(spares, used)) is not None:
                used.extend(harvest[:2])
                out.append(_Source("harvest", c, harvest[0], donor=harvest[1], stands=harvest[2]))
            elif hand_jokers:
                hand_jokers -= 1
                out.append(_Source("joker", c, from_hand=True))
            else:
                return None
        return out

    @staticmethod
    def _harvest(
        spares: _Spares, used: Sequence[_Run | _Group]
    ) -> tuple[_Run | _Group, _Run | _Group, int] | None:
        """A table joker that a spare natural of another meld can replace: its meld, the donor
        meld and the card the joker stands for."""
        for meld, stands in spares.held:
            if meld in used:
                continue
            donor = next(
                (m for m in spares.naturals.get(stands, ()) if m is not meld and m not in used), None
            )
            if donor is not None:
                return meld, donor, stands
        return None

    def _spare_index(self) -> _Spares:
        """Which table melds can give up which natural card, and which can give up a joker."""
        least = self.rules.min_meld
        spares = _Spares({}, [], [])
        for group in self.groups:
            spares.held.extend(
                (group, make_card(group.rank, x)) for x, c in group.cells.items() if c == JOKER
            )
            if len(group.cells) > least:
                for c in group.cells.values():
                    if c == JOKER:
                        spares.jokers.append(group)
                    else:
                        spares.naturals.setdefault(c, []).append(group)
        for run in self.runs:
            cells = run.cells
            spares.held.extend(
                (run, _kind(run.suit, run.first + i)) for i, c in enumerate(cells) if c == JOKER
            )
            if len(cells) <= least:
                continue
            for c in {cells[0], cells[-1], *cells[least : len(cells) - least]}:
                if c == JOKER:
                    spares.jokers.append(run)
                else:
                    spares.naturals.setdefault(c, []).append(run)
        return spares

    @staticmethod
    def _unjoker(meld: _Run | _Group, card: int) -> None:
        """Put the natural `card` where a joker of `meld` stands for it."""
        if isinstance(meld, _Group):
            meld.cells[suit_of(card)] = card
        else:
            meld.cells[
                next(
                    i
                    for i, c in enumerate(meld.cells)
                    if c == JOKER and _kind(meld.suit, meld.first + i) == card
                )
            ] = card

    def _take_joker(self, meld: _Run | _Group) -> None:
        """Take a joker out of a meld that can spare it (see `_spare_index`)."""
        if isinstance(meld, _Group):
            del meld.cells[next(s for s, c in meld.cells.items() if c == JOKER)]
        else:
            self._give(meld, JOKER)

    def _lay(self, card: int, shape: _Shape, sources: list[_Source]) -> None:
        """Lay a new meld: the hand card plus its sources (spares taken out of their melds)."""
        self._spend(card)
        cells = {card: card}
        for source in sources:
            cells[source.card] = self._apply(source)
        if shape.run:
            suit = suit_of(card)
            self.runs.append(
                _Run(
                    suit, shape.key, [cells[_kind(suit, p)] for p in range(shape.key, shape.key + len(cells))]
                )
            )
        else:
            self.groups.append(_Group(shape.key, {suit_of(c): v for c, v in cells.items()}))

    def _apply(self, source: _Source) -> int:
        """Take one card of a new meld from its source; the cell it fills (the card or JOKER)."""
        if source.origin == "hand":
            self._spend(source.card)
            return source.card
        if source.origin == "spare":
            assert source.meld is not None
            self._give(source.meld, source.card)
            return source.card
        if source.origin == "harvest":
            assert source.meld is not None and source.donor is not None
            self._give(source.donor, source.stands)
            self._unjoker(source.meld, source.stands)
        elif source.from_hand:
            self._spend(JOKER)
        elif source.meld is not None:
            self._take_joker(source.meld)
        else:
            self.pending -= 1
        return JOKER

    def _give(self, meld: _Run | _Group, card: int) -> None:
        """Take a copy of `card` (a run's joker too) out of a meld that can spare it (a middle
        card splits a run)."""
        if isinstance(meld, _Group):
            del meld.cells[suit_of(card)]
        elif meld.cells[0] == card:
            del meld.cells[0]
            meld.first += 1
        elif meld.cells[-1] == card:
            meld.cells.pop()
        else:
            least = self.rules.min_meld
            i = meld.cells.index(card, least, len(meld.cells) - least)
            self.runs.append(_Run(meld.suit, meld.first + i + 1, meld.cells[i + 1 :]))
            del meld.cells[i:]

    # ------------------------------------------------------------ the whole greedy
    def run(self) -> bool:
        """Apply the moves until none plays another card; False if a freed joker found no place."""
        changed = True
        if self.plan.melds_first:
            self.hand_melds()
        while changed:
            changed = False
            while self._singles():
                changed = True
            if self.hand_melds() or self._one_meld_with():
                changed = True
            elif not changed:
                while self.pending and self.place_joker():
                    changed = True
        while self.hand[JOKER] and self.place_joker():
            pass
        return self.pending == 0

    def _one_meld_with(self) -> bool:
        """The best new meld around any hand card (then single placements get another turn)."""
        best: tuple[tuple[int, int], _Shape, list[_Source]] | None = None
        chosen = 0
        spares = self._spare_index()
        for card in self.plan.order:
            found = self._best_meld(card, spares) if self.hand[card] else None
            if found is not None and (best is None or found[0] > best[0]):
                best, chosen = found, card
        if best is None:
            return False
        self._lay(chosen, best[1], best[2])
        return True

    def _singles(self) -> bool:
        changed = False
        for card in self.plan.order:
            while self.hand[card] and self.place(card):
                changed = True
        return changed

    def layout(self) -> Layout:
        """The melds as universe windows and group sets, jokers as allowances."""
        windows: list[tuple[int, ...]] = []
        allowance = [0] * NUM_KINDS
        for run in self.runs:
            for lo, size in _chunks(len(run.cells)):
                first = run.first + lo
                window = tuple(_kind(run.suit, first + i) for i in range(size))
                windows.append(window)
                for i in range(size):
                    if run.cells[lo + i] == JOKER:
                        allowance[window[i]] += 1
        for group in self.groups:
            cards = tuple(make_card(group.rank, s) for s in sorted(group.cells))
            windows.append(cards)
            for s, c in group.cells.items():
                if c == JOKER:
                    allowance[make_card(group.rank, s)] += 1
        played = tuple(c for c in range(NUM_KINDS) for _ in range(self.played[c]))
        return Layout(tuple(windows), tuple(allowance), played)


@dataclass(frozen=True)
class _Plan:
    """One way to run the greedy: the order hand cards are tried in, and whether melds made of
    hand cards alone go down before single cards are placed."""

    order: tuple[int, ...]
    melds_first: bool
    groups_first: bool = False


PLANS = (
    _Plan(tuple(range(JOKER)), True, groups_first=True),
    _Plan(tuple(range(JOKER - 1, -1, -1)), False),
    _Plan(tuple(range(JOKER - 1, -1, -1)), True, groups_first=True),
)


@dataclass(frozen=True)
class _Shape:
    """A new 3-card meld: a run from position `key` (run) or a group of rank `key`; `others` are
    its cards besides the hand card it is built around."""

    run: bool
    key: int
    others: tuple[int, ...]


@dataclass(frozen=True)
class _Source:
    """Where one card of a new meld comes from: "hand", "spare" (out of `meld`), "joker" (a hand
    joker, a waiting one, or one out of `meld`) or "harvest" (the joker of `meld`, replaced by
    a natural from `donor`)."""

    origin: str
    card: int
    meld: _Run | _Group | None = None
    from_hand: bool = False
    donor: _Run | _Group | None = None  # "harvest": the meld whose natural replaces the joker
    stands: int = -1  # "harvest": the card the joker stood for in `meld`


@dataclass
class _Spares:
    """Table melds that can give up a card and stay valid: by natural card kind, and those that
    can give up a joker (a run end, a full group); and every table joker (one a spare natural
    could replace)."""

    naturals: dict[int, list[_Run | _Group]]
    jokers: list[_Run | _Group]
    held: list[tuple[_Run | _Group, int]]  # every table joker: its meld, the card it stands for


@lru_cache(maxsize=16)
def _shape_table(rules: _Rules) -> tuple[tuple[_Shape, ...], ...]:
    """Per natural card kind, the new melds that could be built around it: runs of 3 and 4 through
    it (one per start position) and groups of its rank (every 3 suits, then all 4)."""
    table: list[tuple[_Shape, ...]] = []
    least = rules.min_meld
    for card in range(JOKER):
        suit, rank = suit_of(card), rank_of(card)
        shapes: list[_Shape] = []
        span = rules.ranges[suit]
        if span is not None:
            for p in (q for q in ((rank, 14) if rank == 1 else (rank,)) if span[0] <= q <= span[1]):
                for size in (least, least + 1):
                    for lo in range(max(p - size + 1, span[0]), min(p, span[1] - size + 1) + 1):
                        others = tuple(_kind(suit, q) for q in range(lo, lo + size) if q != p)
                        shapes.append(_Shape(True, lo, others))
        rivals = tuple(make_card(rank, s) for s in range(4) if s != suit)
        shapes.extend(_Shape(False, rank, pair) for pair in combinations(rivals, least - 1))
        if rules.group_max > least:
            shapes.append(_Shape(False, rank, rivals))
        table.append(tuple(shapes))
    return tuple(table)


def _chunks(length: int) -> list[tuple[int, int]]:
    """Split a run of `length` cells into windows of 3..5: (offset, size) pairs."""
    parts = -(-length // _MAX_WINDOW)
    base, extra = divmod(length, parts)
    out: list[tuple[int, int]] = []
    offset = 0
    for i in range(parts):
        size = base + (i < extra)
        out.append((offset, size))
        offset += size
    return out


# ---------------------------------------------------------------- public functions
def warm_start(position: Position, plans: int = 1) -> Layout:
    """A feasible layout of the hand on the table (opened, free jokers), found greedily: the
    best (cards, then points) of the first `plans` (1..3) card orders in `PLANS`, stopping at
    the first that plays every playable card.

    Joker swaps are tried first; should a freed joker then find no place, the greedy runs again
    without swaps (the table as it lies is always a valid start).
    """
    if not 1 <= plans <= len(PLANS):
        raise RummyError(f"plans must be 1..{len(PLANS)}, got {plans}")
    if not position.opened:
        raise RummyError("warm start is for opened turns only (an opening turn may not rearrange)")
    rules = _rules(position.variant)
    best: Layout | None = None
    best_key = (-1, -1)
    values = position.variant.hand_values
    playable: tuple[int, ...] = ()
    if plans > 1:
        table = [c for info in position.table for c in info.cards]
        playable = playable_cards(position.variant, position.hand, table, True)
    for plan in PLANS[:plans]:
        greedy = _Greedy(rules, position, True, plan)
        if not greedy.run():
            greedy = _Greedy(rules, position, False, plan)
            greedy.run()
        layout = greedy.layout()
        key = (len(layout.played), sum(values[c] for c in layout.played))
        if key > best_key:
            best, best_key = layout, key
        if layout.played == playable:
            break
    assert best is not None
    return best


def is_optimal_alone(position: Position, layout: Layout) -> bool:
    """Whether the layout plays every card `playable_cards` allows: then no play has more cards
    or more points, and no search is needed."""
    table = [c for info in position.table for c in info.cards]
    return layout.played == playable_cards(position.variant, position.hand, table, True)


def hint_values(
    layout: Layout,
    templates: Mapping[tuple[int, ...], int],
    allowance: Mapping[int, int],
    played: Mapping[int, int],
    size: int,
) -> list[int]:
    """The value of each of the universe's `size` variables (proto index order): window and
    group set counts by their cards (`templates`), joker allowances and played counts by card
    kind; everything else 0."""
    values = [0] * size
    for window in layout.windows:
        index = templates.get(window)
        if index is None:
            raise RummyError(f"warm start window {window} is not a template of the model")
        values[index] += 1
    for card, count in enumerate(layout.allowance):
        if count:
            values[allowance[card]] = count
    for card in layout.played:
        values[played[card]] += 1
    return values


class Values:
    """Reads variable values from a list (proto index order), the way `decode` reads a solver."""

    def __init__(self, values: Sequence[int]) -> None:
        self.values = values

    def value(self, var: object) -> int:
        """The value of a CP-SAT variable (anything with a proto `index`)."""
        return self.values[var.index]  # type: ignore[attr-defined]
