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
A complete combination's play is the answer when it is legal: by construction when every joker
is locked and no meld holds two hand jokers, else by the engine's judge. When no combination at
the bound passes, `solve_locked_dp` returns None and the CP-SAT model answers.

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

from rummyai.cards import JOKER, Slot
from rummyai.melds import MeldInfo
from rummyai.solvers.candidate_search import twin
from rummyai.solvers.check import judged_legal
from rummyai.solvers.fast import fast_path_ok
from rummyai.solvers.position import Position, Solution, count_broken, objective_value, score_key
from rummyai.solvers.run_dp import NoArrangement, dp_supported, solve_dp_spent, warm
from rummyai.variants import Variant

SUITS = 4
RANKS = 13
EXTENSION = 2  # naturals a locked run may gain at one end (three more make a run of their own)


@dataclass(frozen=True)
class _Choice:
    """What happens to one joker meld: locked with `added` naturals into `final`, or taken."""

    taken: bool
    added: tuple[int, ...] = ()
    final: tuple[Slot, ...] = ()


def locked_dp_applies(position: Position, max_cards: int | None) -> bool:
    """Whether `solve_locked_dp` may answer: an opened turn without a cap under Tile Rummy's
    locked joker melds (one joker per meld, hand jokers join freely), the rest in the program's
    encoding."""
    rules = position.variant
    jokers = rules.joker_rules
    if not (
        position.opened
        and max_cards is None
        and rules.tile_style
        and jokers.locked_melds
        and jokers.hand_joker_joins
        and not jokers.accompaniment
        and not jokers.replacement_takes
        and rules.max_wilds_per_meld == 1
        and rules.max_hand_cards_per_turn is None
    ):
        return False
    free = twin(rules, joker_rules=False)
    return dp_supported(free) and fast_path_ok(Position(free, position.hand, (), True), None)


def solve_locked_dp(position: Position, objective: str, minimize_changes: bool = True) -> Solution | None:
    """The best play of a position `locked_dp_applies` to, proven optimal; None when the program
    cannot prove one (the caller's CP-SAT model answers then)."""
    start = time.perf_counter()
    free = twin(position.variant, joker_rules=False)
    warm(free)
    found = _search(position, free, objective, minimize_changes)
    if found is None:
        return None
    played, melds = found
    if not played:
        melds = [tuple(info.slots) for info in position.table]
    hv = position.variant.hand_values
    return Solution(
        tuple(played),
        tuple(melds),
        "optimal",
        objective,
        objective_value(position, objective, played),
        len(played),
        sum(hv[c] for c in played),
        (time.perf_counter() - start) * 1000,
        count_broken(position, melds),
    )


_Play = tuple[list[int], list[tuple[Slot, ...]]]


def _search(position: Position, free: Variant, objective: str, tidy: bool) -> _Play | None:
    """Best-first branch-and-bound over the joker melds' choices (see the module's docstring),
    without the tie-break; the combination found is solved once more with it (`tidy`)."""
    jokered = [k for k, info in enumerate(position.table) if info.wild_count]
    if any(position.table[k].wild_count > 1 for k in jokered):
        return None  # not a Tile Rummy table (T2)
    rest = tuple(info for k, info in enumerate(position.table) if k not in jokered)
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
    # a child taking its meld's joker is its parent's problem again (the parent relaxed it so).
    # Full combinations come before partial ones of the same score, then those taking fewer.
    heap: list[tuple[tuple[int, int], int, int, int, int, tuple[_Choice, ...], _Play | None]] = []
    try:
        root = solve(())
        if root is None:
            return None
        heap.append((_neg(root[0]), 0, len(jokered), 0, 0, (), root[1]))
        order = 0
        bound: tuple[int, int] | None = None  # the first full combination's score: no play beats it
        while heap:
            score, depth, takes, _, _, combo, play = heapq.heappop(heap)
            if bound is not None and score != bound:
                return None  # the plays at the bound broke the joker rules: not proven here
            if play is None:
                found = solve(combo)
                if found is not None:
                    order += 1
                    heapq.heappush(heap, (_neg(found[0]), depth, takes, 0, order, combo, found[1]))
                continue
            if -depth == len(jokered):
                bound = score
                chosen = _settle(position, combo, play, tidy, partial(solve, combo, True))
                if chosen is not None:
                    return chosen
                continue
            for choice in choices[-depth]:
                order += 1
                child = (*combo, choice)
                taken = sum(c.taken for c in child) + len(jokered) - len(child)
                known = play if choice.taken else None
                heapq.heappush(heap, (score, depth - 1, taken, known is None, order, child, known))
    except _Overflow:
        return None
    return None


def _settle(
    position: Position,
    combo: tuple[_Choice, ...],
    play: _Play,
    tidy: bool,
    tidied: Callable[[], tuple[tuple[int, int], _Play] | None],
) -> _Play | None:
    """The legal play of a full combination at the bound: its program's play or the same cards
    laid out with the tie-break (`tidied`), the latter first when `tidy` asks for it (its layout
    also passes the judge more often where a joker is taken); None when neither is legal."""
    if not play[0]:
        return play
    first, second = (None, play) if tidy else (play, None)
    if first is not None and _legal(position, combo, first):
        return first
    try:
        found = tidied()
    except _Overflow:  # the tie-break's states overflowed
        found = None
    if found is not None and sorted(found[1][0]) == sorted(play[0]) and _legal(position, combo, found[1]):
        return found[1]
    return second if second is not None and _legal(position, combo, second) else None


class _Overflow(Exception):
    """The program's states overflowed its buffers: the CP-SAT model answers."""


def _neg(score: tuple[int, int]) -> tuple[int, int]:
    return (-score[0], -score[1])


def _legal(position: Position, combo: tuple[_Choice, ...], play: _Play) -> bool:
    """Whether a full combination's play is legal: by construction when every joker is locked
    and no meld holds two jokers (T2); else the engine's judge says."""
    played, melds = play
    if not played:
        return True  # no play: the start table stands
    if all(not c.taken for c in combo) and all(sum(s.card == JOKER for s in m) <= 1 for m in melds):
        return True
    return judged_legal(position, melds)


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
