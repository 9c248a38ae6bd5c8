"""Duplicate-set construction: lineups, seatings and seeds."""

from __future__ import annotations

from collections import Counter

import pytest

from rummyai.arena.duplicate import lineup, match_seed, plan, seatings, set_tasks
from rummyai.errors import RummyError


def test_lineup_uses_the_list_when_it_fills_the_table() -> None:
    assert lineup(("h", "g", "g", "g"), 4, 0) == ("h", "g", "g", "g")
    assert lineup(("a", "b"), 2, 7) == ("a", "b")


def test_lineup_cycles_through_combinations_when_there_are_more_agents_than_seats() -> None:
    agents = ("a", "b", "c", "d")
    tables = [lineup(agents, 2, s) for s in range(12)]
    assert tables[:6] == [("a", "b"), ("a", "c"), ("a", "d"), ("b", "c"), ("b", "d"), ("c", "d")]
    assert tables[6:] == tables[:6]
    # every pair meets equally often
    assert len(Counter(tables)) == 6


def test_lineup_rotates_the_extra_seats_when_there_are_fewer_agents_than_seats() -> None:
    agents = ("a", "b", "c")
    tables = [lineup(agents, 4, s) for s in range(3)]
    assert tables == [("a", "b", "c", "a"), ("b", "c", "a", "b"), ("c", "a", "b", "c")]
    seats = Counter(name for table in tables for name in table)
    assert seats == {"a": 4, "b": 4, "c": 4}


def test_permutation_seatings_are_distinct_and_put_every_agent_in_every_seat_equally() -> None:
    table = ("a", "b", "c")
    seats = seatings(table)
    assert seats[0] == table
    assert len(seats) == len(set(seats)) == 6
    for position in range(3):
        assert Counter(s[position] for s in seats) == {"a": 2, "b": 2, "c": 2}


def test_repeated_agents_give_only_distinct_seatings() -> None:
    seats = seatings(("h", "g", "g", "g"))
    assert len(seats) == 4
    assert sorted(s.index("h") for s in seats) == [0, 1, 2, 3]
    assert len(seatings(("a", "b", "a", "b"))) == 6


def test_rotation_seatings() -> None:
    seats = seatings(("a", "b", "c", "d"), "rotations")
    assert seats == [("a", "b", "c", "d"), ("b", "c", "d", "a"), ("c", "d", "a", "b"), ("d", "a", "b", "c")]
    with pytest.raises(RummyError, match="seating mode"):
        seatings(("a", "b"), "shuffle")  # type: ignore[arg-type]


def test_every_seating_of_a_set_replays_the_same_deal() -> None:
    tasks = set_tasks(3, agents=("a", "b", "c"), players=3, seed=11, variant="rummikub")
    assert len(tasks) == 6
    assert {t.match_seed for t in tasks} == {match_seed(11, 3)}
    assert [t.seating_index for t in tasks] == list(range(6))
    assert all(t.set_index == 3 for t in tasks)
    # agents get their own seeds per seat and seating
    assert len({s for t in tasks for s in t.agent_seeds}) == 18


def test_plan_is_deterministic_and_sets_have_different_deals() -> None:
    kwargs = {"agents": ("a", "b"), "players": 2, "seed": 5, "variant": "rummikub"}
    first, again = plan(20, **kwargs), plan(20, **kwargs)
    assert first == again
    assert len(first) == 40
    assert len({t.match_seed for t in first}) == 20
    other = plan(20, **{**kwargs, "seed": 6})
    assert {t.match_seed for t in other}.isdisjoint({t.match_seed for t in first})
    # extending a tournament keeps the earlier sets unchanged
    assert plan(25, **kwargs)[:40] == first
