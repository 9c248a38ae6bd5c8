"""Exact dynamic program for the free-joker fast path (`solvers/api.py` asks it first; CP-SAT
answers whatever it declines). Its inner loops are compiled (`rummyai.solvers.dp_kernels`, loaded
by `rummyai.solvers.dp_native`); this module builds their tables and turns their answer into melds.

It answers the positions `rummyai.solvers.fast.fast_path_ok` accepts (an opened turn, free
jokers, no cap on the cards played) whose hand cannot reach the variant's own cap on cards per
turn (rummy-board's 12), when the variant's
runs are plain (ace low, no wrap), melds need 3 cards, no natural has more than two copies and
there are at most two jokers (`dp_supported`): `rummikub` and `rummy-board`. Every table card
stays on the table, hand cards are optional, and the play maximises (cards, points) or, for the
points and penalty objectives, (points, cards).

The program walks the 52 natural cells number by number, colour by colour. A state holds, per
colour, the lengths of its two run slots in progress (0, 1, 2 or "long enough", as an unordered
pair: one slot per copy of a card), how many colours sent one and how many sent two naturals to
the current number's groups (colours are interchangeable there), and the jokers placed so far.
At a cell the copies used (table copies forced, hand copies optional) extend or open slots or
go to the groups; a joker may extend or open a slot in place of the card (what a slot pair may
do depends only on the pair, the cells left in the colour, whether a joker may open a slot there
and the naturals at hand, so those moves are listed once per variant: `slot_moves`). On a number's last
colour its groups are closed with the fewest jokers that make them valid (worked out once per
variant by trying every assignment). Slots of length 1-2 must go on; a run ends when its slot is
left empty. With at most two jokers every meld of three cards holds a natural. Jokers no stand-in
needs are added to melds with room at the end (all of them: a played joker only adds); if no
meld has room, a second, `strict` pass places every joker itself.

Layers are sparse lists of reachable states (a dense key -> position array finds duplicates)
with a back-pointer and the choice made, so the best path is replayed into real melds with
every joker's stand-in written out. After each cell, states matched by one with at least the
score and a part that can do whatever theirs can are dropped (`dp_kernels._prune`). A pass keeps
only the states that can still reach a threshold (score so far plus every playable hand card to
come); thresholds fall from "every playable card" until a pass finds a play, which is then the
best (a pass at a lower threshold that finds a play finds the best score too, which says which
pass that is: with `guess`, `_best_state` starts at a threshold where most solves end). The
fewest-melds-broken tie-break rides in the same passes: small per-cell points for keeping the
start table's shape, weighed below a single card (`TIE_WEIGHT`).

Two run slots per colour cover every number at most twice; natural cards never need more (two
copies), and a third run over a joker is never needed either: the tests check that on every
pattern of one colour's counts over 7 numbers, and compare against CP-SAT (whose run windows
allow it) on hundreds of positions rich in jokers.

`solve_dp(position, objective)` returns a `Solution` marked optimal, or None when it cannot answer
exactly (a position outside its rules, or more reachable states than its buffers hold), so the
caller falls back to CP-SAT.
"""

from __future__ import annotations

import functools
import itertools
import threading
import time
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from rummyai.cards import JOKER, Meaning, Slot
from rummyai.solvers.dp_layout import (
    DEFAULT_CAP,
    J1,
    LENGTH,
    MASKS,
    MAX_JOKERS,
    N_PAIRS,
    N_SUMMARIES,
    SLOTS,
    SUITS,
    TRACKED,
)
from rummyai.solvers.dp_native import kernels
from rummyai.solvers.fast import Bag, as_written, bag, fast_path_ok, holds, tidy_layout, with_joker
from rummyai.solvers.position import Position, Solution, check_objective, make_position, objective_value
from rummyai.variants import RunRule, Variant

I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]

# Slots are immutable: the rebuilt melds share these instead of making new ones.
_NATURAL = tuple(Slot(card) for card in range(JOKER))
_RUN_JOKER = tuple(tuple(Slot(JOKER, Meaning(rank, suit)) for suit in range(SUITS)) for rank in range(1, 14))
_GROUP_JOKER = tuple(Slot(JOKER, Meaning(rank)) for rank in range(1, 14))
_SLOT_MOVES = tuple(divmod(code, 3) for code in range(9))  # a cell's code: what each run slot does


Template = tuple[tuple[tuple[int, ...], int], ...]  # groups: (colour places, jokers) each


