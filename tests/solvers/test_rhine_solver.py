"""Rhine's joker rules in the CP-SAT solver: answers judged legal, ``optimal`` only when the
exhaustive reference agrees, and the tidy-table tie-break never costs the primary objective.

Positions are small and always hold a table joker (a run or group joker the hand can replace),
which is where the relaxed model, the R4 witness melds and the judge repair matter.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solver_checks import judged_legal

from rummyai.cards import JOKER, Meaning, Slot, make_card, parse_cards, parse_table
from rummyai.solvers import make_position, solve
from rummyai.solvers.check import check_solution
from rummyai.solvers.position import Solution
from rummyai.solvers.reference import reference_solve
from rummyai.variants import get_variant

RANKS = (7, 8, 9, 10)
SUITS = (0, 1, 2)


@st.composite
def joker_positions(draw: st.DrawFn) -> tuple[list[int], list[tuple[Slot, ...]]]:
    """One table meld with a joker (run or group over `RANKS` x `SUITS`), maybe a plain one,
    and a hand of up to six cards drawn near them."""
    table: list[tuple[Slot, ...]] = []
    used: Counter[int] = Counter()
    rank = draw(st.sampled_from(RANKS[:-2]))
    suit = draw(st.sampled_from(SUITS))
    hole = draw(st.integers(0, 2))
    if draw(st.booleans()):
        ranks = [rank + k for k in range(3)]
        slots = [
            Slot(JOKER, Meaning(r, suit)) if k == hole else Slot(make_card(r, suit))
            for k, r in enumerate(ranks)
        ]
    else:
        suits = draw(st.lists(st.sampled_from(range(4)), min_size=2, max_size=3, unique=True))
        slots = [Slot(make_card(rank, s)) for s in suits] + [Slot(JOKER, Meaning(rank))]
    table.append(tuple(slots))
    used.update(s.card for s in slots)
    if draw(st.booleans()):
        other = draw(st.sampled_from(RANKS))
        plain = [Slot(make_card(other, s)) for s in (0, 1, 2)]
        table.append(tuple(plain))
        used.update(s.card for s in plain)
    pool = [make_card(r, s) for r in RANKS for s in SUITS] + [JOKER]
    hand: list[int] = []
    for card in draw(st.lists(st.sampled_from(pool), min_size=2, max_size=6)):
        limit = 4 if card == JOKER else 2
        if used[card] < limit:
            used[card] += 1
            hand.append(card)
    return sorted(hand), table


def _check(hand: list[int], table: list[tuple[Slot, ...]], sol: Solution) -> None:
    """Every answer is a consistent table that the engine's judge accepts."""
    check_solution(make_position("rhine", hand, table, True), sol)
    if sol.played:
        assert judged_legal("rhine", hand, table, sol.melds, True)


@settings(max_examples=60, deadline=None)
@given(case=joker_positions(), objective=st.sampled_from(["cards", "points"]))
def test_optimal_answers_match_reference(case: tuple, objective: str) -> None:
    hand, table = case
    fast = solve("rhine", hand, table, objective=objective)
    slow = reference_solve("rhine", hand, table, objective=objective)
    _check(hand, table, fast)
    score = (fast.cards_played, fast.points_played)
    best = (slow.cards_played, slow.points_played)
    if objective == "points":
        score, best = score[::-1], best[::-1]
    assert score <= best  # never better than the exhaustive search (that would be illegal)
    if fast.status == "optimal":
        assert score == best
        assert fast.value == slow.value


@settings(max_examples=25, deadline=None)
@given(case=joker_positions())
def test_tidy_table_keeps_the_primary_value(case: tuple) -> None:
    hand, table = case
    tidy = solve("rhine", hand, table, minimize_changes=True)
    plain = solve("rhine", hand, table, minimize_changes=False)
    _check(hand, table, tidy)
    _check(hand, table, plain)
    if tidy.status == plain.status == "optimal":
        assert (tidy.cards_played, tidy.points_played) == (plain.cards_played, plain.points_played)


@pytest.mark.parametrize(
    ("hand", "table"),
    [
        ("7S TS TS 8H 9H 9H", "8S 9S JK=TS | 8S 8H 8D"),
        ("9S TS 9D", "8S 9S JK=TS"),
        ("8S 9S 9S TS 8H 8D", "JK=8H 9H TH"),
        ("7H TH TH 8D 9D JK", "8H 9H JK=TH"),
        ("7S 8S TS 8H", "8D 9D JK=TD | TS TH TD"),
        ("9S TS TS 8H 8D TD", "JK=8D 9D TD | 9S 9H 9D"),
        ("8S 9H 7D 8D 8D", "7S JK=8S 9S | 9S 9H 9D"),
        # the two 8S change places: the freed joker's run keeps 9S of its old meld, not a neighbour
        ("7S JK", "JK=7S 8S 9S | 8S 8H 8D"),
    ],
)
def test_repaired_answers_are_proven(hand: str, table: str) -> None:
    """Positions whose first relaxed table the judge rejects: the repair's witness model finds
    a legal table at its bound, so the answer is optimal and matches the reference."""
    cards, melds = parse_cards(hand), parse_table(table)
    sol = solve("rhine", cards, melds)
    slow = reference_solve("rhine", cards, melds)
    _check(cards, melds, sol)
    assert sol.status == "optimal"
    assert (sol.cards_played, sol.points_played) == (slow.cards_played, slow.points_played)


