"""The judge-and-repair loop of the relaxed joker rules (Rhine, official Rummikub jokers) on small
positions where the model's first tables are refused: the answer is legal and as good as the
exhaustive reference's. The positions are shrunk from the solver sweep's status count
(`sweep_grid.py --statuses`). Official Rummikub's dynamic program, which answers many of these
positions before the model is built, is switched off here (`test_official_dp.py` tests it).
"""

from __future__ import annotations

import random
import time
from collections import Counter

import pytest
from ortools.sat.python import cp_model
from solver_checks import judged_legal

from rummyai.cards import parse_cards
from rummyai.engine import judge_play
from rummyai.solvers import check, make_position, official_dp, solve
from rummyai.solvers.check import check_solution
from rummyai.solvers.position import Solution, count_broken, score_key
from rummyai.solvers.random_positions import joker_positions, random_position
from rummyai.solvers.reference import ReferenceTimeout, candidate_melds, reference_solve
from rummyai.solvers.rhine_repair import cut
from rummyai.solvers.tile_decode import decode
from rummyai.solvers.tile_model import TileModel, solve_model
from rummyai.solvers.tile_solve import solve_tile
from rummyai.variants import Variant, get_variant

OFFICIAL = get_variant("rummikub", ["official_jokers"])
FROM_TABLE = get_variant("rummikub", {"official_jokers": True, "joker_replacement_from": "rack_or_table"})


