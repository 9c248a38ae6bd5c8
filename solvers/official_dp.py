"""Official Rummikub's opened turns (rules §8.2, option `official_jokers`, replacements from the
rack) by the compiled dynamic program, proven optimal where it can be.

In a legal play each table joker is *kept* (in a meld of its start meld's kind, with the same
meaning, beside a natural of its start meld) or *taken* (a rack tile with its meaning is
played; the joker goes into a new meld). A combination fixes one choice per table joker:

* kept: the joker's new meld, written out (`_Choice.meld`). A run longer than it needs to be is
  cut down: any part of three or more tiles that leaves the joker, its meaning and a natural of
  its start meld behind is a run of its own, so only *irreducible* runs are listed (the cut-off
  parts are melds the program lays itself). Two table jokers kept in one meld are one choice of
  the first (`together`); a kept meld may hold one more joker (a taken table joker or a rack
  joker: jokers are alike to the program, and a table one must be laid anyway).
* taken: the replacement's rack tile must be laid (inside a kept meld, or by the program); the
  joker is a free table joker.

The program (`solve_dp_spent`) lays every other tile freely, so every legal play is a play of
some combination with the same rack tiles played, and the best combination bounds the answer.
A best-first branch-and-bound over the jokers (the one with fewer choices first; the ones not
yet chosen relaxed to free jokers, their melds' tiles to loose table tiles) finds it: a choice
the parent's play already makes costs no program run, and one run with the joker as a natural
of its card bounds all its kept choices at once (`kept_bound`). The first full combination
whose play the judge accepts is the answer. When every play at the bound is refused, the first
refused ones are tried again with one joker laid elsewhere (`one_joker_moved`: the relaxation
may add a taken joker to an old meld); when none passes, or the search runs past `MAX_RUNS`
program runs, `solve_official_dp` returns None and the CP-SAT model answers.
"""

from __future__ import annotations

import heapq
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from rummyai.cards import JOKER, Meaning, Slot, make_card, rank_of, suit_of
from rummyai.melds import MeldInfo
from rummyai.solvers.candidate_search import twin
from rummyai.solvers.check import judged_legal
from rummyai.solvers.fast import fast_path_ok, tidy_layout
from rummyai.solvers.locked_dp import is_run, one_joker_moved
from rummyai.solvers.position import Position, Solution, count_broken, proven_solution, score_key
from rummyai.solvers.run_dp import NoArrangement, dp_supported, solve_dp_spent, warm
from rummyai.variants import RunRule, Variant

SUITS = 4
RANKS = 13
COPIES = 2  # copies of a card the program encodes
MAX_RUNS = 120  # program runs before the search gives the position to CP-SAT
REFUSED = 4  # full combinations at the bound whose plays the judge refused, before it does
MOVED_TRIED = 2  # refused plays tried again with one joker laid elsewhere


@dataclass(frozen=True)
class _Joker:
    """A table joker: its start meld's kind and naturals, and what it stands for there."""

    run: bool
    meaning: Meaning
    naturals: frozenset[int]
    start: int  # its start meld's index


@dataclass(frozen=True)
class _Choice:
    """One table joker's fate. ``kept``/``together``: its new meld `meld` (naturals `naturals`,
    one more joker than its own if `extra`); ``together`` keeps joker `partner` in it too, whose
    own choice is then ``partnered``. ``taken``: rack tile `card` replaces it."""

    kind: str
    meld: tuple[Slot, ...] = ()
    naturals: tuple[int, ...] = ()
    extra: bool = False
    card: int = -1
    partner: int = -1


PARTNERED = _Choice("partnered")
_Play = tuple[list[int], list[tuple[Slot, ...]]]


@dataclass(frozen=True)
class _Solved:
    """A combination's best play, its score, and the program's part of it (its melds and the
    rack tiles it chose to lay, besides those the fixed choices took)."""

    score: tuple[int, int]
    play: _Play
    melds: list[tuple[Slot, ...]]
    laid: list[int]


def official_dp_applies(position: Position, max_cards: int | None) -> bool:
    """Whether `solve_official_dp` may answer: an opened turn without a cap on cards played, under
    official jokers replaced from the rack, in the program's encoding of the free-joker twin."""
    rules = position.variant
    if not (position.opened and max_cards is None and rules.tile_style):
        return False
    if not rules.joker_rules.replacement_takes or rules.joker_replacement_from != "rack":
        return False
    if rules.max_hand_cards_per_turn is not None or rules.run_rules != (RunRule(),) * SUITS:
        return False
    free = twin(rules, joker_rules=False)
    return dp_supported(free) and fast_path_ok(Position(free, position.hand, (), True), None)


