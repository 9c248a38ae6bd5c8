"""A quick play for a tile-style turn: new melds from the hand alone (an opening, on an opening
turn), then natural cards laid off onto the table's melds, none taken apart.

The exact search can run out of time or work on a large position whose joker rules it only
relaxes (Rhine, Tile Rummy, official Rummikub's table jokers) before it finds a play the judge
accepts. A play that only adds cards is legal far more often, costs a solve of the hand alone
and a judgement (quick: no start meld is taken apart, so the judge needs no search over copies),
and is what a person would try first: `solve_tile` falls back on it when its own answer is not
proven, and the hint engine offers it as the fewest-changes alternative.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rummyai.cards import JOKER, Slot, rank_of, suit_of
from rummyai.errors import MeldError
from rummyai.melds import MeldInfo, analyze_meld
from rummyai.solvers.position import Position, score_key

Melds = list[tuple[Slot, ...]]


def lay_offs_play(
    position: Position,
    objective: str,
    time_limit: float | None,
    max_cards: int | None = None,
    work_limit: float | None = None,
) -> tuple[list[int], Melds, str] | None:
    """(cards played, new table, status of the hand's own solve): the best new melds from the
    hand alone (the solver, under the limits given), then the most valuable natural cards left
    laid off one at a time where a meld takes them; None when nothing is played or the turn is
    not a tile-style one with a table. Not judged: `judged_lay_offs` asks the judge."""
    own = _hand_melds(position, objective, time_limit, max_cards, work_limit)
    if own is None:
        return None
    played, melds = _laid_off(position, own[0], own[1], max_cards, onto_wilds=True)
    return (played, melds, own[2]) if played else None


def judged_lay_offs(
    position: Position,
    objective: str,
    time_limit: float | None,
    deadline: float | None,
    beat: tuple[int, int],
    max_cards: int | None = None,
    work_limit: float | None = None,
) -> tuple[list[int], Melds] | None:
    """The best of these plays that scores above `beat` (a `score_key`) and that the engine's judge
    accepts by `deadline` (a `perf_counter` instant): `lay_offs_play`, the same with lay-offs onto
    melds without a wild only, the hand's own melds alone. None when none does."""
    from rummyai.solvers.check import judged_legal

    own = _hand_melds(position, objective, time_limit, max_cards, work_limit)
    if own is None:
        return None
    options: list[tuple[list[int], Melds]] = [
        _laid_off(position, own[0], own[1], max_cards, onto_wilds=True),
        _laid_off(position, own[0], own[1], max_cards, onto_wilds=False),
        (list(own[0]), [tuple(info.slots) for info in position.table] + list(own[1])),
    ]
    tried: list[Melds] = []
    for played, melds in sorted(options, key=lambda o: score_key(position, objective, o[0]), reverse=True):
        if score_key(position, objective, played) <= beat or melds in tried:
            continue
        if judged_legal(position, melds, deadline):
            return played, melds
        tried.append(melds)
    return None


def _hand_melds(
    position: Position,
    objective: str,
    time_limit: float | None,
    max_cards: int | None,
    work_limit: float | None,
) -> tuple[list[int], Melds, str] | None:
    """The solver's best new melds from the hand alone (played, melds, status), meeting the
    opening's requirement on an opening turn; None where the turn is not a tile-style one with
    a table."""
    if not (position.variant.tile_style and position.table):
        return None
    from rummyai.solvers.api import solve  # the solver's entry point answers the hand alone

    own = solve(
        position.variant,
        list(position.hand),
        (),
        opened=position.opened,
        objective=objective,
        time_limit=time_limit,
        work_limit=work_limit,
        max_cards=max_cards,
    )
    return list(own.played), [tuple(m) for m in own.melds], own.status


def _laid_off(
    position: Position, hand_played: Sequence[int], hand_melds: Melds, max_cards: int | None, onto_wilds: bool
) -> tuple[list[int], Melds]:
    """The table plus the hand's melds, then the most valuable natural cards left laid off one at
    a time where a meld takes them (`onto_wilds` False: not onto a meld holding a wild)."""
    variant = position.variant
    melds: Melds = [tuple(info.slots) for info in position.table] + list(hand_melds)
    wild = [any(s.card == JOKER or variant.is_wild(s.card) for s in meld) for meld in melds]
    left = Counter(position.hand) - Counter(hand_played)
    played = Counter(hand_played)
    caps = [c for c in (max_cards, variant.max_hand_cards_per_turn) if c is not None]
    cap = min(caps) if caps else None
    added = True
    while added:
        added = False
        for card in sorted(left, key=lambda c: (-variant.hand_values[c], c)):
            if cap is not None and played.total() >= cap:
                break
            if card == JOKER or variant.is_wild(card):
                continue  # a wild laid off is where the joker rules differ most
            for j, meld in enumerate(melds):
                if (wild[j] and not onto_wilds) or not _may_extend(analyze_meld(variant, meld), card):
                    continue
                try:
                    info = analyze_meld(variant, (*meld, Slot(card)))
                except MeldError:
                    continue
                melds[j] = info.slots
                left[card] -= 1
                played[card] += 1
                added = True
                break
        left = +left
    return sorted(played.elements()), melds


def _may_extend(info: MeldInfo, card: int) -> bool:
    """Quick filter: could natural `card` join this meld at all (same rank, or the next card at
    either end of the run)? `analyze_meld` has the final word."""
    if info.kind == "group":
        return rank_of(card) == info.rank
    if info.kind != "run" or suit_of(card) != info.suit:
        return False
    rank = rank_of(card)
    low, high = min(info.positions), max(info.positions)
    return rank in (low - 1, high + 1) or (rank == 1 and high == 13)
