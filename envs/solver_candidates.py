"""Candidates built with the exact solver: whole-table rearrangements the engine's simple list lacks.

For a tile-style seat in its normal turn phase, `SolverCandidates` asks the solver (through
`rummyai.solvers.candidate_search.solve_position`: `solve`'s answers with less work per call)
once for the play with the most cards and derives its hold-backs from that one answer (the same
table less a joker, the same table less one more hand card), each turned into an engine `Play`
over physical card ids, kept only if the engine's validator accepts it, and ranked with the
engine's own legal moves (draw, single new melds, lay-offs) through `rank_moves`. The most-points
play is a further solver call, made only when asked for (``objectives``) and useful.

Five exact shortcuts keep solver calls rare, none of which changes the candidate list:

* the solver sees only the hand cards that could ever be played (`playable_cards`), so a drawn
  card that fits nothing leaves the question, and its cache key, unchanged;
* answers are cached by (variant, playable hand, table, opened);
* after a play of as many cards as the proven best, the next position of that seat (if nobody
  touched the table meanwhile) has no play at all, so no solve is needed (free-joker variants).
* an unopened seat whose playable cards cannot add up to the opening points has no play
  (`rummyai.solvers.opening_reach`), and neither has an opened seat where jokers are locked
  when the compiled program plays no card under free jokers (`rummyai.solvers.no_play`): no
  solve is needed there either (Tile Rummy's locked-joker program makes that proof its first
  step, so its positions go to it directly).

Elsewhere (draw-meld-discard variants, until the solver supports them, and the stalemate phases)
the builder returns the engine's candidates.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from rummyai.cards import JOKER, Slot
from rummyai.engine.bridge import play_for_table
from rummyai.engine.game import legal_moves
from rummyai.engine.moves import Draw, Move, Play
from rummyai.engine.qualify import qualifies_inside_turn
from rummyai.engine.state import GameState, TableMeld
from rummyai.envs.candidates import Candidate, rank_moves
from rummyai.errors import RummyError, check_flag
from rummyai.melds import is_valid_meld
from rummyai.playable import playable_cards
from rummyai.solvers.no_play import no_play_proven, relaxation_applies
from rummyai.solvers.opening_reach import opening_out_of_reach
from rummyai.variants import Variant

if TYPE_CHECKING:
    from rummyai.solvers.position import Solution

#: Solver objectives asked by default: the most cards (greedy's move, ties by points), then the
#: most points (greedy-points' move) where it can differ.
OBJECTIVES: tuple[str, ...] = ("cards", "points")

MeldKey = tuple[tuple[int, str], ...]
TableKey = tuple[MeldKey, ...]
SolverKey = tuple[str, tuple[int, ...], TableKey, bool]
Melds = tuple[tuple[Slot, ...], ...]


@dataclass
class SolverStats:
    """Counters for benchmarks: solver calls, cache hits, answers the engine rejected, skips.

    `skipped` counts positions where no hand card fits any meld, `known_zero` those known to have
    no play because the seat's previous play was already the best, `points_bounded` the
    most-points calls left out because no play of fewer cards could score more points,
    `out_of_reach` unopened positions whose playable cards cannot add up to an opening,
    `relaxed_zero` locked-joker positions with no play even under free jokers.
    """

    calls: int = 0
    cache_hits: int = 0
    rejected: int = 0
    unsupported: int = 0
    skipped: int = 0
    known_zero: int = 0
    points_bounded: int = 0
    out_of_reach: int = 0
    relaxed_zero: int = 0


@dataclass(frozen=True)
class Answer:
    """What the solver said about one position: its plays (as card kinds) and the best count.

    `proven` is True when `best` is the proven maximum of cards playable (no time limit cut);
    `points` indexes the most-points play in `plays` (the most-cards play when every playable card
    is played, or when no points objective was asked). `order` is the table's melds in the order
    the solver read them: its plays list the melds in that order, so the answer serves only a
    table in the same order (the same melds in another order get a fresh solve, so that the
    candidates never depend on the positions seen before).
    """

    plays: tuple[Melds, ...]
    best: int
    proven: bool
    points: int = 0
    order: TableKey = ()


NO_PLAY = Answer((), 0, True)


def solution_play(state: GameState, melds: Sequence[Sequence[Slot]]) -> Play | None:
    """The engine `Play` for a solver table (melds of card kinds) from the seat on turn, through the
    engine's bridge (the canonical copy assignment, §7.1), or None if the rules refuse it."""
    rs = state.round
    seat = rs.turn
    return play_for_table(state.variant, rs.table, rs.hands[seat], melds, rs.opened[seat])


