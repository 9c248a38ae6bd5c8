"""Exact dynamic program for the free-joker fast path (issue #4 speed spike), compiled with numba.

It answers the positions `rummyai.solvers.fast.fast_path_ok` accepts (an opened turn, free
jokers, no cap on the cards played, nor a variant cap the hand could reach) when the variant's runs are plain (ace low, no wrap) and no
natural has more than two copies. Every table card stays on the table, hand cards are optional,
and the play maximises (cards, points) or, for the points and penalty objectives, (points, cards).

The program walks the 52 natural cells number by number, colour by colour. A state holds, per
colour, the lengths of its two run slots in progress (0, 1, 2 or "long enough", as an unordered
pair: one slot per copy of a card), the natural counts of the current number's groups (as a
sorted tuple: at most (4*2 + jokers) // min_meld groups), and the jokers placed so far. At a cell
the copies used (table copies forced, hand copies optional) extend or open slots or join distinct
groups; a joker may extend or open a slot in place of the card. After the last colour of a number
each group is closed with jokers up to its size limits. Slots of length 1-2 must go on, and a
run ends when its slot is left empty. Because the fast path allows at most min_meld - 1 jokers,
every meld of min_meld cards already holds a natural. Layers are sparse lists of reachable states
(a dense key -> position array finds duplicates), with a back-pointer and the choice made, so the
best path is replayed into real melds with every joker's stand-in written out.

Two run slots per colour cover every cell at most twice, which natural cards never exceed (two
copies). A third concurrent run of one colour could only stand on a joker; the tests compare
against CP-SAT, whose windows allow that, on positions rich in jokers.

`solve_dp(position, objective)` returns a `Solution` marked optimal, or None when it cannot answer
exactly (a position outside its rules, or more reachable states than its buffers hold), so the
caller falls back to CP-SAT.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import Counter
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from numba import njit

from rummyai.cards import JOKER, Meaning, Slot, make_card, rank_of, suit_of
from rummyai.playable import playable_cards
from rummyai.solvers.fast import fast_path_ok
from rummyai.solvers.position import Position, Solution, check_objective, count_broken, objective_value
from rummyai.variants import RunRule, Variant

SUITS = 4
SLOTS = 2  # run slots per colour: one per copy of a natural
DEFAULT_CAP = 3_000_000  # states kept over all layers before the program gives up (returns None)

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Tables:
    """The variant's state encoding: run-slot pairs, group tuples and their transitions."""

    min_meld: int
    group_max: int
    ranks: int
    max_jokers: int
    pair_p: I32  # pair index -> longer slot length (capped at min_meld)
    pair_q: I32  # pair index -> shorter slot length
    pair_index: I32  # [p, q] (p >= q) -> pair index
    group_next: (
        I32  # [group index, mask] -> group index after adding one natural per chosen group, -1 if not allowed
    )
    group_pop: I32  # mask -> chosen groups
    group_lo: I32  # group index -> fewest jokers that close every group validly (-1: impossible)
    group_hi: I32  # group index -> most jokers the groups can take
    dominators: I32  # [pair, k] -> the pairs that can do whatever this pair can (-1 ends the row)
    groups: tuple[tuple[int, ...], ...]  # group index -> natural counts, sorted descending

    @property
    def keys(self) -> int:
        """Size of the dense key space: pair states ** colours x group tuples x joker counts."""
        return int(len(self.pair_p) ** SUITS * len(self.groups) * (self.max_jokers + 1))


def dp_supported(variant: Variant) -> bool:
    """Whether the program's encoding covers the variant's meld rules (besides `fast_path_ok`)."""
    naturals = variant.copies[:JOKER]
    return (
        all(rule == RunRule() for rule in variant.run_rules)
        and len(variant.run_rules) == SUITS
        and max(naturals) <= SLOTS
        and variant.group_max is not None
        and variant.min_meld >= 2
        and variant.copies[JOKER] == variant.jokers
    )


