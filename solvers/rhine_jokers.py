"""Rhine's opened turns with table jokers (rules §1.5 R3-R4) by the compiled meld program
(`rummyai.solvers.rhine_dp`), proven optimal where it can be.

In a legal turn each table joker is *kept* (its meaning unchanged, in a meld holding a natural of
its start meld, R3) or *released* (a natural with its meaning, not from its start meld, lies
beside a natural of that meld, R4; the joker is then free, within R5 and R5b). A combination fixes
a choice per joker, relaxed so that every legal turn is a play of some combination:

* kept in a group: the rank's groups hold one more wild, and the start meld's natural when only
  one kind of it can witness (`Fixed.group_wilds`, `Fixed.grouped`);
* kept in a run: first *pending*, the joker laid as a natural of its card (a bound on every run
  it may keep, and the answer when a run holding it and a natural of its start meld can take it
  back as the joker); then, when refused, each of its new runs written out. Only *irreducible*
  runs are listed: a part of three or more cards at an end that leaves the joker and a natural of
  its start meld behind is a run the program can lay itself;
* released: the joker is free; a replacement from the hand is laid when it is the only kind
  there and none lies on the table outside the start meld; no combination releases a joker no
  replacement exists for. A group joker's release, once the judge refuses it, splits by the
  replacement's kind: the rank's groups hold a copy of that kind beyond its start meld's
  (`_group_replacements`).

A best-first branch-and-bound: the root leaves every joker free (the program's plain
relaxation); a node whose play the judge refuses is split on the joker the judge names (Rhine
R4's `Judgement.start_meld`), else the first one not yet chosen. The first play the judge accepts
at the best bound is the answer, proven: judged, or by its shape where every joker meld stays
whole around its joker (as Tile Rummy's program reads it). A child whose choice the parent's play
already makes reuses that play. A refused play with every joker chosen cannot be split:
a play accepted later is proven only when it scores as much. Otherwise, or when the searches
keep more than `MAX_STATES` states or the deadline passes, `solve_rhine_jokers` returns None and
the CP-SAT model answers.
"""

from __future__ import annotations

import heapq
import time
from collections import Counter
from dataclasses import dataclass

from rummyai.cards import JOKER, Meaning, Slot
from rummyai.engine.judge import Judgement
from rummyai.solvers.check import judge
from rummyai.solvers.locked_dp import is_run, kept_whole, single_copies
from rummyai.solvers.position import Position, Solution, check_objective, proven_solution
from rummyai.solvers.rhine_dp import (
    NOTHING_FIXED,
    Fixed,
    Relaxed,
    Unarranged,
    group_rank,
    place_card,
    relaxed_play,
    rhine_dp_applies,
    tidy_groups,
    units,
)
from rummyai.solvers.run_dp import _units

# states the compiled searches may keep in all (about a microsecond each) before the position
# goes to CP-SAT
MAX_STATES = 150_000
SUITS = 4
PLACES = 14  # low ace, 2..K, high ace


@dataclass(frozen=True)
class _Joker:
    """A table joker: its start meld (index), meaning, kind, place (runs) and the start meld's
    naturals."""

    meld: int
    meaning: Meaning
    run: bool
    place: int
    naturals: tuple[int, ...]


@dataclass(frozen=True)
class _Choice:
    """Kept (in its rank's groups, in the run `segment`, or, `pending`, in some run: the joker laid
    as a natural of its card, a bound on every segment) or released (a group joker's with the
    `replacement` kind in its rank's groups, once split)."""

    kept: bool
    segment: tuple[Slot, ...] = ()
    pending: bool = False
    replacement: int = -1  # a released group joker: its replacement's kind, once split


_PENDING = _Choice(True, pending=True)
Combo = tuple[_Choice | None, ...]  # a choice per table joker, None while it is free


