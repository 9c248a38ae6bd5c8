"""Round scoring of the tile-style variants (§1.6, §2.6, §3.6, §8.3), driven by `Variant.scoring`."""

from __future__ import annotations

from collections.abc import Sequence

from rummyai.engine.state import RoundEnd, RoundResult
from rummyai.variants import Variant


def hand_total(variant: Variant, hand: Sequence[int]) -> int:
    """Value of the cards left in a hand under the variant's hand-value table."""
    deck = variant.deck
    return sum(variant.hand_value(deck[i]) for i in hand)


def score_out(
    variant: Variant, hands: Sequence[Sequence[int]], winner: int, down_and_out: bool
) -> RoundResult:
    """A player emptied their hand: penalties for the others, the winner's share or bonus."""
    totals = [hand_total(variant, h) for h in hands]
    scores = list(totals) if variant.scoring == "penalty_low" else [-t for t in totals]
    if variant.scoring == "penalty_low":
        scores[winner] = variant.down_and_out_bonus if down_and_out else 0
    elif variant.scoring == "winner_takes_sum":
        scores[winner] = sum(totals) - totals[winner]
    else:
        scores[winner] = 0
    detail = "down and out" if down_and_out and variant.down_and_out_bonus else ""
    return RoundResult(winner, tuple(scores), "out", detail)


def lowest_hand(variant: Variant, hands: Sequence[Sequence[int]], order: Sequence[int]) -> int:
    """Seat with the lowest hand total; ties go to fewer cards, then to the earlier seat in `order`."""
    return min(order, key=lambda s: (hand_total(variant, hands[s]), len(hands[s]), order.index(s)))


def score_blocked(
    variant: Variant, hands: Sequence[Sequence[int]], order: Sequence[int], reason: RoundEnd
) -> RoundResult:
    """Nobody went out (stock exhausted, stalemate, no-play cycle, truncation).

    `penalty_low`: everyone scores their hand. `winner_takes_sum`: the lowest hand wins and the
    others pay the difference to it (§2.6 step 3, §8.3). `rank_by_hand`: everyone scores minus
    their hand and the unique lowest hand, if any, is the winner (§3.6).
    """
    totals = [hand_total(variant, h) for h in hands]
    if variant.scoring == "penalty_low":
        return RoundResult(None, tuple(totals), reason)
    if variant.scoring == "winner_takes_sum":
        best = lowest_hand(variant, hands, order)
        scores = [-(t - totals[best]) for t in totals]
        scores[best] = -sum(s for k, s in enumerate(scores) if k != best)
        return RoundResult(best, tuple(scores), reason)
    low = min(totals)
    winners = [s for s, t in enumerate(totals) if t == low]
    return RoundResult(winners[0] if len(winners) == 1 else None, tuple(-t for t in totals), reason)