def solve_official_dp(
    position: Position, objective: str, minimize_changes: bool = True, deadline: float | None = None
) -> Solution | None:
    """The best play of a position `official_dp_applies` to, proven optimal; None when the program
    cannot prove one (see the module's docstring), or `deadline` (a `time.perf_counter` instant)
    passes first."""
    start = time.perf_counter()
    free = twin(position.variant, joker_rules=False)
    warm(free)
    found = _Search(position, free, objective).run(minimize_changes, deadline)
    return None if found is None else proven_solution(position, objective, found[0], found[1], start)


class _Search:
    """The branch-and-bound of one position (see the module's docstring)."""

    def __init__(self, position: Position, free: Variant, objective: str) -> None:
        self.position, self.free, self.objective = position, free, objective
        jokers = [
            _joker(info, slot, k)
            for k, info in enumerate(position.table)
            for slot in info.slots
            if slot.card == JOKER
        ]
        self.hand = Counter(position.hand)
        self.table = Counter(c for info in position.table for c in info.cards)
        every = self.hand + self.table
        # the joker with fewer choices is branched on first: fewer children to solve per node
        listed = [_choices(k, jokers, position.table, every, self.hand) for k in range(len(jokers))]
        order = sorted(range(len(jokers)), key=lambda k: len(listed[k]))
        self.jokers = [jokers[k] for k in order]
        # a later joker's choices hold the pairs kept together with it, so a new order lists again
        self.choices = (
            listed
            if order == sorted(order)
            else [_choices(k, self.jokers, position.table, every, self.hand) for k in range(len(self.jokers))]
        )
        self.runs = 0
        self.refused: list[_Play] = []  # full combinations' plays at the bound the judge refused

    def solve(self, combo: tuple[_Choice, ...], tidy: bool = False) -> _Solved | None:
        """The combination's best play, the jokers after `combo` relaxed to free ones; None when
        it asks for tiles the rack and the table do not hold, or its tiles fit no melds."""
        table, spare = Counter(self.table), Counter(self.hand)
        fixed: list[tuple[Slot, ...]] = []
        table[JOKER] -= sum(1 if c.kind == "kept" else 2 if c.kind == "together" else 0 for c in combo)
        for choice in combo:
            if choice.kind == "anywhere":  # kept somewhere: a natural of its card, where copies allow
                table[JOKER] -= 1
                table[choice.card] += 1
        from_rack: Counter[int] = Counter()  # rack tiles the kept melds lay
        for choice in combo:
            for card in [*choice.naturals, *([JOKER] if choice.extra else [])]:
                if table[card]:  # a table copy first: it must be laid anyway
                    table[card] -= 1
                elif spare[card]:
                    spare[card] -= 1
                    from_rack[card] += 1
                else:
                    return None
            if choice.meld:
                fixed.append(choice.meld)
        extra = list(from_rack.elements())
        for choice in combo:
            if choice.kind != "taken":
                continue
            # its replacement is a rack tile laid this turn: one a kept meld lays, else one the
            # program must lay; each taken joker needs its own
            if from_rack[choice.card]:
                from_rack[choice.card] -= 1
            elif spare[choice.card]:
                spare[choice.card] -= 1
                table[choice.card] += 1
                extra.append(choice.card)
            else:
                return None
        self.runs += 1
        sub = Position(self.free, tuple(sorted(spare.elements())), self.position.table, True)
        try:
            found = solve_dp_spent(sub, sorted(table.elements()), self.objective, tidy)
        except NoArrangement:
            return None
        if found is None:
            raise _Overflow
        played = sorted(found[0] + extra)
        return _Solved(
            score_key(self.position, self.objective, played), (played, found[1] + fixed), found[1], found[0]
        )

    def run(self, tidy: bool, deadline: float | None) -> _Play | None:
        """Best-first over the jokers' choices: a node's score bounds its completions, a child is
        pushed with its parent's score and solved when it comes first, unless the parent's play
        already makes its choice (`_observed`)."""
        n = len(self.jokers)
        try:
            root = self.solve(())
        except _Overflow:
            return None
        if root is None:
            return None
        # rows: (-score, -depth, not yet solved, order, combo, solved)
        heap: list[tuple[tuple[int, int], int, int, int, tuple[_Choice, ...], _Solved | None]] = [
            (_neg(root.score), 0, 0, 0, (), root)
        ]
        order = 0
        refused_at = heap[0][0]  # the score of the refused plays, once there are some
        try:
            while heap:
                if deadline is not None and time.perf_counter() > deadline:
                    return None
                score, depth, _, _, combo, solved = heapq.heappop(heap)
                if self.refused and score != refused_at:
                    return self.moved(deadline)  # every play at the bound broke the joker rules
                if solved is None:
                    if self.runs >= MAX_RUNS:
                        return None
                    found = self.solve(combo)
                    if found is not None:
                        order += 1
                        heapq.heappush(heap, (_neg(found.score), depth, 0, order, combo, found))
                    continue
                if not solved.play[0]:  # no node plays anything: no legal play does
                    return [], [tuple(info.slots) for info in self.position.table]
                if -depth == n:
                    play = self.settle(combo, solved, tidy, deadline)
                    if play is not None:
                        return play
                    refused_at = score
                    self.refused.append(solved.play)
                    if len(self.refused) >= REFUSED:
                        return self.moved(deadline)
                    continue
                k = -depth
                if any(c.partner == k for c in combo):  # kept already, in its partner's meld
                    order += 1
                    heapq.heappush(heap, (score, depth - 1, 0, order, (*combo, PARTNERED), solved))
                    continue
                here = self.choices[k]
                seen = _observed(self.jokers[k], here, solved)
                kept = (
                    score if seen is not None and seen.kind != "taken" else self.kept_bound(combo, k, score)
                )
                for choice in here:
                    order += 1
                    known = solved if choice is seen else None
                    bound_here = score if choice.kind == "taken" else kept
                    if bound_here is None:
                        continue  # no kept meld for this joker plays at all
                    row = (bound_here, depth - 1, known is None, order, (*combo, choice), known)
                    heapq.heappush(heap, row)
        except _Overflow:
            return None
        return self.moved(deadline)

    def moved(self, deadline: float | None) -> _Play | None:
        """A refused play at the bound (the first `MOVED_TRIED`) with the same tiles and one joker
        laid elsewhere (a run split around it, or the joker moved to another meld's end), the
        first such table the judge accepts: the relaxation may add a taken joker to an old meld,
        which §8.2 refuses. None if none passes."""
        for play in self.refused[:MOVED_TRIED]:
            moved = one_joker_moved(
                self.position, play, lambda p: judged_legal(self.position, p[1], deadline), deadline
            )
            if moved is not None:
                return moved
        return None

    def kept_bound(
        self, combo: tuple[_Choice, ...], k: int, score: tuple[int, int]
    ) -> tuple[int, int] | None:
        """A bound (negated, as in the heap) on every kept choice of joker `k` at once: the joker
        relaxed to a natural of the card it stands for (for a group joker, the best over the
        colours of its number), which the rack and the table must not hold twice already. One
        program run (four for a group joker) that can save solving each kept choice in turn;
        the parent's `score` where no such natural can be encoded; None when none plays."""
        joker = self.jokers[k]
        m = joker.meaning
        colours = [m.suit] if joker.run else list(range(SUITS))
        best: tuple[int, int] | None = None
        for colour in colours:
            assert colour is not None
            card = make_card(m.rank, colour)
            if self.table[card] + self.hand[card] >= COPIES:
                return score  # a third copy: not encoded, no tighter bound
            found = self.solve((*combo, _Choice("anywhere", card=card)))
            if found is not None and (best is None or _neg(found.score) < best):
                best = _neg(found.score)
        return None if best is None else max(best, score)

    def settle(
        self, combo: tuple[_Choice, ...], solved: _Solved, tidy: bool, deadline: float | None
    ) -> _Play | None:
        """A full combination's play if the judge accepts it; with `tidy`, tried first laid out to
        keep more start melds whole (the program's tie-break, then `tidy_layout` over the whole
        table, which joins a kept meld to the runs cut off it); else None."""
        plays = [solved.play]
        if tidy and count_broken(self.position, solved.play[1]):
            try:
                tidied = self.solve(combo, True)
            except _Overflow:  # the tie-break's states overflowed: the untidy layouts stay
                tidied = None
            if tidied is not None and tidied.score == solved.score:
                plays.insert(0, tidied.play)
            laid = [(played, tidy_layout(self.position, melds)) for played, melds in plays]
            plays = [play for pair in zip(laid, plays, strict=True) for play in pair]
            plays.sort(key=lambda play: count_broken(self.position, play[1]))  # stable: laid out first
        for played, melds in plays:
            if judged_legal(self.position, melds, deadline):
                return played, melds
        return None