@dataclass(frozen=True)
class Tables:
    """The variant's state encoding: run-slot pairs, group summaries and their transitions.

    Groups are summarised, within a number, by how many colours sent one natural to the groups
    and how many sent two (colours are interchangeable in groups). Which joker counts can close
    such groups, and how, is worked out once here by trying every assignment of the copies."""

    min_meld: int
    group_max: int
    ranks: int
    pair_p: I32  # pair index -> longer slot length (capped at min_meld)
    pair_q: I32  # pair index -> shorter slot length
    pair_index: I32  # [p, q] (p >= q) -> pair index
    moves: I32  # [row, m] -> the m-th run-slot move allowed (`slot_moves`)
    move_counts: I32  # [row] -> how many moves the row allows
    dominators: I32  # [pair, k] -> the pairs that can do whatever this pair can (-1 ends the row)
    group_dominators: I32  # [colours to come, summary * J1 + jokers, k] -> parts that close no worse
    summaries: tuple[tuple[int, int], ...]  # summary index -> (colours with one, colours with two)
    summary_next: I32  # [summary, k] -> summary after a colour sends k naturals to groups (-1: none)
    group_jokers: I32  # summary -> bit x set when x jokers can close the groups validly
    templates: dict[tuple[int, int], Template]  # (summary, jokers) -> one way to form the groups
    summary_index: dict[tuple[int, int], int]  # (colours with one, colours with two) -> summary

    @property
    def keys(self) -> int:
        """Size of the dense key space: pair states ** colours x summaries x joker counts."""
        return N_PAIRS**SUITS * MASKS * N_SUMMARIES * J1


def dp_supported(variant: Variant) -> bool:
    """Whether the program's encoding covers the variant's meld rules (besides `fast_path_ok`)."""
    return _kept(variant).supported


@dataclass
class _Kept:
    """What the program keeps per variant: whether it covers it, the card values, the tables."""

    variant: Variant
    supported: bool
    values: I64
    tables: Tables | None = None
    warm: bool = False
    value_list: list[int] = field(default_factory=list)  # `values` as Python ints
    units: dict[tuple[str, int], I64] = field(default_factory=dict)  # `_units`, kept
    answers: dict[tuple[str, int, tuple[int, ...], tuple[int, ...]], _Answer] = field(default_factory=dict)


_KEPT: dict[Variant, _Kept] = {}  # equal rules share tables and answers
# Variant objects seen, by identity: hashing a variant hashes every rule, and equal variants are
# often distinct objects (an environment's and the solver's)
_BY_ID: dict[int, tuple[Variant, _Kept]] = {}
_LAST: list[tuple[Variant, _Kept]] = []  # the variant asked last


def _kept(variant: Variant) -> _Kept:
    if _LAST and _LAST[0][0] is variant:
        return _LAST[0][1]
    known = _BY_ID.get(id(variant))
    if known is None or known[0] is not variant:
        kept = _KEPT.get(variant)
        if kept is None:
            values = np.array(variant.hand_values[: JOKER + 1], dtype=np.int64)
            kept = _KEPT[variant] = _Kept(variant, _covers(variant), values, value_list=values.tolist())
        if len(_BY_ID) > 1_000:
            _BY_ID.clear()
        known = _BY_ID[id(variant)] = (variant, kept)
    _LAST[:] = [known]
    return known[1]


def _covers(variant: Variant) -> bool:
    naturals = variant.copies[:JOKER]
    return (
        all(rule == RunRule() for rule in variant.run_rules)
        and len(variant.run_rules) == SUITS
        and max(naturals) <= SLOTS
        and variant.group_max is not None
        and variant.min_meld == LENGTH
        and variant.jokers <= MAX_JOKERS
        and variant.copies[JOKER] == variant.jokers
        and variant.escorts is None
    )


