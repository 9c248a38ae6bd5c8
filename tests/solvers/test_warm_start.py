"""The warm start: its layout is a feasible assignment of the fast path's universe model, never
claims more than the optimum, and when it plays every playable card it is the optimum."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummyai.cards import JOKER, parse_cards, parse_table
from rummyai.errors import RummyError
from rummyai.solvers import fast, make_position, solve
from rummyai.solvers.check import check_solution
from rummyai.solvers.position import Position, Solution
from rummyai.solvers.random_positions import random_position
from rummyai.solvers.tile_model import decode
from rummyai.solvers.warm_start import PLANS, Layout, Values, hint_values, is_optimal_alone, warm_start


def _assignment(position: Position, layout: Layout) -> list[int]:
    """The layout as values of the universe's variables, the universe prepared for `position`."""
    universe = fast._universe(position.variant)
    universe.prepare(universe.tm.model, position)
    size = len(universe.tm.model.proto.variables)
    return hint_values(layout, dict(universe.templates), universe.allowance, universe.played, size)


def _violations(position: Position, values: list[int]) -> list[str]:
    """Every variable bound and linear constraint of the prepared universe the values break."""
    proto = fast._universe(position.variant).tm.model.proto
    out = []
    for i, var in enumerate(proto.variables):
        domain = list(var.domain)
        if not any(domain[k] <= values[i] <= domain[k + 1] for k in range(0, len(domain), 2)):
            out.append(f"variable {i} = {values[i]} outside {domain}")
    for j, constraint in enumerate(proto.constraints):
        assert constraint.has_linear(), "the universe holds linear constraints only"
        linear = constraint.linear
        total = sum(values[v] * c for v, c in zip(linear.vars, linear.coeffs, strict=True))
        domain = list(linear.domain)
        if not any(domain[k] <= total <= domain[k + 1] for k in range(0, len(domain), 2)):
            out.append(f"constraint {j} sums to {total}, outside {domain}")
    return out


def _decoded(position: Position, values: list[int]) -> Solution:
    """The layout read back as a `Solution`, the way the fast path reads a solver."""
    universe = fast._universe(position.variant)
    played, melds, _ = decode(fast._View(universe, position, {}), Values(values))
    return fast._solution(position, "cards", played, melds, "optimal", 0.0)


def _case(variant: str, seed: int) -> Position:
    rng = random.Random(seed)
    hand, table = random_position(
        variant,
        seed,
        rng.choice([0, 6, 15, 30, 45, 60]),
        rng.randint(1, 20),
        joker_rate=rng.choice([0.12, 0.3, 0.6]),
        related=rng.choice([0.0, 0.5, 0.9]),
    )
    return make_position(variant, hand, table)


@pytest.mark.parametrize("variant", ["rummikub", "rummy-board"])
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**9), plans=st.integers(1, len(PLANS)))
def test_layout_is_feasible_and_never_beats_the_optimum(variant: str, seed: int, plans: int) -> None:
    position = _case(variant, seed)
    layout = warm_start(position, plans)
    values = _assignment(position, layout)
    assert _violations(position, values) == []
    decoded = _decoded(position, values)
    check_solution(position, decoded)
    assert decoded.played == layout.played
    best = solve(variant, position.hand, [i.slots for i in position.table], minimize_changes=False)
    assert len(layout.played) <= best.cards_played
    if is_optimal_alone(position, layout):
        assert (decoded.cards_played, decoded.points_played) == (best.cards_played, best.points_played)


def _layout(hand: str, table: str, variant: str = "rummikub") -> tuple[Position, Layout]:
    position = make_position(variant, parse_cards(hand), parse_table(table))
    layout = warm_start(position)
    assert _violations(position, _assignment(position, layout)) == []
    return position, layout


def test_run_end_group_and_split() -> None:
    _, layout = _layout("6H 7S 5C", "3H 4H 5H | 7H 7D 7C | 2C 3C 4C 5C 6C 7C")
    assert layout.played == tuple(sorted(parse_cards("6H 7S 5C")))


def test_a_hand_card_takes_a_jokers_place_and_the_joker_moves() -> None:
    position, layout = _layout("5H 9S", "4H JK=5H 6H | 9D 9C 9H")
    assert layout.played == tuple(sorted(parse_cards("5H 9S")))
    assert sum(layout.allowance) == 1  # the table's joker is still on the table
    assert is_optimal_alone(position, layout)


def test_new_melds_from_the_hand_with_jokers_and_spare_table_cards() -> None:
    # 8S 9S from the hand, TS off the end of a four-card run; a group with a hand joker
    _, layout = _layout("8S 9S 3D 3C JK", "TS JS QS KS")
    assert len(layout.played) == 5
    assert JOKER in layout.played


def test_a_card_that_fits_nowhere_stays_in_hand() -> None:
    position, layout = _layout("KD 2S", "5H 6H 7H")
    assert layout.played == ()
    assert is_optimal_alone(position, layout)  # nothing is playable at all


def test_the_turn_cap_of_rummy_board_holds() -> None:
    hand = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AH"
    _, layout = _layout(hand, "", "rummy-board")
    assert len(layout.played) == 12


def test_the_whole_playable_hand_is_proven_optimal_alone() -> None:
    position, layout = _layout("4H 8C 8D 8S", "5H 6H 7H")
    assert is_optimal_alone(position, layout)
    best = solve("rummikub", position.hand, [i.slots for i in position.table], minimize_changes=False)
    assert len(layout.played) == best.cards_played == 4


def test_bad_input_is_refused() -> None:
    closed = make_position("rummikub", parse_cards("5H 6H 7H"), (), opened=False)
    with pytest.raises(RummyError, match="opened"):
        warm_start(closed)
    with pytest.raises(RummyError, match="rhine"):
        warm_start(make_position("rhine", parse_cards("5H 6H 7H"), ()))
    with pytest.raises(RummyError, match="plans"):
        warm_start(make_position("rummikub", parse_cards("5H"), ()), plans=0)
    with pytest.raises(RummyError, match="not a template"):
        hint_values(Layout(((0, 1),), (0,) * 53, ()), {}, {}, {}, 3)