class _Overflow(Exception):
    """The program's states overflowed its buffers: the CP-SAT model answers."""


def _neg(score: tuple[int, int]) -> tuple[int, int]:
    return (-score[0], -score[1])


def _joker(info: MeldInfo, slot: Slot, start: int) -> _Joker:
    assert slot.meaning is not None
    naturals = frozenset(c for c in info.cards if c != JOKER)
    return _Joker(info.kind == "run", slot.meaning, naturals, start)


def _choices(
    k: int, jokers: list[_Joker], table: tuple[MeldInfo, ...], every: Counter[int], hand: Counter[int]
) -> list[_Choice]:
    """Table joker `k`'s choices: its start meld kept whole (first: the tie-break's favourite;
    not needed for the bound), each irreducible kept meld (alone, with one more joker, or with a
    later table joker kept beside it), and each rack tile that can replace it."""
    joker = jokers[k]
    spare_jokers = every[JOKER] - 1
    start = table[joker.start]
    mates = [p for p, other in enumerate(jokers) if other.start == joker.start and p != k]
    own = tuple(c for c in start.cards if c != JOKER)
    out: list[_Choice] = []
    if not mates:
        out.append(_Choice("kept", tuple(start.slots), own))
    elif all(p > k for p in mates) and len(mates) == 1:
        out.append(_Choice("together", tuple(start.slots), own, partner=mates[0]))
    out.extend(
        _Choice("kept", meld, naturals, extra)
        for meld, naturals, extra in _kept_melds([joker], every, spare_jokers)
        if not out or meld != out[0].meld
    )
    for p in range(k + 1, len(jokers)):
        other = jokers[p]
        if other.run != joker.run:
            continue
        for meld, naturals, extra in _kept_melds([joker, other], every, spare_jokers - 1):
            if out and out[0].kind == "together" and meld == out[0].meld:
                continue
            out.append(_Choice("together", meld, naturals, extra, partner=p))
    m = joker.meaning
    if joker.run:
        assert m.suit is not None
        wanted = [make_card(m.rank, m.suit)]
    else:
        have = {suit_of(c) for c in joker.naturals}
        wanted = [make_card(m.rank, s) for s in range(SUITS) if s not in have]
    out.extend(_Choice("taken", card=c) for c in wanted if hand[c])
    return out