@pytest.fixture(autouse=True)
def _repair_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CP-SAT model and its repair answer every position of this module."""
    monkeypatch.setattr(official_dp, "official_dp_applies", lambda position, max_cards: False)


def test_official_repair_takes_a_joker_by_its_replacement() -> None:
    """rummikub+rack_or_table, two cards at most: TS on the tens and 5C for the table's JK=5C,
    the joker into a new run, plays 2 (15 points). Tables taking jokers for 8H without a
    replacement are refused; the repair model asks a taken joker for its replacement, so it does
    not have to cut them one by one."""
    hand, table = "TS 8H 5C", "JK=AC 2C 3C 4C JK=5C | TD TH TC"
    best = reference_solve(FROM_TABLE, hand, table, objective="penalty", max_cards=2)
    assert (best.cards_played, best.points_played) == (2, 15)
    sol = solve(FROM_TABLE, hand, table, objective="penalty", max_cards=2)
    assert (sol.status, sol.cards_played, sol.points_played) == ("optimal", 2, 15)
    _legal(FROM_TABLE, hand, table, sol)


def test_no_good_cut_keeps_other_group_sets_and_joker_spots() -> None:
    """rummikub+rack_or_table, one card for points: 7C with 'JK=5C 6C 7C | 6C 7C 8C | 6S 6H JK=6'
    is legal. A table with the group's joker at 6C in a run is refused; the no-good cut names the
    pooled group sets and joker counts too, so it does not cut the legal table of the same runs
    (judging the other joker spots finds that table before any cut; the cut itself is checked by
    `test_no_good_cut_removes_only_its_own_table`)."""
    hand, table = "6S 6D 7C 8C", "JK=6 6S 6C 6H | JK=5C 6C 7C 8C"
    best = reference_solve(FROM_TABLE, hand, table, objective="points", max_cards=1)
    assert best.played_text() == "7C"
    sol = solve(FROM_TABLE, hand, table, objective="points", max_cards=1, minimize_changes=False)
    assert sol.played_text() == "7C"
    _legal(FROM_TABLE, hand, table, sol)


def test_pooled_joker_placed_in_the_other_copy() -> None:
    """rummikub+official, penalty: 5D for one of the fives' jokers, which goes with 8D and the
    run's 8H ('5H 6H 7H | 5S JK=5 5D 5C | JK=8 8H 8D', 13 points). The model's assignment is
    that table, but a decoding with the kept joker at the run's 5H and the natural 5H in the
    group is refused by the judge; a cut of it would cut the legal one too (pooled jokers only
    count per card kind), so the other placements of the same assignment are judged first."""
    hand, table = "4S 5D 8D 2C KC", "5H 6H 7H 8H | JK=5 5S JK=5 5C"
    best = reference_solve(OFFICIAL, hand, table, objective="penalty")
    assert (best.cards_played, best.points_played) == (2, 13)
    sol = solve(OFFICIAL, hand, table, objective="penalty", minimize_changes=False)
    assert (sol.status, sol.cards_played, sol.points_played) == ("optimal", 2, 13)
    _legal(OFFICIAL, hand, table, sol)


@pytest.mark.parametrize(
    ("hand", "table", "cards", "points"),
    [
        # 35 table cards: the best play keeps 'JK=5 JK=5 5S 5H' whole and takes 5C from the other
        # group of fives for 4C 5C 6C. Every table that moves a joker of that meld is refused (the
        # hand holds no 5D or 5C to take it); the always-legal floor that keeps joker melds whole
        # finds the 7 cards, and the repair model proves them.
        pytest.param(
            "4S 2H 4H JD AC 2C 4C 4C QC",
            "JK=5 JK=5 5S 5H | 8S 9S TS JS QS | 5S 5D 5H 5C | JS JD JH JC | QH QS QC | 3H 3C 3D | "
            "4D 5D 6D | 6C 6S 6H | 8S 9S TS | AS 2S 3S",
            7,
            21,
            id="floor-keeps-joker-melds-whole",
        ),
        # 39 table cards: the group's joker in '3H 3C JK=3' cannot be taken (no 3S or 3D in the
        # hand), and moving it to stand for 3D in a run takes it. The pooled repair model counts any
        # joker standing for a three as kept and runs out of cuts; the second repair, with jokers
        # per meld, counts a kept group joker only where a group of threes holds it and proves 7.
        pytest.param(
            "6S 7S 7S 6H 8H 9H KH 9D 5C TC",
            "JD JS JH JC | TH JH QH | 3H 3C JK=3 | 4C JK=5C 6C 7C | QD QS QC | 4H 5H 6H 7H | 2D 2C 2H | "
            "QS QH QD | 9C TC JC | AD 2D 3D 4D 5D | 4C 4D 4S 4H",
            7,
            58,
            id="group-jokers-told-from-run-jokers",
        ),
    ],
)
def test_official_repair_proves_mid_game_positions(hand: str, table: str, cards: int, points: int) -> None:
    """rummikub+official on mid-game tables the repair once left unproven: proven at the value
    a larger search budget also finds, and legal."""
    sol = solve(OFFICIAL, hand, table)
    assert (sol.status, sol.cards_played, sol.points_played) == ("optimal", cards, points)
    _legal(OFFICIAL, hand, table, sol)


def test_official_repair_keeps_the_pooled_models_layouts() -> None:
    """rummikub+official: TH goes down as 'TH JK JK | TS TH TD' (the run gives up its TS). The
    per-meld repair model deals a rank's groups one way ('TS TH JK | TH TD JK', refused) and its
    cut removes the legal deal too; the pooled repair runs first and finds it, so the answer is
    the exhaustive reference's."""
    hand, table = "4S TH QH 7D", "TH JK=T JK=T TD | 6S 7S 8S 9S TS"
    best = reference_solve(OFFICIAL, hand, table)
    sol = solve(OFFICIAL, hand, table)
    assert (sol.status, sol.cards_played, sol.points_played) == (
        "optimal",
        best.cards_played,
        best.points_played,
    )
    _legal(OFFICIAL, hand, table, sol)


def _legal(variant: Variant, hand: str, table: str, sol: Solution) -> None:
    """The answer passes the independent checks and the engine's judge."""
    position = make_position(variant, hand, table)
    check_solution(position, sol)
    assert judged_legal(variant, list(position.hand), [i.slots for i in position.table], sol.melds, True)


