"""Candidates built with the exact solver: whole-table rearrangements the engine's simple list lacks.

For a tile-style seat in its normal turn phase, `SolverCandidates` asks `rummyai.solvers.solve`
for the play with the most cards, the one with the most points, and two hold-backs (keep the
jokers; play one card fewer), turns each answer into an engine `Play` over physical card ids,
keeps those the engine's validator accepts, and ranks them with the engine's own legal moves
(draw, single new melds, lay-offs) through `rank_moves`. Elsewhere (draw-meld-discard variants,
until the solver supports them, and the stalemate phases) it returns the engine's candidates.
Answers are cached by position (hand, table and opened flag as card kinds), and a fast exact
pre-check (`could_play`) skips the solver where no hand card fits any meld at all.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from rummyai.cards import JOKER, Slot
from rummyai.engine.game import legal_moves, validate
from rummyai.engine.moves import Draw, Move, Play
from rummyai.engine.state import GameState, TableMeld
from rummyai.envs.candidates import Candidate, rank_moves
from rummyai.errors import RummyError
from rummyai.variants import RunRule, Variant

#: Solver calls made per decision, as (objective, hold back jokers, cap at best - 1 cards).
PLANS: tuple[tuple[str, bool, bool], ...] = (
    ("cards", False, False),
    ("points", False, False),
    ("cards", True, False),
    ("cards", False, True),
)

SolverKey = tuple[str, tuple[int, ...], tuple[tuple[tuple[int, str], ...], ...], bool]
Melds = tuple[tuple[Slot, ...], ...]


@dataclass
class SolverStats:
    """Counters for benchmarks: solver calls, cache hits, answers the engine rejected, skips."""

    calls: int = 0
    cache_hits: int = 0
    rejected: int = 0
    unsupported: int = 0
    skipped: int = 0


def solution_play(state: GameState, melds: Sequence[Sequence[Slot]], reuse: bool = True) -> Play | None:
    """The engine `Play` for a solver table (melds of card kinds), or None if ids cannot be found.

    Start melds that reappear unchanged keep their physical ids; every other card takes a table
    copy of its kind first (all table cards must stay) and then a hand copy.
    """
    deck = state.variant.deck
    rs = state.round
    start = {_meld_key(deck, m): m for m in rs.table} if reuse else {}
    pools: dict[int, list[int]] = {}
    for meld in rs.table:
        for i in meld.all_ids():
            pools.setdefault(deck[i], []).append(i)
    used_start: set[int] = set()
    new_table: list[TableMeld | None] = []
    pending: list[Sequence[Slot]] = []
    for slots in melds:
        key = tuple((s.card, str(s.meaning) if s.meaning else "") for s in slots)
        same = start.get(key)
        if same is not None and id(same) not in used_start:
            used_start.add(id(same))
            for i in same.all_ids():
                pools[deck[i]].remove(i)
            new_table.append(same)
        else:
            new_table.append(None)
            pending.append(slots)
    for i in rs.hands[rs.turn]:
        pools.setdefault(deck[i], []).append(i)
    built = iter(pending)
    result: list[TableMeld] = []
    for kept in new_table:
        if kept is not None:
            result.append(kept)
            continue
        slots = next(built)
        ids: list[int] = []
        for slot in slots:
            pool = pools.get(slot.card)
            if not pool:
                return None
            ids.append(pool.pop(0))
        meanings = tuple(s.meaning if (s.card == JOKER or s.meaning is not None) else None for s in slots)
        result.append(TableMeld(tuple(ids), meanings))
    return Play(tuple(result))


def _meld_key(deck: Sequence[int], meld: TableMeld) -> tuple[tuple[int, str], ...]:
    return tuple((deck[i], str(m) if m else "") for i, m in zip(meld.ids, meld.meanings, strict=True))


def could_play(variant: Variant, hand: Sequence[int], table: Sequence[int], opened: bool) -> bool:
    """False only when no hand card fits any group or 3-card run of table and hand cards together.

    A fast, exact pre-check for the tile variants: when it says False the solver would find no
    play, so the call is skipped. It is generous (True whenever unsure: a joker or another wild
    in hand, wilds other than jokers in the variant), never the other way round.
    """
    if JOKER in hand or any(w.card != JOKER for w in variant.wilds):
        return True
    pool = list(hand) if not opened else [*hand, *table]
    present = [0] * 53
    for kind in pool:
        present[kind] += 1
    jokers = min(present[JOKER], variant.max_wilds_per_meld or 3)
    for kind in set(hand):
        rank, suit = kind % 13 + 1, kind // 13
        same_rank = [present[other * 13 + rank - 1] for other in range(4)]
        if variant.group_distinct_suits:
            others = sum(1 for other, n in enumerate(same_rank) if other != suit and n)
        else:
            others = sum(same_rank) - 1
        if others + jokers >= 2:
            return True
        rule = variant.run_rules[suit]
        if rule is None:
            continue
        for window in _run_windows(rule):
            if rank not in window:
                continue
            missing = sum(1 for r in window if r != rank and not present[suit * 13 + r - 1])
            if missing <= jokers:
                return True
    return False


def _run_windows(rule: RunRule) -> list[tuple[int, ...]]:
    """Ranks (1..13) of every 3-card run the rule allows (a high ace is rank 1)."""
    if rule.wrap:
        starts = range(1, 14)
    else:
        low = 1 if rule.ace_low else 2
        high = 14 if rule.ace_high else rule.max_rank
        starts = range(low, high - 1)
    return [tuple((start - 1 + k) % 13 + 1 for k in range(3)) for start in starts]


class SolverCandidates:
    """Engine candidates plus exact solver plays (most cards, most points, hold-backs), cached.

    `time_limit` caps each solver call (seconds; the best move found is used when it runs out).
    """

    def __init__(
        self,
        plans: Sequence[tuple[str, bool, bool]] = PLANS,
        time_limit: float | None = 0.25,
        cache_size: int = 20_000,
    ) -> None:
        self.plans = tuple(plans)
        self.time_limit = time_limit
        self.cache_size = cache_size
        self.cache: OrderedDict[SolverKey, tuple[Melds, ...]] = OrderedDict()
        self.stats = SolverStats()

    def build(self, state: GameState, limit: int) -> list[Candidate]:
        """At most `limit` candidates for the seat to act, the fallback (draw) first."""
        moves = legal_moves(state)
        if not moves:
            return []
        extra = self.solver_moves(state) if self._applies(state, moves) else []
        return rank_moves(state, moves, limit, priority=extra)

    def _applies(self, state: GameState, moves: Sequence[Move]) -> bool:
        """Tile-style turns where a draw is offered (not the stalemate's give phase)."""
        return state.variant.tile_style and any(isinstance(m, Draw) for m in moves)

    def solver_moves(self, state: GameState) -> list[Move]:
        """Validated solver plays for the seat to act, in plan order, without repeats."""
        rs = state.round
        deck = state.variant.deck
        seat = rs.turn
        opened = bool(rs.opened[seat]) if rs.opened else True
        hand = tuple(sorted(deck[i] for i in rs.hands[seat]))
        table_key = tuple(sorted(_meld_key(deck, m) for m in rs.table))
        variant_key = state.variant.id + "|" + ",".join(sorted(state.variant.options))
        key: SolverKey = (variant_key, hand, table_key, opened)
        answers = self.cache.get(key)
        table_kinds = [deck[i] for m in rs.table for i in m.all_ids()]
        if answers is not None:
            self.cache.move_to_end(key)
            self.stats.cache_hits += 1
        elif not could_play(state.variant, hand, table_kinds, opened):
            self.stats.skipped += 1
            return []
        else:
            answers = self._solve_all(state, hand, opened)
            self.cache[key] = answers
            if len(self.cache) > self.cache_size:
                self.cache.popitem(last=False)
        plays: list[Move] = []
        for melds in answers:
            play = self._checked(state, melds)
            if play is not None and play not in plays:
                plays.append(play)
        return plays

    def _solve_all(self, state: GameState, hand: tuple[int, ...], opened: bool) -> tuple[Melds, ...]:
        """The new tables (as card kinds) the solver proposes under each plan."""
        from rummyai.solvers import solve

        variant: Variant = state.variant
        deck = variant.deck
        table = [m.slots(deck) for m in state.round.table]
        found: list[Melds] = []
        best_cards = 0
        best_jokers = False
        for objective, keep_jokers, one_fewer in self.plans:
            use = [k for k in hand if k != JOKER] if keep_jokers else list(hand)
            if keep_jokers and (len(use) == len(hand) or not best_jokers):
                continue  # no joker in hand, or the best play uses none: nothing to hold back
            cap = best_cards - 1 if one_fewer else None
            if cap is not None and cap < 3:
                continue
            self.stats.calls += 1
            try:
                solution = solve(
                    variant,
                    use,
                    table,
                    opened=opened,
                    objective=objective,
                    time_limit=self.time_limit,
                    max_cards=cap,
                )
            except RummyError:
                self.stats.unsupported += 1
                continue
            if solution.cards_played:
                found.append(tuple(tuple(m) for m in solution.melds))
            if objective == "cards" and not keep_jokers and not one_fewer:
                best_cards = solution.cards_played
                best_jokers = JOKER in solution.played
                if best_cards in (0, len(hand)):
                    break  # nothing to play, or the whole hand goes out: no other plan helps
        return tuple(found)

    def _checked(self, state: GameState, melds: Sequence[Sequence[Slot]]) -> Play | None:
        play = solution_play(state, melds)
        if play is not None and validate(state, play) is not None:
            play = solution_play(state, melds, reuse=False)
        if play is None or validate(state, play) is not None:
            self.stats.rejected += 1
            return None
        return play