def solve_rhine_jokers(
    position: Position, objective: str, minimize_changes: bool = True, deadline: float | None = None
) -> Solution | None:
    """The best play of an opened Rhine turn, proven optimal by the branch-and-bound over the table
    jokers' choices (see the module's docstring); None when it cannot prove one in time."""
    check_objective(objective)
    start = time.perf_counter()
    if not rhine_dp_applies(position, None):
        return None
    jokers = _jokers(position)
    joker_melds = [position.table[k] for k in sorted({joker.meld for joker in jokers})]
    single = single_copies(position, joker_melds)
    unit = _units(position, objective)
    states = 0
    counter = 0
    # (-bound, -jokers chosen, order, combination, its play)
    heap: list[tuple[int, int, int, Combo, Relaxed]] = []
    judged: dict[tuple[tuple[Slot, ...], ...], Judgement] = {}  # a reused play is judged once
    unsettled: int | None = None  # the best bound of a refused play no choice is left to split

    def push(combo: Combo, parent: Relaxed | None = None, k: int = -1) -> bool:
        """Solve a combination and queue it by its bound (at most its `parent` play's, which it
        reuses when that play already makes joker `k`'s choice); False when the states
        overflowed."""
        nonlocal states, counter
        fixed = _fixed(position, jokers, combo)
        if fixed is None:
            return True  # its cards are not there
        if parent is not None and _makes(parent, jokers[k], combo, k, jokers, fixed):
            found = parent
        else:
            try:
                bounds = None if parent is None else parent.bounds
                found = relaxed_play(
                    position, objective, fixed, bounds, minimize_changes, MAX_STATES - states
                )
            except Unarranged as none:
                states += none.states
                return True
            if found is None:
                return False
            states += found.states
        counter += 1
        chosen = sum(choice is not None for choice in combo)
        heapq.heappush(heap, (-units(unit, found.played), -chosen, counter, combo, found))
        return True

    if not push((None,) * len(jokers)):
        return None
    while heap:
        if states > MAX_STATES or (deadline is not None and time.perf_counter() > deadline):
            return None
        bound, _, _, combo, found = heapq.heappop(heap)
        if unsettled is not None and -bound < unsettled:
            return None  # whatever is legal now scores less than a play that may be legal
        played = found.played
        if not played:
            return proven_solution(position, objective, [], [], start)
        melds = _with_kept_jokers(found.melds, jokers, combo)
        if melds is not None and minimize_changes:
            melds = tidy_groups(position, melds)
        if melds is not None and JOKER not in played and single and kept_whole(joker_melds, melds):
            # every joker meld whole around its joker, its naturals single on the start table, no
            # hand joker: each table joker is kept on any copy reading (R3), so nothing is asked
            return proven_solution(position, objective, played, melds, start)
        verdict = None
        if melds is not None:
            table = tuple(melds)
            verdict = judged.get(table)
            if verdict is None:
                verdict = judged[table] = judge(position, melds, deadline)
            if verdict.legal:
                return proven_solution(position, objective, played, melds, start)
        culprit = None if verdict is None else verdict.start_meld  # the start meld R4 names
        refused = [j for j in _unsplit_releases(jokers, combo) if jokers[j].meld == culprit]
        if refused:
            # the judge refused a group joker's release: one child per replacement kind
            k = refused[0]
            for choice in _group_replacements(position, jokers[k]):
                if not push((*combo[:k], choice, *combo[k + 1 :]), found, k):
                    return None
            continue
        open_jokers = [j for j, choice in enumerate(combo) if choice is None or choice.pending]
        if not open_jokers:
            # every joker chosen and the play refused (on the copy reading of §7.1, or a release
            # whose replacement lies away from its start meld's naturals): its combination may
            # still hold a legal play at its bound, so a legal play found later is proven only
            # when it scores as much
            unsettled = -bound if unsettled is None else unsettled
            continue
        named = [j for j in open_jokers if jokers[j].meld == culprit]
        pending = [j for j in open_jokers if combo[j] is not None]  # pending keeps
        k = (named or (pending if melds is None else []) or open_jokers)[0]
        for choice in _choices(position, jokers[k], combo[k] is not None):
            if not push((*combo[:k], choice, *combo[k + 1 :]), found, k):
                return None
    return None


def _makes(
    found: Relaxed,
    joker: _Joker,
    combo: Combo,
    k: int,
    jokers: list[_Joker],
    fixed: Fixed,
) -> bool:
    """Whether a parent's play already makes the choice `combo[k]` for `joker` (the rest of
    `combo` it makes by construction), so that it is the child's best play too: a release whose
    replacement from the hand it lays, or whose replacement kind its rank's groups hold beyond the
    start meld's copies; a group keep with a wild (and the start meld's natural, when one is
    asked for) in the rank's groups. A run keep is always searched (its play lays the joker as a
    natural of its card, which a parent's play does not)."""
    choice = combo[k]
    assert choice is not None
    if not choice.kept and choice.replacement >= 0:
        in_groups = _in_groups(found, joker.meaning.rank)
        return in_groups.count(choice.replacement) > joker.naturals.count(choice.replacement)
    if not choice.kept:
        return not Counter(fixed.must_play) - Counter(found.played)
    if not joker.run:
        rank = joker.meaning.rank
        wanted = sum(
            1
            for other, c in zip(jokers, combo, strict=True)
            if c is not None and c.kept and not other.run and other.meaning.rank == rank
        )
        in_groups = _in_groups(found, rank)
        if in_groups.count(JOKER) < wanted:
            return False
        return not Counter(fixed.grouped) - Counter(c for c in in_groups if c != JOKER)
    return False


