"""Typed errors: every bad input raises a subclass of `RummyError` whose message names the problem."""

from __future__ import annotations


class RummyError(ValueError):
    """Base of every error rummyai raises on bad input or an illegal move."""


class CardError(RummyError):
    """A card token that cannot be parsed (unknown rank, suit or malformed meaning)."""


class DeckError(RummyError):
    """More copies of a card than the variant's deck holds, or a card the deck does not have."""


class VariantError(RummyError):
    """An unknown variant id, or an unknown or badly typed option."""


class MeldError(RummyError):
    """A list of cards that is not a valid meld under the variant's rules."""


class IllegalMoveError(RummyError):
    """A move that breaks a rule; `rule` cites the section of the rules (docs/rules) it breaks."""

    def __init__(self, rule: str, reason: str) -> None:
        super().__init__(f"illegal move ({rule}): {reason}")
        self.rule = rule
        self.reason = reason


def check_flag(name: str, value: object) -> None:
    """A yes/no argument must be a bool: a string such as "no" would otherwise read as true."""
    numpy_bool = type(value).__module__ == "numpy" and type(value).__name__ in ("bool", "bool_")
    if not isinstance(value, bool) and not numpy_bool:
        raise RummyError(f"{name} must be True or False, got {value!r}")