def test_no_good_cut_removes_only_its_own_table() -> None:
    """The repair's no-good cut forbids one decoded table: with 7C the only card played, cutting
    the first table must leave the other tables of 7C (above, the legal one differs from the
    rejected one only in a pooled group set and joker spot)."""
    position = make_position(FROM_TABLE, "6S 6D 7C 8C", "JK=6 6S 6C 6H | JK=5C 6C 7C 8C")
    tm = TileModel(position, "points", 1, False, witnesses=True)
    assert tm.pooled
    seven = parse_cards("7C")[0]
    for card, var in tm.played.items():
        tm.model.add(var == int(card == seven))
    solver, status = solve_model(tm, None)
    assert status == cp_model.OPTIMAL
    first = decode(tm, solver)[1]
    cut(tm, solver)
    solver, status = solve_model(tm, None)
    assert status == cp_model.OPTIMAL
    assert decode(tm, solver)[1] != first


def test_cuts_share_their_literals_and_each_forbids_its_table() -> None:
    """Every no-good is a clause over `TileModel.differs` literals: a boolean is its own, and an
    integer's literal for a value is made once, so cutting the same values again adds no
    variable; each cut table stays forbidden (the tables found after the cuts all differ)."""
    position = make_position(FROM_TABLE, "6S 6D 7C 8C", "JK=6 6S 6C 6H | JK=5C 6C 7C 8C")
    tm = TileModel(position, "points", 1, False, witnesses=True)
    seven = parse_cards("7C")[0]
    for card, var in tm.played.items():
        tm.model.add(var == int(card == seven))
    seen: list[list[int]] = []
    for _ in range(3):
        solver, status = solve_model(tm, None)
        if status != cp_model.OPTIMAL:
            break
        values = [solver.value(v) for v in tm.decision_vars()]
        assert values not in seen
        seen.append(values)
        cut(tm, solver)
        size = len(tm.model.proto.variables)
        cut(tm, solver)  # the same values again: only a clause
        assert len(tm.model.proto.variables) == size
    assert len(seen) >= 2
    boolean = next(v for v in tm.decision_vars() if list(v.proto.domain) == [0, 1])
    assert tm.differs(boolean, 0) is boolean and tm.differs(boolean, 1) is not boolean


def test_joker_melds_trading_replacements_read_on_the_canonical_copies() -> None:
    """rhine+extra_packs=1, one card for points: 'AH 2H 3H 4H JK=5H | 4H 4C JK=4' would put 4C down
    if each joker's replacement came from the other joker meld, but the canonical copies (§7.1)
    keep 'AH 2H 4H' with the first meld's joker, which then returns to its own meld as 5H with no
    new natural (R5): no single card can go down, and the solver proves it."""
    variant = get_variant("rhine", {"extra_packs": 1})
    hand, table = "2H 4H 4C JK", "AH 2H JK=3H 4H | JK=2H 3H 4H"
    verdict = judge_play(variant, hand.split(), table, "AH 2H 3H 4H JK=5H | 4H 4C JK=4")
    assert not verdict.legal and verdict.rule == "1.5 R5"
    best = reference_solve(variant, hand, table, objective="points", max_cards=1)
    assert best.cards_played == 0
    sol = solve(variant, hand, table, objective="points", max_cards=1, minimize_changes=False)
    assert (sol.status, sol.cards_played) == ("optimal", 0)


def test_rhine_repair_keeps_a_legal_table_its_search_passed() -> None:
    """A Rhine mid-game position (`tiles_bench.py` #27): the witness model's 12-card tables are
    refused one after another until its cuts run out, and the strict model's floor plays 9. A
    12-card table the search found on its way to a refused one is legal, and is the answer;
    12 is the relaxation's bound, so no legal play has more cards."""
    hand = "3S JS QS 2H 4H QH KH 3D 9D QD KD 3C 6C"
    table = (
        "5D 5S 5C 5H | 7D JK=7 7C 7S | 5H 6H 7H 8H 9H | 6S 7S JK=8S 9S | JK=5H 6H 7H 8H 9H | "
        "JK=JC QC KC | 5D 6D 7D 8D"
    )
    sol = solve("rhine", hand, table)
    assert sol.cards_played == 12
    assert judged_legal("rhine", parse_cards(hand), table, sol.melds, True)


