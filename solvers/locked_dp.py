"""Tile Rummy's opened turns (rules 2.5 T1-T4) by the compiled dynamic program, proven optimal.

Every table joker sits in a meld M with no other joker (T2). In a legal play each such joker is
either *locked*, M whole inside one new meld with the joker's meaning unchanged (T3), or
*taken*, which T4 (b) allows only when the hand holds a natural with the joker's meaning. A
locked M ends as M plus naturals (no second joker may join it): up to two at each end of a run
(three or more form a run of their own beside M) or one of the suits a three-card group lacks.
So every legal play is a play of one *combination* (a choice per joker meld) where the locked
melds' added naturals are spent and the program solves the rest, with each taken joker and its
meld's cards relaxed to free table cards. The best combination's score bounds the answer.

A best-first branch-and-bound over the joker melds finds it with few programs: a node fixes the
choices of the first melds and relaxes the others as taken, which bounds every choice for them.
A complete combination's play (or a partial one's, when it happens to keep every joker meld)
is the answer when it is legal: by its shape when every joker meld lies whole in a new meld of
one joker and no other start meld holds a copy of its naturals (the copy reading of §7.1 cannot
differ then, see `_legal`), else by the engine's judge. When no play at the bound passes, the
refused plays are tried with one joker laid elsewhere (the relaxation may put a taken joker
into a start meld, or two jokers into one meld); when none of those passes either,
`solve_locked_dp` returns None and the CP-SAT model answers.

The primary objective is proven; ties are broken towards the start table's shape by the
program and its layout (best effort, as on the free-joker fast path).
"""

from __future__ import annotations

import heapq
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from rummyai.cards import JOKER, Meaning, Slot
from rummyai.melds import MeldInfo, is_valid_meld
from rummyai.solvers.candidate_search import twin
from rummyai.solvers.check import judged_legal
from rummyai.solvers.fast import fast_path_ok
from rummyai.solvers.position import Position, Solution, count_broken, proven_solution, score_key
from rummyai.solvers.run_dp import NoArrangement, dp_supported, solve_dp_spent, warm
from rummyai.variants import Variant

SUITS = 4
RANKS = 13
EXTENSION = 2  # naturals a locked run may gain at one end (three more make a run of their own)
JOKER_MOVES = 8  # tables judged with one joker moved, per play at the bound the rules refused
REFUSED_TRIED = 2  # refused plays at the bound tried with a joker laid elsewhere


@dataclass(frozen=True)
class _Choice:
    """What happens to one joker meld: locked with `added` naturals into `final`, or taken."""

    taken: bool
    added: tuple[int, ...] = ()
    final: tuple[Slot, ...] = ()


def locked_dp_rules(rules: Variant) -> bool:
    """Whether a variant's opened turns are `solve_locked_dp`'s: Tile Rummy's locked joker melds
    (one joker per meld, hand jokers join freely), no cap on cards per turn, tile-style."""
    jokers = rules.joker_rules
    return (
        rules.tile_style
        and jokers.locked_melds
        and jokers.hand_joker_joins
        and not jokers.accompaniment
        and not jokers.replacement_takes
        and rules.max_wilds_per_meld == 1
        and rules.max_hand_cards_per_turn is None
    )


def locked_dp_applies(position: Position, max_cards: int | None) -> bool:
    """Whether `solve_locked_dp` may answer: an opened turn without a cap under `locked_dp_rules`,
    the rest in the program's encoding."""
    rules = position.variant
    if not (position.opened and max_cards is None and locked_dp_rules(rules)):
        return False
    free = twin(rules, joker_rules=False)
    return dp_supported(free) and fast_path_ok(Position(free, position.hand, (), True), None)


def solve_locked_dp(
    position: Position, objective: str, minimize_changes: bool = True, deadline: float | None = None
) -> Solution | None:
    """The best play of a position `locked_dp_applies` to, proven optimal; None when the program
    cannot prove one, or `deadline` (a `time.perf_counter` instant) passes first: the caller's
    CP-SAT model answers then."""
    start = time.perf_counter()
    free = twin(position.variant, joker_rules=False)
    warm(free)
    found = _search(position, free, objective, minimize_changes, deadline)
    return None if found is None else proven_solution(position, objective, found[0], found[1], start)


_Play = tuple[list[int], list[tuple[Slot, ...]]]