def build_tables(variant: Variant) -> Tables:
    """Enumerate run-slot pairs and sorted group tuples and their transitions for `variant`."""
    length = variant.min_meld
    gmax = variant.group_max
    assert gmax is not None
    jokers = variant.jokers
    pairs = [(p, q) for p in range(length + 1) for q in range(p + 1)]
    pair_index = np.full((length + 1, length + 1), -1, dtype=np.int32)
    for i, (p, q) in enumerate(pairs):
        pair_index[p, q] = i
    n_groups = (SUITS * SLOTS + jokers) // length
    cap = min(gmax, SUITS)
    groups = sorted(
        {tuple(sorted(t, reverse=True)) for t in itertools.product(range(cap + 1), repeat=n_groups)}
    )
    group_id = {g: i for i, g in enumerate(groups)}
    masks = 1 << n_groups
    group_next = np.full((len(groups), masks), -1, dtype=np.int32)
    for gi, g in enumerate(groups):
        for mask in range(masks):
            if _mask_ok(g, mask, cap):
                new = tuple(v + ((mask >> k) & 1) for k, v in enumerate(g))
                group_next[gi, mask] = group_id[new]
    lo = np.zeros(len(groups), dtype=np.int32)
    hi = np.zeros(len(groups), dtype=np.int32)
    for gi, g in enumerate(groups):
        lo[gi] = sum(max(0, length - v) for v in g if v > 0)
        hi[gi] = sum(gmax - v for v in g if v > 0)
        if any(v > 0 and v + max(0, length - v) > gmax for v in g):
            lo[gi] = -1
    dominators = np.full((len(pairs), len(pairs)), -1, dtype=np.int32)
    for i, (p, q) in enumerate(pairs):
        better = [k for k, (a, b) in enumerate(pairs) if k != i and _pair_covers((a, b), (p, q), length)]
        dominators[i, : len(better)] = better
    return Tables(
        min_meld=length,
        group_max=gmax,
        ranks=13,
        max_jokers=jokers,
        pair_p=np.array([p for p, _ in pairs], dtype=np.int32),
        pair_q=np.array([q for _, q in pairs], dtype=np.int32),
        pair_index=pair_index,
        group_next=group_next,
        group_pop=np.array([bin(m).count("1") for m in range(masks)], dtype=np.int32),
        group_lo=lo,
        group_hi=hi,
        dominators=dominators,
        groups=tuple(groups),
    )


def _slot_covers(x: int, y: int, length: int) -> bool:
    """A slot of length `x` can do whatever one of length `y` can: a finished run (length
    `length`) may go on or stop, a run in progress only goes on, and longer is never worse."""
    return x in (y, length) or x >= y >= 1


def _pair_covers(a: tuple[int, int], b: tuple[int, int], length: int) -> bool:
    """Slot pair `a` covers pair `b` under one of the two matchings of their slots."""
    straight = _slot_covers(a[0], b[0], length) and _slot_covers(a[1], b[1], length)
    crossed = _slot_covers(a[0], b[1], length) and _slot_covers(a[1], b[0], length)
    return straight or crossed


def _mask_ok(groups: tuple[int, ...], mask: int, cap: int) -> bool:
    """A mask adds one natural to each chosen group; among equal groups only a prefix is chosen
    (the others give the same sorted tuple), and no group passes `cap` naturals."""
    for k, v in enumerate(groups):
        chosen = (mask >> k) & 1
        if chosen and v >= cap:
            return False
        if chosen and k > 0 and groups[k - 1] == v and not (mask >> (k - 1)) & 1:
            return False
    return True


@njit(cache=True)
def _joker_ok(table: I32, hand: I32, colour: int, v: int, ranks: int, span: int) -> bool:
    """Whether colour `colour` has a natural available in one of the `span` cells after number `v`
    (0-based): a joker on a slot is useful only when a natural may follow it."""
    for w in range(v + 1, min(v + 1 + span, ranks)):
        card = colour * 13 + w
        if table[card] + hand[card] > 0:
            return True
    return False