def test_rhine_wild_may_not_just_join_the_qualifying_group() -> None:
    """Rhine, not yet qualified: 3S 3H 3C qualify, TC replaces the run's joker (R4) and KC goes
    beside it: five cards ('JK=9C TC JC QC KC'). A hand joker joining the qualifying threes
    ('3S 3H 3C JK=3') breaks R5 (its naturals are all the qualifying set's); the repair model
    asks a group of a rank no table meld holds for a played natural besides the qualifying
    group's for each wild, so such tables are never proposed."""
    hand, table = "3S 3H 3C TC KC JK", "QH JK=KH AH | JK=TC JC QC"
    best = reference_solve("rhine", hand, table, opened=False)
    assert best.cards_played == 5
    sol = solve("rhine", hand, table, opened=False, minimize_changes=False)
    assert sol.cards_played == 5
    position = make_position("rhine", hand, table, False)
    check_solution(position, sol)
    assert judged_legal("rhine", list(position.hand), [i.slots for i in position.table], sol.melds, False)


def test_unopened_rhine_hand_joker_in_a_qualifying_run_is_certified() -> None:
    """rhine, unopened, penalty, at most 4 cards: a hand joker that joins a qualifying run is not
    modelled, so the repair alone finds 3 cards; the 12-card position is within the exhaustive
    reference's certification size, which finds 4 and proves it."""
    hand, table = "6S 4H 5H 6H 6H JK", "3C 3D JK=3 | JK=3 3H 3D"
    sol = solve("rhine", hand, table, opened=False, objective="penalty", max_cards=4)
    best = reference_solve("rhine", hand, table, opened=False, objective="penalty", max_cards=4)
    assert (sol.status, sol.cards_played) == ("optimal", best.cards_played) == ("optimal", 4)
    position = make_position("rhine", hand, table, opened=False)
    check_solution(position, sol)  # the engine's judge included


# Positions the repair cannot prove (its cuts leave a worse table) but the exhaustive reference
# settles: small enough to certify, with or without a limit.
UNPROVEN_BY_REPAIR = [
    ("rhine", "JK JK", "7S 8S JK=9S TS JS | 8S JK=9S TS JS QS", 1),
    ("rhine", "JK TS JK", "JS QS KS | JK=J JD JS JD", 2),
    (OFFICIAL, "7H 6H 7C 6C", "6C 6D 6H | JK=7C JK=8C 9C TC JC", 4),
    ("rhine", "JK JK 3D 3D JK", "JK=3D 4D 5D 6D | 4D 5D 6D 7D", 4),
]


@pytest.mark.parametrize(("variant", "hand", "table", "cards"), UNPROVEN_BY_REPAIR)
@pytest.mark.parametrize("limits", [{}, {"time_limit": 30.0}, {"work_limit": 5.0}])
def test_small_positions_are_certified_under_a_limit_too(
    variant: Variant | str, hand: str, table: str, cards: int, limits: dict[str, float]
) -> None:
    """A limit the search does not reach leaves the certification in place: the answer is the
    reference's best, proven."""
    assert reference_solve(variant, hand, table).cards_played == cards
    sol = solve(variant, hand, table, **limits)
    assert (sol.status, sol.cards_played) == ("optimal", cards)
    check_solution(make_position(variant, hand, table), sol)


def test_certification_stops_at_its_deadline_or_step_budget() -> None:
    """The reference stops at its deadline or after its steps; a work limit too small for it
    leaves the repaired answer `feasible` (and legal), the same on any machine."""
    variant, hand, table, cards = UNPROVEN_BY_REPAIR[3]
    with pytest.raises(ReferenceTimeout):
        reference_solve(variant, hand, table, deadline=time.perf_counter())
    with pytest.raises(ReferenceTimeout):
        reference_solve(variant, hand, table, max_steps=1_000)
    assert reference_solve(variant, hand, table, max_steps=10**7).cards_played == cards
    sol = solve(variant, hand, table, work_limit=0.005)
    assert sol.status == "feasible" and sol.cards_played < cards
    check_solution(make_position(variant, hand, table), sol)