_MELDS: dict[int, tuple[TableMeld, MeldKey, tuple[Slot, ...]]] = {}


def _meld_forms(deck: Sequence[int], meld: TableMeld) -> tuple[MeldKey, tuple[Slot, ...]]:
    """A table meld's cache key part and its slots (what the solver reads), remembered per meld
    object: a move leaves most table melds as they were, the same objects."""
    known = _MELDS.get(id(meld))
    if known is not None and known[0] is meld:
        return known[1], known[2]
    key = tuple((deck[i], str(m) if m else "") for i, m in zip(meld.ids, meld.meanings, strict=True))
    slots = meld.slots(tuple(deck))
    if len(_MELDS) > 50_000:
        _MELDS.clear()
    _MELDS[id(meld)] = (meld, key, slots)
    return key, slots


def table_key(deck: Sequence[int], table: Sequence[TableMeld]) -> TableKey:
    """The table as sorted melds of (card kind, meaning): equal keys are the same table for a solver."""
    return tuple(sorted(_meld_forms(deck, m)[0] for m in table))


def table_order(deck: Sequence[int], table: Sequence[TableMeld]) -> TableKey:
    """The table's melds of (card kind, meaning) in table order."""
    return tuple(_meld_forms(deck, m)[0] for m in table)


def table_slots(deck: Sequence[int], table: Sequence[TableMeld]) -> list[tuple[Slot, ...]]:
    """The table's melds as slots (card kinds with meanings), for the solver."""
    return [_meld_forms(deck, m)[1] for m in table]


def hold_backs(
    variant: Variant, melds: Melds, played: Sequence[int], start: Sequence[Sequence[Slot]] = ()
) -> list[Melds]:
    """Tables derived from a solver answer by keeping one played card back: a joker, then the
    lowest-valued other card, each taken off a meld of 4 or more that stays valid (a run's end,
    any card of a group) and is not a `start` meld left as it was (an opening turn may not touch
    those). No solver call; at most one table per kind of hold-back."""
    counts = Counter(played)
    found: list[Melds] = []
    if len(played) < 2:
        return found  # holding the only card back is no play at all
    changed = [True] * len(melds)
    unchanged = Counter(tuple(m) for m in start)
    for m, meld in enumerate(melds):
        if unchanged[meld]:
            unchanged[meld] -= 1
            changed[m] = False
    for want_joker in (True, False):
        options: list[tuple[int, int, int]] = []
        for m, meld in enumerate(melds):
            if len(meld) < 4 or not changed[m]:
                continue
            for i, slot in enumerate(meld):
                if counts[slot.card] and (slot.card == JOKER) == want_joker:
                    options.append((variant.hand_value(slot.card), m, i))
        for _, m, i in sorted(options):
            meld = melds[m]
            shorter = meld[:i] + meld[i + 1 :]
            if is_valid_meld(variant, shorter):
                found.append((*melds[:m], shorter, *melds[m + 1 :]))
                break
    return found