def build_tables(variant: Variant) -> Tables:
    """Enumerate run-slot pairs, group summaries and their transitions for `variant`."""
    length = variant.min_meld
    gmax = variant.group_max
    assert gmax is not None
    jokers = variant.jokers
    pairs = [(p, q) for p in range(length + 1) for q in range(p + 1)]
    pair_index = np.full((length + 1, length + 1), -1, dtype=np.int32)
    for i, (p, q) in enumerate(pairs):
        pair_index[p, q] = i
    dominators = np.full((len(pairs), len(pairs)), -1, dtype=np.int32)
    for i, (p, q) in enumerate(pairs):
        better = [k for k, (a, b) in enumerate(pairs) if k != i and _pair_covers((a, b), (p, q), length)]
        dominators[i, : len(better)] = better
    summaries = [(n1, n2) for n2 in range(SUITS + 1) for n1 in range(SUITS + 1 - n2)]
    index = {s: i for i, s in enumerate(summaries)}
    summary_next = np.full((len(summaries), SLOTS + 1), -1, dtype=np.int32)
    for i, (n1, n2) in enumerate(summaries):
        summary_next[i, 0] = i
        if n1 + n2 < SUITS:
            summary_next[i, 1] = index[(n1 + 1, n2)]
            summary_next[i, 2] = index[(n1, n2 + 1)]
    group_jokers = np.zeros(len(summaries), dtype=np.int32)
    templates: dict[tuple[int, int], Template] = {}
    for i, (n1, n2) in enumerate(summaries):
        for x, template in _group_templates(n1, n2, length, gmax, jokers).items():
            group_jokers[i] |= 1 << x
            templates[(i, x)] = template
    assert len(pairs) == N_PAIRS and len(summaries) == N_SUMMARIES
    group_dominators = _group_dominators(summaries, index, group_jokers, jokers)
    moves, move_counts = slot_moves(pairs, pair_index, length)
    return Tables(
        min_meld=length,
        group_max=gmax,
        ranks=13,
        pair_p=np.array([p for p, _ in pairs], dtype=np.int32),
        pair_q=np.array([q for _, q in pairs], dtype=np.int32),
        pair_index=pair_index,
        moves=moves,
        move_counts=move_counts,
        dominators=dominators,
        group_dominators=group_dominators,
        summaries=tuple(summaries),
        summary_next=summary_next,
        group_jokers=group_jokers,
        templates=templates,
        summary_index=index,
    )


def slot_moves(pairs: list[tuple[int, int]], pair_index: I32, length: int) -> tuple[I32, I32]:
    """What a colour's two run slots may do at a cell, worked out once per variant: for every row
    ((cells of the colour still to come, capped at `length` - 1) * 2 + whether a joker may open a
    slot here) * 3 + naturals of the cell at hand (capped at 2), then the slots' pair, the moves
    (each slot stops, takes a natural or takes a joker: `da`, `db`) as (code `da` * 3 + `db`, the
    new pair, naturals used, jokers used, slots going on), in the order the kernel tries them.
    Whether enough jokers are left is the one check left to the kernel (it depends on the state).

    A slot of length 1 to `length` - 1 must go on; a joker opens a slot only where a natural may
    follow it; a slot too close to the colour's last number to reach `length` may not open or go
    on short; of two equal slots one order is enough; a finished run is extended rather than
    ended to open another."""
    rows = length * 2 * 3 * len(pairs)
    moves = np.zeros((rows, 9, 5), dtype=np.int32)
    counts = np.zeros(rows, dtype=np.int32)
    for left, joker_open, at_hand in itertools.product(range(length), (0, 1), range(3)):
        for pair, (p, q) in enumerate(pairs):
            row = ((left * 2 + joker_open) * 3 + at_hand) * len(pairs) + pair
            n = 0
            for da, db in itertools.product(range(3), range(3)):
                na = 0 if da == 0 else min(p + 1, length)
                nb = 0 if db == 0 else min(q + 1, length)
                if (
                    (da == 0 and 0 < p < length)
                    or (db == 0 and 0 < q < length)
                    or (da == 2 and p == 0 and not joker_open)
                    or (db == 2 and q == 0 and not joker_open)
                    or (0 < na < length and left < length - na)
                    or (0 < nb < length and left < length - nb)
                    or (p == q and db > da)
                    or (da == 0 and p == length and db != 0 and q == 0)
                ):
                    continue
                naturals = int(da == 1) + int(db == 1)
                if naturals > at_hand:
                    continue
                new_pair = pair_index[na, nb] if na >= nb else pair_index[nb, na]
                going_on = int(p > 0 and da > 0) + int(q > 0 and db > 0)
                moves[row, n] = (da * 3 + db, new_pair, naturals, int(da == 2) + int(db == 2), going_on)
                n += 1
            counts[row] = n
    return moves, counts


def _group_dominators(
    summaries: list[tuple[int, int]], index: dict[tuple[int, int], int], group_jokers: I32, jokers: int
) -> I32:
    """For r colours still to come in a number: the (summary, jokers placed) parts that close the
    number's groups with no more jokers in all than a given part, whatever the r colours send to
    the groups (each one or two naturals, or none). Such a part, with the same runs and at least
    the score, leaves at least as much open (jokers not placed are placed at the end)."""
    size = len(summaries) * J1
    out = np.full((SUITS, size, size), -1, dtype=np.int32)
    never = 1 << 20

    def total(s: int, jk: int, adds: tuple[int, int]) -> int:
        """Jokers placed once the groups close, `never` when they cannot."""
        n1, n2 = summaries[s]
        after = index.get((n1 + adds[0], n2 + adds[1]))
        mask = 0 if after is None else int(group_jokers[after])
        fewest = next((x for x in range(jokers + 1) if mask >> x & 1), None)
        return never if fewest is None or jk + fewest > jokers else jk + fewest

    for r in range(1, SUITS):
        futures = [(a1, a2) for a1 in range(r + 1) for a2 in range(r + 1 - a1)]
        seen = [s for s, (n1, n2) in enumerate(summaries) if n1 + n2 <= SUITS - r]  # reachable, r to come
        ends = {(s, jk): [total(s, jk, a) for a in futures] for s in seen for jk in range(J1)}
        for (s, jk), mine in ends.items():
            better = [
                o * J1 + ok
                for (o, ok), theirs in ends.items()
                if (o, ok) != (s, jk)
                and all(t <= m for t, m in zip(theirs, mine, strict=True) if m < never)
                # of two parts that close alike, only the first may drop the other
                and (theirs != mine or (o, ok) < (s, jk))
            ]
            out[r, s * J1 + jk, : len(better)] = better
    return out


