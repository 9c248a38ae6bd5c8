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


@pytest.mark.parametrize("call", ["solve", "hint", "validate"])
@pytest.mark.parametrize("opened", ["no", 0, None])
def test_opened_must_be_a_bool_not_a_value_that_reads_as_true_or_false(call: str, opened: object) -> None:
    import rummyai

    args = ("rummikub", "7H 8H 9H", "3C 4C 5C")
    if call == "validate":
        args = (*args, "3C 4C 5C | 7H 8H 9H")
    with pytest.raises(RummyError, match="opened must be True or False"):
        getattr(rummyai, call)(*args, opened=opened)