def _search(
    position: Position, free: Variant, objective: str, tidy: bool, deadline: float | None = None
) -> _Play | None:
    """Best-first branch-and-bound over the joker melds' choices (see the module's docstring),
    without the tie-break; the combination found is solved once more with it (`tidy`)."""
    jokered = [k for k, info in enumerate(position.table) if info.wild_count]
    if any(position.table[k].wild_count > 1 for k in jokered):
        return None  # not a Tile Rummy table (T2)
    rest = tuple(info for k, info in enumerate(position.table) if k not in jokered)
    locked = [position.table[k] for k in jokered]
    hand = Counter(position.hand)
    rest_cards = Counter(c for info in rest for c in info.cards)
    every = hand + Counter(c for info in position.table for c in info.cards)
    choices = [_choices(position.table[k], hand, every) for k in jokered]
    taken_all = tuple(_Choice(True) for _ in jokered)

    def solve(combo: tuple[_Choice, ...], tidy: bool = False) -> tuple[tuple[int, int], _Play] | None:
        """The combination's best (score, play), the melds after `combo` relaxed as taken; None
        when its locked melds want more copies than the hand and the unlocked table hold, or
        leave table cards that fit no melds."""
        table, spare, extra = Counter(rest_cards), Counter(hand), []
        fixed: list[tuple[Slot, ...]] = []
        full = combo + taken_all[len(combo) :]
        for k, choice in zip(jokered, full, strict=True):
            if choice.taken:  # its cards are free table cards, a locked meld's additions too
                table.update(position.table[k].cards)
        for choice in full:
            if choice.taken:
                continue
            fixed.append(choice.final)
            for card in choice.added:  # a table copy first: it must be placed anyway
                if table[card]:
                    table[card] -= 1
                elif spare[card]:
                    spare[card] -= 1
                    extra.append(card)
                else:
                    return None  # the copies left are in locked melds or wanted twice
        sub = Position(free, tuple(sorted(spare.elements())), rest, True)
        try:
            found = solve_dp_spent(sub, sorted(table.elements()), objective, tidy)
        except NoArrangement:
            return None
        if found is None:
            raise _Overflow
        played = sorted(found[0] + extra)
        return score_key(position, objective, played), (played, found[1] + fixed)

    # heap rows: (-score, -melds chosen, jokers taken, not yet solved, order, combo, play). A
    # child is pushed with its parent's score, which bounds it, and solved when it comes first;
    # a child taking its meld's joker is its parent's problem again (the parent relaxed it so),
    # and a child locking the meld as the parent's play already does has that play's score.
    # Full combinations come before partial ones of the same score, then those taking fewer.
    heap: list[tuple[tuple[int, int], int, int, int, int, tuple[_Choice, ...], _Play | None]] = []
    try:
        root = solve(())
        if root is None:
            return None
        if not root[1][0]:  # no play even with every joker taken: none under the joker rules
            return [], [tuple(info.slots) for info in position.table]
        heap.append((_neg(root[0]), 0, len(jokered), 0, 0, (), root[1]))
        order = 0
        bound: tuple[int, int] | None = None  # the first full combination's score: no play beats it
        refused: list[_Play] = []  # the full combinations' plays at the bound the rules refused
        while heap:
            if deadline is not None and time.perf_counter() > deadline:
                return None
            score, depth, takes, _, _, combo, play = heapq.heappop(heap)
            if bound is not None and score != bound:
                # every play at the bound broke the joker rules: one with a joker laid elsewhere
                return _joker_moved(position, locked, refused, deadline)
            if play is None:
                found = solve(combo)
                if found is not None:
                    order += 1
                    heapq.heappush(heap, (_neg(found[0]), depth, takes, 0, order, combo, found[1]))
                continue
            full = -depth == len(jokered)
            if full or kept_whole(locked, play[1]):  # a relaxed play may keep every joker meld
                chosen = _settle(position, locked, play, tidy, partial(solve, combo, True), deadline)
                if chosen is not None:
                    return chosen
                if full:
                    bound = score
                    refused.append(play)
                    continue
            here = choices[-depth]
            seen = _observed(locked[-depth], here, play[1])
            for choice in here:
                order += 1
                child = (*combo, choice)
                taken = sum(c.taken for c in child) + len(jokered) - len(child)
                known = play if choice.taken or choice is seen else None
                heapq.heappush(heap, (score, depth - 1, taken, known is None, order, child, known))
    except _Overflow:
        return None
    return _joker_moved(position, locked, refused, deadline)