def test_released_joker_needs_its_replacement_beside_its_old_meld() -> None:
    """R4: 8D 9D JK=TD may give its joker up only if TD lands next to 8D or 9D; the model's
    witness run finds that table and proves it best."""
    hand, table = parse_cards("TD TC JC 8H"), parse_table("8D 9D JK=TD | JH QH KH")
    sol = solve("rhine", hand, table)
    slow = reference_solve("rhine", hand, table)
    _check(hand, table, sol)
    assert sol.status == "optimal"
    assert (sol.cards_played, sol.points_played) == (slow.cards_played, slow.points_played)


def test_group_joker_released_by_a_hand_card() -> None:
    """A group joker leaves JS JC JK=J once a hand jack sits beside JS or JC (R4)."""
    hand, table = parse_cards("JD 5C 6C"), parse_table("JS JC JK=J")
    sol = solve("rhine", hand, table)
    slow = reference_solve("rhine", hand, table)
    _check(hand, table, sol)
    assert sol.status == "optimal"
    assert sol.cards_played == slow.cards_played == 3


@pytest.mark.parametrize(
    ("hand", "table", "opened", "cards"),
    [
        ("JK", "7C 8C 9C", True, 0),  # R5: a hand joker may not simply join a meld
        ("JK 2S", "7C 8C 9C | 5H 6H 7H", True, 0),
        ("7H 8H 9H JK 8C", "7C JK 9C", False, 3),  # qualifying run; the JK swap needs R5's new natural
        # two joker melds trading their replacements: the repair's bound does not hold here
        ("AS AH 3D", "2S 3S JK=4S | JK=2S 3S 4S", True, 3),
    ],
)
def test_small_positions_the_model_cannot_prove_are_certified(
    hand: str, table: str, opened: bool, cards: int
) -> None:
    answer = solve("rhine", hand, table, opened=opened)
    assert answer.status == "optimal"
    assert answer.cards_played == cards
    check_solution(make_position("rhine", hand, table, opened), answer)


def test_official_joker_answers_on_small_positions_are_proven() -> None:
    hand, table = "QS AH 4H 2D 3D KC", "3H 3D JK=3 3S"
    answer = solve(get_variant("rummikub", {"official_jokers": True}), hand, table)
    exact = reference_solve(get_variant("rummikub", {"official_jokers": True}), hand, table)
    assert answer.status == "optimal"
    assert answer.cards_played == exact.cards_played


# A large opened Rhine position (21 cards in hand, 24 melds, four table jokers) on which the
# search and its repair find no table the judge accepts in seconds, while hand melds and plain
# lay-offs play 19 cards.
LARGE_HAND = "AS 5S 6S 9S TS KS AH 3H 3H 7H KH AD 9D 9D TD KD 4C 5C 6C 8C KC"
LARGE_TABLE = (
    "JS QS KS AS | QH QD QS | 6H JK=7H 8H 9H TH | 2H JK=3H 4H 5H | JS JH JC | QC KC AC | JK=8 8D 8S"
    " | JC JH JD | 3C 4C 5C 6C 7C | 6D 7D 8D | 9C TC JK=JC QC | 7S 8S 9S TS | 7C 8C 9C TC"
    " | 4H 5H 6H 7H | 3S 4S 5S 6S 7S | AC 2C 3C | TD JD QD KD | 2S 3S 4S | 2S 2H 2C 2D | QH KH AH"
    " | 5D 6D 7D | 8H 9H TH | AD 2D 3D 4D | 3D 4D 5D"
)


def test_an_unproven_answer_plays_at_least_the_hand_melds_and_lay_offs() -> None:
    from rummyai.solvers.lay_offs import lay_offs_play

    position = make_position("rhine", LARGE_HAND, LARGE_TABLE)
    floor = lay_offs_play(position, "cards", None)
    assert floor is not None and len(floor[0]) == 19
    answer = solve("rhine", LARGE_HAND, LARGE_TABLE, time_limit=0.2)
    assert answer.cards_played >= 19
    check_solution(position, answer)