def _kept_melds(
    kept: list[_Joker], every: Counter[int], spare_jokers: int
) -> Iterator[tuple[tuple[Slot, ...], tuple[int, ...], bool]]:
    """New melds holding the `kept` jokers with their meanings, each beside a natural of its start
    meld, whose naturals the rack and the table hold, with at most one more joker
    (`spare_jokers` > 0); runs irreducible. Yields (meld, naturals, holds one more joker)."""
    if kept[0].run:
        yield from _kept_runs(kept, every, spare_jokers)
    else:
        yield from _kept_groups(kept, every, spare_jokers)


def _kept_runs(
    kept: list[_Joker], every: Counter[int], spare_jokers: int
) -> Iterator[tuple[tuple[Slot, ...], tuple[int, ...], bool]]:
    suit = kept[0].meaning.suit
    assert suit is not None
    if any(j.meaning.suit != suit for j in kept):
        return
    fixed = {j.meaning.rank for j in kept}
    if len(fixed) < len(kept):
        return
    needs = [{rank_of(c) for c in j.naturals if suit_of(c) == suit} for j in kept]
    low, high = min(fixed), max(fixed)
    held = [r > 0 and every[make_card(r, suit)] > 0 for r in range(RANKS + 1)]
    gaps = 1 if spare_jokers > 0 else 0  # free ranks a run may lack (its spare joker's spot)
    for lo in range(1, low + 1):
        for hi in range(max(high, lo + 2), RANKS + 1):
            free = [r for r in range(lo, hi + 1) if r not in fixed]
            lacking = [r for r in free if not held[r]]
            if len(lacking) > gaps:
                break  # a longer run lacks them too
            spots: list[int | None] = [*lacking] if lacking else [None, *(free if spare_jokers > 0 else [])]
            for spot in spots:
                naturals = [r for r in free if r != spot]
                if not naturals:
                    continue
                if not _meets(needs, naturals) or _cuttable(lo, hi, fixed, needs, naturals):
                    continue
                meld = tuple(
                    Slot(JOKER, Meaning(r, suit)) if r in fixed or r == spot else Slot(make_card(r, suit))
                    for r in range(lo, hi + 1)
                )
                yield meld, tuple(make_card(r, suit) for r in naturals), spot is not None


