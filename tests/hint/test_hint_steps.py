"""Table diff to human steps: replaying the steps rebuilds the new table; kept cards are maximal."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummyai.cards import parse_cards, parse_meld, sorted_cards
from rummyai.hint.steps import StepPlan, max_weight_assignment, plan_steps


def _bag(meld: object) -> Counter[int]:
    return Counter(c for slot in meld for c in slot.cards())  # type: ignore[attr-defined]


def replay(plan: StepPlan) -> tuple[list[Counter[int]], Counter[int], Counter[int]]:
    """Carry out the steps on bags of cards: (new-table bags, cards from hand, cards to hand)."""
    old_bags = [_bag(m) for m in plan.old]
    bags: list[Counter[int]] = []
    for j in range(len(plan.new)):
        i = plan.origin[j]
        bags.append(old_bags[i] if i is not None else Counter())
    unmatched = [old_bags[i] for i in range(len(plan.old)) if i not in plan.origin]
    from_hand: Counter[int] = Counter()
    to_hand: Counter[int] = Counter()
    for step in plan.steps:
        moved = Counter(step.cards)
        if step.source is None:
            from_hand += moved
        else:
            source = old_bags[step.source]
            assert moved <= source, f"step takes {step.cards} that meld {step.source} no longer holds"
            source.subtract(moved)
        if step.target is None:
            to_hand += moved
        else:
            bags[step.target].update(moved)
    assert all(not +b for b in unmatched), "a meld taken apart still holds cards"
    return [+b for b in bags], from_hand, to_hand


def check_plan(old: list[str], new: list[str]) -> StepPlan:
    plan = plan_steps(old, new)
    bags, from_hand, to_hand = replay(plan)
    assert bags == [_bag(parse_meld(m)) for m in new]
    assert from_hand == Counter(plan.played)
    assert to_hand == Counter(plan.taken)
    pairs = [(s.source, s.target) for s in plan.steps]
    assert len(pairs) == len(set(pairs)), "two steps share the same from and to"
    return plan


def test_identical_table_needs_no_steps() -> None:
    table = ["3C 4C 5C", "8S 8D 8H", "JK 9H TH"]
    plan = check_plan(table, list(reversed(table)))
    assert plan.steps == ()
    assert plan.fates == ("kept", "kept", "kept")
    assert plan.summary() == "0 steps"


def test_lay_off_and_new_meld() -> None:
    plan = check_plan(["3C 4C 5C", "8S 8D 8H"], ["3C 4C 5C 6C", "8S 8D 8H", "9D TD JD"])
    assert plan.fates == ("extended", "kept")
    assert plan.new_melds == [2]
    assert [s.text for s in plan.steps] == [
        "Add 6C from your hand to meld 1 (3C 4C 5C)",
        "Lay down 9D TD JD from your hand as new meld 3",  # the new table's third meld
    ]
    assert plan.played == tuple(parse_cards("6C 9D TD JD"))


def test_split_run_and_move_card_into_group() -> None:
    old = ["5H 6H 7H 8H", "9S 9D 9C 9H"]
    new = ["5H 6H 7H", "8H 9H TH", "9S 9D 9C"]
    plan = check_plan(old, new)
    assert plan.fates == ("changed", "changed")
    moves = [s for s in plan.steps if s.action == "move"]
    assert {(s.cards, s.source) for s in moves} == {
        (tuple(parse_cards("8H")), 0),
        (tuple(parse_cards("9H")), 1),
    }
    assert all(s.target == 1 for s in moves)
    assert [s.cards for s in plan.steps if s.action == "play"] == [tuple(parse_cards("TH"))]


def test_meld_taken_apart_whole() -> None:
    old = ["7S 7H 7D", "4S 5S 6S", "4H 5H 6H", "4D 5D 6D"]
    new = ["4S 5S 6S 7S", "4H 5H 6H 7H", "4D 5D 6D 7D", "KS KH KD"]
    plan = check_plan(old, new)
    assert plan.fates == ("taken_apart", "extended", "extended", "extended")
    assert plan.new_melds == [3]
    assert "take apart 1 meld" in plan.summary()
    assert len(plan.steps) == 4


def test_a_meld_that_keeps_one_card_saves_a_step() -> None:
    # Keeping 7D where it lies and adding 8D 9D is one step fewer than rebuilding 7D 8D 9D.
    old = ["7S 7H 7D", "4S 5S 6S", "4H 5H 6H"]
    new = ["4S 5S 6S 7S", "4H 5H 6H 7H", "7D 8D 9D"]
    plan = check_plan(old, new)
    assert plan.fates == ("changed", "extended", "extended")
    assert len(plan.steps) == 3


def test_joker_taken_back_into_hand() -> None:
    plan = check_plan(["7H JK=8H 9H"], ["7H 8H 9H"])
    assert plan.taken == tuple(parse_cards("JK"))
    assert [s.action for s in plan.steps] == ["take", "play"]


def test_copies_are_interchangeable() -> None:
    # Two 5H on the table: the matching keeps both runs and only adds cards.
    plan = check_plan(["3H 4H 5H", "5H 6H 7H"], ["3H 4H 5H 6H", "5H 6H 7H 8H"])
    assert plan.fates == ("extended", "extended")
    assert len(plan.steps) == 2


def test_a_copy_that_can_stay_with_its_meld_stays() -> None:
    # §7.1: the group's 8H stays in the group, so the hand's 8H goes to the run (no table move)
    from rummyai.hint.api import hint

    answer = hint("rhine", "8H 9H", "8S 8D 8H | 5H 6H 7H")
    assert [str(s) for m in answer.best.melds for s in m].count("8H") == 2
    assert [s.action for s in answer.best.plan.steps] == ["play"]
    assert answer.best.plan.fates == ("kept", "extended")


def subset_dp(weights: list[list[int]]) -> int:
    """Best matching by dynamic programming over subsets of columns (few columns)."""
    cols = len(weights[0])
    best = {0: 0}
    for row in weights:
        nxt = dict(best)
        for mask, value in best.items():
            for c in range(cols):
                if not mask >> c & 1:
                    key = mask | 1 << c
                    nxt[key] = max(nxt.get(key, 0), value + row[c])
        best = nxt
    return max(best.values())


def brute_force(weights: list[list[int]]) -> int:
    rows, cols = len(weights), len(weights[0])
    best = 0
    if rows <= cols:
        for perm in itertools.permutations(range(cols), rows):
            best = max(best, sum(weights[r][perm[r]] for r in range(rows)))
    else:
        for perm in itertools.permutations(range(rows), cols):
            best = max(best, sum(weights[perm[c]][c] for c in range(cols)))
    return best


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.integers(0, 10**6))
def test_assignment_is_optimal(rows: int, cols: int, seed: int) -> None:
    rng = random.Random(seed)
    weights = [[rng.choice([0, 0, 1, 2, 3, 5, 8]) for _ in range(cols)] for _ in range(rows)]
    match = max_weight_assignment(weights)
    used = [c for c in match if c is not None]
    assert len(used) == len(set(used))
    assert all(weights[r][c] > 0 for r, c in enumerate(match) if c is not None)
    assert sum(weights[r][c] for r, c in enumerate(match) if c is not None) == brute_force(weights)
    assert brute_force(weights) == subset_dp(weights)


TOKENS = ["3H", "4H", "5H", "6H", "7H", "5S", "5D", "5C", "JK", "8C", "9C", "TC"]


def _random_tables(seed: int) -> tuple[list[list[str]], list[list[str]]]:
    rng = random.Random(seed)
    old = [[rng.choice(TOKENS) for _ in range(rng.randint(3, 5))] for _ in range(rng.randint(0, 5))]
    cards = [c for m in old for c in m]
    rng.shuffle(cards)
    cards = cards[: len(cards) - rng.randint(0, 2)]  # some may go back to the hand (joker swaps)
    cards += [rng.choice(TOKENS) for _ in range(rng.randint(0, 6))]  # played from hand
    rng.shuffle(cards)
    new: list[list[str]] = []
    while cards:
        size = min(len(cards), rng.randint(1, 5))
        new.append(cards[:size])
        cards = cards[size:]
    return old, new


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 10**9))
def test_random_tables_replay_and_keep_the_most_cards(seed: int) -> None:
    old, new = _random_tables(seed)
    plan = check_plan([" ".join(m) for m in old], [" ".join(m) for m in new])
    kept = sum(
        sum((_bag(plan.new[j]) & _bag(plan.old[i])).values())
        for j, i in enumerate(plan.origin)
        if i is not None
    )
    weights = [[sum((_bag(n) & _bag(o)).values()) for o in plan.old] for n in plan.new]
    best = subset_dp(weights) if plan.old and plan.new else 0
    assert kept == best


def test_swap_steps_come_first_and_free_the_diamond() -> None:
    """A Black Heart diamond swap is its own first step; the freed diamond is then played from hand."""
    from rummyai.hint.steps import plan_with_swaps

    old = ["7S 7C QD=7"]
    new = ["7S 7C 7H", "QD=7S 8S 9S"]
    (qd, seven) = parse_cards("QD 7H")
    plan = plan_with_swaps(old, new, [(0, qd, seven, None)])
    assert [s.action for s in plan.steps] == ["swap", "play"]
    assert plan.steps[0].cards == (seven,) and plan.steps[0].target == 0
    assert "QD" in plan.steps[0].text and "7H" in plan.steps[0].text
    assert Counter(plan.steps[1].cards) == Counter(parse_cards("QD 8S 9S"))
    # the swap changed the meld; the diamond is laid again, so it is not taken back
    assert plan.fates == ("changed",) and plan.taken == ()


def test_swap_of_an_escort_diamond() -> None:
    from rummyai.hint.steps import plan_with_swaps

    (jd, six) = parse_cards("JD 6H")
    plan = plan_with_swaps(["KS/2H KC/3H KS/JD=5H"], ["KS/2H KC/3H KS/6H"], [(0, jd, six, None)])
    assert [s.action for s in plan.steps] == ["swap"]  # the diamond is in the hand already
    assert plan.fates == ("changed",) and plan.taken == (jd,)


def _steps(**position: object) -> list[tuple[str, str]]:
    import rummyai

    return [(s.action, s.text) for s in rummyai.hint(alternatives=0, **position).best.plan.steps]  # type: ignore[arg-type]


def test_a_joker_moving_within_its_meld_has_a_step_before_the_card_that_needs_its_place() -> None:
    steps = _steps(variant="rummikub", hand="8C", table="JK=3C 4C 5C 6C")
    assert steps == [
        ("move", "Move JK from 3C to 7C within meld 1 (JK=3C 4C 5C 6C)"),
        ("play", "Add 8C from your hand to meld 1"),  # named with its cards where first named
    ]
    group_to_run = _steps(variant="rummy-board", hand="2S", table="5S 5H 5D | 5S 5C JK=5 JK=5")
    assert group_to_run == [
        ("move", "Move 5C from meld 2 (5S 5C JK=5 JK=5) to meld 1 (5S 5H 5D)"),
        ("move", "Move JK from 5 to 3S, JK from 5 to 4S within meld 2"),
        ("play", "Add 2S from your hand to meld 2"),
    ]


def test_an_unstated_joker_meaning_that_stays_is_no_step() -> None:
    assert _steps(variant="rummikub", hand="8C", table="5C JK 7C") == [
        ("play", "Add 8C from your hand to meld 1 (5C JK 7C)")
    ]


def test_each_palace_joker_is_laid_right_after_its_own_swap() -> None:
    steps = _steps(
        variant="rummy-palace",
        hand="JS 4H 9C",
        table="7D 7H 7C JK=7 | 3H JK=4H JK=5H 6H 7H | 7C JK=8C JK=9C TC",
    )
    actions = [action for action, _ in steps]
    assert actions == ["swap", "play", "swap", "play"]
    assert "JK=8H (the joker)" in steps[1][1] and "JK=9H (the joker)" in steps[3][1]


def test_a_black_heart_diamond_freed_by_the_committed_card_is_laid_right_after_its_swap() -> None:
    steps = _steps(variant="black-heart", hand="6S 4S 2C 4C", table="5S QD=6S 7S", committed="6S")
    assert steps[0][0] == "swap" and steps[1] == ("play", "Lay down 2C QD=3C 4C from your hand as new meld 2")


def test_before_opening_no_half_meld_is_put_down_ahead_of_the_opening() -> None:
    steps = _steps(variant="rhine", hand="TS TC QS QH QD QC", table="TH JK=JH QH KH", opened=False)
    assert steps[0] == ("play", "Lay down QS QH QD QC from your hand as new meld 3")
    assert [action for action, _ in steps[1:]] == ["move", "play"]


def test_a_whole_new_meld_with_escorts_is_laid_down_in_one_step() -> None:
    steps = _steps(variant="black-heart", hand="TS JS QS 4H 4H", table="3C 4C 5C", opened=False)
    assert steps == [("play", "Lay down TS JS/4H QS/4H from your hand as new meld 2")]


@pytest.mark.parametrize(
    ("options", "hand", "table", "first", "then"),
    [
        ([], "5H 6H 7H 8H JK", "", "5H 6H 7H", "Add 8H JK from your hand to new meld 1"),
        # a start meld holding the same cards is kept: the opening lies in the new meld
        ([], "5H 6H 7H 8H JK", "4H 5H 6H 7H 8H", "5H 6H 7H", "Add 8H JK from your hand to new meld 2"),
        (
            ["rhine.wild_twos"],
            "2H 5H 6H 7H 8H 9C 9D",
            "9S 9H 2C=9",
            "5H 6H 7H",
            "Add 2H 8H from your hand to new meld 2",
        ),
    ],
)
def test_a_rhine_opening_lays_its_natural_qualifying_meld_before_the_wild_beside_it(
    options: list[str], hand: str, table: str, first: str, then: str
) -> None:
    # §1.4: the qualifying meld has 3 naturals and no wild; the wild joins it afterwards, with a
    # natural, so the step that opens may not hold the wild
    steps = _steps(variant="rhine", hand=hand, table=table, opened=False, options=options)
    assert steps[0][1].startswith(f"Lay down {first} from your hand as new meld")
    assert steps[1][1].startswith(then)


def test_a_meld_a_swap_changes_is_not_reported_as_left_as_it_is() -> None:
    import rummyai

    advice = rummyai.hint("rummy-palace", "4S 4H 3D 3C", "3S JK=3 3H", alternatives=0)
    plan = advice.best.plan
    assert plan.melds_with("changed") == [0] and not plan.melds_with("kept")
    assert "as it is" not in advice.best.explanation


def test_a_black_heart_diamond_swap_alone_takes_the_diamond_back_and_does_not_open() -> None:
    # §6.4: a diamond swap is allowed before opening and does not count as opening
    import rummyai

    advice = rummyai.hint(
        "black-heart",
        "6S JS 2H 2H 9H 2C 2C 9C",
        "2S 3S 4S | 4C KD=5C 6C | JD JC/AH JS/5H",
        opened=False,
        score=420,
        alternatives=0,
    )
    plan = advice.best.plan
    assert [s.action for s in plan.steps] == ["swap"]
    assert plan.to_json()["taken"] == ["JD"] and plan.melds_with("changed") == [2]
    assert "open with" not in advice.best.explanation


def test_a_rhine_opening_lays_its_whole_qualifying_meld_before_a_joker_meld() -> None:
    # §1.4: 6D 6D JK=6 cannot open (a wild, two naturals); the group of sevens can
    steps = _steps(variant="rhine", hand="7S 7C 7H 6D 6D JK", opened=False)
    assert steps[0][1].startswith("Lay down 7S 7H 7C from your hand")
    assert steps[1][1].startswith("Lay down 6D 6D JK=6")


def test_a_rearranged_table_keeps_each_meld_where_it_was_and_new_melds_follow() -> None:
    import rummyai
    from rummyai.cards import meld_str

    best = rummyai.hint(
        variant="rummikub",
        hand="7C 7D 4S 8H 2S JK",
        table="3S 4S 5S 6S 7S | 7H 8H 9H TH | 2C 3C 4C | 7S 7H 7D",
    ).best
    assert [meld_str(m) for m in best.melds] == [
        "4S 5S 6S", "7H 8H 9H", "2C 3C 4C", "7S 7H 7D", "2S 3S 4S", "7S 7D 7C", "8H JK=9H TH"
    ]  # fmt: skip
    assert best.plan.origin == (0, 1, 2, 3, None, None, None)
    assert [s.text for s in best.plan.steps] == [
        "Move 3S from meld 1 (3S 4S 5S 6S 7S) to new meld 5 (2S 3S 4S)",
        "Move 7S from meld 1 to new meld 6 (7S 7D 7C)",  # its cards were written in the step before
        "Move TH from meld 2 (7H 8H 9H TH) to new meld 7 (8H JK=9H TH)",
        "Put 2S 4S from your hand into new meld 5",
        "Put 7D 7C from your hand into new meld 6",
        "Put 8H JK from your hand into new meld 7",
    ]


def test_tied_melds_keep_the_start_order_the_table_is_laid_out_in() -> None:
    import rummyai

    # two start melds hold the same queens: the matching ties, and the steps read it as the table does
    hint = rummyai.hint(variant="rummikub", hand="2S QS 2C", table="JK=Q QH QD | QH QS QD", alternatives=3)
    for suggestion in (hint.best, *hint.alternatives):
        origin = [i for i in suggestion.plan.origin if i is not None]
        assert origin == sorted(origin) and origin == list(suggestion.plan.origin[: len(origin)])
        for step in suggestion.plan.steps:
            if step.target is not None and suggestion.plan.origin[step.target] is not None:
                assert f"meld {suggestion.plan.origin[step.target] + 1}" in step.text


def test_a_wild_changes_its_role_after_the_cards_leaving_its_meld_and_before_those_coming_in() -> None:
    from rummyai.variants import get_variant

    plan = plan_steps(
        ["7D 8D 9D JK=TD", "6H 7H 8H"],
        ["7D 8D JK=9D 6D", "9S 9H 9D", "6H 7H 8H"],
        variant=get_variant("rummikub"),
    )
    assert [s.text for s in plan.steps] == [
        "Move 9D from meld 1 (7D 8D 9D JK=TD) to new meld 2 (9S 9H 9D)",
        "Move JK from TD to 9D within meld 1",
        "Add 6D from your hand to meld 1",
        "Put 9S 9H from your hand into new meld 2",
    ]


def test_a_diamond_swapped_out_then_swapped_into_another_meld_is_not_taken_back() -> None:
    import rummyai

    best = rummyai.hint(
        variant="black-heart",
        hand="5H 9H KC",
        table="KD=JD QD=JS/7H JC/9H | 3H 4H JD=5H 6H 7H | 2C 3C 4C",
        alternatives=0,
    ).best
    assert [s.action for s in best.plan.steps[:2]] == ["swap", "swap"]
    assert best.plan.taken == () and "back" not in best.explanation


def test_an_opening_the_move_takes_apart_is_laid_first_then_moved_on() -> None:
    import rummyai

    # Rhine: the kings qualify (three naturals from the hand), then each goes to its run (§1.4)
    table = "9S TS JS QS | 9H TH JH QH | 9C TC JC QC"
    best = rummyai.hint(variant="rhine", hand="KS KH KC AS", table=table, opened=False, alternatives=0).best
    steps = best.to_json()["steps"]
    assert [(s["action"], s["from_meld"], s["to_meld"], s.get("opening")) for s in steps] == [
        ("open", None, None, 0),
        ("play", None, 0, 0),
        ("play", None, 1, 0),
        ("play", None, 2, 0),
        ("play", None, 0, None),
    ]
    assert steps[0]["cards"] == ["KS", "KH", "KC"] and steps[0]["text"].startswith(
        "Lay down KS KH KC from your hand as your opening meld: this opens"
    )
    assert steps[1]["text"] == "Move KS from your opening meld to meld 1 (9S TS JS QS)"
    assert best.explanation.startswith("Most cards: open with")
    # the data still reads against the start table: the hand gives exactly the cards played
    from_hand = Counter(c for s in steps if s["from_meld"] is None for c in s["cards"])
    to_hand = Counter(c for s in steps if s["to_meld"] is None and s["action"] != "swap" for c in s["cards"])
    assert from_hand - to_hand == Counter(best.to_json()["played"])


def test_a_large_rhine_opening_comes_before_any_table_move() -> None:
    import rummyai

    hand = "AS 4S 6S 2H 3H JH KH KH 5D 8D 9D AC 2C KC"
    table = "JK=2 2H 2S | 7C 7H 7S JK=7 | AD 2D 3D 4D | 6D 6S 6H | 8C 8S 8H | QH QD JK=Q | JK=9C TC JC QC | AH AS AD | QH QD QS QC"
    best = rummyai.hint(variant="rhine", hand=hand, table=table, opened=False, alternatives=0).best
    first = best.plan.steps[0]
    assert first.action == "open" and first.source is None
    # the kings' meld takes the queen and the ace of hearts and keeps one king: a new meld at the end
    assert first.text.endswith("; it ends as new meld 10") and best.melds[9] == parse_meld("QH KH AH")
    assert all(step.action != "open" for step in best.plan.steps[1:])


def test_a_black_court_card_is_laid_with_its_escort_as_the_table_writes_it() -> None:
    import rummyai

    best = rummyai.hint(
        variant="black-heart", hand="KC 4H 9S QS 6H 2H", table="AC 2C 3C | 9S 9C 9C", alternatives=0
    ).best
    assert "Add KC/2H from your hand to meld 1 (AC 2C 3C)" in [s.text for s in best.plan.steps]
    assert ["KC/2H", "AC", "2C", "3C"] in [[str(s) for s in m] for m in best.melds]


def _replayed_by_index(
    data: dict[str, object], start: list[list[str]]
) -> tuple[list[Counter[str]], Counter[str]]:
    """Carry a suggestion's JSON steps out by their indexes alone, as a frontend that knows nothing
    of opening melds would: (the new table's melds as card bags, the cards the hand gave)."""
    origin: list[int | None] = data["origin"]  # type: ignore[assignment]
    before = [Counter(t.split("=")[0] for t in meld) for meld in start]
    bags = [Counter(before[i]) if i is not None else Counter() for i in origin]
    given: Counter[str] = Counter()
    for step in data["steps"]:  # type: ignore[attr-defined]
        cards = Counter(step["cards"])
        if step["from_meld"] is None:
            given += cards
        else:
            for bag, i in zip(bags, origin, strict=True):
                if i == step["from_meld"]:
                    bag -= cards
        if step["to_meld"] is None:
            given -= cards
        else:
            bags[step["to_meld"]] += cards
    return bags, given


@pytest.mark.parametrize(
    ("options", "hand", "table", "opening"),
    [
        ([], "6H 6C 6C 9H 9C", "JK=6 6S 6D", "6H 6C 6C"),  # the opening grows around a start meld's cards
        (["rhine.points_qualify"], "8S 9S 9S TS JS", "TD TC TS JK=T", "9S TS JS"),  # the hand's TS opens
    ],
)
def test_a_rhine_opening_is_laid_from_the_hand_before_the_table_is_touched(
    options: list[str], hand: str, table: str, opening: str
) -> None:
    import rummyai

    best = rummyai.hint(
        variant="rhine", hand=hand, table=table, opened=False, options=options, alternatives=0
    ).best
    first = best.plan.steps[0]
    assert first.action == "open" and first.cards == tuple(sorted_cards(parse_cards(opening)))
    assert best.explanation.startswith("Most cards: open with")
    data = best.to_json()
    bags, given = _replayed_by_index(data, [m.split() for m in table.split(" | ")])
    assert bags == [Counter(t.split("=")[0] for t in meld) for meld in data["melds"]]
    assert given == Counter(data["played"])


def test_a_hand_meld_like_a_start_meld_is_laid_as_a_new_meld() -> None:
    import rummyai

    best = rummyai.hint(variant="rhine", hand="2H 3H 4H", table="2H 3H 4H | 3C 4C 5C", opened=False).best
    assert [s.text for s in best.plan.steps] == ["Lay down 2H 3H 4H from your hand as new meld 3"]


def test_several_opening_melds_are_named_by_letter_and_open_together() -> None:
    import rummyai

    hint = rummyai.hint(
        variant="rhine",
        hand="5S 6S 7S 8S 9S 4H 4H 8H 5D 6D TD 2C 3C 5C QC",
        table="4C 5C 6C 7C 8C | 2D 3D JK=4D",
        opened=False,
        options=["rhine.points_qualify", "extra_packs=1"],
    )
    held = next(a for a in hint.alternatives if a.label == "hold_back")
    opens = [s.text for s in held.plan.steps if s.action == "open"]
    assert opens[0].startswith("Lay down 7S 8S 9S from your hand as opening meld A;")
    assert "opening melds A-B open together, and the table may be touched after them" in opens[1]
    assert any(s.text.startswith("Leave ") for s in held.plan.steps)
