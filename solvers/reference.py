"""Exhaustive reference solver for small positions, independent of the CP-SAT model.

It lists every meld that can be written from the hand's and table's cards (every run window and
joker placement, every group), keeps those that `rummyai.melds.analyze_meld` accepts, and
searches every multiset of them that uses each table card exactly as often as the table holds
it and otherwise only hand cards. The best such table under the objective is returned, and
among the best ones one that breaks the fewest start melds (`Solution.melds_broken`). It is
exponential: use it on positions of a dozen or so cards, to check the fast solver.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations, product

from rummyai.cards import JOKER, Meaning, Slot, make_card
from rummyai.errors import IllegalMoveError, MeldError, RummyError
from rummyai.melds import MeldInfo, analyze_meld, opening_value
from rummyai.solvers.check import judged_legal
from rummyai.solvers.palace_swaps import swaps_in_order
from rummyai.solvers.position import (
    HandInput,
    Position,
    Solution,
    TableInput,
    black_heart_rules,
    check_objective,
    count_broken,
    make_position,
    objective_value,
    score_key,
)
from rummyai.solvers.reference_black_heart import reference_black_heart
from rummyai.variants import Variant


@dataclass(frozen=True)
class _Candidate:
    info: MeldInfo
    counts: tuple[int, ...]  # card kinds used (53 entries)
    open_value: int


def _rank_sequences() -> Iterator[list[int]]:
    """Every sequence of consecutive ranks of length 3..13, written low to high: A..K, then the
    ones ending in a high ace (..K A) and the ones wrapping past it (..K A 2..). Which of them
    are runs is left to `analyze_meld`."""
    for start in range(1, 14):
        for length in range(3, 14):
            yield [(start - 1 + k) % 13 + 1 for k in range(length)]


def _wild_fillings(variant: Variant, avail: list[int], count: int) -> list[tuple[int, ...]]:
    """Every ordered choice of `count` available wild cards (jokers, Rhine's wild twos)."""
    pool = [c for c in range(53) if avail[c] and variant.always_wild(c) for _ in range(avail[c])]
    return sorted(set(permutations(pool, count)))


def _wild_room(variant: Variant, avail: list[int]) -> int:
    """The most wilds one meld can hold: those available, at most the variant's cap per meld
    (a meld with more would be refused anyway, and Rhine's wild twos make thousands of them)."""
    wilds = sum(avail[c] for c in range(53) if variant.always_wild(c))
    cap = variant.max_wilds_per_meld
    return wilds if cap is None else min(wilds, cap)


def _runs(variant: Variant, avail: list[int]) -> Iterator[tuple[Slot, ...]]:
    free = [avail[c] if not variant.always_wild(c) else 0 for c in range(53)]
    wilds = _wild_room(variant, avail)
    for suit in range(4):
        for ranks in _rank_sequences():
            length = len(ranks)
            cards = [make_card(r, suit) for r in ranks]
            missing = [i for i, c in enumerate(cards) if free[c] == 0]
            if len(missing) > wilds:
                continue
            present = [i for i in range(length) if i not in missing]
            for extra in range(wilds - len(missing) + 1):
                for chosen in combinations(present, extra):
                    spots = sorted(set(missing) | set(chosen))
                    for filling in _wild_fillings(variant, avail, len(spots)):
                        wild = dict(zip(spots, filling, strict=True))
                        yield tuple(
                            Slot(wild[i], Meaning(ranks[i], suit)) if i in wild else Slot(cards[i])
                            for i in range(length)
                        )


def _groups(variant: Variant, avail: list[int]) -> Iterator[tuple[Slot, ...]]:
    wilds = _wild_room(variant, avail)
    for rank in range(1, 14):
        cards = [make_card(rank, s) for s in range(4)]
        ranges = [range(1) if variant.always_wild(c) else range(avail[c] + 1) for c in cards]
        for numbers in product(*ranges):
            naturals = [c for c, n in zip(cards, numbers, strict=True) for _ in range(n)]
            if not naturals:
                continue
            for j in range(wilds + 1):
                if len(naturals) + j < 3:
                    continue
                for filling in _wild_fillings(variant, avail, j):
                    if list(filling) != sorted(filling):
                        continue  # a group's wilds are interchangeable: one order is enough
                    yield tuple(Slot(c) for c in naturals) + tuple(Slot(w, Meaning(rank)) for w in filling)


def candidate_melds(variant: Variant, avail: list[int], deadline: float | None = None) -> list[_Candidate]:
    """Every valid meld (by `analyze_meld`) that the available cards can form; `ReferenceTimeout`
    once `deadline` (a `time.perf_counter` instant) has passed."""
    seen: set[tuple[int, ...]] = set()
    out: list[_Candidate] = []
    for n, slots in enumerate(itertools.chain(_runs(variant, avail), _groups(variant, avail))):
        if deadline is not None and n % 256 == 0 and time.perf_counter() > deadline:
            raise ReferenceTimeout
        try:
            info = analyze_meld(variant, slots)
        except MeldError:
            continue
        counts = [0] * 53
        for card in info.cards:
            counts[card] += 1
        value = opening_value(variant, info)
        key = (*counts, value, *(hash(s) for s in info.slots))
        if key in seen:
            continue
        seen.add(key)
        out.append(_Candidate(info, tuple(counts), value))
    return out


def _opening_met(rules: Variant, new: list[_Candidate]) -> bool:
    """Whether these new melds from the hand make a points opening (one of them alone, under
    `opening_single_meld`)."""
    values = [c.open_value for c in new]
    total = max(values, default=0) if rules.opening_single_meld else sum(values)
    return total >= rules.opening_points


Accept = Callable[[Sequence[int]], bool]


def turn_rules(position: Position, committed: Sequence[int], taken: int | None) -> Accept:
    """Whether a play (the hand cards it puts on the table) keeps the turn's card duties: every
    `committed` card is played, and when the variant forbids discarding the card `taken` from the
    pile and needs a discard, some other physical card is left for it. Copies of one kind are
    alike, so a played copy of the taken kind is taken to be the taken card itself."""
    rules = position.variant
    must = Counter(committed)
    held = position.hand_counts()
    guard = taken is not None and rules.no_rediscard_of_taken and rules.go_out_by_discard_only

    def accept(played: Sequence[int]) -> bool:
        done = Counter(played)
        if any(done[c] < n for c, n in must.items()):
            return False
        if guard and taken is not None:
            left = len(position.hand) - len(played)
            taken_left = held[taken] > 0 and done[taken] == 0
            return left - (1 if taken_left else 0) >= 1
        return True

    return accept


JUDGE_STEPS = 100  # a judged table costs about as much as trying this many melds


class ReferenceTimeout(Exception):
    """The exhaustive search reached its deadline or step budget before it had seen every play."""


def reference_solve(
    variant: Variant | str,
    hand: HandInput,
    table: TableInput = (),
    *,
    opened: bool = True,
    objective: str = "cards",
    max_cards: int | None = None,
    committed: HandInput = (),
    taken: str | int | None = None,
    score: int = 0,
    deadline: float | None = None,
    max_steps: int | None = None,
) -> Solution:
    """Exhaustive best move (small positions only). `committed` cards must be played (raises
    `IllegalMoveError` when no legal play holds them); `taken` is the card taken from the discard
    pile (see `turn_rules`); Black Heart reads `score` for its opening chart. A tile-style search
    stops with `ReferenceTimeout` past `deadline` (a `time.perf_counter` instant) or after
    `max_steps` steps (melds tried as the next of a set, a table judged counting `JUDGE_STEPS`): a bound
    that does not depend on the machine's speed."""
    check_objective(objective)
    position = make_position(variant, hand, table, opened)
    rules = position.variant
    must = make_position(rules, committed).hand if committed else ()
    if black_heart_rules(rules):
        return reference_black_heart(position, objective, max_cards, must, score)
    taken_card = None if taken is None else make_position(rules, [taken]).hand[0]
    accept = turn_rules(position, must, taken_card)
    if not rules.manipulation:
        answer = _fixed_table(position, objective, max_cards, accept)
        if must and not answer.played:
            raise IllegalMoveError("5.2", "the committed card cannot be placed on the table this turn")
        return answer
    if not rules.tile_style:
        raise RummyError(f"the reference solver does not support variant {rules.id!r}")
    free = rules.joker_rules.free_table_jokers
    start = time.perf_counter()
    caps = [c for c in (max_cards, rules.max_hand_cards_per_turn) if c is not None]
    cap = min(caps) if caps else 99
    hand = position.hand_counts()
    exclusive = not opened and rules.opening_turn_exclusive
    table_counts = [0] * 53 if exclusive else position.table_counts()
    avail = [h + t for h, t in zip(hand, table_counts, strict=True)]
    if exclusive and rules.opening_wild_value == "forbidden":
        avail[JOKER] = 0
    candidates = candidate_melds(rules, avail, deadline)
    found: list[tuple[tuple[int, int], list[int], list[MeldInfo]]] = []
    found_key = (0, 0)

    steps = 0
    if deadline is not None and time.perf_counter() > deadline:
        raise ReferenceTimeout

    def step(count: int = 1) -> None:
        nonlocal steps
        steps += count
        if max_steps is not None and steps > max_steps:
            raise ReferenceTimeout
        if deadline is not None and steps % 256 < count and time.perf_counter() > deadline:
            raise ReferenceTimeout

    # each candidate's cards as (kind, copies) pairs; `used` is updated in place and `deficit`
    # counts the table copies not yet placed (the table is whole when it reaches 0)
    parts = [tuple((card, n) for card, n in enumerate(cand.counts) if n) for cand in candidates]
    used = [0] * 53
    deficit = sum(table_counts)

    def search(index: int, chosen: list[_Candidate]) -> None:
        nonlocal deficit
        if not deficit:
            played = [c for c in range(53) for _ in range(used[c] - table_counts[c])]
            ok = 0 < len(played) <= cap and accept(played)
            if ok and exclusive:
                ok = _opening_met(rules, chosen)
            if ok:
                found.append((score_key(position, objective, played), played, [c.info for c in chosen]))
        for k in range(index, len(candidates)):
            step()
            cards = parts[k]
            if any(used[c] + n > avail[c] for c, n in cards):
                continue
            placed = 0
            for c, n in cards:
                placed += min(n, max(table_counts[c] - used[c], 0))
                used[c] += n
            deficit -= placed
            chosen.append(candidates[k])
            search(k, chosen)
            chosen.pop()
            for c, n in cards:
                used[c] -= n
            deficit += placed

    search(0, [])
    found.sort(key=lambda f: f[0], reverse=True)
    played: list[int] = []
    melds: list[tuple[Slot, ...]] = []
    broken = 0
    for key, cand_played, cand_infos in found:
        if played and key < found_key:
            break  # past the best plays: keep the fewest-broken one among them
        layout = [tuple(i.slots) for i in cand_infos]
        if exclusive:
            layout = [tuple(i.slots) for i in position.table] + layout
        if played and count_broken(position, layout) >= broken:
            continue
        step(JUDGE_STEPS)
        if exclusive or (free and opened) or judged_legal(position, layout, deadline):
            played, melds, found_key = cand_played, layout, key
            broken = count_broken(position, layout)
    if deadline is not None and time.perf_counter() > deadline:
        raise ReferenceTimeout  # the judge may have refused a table for want of time
    if must and not played:
        raise IllegalMoveError("5.2", "the committed card cannot be placed on the table this turn")
    if not played:
        melds = [tuple(i.slots) for i in position.table]
    points = sum(rules.hand_values[c] for c in played)
    value = objective_value(position, objective, played)
    ms = (time.perf_counter() - start) * 1000
    return Solution(tuple(played), tuple(melds), "optimal", objective, value, len(played), points, ms, broken)


def _rank(position: int) -> int:
    """Rank 1..13 of a run position (14 is the high ace)."""
    return 1 if position == 14 else position


def _grown(info: MeldInfo, form: MeldInfo, swaps_ok: bool) -> int | None:
    """How many of `info`'s jokers `form` frees by swaps if `form` is `info` with cards laid off
    (None if it is not)."""
    if form.kind != info.kind:
        return None
    if info.kind == "run":
        if form.suit != info.suit:
            return None
        # keyed by rank: a lay-off before a low ace (K A 2 3 under cyclic laying) makes it high
        at = {
            _rank(p): pair
            for p, pair in zip(form.positions, zip(form.slots, form.as_wild, strict=True), strict=True)
        }
        swaps = 0
        for slot, wild, position in zip(info.slots, info.as_wild, info.positions, strict=True):
            if _rank(position) not in at:
                return None
            slot_f, wild_f = at[_rank(position)]
            if wild and not wild_f:
                swaps += 1
            elif not wild and (wild_f or slot_f.card != slot.card):
                return None
        return swaps if swaps == 0 or swaps_ok else None
    if form.rank != info.rank:
        return None
    mine = sorted(s.card for s, w in zip(info.slots, info.as_wild, strict=True) if not w)
    theirs = [s.card for s, w in zip(form.slots, form.as_wild, strict=True) if not w]
    for card in mine:
        if card not in theirs:
            return None
        theirs.remove(card)
    swaps = max(0, info.wild_count - form.wild_count)
    if swaps > len(theirs) or (swaps and not swaps_ok):
        return None
    return swaps


def _open_then_swap(
    position: Position, objective: str, cap: int, accept: Accept
) -> tuple[tuple[int, int], list[int], list[MeldInfo]]:
    """Rummy Palace: swaps are allowed after the opening's 30, in the same turn (§4.4). Every set
    of hand melds worth the 30 (hand jokers only), then the best opened turn from what is left
    onto the table with those melds added."""
    rules = position.variant
    hand = position.hand_counts()
    melds = candidate_melds(rules, hand)
    best: tuple[tuple[int, int], list[int], list[MeldInfo]] = ((0, 0), [], [])

    def opened_turn(chosen: list[_Candidate], used: list[int]) -> None:
        nonlocal best
        laid = sum(used)
        if laid > cap:
            return
        rest = [card for card in range(53) for _ in range(hand[card] - used[card])]
        after = Position(rules, tuple(rest), position.table + tuple(c.info for c in chosen), True)
        opening = [card for card in range(53) for _ in range(used[card])]
        answer = _fixed_table(after, objective, cap - laid, lambda more: accept([*opening, *more]))
        if not accept([*opening, *answer.played]):
            return  # the opening alone, with nothing after it, breaks a duty
        played = sorted(opening + list(answer.played))
        melds_after = [analyze_meld(rules, m) for m in answer.melds]
        entry = (score_key(position, objective, played), played, melds_after)
        if entry[0] > best[0]:
            best = entry

    def grow(index: int, chosen: list[_Candidate], used: list[int]) -> None:
        if chosen and _opening_met(rules, chosen):
            opened_turn(chosen, used)
            return
        for k in range(index, len(melds)):
            total = [u + c for u, c in zip(used, melds[k].counts, strict=True)]
            if any(t > h for t, h in zip(total, hand, strict=True)):
                continue
            grow(k, [*chosen, melds[k]], total)

    grow(0, [], [0] * 53)
    return best


def _fixed_table(position: Position, objective: str, max_cards: int | None, accept: Accept) -> Solution:
    """Draw-and-discard variants: every table meld stays, possibly grown by lay-offs or with
    jokers swapped out; new melds come from the hand (and swapped jokers). `accept` tells the
    plays that keep the turn's duties (see `turn_rules`)."""
    rules = position.variant
    start = time.perf_counter()
    hand = position.hand_counts()
    table_counts = position.table_counts()
    avail = [h + t for h, t in zip(hand, table_counts, strict=True)]
    caps = [c for c in (max_cards,) if c is not None]
    if rules.go_out_by_discard_only:
        caps.append(len(position.hand) - 1)
    cap = min(caps) if caps else 99
    needs_open = rules.opening == "points" and not position.opened
    swaps_ok = rules.joker_rules.exact_swaps and position.opened
    candidates = candidate_melds(rules, avail)
    forms: list[list[_Candidate]] = []
    for info in position.table:
        forms.append([c for c in candidates if _grown(info, c.info, swaps_ok) is not None])
    best: tuple[tuple[int, int], list[int], list[MeldInfo]] = ((0, 0), [], [])

    def finish(used: list[int], chosen: list[_Candidate], new: list[_Candidate]) -> None:
        nonlocal best
        if any(u < t for u, t in zip(used, table_counts, strict=True)):
            return
        played = [c for c in range(53) for _ in range(used[c] - table_counts[c])]
        if not 0 < len(played) <= cap or not accept(played):
            return
        if needs_open and not _opening_met(rules, new):
            return
        score = score_key(position, objective, played)
        if score > best[0]:
            infos = [c.info for c in chosen + new]
            if swaps_ok and not swaps_in_order(position, played, [info.slots for info in infos]):
                return  # two swapped jokers needed in one meld at once (§4.5)
            best = (score, played, infos)

    def add_new(index: int, used: list[int], chosen: list[_Candidate], new: list[_Candidate]) -> None:
        finish(used, chosen, new)
        for k in range(index, len(candidates)):
            cand = candidates[k]
            total = [u + c for u, c in zip(used, cand.counts, strict=True)]
            if any(n > a for n, a in zip(total, avail, strict=True)):
                continue
            new.append(cand)
            add_new(k, total, chosen, new)
            new.pop()

    def pick(m: int, used: list[int], chosen: list[_Candidate]) -> None:
        if m == len(forms):
            add_new(0, used, chosen, [])
            return
        for cand in forms[m]:
            total = [u + c for u, c in zip(used, cand.counts, strict=True)]
            if any(n > a for n, a in zip(total, avail, strict=True)):
                continue
            pick(m + 1, total, [*chosen, cand])

    pick(0, [0] * 53, [])
    if needs_open and rules.joker_rules.exact_swaps:
        best = max(best, _open_then_swap(position, objective, cap, accept), key=lambda b: b[0])
    _, played, infos = best
    melds = [tuple(i.slots) for i in infos] if played else [tuple(i.slots) for i in position.table]
    points = sum(rules.hand_values[c] for c in played)
    value = objective_value(position, objective, played)
    ms = (time.perf_counter() - start) * 1000
    return Solution(tuple(played), tuple(melds), "optimal", objective, value, len(played), points, ms)
