"""The compiled dynamic program (`solve_dp`) against CP-SAT: same cards and points on seeded random
rummikub and rummy-board positions (empty tables, big tables, full hands, jokers on the table
and in hand), every answer checked valid; the positions it declines; crafted corner cases."""

from __future__ import annotations

import itertools
import random

import pytest

from rummyai.cards import JOKER
from rummyai.errors import RummyError
from rummyai.solvers import make_position
from rummyai.solvers.check import check_solution
from rummyai.solvers.fast import solve_fast
from rummyai.solvers.position import Position
from rummyai.solvers.random_positions import random_position
from rummyai.solvers.run_dp import build_tables, dp_supported, solve_dp
from rummyai.variants import get_variant


def _same_as_cpsat(position: Position, objective: str) -> None:
    """The DP answers, its play is valid, and CP-SAT finds the same cards and points."""
    sol = solve_dp(position, objective)
    assert sol is not None
    check_solution(position, sol)
    assert sol.status == "optimal"
    ref = solve_fast(
        position, objective, None, minimize_changes=False
    )  # the CP-SAT model, no dynamic program
    assert (sol.cards_played, sol.points_played) == (ref.cards_played, ref.points_played)
    assert sol.value == ref.value


def _positions(variant: str, count: int, seed: int) -> list[Position]:
    """Seeded positions of every size: table 0-70 tiles, hand 1-30, jokers often on the table."""
    out = []
    for i in range(count):
        rng = random.Random(seed * 7919 + i)
        table = 0 if rng.random() < 0.15 else rng.randint(3, 70)
        hand = rng.randint(1, 30)
        joker_rate = rng.choice([0.0, 0.12, 0.4])
        related = rng.choice([0.0, 0.5, 0.9])
        kinds, melds = random_position(variant, seed * 7919 + i, table, hand, joker_rate, related)
        out.append(make_position(variant, kinds, melds))
    return out


@pytest.mark.parametrize("chunk", range(4))
def test_cards_objective_matches_cpsat(chunk: int) -> None:
    for position in _positions("rummikub", 80, chunk):
        _same_as_cpsat(position, "cards")


@pytest.mark.parametrize("objective", ["points", "penalty"])
def test_points_objectives_match_cpsat(objective: str) -> None:
    for position in _positions("rummikub", 60, 10 if objective == "points" else 11):
        _same_as_cpsat(position, objective)


def test_rummy_board_matches_cpsat() -> None:
    """Hands of at most 12 cards (rummy-board's cap per turn); larger hands are declined."""
    for position in _positions("rummy-board", 60, 20):
        if len(position.hand) > 12:
            assert solve_dp(position) is None
        else:
            _same_as_cpsat(position, "cards")


def test_the_random_positions_cover_jokers_empty_tables_and_big_hands() -> None:
    """The sample above really holds the cases it is meant to test."""
    sample = [p for seed in range(4) for p in _positions("rummikub", 80, seed)]
    assert sum(not p.table for p in sample) >= 10
    assert sum(p.table_counts()[JOKER] > 0 for p in sample) >= 30
    assert sum(p.hand_counts()[JOKER] > 0 for p in sample) >= 10
    assert sum(len(p.hand) >= 25 for p in sample) >= 20


@pytest.mark.parametrize(
    ("hand", "table", "cards"),
    [
        # ten tiles of one number: three groups, both jokers in groups
        ("", "5S 5H 5D 5C | 5S 5H JK | 5D 5C JK", 0),
        ("6S 7S", "5S 5H 5D 5C | 5S 5H JK | 5D 5C JK", 2),
        # a hand joker with nothing else joins a table meld
        ("JK", "3H 4H 5H", 1),
        # two jokers make a run with one hand card
        ("JK JK 9C", "", 3),
        ("JK JK", "", 0),
        # a joker stands in twice over: run 11-13 needs the joker at the low end
        ("QD KD JK", "", 3),
        # the whole hand goes down: a long run and a group
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS 7H 7D", "", 15),
        # a table joker must stay: moved into the new run
        ("4C 5C", "9H 9D 9S JK", 2),
    ],
)
def test_crafted_positions(hand: str, table: str, cards: int) -> None:
    position = make_position("rummikub", hand, table)
    _same_as_cpsat(position, "cards")
    sol = solve_dp(position, "cards")
    assert sol is not None and sol.cards_played == cards


def test_nothing_played_keeps_the_table_as_written() -> None:
    position = make_position("rummikub", "2C 9H", "3S 4S 5S | 8D 8H JK")
    sol = solve_dp(position)
    assert sol is not None
    assert sol.played == () and sol.melds == tuple(info.slots for info in position.table)


def test_left_over_joker_with_no_room_takes_the_strict_pass() -> None:
    """Every meld is full (a 1-13 run), so the joker left over by the first pass has nowhere to
    go; the second pass places every joker itself and splits the run to make room."""
    position = make_position("rummikub", "JK", "AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS")
    _same_as_cpsat(position, "cards")
    sol = solve_dp(position)
    assert sol is not None and sol.played == (JOKER,) and len(sol.melds) == 2


def test_positions_outside_the_fast_path_are_declined() -> None:
    kinds, melds = random_position("rummikub", 3, 20, 10)
    assert solve_dp(make_position("rummikub", kinds, melds, opened=False)) is None
    assert solve_dp(make_position("rummikub", "JK", "3H 4H 5H"), "cards") is not None
    official = get_variant("rummikub").with_options(["official_jokers"])
    assert solve_dp(make_position(official, "3H 4H 5H", "")) is None
    assert solve_dp(make_position("rhine", "3H 4H 5H", "")) is None
    assert not dp_supported(get_variant("rhine"))


