"""Rhine's meld program, compiled (`rummyai.solvers.rhine_dp` drives it): the best partition of
the table's cards and any hand cards into Rhine melds (rules §1.3), jokers free.

The search walks 56 cells, place by place and suit by suit: place 0 is the low ace, places 1-12
the ranks 2 to king, place 13 the high ace. A key packs, per suit, its two run slots (each empty
or a run in progress: its length 1, 2 or "three or more" and whether it holds a wild, so that no
run takes a second one) and how many of its aces were set aside at place 0 for a run ending at
place 13 (an ace is dealt once, to the low end, a group or the high end); then the naturals sent
to the current rank's groups and the jokers placed so far. Groups of one rank may repeat suits
and have no size limit, so they are summed up by their naturals' count alone: N naturals and G
jokers make valid groups exactly when N = G = 0 or N >= 2 G and N + G >= 3 (each wild group
holds two naturals or more), closed on the rank's last suit. Layers are deduplicated by an
open-addressing hash table (the higher score stays); a pass keeps only states that can still
reach its threshold. A run from place 0 to place 13 would hold 14 cards: the driver splits it
into two valid runs, so the search needs no rule against it.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from numba import njit

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]

PLACES = 14  # low ace, 2..K, high ace
SUITS = 4
CELLS = PLACES * SUITS
SUIT_BITS = 7  # per suit: slot pair (28) * 3 + aces kept for the high end (0..2)
GROUP_SHIFT = 28  # naturals sent to this rank's groups (0..8)
JOKER_SHIFT = 32  # jokers placed (0..7)
MOVES = 5  # what a run slot does at a cell: nothing, a natural, a wild, or ends its run and starts
# another with a natural or a wild (two runs of one suit that meet, each with its own wild)


@njit(cache=True, inline="always")
def _slot_len(code: int) -> int:
    """A slot code's run length: 0 (empty), 1, 2 or 3 (three or more)."""
    return (code + 1) // 2


@njit(cache=True, inline="always")
def _moved(code: int, move: int) -> int:
    """The slot after a move (`MOVES`), -1 when not allowed: a run of one or two cards must go on,
    a run holds one wild at most. A run of three or more that takes nothing ends here; one ends
    to start another in its place only when it holds a wild (else going on does as well)."""
    length = (code + 1) // 2
    wild = 1 if code > 0 and code % 2 == 0 else 0
    if move == 0:
        return -1 if length == 1 or length == 2 else 0
    if move >= 3:
        return move - 2 if length == 3 and wild else -1
    if move == 2:
        if wild:
            return -1
        wild = 1
    return 2 * (min(length + 1, 3) - 1) + 1 + wild


@njit(cache=True, inline="always")
def _wild_ok(code: int, move: int, next1: int, next2: int) -> bool:
    """Whether a wild may go on a slot here (`next1`, `next2`: naturals at hand at the suit's next
    two places): one starting a run needs both, one after a run's lone natural the first."""
    if move == 4 or (move == 2 and code == 0):
        return next1 > 0 and next2 > 0
    if move == 2 and code == 1:
        return next1 > 0
    return True


@njit(cache=True, inline="always")
def _pair(a: int, b: int) -> int:
    """Index of the unordered pair of slot codes."""
    if a < b:
        a, b = b, a
    return a * (a + 1) // 2 + b


@njit(cache=True, inline="always")
def _covers(x: int, y: int) -> bool:
    """Slot code `x` can do whatever `y` can: `y` empty and `x` a finished run (it may stop, or
    end and start another), or both in progress with `x` at least as long and without a wild
    where `y` has none."""
    if x == y:
        return True
    lx = (x + 1) // 2
    ly = (y + 1) // 2
    if ly == 0:
        return lx == 3
    return lx >= ly and (x % 2 == 1 or y % 2 == 0)