@njit(cache=True)
def _cell(
    card: int,
    colour: int,
    v: int,
    t: int,
    h: int,
    gain: int,
    floor: int,
    jokers: int,
    length: int,
    ranks: int,
    table: I32,
    hand: I32,
    pair_p: I32,
    pair_q: I32,
    pair_index: I32,
    group_next: I32,
    group_pop: I32,
    n_pairs: int,
    n_groups: int,
    j1: int,
    power: int,
    slot_of: I32,
    keys: I64,
    scores: I64,
    parents: I32,
    choices: I32,
    start: int,
    end: int,
) -> int:
    """Expand the states [start, end) over one cell into [end, returned end), keeping scores of at
    least `floor`; -1 when the buffers are full."""
    cap = keys.shape[0]
    masks = group_next.shape[1]
    left = ranks - 1 - v  # cells of this colour still to come
    joker_open = _joker_ok(table, hand, colour, v, ranks, length - 1)
    out = end
    for i in range(start, end):
        key = keys[i]
        jk = key % j1
        rest = key // j1
        g = rest % n_groups
        runs = rest // n_groups
        pair = (runs // power) % n_pairs
        p = pair_p[pair]
        q = pair_q[pair]
        base_runs = runs - pair * power
        for da in range(3):
            if da == 0 and 0 < p < length:
                continue  # a short run must go on
            if da == 2 and (jk >= jokers or (p == 0 and not joker_open)):
                continue
            na = 0 if da == 0 else min(p + 1, length)
            if 0 < na < length and left < length - na:
                continue  # too close to the last number to reach the minimum length
            for db in range(3):
                if p == q and db > da:
                    continue  # equal slots: one order is enough
                if db == 0 and 0 < q < length:
                    continue
                if da == 0 and p == length and db != 0 and q == 0:
                    continue  # ending a run to open another: extending it is at least as good
                jok = int(da == 2) + int(db == 2)
                if jk + jok > jokers:
                    continue
                if db == 2 and q == 0 and not joker_open:
                    continue
                nb = 0 if db == 0 else min(q + 1, length)
                if 0 < nb < length and left < length - nb:
                    continue
                nat = int(da == 1) + int(db == 1)
                if nat > t + h:
                    continue
                hi_pair = pair_index[na, nb] if na >= nb else pair_index[nb, na]
                new_runs = base_runs + hi_pair * power
                for mask in range(masks):
                    ng = group_next[g, mask]
                    if ng < 0:
                        continue
                    n = nat + group_pop[mask]
                    if n < t or n > t + h:
                        continue
                    new_key = (new_runs * n_groups + ng) * j1 + jk + jok
                    sc = scores[i] + (n - t) * gain
                    if sc < floor:
                        continue  # cannot reach the threshold even with every card still to come
                    at = slot_of[new_key]
                    if at < 0:
                        if out >= cap:
                            return -1
                        slot_of[new_key] = out
                        keys[out] = new_key
                        scores[out] = sc
                        parents[out] = i
                        choices[out] = (da * 3 + db) * masks + mask
                        out += 1
                    elif sc > scores[at]:
                        scores[at] = sc
                        parents[at] = i
                        choices[at] = (da * 3 + db) * masks + mask
    return out


@njit(cache=True)
def _close(
    jokers: int,
    group_lo: I32,
    group_hi: I32,
    strict: bool,
    n_groups: int,
    j1: int,
    slot_of: I32,
    keys: I64,
    scores: I64,
    parents: I32,
    choices: I32,
    start: int,
    end: int,
) -> int:
    """Close the number's groups with the fewest jokers they need (`strict`: or any number up to
    their limits); -1 when the buffers are full."""
    cap = keys.shape[0]
    out = end
    for i in range(start, end):
        key = keys[i]
        jk = key % j1
        rest = key // j1
        g = rest % n_groups
        runs = rest // n_groups
        lo = group_lo[g]
        if lo < 0:
            continue
        hi = min(group_hi[g], jokers - jk) if strict else min(lo, jokers - jk)
        for x in range(lo, hi + 1):
            new_key = runs * n_groups * j1 + jk + x
            at = slot_of[new_key]
            if at < 0:
                if out >= cap:
                    return -1
                slot_of[new_key] = out
                keys[out] = new_key
                scores[out] = scores[i]
                parents[out] = i
                choices[out] = x
                out += 1
            elif scores[i] > scores[at]:
                scores[at] = scores[i]
                parents[at] = i
                choices[at] = x
    return out


@njit(cache=True)
def _prune(
    j1: int,
    n_groups: int,
    n_pairs: int,
    dominators: I32,
    first: int,
    last: int,
    strict: bool,
    slot_of: I32,
    keys: I64,
    scores: I64,
    parents: I32,
    choices: I32,
    start: int,
    end: int,
) -> int:
    """Drop every state of [start, end) matched by another with at least its score, no more jokers
    placed (left-over jokers join melds at the end) and, in one colour of `first`..`last`, a
    run-slot pair that can do whatever its own can (`dominators`); with `strict`, only the same
    jokers placed; compact the survivors and clear
    every key from `slot_of`. Returns the new end."""
    alive = np.ones(end - start, dtype=np.bool_)
    stride = n_groups * j1
    for i in range(start, end):
        key = keys[i]
        jk = 0 if strict else key % j1  # strict: jokers left over are not placed later
        score = scores[i]
        dead = False
        for d in range(1, jk + 1):
            at = slot_of[key - d]
            if at >= 0 and scores[at] >= score:
                dead = True
                break
        runs = key // stride
        power = stride
        for c in range(last + 1):
            if dead:
                break
            pair = runs % n_pairs
            runs //= n_pairs
            if c < first:
                power *= n_pairs
                continue
            for k in range(dominators.shape[1]):
                other = dominators[pair, k]
                if other < 0:
                    break
                base = key + (other - pair) * power
                for d in range(jk + 1):
                    at = slot_of[base - d]
                    if at >= 0 and scores[at] >= score:
                        dead = True
                        break
                if dead:
                    break
            power *= n_pairs
        alive[i - start] = not dead
    for i in range(start, end):
        slot_of[keys[i]] = -1
    w = start
    for i in range(start, end):
        if alive[i - start]:
            keys[w] = keys[i]
            scores[w] = scores[i]
            parents[w] = parents[i]
            choices[w] = choices[i]
            w += 1
    return w


@njit(cache=True)
def _search(
    table: I32,
    hand: I32,
    unit: I64,
    jokers: int,
    length: int,
    ranks: int,
    pair_p: I32,
    pair_q: I32,
    pair_index: I32,
    group_next: I32,
    group_pop: I32,
    group_lo: I32,
    group_hi: I32,
    dominators: I32,
    n_pairs: int,
    n_groups: int,
    j1: int,
    slot_of: I32,
    keys: I64,
    scores: I64,
    parents: I32,
    choices: I32,
    bounds: I32,
    threshold: int,
    strict: bool,
    table_jokers: int,
    hand_jokers: int,
    joker_unit: int,
) -> tuple[int, int]:
    """Fill the layers; return (index of the best final state or -1 if none, 1 when the buffers
    ran out else 0). Only states that may still reach `threshold` are kept. Without `strict`,
    jokers count nothing here and those left over join melds afterwards; `strict` places every
    joker here (table jokers must be placed, hand jokers score `joker_unit`). Key = ((pairs by
    colour) * n_groups + group) * j1 + jokers placed, colour c's pair index being digit c in base
    `n_pairs`."""
    keys[0] = 0
    scores[0] = 0
    parents[0] = -1
    choices[0] = 0
    start = 0
    end = 1
    layer = 0
    bounds[0] = 0
    bounds[1] = 1
    potential = hand_jokers * joker_unit if strict else 0  # every hand card not yet reached
    for card in range(52):
        potential += hand[card] * unit[card]
    for v in range(ranks):
        power = 1
        for c in range(4):
            card = c * 13 + v
            potential -= hand[card] * unit[card]
            out = _cell(
                card, c, v, table[card], hand[card], unit[card], threshold - potential, jokers, length,
                ranks, table, hand,
                pair_p, pair_q, pair_index, group_next, group_pop, n_pairs, n_groups, j1, power,
                slot_of, keys, scores, parents, choices, start, end,
            )  # fmt: skip
            if out < 0:
                return -1, 1
            end_ = _prune(
                j1,
                n_groups,
                n_pairs,
                dominators,
                c,
                c,
                strict,
                slot_of,
                keys,
                scores,
                parents,
                choices,
                end,
                out,
            )
            start, end = end, end_
            layer += 1
            bounds[layer + 1] = end
            power *= n_pairs
        out = _close(
            jokers,
            group_lo,
            group_hi,
            strict,
            n_groups,
            j1,
            slot_of,
            keys,
            scores,
            parents,
            choices,
            start,
            end,
        )
        if out < 0:
            return -1, 1
        end_ = _prune(
            j1, n_groups, n_pairs, dominators, 0, 3, strict, slot_of, keys, scores, parents, choices, end, out
        )
        start, end = end, end_
        layer += 1
        bounds[layer + 1] = end
    best = -1
    best_score = -1
    for i in range(start, end):
        jk = keys[i] % j1
        runs = keys[i] // j1 // n_groups
        ok = not strict or jk >= table_jokers
        for _ in range(4):
            pair = runs % n_pairs
            runs //= n_pairs
            if 0 < pair_q[pair] < length or 0 < pair_p[pair] < length:
                ok = False
        score = scores[i] + (jk - table_jokers) * joker_unit if strict else scores[i]
        if ok and score >= threshold and score > best_score:
            best = i
            best_score = score
    return best, 0


class _Buffers:
    """Per-thread work arrays sized for one variant's key space (allocated once, reused)."""

    def __init__(self, tables: Tables, cap: int) -> None:
        self.slot_of = np.full(tables.keys, -1, dtype=np.int32)
        self.keys = np.empty(cap, dtype=np.int64)
        self.scores = np.empty(cap, dtype=np.int64)
        self.parents = np.empty(cap, dtype=np.int32)
        self.choices = np.empty(cap, dtype=np.int32)
        self.bounds = np.zeros(tables.ranks * (SUITS + 1) + 2, dtype=np.int32)


_LOCAL = threading.local()


def _tables_and_buffers(variant: Variant, cap: int) -> tuple[Tables, _Buffers]:
    """The variant's tables and this thread's buffers (built on first use)."""
    cache: dict[tuple[Variant, int], tuple[Tables, _Buffers]] | None = getattr(_LOCAL, "cache", None)
    if cache is None:
        cache = {}
        _LOCAL.cache = cache
    entry = cache.get((variant, cap))
    if entry is None:
        tables = build_tables(variant)
        entry = (tables, _Buffers(tables, cap))
        cache[(variant, cap)] = entry
    return entry


def solve_dp(position: Position, objective: str = "cards", cap: int = DEFAULT_CAP) -> Solution | None:
    """Best play of an opened free-joker position by the dynamic program, proven optimal; None when
    the program cannot answer exactly (rules outside its encoding, or more than `cap` states)."""
    check_objective(objective)
    start = time.perf_counter()
    variant = position.variant
    cap_cards = variant.max_hand_cards_per_turn  # a cap that could bind is not in the encoding
    if not fast_path_ok(position, None) or not dp_supported(variant):
        return None
    if cap_cards is not None and len(position.hand) > cap_cards:
        return None
    tables, buf = _tables_and_buffers(variant, cap)
    hand = np.array(position.hand_counts(), dtype=np.int32)
    table = np.array(position.table_counts(), dtype=np.int32)
    unit = _units(position, objective)
    naturals = _playable_counts(position)
    _LOCAL.states = 0
    for strict in (False, True):
        best = _best_state(tables, buf, table, naturals, unit, int(hand[JOKER]), strict)
        if best is None:
            return None
        played, melds, used = _replay(position, tables, _path(buf, best))
        if strict:
            played.extend([JOKER] * (used - int(table[JOKER])))
            break
        if not melds:
            break  # nothing on the table: a joker alone is never played
        # every joker is worth playing: those no stand-in needed join melds with room, if any has
        # room; else the search runs again placing every joker itself
        if _add_jokers(melds, int(hand[JOKER] + table[JOKER]) - used, tables.group_max):
            played.extend([JOKER] * int(hand[JOKER]))
            break
    return _solution(position, objective, sorted(played), melds, start)


def _best_state(
    tables: Tables, buf: _Buffers, table: I32, naturals: I32, unit: I64, hand_jokers: int, strict: bool
) -> int | None:
    """Index of the best final state, searched at falling thresholds; None when the buffers ran out."""
    table_jokers = int(table[JOKER])
    bonus = hand_jokers * int(unit[JOKER]) if strict else 0
    for threshold in _thresholds(naturals, unit, bonus):
        best, full = _search(
            table,
            naturals,
            unit,
            hand_jokers + table_jokers,
            tables.min_meld,
            tables.ranks,
            tables.pair_p,
            tables.pair_q,
            tables.pair_index,
            tables.group_next,
            tables.group_pop,
            tables.group_lo,
            tables.group_hi,
            tables.dominators,
            len(tables.pair_p),
            len(tables.groups),
            tables.max_jokers + 1,
            buf.slot_of,
            buf.keys,
            buf.scores,
            buf.parents,
            buf.choices,
            buf.bounds,
            threshold,
            strict,
            table_jokers,
            hand_jokers,
            int(unit[JOKER]),
        )
        _LOCAL.states += int(buf.keys.shape[0]) if full else int(buf.bounds[-1])
        if full:
            return None
        if best >= 0:
            return int(best)
    raise AssertionError("the start table has no valid arrangement; make_position should have refused it")


def last_state_count() -> int:
    """States kept over every pass of this thread's last `solve_dp` (0 before any)."""
    return int(getattr(_LOCAL, "states", 0))


def _playable_counts(position: Position) -> I32:
    """Hand naturals per kind, without those `playable_cards` proves can never be played."""
    table = [c for info in position.table for c in info.cards]
    counts = np.zeros(JOKER + 1, dtype=np.int32)
    for card in playable_cards(position.variant, position.hand, table, True):
        if card != JOKER:
            counts[card] += 1
    return counts


def _thresholds(naturals: I32, unit: I64, bonus: int) -> list[int]:
    """Scores to reach, highest first: every playable natural (plus `bonus`), then short by 1, 3,
    7, ... of the most valuable card, down to 0 (always reachable: play nothing). A search that
    keeps only the states able to reach a threshold and still finds a play has found the best one."""
    top = int(np.dot(naturals[:JOKER], unit[:JOKER])) + bonus
    values = [int(u) for u, n in zip(unit[:JOKER], naturals[:JOKER], strict=True) if n > 0]
    step = max(values, default=max(bonus, 1))
    out = []
    slack = 0
    while slack < top:
        out.append(top - slack)
        slack = 2 * slack + step
    out.append(0)
    return out


def _units(position: Position, objective: str) -> I64:
    """Score of each hand card kind: cards then points, or points then cards (lexicographic)."""
    hv = position.variant.hand_values
    if objective == "cards":
        scale = sum(hv[c] for c in position.hand) + 1
        values = [scale + hv[c] for c in range(JOKER + 1)]
    else:
        scale = len(position.hand) + 1
        values = [hv[c] * scale + 1 for c in range(JOKER + 1)]
    return np.array(values, dtype=np.int64)


def _path(buf: _Buffers, best: int) -> list[int]:
    """The choice made at every layer on the way to state `best`, first layer first."""
    path: list[int] = []
    i = best
    parents = buf.parents
    choices = buf.choices
    while parents[i] >= 0:
        path.append(int(choices[i]))
        i = int(parents[i])
    path.reverse()
    return path


def _replay(
    position: Position, tables: Tables, path: list[int]
) -> tuple[list[int], list[tuple[Slot, ...]], int]:
    """Rebuild the played naturals, the melds and the jokers placed from the layer choices."""
    length = tables.min_meld
    masks = tables.group_next.shape[1]
    n_groups = len(tables.groups[0])
    table = position.table_counts()
    runs: list[list[list[Slot]]] = [[[] for _ in range(SLOTS)] for _ in range(SUITS)]
    melds: list[tuple[Slot, ...]] = []
    played: list[int] = []
    jokers_used = 0
    steps = iter(path)
    for v in range(tables.ranks):
        rank = v + 1
        groups: list[list[Slot]] = [[] for _ in range(n_groups)]
        for c in range(SUITS):
            choice = next(steps)
            card = make_card(rank, c)
            code, mask = divmod(choice, masks)
            slots = sorted(runs[c], key=lambda r: min(len(r), length), reverse=True)
            n = 0
            for slot, d in zip(slots, divmod(code, 3), strict=True):
                if d == 0 and slot:
                    melds.append(tuple(slot))
                    slot.clear()
                elif d == 1:
                    slot.append(Slot(card))
                    n += 1
                elif d == 2:
                    slot.append(Slot(JOKER, Meaning(rank, c)))
                    jokers_used += 1
            ordered = sorted(groups, key=len, reverse=True)
            for k in range(n_groups):
                if (mask >> k) & 1:
                    ordered[k].append(Slot(card))
                    n += 1
            played.extend([card] * (n - table[card]))
        extra = next(steps)  # jokers the groups take: first what each needs, then any more
        jokers_used += extra
        filled = [g for g in groups if g]
        adds = [max(0, length - len(g)) for g in filled]
        extra -= sum(adds)
        for k, group in enumerate(filled):
            more = min(tables.group_max - len(group) - adds[k], extra)
            adds[k] += more
            extra -= more
            melds.append((*group, *[Slot(JOKER, Meaning(rank))] * adds[k]))
    melds.extend(tuple(slot) for colour in runs for slot in colour if slot)
    return played, melds, jokers_used


def _add_jokers(melds: list[tuple[Slot, ...]], count: int, group_max: int) -> bool:
    """Put `count` more jokers into melds with room (a run's free end, a group below its limit);
    False when no meld has room left."""
    for _ in range(count):
        for k, meld in enumerate(melds):
            extended = _with_joker(meld, group_max)
            if extended is not None:
                melds[k] = extended
                break
        else:
            return False
    return True


def _with_joker(meld: tuple[Slot, ...], group_max: int) -> tuple[Slot, ...] | None:
    """`meld` with one more joker, or None when it has no room."""
    meanings = [
        (s.meaning.rank, s.meaning.suit) if s.meaning else (rank_of(s.card), suit_of(s.card)) for s in meld
    ]
    if len({m[0] for m in meanings}) == 1:  # a group
        return (*meld, Slot(JOKER, Meaning(meanings[0][0]))) if len(meld) < group_max else None
    (first, suit), (last, _) = meanings[0], meanings[-1]
    if last < 13:
        return (*meld, Slot(JOKER, Meaning(last + 1, suit)))
    if first > 1:
        return (Slot(JOKER, Meaning(first - 1, suit)), *meld)
    return None


def _solution(
    position: Position, objective: str, played: list[int], melds: list[tuple[Slot, ...]], start: float
) -> Solution:
    """The `Solution` record (the start table unchanged when nothing is played)."""
    melds = _as_written(position, melds) if played else [tuple(info.slots) for info in position.table]
    points = sum(position.variant.hand_values[c] for c in played)
    value = objective_value(position, objective, played)
    broken = count_broken(position, melds)
    ms = (time.perf_counter() - start) * 1000
    return Solution(tuple(played), tuple(melds), "optimal", objective, value, len(played), points, ms, broken)


def _as_written(position: Position, melds: list[tuple[Slot, ...]]) -> list[tuple[Slot, ...]]:
    """A meld made of exactly a start meld's cards is written as that start meld was."""
    written: dict[tuple[int, ...], tuple[Slot, ...]] = {}
    for info in position.table:
        written.setdefault(tuple(sorted(info.cards)), info.slots)
    out = []
    for meld in melds:
        bag = tuple(sorted(Counter(c for s in meld for c in s.cards()).elements()))
        out.append(written.get(bag, meld))
    return out