class SolverCandidates:
    """Engine candidates plus exact solver plays (most cards and its hold-backs), cached.

    `objectives` lists the solver calls per new position (``cards`` first; add ``points`` for a
    most-points play too); `work_limit` caps each call in the solver's deterministic work units
    (about seconds; the best move found so far is used when it runs out), so the same seed gives
    the same episode however loaded the machine is; `cache_size` bounds the answer cache (0 turns caching off, which
    changes speed only, never the candidates). `minimize_changes` asks the solver to break as few
    table melds as it can among the best plays: tidier tables, but each call costs about 1.8x
    (measured on random Rummikub positions). None (the default) turns it off where jokers move
    freely and keeps it where they are locked (Rhine, Rummy Tiles) and a joker is in play (in hand
    or on the table), whose answers the engine rejects far more often without it.
    """

    builtin = True  # its rows are checked by the tests, not at every step

    def __init__(
        self,
        objectives: Sequence[str] = OBJECTIVES,
        work_limit: float | None = 0.25,
        cache_size: int = 20_000,
        minimize_changes: bool | None = None,
    ) -> None:
        if not objectives or objectives[0] != "cards":
            raise RummyError(f"objectives must start with 'cards', got {tuple(objectives)!r}")
        if minimize_changes is not None:
            check_flag("minimize_changes", minimize_changes)
        self.objectives = tuple(objectives)
        self.work_limit = work_limit
        self.cache_size = cache_size
        self.minimize_changes = minimize_changes
        self.cache: OrderedDict[SolverKey, Answer] = OrderedDict()
        self.stats = SolverStats()
        self._variant_keys: dict[int, tuple[Variant, str]] = {}

    def build(self, state: GameState, limit: int) -> list[Candidate]:
        """At most `limit` candidates for the seat to act, the fallback (draw) first."""
        moves = legal_moves(state)
        if not moves:
            return []
        if not self._applies(state, moves):
            return rank_moves(state, moves, limit, from_solver=False)
        key, answer = self._answer(state)
        plays, greedy, most = self._plays(state, answer)
        candidates = rank_moves(state, moves, limit, priority=plays, greedy=greedy, most_points=most)
        self._note_exhausting_plays(state, key, answer, candidates)
        return candidates

    def _applies(self, state: GameState, moves: Sequence[Move]) -> bool:
        """Tile-style turns where a draw is offered (not the stalemate's give phase)."""
        return state.variant.tile_style and any(isinstance(m, Draw) for m in moves)

    def solver_moves(self, state: GameState) -> list[Move]:
        """Validated solver plays for the seat to act, best first, without repeats."""
        return self._plays(state, self._answer(state)[1])[0]

    # ------------------------------------------------------------------ answers
    def _variant_key(self, variant: Variant) -> str:
        known = self._variant_keys.get(id(variant))
        if known is None or known[0] is not variant:
            known = (variant, variant.id + "|" + ",".join(sorted(variant.options)))
            self._variant_keys[id(variant)] = known
        return known[1]

    def _key(self, state: GameState, hand: Sequence[int], opened: bool) -> SolverKey:
        deck = state.variant.deck
        return (self._variant_key(state.variant), tuple(hand), table_key(deck, state.round.table), opened)

    def _answer(self, state: GameState) -> tuple[SolverKey, Answer]:
        """The (cached) answer for the seat to act, under the key of its playable hand."""
        rs = state.round
        variant = state.variant
        deck = variant.deck
        seat = rs.turn
        opened = bool(rs.opened[seat]) if rs.opened else True
        hand = [deck[i] for i in rs.hands[seat]]
        if not variant.go_out_by_discard_only:  # the hand's size matters to the solver there
            table_kinds = [deck[i] for m in rs.table for i in m.all_ids()]
            hand = list(playable_cards(variant, hand, table_kinds, table_usable(variant, opened)))
        else:
            hand.sort()
        key = self._key(state, hand, opened)
        answer = self.cache.get(key)
        if answer is not None and answer.plays and answer.order != table_order(deck, rs.table):
            answer = None  # the same melds in another order: its plays would list them as before
        if answer is not None:
            self.cache.move_to_end(key)
            if answer is NO_PLAY:
                self.stats.known_zero += 1
            else:
                self.stats.cache_hits += 1
            return key, answer
        if not hand:
            self.stats.skipped += 1
            return key, NO_PLAY
        answer = self._solve(state, tuple(hand), opened)
        if answer.plays:
            answer = replace(answer, order=table_order(deck, rs.table))
        self._remember(key, answer)
        return key, answer

    def _remember(self, key: SolverKey, answer: Answer) -> None:
        if self.cache_size <= 0:
            return
        self.cache[key] = answer
        self.cache.move_to_end(key)
        if len(self.cache) > self.cache_size:
            self.cache.popitem(last=False)

    def _solve(self, state: GameState, hand: tuple[int, ...], opened: bool) -> Answer:
        """One solver call for the most cards, its hold-backs, and the other objectives asked for."""
        variant: Variant = state.variant
        table = table_slots(variant.deck, state.round.table)
        best = self._call(variant, list(hand), table, opened, "cards")
        if best is None or not best.cards_played:
            return Answer((), 0, best is not None and best.status == "optimal")
        plays: list[Melds] = [tuple(tuple(m) for m in best.melds)]
        derived = hold_backs(variant, plays[0], best.played, table)
        plays += derived
        jokers = best.played.count(JOKER)
        if jokers and not any(_played(d, table).count(JOKER) < jokers for d in derived):
            # no table with the joker simply taken off: ask the solver without hand jokers
            without = self._call(variant, [k for k in hand if k != JOKER], table, opened, "cards")
            if without is not None and without.cards_played:
                plays.append(tuple(tuple(m) for m in without.melds))
        points = 0
        if best.cards_played < len(hand):  # playing every playable card is already most points
            for objective in self.objectives[1:]:
                if (
                    objective == "points"
                    and points_bound(variant, hand, best.cards_played - 1) <= best.points_played
                ):
                    self.stats.points_bounded += 1  # the most-cards play is also a most-points play
                    continue
                other = self._call(variant, list(hand), table, opened, objective)
                if other is not None and other.cards_played:
                    if objective == "points":
                        points = len(plays)
                    plays.append(tuple(tuple(m) for m in other.melds))
        return Answer(tuple(plays), best.cards_played, best.status == "optimal", points)

    def _call(
        self, variant: Variant, hand: list[int], table: list[tuple[Slot, ...]], opened: bool, objective: str
    ) -> Solution | None:
        from rummyai.solvers.candidate_search import solve_position

        if not opened and opening_out_of_reach(variant, hand):
            self.stats.out_of_reach += 1  # the solver would find no play
            return None
        if opened and self._relaxed_zero(variant, hand, table):
            self.stats.relaxed_zero += 1  # no play even under free jokers
            return None
        self.stats.calls += 1
        try:
            return solve_position(
                variant,
                hand,
                table,
                opened=opened,
                objective=objective,
                work_limit=self.work_limit,
                minimize_changes=self._minimize_changes(variant, hand, table),
            )
        except RummyError:
            self.stats.unsupported += 1
            return None

    def _relaxed_zero(self, variant: Variant, hand: Sequence[int], table: Sequence[Sequence[Slot]]) -> bool:
        """Whether the free-joker relaxation proves a locked-joker position has no play (asked only
        where a joker is in play: without one the solver answers under free jokers anyway; and
        not where Tile Rummy's locked-joker program answers, whose first step is this proof)."""
        from rummyai.solvers.candidate_search import has_joker
        from rummyai.solvers.locked_dp import locked_dp_rules

        return (
            relaxation_applies(variant)
            and not locked_dp_rules(variant)
            and has_joker(hand, table)
            and no_play_proven(variant, hand, table)
        )

    def _minimize_changes(
        self, variant: Variant, hand: Sequence[int], table: Sequence[Sequence[Slot]]
    ) -> bool:
        """The setting asked for, else on only where jokers are locked and one is in play."""
        from rummyai.solvers.candidate_search import has_joker

        if self.minimize_changes is not None:
            return self.minimize_changes
        return not variant.joker_rules.free_table_jokers and has_joker(hand, table)

    # ------------------------------------------------------------------ moves
    def _plays(self, state: GameState, answer: Answer) -> tuple[list[Move], Move | None, Move | None]:
        """The answer's tables as validated engine plays, in order, without repeats; and the
        most-cards play (greedy's move) and the most-points play, when the engine accepts them."""
        plays: list[Move] = []
        first: Move | None = None
        points: Move | None = None
        for n, melds in enumerate(answer.plays):
            play = self._checked(state, melds)
            if n == 0:
                first = play
            if n == answer.points:
                points = play
            if play is not None and play not in plays:
                plays.append(play)
        return plays, first, points if first is not None else None

    def _checked(self, state: GameState, melds: Sequence[Sequence[Slot]]) -> Play | None:
        """The solver's table as a play the engine accepts, if any."""
        play = solution_play(state, melds)
        if play is None:
            self.stats.rejected += 1
        return play

    def _note_exhausting_plays(
        self, state: GameState, key: SolverKey, answer: Answer, candidates: Sequence[Candidate]
    ) -> None:
        """Cache 'no play' for the positions after candidates that play the proven best count.

        Any later play from there, added to this one, would be a single play of more cards than
        the best, so there is none, as long as the table is not touched in between (the key
        includes it). Sound where a turn is just a valid final table (free jokers, or no joker in
        hand or on the table; rearranging allowed; no per-turn card cap below the playable hand)
        and the seat had already opened (an opening turn limits what may be played).
        """
        variant = state.variant
        if not (answer.proven and answer.best and key[3]):
            return
        if not variant.joker_rules.free_table_jokers and _has_joker(key):
            return  # locked jokers: what a turn may do with them depends on the start table
        if variant.go_out_by_discard_only or any(w.card != JOKER for w in variant.wilds):
            return
        cap = variant.max_hand_cards_per_turn
        if not variant.manipulation or (cap is not None and len(key[1]) > cap):
            return  # two turns may then lay down what one turn may not
        deck = variant.deck
        hand_ids = state.round.hands[state.round.turn]
        for cand in candidates:
            move = cand.move
            if not isinstance(move, Play):
                continue
            on_table = {i for m in move.table for i in m.all_ids()}
            left = [deck[i] for i in hand_ids if i not in on_table]
            if len(hand_ids) - len(left) != answer.best or not left:
                continue
            hand = playable_cards(variant, left, [deck[i] for i in on_table], True)
            after: SolverKey = (key[0], hand, table_key(deck, move.table), True)
            if hand and after not in self.cache:
                self._remember(after, NO_PLAY)


def table_usable(variant: Variant, opened: bool) -> bool:
    """Whether the seat's play may use the table's cards: once opened, or (where a seat qualifies
    and then plays on in the same turn, Rhine) already in the turn that opens."""
    return opened or qualifies_inside_turn(variant)


def points_bound(variant: Variant, hand: Sequence[int], cards: int) -> int:
    """The most points any play of at most `cards` cards from `hand` could score (its highest values).

    The solver's most-cards answer breaks ties by points, so a play with more points than it has
    fewer cards; when this bound for one card fewer does not exceed the answer's points, the
    most-points objective cannot find a better play and need not be asked.
    """
    values = sorted((variant.hand_values[k] for k in hand), reverse=True)
    return sum(values[: max(cards, 0)])


def _has_joker(key: SolverKey) -> bool:
    """Whether a joker is in the key's hand or on its table."""
    return JOKER in key[1] or any(kind == JOKER for meld in key[2] for kind, _ in meld)


def _played(melds: Melds, table: Sequence[Sequence[Slot]]) -> list[int]:
    """Card kinds a solver table holds beyond the start table's (what the hand plays)."""
    have = Counter(s.card for m in melds for s in m)
    have.subtract(s.card for m in table for s in m)
    return sorted(have.elements())
