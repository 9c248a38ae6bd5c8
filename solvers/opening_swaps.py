"""Joker swaps on a Rummy Palace opening turn (§4.4-4.5): exact, by splitting the turn in two.

A player who has not opened may swap table jokers once the opening's 30 points are down, later in
the same turn. The CP-SAT model searches swaps only for opened players, so here the turn is cut at
the moment the 30 is reached: first a set O of new melds from the hand alone worth the 30, then an
ordinary opened turn from the hand without O onto the table with O added (lay-offs onto O, swaps,
more melds), which the model solves exactly. Every opening turn has this form with O *minimal*
(no meld of O can be left out while keeping the 30: such a meld can as well be laid down later),
so trying every minimal O that leaves a swap-capable card in the hand, next to the model's own
answer without swaps, finds the best turn.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from itertools import combinations

from rummyai.cards import JOKER, Meaning, Slot, make_card, suit_of
from rummyai.errors import IllegalMoveError, MeldError
from rummyai.melds import MeldInfo, analyze_meld, opening_value
from rummyai.runs import run_windows, unrolled_rank
from rummyai.solvers.position import Position, Solution, count_broken, objective_value, score_key

#: solves an opened position: (position, max_cards, committed, taken) -> Solution
OpenedSolve = Callable[[Position, int | None, Sequence[int], int | None], Solution]


def swap_cards(position: Position) -> set[int]:
    """Card kinds that could take a table joker's place (a run joker's exact card, a suit missing
    from a group with a joker)."""
    fits: set[int] = set()
    for info in position.table:
        present = {suit_of(s.card) for s, wild in zip(info.slots, info.as_wild, strict=True) if not wild}
        for slot, wild in zip(info.slots, info.as_wild, strict=True):
            if not wild or slot.meaning is None:
                continue
            if info.kind == "run":
                card = slot.meaning.card()
                if card is not None:
                    fits.add(card)
            else:
                fits.update(make_card(slot.meaning.rank, x) for x in range(4) if x not in present)
    return fits


def opening_swaps_possible(position: Position) -> bool:
    """Whether this is an opening turn on which a swap after the 30 could be made (the hand holds
    a card that fits a table joker, and the variant swaps jokers)."""
    if (
        position.opened
        or not position.variant.joker_rules.exact_swaps
        or position.variant.opening != "points"
    ):
        return False
    hand = Counter(position.hand)
    return any(hand[c] for c in swap_cards(position))


def hand_melds(position: Position) -> list[tuple[MeldInfo, int]]:
    """Every valid meld made of hand cards alone (hand jokers included), with its opening value."""
    variant = position.variant
    hand = position.hand_counts()
    jokers = hand[JOKER]
    seen: set[tuple[Slot, ...]] = set()
    out: list[tuple[MeldInfo, int]] = []
    for slots in _run_shapes(position, jokers):
        if slots not in seen:
            seen.add(slots)
            _keep_valid(position, slots, out)
    for rank in range(1, 14):
        suits = [
            s
            for s in range(4)
            for _ in range(min(hand[make_card(rank, s)], 1 if variant.group_distinct_suits else 4))
        ]
        top = variant.group_max or len(suits) + jokers
        for size in range(1, min(len(suits), top) + 1):
            for chosen in sorted(set(combinations(suits, size))):
                naturals = tuple(Slot(make_card(rank, s)) for s in chosen)
                for wild in range(min(jokers, top - size) + 1):
                    slots = naturals + (Slot(JOKER, Meaning(rank)),) * wild
                    if len(slots) >= variant.min_meld and slots not in seen:
                        seen.add(slots)
                        _keep_valid(position, slots, out)
    return out


def _run_shapes(position: Position, jokers: int) -> Iterator[tuple[Slot, ...]]:
    """Runs over every window whose naturals the hand holds, jokers at the missing ranks and, when
    the hand has jokers to spare, at present ranks too (the natural then stays in the hand)."""
    hand = position.hand_counts()
    for window in run_windows(position.variant, 13):
        missing = [i for i, c in enumerate(window.cards) if not hand[c]]
        if len(missing) > jokers:
            continue
        present = [i for i in range(len(window.cards)) if hand[window.cards[i]]]
        for extra in range(jokers - len(missing) + 1):
            for more in combinations(present, extra):
                wild = set(missing) | set(more)
                yield tuple(
                    Slot(JOKER, Meaning(unrolled_rank(p), window.suit)) if i in wild else Slot(card)
                    for i, (p, card) in enumerate(zip(window.positions, window.cards, strict=True))
                )


def _keep_valid(position: Position, slots: tuple[Slot, ...], out: list[tuple[MeldInfo, int]]) -> None:
    try:
        info = analyze_meld(position.variant, slots)
    except MeldError:
        return
    out.append((info, opening_value(position.variant, info)))


def minimal_openings(position: Position, keep: set[int]) -> Iterator[list[MeldInfo]]:
    """Sets of hand melds worth the opening points that no meld can be dropped from, leaving at
    least one card of `keep` (the swap cards) in the hand; one meld under `opening_single_meld`."""
    variant = position.variant
    need = variant.opening_points
    melds = hand_melds(position)
    hand = Counter(position.hand)
    if variant.opening_single_meld:
        melds = [(info, value) for info, value in melds if value >= need]

    def leaves_swap(used: Counter[int]) -> bool:
        return any(hand[c] - used[c] > 0 for c in keep)

    def grow(
        start: int, chosen: list[tuple[MeldInfo, int]], used: Counter[int], total: int
    ) -> Iterator[list[MeldInfo]]:
        for k in range(start, len(melds)):
            info, value = melds[k]
            more = used + Counter(info.cards)
            if any(more[c] > hand[c] for c in more) or not leaves_swap(more):
                continue
            if total + value >= need:
                picked = [*chosen, (info, value)]
                if all(total + value - v < need for _, v in picked):
                    yield [i for i, _ in picked]
            elif not variant.opening_single_meld:
                yield from grow(k, [*chosen, (info, value)], more, total + value)

    yield from grow(0, [], Counter(), 0)


def with_opening_swaps(
    position: Position,
    base: Solution,
    objective: str,
    cap: int | None,
    solve_opened: OpenedSolve,
    committed: Sequence[int] = (),
    deadline: float | None = None,
    taken: int | None = None,
) -> Solution:
    """The better of `base` (the model's best opening turn without swaps) and every turn that
    opens with a minimal set of hand melds and then swaps; ``optimal`` when every part was.
    Past `deadline` (a `time.perf_counter` instant) no further opening is tried: ``feasible``.

    `taken`, the card taken from the discard pile, may not be the discard (§4.2). Copies are
    alike (§7.1): with a second copy in hand, or a copy in the opening, the duty is met whatever
    the rest of the turn does; otherwise the rest keeps it, and a turn that leaves only the
    taken card in hand (nothing to discard) is no turn."""
    start = time.perf_counter()
    best = base
    best_score = score_key(position, objective, base.played)
    proven = base.status == "optimal"
    hand = Counter(position.hand)
    # the taken card whose duty the rest of the turn may still have to keep, or None
    duty = taken if taken is not None and hand[taken] == 1 and len(position.hand) >= 2 else None
    for opening in minimal_openings(position, swap_cards(position)):
        if deadline is not None and time.perf_counter() >= deadline:
            proven = False
            break
        laid = Counter(c for info in opening for c in info.cards)
        count = sum(laid.values())
        if cap is not None and count > cap:
            continue
        rest = tuple(sorted((hand - laid).elements()))
        after = Position(position.variant, rest, position.table + tuple(opening), True)
        must = list((Counter(committed) - laid).elements())
        left = None if cap is None else cap - count
        keeps = duty if duty is not None and not laid[duty] else None
        try:
            answer = solve_opened(after, left, must, keeps)
        except IllegalMoveError:
            continue  # the committed card fits nowhere after this opening
        proven = proven and answer.status == "optimal"
        played = sorted([*laid.elements(), *answer.played])
        if keeps is not None and not any(k != keeps for k in (hand - Counter(played)).elements()):
            continue  # only the taken card is left: it may not be discarded
        score = score_key(position, objective, played)
        if score > best_score:
            best_score = score
            best = replace(
                answer,
                played=tuple(played),
                value=objective_value(position, objective, played),
                cards_played=len(played),
                points_played=sum(position.variant.hand_values[c] for c in played),
                melds_broken=count_broken(position, answer.melds),
            )
    ms = base.ms + (time.perf_counter() - start) * 1000
    return replace(best, status="optimal" if proven else "feasible", ms=ms)