def _settle(
    position: Position,
    locked: list[MeldInfo],
    play: _Play,
    tidy: bool,
    tidied: Callable[[], tuple[tuple[int, int], _Play] | None],
    deadline: float | None = None,
) -> _Play | None:
    """The legal play at the bound: the program's play or the same cards laid out with the
    tie-break (`tidied`), the latter first when `tidy` asks for it, and tried when the judge
    refuses the former (its layout passes more often where a joker is taken); None when neither
    is legal."""
    if not play[0]:
        return play
    tidy = tidy and count_broken(position, play[1]) > 0  # no start meld broken: nothing to tidy
    whole = _legal(position, locked, play, judge=False)
    if not tidy and (whole or _legal(position, locked, play, deadline=deadline)):
        return play
    try:
        found = tidied()
    except _Overflow:  # the tie-break's states overflowed
        found = None
    # the judge is asked about the tidied layout only when the program's play needs it too
    same = found is not None and sorted(found[1][0]) == sorted(play[0])
    if found is not None and same and _legal(position, locked, found[1], judge=not whole, deadline=deadline):
        return found[1]
    return play if tidy and (whole or _legal(position, locked, play, deadline=deadline)) else None


def _joker_moved(
    position: Position, locked: list[MeldInfo], refused: list[_Play], deadline: float | None = None
) -> _Play | None:
    """One of the `refused` plays (the first `REFUSED_TRIED`) with the same cards and one joker
    laid elsewhere, the first such table the judge accepts (at most `JOKER_MOVES` judged per
    play, those whose joker meld holds a played card first); None if none.

    The relaxation places a taken or hand joker anywhere, and many plays it finds at the bound
    are refused for that joker alone: two jokers in one meld (T2), or a retrieved joker added to
    an old meld or laid without a rack tile beside its replacement (T4 c-d). The same cards with
    the joker's run split around it, or the joker moved to another meld's end, often make a
    legal play, which is then proven best (it scores the bound)."""
    for play in refused[:REFUSED_TRIED]:
        moved = one_joker_moved(
            position, play, partial(_legal, position, locked, deadline=deadline), deadline
        )
        if moved is not None:
            return moved
    return None


def one_joker_moved(
    position: Position, play: _Play, legal: Callable[[_Play], bool], deadline: float | None
) -> _Play | None:
    """`_joker_moved` for one refused play, `legal` saying which tables pass (also used by
    official Rummikub's program, `rummyai.solvers.official_dp`)."""
    played, melds = play
    hand_kinds = set(played) - {JOKER}
    options: list[tuple[bool, int, list[tuple[Slot, ...]]]] = []
    for k, meld in enumerate(melds):
        for i, slot in enumerate(meld):
            if slot.card != JOKER:
                continue
            others = [*melds[:k], *melds[k + 1 :]]
            for cut in range(3, len(meld) - 2):  # a long run split in two: the joker's part is new
                left, right = meld[:cut], meld[cut:]
                if _valid(position, left, right):
                    own = right if cut <= i else left
                    options.append((not _holds(own, hand_kinds), 0, [*others, left, right]))
            rest = meld[:i] + meld[i + 1 :]
            if not _valid(position, rest):
                continue
            for m, other in enumerate(melds):
                if m == k or any(s.card == JOKER for s in other):
                    continue
                for placed in _joker_places(other):
                    if _valid(position, placed):
                        table = list(melds)
                        table[k], table[m] = rest, placed
                        options.append((not _holds(placed, hand_kinds), 1, table))
    options.sort(key=lambda option: option[:2])
    for _, _, table in options[:JOKER_MOVES]:
        if deadline is not None and time.perf_counter() > deadline:
            return None
        if legal((played, table)):
            return played, table
    return None


def _valid(position: Position, *melds: tuple[Slot, ...]) -> bool:
    return all(is_valid_meld(position.variant, meld) for meld in melds)


def _holds(meld: tuple[Slot, ...], kinds: set[int]) -> bool:
    """Whether a meld holds a card of one of these kinds."""
    return any(s.card in kinds for s in meld)


def _joker_places(meld: tuple[Slot, ...]) -> list[tuple[Slot, ...]]:
    """A meld of naturals with a joker added at each place it could take: either end of a run,
    or the rank of a group."""
    if not is_run(meld):
        return [(*meld, Slot(JOKER, Meaning(meld[0].card % RANKS + 1)))]
    suit = meld[0].card // RANKS
    low, high = meld[0].card % RANKS + 1, meld[-1].card % RANKS + 1
    out = []
    if high < RANKS:
        out.append((*meld, Slot(JOKER, Meaning(high + 1, suit))))
    if low > 1:
        out.append((Slot(JOKER, Meaning(low - 1, suit)), *meld))
    return out


class _Overflow(Exception):
    """The program's states overflowed its buffers: the CP-SAT model answers."""


def _neg(score: tuple[int, int]) -> tuple[int, int]:
    return (-score[0], -score[1])


