"""Independent checks of a `Solution`: every meld valid, table cards conserved, played cards from hand.

A diamond taken back by a swap (Black Heart) may leave the table for the hand; nothing else may.
A tile-style answer must also pass the engine's own judge (`rummyai.engine.judge`), which owns
the rules that depend on where a card came from and the turn (joker rules, openings, caps).

Used by the tests and the benchmarks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rummyai.cards import NUM_KINDS, Slot, card_str
from rummyai.engine.judge import Judgement, judge_play
from rummyai.errors import IllegalMoveError
from rummyai.melds import analyze_meld, opening_value
from rummyai.solvers.position import Position, Solution


def check_solution(position: Position, solution: Solution) -> None:
    """Raise `IllegalMoveError` if `solution` is not a valid result of playing from the hand."""
    variant = position.variant
    new = [0] * NUM_KINDS
    infos = [analyze_meld(variant, meld) for meld in solution.melds]
    for info in infos:
        for card in info.cards:
            new[card] += 1
    old = position.table_counts()
    hand = position.hand_counts()
    played = [0] * NUM_KINDS
    for card in solution.played:
        played[card] += 1
    swapped = [0] * NUM_KINDS  # diamonds taken back by swaps (Black Heart): they may go to the hand
    for _, diamond, _, _ in solution.swaps:
        swapped[diamond] += 1
    kept = 0
    for card in range(NUM_KINDS):
        taken_back = old[card] + played[card] - new[card]
        if not 0 <= taken_back <= swapped[card]:
            raise IllegalMoveError(
                "conservation",
                f"{card_str(card)}: table had {old[card]}, played {played[card]}, new table has {new[card]}",
            )
        kept += taken_back
        if played[card] > hand[card]:
            raise IllegalMoveError("conservation", f"{card_str(card)} played but not in hand")
    if len(solution.played) - kept != solution.cards_played:
        raise IllegalMoveError("solution", "cards_played does not match the played cards")
    if not position.opened and solution.played and variant.opening_turn_exclusive:
        old_melds = [tuple(m.slots) for m in position.table]
        rest = list(solution.melds)
        for meld in old_melds:
            if meld not in rest:
                raise IllegalMoveError("opening", "the table changed on an opening turn")
            rest.remove(meld)
        value = sum(opening_value(variant, analyze_meld(variant, m)) for m in rest)
        if value < variant.opening_points:
            raise IllegalMoveError("opening", f"opening melds worth {value} < {variant.opening_points}")
    if variant.family == "draw_meld_discard":
        grown = _check_melds_only_grow(position, solution)
        if not position.opened and solution.played and variant.opening == "points":
            # the opening's melds lie inside the new melds, and a meld's value only grows
            values = [opening_value(variant, infos[k]) for k in range(len(infos)) if k not in grown]
            value = max(values, default=0) if variant.opening_single_meld else sum(values)
            if value < variant.opening_points:
                raise IllegalMoveError("opening", f"new melds worth {value} < {variant.opening_points}")
        if variant.go_out_by_discard_only and position.hand and solution.cards_played >= len(position.hand):
            raise IllegalMoveError(
                "discard", "the play empties the hand: a card must be kept for the discard"
            )
    if variant.tile_style and solution.played:
        verdict = judge(position, solution.melds)
        if not verdict.legal:
            raise IllegalMoveError(
                verdict.rule or "judge", f"the engine's judge refuses it: {verdict.reason}"
            )


def _check_melds_only_grow(position: Position, solution: Solution) -> set[int]:
    """Draw-meld-discard turns never take a table meld apart: each start meld's natural cards
    lie in a new meld of their own (a swap takes out only a wild, or a Black Heart diamond).
    Start melds are matched to new melds by augmenting paths, so two start melds that fit the
    same new meld are told apart. Returns the new melds that hold a start meld."""
    bags = [Counter(c for slot in meld for c in slot.cards()) for meld in solution.melds]
    back = Counter(diamond for _, diamond, _, _ in solution.swaps)  # Black Heart: may leave the table
    fits: list[list[int]] = []
    for info in position.table:
        need = Counter(s.card for s, wild in zip(info.slots, info.as_wild, strict=True) if not wild) - back
        fits.append([k for k, bag in enumerate(bags) if all(bag[c] >= n for c, n in need.items())])
    owner: dict[int, int] = {}

    def place(u: int, seen: set[int]) -> bool:
        for k in fits[u]:
            if k not in seen:
                seen.add(k)
                if k not in owner or place(owner[k], seen):
                    owner[k] = u
                    return True
        return False

    for u, info in enumerate(position.table):
        if not place(u, set()):
            raise IllegalMoveError("meld", f"start meld {' '.join(map(str, info.slots))} was taken apart")
    return set(owner)


def judge(position: Position, melds: Sequence[Sequence[Slot]], deadline: float | None = None) -> Judgement:
    """The engine's judge on the text form of a tile-style play (`deadline`: see `judge_play`)."""
    return judge_play(
        position.variant,
        [card_str(c) for c in position.hand],
        [[str(s) for s in info.slots] for info in position.table],
        [[str(s) for s in meld] for meld in melds],
        opened=position.opened,
        deadline=deadline,
        fixed_order=False,  # legal or not only; as the bridge reads it, so both share one copy search
    )


def judged_legal(position: Position, melds: Sequence[Sequence[Slot]], deadline: float | None = None) -> bool:
    """The engine's judge on the text form of a tile-style play: the joker and opening rules that
    depend on which start meld a card came from (Rhine, Tile Rummy)."""
    return bool(judge(position, melds, deadline).legal)