def _with_kept_jokers(
    melds: list[tuple[Slot, ...]], jokers: list[_Joker], combo: Combo
) -> list[tuple[Slot, ...]] | None:
    """The play with each pending joker laid back as a joker in place of its card, in a run that
    holds a natural of its start meld and no wild; None when one has no such run."""
    out = list(melds)
    for joker, choice in zip(jokers, combo, strict=True):
        if choice is None or not choice.pending:
            continue
        card = place_card(joker.meaning.suit or 0, joker.place)
        for index, meld in enumerate(out):
            cards = [slot.card for slot in meld]
            witnessed = any(c in joker.naturals for c in cards if c != card)
            if card in cards and witnessed and JOKER not in cards and is_run(meld):
                at = cards.index(card)
                out[index] = (*meld[:at], Slot(JOKER, joker.meaning), *meld[at + 1 :])
                break
        else:
            return None
    return out


def _jokers(position: Position) -> list[_Joker]:
    """The table's jokers, in table order."""
    out = []
    for index, info in enumerate(position.table):
        naturals = tuple(slot.card for slot, wild in zip(info.slots, info.as_wild, strict=True) if not wild)
        for i, (slot, wild) in enumerate(zip(info.slots, info.as_wild, strict=True)):
            if slot.card == JOKER and wild and slot.meaning is not None:
                run = info.kind == "run"
                place = info.positions[i] - 1 if run else 0
                out.append(_Joker(index, slot.meaning, run, place, naturals))
    return out


def _replacements(joker: _Joker) -> list[int]:
    """The card kinds that can replace a joker (R4): its card, or its rank in any suit."""
    rank = joker.meaning.rank
    if joker.run:
        assert joker.meaning.suit is not None
        return [joker.meaning.suit * 13 + rank - 1]
    return [suit * 13 + rank - 1 for suit in range(SUITS)]


def _choices(position: Position, joker: _Joker, expand: bool = False) -> list[_Choice]:
    """Released (when a replacement exists outside the start meld), then kept: in its rank's
    groups, or in a run, pending (when its card has fewer than two copies at hand: the program
    encodes two) or, `expand`ing a pending choice, in each irreducible run around it."""
    have = _cards(position)
    if expand:
        return [_Choice(True, segment) for segment in _segments(joker, have)]
    out = []
    if _spare(joker, have):
        out.append(_Choice(False))
    if not joker.run:
        out.append(_Choice(True))
    elif have[place_card(joker.meaning.suit or 0, joker.place)] < 2:
        out.append(_PENDING)
    else:
        out.extend(_Choice(True, segment) for segment in _segments(joker, have))
    return out


def _segments(joker: _Joker, have: Counter[int]) -> list[tuple[Slot, ...]]:
    """The irreducible runs holding the joker at its place and a natural of its start meld (the
    other places naturals at hand): three to thirteen places, no end part of three or more
    places whose removal leaves such a run."""
    suit = joker.meaning.suit
    assert suit is not None
    witnesses = {
        place for place in range(PLACES) if place != joker.place and place_card(suit, place) in joker.naturals
    }
    p = joker.place

    def core(lo: int, hi: int) -> bool:
        return hi - lo + 1 >= 3 and lo <= p <= hi and any(lo <= w <= hi for w in witnesses)

    out = []
    for lo in range(max(0, p - 12), p + 1):
        for hi in range(p, min(PLACES - 1, lo + 12) + 1):
            if not core(lo, hi):
                continue
            if any(core(lo + cut, hi) for cut in range(3, hi - lo + 1)) or any(
                core(lo, hi - cut) for cut in range(3, hi - lo + 1)
            ):
                continue
            need = Counter(place_card(suit, place) for place in range(lo, hi + 1) if place != p)
            if need - have:
                continue
            slots = [
                Slot(JOKER, joker.meaning) if place == p else Slot(place_card(suit, place))
                for place in range(lo, hi + 1)
            ]
            out.append(tuple(slots))
    return out


