"""Checks of a turn's duties against the variant and the hand, shared by the solver, the hint
reader and the service's lane check (so that the service refuses bad input before a worker).

`committed` and `taken` describe a draw-and-discard turn after taking from the discards, `score`
picks Black Heart's opening chart line; the `opening` objective needs an opening requirement it
can solve and no duties.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rummyai.cards import card_str, is_kind, read_cards
from rummyai.errors import CardError, IllegalMoveError, RummyError
from rummyai.variants import BUILTINS, Variant

#: The opening requirements the `opening` objective solves: points, or one meld of naturals (an
#: opening chart, or no opening at all, is not a requirement new melds from the hand meet or miss).
OPENING_RULES = ("points", "natural_meld")


def read_taken(taken: object) -> int | None:
    """The card a `taken` duty names (a token, a kind, or a list holding one); None when not given.
    Read before the variant's deck is consulted, so that a duty the variant lacks is named as such."""
    if taken is None:
        return None
    if isinstance(taken, str) or is_kind(taken):
        named = read_cards([taken], "taken")  # type: ignore[list-item]
    elif isinstance(taken, list | tuple):
        named = read_cards(taken, "taken")
    else:
        raise CardError(f"'taken' must be one card (a token such as '7H' or a kind), got {taken!r}")
    if len(named) != 1:
        raise RummyError(f"'taken' must be one card, got {taken!r}")
    return named[0]


def check_duties(
    variant: Variant,
    hand: Sequence[int],
    committed: Sequence[int],
    taken: int | None,
    score: int,
    max_cards: int | None = None,
) -> None:
    """Refuse duties the variant has no rule for (they would be ignored), naming the variants they
    apply to, committed or taken cards the hand does not hold, and more committed cards than
    `max_cards` lets the turn play."""
    if score and variant.opening != "chart":
        which = ", ".join(v.id for v in BUILTINS.values() if v.opening == "chart")
        raise RummyError(
            f"'score' (the cumulative score that picks the opening chart line) applies to {which}, not {variant.id}"
        )
    if committed and not variant.take_must_play:
        which = ", ".join(v.id for v in BUILTINS.values() if v.take_must_play)
        raise RummyError(
            f"'committed' (cards that must be played after taking from the discards) applies to {which}, "
            f"not {variant.id}"
        )
    if taken is not None and not variant.no_rediscard_of_taken:
        which = ", ".join(v.id for v in BUILTINS.values() if v.no_rediscard_of_taken)
        raise RummyError(
            f"'taken' (the card taken from the discards, which may not be the discard) applies to {which}, "
            f"not {variant.id}"
        )
    held = Counter(hand)
    for card, count in Counter(committed).items():
        if not held[card]:
            raise RummyError(f"committed card {card_str(card)} is not in the hand")
        if count > held[card]:
            raise RummyError(
                f"committed names {count} copies of {card_str(card)} but the hand holds {held[card]}"
            )
    if taken is not None and not held[taken]:
        raise RummyError(f"taken card {card_str(taken)} is not in the hand")
    if max_cards is not None and len(committed) > max_cards:
        raise IllegalMoveError(
            "5.2", f"the committed cards cannot be placed on the table this turn: max_cards is {max_cards}"
        )


def check_opening_objective(variant: Variant, duties: bool) -> None:
    """Refuse the `opening` objective where the variant's opening is not one it solves, or with
    duties (`duties`: committed or taken cards, or a cap on the cards played)."""
    if variant.opening not in OPENING_RULES:
        raise RummyError(
            f"objective 'opening' needs an opening requirement by points or by one meld of naturals; "
            f"{variant.id}'s opening is {variant.opening!r}"
        )
    if duties:
        raise RummyError(
            "objective 'opening' takes no committed or taken card and no max_cards below the hand's "
            "size: it plays new melds only"
        )
