"""The typed error hierarchy: every rummyai error is a RummyError and a ValueError."""

from __future__ import annotations

import pytest

from rummyai.errors import (
    CardError,
    DeckError,
    IllegalMoveError,
    MeldError,
    RummyError,
    VariantError,
)


@pytest.mark.parametrize("error", [CardError, DeckError, VariantError, MeldError])
def test_every_error_is_a_rummy_error_and_a_value_error(error: type[RummyError]) -> None:
    with pytest.raises(RummyError):
        raise error("boom")
    assert issubclass(error, ValueError)


def test_the_subclasses_are_distinct_so_callers_can_catch_exactly_one() -> None:
    with pytest.raises(MeldError):
        raise MeldError("x")
    assert not issubclass(MeldError, CardError)
    assert not issubclass(CardError, DeckError)
    assert not issubclass(DeckError, VariantError)


def test_illegal_move_error_carries_rule_and_reason() -> None:
    error = IllegalMoveError("1.5 R5", "a joker may not simply join an existing meld")
    assert error.rule == "1.5 R5"
    assert error.reason == "a joker may not simply join an existing meld"
    assert str(error) == "illegal move (1.5 R5): a joker may not simply join an existing meld"
    assert isinstance(error, RummyError)
