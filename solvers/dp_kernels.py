"""The dynamic program's compiled kernels (`rummyai.solvers.run_dp` drives them): numba functions
over the state encoding of `rummyai.solvers.dp_layout`.

`search` fills the layers of one pass, `playable` drops hand cards that fit no meld, `walk`
follows the back-pointers of the best state. `rummyai.solvers.dp_native` loads them compiled
ahead of time when it can (no numba import), else from here (numba's just-in-time compiler, its
machine code cached on disk by `cache=True`).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

from rummyai.solvers.dp_layout import J1, MASKS, N_PAIRS, N_SUMMARIES

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]


@njit(cache=True, inline="always")
def _joker_ok(table: I32, hand: I32, colour: int, v: int, ranks: int, span: int) -> bool:
    """Whether colour `colour` has a natural available in one of the `span` cells after number `v`
    (0-based): a joker on a slot is useful only when a natural may follow it."""
    for w in range(v + 1, min(v + 1 + span, ranks)):
        card = colour * 13 + w
        if table[card] + hand[card] > 0:
            return True
    return False


@njit(cache=True, inline="always")
def _digit(runs: np.uint64, colour: int) -> np.uint64:
    """Colour `colour`'s run-slot pair in a key's runs part, unsigned (constant divisors: no
    division instruction)."""
    pairs = np.uint64(N_PAIRS)
    if colour == 0:
        return runs % pairs
    if colour == 1:
        return runs // pairs % pairs
    if colour == 2:
        return runs // (pairs * pairs) % pairs
    return runs // (pairs * pairs * pairs) % pairs


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
    shape: I32,
    moves: I32,
    move_counts: I32,
    summary_next: I32,
    group_jokers: I32,
    closing: bool,
    strict: bool,
    power: int,
    masks: int,
    slot_of: I32,
    present: I64,
    runs_count: I32,
    keys: I64,
    scores: I64,
    parents: I32,
    choices: I32,
    start: int,
    end: int,
) -> int:
    """Expand the states [start, end) over one cell into [end, returned end), keeping scores of at
    least `floor` (`runs_count` counts the new states by their runs part, below the closing
    colour); on the number's last colour (`closing`) the groups are closed with jokers too
    (`strict`: every joker count that fits, else the fewest). -1 when the buffers are full.
    The run slots' moves allowed at this cell come from `moves` (`run_dp.slot_moves`: what a slot
    pair may do, by the cells left in the colour, whether a joker may open a slot here and the
    naturals at hand), in the order the choices are tried, so ties keep the first path found.
    `shape` row `card` scores the tie-break (`_shape`): table copies kept in runs and in groups,
    and slots going on where start runs go on; all zero when there is no tie-break."""
    ways = summary_next.shape[1]
    left = min(ranks - 1 - v, length - 1)  # cells of this colour still to come, as far as it matters
    joker_open = _joker_ok(table, hand, colour, v, ranks, length - 1)
    row_base = ((left * 2 + int(joker_open)) * 3 + min(t + h, 2)) * N_PAIRS
    in_runs = shape[card, 0]
    in_groups = shape[card, 1]
    spans = shape[card, 2]
    holders = shape[card, 3]  # tracked start groups holding this card (bits)
    tracked = shape[card, 4]  # tracked start groups of this number, scored on its last colour
    tie = in_runs + in_groups + spans > 0
    # keys and subscripts in unsigned arithmetic: cheaper division by constants, and numba skips
    # the negative-index fix-up
    out = np.uint64(end)
    cap = np.uint64(keys.shape[0])
    for i in range(np.uint64(start), np.uint64(end)):
        key = np.uint64(keys[i])
        jk = np.int64(key % np.uint64(J1))
        rest = key // np.uint64(J1)
        g = rest % np.uint64(N_SUMMARIES)
        runs = rest // np.uint64(N_SUMMARIES)
        mask = np.int64(0)
        if masks > 1:  # masks is 1 or MASKS: a constant divisor
            mask = np.int64(runs % np.uint64(MASKS))
            runs //= np.uint64(MASKS)
        pair = np.int64(_digit(runs, colour))
        base_runs = np.int64(runs) - pair * power
        row = np.uint64(row_base + pair)
        free = jokers - jk
        score = scores[i]
        for m in range(np.uint64(move_counts[row])):
            jok = moves[row, m, 3]
            if jok > free:
                continue
            nat = moves[row, m, 2]
            new_runs = base_runs + moves[row, m, 1] * power
            code = moves[row, m, 0]
            # naturals of this cell sent to the number's groups: the copies used are t..t+h
            for k in range(max(0, t - nat), min(ways - 1, t + h - nat) + 1):
                ng = summary_next[g, np.uint64(k)]
                if ng < 0:
                    continue
                sc = score + (nat + k - t) * gain
                if tie:  # tie-break: cards stay where they were
                    sc += min(nat, in_runs) + min(k, in_groups) + 2 * min(moves[row, m, 4], spans)
                if sc < floor:
                    continue  # cannot reach the threshold even with every card still to come
                choice = (code * ways + k) * J1
                # tracked start groups that lose this card (one of two when only one copy
                # goes to the groups: either may be the one kept)
                lose = 0
                if holders:
                    lose = holders if k == 0 else (1 if holders == 3 and k == 1 else 0)
                for other in range(2 if lose == 1 and holders == 3 else 1):
                    new_mask = mask | (lose << other)
                    # the new state goes into the layer (or raises the score of its twin);
                    # written out here: a call would count references to the arrays, per state
                    if not closing:
                        new_key = np.uint64(
                            ((new_runs * masks + new_mask) * N_SUMMARIES + ng) * J1 + jk + jok
                        )
                        bit = 1 << (new_key & 63)
                        if present[new_key >> 6] & bit == 0:
                            if out >= cap:
                                return -1
                            present[new_key >> 6] |= bit
                            slot_of[new_key] = out
                            runs_count[new_key // np.uint64(N_SUMMARIES * J1)] += 1
                            keys[out] = new_key
                            scores[out] = sc
                            parents[out] = i
                            choices[out] = choice
                            out += np.uint64(1)
                        else:
                            at = np.uint64(slot_of[new_key])
                            if sc > scores[at]:
                                scores[at] = sc
                                parents[at] = i
                                choices[at] = choice
                        continue
                    # last colour of the number: score the tracked groups still whole (twice:
                    # a whole start group is what the tie-break counts) and close the groups
                    # with jokers at once
                    whole = tracked - (new_mask & 1) - (new_mask >> 1 & 1) if tracked else 0
                    options = group_jokers[np.uint64(ng)]
                    for x in range(free - jok + 1):
                        if (options >> x) & 1:
                            new_key = np.uint64(new_runs * masks * N_SUMMARIES * J1 + jk + jok + x)
                            total = sc + 2 * whole
                            bit = 1 << (new_key & 63)
                            if present[new_key >> 6] & bit == 0:
                                if out >= cap:
                                    return -1
                                present[new_key >> 6] |= bit
                                slot_of[new_key] = out
                                keys[out] = new_key
                                scores[out] = total
                                parents[out] = i
                                choices[out] = choice + x
                                out += np.uint64(1)
                            else:
                                at = np.uint64(slot_of[new_key])
                                if total > scores[at]:
                                    scores[at] = total
                                    parents[at] = i
                                    choices[at] = choice + x
                            if not strict:
                                break  # left-over jokers join melds at the end: the fewest is enough
    return int(out)


@njit(cache=True)
def _prune(
    dominators: I32,
    group_dominators: I32,
    colour: int,
    strict: bool,
    masks: int,
    slot_of: I32,
    present: I64,
    runs_count: I32,
    keys: I64,
    scores: I64,
    parents: I32,
    choices: I32,
    start: int,
    end: int,
) -> int:
    """Drop every state of [start, end) matched by another with at least its score and either
    (a) no more jokers placed and, in one colour, a run-slot pair that can do whatever its own can
    (`dominators`; the colour just expanded, or any colour once the number is closed), or
    (b) the same runs and a (groups, jokers placed) part that closes the number with no more
    jokers in all, whatever the colours still to come send to the groups (`group_dominators`, a
    row per part, empty on the last colour; looked for only when `runs_count` says the layer holds
    another state with the same runs), or (c) the same parts but a subset of its lost
    tracked start groups (`masks` > 1: the tie-break). Fewer jokers placed (a) and (b) hold only
    without `strict`, where left-over jokers join melds at the end. Compacts the survivors and clears
    every key from `present` and `runs_count`; returns the new end."""
    # keys in unsigned arithmetic: cheaper division by constants, and numba skips the
    # negative-index fix-up on every subscript
    stride = np.uint64(N_SUMMARIES * J1)
    pairs = np.uint64(N_PAIRS)
    # (a) looks at the colour just expanded alone (its digit taken directly), or at every colour
    # once the number is closed
    first = colour if colour < 3 else 0
    first_power = stride * np.uint64(masks)
    for _ in range(first):
        first_power *= pairs
    for i in range(np.uint64(start), np.uint64(end)):
        key = np.uint64(keys[i])
        score = scores[i]
        dead = False
        runs = key // stride
        if not strict and runs_count[runs] > 1:  # others with the same runs are in the layer
            low = key % stride
            for k in range(np.uint64(group_dominators.shape[1])):
                other = group_dominators[low, k]
                if other < 0:
                    break
                near = key - low + np.uint64(other)
                if present[near >> 6] >> (near & 63) & 1 and scores[np.uint64(slot_of[near])] >= score:
                    dead = True
                    break
        if masks > 1:  # masks is 1 or MASKS: a constant divisor
            mask = runs % np.uint64(MASKS)
            runs //= np.uint64(MASKS)
            if mask and not dead:  # (c): fewer tracked start groups lost so far
                for fewer in range(mask):
                    if fewer & mask == fewer:
                        near = key - (mask - fewer) * stride
                        if (
                            present[near >> 6] >> (near & 63) & 1
                            and scores[np.uint64(slot_of[near])] >= score
                        ):
                            dead = True
                            break
        jk = np.uint64(0) if strict else key % np.uint64(J1)
        if colour < 3:
            runs = _digit(runs, colour)
        power = first_power
        for _ in range(first, colour + 1):
            pair = runs % pairs
            runs //= pairs
            if not dead:
                for k in range(np.uint64(dominators.shape[1])):
                    if dead:
                        break
                    other = dominators[pair, k]
                    if other < 0:
                        break
                    # wraps around when other < pair: the sum is still right
                    base = key + (np.uint64(other) - pair) * power
                    for probe in range(base - jk, base + np.uint64(1)):
                        if (
                            present[probe >> 6] >> (probe & 63) & 1
                            and scores[np.uint64(slot_of[probe])] >= score
                        ):
                            dead = True
                            break
            power *= pairs
        if dead:
            parents[i] = -2  # marked: the states after it may still be compared with it
    for i in range(np.uint64(start), np.uint64(end)):
        key = np.uint64(keys[i])
        present[key >> 6] = 0
        runs_count[key // stride] = 0
    w = start
    for i in range(np.uint64(start), np.uint64(end)):
        if parents[i] != -2:
            at = np.uint64(w)
            keys[at] = keys[i]
            scores[at] = scores[i]
            parents[at] = parents[i]
            choices[at] = choices[i]
            w += 1
    return w


@njit(cache=True)
def search(
    table: I32,
    hand: I32,
    shape: I32,
    unit: I64,
    jokers: int,
    length: int,
    ranks: int,
    pair_p: I32,
    pair_q: I32,
    moves: I32,
    move_counts: I32,
    summary_next: I32,
    group_jokers: I32,
    dominators: I32,
    group_dominators: I32,
    slot_of: I32,
    present: I64,
    runs_count: I32,
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
    tie_left: I64,
    masks: int,
) -> tuple[int, int]:
    """Fill the layers; return (index of the best final state or -1 if none, its score), or
    (-1, -2) when the buffers ran out. Only states that may still reach `threshold` are kept. Without `strict`,
    jokers count nothing here and those left over join melds afterwards; `strict` places every
    joker here (table jokers must be placed, hand jokers score `joker_unit`). Key = ((pairs by
    colour) * N_SUMMARIES + group) * J1 + jokers placed, colour c's pair index being digit c in base
    `N_PAIRS`. `present` has a bit per key of the layer being built (small enough to stay in the
    processor's cache, so that looking for a state that is not there costs little) and `slot_of`
    says where each present key sits. With a tie-break (`shape`), scores are the hand's units times a weight above any
    tie-break total plus that total, and `tie_left[cell]` (the most tie-break points the cells from
    `cell` on can still add, `_tie_left`) keeps the states whose tie-break could still lift them to
    the threshold."""
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
                card, c, v, table[card], hand[card], unit[card], threshold - potential - tie_left[v * 4 + c], jokers,
                length, ranks, table, hand, shape,
                moves, move_counts, summary_next, group_jokers, c == 3, strict, power,
                masks, slot_of, present, runs_count, keys, scores, parents, choices, start, end,
            )  # fmt: skip
            if out < 0:
                return -1, -2
            end_ = _prune(
                dominators,
                group_dominators[3 - c],
                c,
                strict,
                masks,
                slot_of,
                present,
                runs_count,
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
            power *= N_PAIRS
    best = -1
    best_score = -1
    for i in range(start, end):
        jk = keys[i] % J1
        runs = keys[i] // J1 // N_SUMMARIES // masks
        ok = not strict or jk >= table_jokers
        for _ in range(4):
            pair = runs % N_PAIRS
            runs //= N_PAIRS
            if 0 < pair_q[pair] < length or 0 < pair_p[pair] < length:
                ok = False
        score = scores[i] + (jk - table_jokers) * joker_unit if strict else scores[i]
        if ok and score >= threshold and score > best_score:
            best = i
            best_score = score
    return best, best_score


@njit(cache=True)
def playable(hand: I32, table: I32) -> I32:
    """Hand naturals per kind, without those that complete no group and no 3-card run with the
    other cards and the jokers (`rummyai.playable.playable_cards` for these rules, repeated until
    nothing more drops out): such cards can never be played."""
    kept = hand.copy()
    kept[52] = 0
    present = hand + table
    jokers = min(present[52], 3)
    changed = True
    while changed:
        changed = False
        for card in range(52):
            if kept[card] == 0:
                continue
            rank = card % 13
            suit = card // 13
            others = 0
            for other in range(4):
                if other != suit and present[other * 13 + rank] > 0:
                    others += 1
            fits = others + jokers >= 2
            for first in range(max(0, rank - 2), min(rank, 10) + 1):
                if fits:
                    break
                missing = 0
                for r in range(first, first + 3):
                    if r != rank and present[suit * 13 + r] == 0:
                        missing += 1
                fits = missing <= jokers
            if not fits:
                present[card] -= kept[card]
                kept[card] = 0
                changed = True
    return kept


@njit(cache=True)
def walk(parents: I32, choices: I32, best: int, layers: int) -> I32:
    """The choice made at every layer on the way to state `best`, first layer first."""
    path = np.zeros(layers, dtype=np.int32)
    i = best
    k = layers
    while parents[i] >= 0:
        k -= 1
        path[k] = choices[i]
        i = parents[i]
    return path