def test_state_cap_declines() -> None:
    kinds, melds = random_position("rummikub", 5, 50, 20)
    position = make_position("rummikub", kinds, melds)
    assert solve_dp(position, cap=50) is None
    assert solve_dp(position) is not None


def test_unknown_objective_raises() -> None:
    with pytest.raises(RummyError, match="unknown objective 'tiles'"):
        solve_dp(make_position("rummikub", "3H 4H 5H", ""), "tiles")


def test_tables_encode_slot_pairs_and_group_summaries() -> None:
    tables = build_tables(get_variant("rummikub"))
    assert len(tables.pair_p) == 10  # unordered pairs of slot lengths 0..3
    index = {s: i for i, s in enumerate(tables.summaries)}
    assert tables.summary_next[index[(0, 0)], 2] == index[(0, 1)]
    assert tables.summary_next[index[(2, 2)], 1] == -1  # four colours already sent naturals
    # one natural needs two jokers; eight (two of each colour) close with 0, 1 or 2 jokers
    assert tables.group_jokers[index[(1, 0)]] == 0b100
    assert tables.group_jokers[index[(0, 4)]] == 0b111
    # two naturals of one colour and one of another: two groups need four jokers, too many
    assert tables.group_jokers[index[(1, 1)]] == 0
    (members, jokers), *_ = tables.templates[(index[(3, 0)], 1)]
    assert len(members) + jokers == 4


def test_slot_moves_follow_the_cell() -> None:
    """The per-cell run-slot moves: a slot in progress goes on, a joker opens a slot only where a
    natural may follow, no move uses more naturals than the cell has, and near the colour's end
    no slot opens that cannot reach three cards."""
    tables = build_tables(get_variant("rummikub"))
    pairs = list(zip(tables.pair_p.tolist(), tables.pair_q.tolist(), strict=True))
    for row in range(len(tables.move_counts)):
        rest, pair = divmod(row, len(pairs))
        rest, at_hand = divmod(rest, 3)
        left, joker_open = divmod(rest, 2)
        p, q = pairs[pair]
        moves = tables.moves[row, : tables.move_counts[row]].tolist()
        if p in (0, 3) and q in (0, 3):  # nothing in progress: leaving the cell empty is a move
            assert moves[0][0] == 0, (left, joker_open, at_hand, p, q)
        for code, new_pair, naturals, jokers, _ in moves:
            da, db = divmod(code, 3)
            assert naturals == (da == 1) + (db == 1) <= at_hand
            assert jokers == (da == 2) + (db == 2)
            assert not (0 < p < 3 and da == 0) and not (0 < q < 3 and db == 0)
            if not joker_open:
                assert not (da == 2 and p == 0) and not (db == 2 and q == 0)
            a, b = pairs[new_pair]
            if left == 0:  # the colour's last number: only finished runs stay
                assert a in (0, 3) and b in (0, 3)


def _runs_fit(counts: tuple[int, ...], jokers: int, most: int) -> bool:
    """Whether one colour's naturals (`counts` per number, all of them) and `jokers` jokers (all
    of them when `most` is unbounded, at most that many otherwise) split into runs of 3 or more
    with at most `most` runs over any number."""
    start: tuple[int, ...] = ()
    states = {(start, 0)}  # lengths of the runs in progress (3 = long enough), jokers placed
    for n in counts:
        after: set[tuple[tuple[int, ...], int]] = set()
        for runs, used in states:
            short = [r for r in runs if r < 3]
            done = [r for r in runs if r >= 3]
            for go_on in range(len(done) + 1):
                for j in range(jokers - used + 1):
                    tiles, kept = n + j, len(short) + go_on
                    if tiles >= kept and tiles <= most:
                        grown = [min(r + 1, 3) for r in short] + [3] * go_on + [1] * (tiles - kept)
                        after.add((tuple(sorted(grown)), used + j))
        states = after
    return any(all(r >= 3 for r in runs) and (used == jokers or most < 99) for runs, used in states)


def test_two_run_slots_per_colour_lose_no_play() -> None:
    """The encoding keeps two runs per colour over any number: whatever one colour's naturals and
    jokers (at most two) split into, they also split into with two runs over each number and no
    more jokers (the others join melds at the end). Checked on every count pattern of 7 numbers."""
    for counts in itertools.product(range(3), repeat=7):
        for jokers in (1, 2):
            if _runs_fit(counts, jokers, 99):
                assert _runs_fit(counts, jokers, 2), (counts, jokers)
    assert _runs_fit((1, 1, 0, 1, 1), 1, 99) and not _runs_fit((1, 1, 0, 1, 1), 0, 99)


def test_a_call_after_running_out_of_states_starts_clean() -> None:
    """Running out of buffer declines the position and leaves no stale state for the next call on
    the same thread (it once gave wrong 'optimal' answers after an overflow)."""
    positions = _positions("rummikub", 40, 7)
    declined = 0
    for position in positions:
        small = solve_dp(position, "cards", cap=3000)
        if small is None:
            declined += 1
            continue
        check_solution(position, small)
        assert small.cards_played == solve_fast(position, "cards", None, minimize_changes=False).cards_played
    assert 0 < declined < len(positions)
