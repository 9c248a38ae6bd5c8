"""Candidate moves: the short, ranked list of moves a learner chooses from with a `Discrete(K)` action.

The environments never enumerate the whole move space (a tile-game turn can rearrange the whole
table). Each decision, a `CandidateBuilder` returns at most K moves; slot 0 always holds the
*fallback* (draw, or the family's default move when no draw is legal at that point of the turn),
so a masked or out-of-range action can be replaced by it without raising. Every candidate also
carries a fixed-length feature vector (`FEATURES` names its columns) so a policy can score moves
it has never seen.

`EngineCandidates` ranks the engine's own legal moves (most cards, then most points, duplicates by
card kinds removed). The solver-based builder (`SolverCandidates`: the most-cards play and its
hold-backs, a joker or one card kept back; most points on request) implements the same
`CandidateBuilder` protocol and plugs into the environments through their `candidates=` argument
without changing any space.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from rummyai.cards import JOKER, rank_of, suit_of
from rummyai.engine.discard_moves import Discard, TakeDiscard
from rummyai.engine.discard_search import layoff_candidates
from rummyai.engine.game import legal_moves
from rummyai.engine.moves import CARD_FIELDS, Draw, Move, Play, card_ids
from rummyai.engine.state import GameState, TableMeld
from rummyai.errors import RummyError
from rummyai.variants import RunRule

#: Move kinds recognised by name (a move's class name is matched against these, in order).
MOVE_KINDS: tuple[str, ...] = (
    "draw",
    "take",
    "play",
    "opening",
    "meld",
    "layoff",
    "swap",
    "discard",
    "decline",
    "knock",
    "end",
    "give",
)

#: Column names of a candidate's feature vector: the fallback flag, the move kind (one-hot), what
#: the move does (hand cards and points put down, wilds placed, opening, going out, cards and
#: penalty left in hand, new melds, start melds broken, solver play, draw, table wilds freed), how
#: it compares with the other candidates of the decision (cards held back and points below the
#: candidate playing the most, greedy's move, the most-points move), and the card a discard gives
#: away or a take brings in (`CARD_FEATURES`).
V1_FEATURES: tuple[str, ...] = (
    "is_fallback",
    *(f"kind_{k}" for k in MOVE_KINDS),
    "kind_other",
    "hand_cards_used",
    "hand_points_used",
    "wilds_used",
    "opens",
    "goes_out",
    "hand_size_after",
    "hand_value_after",
    "new_melds",
    "table_melds_changed",
    "from_solver",
    "draws",
    "jokers_freed",
    "holdback",
    "points_below_best",
    "is_greedy",
    "is_most_points",
)
#: The card a discard gives away or a take brings in (zero for other moves): its rank (1-13, 0 for
#: a joker), whether it is wild, how many other hand naturals share its rank or its suit within two
#: ranks of a run (what it can still meld with; 0 for a wild), whether it alone fits a table meld
#: (a lay-off for a seat that has opened: what a discard offers the others), and how many cards
#: the take brings (a discard row gives the chosen card and all after it).
CARD_FEATURES: tuple[str, ...] = ("card_rank", "card_is_wild", "card_links", "card_fits_table", "cards_taken")
FEATURES: tuple[str, ...] = (*V1_FEATURES, *CARD_FEATURES)
NUM_FEATURES = len(FEATURES)
#: What each column holds, as computed (the environments page prints this table). Some columns
#: read coarser than their names; they stay so in this version because the shipped weights of
#: the `learned` agent were trained on them.
COLUMN_MEANINGS: dict[str, str] = {
    "is_fallback": "1 for slot 0, the move taken when the learner has nothing better (a draw or the phase's passive move)",
    "kind_*": f"the move's kind, one-hot ({', '.join(MOVE_KINDS)}, other); a tile-style first play that opens is `play`, `opening` is a draw-and-discard opening of several melds (one of a single meld is `meld`)",
    "hand_cards_used": "hand cards the move puts on the table or gives away (a discard's card counts)",
    "hand_points_used": "the card values (the variant's hand values) of those cards",
    "wilds_used": "those cards that are always wild (jokers, Rhine's twos under `rhine.wild_twos`); Black Heart's diamonds, which can play as themselves, are not counted",
    "opens": "1 when a seat that has not opened plays, opens or lays a meld with hand cards (a diamond swap, which leaves the seat unopened, is 0)",
    "goes_out": "1 when the move uses every hand card",
    "hand_size_after": "hand cards left once `hand_cards_used` leave the hand; what a draw, take or knock brings in is not counted (`cards_taken` counts a take's cards), nor a diamond a swap returns to the hand",
    "hand_value_after": "the card values of those cards",
    "new_melds": "tile style: melds of the new table made of hand cards only; draw and discard: the new melds the move lays down",
    "table_melds_changed": "tile style: start melds that are not on the new table exactly as they were, the same cards in the same order with the same meanings (a meld that only grew or was written in another order counts, and so does a play trading identical copies between melds); 0 for draw-and-discard moves",
    "from_solver": "1 for a move the solver found, or greedy's move unless that is the fallback in slot 0",
    "draws": "1 for a draw (a tile-style draw from an empty stock, a pass, included) or a take; 0 for a knock",
    "jokers_freed": "tile style: wilds in the melds `table_melds_changed` counts (one that only grew included), whether or not they move; 1 for a swap",
    "holdback": "for a move with `hand_cards_used` above 0 (a discard's card counts): how many fewer than the candidate using the most",
    "points_below_best": "for such a move: points below the most-cards candidate with the most points, 0 when it has as many or more",
    "is_greedy": "1 for greedy's move (as many cards as the `greedy` agent plays, but where a solve is cut by its work limit, as on some Rhine positions, the two searches may end on different plays)",
    "is_most_points": "1 for the move putting down the most points",
    "card_rank": "a discard's or take's card: its rank (1-13; 0 for a joker)",
    "card_is_wild": "1 when that card is wild",
    "card_links": "hand naturals that share its rank or its suit within two ranks of a run (0 for a wild)",
    "card_fits_table": "1 when that card alone can be laid off onto a table meld",
    "cards_taken": "cards a take brings (the chosen card and all after it in a discard row)",
}

#: Columns of the candidate matrix in each environment version (v1: before `CARD_FEATURES`).
FEATURE_WIDTHS: dict[int, int] = {1: len(V1_FEATURES), 2: NUM_FEATURES}


def feature_version(width: int) -> int:
    """The environment version whose candidate matrix has `width` columns; `RummyError` for any
    other width."""
    for version, columns in FEATURE_WIDTHS.items():
        if width == columns:
            return version
    known = " or ".join(
        f"{columns} (v{version})" for version, columns in sorted(FEATURE_WIDTHS.items(), reverse=True)
    )
    raise RummyError(f"feature_width must be {known}, got {width!r}")


_COLUMN = {name: i for i, name in enumerate(FEATURES)}


@dataclass(frozen=True)
class Candidate:
    """One move offered to the learner: the engine move, a short label and its feature vector."""

    move: Move
    label: str
    features: npt.NDArray[np.float32]


class CandidateBuilder(Protocol):
    """Builds the candidate list for the seat to act; slot 0 must be the fallback move."""

    def build(self, state: GameState, limit: int) -> list[Candidate]:
        """At most `limit` candidates for `state.to_act`, the fallback first (empty if nobody acts)."""
        ...


def move_kind(move: Move) -> str:
    """The kind of a move from its class name (``Draw`` -> ``draw``, ``LayOff`` -> ``layoff``)."""
    name = type(move).__name__.lower().replace("_", "")
    for kind in MOVE_KINDS:
        if kind in name:
            return kind
    return "other"


def hand_cards_used(state: GameState, move: Move, start_ids: frozenset[int] | None = None) -> list[int]:
    """Physical ids from the acting seat's hand that `move` puts on the table or discards
    (`start_ids`: the ids of the start table's meld objects, when the caller has them)."""
    rs = state.round
    hand = set(rs.hands[state.to_act])
    if isinstance(move, Play):
        # melds of the start table kept as they were (the same objects) hold no hand card
        start = start_ids if start_ids is not None else {id(m) for m in rs.table}
        return sorted(i for meld in move.table if id(meld) not in start for i in meld.all_ids() if i in hand)
    return sorted({i for i in card_ids(move) if i in hand})


#: Fields naming physical cards, read as card kinds: the move's own cards and a swapped table
#: joker or diamond (two identical jokers swapped for the same card are one move).
_KIND_FIELDS = CARD_FIELDS | {"joker", "diamond"}


def canonical(move: Any, deck: Sequence[int], card_field: bool = False) -> Any:
    """`move` with every physical id replaced by its card kind: equal forms play identical cards."""
    if move is None or isinstance(move, bool | str):
        return move
    if isinstance(move, int):
        return ("card", deck[move]) if card_field else move
    if isinstance(move, TableMeld):
        return (
            tuple((deck[i], m) for i, m in zip(move.ids, move.meanings, strict=True)),
            tuple(None if e is None else deck[e] for e in move.escorts),
        )
    if isinstance(move, tuple | list):
        return tuple(canonical(item, deck, card_field) for item in move)
    if dataclasses.is_dataclass(move) and not isinstance(move, type):
        return (
            type(move).__name__,
            tuple(
                canonical(getattr(move, f.name), deck, f.name in _KIND_FIELDS)
                for f in dataclasses.fields(move)
            ),
        )
    return repr(move)


@dataclass(frozen=True)
class _Context:
    """What every candidate of one decision shares: per-id values, the hand, the start table
    (`fits`: card kinds found to fit a table meld, filled on first use)."""

    values: tuple[int, ...]
    wild: tuple[bool, ...]
    hand: tuple[int, ...]
    hand_value: int
    opened: bool
    table_ids: frozenset[int]
    fits: dict[int, bool] = dataclasses.field(default_factory=dict)


_TABLES: dict[int, tuple[Any, tuple[int, ...], tuple[bool, ...]]] = {}


def _context(state: GameState) -> _Context:
    variant = state.variant
    cached = _TABLES.get(id(variant))
    if cached is None or cached[0] is not variant:
        deck = variant.deck
        values = tuple(variant.hand_value(k) for k in deck)
        wild = tuple(k == JOKER or variant.always_wild(k) for k in deck)
        if len(_TABLES) > 64:
            _TABLES.clear()
        cached = _TABLES[id(variant)] = (variant, values, wild)
    _, values, wild = cached
    rs = state.round
    seat = state.to_act
    hand = rs.hands[seat]
    return _Context(
        values=values,
        wild=wild,
        hand=hand,
        hand_value=sum(values[i] for i in hand),
        opened=bool(rs.opened[seat]) if rs.opened else True,
        table_ids=frozenset(id(m) for m in rs.table),
    )


def describe(
    state: GameState, move: Move, fallback: bool = False, context: _Context | None = None
) -> npt.NDArray[np.float32]:
    """Feature vector of `move` for the seat to act (columns as in `FEATURES`)."""
    ctx = context if context is not None else _context(state)
    used = hand_cards_used(state, move, ctx.table_ids)
    features = np.zeros(NUM_FEATURES, dtype=np.float32)
    features[_COLUMN["is_fallback"]] = float(fallback)
    kind = move_kind(move)
    features[_COLUMN[f"kind_{kind}"]] = 1.0
    used_value = sum(ctx.values[i] for i in used)
    features[_COLUMN["hand_cards_used"]] = len(used)
    features[_COLUMN["hand_points_used"]] = used_value
    features[_COLUMN["wilds_used"]] = sum(1 for i in used if ctx.wild[i])
    places_cards = kind in ("play", "opening", "meld") and bool(used)
    features[_COLUMN["opens"]] = float(places_cards and not ctx.opened)
    remaining = len(ctx.hand) - len(used)
    features[_COLUMN["goes_out"]] = float(bool(used) and remaining == 0)
    features[_COLUMN["hand_size_after"]] = remaining
    features[_COLUMN["hand_value_after"]] = ctx.hand_value - used_value
    if isinstance(move, Play):
        used_set = set(used)
        features[_COLUMN["new_melds"]] = sum(1 for m in move.table if used_set.issuperset(m.ids))
        changed = _changed_melds(state.round.table, move.table)
        features[_COLUMN["table_melds_changed"]] = len(changed)
        features[_COLUMN["jokers_freed"]] = sum(1 for m in changed for i in m.ids if ctx.wild[i])
    else:
        features[_COLUMN["new_melds"]] = _count_new_melds(move)
        features[_COLUMN["jokers_freed"]] = float(kind == "swap")
    features[_COLUMN["draws"]] = float(kind in ("draw", "take"))
    if isinstance(move, Discard | TakeDiscard):
        _card_features(state, move, ctx, features)
    return features


def _card_features(
    state: GameState, move: Discard | TakeDiscard, ctx: _Context, features: npt.NDArray[np.float32]
) -> None:
    """Fill `CARD_FEATURES` for a discard or a take."""
    variant = state.variant
    deck = variant.deck
    rs = state.round
    if isinstance(move, Discard):
        card, others, taken = move.card, [i for i in ctx.hand if i != move.card], 0
    else:
        card, others, taken = rs.discard[move.index], list(ctx.hand), len(rs.discard) - move.index
    kind = deck[card]
    wild = variant.is_wild(kind)
    features[_COLUMN["card_rank"]] = 0 if kind == JOKER else rank_of(kind)
    features[_COLUMN["card_is_wild"]] = float(wild)
    if not wild:
        rule = variant.run_rules[suit_of(kind)]
        features[_COLUMN["card_links"]] = sum(
            1 for i in others if not variant.is_wild(deck[i]) and _linked(kind, deck[i], rule)
        )
    fits = ctx.fits.get(kind)
    if fits is None:
        fits = ctx.fits[kind] = bool(layoff_candidates(variant, [card], rs.table, state.to_act))
    features[_COLUMN["card_fits_table"]] = float(fits)
    features[_COLUMN["cards_taken"]] = taken


def _linked(kind: int, other: int, rule: RunRule | None) -> bool:
    """Whether two naturals could share a meld: the same rank, or the same suit within two ranks
    of each other in a run of that suit (`rule`: an ace high above the king, or a wrap)."""
    rank, near = rank_of(kind), rank_of(other)
    if rank == near:
        return True
    if rule is None or suit_of(kind) != suit_of(other):
        return False
    gap = abs(rank - near)
    if rule.wrap:
        gap = min(gap, 13 - gap)
    elif rule.ace_high and 1 in (rank, near):
        gap = min(gap, abs((14 if rank == 1 else rank) - (14 if near == 1 else near)))
    return gap <= 2


def _changed_melds(start: Sequence[TableMeld], final: Sequence[TableMeld]) -> list[TableMeld]:
    """The start melds that are not on the final table as they were (same cards, same meanings)."""
    kept = {id(m) for m in final}
    rest = [m for m in start if id(m) not in kept]
    if not rest:
        return rest
    start_ids = {id(m) for m in start}
    left = Counter(m for m in final if id(m) not in start_ids)
    changed = []
    for meld in rest:
        if left[meld]:
            left[meld] -= 1
        else:
            changed.append(meld)
    return changed


def _count_new_melds(move: Any) -> int:
    """New melds a draw-meld-discard move lays down (a meld, an opening's melds, a swap's placement)."""
    if move is None:
        return 0
    if move_kind(move) == "meld":
        return 1
    total = 0
    for name in ("plays", "place"):
        value = getattr(move, name, None)
        for item in value if isinstance(value, tuple) else (value,):
            total += _count_new_melds(item)
    return total


_MELD_KEYS: dict[int, tuple[TableMeld, Any]] = {}


def _meld_key(meld: TableMeld, deck: Sequence[int]) -> Any:
    """A meld as the sorted (card kind, meaning) pairs of its slots, remembered per meld object."""
    known = _MELD_KEYS.get(id(meld))
    if known is not None and known[0] is meld:
        return known[1]
    key: Any = tuple(
        sorted((deck[i], "" if m is None else str(m)) for i, m in zip(meld.ids, meld.meanings, strict=True))
    )
    if meld.escorts:
        key = (key, tuple(sorted(-1 if e is None else deck[e] for e in meld.escorts)))
    if len(_MELD_KEYS) > 50_000:
        _MELD_KEYS.clear()
    _MELD_KEYS[id(meld)] = (meld, key)
    return key


def _dedupe_key(state: GameState, move: Move, ctx: _Context | None = None) -> Any:
    """Moves with the same key have the same effect up to swapping identical copies of a card.

    A PLAY is keyed by the table it leaves, as card kinds and meanings (whichever copy of a kind
    and whatever meld objects the move uses), so a play built elsewhere (an agent's) finds its twin.
    """
    deck = state.variant.deck
    if isinstance(move, Play):
        return ("Play", *_table_change(state, move, deck, None if ctx is None else ctx.table_ids))
    return canonical(move, deck)


def _table_change(
    state: GameState, play: Play, deck: Sequence[int], start_ids: frozenset[int] | None = None
) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The melds (as `_meld_key`s, sorted) a play adds to the start table and those it takes off,
    identical pairs cancelled: for one start table, equal changes are equal final tables."""
    start = state.round.table
    kept = {id(m) for m in play.table}
    if start_ids is None:
        start_ids = frozenset(id(m) for m in start)
    added = [_meld_key(m, deck) for m in play.table if id(m) not in start_ids]
    removed = [_meld_key(m, deck) for m in start if id(m) not in kept]
    if added and removed:
        plus, minus = Counter(added), Counter(removed)
        added, removed = list((plus - minus).elements()), list((minus - plus).elements())
    return tuple(sorted(added)), tuple(sorted(removed))


#: Kinds tried in order for the fallback move: the least committal move legal at that point.
FALLBACK_ORDER: tuple[str, ...] = ("draw", "decline", "end", "discard")


def pick_fallback(state: GameState, moves: Sequence[Move]) -> int:
    """Index of the fallback among legal moves.

    A stock draw (`Draw`), else another draw, else declining a knock, else ending a deal, else
    discarding the highest-valued card, else the first legal move.
    """
    for i, move in enumerate(moves):
        if isinstance(move, Draw):
            return i
    kinds = [move_kind(m) for m in moves]
    for wanted in FALLBACK_ORDER:
        found = [i for i, kind in enumerate(kinds) if kind == wanted]
        if found and wanted == "discard":
            deck = state.variant.deck
            values = {
                i: sum(state.variant.hand_value(deck[c]) for c in hand_cards_used(state, moves[i]))
                for i in found
            }
            return max(found, key=lambda i: (values[i], -i))
        if found:
            return found[0]
    return 0


class EngineCandidates:
    """Candidates from the engine's legal moves, ranked by cards played then points, deduplicated
    (the ``engine`` builder: no whole-table rearrangements); the fallback at slot 0 and the
    `limit - 1` best other moves after it.
    """

    builtin = True  # its rows are checked by the tests, not at every step

    def build(self, state: GameState, limit: int) -> list[Candidate]:
        """At most `limit` candidates for the seat to act, the fallback first."""
        moves = legal_moves(state)
        if not moves:
            return []
        return rank_moves(state, moves, limit, from_solver=False)


def rank_moves(
    state: GameState,
    moves: Sequence[Move],
    limit: int,
    priority: Sequence[Move] = (),
    greedy: Move | None = None,
    most_points: Move | None = None,
    from_solver: bool = True,
) -> list[Candidate]:
    """The fallback (from `moves`), then `greedy`'s move, the `most_points` move and the `priority`
    moves in their order (the solver's plays, marked ``from_solver`` when `from_solver`), then the
    other moves by cards from hand, then points (first listed wins ties), without duplicates (same
    cards and table up to identical copies), cut to `limit`. Where `greedy` or `most_points` is
    None it is found among `moves` (`greedy_index`, `most_points_index`)."""
    ctx = _context(state)
    memo: dict[int, Any] = {}

    def key_of(move: Move) -> Any:
        known = memo.get(id(move))
        if known is None:
            known = memo[id(move)] = _dedupe_key(state, move, ctx)
        return known

    first = pick_fallback(state, moves)
    fallback = moves[first]
    if greedy is None:
        greedy = moves[greedy_index(state, moves)]
    if most_points is None:
        most_points = moves[most_points_index(state, moves, ctx)]
    marks = {"is_greedy": key_of(greedy), "is_most_points": key_of(most_points)}
    seen = {key_of(fallback)}
    chosen = [Candidate(fallback, move_kind(fallback), describe(state, fallback, True, ctx))]
    keys = [key_of(fallback)]
    solver_moves = {id(m) for m in priority}
    for move in (greedy, most_points, *priority):
        key = key_of(move)
        if key in seen or len(chosen) >= limit:
            continue
        seen.add(key)
        keys.append(key)
        features = describe(state, move, False, ctx)
        features[_COLUMN["from_solver"]] = float(
            from_solver and (id(move) in solver_moves or move in priority or move is greedy)
        )
        chosen.append(Candidate(move, move_kind(move), features))
    ranked: list[tuple[int, int, int]] = []
    for index, move in enumerate(moves):
        if index == first:
            continue
        key = key_of(move)
        if key in seen:
            continue
        seen.add(key)
        used = hand_cards_used(state, move, ctx.table_ids)
        points = sum(ctx.values[i] for i in used)
        ranked.append((-len(used), -points, index))
    ranked.sort()
    for *_, index in ranked[: max(limit - len(chosen), 0)]:
        move = moves[index]
        keys.append(key_of(move))
        chosen.append(Candidate(move, move_kind(move), describe(state, move, False, ctx)))
    _relative_features(chosen, keys, marks)
    return chosen


def _relative_features(chosen: Sequence[Candidate], keys: Sequence[Any], marks: dict[str, Any]) -> None:
    """Fill the columns that compare a candidate with the others of its decision."""
    cards = _COLUMN["hand_cards_used"]
    points = _COLUMN["hand_points_used"]
    best = max(c.features[cards] for c in chosen)
    best_points = max(c.features[points] for c in chosen if c.features[cards] == best)
    for candidate, key in zip(chosen, keys, strict=True):
        row = candidate.features
        row[_COLUMN["holdback"]] = best - row[cards] if row[cards] > 0 else 0.0
        row[_COLUMN["points_below_best"]] = max(0.0, best_points - row[points]) if row[cards] > 0 else 0.0
        for column, wanted in marks.items():
            row[_COLUMN[column]] = float(key == wanted)


def greedy_index(state: GameState, moves: Sequence[Move]) -> int:
    """Index of the move the greedy agent picks among listed moves (`listed_choice`)."""
    from rummyai.agents.greedy import listed_choice

    return listed_choice(state.variant, state.round.hands[state.to_act], moves)


def most_points_index(state: GameState, moves: Sequence[Move], ctx: _Context | None = None) -> int:
    """Index of the first listed move putting the most hand points down (ties: more cards); where
    every move is a discard, the discard of the card worth most (greedy's, `greedy_index`)."""
    ctx = ctx if ctx is not None else _context(state)
    best, found = (-1, -1), -1
    for i, move in enumerate(moves):
        if move_kind(move) == "discard":
            continue
        used = hand_cards_used(state, move)
        score = (sum(ctx.values[k] for k in used), len(used))
        if score > best:
            best, found = score, i
    return found if found >= 0 else greedy_index(state, moves)


#: Candidate builders by name, for the environments' ``candidates=`` argument.
BUILDERS: tuple[str, ...] = ("auto", "engine", "solver")


def offered(builder: CandidateBuilder, state: GameState, limit: int) -> list[Candidate]:
    """The builder's candidates for the seat to act, at most `limit` of them; a builder of the
    caller's own gets its list checked (at least one move, one finite row of `NUM_FEATURES`
    features per move), so that a mistake there is named rather than met later in numpy."""
    candidates = builder.build(state, limit)[:limit]
    if getattr(builder, "builtin", False):
        if not candidates:
            raise RummyError(f"no candidate move for seat {state.to_act} (the engine offered none)")
        return candidates
    name = type(builder).__name__
    if not candidates:
        raise RummyError(f"candidate builder {name} offered no move for seat {state.to_act}")
    for k, candidate in enumerate(candidates):
        features = np.asarray(candidate.features)
        if features.shape != (NUM_FEATURES,) or not np.isfinite(features).all():
            raise RummyError(
                f"candidate builder {name}: slot {k} needs {NUM_FEATURES} finite features, got "
                f"shape {features.shape}{'' if np.isfinite(features).all() else ' with NaN or inf'}"
            )
    return candidates


def make_builder(spec: str | CandidateBuilder, tile_style: bool = True) -> CandidateBuilder:
    """A builder from its name (``engine``: the engine's legal moves; ``solver``: those plus the
    exact solver's plays; ``auto``: ``solver`` for tile-style variants, else ``engine``) or a ready
    `CandidateBuilder`."""
    if spec == "auto":
        spec = "solver" if tile_style else "engine"
    if spec == "engine":
        return EngineCandidates()
    if spec == "solver":
        from rummyai.envs.solver_candidates import SolverCandidates

        return SolverCandidates()
    if isinstance(spec, str):
        raise RummyError(f"unknown candidates {spec!r} (known: {', '.join(BUILDERS)})")
    if not callable(getattr(spec, "build", None)):
        raise RummyError(
            f"candidates must be a builder name or have a build(state, limit) method, got {spec!r}"
        )
    return spec
