"""`PublicHistory` (the last turns per seat newest first, seats relative to the observer, and
observation arrays the caller owns) and the opponents' `LazyView`."""

from __future__ import annotations

import numpy as np

from rummyai.envs.history import HISTORY_TURNS, PublicHistory


def test_recent_turns_keep_the_newest_and_drop_the_oldest() -> None:
    history = PublicHistory(3)
    for turn in range(HISTORY_TURNS + 3):
        history.record_turn(1, drew=1, took=[], laid=[5] * turn)
    turns = history.arrays(0)["history_turns"]
    assert turns.shape == (3, HISTORY_TURNS, 3)
    laid = [int(x) for x in turns[1, :, 2]]
    assert laid == list(range(HISTORY_TURNS + 2, 2, -1))  # newest first, the 3 oldest gone
    assert not turns[0].any() and not turns[2].any()


def test_arrays_are_relative_to_the_observer_and_owned_by_the_caller() -> None:
    history = PublicHistory(3)
    history.record_turn(2, drew=0, took=[7], laid=[7, 8])
    seen_by_2 = history.arrays(2)
    assert seen_by_2["history_taken"][0, 7] == 1 and seen_by_2["history_laid"][0, 8] == 1
    assert list(seen_by_2["history_turns"][0, 0]) == [0, 1, 2]
    seen_by_1 = history.arrays(1)
    assert seen_by_1["history_taken"][1, 7] == 1  # seat 2 is the next seat after seat 1
    seen_by_2["history_taken"][:] = 0
    seen_by_2["history_turns"][:] = 0
    again = history.arrays(2)
    assert again["history_taken"][0, 7] == 1 and again["history_turns"][0, 0, 2] == 2
    history.clear()
    assert not np.any(history.arrays(0)["history_turns"])


def test_lazy_view_reads_as_the_engine_view() -> None:
    from rummyai.engine.game import new_match, view
    from rummyai.envs.core import LazyView

    state = new_match("rummikub", 2, seed=3)
    lazy = LazyView(state, 1)
    assert dict(lazy) == view(state, 1)
    assert lazy["seat"] == 1 and lazy.get("nothing") is None and len(lazy) == len(view(state, 1))


def test_a_draw_from_an_empty_stock_is_recorded_as_a_pass() -> None:
    from rummyai.engine.game import apply
    from rummyai.engine.moves import Draw
    from rummyai.engine.tile_position import position

    history = PublicHistory(2)
    with_stock = position("rummikub", ["KS QS", "2C 3C"], "5S 6S 7S", stock="9H")
    after = apply(with_stock, Draw())
    history.record_move(with_stock, Draw(), after)
    passing = apply(after, Draw())  # seat 1 on an empty stock: a pass
    history.record_move(after, Draw(), passing)
    turns = history.arrays(0)["history_turns"]
    assert list(turns[0, 0]) == [1, 0, 0] and list(turns[1, 0]) == [0, 0, 0]
