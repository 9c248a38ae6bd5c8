"""The simple move generator of the draw-meld-discard family (`DiscardFamily.legal_moves`).

Candidates come from `discard_search` (new melds, single lay-offs, opening bundles) plus joker
and diamond swaps with a placement where one is needed, Black Heart plays that empty the hand,
and one discard per card kind; the family keeps those that validate.
"""

from __future__ import annotations

from dataclasses import replace

from rummyai.cards import rank_of
from rummyai.engine.discard_melds import analyze, requirement
from rummyai.engine.discard_moves import DiamondSwap, Discard, JokerSwap, LayOff, MeldCards, Opening
from rummyai.engine.discard_rules import (
    DiscardData,
    Work,
    after_swap,
    black_heart_moves,
    diamond_swap_options,
    open_then_place,
    opening_moves,
    placements,
    put,
    violation,
)
from rummyai.engine.discard_search import layoff_candidates, layoff_chain, meld_candidates
from rummyai.engine.moves import Move
from rummyai.engine.state import GameState

MAX_SWAPS_OFFERED = 3  # joker swaps (each with its placements) the generator offers per turn
MAX_SWAP_SEARCHES = 12  # swaps whose placements it searches per turn, found or not
OPENINGS_WITHOUT_COMMITTED = 4  # openings offered that leave the committed card for a later play


def _joker_swaps(state: GameState) -> list[Move]:
    v, r = state.variant, state.round
    seat = r.turn
    moves: list[Move] = []
    searched = offered = 0
    for t, meld in enumerate(r.table):
        info = analyze(v, meld)
        for k, joker in enumerate(meld.ids):
            if meld.meanings[k] is None or not v.always_wild(v.deck[joker]):
                continue
            seen: set[int] = set()
            for card in r.hands[seat]:
                kind = v.deck[card]
                if kind in seen or v.is_wild(kind):
                    continue
                fits = kind == info.meant(k) if info.kind == "run" else rank_of(kind) == info.rank
                if not fits:
                    continue
                seen.add(kind)
                searched += 1
                if searched > MAX_SWAP_SEARCHES:
                    return moves
                w = Work(state)
                new = replace(meld, ids=put(meld.ids, k, card), meanings=put(meld.meanings, k, None))
                w.table[t] = new
                w.hand.remove(card)
                w.hand.append(joker)
                found = [JokerSwap(t, joker, card, place) for place in placements(w, joker)]
                moves.extend(found)
                offered += bool(found)
                if offered >= MAX_SWAPS_OFFERED:
                    return moves
    return moves


def _diamond_swaps(state: GameState) -> list[Move]:
    w = Work(state)
    committed = w.data.committed
    moves: list[Move] = []
    for option in diamond_swap_options(w, committed):
        t, d, card, new_escort, _ = option
        if card in committed:  # the freed diamond inherits the duty (§6.5): placed in the same move
            for place in placements(after_swap(w, option), d):
                moves.append(DiamondSwap(t, d, card, new_escort, place))
        else:
            moves.append(DiamondSwap(t, d, card, new_escort))
    return moves


def play_candidates(state: GameState) -> list[Move]:
    """Candidate moves of the play phase (discards already checked)."""
    v, r = state.variant, state.round
    seat = r.turn
    hand = list(r.hands[seat])
    data: DiscardData = r.family_data
    must = next((c for c in data.committed if c in hand), None)
    moves: list[Move] = []
    req = requirement(v, state.scores[seat])
    if r.opened[seat] or req is None:  # no requirement: any first play opens (§6.4 score < 0)
        moves.extend(MeldCards(m) for m, _ in meld_candidates(v, hand, must=must))
        moves.extend(LayOff(t, m) for t, m in layoff_candidates(v, hand, r.table, seat, must=must))
        if must is not None and not moves:  # §5.2: lay off the cards between a run and the committed card
            chain = layoff_chain(v, hand, r.table, seat, must)
            if chain:
                moves.append(LayOff(*chain[0]))
        if v.joker_rules.exact_swaps and must is None:
            moves.extend(_joker_swaps(state))
    else:
        moves.extend(opening_moves(v, req, hand, must))
        if must is not None:  # open without the committed card, then place it (the openings that allow it)
            for bundle, _ in open_then_place(Work(state), req, must, limit=OPENINGS_WITHOUT_COMMITTED):
                moves.append(
                    MeldCards(bundle[0]) if len(bundle) == 1 else Opening(tuple(map(MeldCards, bundle)))
                )
        moves.extend(black_heart_moves(Work(state)))
    if v.joker_rules.diamond_swaps:
        moves.extend(_diamond_swaps(state))
    if must is None:
        kinds: set[int] = set()
        for card in sorted(hand):  # listed by card, not by the hand's order (which no view shows)
            if v.deck[card] in kinds:
                continue
            move = Discard(card)
            if violation(state, move) is None:
                kinds.add(v.deck[card])
                moves.append(move)
    return moves