@njit(cache=True)
def _dominators() -> I64:
    """[pair, k]: the other pairs that can do whatever `pair` can (either matching of their
    slots), -1 ending a row."""
    out = np.full((28, 28), -1, dtype=np.int64)
    for a in range(7):
        for b in range(a + 1):
            p = a * (a + 1) // 2 + b
            n = 0
            for c in range(7):
                for d in range(c + 1):
                    q = c * (c + 1) // 2 + d
                    if q != p and ((_covers(c, a) and _covers(d, b)) or (_covers(c, b) and _covers(d, a))):
                        out[p, n] = q
                        n += 1
    return out


@njit(cache=True, inline="always")
def _groups_ok(naturals: int, wilds: int) -> bool:
    """Whether one rank's naturals and wilds make valid Rhine groups (at most one wild each)."""
    if naturals == 0:
        return wilds == 0
    return naturals >= 2 * wilds and naturals + wilds >= 3


@njit(cache=True, inline="always")
def _home(key: int, keys: I64, hashed: I32, mask: int) -> int:
    """The hash table's place for `key`: where it is, else the empty place it would take."""
    s = int(np.int64((np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(40)) & mask)
    while hashed[s] >= 0 and keys[hashed[s]] != key:
        s = (s + 1) & mask
    return s


@njit(cache=True, inline="always")
def _find(key: int, keys: I64, hashed: I32, mask: int) -> int:
    """The index of the state with `key` in the layer being built, -1 when there is none."""
    return int(hashed[_home(key, keys, hashed, mask)])


@njit(cache=True)
def rhine_search(
    table: I32,
    hand: I32,
    unit: I64,
    jokers: int,
    table_jokers: int,
    after: I64,
    threshold: int,
    strict: bool,
    high_aces: I32,
    grouped_min: I32,
    wilds_min: I32,
    shape: I32,
    keys: I64,
    scores: I64,
    parents: I32,
    choices: I32,
    bounds: I64,
    hashed: I32,
    where: I32,
) -> tuple[int, int]:
    """One pass at `threshold`: fill the layers (`bounds[c]`..`bounds[c + 1]` after cell c) and
    return (index of the best final state, its score), (-1, -1) when no state reaches the
    threshold, (-1, -2) when the buffers are full. `table` and `hand` count each card kind (hand:
    the playable ones), `unit` scores a hand card, `after[c]` is the most the hand's naturals of
    the cells after c can add. `high_aces[s]` of suit s's aces end runs high; at least
    `grouped_min[card]` copies of a card go to groups and `wilds_min[place]` wilds to the groups of
    a place's rank (jokers kept in their groups, with a natural of their start meld). `shape[c]`
    holds the tie-break's points at cell c, all zero without one: table copies kept in runs and
    in groups, runs going on where start runs do, wilds where start runs have one, and (on a
    rank's last cell) wilds in its groups where start groups have one. With `strict` every joker played is placed by the search (each
    scores `unit[52]` past the table's own, all of which are placed); without, jokers are placed
    only where the search wants a stand-in and score nothing (the driver adds the others).
    `hashed` (a power of two long, all -1) is left as found."""
    pair_hi = np.zeros(28, dtype=np.int64)
    pair_lo = np.zeros(28, dtype=np.int64)
    for a in range(7):
        for b in range(a + 1):
            pair_hi[a * (a + 1) // 2 + b] = a
            pair_lo[a * (a + 1) // 2 + b] = b
    dominators = _dominators()
    moves = np.zeros((28, MOVES * MOVES, 5), dtype=np.int64)
    move_count = np.zeros(28, dtype=np.int64)
    cap = keys.shape[0]
    mask = hashed.shape[0] - 1
    limit = hashed.shape[0] // 2
    joker_unit = unit[52] if strict else 0
    owed = table_jokers * joker_unit
    keys[0] = 0
    scores[0] = 0
    parents[0] = -1
    choices[0] = 0
    bounds[0] = 0
    bounds[1] = 1
    top = 1
    for cell in range(CELLS):
        place = cell // SUITS
        suit = cell % SUITS
        closing = suit == SUITS - 1 and place < PLACES - 1
        card = suit * 13 + (0 if place == PLACES - 1 else place)
        t = table[card]
        avail = t + hand[card]
        shift = np.int64(SUIT_BITS * suit)
        # a wild starts a run only before two naturals, and follows a run's first natural only
        # before one: a run holds two naturals or more
        next1 = 0
        next2 = 0
        if place + 1 < PLACES:
            next1 = table[suit * 13 + (place + 1) % 13] + hand[suit * 13 + (place + 1) % 13]
        if place + 2 < PLACES:
            next2 = table[suit * 13 + (place + 2) % 13] + hand[suit * 13 + (place + 2) % 13]
        # every slot pair's moves at this cell, worked out once: (new pair, naturals, wilds, the
        # tie-break's points, the moves' code)
        for pair in range(28):
            x = pair_hi[pair]
            y = pair_lo[pair]
            n = 0
            for da in range(MOVES):
                nx = _moved(x, da)
                if nx < 0 or not _wild_ok(x, da, next1, next2):
                    continue
                for db in range(MOVES):
                    if x == y and db > da:
                        continue  # the same pair of moves, slots swapped
                    ny = _moved(y, db)
                    if ny < 0 or not _wild_ok(y, db, next1, next2):
                        continue
                    if place == PLACES - 1:
                        lx = _slot_len(nx)
                        ly = _slot_len(ny)
                        if lx == 1 or lx == 2 or ly == 1 or ly == 2:
                            continue  # every run ends at the high ace
                    nat = (da == 1 or da == 3) + (db == 1 or db == 3)
                    wild = (da == 2 or da == 4) + (db == 2 or db == 4)
                    going_on = (x > 0 and (da == 1 or da == 2)) + (y > 0 and (db == 1 or db == 2))
                    moves[pair, n, 0] = _pair(nx, ny)
                    moves[pair, n, 1] = nat
                    moves[pair, n, 2] = wild
                    moves[pair, n, 3] = (
                        min(nat, shape[cell, 0]) + min(going_on, shape[cell, 2]) + min(wild, shape[cell, 3])
                    )
                    moves[pair, n, 4] = da * MOVES + db
                    n += 1
            move_count[pair] = n
        start = bounds[cell]
        end = bounds[cell + 1]
        slack = after[cell] - owed - threshold
        for i in range(start, end):
            key = keys[i]
            score = scores[i]
            digit = (key >> shift) & 127
            pair = digit // 3
            kept = digit % 3
            grouped = (key >> GROUP_SHIFT) & 15
            placed = (key >> JOKER_SHIFT) & 7
            rest = key & ~(
                (np.int64(127) << shift) | (np.int64(15) << GROUP_SHIFT) | (np.int64(7) << JOKER_SHIFT)
            )
            for m in range(move_count[pair]):
                new_pair = moves[pair, m, 0]
                nat = moves[pair, m, 1]
                wild = moves[pair, m, 2]
                tie = moves[pair, m, 3]
                code = moves[pair, m, 4]
                used = placed + wild
                if used > jokers:
                    continue
                if place == PLACES - 1:
                    if nat != kept:
                        continue  # the high ace: exactly the aces kept for it
                    options_k = 0
                else:
                    options_k = avail - nat
                    if options_k < 0:
                        continue
                for k in range(grouped_min[card] if place < PLACES - 1 else 0, options_k + 1):
                    r = high_aces[suit] if place == 0 else 0
                    if r <= avail - nat - k:
                        if place == PLACES - 1:
                            gain = 0
                            new_digit = 0
                        else:
                            taken = nat + k + r
                            if taken < t:
                                continue
                            gain = (taken - t) * unit[card]
                            new_digit = new_pair * 3 + (r if place == 0 else kept)
                        base = score + gain + wild * joker_unit + tie + min(k, shape[cell, 1])
                        group_n = grouped + k
                        top_g = 0
                        if closing:
                            top_g = min(group_n // 2, jokers - used)
                        for g in range(wilds_min[place] if closing else 0, top_g + 1):
                            if closing and not _groups_ok(group_n, g):
                                continue
                            new_score = base + g * joker_unit + min(g, shape[cell, 4])
                            new_used = used + g
                            if new_score + (jokers - new_used) * joker_unit + slack < 0:
                                continue
                            new_key = (
                                rest
                                | (np.int64(new_digit) << shift)
                                | (np.int64(0 if closing else group_n) << GROUP_SHIFT)
                                | (np.int64(new_used) << JOKER_SHIFT)
                            )
                            s = _home(new_key, keys, hashed, mask)
                            j = hashed[s]
                            if j >= 0:
                                if new_score > scores[j]:
                                    scores[j] = new_score
                                    parents[j] = i
                                    choices[j] = ((code * 9 + k) * 3 + r) * 8 + g
                                continue
                            if top >= cap or top - end >= limit:
                                for q in range(end, top):
                                    hashed[where[q]] = -1
                                return -1, -2
                            hashed[s] = top
                            where[top] = s
                            keys[top] = new_key
                            scores[top] = new_score
                            parents[top] = i
                            choices[top] = ((code * 9 + k) * 3 + r) * 8 + g
                            top += 1
        # drop the states another state matches with at least the score and, in one suit (the
        # one just expanded, or any once the rank's groups are closed), a slot pair that can do
        # whatever theirs can (the same aces kept) and, without `strict`, no more jokers placed
        # (the jokers left over join melds at the end); or with more naturals in the rank's groups
        first_suit = 0 if closing else suit
        for i in range(end, top):
            key = keys[i]
            score = scores[i]
            placed = (key >> JOKER_SHIFT) & 7
            fewest = placed if strict else 0
            dead = False
            for other_suit in range(first_suit, suit + 1):
                if dead:
                    break
                other_shift = np.int64(SUIT_BITS * other_suit)
                digit = (key >> other_shift) & 127
                pair = digit // 3
                for k in range(-1, 28):
                    other = pair if k < 0 else dominators[pair, k]
                    if other < 0 or dead:
                        break
                    if k < 0 and other_suit != suit:
                        continue  # fewer jokers alone: looked at once, in the suit expanded
                    base = (key & ~((np.int64(127) << other_shift) | (np.int64(7) << JOKER_SHIFT))) | (
                        np.int64(other * 3 + digit % 3) << other_shift
                    )
                    for u in range(fewest, placed + 1):
                        near = base | (np.int64(u) << JOKER_SHIFT)
                        if near != key:
                            j = _find(near, keys, hashed, mask)
                            if j >= 0 and scores[j] >= score:
                                dead = True
                                break
            grouped = (key >> GROUP_SHIFT) & 15
            if not dead and grouped >= 2:
                # more naturals in the rank's groups close them with whatever jokers fewer can
                for more in range(grouped + 1, 9):
                    near = (key & ~(np.int64(15) << GROUP_SHIFT)) | (np.int64(more) << GROUP_SHIFT)
                    j = _find(near, keys, hashed, mask)
                    if j >= 0 and scores[j] >= score:
                        dead = True
                        break
            if dead:
                parents[i] = -2
        for q in range(end, top):
            hashed[where[q]] = -1
        w = end
        for i in range(end, top):
            if parents[i] != -2:
                keys[w] = keys[i]
                scores[w] = scores[i]
                parents[w] = parents[i]
                choices[w] = choices[i]
                w += 1
        top = w
        bounds[cell + 2] = top
    best = -1
    best_score = -1
    for i in range(bounds[CELLS], bounds[CELLS + 1]):
        placed = (keys[i] >> JOKER_SHIFT) & 7
        if strict and placed < table_jokers:
            continue
        final = scores[i] - owed
        if final >= threshold and final > best_score:
            best = i
            best_score = final
    return best, best_score