def test_the_references_meld_list_holds_no_meld_past_the_wild_cap_and_stops_at_its_deadline() -> None:
    """Rhine's wild twos and jokers make thousands of melds with two wilds or more, which the
    rules refuse (R2): the list leaves them out, and a passed deadline stops it at once."""
    rules = get_variant("rhine", ["rhine.wild_twos"])
    position = make_position(rules, "3S TH 2D", "JK=Q QC QD | 9C TC JC QC | JK=5S 6S 7S 8S | 2C 3C 4C 5C")
    avail = [h + t for h, t in zip(position.hand_counts(), position.table_counts(), strict=True)]
    melds = candidate_melds(rules, avail)
    assert melds and all(sum(info.as_wild) <= 1 for info in (c.info for c in melds))
    assert any(sum(c.info.as_wild) == 1 for c in melds)
    with pytest.raises(ReferenceTimeout):
        candidate_melds(rules, avail, deadline=time.perf_counter())


@pytest.mark.parametrize("seed", [6, 8, 11])
def test_a_cut_opening_turn_still_plays_the_hands_own_melds(seed: int) -> None:
    """An unopened Rhine seat with 22 cards on a 45-card table: a work limit this small cuts the
    search before it finds a qualifying table, and the hand's own melds (a qualifying one among
    them) plus lay-offs are the answer instead of a pass, judged legal, the same on any machine."""
    hand, table = random_position("rhine", seed, 45, 22, 0.2, 0.7)
    sol = solve("rhine", hand, table, opened=False, work_limit=0.002)
    assert sol.status == "feasible" and sol.cards_played >= 13
    check_solution(make_position("rhine", hand, table, False), sol)


# 16-20-card positions whose repair ran out of cuts below the best play (the hand jokers and
# joker retrievals of R5 and T4): the exhaustive reference settles them within its step budget.
# The last field is a legal play scoring the best, found by an independent search and judged.
SETTLED_BY_THE_REFERENCE = [
    ("rummy-tiles", "AS 2S JK=3S 4S | JK=2C 3C 4C | 3S 4S 5S 6S | 2H 2D 2C", "2C 3S", "cards",
     "2C JK=3C 4C | 2H 2D 2C | AS 2S 3S 4S | 3S 3C JK=3 | 4S 5S 6S"),
    ("rummy-tiles", "JK=9S TS JS QS | JH JK=QH KH | TS JS QS | 8H 9H TH JH QH", "QH TD 9S 8H", "cards",
     "8H 9H TH JH QH | JH JK=QH KH | QS QH JK=Q | 9S TS JS | TS JS QS"),
    ("rummy-tiles", "3H JK=4H 5H | 3D 4D JK=5D | 5D 6D 7D 8D | 7H 7D 7S", "4H 8D 6H 5D", "points",
     "3D 4D 5D | JK=2H 3H 4H | JK=4H 5H 6H | 5D 6D 7D 8D | 7S 7H 7D"),
    ("rhine", "2S 3S 4S | 2D 2D 2H | 2C 3C 4C JK=5C 6C | AS AD AS", "JK JK", "cards",
     "2H 2D 2D 2C JK=2 | 2S 3S 4S | 3C 4C JK=5C 6C | AS AS AD"),
    ("rhine", "JK=6H 7H 8H | 6H 7H 8H | 6D 7D 8D 9D TD | JK=7D 8D 9D", "9H 7D", "cards",
     "JK=5D 6D 7D 8D 9D | 6H 7H 8H | JK=6H 7H 8H 9H | 7D 8D 9D TD"),
    ("rhine", "4H JK=5H 6H 7H | 3H 4H 5H 6H | 3H 3S 3S | 7S JK=7 7S", "JK JK 7D", "cards",
     "3S 3S 3H 3H JK=3 | 4H 5H 6H | 4H JK=5H 6H | 7H 7D JK=7 | 7S 7S JK=7"),
    # past a million steps of the exhaustive search
    ("rhine", "4C 5C 6C 7C | AC 2C 3C 4C 5C | AH 2H 3H 4H | 2D 2D 2C", "JK JK", "cards",
     "2D 2D 2C 2C JK=2 | 2H 3H 4H | 3C 4C 5C | 4C 5C 6C 7C | AH AC JK=A"),
]  # fmt: skip


