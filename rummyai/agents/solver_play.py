"""Bridge between a seat's view and the meld solver: the position the seat sees, and a solver
`Solution` turned back into an engine `Play` over physical card ids.

The solver works on card kinds; the engine's bridge (`rummyai.engine.bridge.play_for_table`)
turns its table into a play on the canonical copy assignment and checks it with the engine's own
`check_play`, so an agent never submits an illegal play.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from rummyai.cards import parse_meld, sort_key
from rummyai.engine.bridge import play_for_table, table_slots
from rummyai.engine.discard_moves import Discard
from rummyai.engine.moves import Give, Move, Play, card_ids
from rummyai.engine.state import GameState, TableMeld
from rummyai.errors import RummyError
from rummyai.solvers import Solution
from rummyai.solvers.candidate_search import solve_position
from rummyai.solvers.opening_reach import opening_out_of_reach
from rummyai.variants import Variant, get_variant


@dataclass(frozen=True)
class SeatPosition:
    """What a seat sees of a tile-style position, with physical ids: hand, table, opened flag."""

    variant: Variant
    seat: int
    hand: tuple[int, ...]
    table: tuple[TableMeld, ...]
    opened: bool

    def hand_kinds(self) -> list[int]:
        """Card kinds of the hand (the solver's input)."""
        return [self.variant.deck[i] for i in self.hand]

    def table_slots(self) -> list[str]:
        """The table as written melds with the wilds' meanings (the solver's input)."""
        return [" ".join(_tokens(self.variant, m)) for m in self.table]


def _tokens(variant: Variant, meld: TableMeld) -> list[str]:
    from rummyai.cards import card_str

    out = []
    for i, meaning in zip(meld.ids, meld.meanings, strict=True):
        token = card_str(variant.deck[i])
        out.append(token if meaning is None else f"{token}={meaning}")
    return out


def variant_of(view: Mapping[str, Any]) -> Variant:
    """The variant a view belongs to (with its options when the view lists them)."""
    return get_variant(str(view["variant"]), view.get("options") or None)


def require_tile_turn(agent: str, view: Mapping[str, Any], legal: Sequence[Move]) -> None:
    """Refuse, naming the agent, a turn with no legal move or of a draw-and-discard variant (the
    agents that rate solver candidates of a rearranged table play the tile-style variants only)."""
    if not legal:
        raise RummyError(f"{agent} asked to act at seat {view.get('seat')} with no legal move")
    if view.get("family") != "play_or_draw":
        raise RummyError(
            f"{agent} agent supports tile-style variants only (rummikub, rummy-tiles, rummy-board, "
            f"rhine), not {view.get('variant')!r}"
        )


def seat_position(view: Mapping[str, Any]) -> SeatPosition:
    """The tile-style position in a view (`rummyai.engine.tile` view format)."""
    variant = variant_of(view)
    table = []
    for meld in view["table"]:
        slots = parse_meld(meld["cards"])
        meanings = tuple(slot.meaning for slot in slots)
        table.append(TableMeld(tuple(int(i) for i in meld["ids"]), meanings))
    seat = int(view["seat"])
    return SeatPosition(
        variant, seat, tuple(int(i) for i in view["hand"]), tuple(table), bool(view["opened"][seat])
    )


def state_position(state: GameState, seat: int) -> SeatPosition:
    """`seat_position(game.view(state, seat))` read straight from a tile-style state, without
    writing the view out and parsing it back (simulations ask it every turn): the variant the view
    names with its options, the hand in the view's order, the table's own melds (the view writes
    them without escorts or credits, which tile-style melds do not have)."""
    variant = state.variant
    rs = state.round
    deck = variant.deck
    hand = tuple(sorted(rs.hands[seat], key=lambda i: (sort_key(deck[i]), i)))
    table = tuple(m if not m.escorts and not m.credit else TableMeld(m.ids, m.meanings) for m in rs.table)
    return SeatPosition(variant, seat, hand, table, bool(rs.opened[seat]))


def solve_view(position: SeatPosition, objective: str = "cards", work_limit: float | None = None) -> Solution:
    """The solver's best play for the seat (most cards or most points).

    `work_limit` is the solver's deterministic budget, so a seeded game replays the same under
    any load. Where jokers move freely the new table's layout does not matter to the rules, so
    the solver skips its fewest-melds-broken phase there (about half the cost of a call); where
    jokers are locked to their melds it keeps it, as the engine accepts such tables more often.
    It is `solve`'s answer, asked with less work where the dynamic program gives it
    (`candidate_search.solve_position`, which the environments' candidates use too).
    """
    variant = position.variant
    return solve_position(
        variant,
        position.hand_kinds(),
        table_slots(variant, position.table),
        opened=position.opened,
        objective=objective,
        work_limit=work_limit,
        minimize_changes=not variant.joker_rules.free_table_jokers,
    )


def legal_play(position: SeatPosition, table: Sequence[TableMeld]) -> Play | None:
    """`table` as a Play if the engine's rules accept it from this seat, else None."""
    return play_for_table(
        position.variant, position.table, position.hand, table_slots(position.variant, table), position.opened
    )


def solution_play(position: SeatPosition, solution: Solution) -> Play | None:
    """The solver's solution as a legal engine Play, or None if the rules refuse it."""
    if not solution.played:
        return None
    return play_for_table(position.variant, position.table, position.hand, solution.melds, position.opened)


def with_wild_melds_frozen(position: SeatPosition) -> tuple[SeatPosition, tuple[TableMeld, ...]]:
    """The position without the table melds holding a wild, and those melds (left untouched).

    Leaving every joker meld exactly as it is satisfies each variant's table-joker rules, so the
    solver's answer on the rest of the table is a safe fallback where it does not model them.
    """
    deck = position.variant.deck
    frozen = tuple(m for m in position.table if any(position.variant.is_wild(deck[i]) for i in m.ids))
    rest = tuple(m for m in position.table if m not in frozen)
    return replace(position, table=rest), frozen


_PlayKey = tuple[int, tuple[int, ...], tuple[TableMeld, ...], bool, str, float | None]
_PLAYS: dict[_PlayKey, tuple[Variant, Play | None, str, bool]] = {}
MAX_PLAYS = 5_000  # answers `best_legal_play` keeps before starting afresh


def best_legal_play(
    position: SeatPosition, objective: str = "cards", work_limit: float | None = None
) -> tuple[Play | None, str]:
    """The solver's best play made legal, and how: ``solver``, ``frozen`` (joker melds left as they
    are), ``none`` (nothing to play) or ``illegal`` (no legal play found this way).

    The answer is a pure function of the variant, hand, table, opened flag, objective and work
    limit (the solver's budget is deterministic), so it is kept and found again when a
    simulation meets the same position (mcts-pimc's rollouts do, a third of the time)."""
    known = _PLAYS.get(_play_key(position, objective, work_limit))
    if known is not None and known[0] is position.variant:
        return known[1], known[2]
    play, how, proven = _best_legal_play(position, objective, work_limit)
    if len(_PLAYS) >= MAX_PLAYS:
        _PLAYS.clear()
    # the variant is kept alive: its id names it in the key
    _PLAYS[_play_key(position, objective, work_limit)] = (position.variant, play, how, proven)
    return play, how


def nothing_to_play(
    position: SeatPosition, objective: str = "cards", work_limit: float | None = None
) -> bool:
    """Whether `best_legal_play`, just asked of this position, proved that no play places a card:
    an opened seat whose optimal answer plays nothing (every play the engine lists, a new meld or
    a lay-off, is one the solver weighed). False when it did not, or is no longer remembered."""
    known = _PLAYS.get(_play_key(position, objective, work_limit))
    return known is not None and known[0] is position.variant and known[3]


def _play_key(position: SeatPosition, objective: str, work_limit: float | None) -> _PlayKey:
    return (id(position.variant), position.hand, position.table, position.opened, objective, work_limit)


def _best_legal_play(
    position: SeatPosition, objective: str, work_limit: float | None
) -> tuple[Play | None, str, bool]:
    """`best_legal_play` worked out, and whether an optimal answer for an opened seat played nothing.
    An unopened seat whose hand cannot make the opening's points plays nothing, whatever the
    objective: the solver is then not asked (`opening_reach.opening_out_of_reach`)."""
    if not position.opened and opening_out_of_reach(position.variant, position.hand_kinds()):
        return None, "none", False
    solution = solve_view(position, objective, work_limit)
    if not solution.played:
        return None, "none", position.opened and solution.status == "optimal"
    play = solution_play(position, solution)
    if play is not None:
        return play, "solver", False
    rest, frozen = with_wild_melds_frozen(position)
    if frozen:
        solution = solve_view(rest, objective, work_limit)
        melds = [*table_slots(position.variant, frozen), *solution.melds]
        play = (
            play_for_table(position.variant, position.table, position.hand, melds, position.opened)
            if solution.played
            else None
        )
        if play is not None:
            return play, "frozen", False
    return None, "illegal", False


def hand_cards_in(move: Move, hand: Sequence[int]) -> int:
    """How many of the seat's hand cards a move puts on the table: a tile-style play's, or a
    draw-meld-discard meld's, lay-off's or swap's (0 for draws, takes, discards and gives)."""
    held = set(hand)
    if isinstance(move, Play):
        return sum(1 for meld in move.table for i in meld.ids if i in held)
    if isinstance(move, Discard | Give):
        return 0
    return len({i for i in card_ids(move) if i in held})
