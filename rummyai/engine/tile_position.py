"""Build tile-style positions and plays from card tokens (tests, examples, hint requests).

`position` makes a `GameState` whose seat on turn holds a given hand in front of a given table;
`play_from_text` turns a written new table into a `Play` with physical ids: the canonical copy
assignment and the wild meanings the judge finds legal (or the written ones when none is).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from rummyai.cards import parse_cards, parse_table
from rummyai.engine.moves import Play, Violation
from rummyai.engine.state import GameState, RoundState, TableMeld
from rummyai.engine.tile import TileData
from rummyai.errors import DeckError, RummyError
from rummyai.variants import Variant, get_variant


def position(
    variant: str | Variant,
    hands: Sequence[str | Iterable[str]],
    table: str | Sequence[str | Sequence[str]] = "",
    *,
    opened: bool | Sequence[bool] = True,
    turn: int = 0,
    stock: str | Iterable[str] | None = None,
    options: Any = None,
    seed: int = 0,
    max_turns: int | None = None,
) -> GameState:
    """A round in progress: `hands[s]` for each seat, the table, whose turn, the stock.

    The stock is given top card last; when omitted it holds every remaining card in a seeded
    shuffle.
    """
    rules = get_variant(variant, options)
    free: dict[int, list[int]] = {}
    for i in reversed(range(len(rules.deck))):
        free.setdefault(rules.deck[i], []).append(i)

    def take(kind: int) -> int:
        pool = free.get(kind)
        if not pool:
            raise DeckError(f"no copy of card kind {kind} left in the {rules.id} deck")
        return pool.pop()

    melds = []
    for meld in parse_table(table) if table else []:
        melds.append(TableMeld(tuple(take(s.card) for s in meld), tuple(s.meaning for s in meld)))
    from rummyai.engine.tile_rules import resolve

    melds = [resolve(rules, m).meld for m in melds]
    hand_ids = tuple(tuple(take(c) for c in parse_cards(h)) for h in hands)
    if stock is None:
        rest = [i for pool in free.values() for i in pool]
        order = np.random.default_rng(seed).permutation(len(rest))
        stock_ids = tuple(sorted(rest)[int(k)] for k in order)
    else:
        stock_ids = tuple(take(c) for c in parse_cards(stock))
    n = len(hand_ids)
    flags = (opened,) * n if isinstance(opened, bool) else tuple(opened)
    if len(flags) != n:
        raise RummyError(f"{len(flags)} opened flags for {n} seats")
    rs = RoundState(
        dealer=(turn - 1) % n,
        turn=turn,
        hands=hand_ids,
        table=tuple(melds),
        stock=stock_ids,
        opened=flags,
        played_before=(False,) * n,
        family_data=TileData(),
    )
    return GameState(rules, seed, n, 0, (0,) * n, rs, max_turns=max_turns)


def play_from_text(state: GameState, new_table: str | Sequence[str | Sequence[str]]) -> Play:
    """The PLAY that leaves `new_table` for the seat on turn: a legal reading when one exists
    (`bridge.play_for_table`), else the written reading, for the rules to refuse with a reason."""
    from rummyai.engine.bridge import play_for_table
    from rummyai.engine.judge import layouts, normalize_meld

    rs = state.round
    seat = rs.turn
    final = [normalize_meld(state.variant, m) for m in parse_table(new_table)] if new_table else []
    play = play_for_table(state.variant, rs.table, rs.hands[seat], final, rs.opened[seat])
    if play is not None:
        return play
    first = next(layouts(state.variant, rs.table, list(rs.hands[seat]), final))
    return _naive(state, final) if isinstance(first, Violation) else Play(first)


def _naive(state: GameState, final: list[Any]) -> Play:
    """Ids for a new table whose cards do not match the table and hand (a conservation failure)."""
    rs = state.round
    deck = state.variant.deck
    pools: dict[int, list[int]] = {}
    for i in [i for m in rs.table for i in m.ids] + list(rs.hands[rs.turn]):
        pools.setdefault(deck[i], []).append(i)
    spare: dict[int, list[int]] = {}
    for i in range(len(deck)):
        spare.setdefault(deck[i], []).append(i)
    melds = []
    for meld in final:
        ids = []
        for s in meld:
            pool = pools.get(s.card) or [i for i in spare[s.card] if i not in ids]
            ids.append(pool.pop(0))
        melds.append(TableMeld(tuple(ids), tuple(s.meaning for s in meld)))
    return Play(tuple(melds))