@pytest.mark.parametrize(("variant", "table", "hand", "objective", "legal"), SETTLED_BY_THE_REFERENCE)
def test_a_repair_short_of_the_best_is_settled_by_the_reference(
    variant: str, table: str, hand: str, objective: str, legal: str
) -> None:
    verdict = judge_play(variant, hand, table, legal)
    assert verdict.legal, verdict.reason
    position = make_position(variant, hand, table)
    sol = solve(variant, hand, table, objective=objective)
    assert sol.status == "optimal"
    assert score_key(position, objective, sol.played) >= score_key(
        position, objective, parse_cards(" ".join(verdict.played))
    )
    check_solution(position, sol)


def test_a_play_whose_wilds_the_cuts_kept_refusing_is_found_by_the_spread_model() -> None:
    # 19 cards, past the exhaustive reference's budget: every cut table put a hand wild beside
    # naturals of one start meld (R5); the restriction that reads R5 on card kinds finds 6 cards
    hand = "2S JK 4S 2D 2C 3C JK"
    table = "7D 8D 9D TD JD | 5C 5D 5H 5S | 4C 4D 4H"
    rules = get_variant("rhine", ["rhine.wild_twos"])
    answer = solve(rules, hand, table, objective="points")
    assert answer.cards_played >= 6 and answer.points_played >= 177
    verdict = judge_play(rules, hand, table, [[str(s) for s in m] for m in answer.melds])
    assert verdict.legal, verdict.reason


# Witness claims a canonical copy assignment (§7.1) undoes: the group's own 7C stays beside 7H 7D
# (the run's 7C is no replacement, so '7H 7D 7C | 7C JK=8C 9C | TS JS JK=QS' is refused), and the
# run's own 3C stays beside AC 2C (so '3C JK=4C 5C' holds none of its old meld's cards and the
# joker has no 4C). The padding is melds no hand card or joker can join: past 22 cards the
# solver no longer asks the exhaustive reference, so the proof is the repair's own (the test
# runs the reference to check it).
CANONICAL_CLAIMS = [
    ("TS JS KD", "7H 7C JK=7 7D | 7C JK=8C 9C | KS KH KC", "2D 3D 4D 5D | AH 2H 3H | QH QD QC", (1, 13)),
    ("3C 5C", "AC 2C 3C JK=4C | KS KH KC", "2D 3D 4D 5D | AH 2H 3H | QH QD QC | 6S 7S 8S | 9D 9H 9S", (1, 5)),
]  # fmt: skip


@pytest.mark.parametrize(("hand", "table", "padding", "best"), CANONICAL_CLAIMS)
def test_witness_claims_a_swap_of_copies_would_undo_leave_the_proof_model(
    hand: str, table: str, padding: str, best: tuple[int, int]
) -> None:
    """Past the reference's certification the repair proves the best play: its proof model (the
    witness model without claims that a swap of two identical copies undoes, a relaxation: a
    canonical assignment keeps at least the pairs of one that swaps two copies) has no table
    better than the exhaustive reference's best."""
    padded = f"{table} | {padding}"
    big = make_position("rhine", hand, padded)
    assert len(big.hand) + sum(len(info.cards) for info in big.table) > 22
    sol = solve("rhine", hand, padded)
    assert sol.status == "optimal"
    assert (sol.cards_played, sol.points_played) == best
    check_solution(big, sol)
    slow = reference_solve("rhine", hand, padded, max_steps=5_000_000)
    assert (slow.cards_played, slow.points_played) == best
    position = make_position("rhine", hand, table)
    assert score_key(position, "cards", reference_solve("rhine", hand, table).played) == best
    tm = TileModel(position, "cards", None, False, witnesses=True, read_swaps=True)
    solver, status = solve_model(tm, None)
    assert status == cp_model.OPTIMAL
    assert score_key(position, "cards", decode(tm, solver)[0]) == best