def _legal(
    position: Position, locked: list[MeldInfo], play: _Play, judge: bool = True, deadline: float | None = None
) -> bool:
    """Whether a play is legal: no meld with two jokers (T2), and every joker meld kept whole
    with its joker's meaning (T3, nothing taken) where no other start meld holds a copy of its
    naturals; else (with `judge`) the engine's judge says.

    Rules 2.5 T3-T4 read the turn on the copy assignment that keeps the most start pairs
    together (§7.1). A joker meld whose naturals have no second copy on the start table is read
    as staying whole: a hand copy began in no meld and keeps no pair, and its own joker keeps a
    pair with each of its naturals, more than any other joker could. A second copy in another
    start meld may be read into the new meld instead (with that meld's other cards), so there
    the judge decides."""
    played, melds = play
    if not played:
        return True  # no play: the start table stands
    if any(sum(s.card == JOKER for s in meld) > 1 for meld in melds):
        return False
    if kept_whole(locked, melds) and single_copies(position, locked):
        return True
    return judge and judged_legal(position, melds, deadline)


def single_copies(position: Position, locked: list[MeldInfo]) -> bool:
    """Whether the start table holds one copy only of each natural of the joker melds."""
    counts = position.table_counts()
    return all(counts[s.card] == 1 for info in locked for s in info.slots if s.card != JOKER)


def kept_whole(locked: list[MeldInfo], melds: list[tuple[Slot, ...]]) -> bool:
    """Whether each start joker meld lies whole in its own new meld whose one joker keeps its
    meaning (the same card in a run, the same rank in a group)."""
    used: set[int] = set()
    for info in locked:
        joker = next(s.meaning for s in info.slots if s.card == JOKER)
        assert joker is not None
        naturals = Counter(s.card for s in info.slots if s.card != JOKER)
        for k, meld in enumerate(melds):
            wild = [s.meaning for s in meld if s.card == JOKER]
            if k in used or len(wild) != 1 or wild[0] is None or wild[0].rank != joker.rank:
                continue
            if info.kind == "run" and wild[0].suit != joker.suit:
                continue
            if info.kind != "run" and is_run(meld):
                continue
            have = Counter(s.card for s in meld if s.card != JOKER)
            if all(have[c] >= n for c, n in naturals.items()):
                used.add(k)
                break
        else:
            return False
    return True


def _observed(info: MeldInfo, choices: list[_Choice], melds: list[tuple[Slot, ...]]) -> _Choice | None:
    """The lock choice a play makes for joker meld `info`, if any: a new meld holding it whole,
    its joker keeping its meaning, plus exactly that choice's added naturals."""
    own = Counter(s.card for s in info.slots if s.card != JOKER)
    for meld in melds:
        if kept_whole([info], [meld]):
            added = Counter(s.card for s in meld if s.card != JOKER) - own
            return next((c for c in choices if not c.taken and Counter(c.added) == added), None)
    return None


def is_run(meld: tuple[Slot, ...]) -> bool:
    """Whether a valid meld of at most one joker is a run: its naturals hold two ranks (a group's
    hold one)."""
    ranks = {s.card % RANKS for s in meld if s.card != JOKER}
    return len(ranks) > 1


def _choices(info: MeldInfo, hand: Counter[int], pool: Counter[int]) -> list[_Choice]:
    """A joker meld's choices: locked with each possible set of added naturals (from `pool`,
    hand and the other table melds), and taken when the hand holds a natural with the joker's
    meaning (T4 b)."""
    slots = tuple(info.slots)
    out: list[_Choice] = []
    if info.kind == "run":
        assert info.suit is not None
        suit, low, high = info.suit, info.positions[0], info.positions[-1]
        for below in range(EXTENSION + 1):
            for above in range(EXTENSION + 1):
                if low - below < 1 or high + above > RANKS:
                    continue
                left = [suit * RANKS + r - 1 for r in range(low - below, low)]
                right = [suit * RANKS + r - 1 for r in range(high + 1, high + above + 1)]
                if all(pool[c] for c in left + right):  # one copy each: the ranks differ
                    final = (*(Slot(c) for c in left), *slots, *(Slot(c) for c in right))
                    out.append(_Choice(False, (*left, *right), final))
        joker = next(s for s in slots if s.card == JOKER)
        assert joker.meaning is not None and joker.meaning.suit is not None
        wanted = [joker.meaning.suit * RANKS + joker.meaning.rank - 1]
    else:
        assert info.rank is not None
        have = {s.card // RANKS for s in slots if s.card != JOKER}
        wanted = [s * RANKS + info.rank - 1 for s in range(SUITS) if s not in have]
        out.append(_Choice(False, (), slots))
        if len(slots) < 4:
            out.extend(_Choice(False, (c,), (*slots, Slot(c))) for c in wanted if pool[c])
    if any(hand[c] for c in wanted):
        out.append(_Choice(True))
    return out