def _group_templates(n1: int, n2: int, length: int, gmax: int, jokers: int) -> dict[int, Template]:
    """For each joker count that can close them, one way to make valid groups of one number from
    `n2` colours with two naturals (places 0..n2-1) and `n1` with one (the next places): the two
    copies of a colour in different groups, every group `length`..`gmax` tiles with a natural."""
    n_groups = (SUITS * SLOTS + jokers) // length
    places = [c for c in range(n2) for _ in range(2)] + list(range(n2, n2 + n1))
    found: dict[int, Template] = {}
    for assignment in _labellings(len(places), n_groups):
        members: list[list[int]] = [[] for _ in range(n_groups)]
        for place, group in zip(places, assignment, strict=True):
            members[group].append(place)
        if any(len(m) != len(set(m)) or len(m) > gmax for m in members):
            continue
        used = [m for m in members if m]
        need = [max(0, length - len(m)) for m in used]
        room = [gmax - len(m) for m in used]
        for x in range(sum(need), min(sum(room), jokers) + 1):
            if x in found:
                continue
            extra = x - sum(need)
            counts = []
            for k in range(len(used)):
                more = min(room[k] - need[k], extra)
                counts.append(need[k] + more)
                extra -= more
            found[x] = tuple((tuple(m), j) for m, j in zip(used, counts, strict=True))
    return found


def _labellings(n: int, k: int) -> list[tuple[int, ...]]:
    """Every way to put `n` places into at most `k` interchangeable groups, each written once (a
    group's label is the order of its first place), in lexicographic order: the first valid one
    of each kind is the one trying every labelling in order would find."""
    out: list[tuple[int, ...]] = []

    def grow(prefix: tuple[int, ...], top: int) -> None:
        if len(prefix) == n:
            out.append(prefix)
            return
        for label in range(min(top + 1, k - 1) + 1):
            grow((*prefix, label), max(top, label))

    grow((), -1)
    return out


def _slot_covers(x: int, y: int, length: int) -> bool:
    """A slot of length `x` can do whatever one of length `y` can: a finished run (length
    `length`) may go on or stop, a run in progress only goes on, and longer is never worse."""
    return x in (y, length) or x >= y >= 1


def _pair_covers(a: tuple[int, int], b: tuple[int, int], length: int) -> bool:
    """Slot pair `a` covers pair `b` under one of the two matchings of their slots."""
    straight = _slot_covers(a[0], b[0], length) and _slot_covers(a[1], b[1], length)
    crossed = _slot_covers(a[0], b[1], length) and _slot_covers(a[1], b[0], length)
    return straight or crossed


