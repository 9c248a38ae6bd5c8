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


@pytest.mark.parametrize(
    ("hand", "table", "new_table", "message"),
    [
        ("8C", None, "8C 8C 8C", "the table must be a string of melds"),
        ("8C", "", None, "the new table must be a string of melds"),
        (5, "", "8C", "must be a string of cards"),
        (["8C", 7.5], "", "8C", "unknown card 7.5"),
        ("8C", [["7C", None]], "8C", "table meld 1 mixes card tokens with None"),
        ("8C", [[7, None]], "8C", "unknown card None in table meld 1"),
    ],
)
def test_validate_names_input_that_is_not_cards(
    hand: object, table: object, new_table: str, message: str
) -> None:
    import rummyai

    with pytest.raises(CardError, match=message):
        rummyai.validate("rhine", hand, table, new_table)  # type: ignore[arg-type]


@pytest.mark.parametrize("ids", [(0, 1, 500), (-1, -2, -3)])
def test_a_tile_play_with_ids_outside_the_deck_is_a_malformed_move(ids: tuple[int, int, int]) -> None:
    from rummyai.engine import Play, apply, new_match, validate
    from rummyai.engine.state import TableMeld

    state = new_match("rhine", 2, 1)
    play = Play((TableMeld(ids, (None,) * 3),))
    violation = validate(state, play)
    assert violation is not None and violation.rule == "move"
    assert f"card id {next(i for i in ids if not 0 <= i < 108)} is not in the deck" in violation.reason
    with pytest.raises(IllegalMoveError, match="not in the deck"):
        apply(state, play)


def test_errors_name_the_field_that_holds_the_bad_value() -> None:
    import rummyai

    with pytest.raises(CardError, match="committed must be a string of cards"):
        rummyai.hint("standard", "7H 8H 9H", committed=5)  # type: ignore[arg-type]
    for call in (rummyai.hint, rummyai.solve):
        with pytest.raises(CardError, match="'taken' must be one card"):
            call("rummy-palace", "7H 8H 9H", taken=5.0)  # type: ignore[arg-type]
    for call in (rummyai.hint, rummyai.solve):
        with pytest.raises(CardError, match="the hand must be a string of cards"):
            call("rummikub", b"7H 8H 9H")  # type: ignore[arg-type]
    with pytest.raises(RummyError, match="minimize_changes must be True or False"):
        rummyai.solve("rummikub", "7H 8H 9H", minimize_changes="no")  # type: ignore[arg-type]