# With an extra pack (three copies of a card): 66 table cards, six jokers; the best play (all 23
# cards) takes the table apart, and reading its copies canonically takes longer than the limits
# below, while the hand's melds and plain lay-offs play 20 cards and keep every start meld whole.
PACKED_HAND = "AS 4S 5S 9S AH AH 2H AD 3D 5D 5D 7D 8D JD QD KD AC 7C 8C 9C 9C JC KC"
PACKED_TABLE = (
    "JK=9D TD JD | JK=4C 5C 6C 7C | JH QH JK=KH | 9S TS JS | JK=9H TH JH QH KH | 3H 4H 5H 6H"
    " | 5C 6C 7C JK=8C | JK=8H 9H TH JH QH | TS JS QS | 5H 6H 7H 8H 9H | 4D 4S 4H 4C | 3C 3S 3D 3H"
    " | 8H 9H TH | 8S 9S TS JS QS | 8S 8C 8H | 2S 3S 4S 5S | 2D 2H 2C 2S"
)


@pytest.mark.parametrize("limit", [0.05, 0.5])
def test_a_limit_that_cuts_the_judgement_still_answers_the_lay_offs(limit: float) -> None:
    """The judgement of the search's answer stops at half the grace past the limit, so the hand's
    melds and lay-offs still get judged (quickly: no start meld is taken apart) before theirs."""
    rules = get_variant("rhine", ["extra_packs=1"])
    answer = solve(rules, PACKED_HAND, PACKED_TABLE, time_limit=limit, objective="points")
    assert answer.cards_played >= 20
    check_solution(make_position(rules, PACKED_HAND, PACKED_TABLE), answer)


@pytest.mark.parametrize(
    ("hand", "table", "opened", "options", "cards"),
    [
        # the repair runs out of cuts on two-joker plays the judge refuses (R5); the legal play
        # keeps the group's joker and starts a run with a hand joker: 1 card, not a pass
        ("5C 8C JK JK", "JK=4 4H 4H | 6D 7D 8D 9D | 7H 7S 7H JK=7 7D", True, [], 1),
        ("2S 6D 5C 8C JK JK JK", "6D 7D 8D 9D | 7H 7S 7H JK=7 7D", True, ["extra_packs=1"], 2),
        # qualifying by points, then freeing the table joker with the 9S: 8 cards, not 7
        (
            "4S 6S 9S 7H 7H 7D 8D JK",
            "JK=8 8H 8D 8H | JK=9S TS JS QS KS",
            False,
            ["rhine.points_qualify"],
            8,
        ),
    ],
)
def test_small_tables_the_repair_cannot_settle_get_the_exhaustive_answer(
    hand: str, table: str, opened: bool, options: list[str], cards: int
) -> None:
    """Sixteen or seventeen cards: past the unconditional exhaustive check, within the bounded one."""
    sol = solve("rhine", hand, table, opened=opened, options=options)
    assert sol.status == "optimal" and sol.cards_played == cards
    position = make_position(get_variant("rhine", options), hand, table, opened)
    check_solution(position, sol)
    ref = reference_solve(position.variant, position.hand, [i.slots for i in position.table], opened=opened)
    assert len(ref.played) == cards


# A mid-game position (`tiles_bench.py`, rhine #23): the relaxation's 14-card tables release the
# joker of '4H JK=5H 6H' with a 5H read (§7.1) beside another meld's hearts, refused under R4,
# while a 14-card table keeping that joker exists
KEEPING_HAND = "AS 4S 5S AH 8H KH KH 5D QD QD 5C 6C 6C 8C"
KEEPING_TABLE = (
    "4H JK=5H 6H | 5S 6S 7S 8S 9S | 9S TS JS | 3H 4H 5H 6H 7H | TS JS JK=QS KS AS | 3H 3C JK=3 | "
    "8H 9H TH | 2C 2D 2S 2H | JK=6D 7D 8D 9D TD | 7C 7H 7D 7S | 4D 5D 6D"
)


def test_the_repair_keeps_the_joker_the_judge_refused() -> None:
    """`_keeping`: the witness model's best table with that joker kept, judged legal, and the
    model left without assumptions for the search that goes on."""
    from rummyai.solvers.check import judge
    from rummyai.solvers.rhine_repair import _Budget, _keeping
    from rummyai.solvers.tile_model import TileModel

    position = make_position("rhine", KEEPING_HAND, KEEPING_TABLE)
    model = TileModel(position, "cards", None, False, witnesses=True)
    assumed: list[object] = []
    found = _keeping(position, "cards", model, 0, assumed, _Budget(None, 0.0, 5.0))
    assert found is not None
    played, melds, score = found
    assert len(played) == 14 and score[0] == 14
    assert judge(position, melds).legal
    assert any("JK=5H" in map(str, meld) for meld in melds)  # the joker still stands for the 5H
    assert len(assumed) == 1 and not model.model.proto.assumptions


def test_a_refused_joker_kept_proves_the_bound() -> None:
    answer = solve("rhine", KEEPING_HAND, KEEPING_TABLE)
    assert answer.status == "optimal" and answer.cards_played == 14
    check_solution(make_position("rhine", KEEPING_HAND, KEEPING_TABLE), answer)