class _Buffers:
    """Per-thread work arrays sized for one variant's key space (allocated once, reused)."""

    def __init__(self, tables: Tables, cap: int) -> None:
        self.slot_of = np.full(tables.keys, -1, dtype=np.int32)  # read only where `present` has the key
        self.present = np.zeros((tables.keys + 63) // 64, dtype=np.int64)  # one bit per key in the layer
        self.runs_count = np.zeros(tables.keys // (N_SUMMARIES * J1), dtype=np.int32)  # states per runs part
        self.keys = np.empty(cap, dtype=np.int64)
        self.scores = np.empty(cap, dtype=np.int64)
        self.parents = np.empty(cap, dtype=np.int32)
        self.choices = np.empty(cap, dtype=np.int32)
        self.bounds = np.zeros(tables.ranks * SUITS + 2, dtype=np.int32)


_LOCAL = threading.local()


def _tables_and_buffers(variant: Variant, cap: int) -> tuple[Tables, _Buffers]:
    """The variant's tables and this thread's buffers (built on first use)."""
    kept = _kept(variant)
    if kept.tables is None:
        kept.tables = build_tables(variant)
    last: tuple[Variant, int, _Buffers] | None = getattr(_LOCAL, "last", None)
    if last is not None and last[0] is variant and last[1] == cap:
        return kept.tables, last[2]
    cache: dict[tuple[Variant, int], _Buffers] | None = getattr(_LOCAL, "cache", None)
    if cache is None:
        cache = _LOCAL.cache = {}
    buf = cache.get((variant, cap))
    if buf is None:
        buf = cache[(variant, cap)] = _Buffers(kept.tables, cap)
    _LOCAL.last = (variant, cap, buf)
    return kept.tables, buf


def warm(variant: Variant) -> None:
    """Load the compiled functions and build `variant`'s tables now, once per process and variant,
    so that the first timed solve (its `ms`) does not pay for start-up work (`dp_native`)."""
    kept = _kept(variant)
    if kept.warm or not kept.supported:
        return
    solve_dp(make_position(variant, "AS 2S 3S JK", "5H 6H 7H"), "cards")
    kept.warm = True


def solve_dp(
    position: Position,
    objective: str = "cards",
    cap: int = DEFAULT_CAP,
    tidy: bool = False,
    remember: bool = False,
    guess: int = 0,
) -> Solution | None:
    """Best play of an opened free-joker position by the dynamic program, proven optimal; None when
    the program cannot answer exactly (rules outside its encoding, or more than `cap` states).

    With `tidy`, ties between the best plays are broken towards tables shaped like the start table
    (`_shape`), and the melds are then laid out to keep as many start melds whole as the chosen
    cards allow (`rummyai.solvers.fast.tidy_groups`): best effort; the play stays proven best.
    With `remember` (and no `tidy`), the search's answer is kept per hand, table cards and
    objective, and found again for a position with the same ones (`_Kept.answers`): simulations
    meet the same positions again and again, and the search reads nothing else. `guess` > 0
    starts the search at that threshold (`_best_state`): the same answer, with fewer passes
    where most solves end there (`GUESS`, in played games), more where they end higher."""
    check_objective(objective)
    start = time.perf_counter()
    variant = position.variant
    cap_cards = variant.max_hand_cards_per_turn  # a cap that could bind is not in the encoding
    if not fast_path_ok(position, None) or not dp_supported(variant):
        return None
    if cap_cards is not None and len(position.hand) > cap_cards:
        return None
    on_table = [slot.card for info in position.table for slot in info.slots]  # no escorts here
    if not remember or tidy:
        found = _search(position, objective, cap, tidy, on_table, guess)
    else:
        found = _remembered(position, objective, cap, on_table, guess)
    played, melds, _ = found
    if played is None:
        return None
    if tidy and position.table:
        melds = tuple(tidy_layout(position, list(melds)))
    return _solution(position, objective, list(played), list(melds), start)


def solve_dp_spent(
    position: Position, on_table: list[int], objective: str, tidy: bool
) -> tuple[list[int], list[tuple[Slot, ...]]] | None:
    """Best play (hand kinds played, melds) when the cards the play must lay are `on_table`
    (`position.table` then only shapes the tie-break): for callers that spend some table cards
    themselves or add cards the play must lay (`rummyai.solvers.locked_dp`,
    `rummyai.solvers.official_dp`), within the encoding's two copies of a card in `on_table` and
    the hand together. None when the states
    overflow the buffers; `NoArrangement` when the cards fit no valid melds. The caller checks
    `dp_supported` and the turn (opened, free jokers)."""
    tidy = tidy and bool(position.table)
    if tidy:
        played, melds, _ = _search(position, objective, DEFAULT_CAP, True, on_table, 0)
    else:
        played, melds, _ = _remembered(position, objective, DEFAULT_CAP, on_table, GUESS)
    if played is None:
        return None
    if tidy and played and position.table:
        melds = tuple(tidy_layout(position, list(melds)))
    return list(played), list(melds)


MAX_ANSWERS = 5_000  # answers `solve_dp(remember=True)` keeps per variant before starting afresh
_Answer = tuple[tuple[int, ...] | None, tuple[tuple[Slot, ...], ...], int]  # played, melds, states


def _remembered(position: Position, objective: str, cap: int, on_table: list[int], guess: int) -> _Answer:
    """`_search` without the tie-break, its answer kept per variant, hand, table cards and objective
    (`_Kept.answers`): it reads nothing else, and the callers meet the same questions again (a
    proof that no card plays under free jokers asks what the locked-joker program's root asks)."""
    answers = _kept(position.variant).answers
    key = (objective, cap, position.hand, tuple(sorted(on_table)))
    known = answers.get(key)
    if known is not None:
        _LOCAL.states = known[2]
        return known
    found = answers[key] = _search(position, objective, cap, False, on_table, guess)
    if len(answers) > MAX_ANSWERS:
        answers.clear()
    return found


def _search(
    position: Position, objective: str, cap: int, tidy: bool, on_table: list[int], guess: int
) -> _Answer:
    """The search's played cards (sorted; None when it cannot answer) and melds, before they are
    written as the table reads them, and the states it kept."""
    variant = position.variant
    tables, buf = _tables_and_buffers(variant, cap)
    hand = np.bincount(np.array(position.hand, dtype=np.int64), minlength=JOKER + 1).astype(np.int32)
    table = np.bincount(np.array(on_table, dtype=np.int64), minlength=JOKER + 1).astype(np.int32)
    unit = _units(position, objective)
    naturals = kernels().playable(hand, table)
    shape = _shape(position) if tidy and position.table else _NO_SHAPE
    _LOCAL.states = 0
    for strict in (False, True):
        best = _best_state(tables, buf, table, naturals, unit, int(hand[JOKER]), strict, shape, guess)
        if best is None:
            return None, (), _LOCAL.states
        played, melds, used = _replay(tables, _path(buf, best), table)
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
    return tuple(sorted(played)), tuple(melds), _LOCAL.states


def _best_state(
    tables: Tables,
    buf: _Buffers,
    table: I32,
    naturals: I32,
    unit: I64,
    hand_jokers: int,
    strict: bool,
    shape: I32,
    guess: int = 0,
) -> int | None:
    """Index of the best final state, searched at falling thresholds (`_thresholds`); None when the
    buffers ran out. With a tie-break in `shape`, the scores are the units weighed by `TIE_WEIGHT`
    plus the tie-break's points: the thresholds still bound the units alone (a state is kept when
    its units could reach the threshold), and the best final state of the first pass that finds
    one has the best units and, among those, the most tie-break points. Without a tie-break the
    pass at threshold `guess` (an index) runs first: the passes above it are skipped when it finds nothing,
    and when it finds a play its score names the first pass that would have (run then, unless it
    is this one), so the answer is the falling thresholds' answer with fewer passes."""
    table_jokers = int(table[JOKER])
    bonus = hand_jokers * int(unit[JOKER]) if strict else 0
    weight = TIE_WEIGHT if shape.any() else 1
    units = unit * weight if weight > 1 else unit
    left = _tie_left(shape) if weight > 1 else _NO_TIE
    search = kernels().search

    def one_pass(threshold: int) -> tuple[int, int]:
        """(best final state or -1, its score) of the pass at `threshold`; (-1, -2) when the
        buffers ran out (left clean for the next pass)."""
        best, score = search(
            table,
            naturals,
            shape,
            units,
            hand_jokers + table_jokers,
            tables.min_meld,
            tables.ranks,
            tables.pair_p,
            tables.pair_q,
            tables.moves,
            tables.move_counts,
            tables.summary_next,
            tables.group_jokers,
            tables.dominators,
            tables.group_dominators,
            buf.slot_of,
            buf.present,
            buf.runs_count,
            buf.keys,
            buf.scores,
            buf.parents,
            buf.choices,
            buf.bounds,
            threshold * weight,
            strict,
            table_jokers,
            hand_jokers,
            int(units[JOKER]),
            left,
            MASKS if weight > 1 else 1,
        )
        if score == -2:
            _LOCAL.states += int(buf.keys.shape[0])
            buf.present.fill(0)  # the unfinished layer left its entries: the next call starts clean
            buf.runs_count.fill(0)
        else:
            _LOCAL.states += int(buf.bounds[-1])
        return int(best), int(score)

    thresholds = _thresholds(naturals, unit, bonus)
    first = 0
    guess = min(guess, len(thresholds) - 1)
    if weight == 1 and guess > 0:
        best, score = one_pass(thresholds[guess])
        if best >= 0:
            # a pass that finds a play finds the best score: the first pass of the falling
            # thresholds to find one is the first at or below it, and answers alike when run alone
            found = next(k for k, threshold in enumerate(thresholds) if threshold <= score)
            if found == guess:
                return best
            best, score = one_pass(thresholds[found])
            if best >= 0 or score == -2:
                return None if score == -2 else best
        elif score != -2:
            first = guess + 1  # every higher threshold fails too
    for threshold in thresholds[first:]:
        best, score = one_pass(threshold)
        if score == -2:
            return None
        if best >= 0:
            return best
    raise NoArrangement("the table cards have no valid arrangement")


class NoArrangement(Exception):
    """The table cards the program was given fit no valid melds (`make_position` refuses such a
    table; a caller that spends some table cards itself may meet it)."""


# The pass the callers answering played games (`candidate_search`) have `_best_state` try first:
# the fourth threshold (13 cards short of every playable card, for the cards objective) is where
# most of their solves first find a play (a pass below that point still finds the best score,
# which names the pass the falling thresholds stop at). On the benchmark's random positions, many
# of which play every playable card, a low first pass costs more than the passes it spares.
GUESS = 3


def _tie_left(shape: I32) -> I64:
    """Per cell (number-major: cell 4 * number + colour), the most tie-break points the later cells
    can add, with the tracked start groups of its number and the later ones (scored as each number
    closes); the last entry is the most the whole table can score."""
    per_card = shape[:, 0] + shape[:, 1] + 2 * shape[:, 2]
    cells = per_card.reshape(SUITS, 13).T.reshape(-1).astype(np.int64)  # cell order: number, colour
    closing = 2 * shape[:13, 4].astype(np.int64)  # tracked groups per number (same on every colour)
    after = np.concatenate((np.cumsum(cells[::-1])[::-1][1:], [0]))
    closing_on = np.cumsum(closing[::-1])[::-1]  # numbers from this one on
    left = after + np.repeat(closing_on, SUITS)
    return np.concatenate((left, [int(cells.sum() + closing.sum())])).astype(np.int64)


# Tie-break scores per cell are at most 6 (two table copies kept in runs, two in groups, two
# slots going on), 312 over the 52 cells, plus 2 per number for each of its tracked start groups:
# weighing the play's units by more keeps the play first.
TIE_WEIGHT = 512
_NO_SHAPE = np.zeros((JOKER, 5), dtype=np.int32)
_NO_TIE = np.zeros(JOKER + 1, dtype=np.int64)


def _shape(position: Position) -> I32:
    """Per natural card, the tie-break's scores: table copies in start runs, table copies in start
    groups, start runs of its colour going on from the number below to it, the tracked start
    groups (the first `TRACKED` of its number) holding it as bits, and how many its number has."""
    rows = [[0] * 5 for _ in range(JOKER)]
    tracked = [0] * 14
    for info in position.table:
        column = 0 if info.kind == "run" else 1
        naturals = [slot.card for slot, wild in zip(info.slots, info.as_wild, strict=True) if not wild]
        for card in naturals:
            rows[card][column] += 1
        rank = info.rank
        if column and rank is not None and tracked[rank] < TRACKED:
            bit = 1 << tracked[rank]
            tracked[rank] += 1
            for card in naturals:
                rows[card][3] |= bit
            for suit in range(SUITS):
                rows[suit * 13 + rank - 1][4] = tracked[rank]
        if not column and info.suit is not None:
            positions = info.positions  # a run's ranks, low to high
            for low, high in itertools.pairwise(positions):
                if high == low + 1 and high <= 13:
                    rows[info.suit * 13 + high - 1][2] += 1
    return np.array(rows, dtype=np.int32)


def last_state_count() -> int:
    """States kept over every pass of this thread's last `solve_dp` (0 before any)."""
    return int(getattr(_LOCAL, "states", 0))


def _thresholds(naturals: I32, unit: I64, bonus: int) -> list[int]:
    """Scores to reach, highest first: every playable natural (plus `bonus`), then short by 1, 4,
    13, 40 ... of the most valuable card, down to 0 (always reachable: play nothing). A search that
    keeps only the states able to reach a threshold and still finds a play has found the best one."""
    top = bonus
    step = 0
    for count, value in zip(naturals[:JOKER].tolist(), unit[:JOKER].tolist(), strict=True):
        if count:
            top += count * value
            step = max(step, value)
    step = step or max(bonus, 1)
    out = []
    slack = 0
    while slack < top:
        out.append(top - slack)
        slack = 3 * slack + step
    out.append(0)
    return out


def _units(position: Position, objective: str) -> I64:
    """Score of each hand card kind: cards then points, or points then cards (lexicographic).
    Kept per variant by what they depend on (the hand's points, or its size)."""
    kept = _kept(position.variant)
    hv = kept.value_list
    key = (objective, sum(hv[c] for c in position.hand) if objective == "cards" else len(position.hand))
    unit = kept.units.get(key)
    if unit is None:
        if len(kept.units) > MAX_ANSWERS:
            kept.units.clear()
        if objective == "cards":
            unit = kept.units[key] = kept.values + (key[1] + 1)
        else:
            unit = kept.units[key] = kept.values * (key[1] + 1) + 1
    return unit


def _path(buf: _Buffers, best: int) -> I32:
    """The best state's choices, one per cell."""
    path: I32 = kernels().walk(buf.parents, buf.choices, best, len(buf.bounds) - 2)
    return path


@functools.cache
def _decoder(ways: int) -> tuple[tuple[int, int, int, int], ...]:
    """What each path entry says: (jokers closing the number's groups, what each run slot does,
    naturals sent to the groups); the slot moves are -1 where nothing is used at the cell."""
    out = []
    for entry in range(9 * ways * J1):
        choice, jokers = divmod(entry, J1)
        code, sent = divmod(choice, ways)
        first, second = _SLOT_MOVES[code]
        out.append((jokers, -1, -1, 0) if choice == 0 else (jokers, first, second, sent))
    return tuple(out)


def _replay(tables: Tables, path: I32, on_table: I32) -> tuple[list[int], list[tuple[Slot, ...]], int]:
    """Rebuild the played naturals, the melds and the jokers placed from the layer choices
    (`on_table`: the table's copies of each kind)."""
    length = tables.min_meld
    decode = _decoder(tables.summary_next.shape[1])
    steps = path.tolist()
    table = on_table.tolist()
    runs: list[list[list[Slot]]] = [[[] for _ in range(SLOTS)] for _ in range(SUITS)]
    melds: list[tuple[Slot, ...]] = []
    played: list[int] = []
    jokers_used = 0
    cell = 0
    for v in range(tables.ranks):
        to_groups = [0] * SUITS  # naturals each colour sends to this number's groups
        x = 0
        for c in range(SUITS):
            x, da, db, k = decode[steps[cell]]
            cell += 1
            colour = runs[c]
            first, second = colour
            if da < 0:  # nothing at this cell: runs in progress end
                if first:
                    melds.append(tuple(first))
                    first.clear()
                if second:
                    melds.append(tuple(second))
                    second.clear()
                continue
            if len(second) > len(first) and len(first) < length:
                colour.reverse()  # the longer slot first, as in the state's pair
                first, second = second, first
            card = c * 13 + v
            n = k
            for slot, d in ((first, da), (second, db)):
                if d == 0:
                    if slot:
                        melds.append(tuple(slot))
                        slot.clear()
                elif d == 1:
                    slot.append(_NATURAL[card])
                    n += 1
                else:
                    slot.append(_RUN_JOKER[v][c])
                    jokers_used += 1
            to_groups[c] = k
            if n > table[card]:
                played.extend([card] * (n - table[card]))
        jokers_used += x  # the groups' jokers, chosen on the last colour
        if any(to_groups):
            places = [c for c in range(SUITS) if to_groups[c] == 2] + [
                c for c in range(SUITS) if to_groups[c] == 1
            ]
            summary = tables.summary_index[(to_groups.count(1), to_groups.count(2))]
            for members, jokers in tables.templates[(summary, x)]:
                slots = [_NATURAL[places[i] * 13 + v] for i in members]
                melds.append((*slots, *[_GROUP_JOKER[v]] * jokers))
    melds.extend(tuple(slot) for colour in runs for slot in colour if slot)
    return played, melds, jokers_used


def _add_jokers(melds: list[tuple[Slot, ...]], count: int, group_max: int) -> bool:
    """Put `count` more jokers into melds with room (a run's free end, a group below its limit);
    False when no meld has room left."""
    for _ in range(count):
        for k, meld in enumerate(melds):
            extended = with_joker(meld, group_max)
            if extended is not None:
                melds[k] = extended
                break
        else:
            return False
    return True


def _solution(
    position: Position, objective: str, played: list[int], melds: list[tuple[Slot, ...]], start: float
) -> Solution:
    """The `Solution` record (the start table unchanged when nothing is played)."""
    melds = as_written(position, melds) if played else [tuple(info.slots) for info in position.table]
    points = sum(position.variant.hand_values[c] for c in played)
    value = objective_value(position, objective, played)
    broken = _broken(position, melds)
    ms = (time.perf_counter() - start) * 1000
    return Solution(tuple(played), tuple(melds), "optimal", objective, value, len(played), points, ms, broken)


def _broken(position: Position, melds: list[tuple[Slot, ...]]) -> int:
    """`count_broken` made faster for this program's variants (no escorts, no natural twice in a
    meld): start melds whose cards do not all lie in one new meld (`fast.holds`)."""
    kept = {id(meld) for meld in melds}  # `as_written` hands back a whole start meld's own slots
    rest = [info for info in position.table if id(info.slots) not in kept]
    if not rest:
        return 0
    bags = [bag(meld) for meld in melds]
    holding: dict[int, list[Bag]] = {}  # card kind -> the new melds holding it
    for have in bags:
        for card in have[0]:
            holding.setdefault(card, []).append(have)
    broken = 0
    for info in rest:
        need = bag(info.slots)
        # a new meld holding the start meld holds its first card kind: only those are looked at
        near = holding.get(min(need[0]), ()) if need[0] else bags
        broken += not any(holds(have, need) for have in near)
    return broken