def _fixed(position: Position, jokers: list[_Joker], combo: Combo) -> Fixed | None:
    """The program's `Fixed` for a combination; None when its kept runs want more cards than the
    table and the hand hold."""
    if all(choice is None for choice in combo):
        return NOTHING_FIXED
    table = Counter(slot.card for info in position.table for slot in info.slots)
    hand = Counter(position.hand)
    melds: list[tuple[Slot, ...]] = []
    from_table: list[int] = []
    from_hand: list[int] = []
    must_play: list[int] = []
    group_wilds: list[int] = []
    grouped: list[int] = []
    as_natural: list[int] = []
    replacements: Counter[int] = Counter()  # copies released group jokers want in their groups
    for joker, choice in zip(jokers, combo, strict=True):
        if choice is None:
            continue
        if choice.pending:
            table[JOKER] -= 1
            from_table.append(JOKER)
            as_natural.append(place_card(joker.meaning.suit or 0, joker.place))
        elif choice.kept and not joker.run:
            group_wilds.append(joker.meaning.rank)
            if len(set(joker.naturals)) == 1:
                grouped.append(joker.naturals[0])
        elif choice.kept:
            melds.append(choice.segment)
            for slot in choice.segment:
                if table[slot.card] > 0:
                    table[slot.card] -= 1
                    from_table.append(slot.card)
                elif hand[slot.card] > 0:
                    hand[slot.card] -= 1
                    from_hand.append(slot.card)
                else:
                    return None
        elif choice.replacement >= 0:
            wanted = joker.naturals.count(choice.replacement) + 1
            replacements[choice.replacement] = max(replacements[choice.replacement], wanted)
        else:
            own = Counter(joker.naturals)
            kinds = _replacements(joker)
            on_table = [c for c in kinds if table[c] - own[c] > 0]
            in_hand = [c for c in kinds if hand[c] > 0]
            if not on_table and len(in_hand) == 1:
                hand[in_hand[0]] -= 1
                must_play.append(in_hand[0])
    if replacements:
        # at least as many as each asks (one copy may witness a kept joker and replace another);
        # never more than the cards hold: each kept witness is its own start meld's copy, and a
        # replacement kind is split on only where a copy lies beyond its start meld's
        grouped = sorted((Counter(grouped) | replacements).elements())
    return Fixed(
        tuple(melds),
        tuple(from_table),
        tuple(from_hand),
        tuple(must_play),
        tuple(group_wilds),
        tuple(grouped),
        tuple(as_natural),
    )


def _unsplit_releases(jokers: list[_Joker], combo: Combo) -> list[int]:
    """The group jokers released with no replacement kind chosen yet."""
    return [
        j
        for j, (joker, choice) in enumerate(zip(jokers, combo, strict=True))
        if choice is not None and not choice.kept and not joker.run and choice.replacement < 0
    ]


def _group_replacements(position: Position, joker: _Joker) -> list[_Choice]:
    """A group joker's release split by its replacement's kind: one child per suit of its rank
    with a copy beyond its start meld's, whose rank's groups hold one copy more than the start
    meld does.

    Every legal play releasing it is in a child (two copies of a card at most). Its replacement
    lies in a group beside a natural of the start meld. Were no kind in the rank's groups held
    beyond the start meld's count, the start meld's copy of each kind that group takes from
    elsewhere would lie in a run, and trading those copies would keep strictly more pairs of
    start-meld cards together: §7.1's canonical reading would not be that play's."""
    return [_Choice(False, replacement=card) for card in _spare(joker, _cards(position))]


def _spare(joker: _Joker, have: Counter[int]) -> list[int]:
    """The kinds that can replace a joker (R4) with a copy among `have` beyond its start meld's."""
    return [card for card in _replacements(joker) if have[card] > joker.naturals.count(card)]


def _in_groups(found: Relaxed, rank: int) -> list[int]:
    """The cards (jokers too) of a play's groups of `rank`."""
    return [slot.card for meld in found.melds if group_rank(meld) == rank for slot in meld]


def _cards(position: Position) -> Counter[int]:
    """The card kinds of the table and the hand."""
    return Counter(slot.card for info in position.table for slot in info.slots) + Counter(position.hand)