def _near_duplicates(rng: random.Random) -> tuple[str, str]:
    """A small Rhine position where a joker meld's natural has a second copy: a group joker
    meld beside a run holding a copy of one of its cards, or a run joker meld with a copy of one
    of its cards in a group or in the hand; a hand drawn near them."""
    ranks, suits = "A23456789TJQK", "SHDC"

    def card(rank: int, suit: int) -> str:
        return ranks[rank - 1] + suits[suit]

    r = rng.randint(3, 9)
    if rng.random() < 0.5:
        a, b, c = rng.sample(range(4), 3)
        group = [card(r, a), card(r, b), card(r, c), f"JK={ranks[r - 1]}"]
        low = r - rng.randint(0, 2)
        run = [card(x, c) for x in range(low, low + 3)]
        if rng.random() < 0.5:
            k = rng.choice([k for k in range(3) if low + k != r])
            run[k] = "JK=" + run[k]
        table = [group, run]
        near = [card(x, s) for x in range(r - 2, r + 3) for s in range(4)]
    else:
        suit, low = rng.randrange(4), r - 1
        run = [card(x, suit) for x in range(low, low + rng.choice([3, 4, 5]))]
        k = rng.randrange(len(run))
        natural = run[(k + 1) % len(run)]
        run[k] = "JK=" + run[k]
        table = [run]
        if rng.random() < 0.5:
            rank = ranks.index(natural[0]) + 1
            others = rng.sample([s for s in range(4) if s != suit], 2)
            table.append([natural] + [card(rank, s) for s in others])
        near = [card(x, s) for x in range(max(low - 2, 1), min(low + 5, 13) + 1) for s in range(4)]
    held = Counter(c for meld in table for c in meld if not c.startswith("JK"))
    hand = [c for c in held if held[c] < 2 and rng.random() < 0.3]
    hand += [c for c in rng.sample(near, rng.randint(1, 4)) if held[c] + hand.count(c) < 2]
    if rng.random() < 0.25:
        hand.append("JK")
    return " ".join(hand), " | ".join(" ".join(meld) for meld in table)


@pytest.mark.parametrize("seed", range(100))
def test_the_proof_model_is_a_relaxation(seed: int) -> None:
    """On small positions with second copies of a joker meld's cards, the proof model's optimum
    is never below the exhaustive reference's legal best, and an ``optimal`` answer is that best."""
    hand, table = _near_duplicates(random.Random(seed))
    position = make_position("rhine", hand, table)
    for objective in ("cards", "points"):
        best = score_key(
            position, objective, reference_solve("rhine", hand, table, objective=objective).played
        )
        tm = TileModel(position, objective, None, False, witnesses=True, read_swaps=True)
        solver, status = solve_model(tm, None)
        assert status == cp_model.OPTIMAL
        assert score_key(position, objective, decode(tm, solver)[0]) >= best
        sol = solve("rhine", hand, table, objective=objective)
        assert sol.status == "optimal"
        assert score_key(position, objective, sol.played) == best


@pytest.mark.parametrize("name", ["rhine", "rummy-tiles", "rummikub+official_jokers"])
def test_the_tie_break_after_a_legal_table_breaks_as_few_melds_as_the_full_model(name: str) -> None:
    """Where the judge may refuse the model's table, CP-SAT first solves for cards and points
    alone and breaks the tie (fewest start melds broken) only once that table is judged legal.
    Whenever the full model's table (cards, points and the tie-break in one objective) is legal,
    the answer scores the same and breaks no more start melds."""
    base, *options = name.split("+")
    variant = get_variant(base, options)
    compared = 0
    for hand, table in joker_positions(variant, 16, 77):
        position = make_position(variant, hand, table)
        full = TileModel(position, "cards", None, True)
        solver, status = solve_model(full, None)
        assert status == cp_model.OPTIMAL
        played, melds, _ = decode(full, solver)
        if not played or not check.judged_legal(position, melds):
            continue
        compared += 1
        answer = solve_tile(position, "cards", None, None, minimize_changes=True)
        check_solution(position, answer)
        assert answer.status == "optimal"
        assert score_key(position, "cards", list(answer.played)) == score_key(position, "cards", played)
        assert answer.melds_broken <= count_broken(position, melds)
    assert compared