def _meets(needs: list[set[int]], naturals: list[int]) -> bool:
    """Whether the naturals hold one of each kept joker's start meld's naturals."""
    return all(need.intersection(naturals) for need in needs)


def _cuttable(lo: int, hi: int, fixed: set[int], needs: list[set[int]], naturals: list[int]) -> bool:
    """Whether three or more tiles can be cut off either end of run [lo, hi], leaving a run of at
    least three with the kept jokers and their start melds' naturals."""
    for cut in range(3, hi - lo - 1):
        for a, b in ((lo + cut, hi), (lo, hi - cut)):
            if a <= min(fixed) and max(fixed) <= b and _meets(needs, [r for r in naturals if a <= r <= b]):
                return True
    return False


def _kept_groups(
    kept: list[_Joker], every: Counter[int], spare_jokers: int
) -> Iterator[tuple[tuple[Slot, ...], tuple[int, ...], bool]]:
    rank = kept[0].meaning.rank
    if any(j.meaning.rank != rank for j in kept):
        return
    needs = [{suit_of(c) for c in j.naturals if rank_of(c) == rank} for j in kept]
    for mask in range(1, 1 << SUITS):
        suits = [s for s in range(SUITS) if mask >> s & 1]
        if not all(every[make_card(rank, s)] for s in suits) or not _meets(needs, suits):
            continue
        for extra in (False, True):
            size = len(suits) + len(kept) + extra
            if (extra and spare_jokers <= 0) or not 3 <= size <= SUITS:
                continue
            jokers = [Slot(JOKER, Meaning(rank))] * (len(kept) + extra)
            meld = (*(Slot(make_card(rank, s)) for s in suits), *jokers)
            yield meld, tuple(make_card(rank, s) for s in suits), extra


def _observed(joker: _Joker, choices: list[_Choice], solved: _Solved) -> _Choice | None:
    """The kept or taken choice the parent's play already makes for `joker`, if one is listed:
    the program laid its replacement from the rack, or a free joker with its meaning in a meld
    of its kind beside one of its start meld's naturals (one of its listed parts, the rest valid
    runs cut off). Only the program's own part is read (the fixed melds belong to other jokers)."""
    for choice in choices:
        if choice.kind == "taken" and choice.card in solved.laid:
            return choice
    for meld in solved.melds:
        if not any(s.card == JOKER and s.meaning is not None and _same(joker, meld, s.meaning) for s in meld):
            continue
        for choice in choices:
            if choice.kind == "kept" and _holds(meld, choice.meld):
                return choice
    return None


def _same(joker: _Joker, meld: tuple[Slot, ...], meaning: Meaning) -> bool:
    """Whether a joker laid as `meaning` in `meld` keeps `joker`'s meaning."""
    if joker.run != is_run(meld) or meaning.rank != joker.meaning.rank:
        return False
    return not joker.run or meaning.suit == joker.meaning.suit


def _holds(meld: tuple[Slot, ...], part: tuple[Slot, ...]) -> bool:
    """Whether `part` is a group's own tiles, or a piece of a run whose tiles before and after it
    are runs too (none, or three or more with a natural)."""
    if not is_run(meld):
        return Counter(meld) == Counter(part)
    n = len(part)
    for i in range(len(meld) - n + 1):
        if meld[i : i + n] == part and all(_rest_ok(rest) for rest in (meld[:i], meld[i + n :])):
            return True
    return False


def _rest_ok(rest: tuple[Slot, ...]) -> bool:
    """Whether tiles cut off a run are a run of their own (or none)."""
    return not rest or (len(rest) >= 3 and any(s.card != JOKER for s in rest))
