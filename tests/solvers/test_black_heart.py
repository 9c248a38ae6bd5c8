"""Black Heart Rum in the CP-SAT solver: against the exhaustive reference, and fixed cases."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummyai.cards import Slot, card_str, parse_cards
from rummyai.engine.discard import DiamondSwap, LayOff, MeldCards, Opening
from rummyai.engine.discard_setup import build_state
from rummyai.engine.game import apply, validate
from rummyai.engine.state import GameState, TableMeld
from rummyai.errors import IllegalMoveError
from rummyai.melds import analyze_meld
from rummyai.solvers import Position, Solution, black_heart, make_position, solve
from rummyai.solvers.black_heart import swap_states
from rummyai.solvers.check import check_solution
from rummyai.solvers.reference import reference_solve
from rummyai.variants import get_variant

BH = "black-heart"
TABLE_POOL = [
    "TC JC/2H QC/3H",
    "7S 7C 7H",
    "5H 6H 7H",
    "QS/4H QC/5H QD",
    "KS/AH AS 2S",
    "9S TS QD=JS/8H",
    "JD QD KD",
    "3C 3S KD=3H",
    "7S 7C QD",
    "3S 4S QD=5S",
    "TC JC/4H QC/JD",
    "QC/2H QS/7H KD=QD",
    "JS/2H JC/3H JD",
    "KS/5H KC/6H KD",
    "5H 6H JD",
    "9C TC KD=JC/4H",
]


def _case(seed: int, swaps: bool = False) -> tuple[list[str], list[str], bool, int, str, list[str]]:
    """A small random position: up to two table melds and a hand drawn near them. With `swaps`
    the table holds a swappable diamond and the hand a card of that meld's ranks or a heart."""
    rng = random.Random(seed)
    variant = get_variant(BH)
    left = Counter({c: n for c, n in enumerate(variant.copies) if n})
    table: list[str] = []
    pool = [t for t in TABLE_POOL if "D" in t and t != "JD QD KD"] if swaps else TABLE_POOL
    picks = [rng.choice(pool), *rng.sample(TABLE_POOL, rng.randint(0, 1))] if swaps else []
    for text in picks or rng.sample(TABLE_POOL, rng.randint(0, 2)):
        need = Counter(c for slot in make_position(BH, "", [text]).table[0].slots for c in slot.cards())
        if all(left[c] >= n for c, n in need.items()):
            table.append(text)
            left -= need
    low = rng.randint(1, 10)
    near = [c for c in left.elements() if (c % 13 + 1 - low) % 13 < 4 or c in (36, 37, 38) or 13 <= c <= 22]
    hand = [card_str(c) for c in rng.sample(near, min(len(near), rng.randint(3, 7)))]
    if swaps and table:
        info = make_position(BH, "", [table[0]]).table[0]
        ranks = {c % 13 for slot in info.slots for c in slot.cards()}
        hand = hand[: rng.randint(2, 5)]
        free = left - Counter(parse_cards(" ".join(hand)))
        fits = [c for c in free.elements() if c % 13 in ranks or 13 <= c <= 22]
        hand = [*hand, card_str(rng.choice(fits))]
    opened = rng.random() < 0.4
    score = rng.choice([-20, 0, 50, 100, 200, 300, 400, 500])
    objective = rng.choice(["cards", "points"] + (["penalty"] if swaps else []))
    committed = [rng.choice(hand)] if rng.random() < 0.2 else []
    return hand, table, opened, score, objective, committed


def _check_turn(position: Position, solution: Solution, score: int) -> None:
    """Old melds only grow (their slots kept, escorts included) but for the diamonds swapped out;
    a play that places cards (not only swaps) before opening meets the opening chart."""
    v = position.variant
    rest = list(solution.melds[len(position.table) :])
    placed = bool(rest)
    for j, info in enumerate(position.table):
        swaps = [s for s in solution.swaps if s[0] == j]
        if not swaps:
            assert not Counter(info.slots) - Counter(solution.melds[j]), f"table meld {info} was broken"
        old = Counter(info.cards) - Counter(d for _, d, _, _ in swaps)
        new = Counter(analyze_meld(v, solution.melds[j]).cards)
        assert not old - new, f"table meld {info} was broken"
        escorts = sum(1 for *_, e in swaps if e is not None)
        placed = placed or new.total() > len(info.cards) + escorts
    if position.opened or not placed or solution.cards_played == len(position.hand):
        return
    infos = [analyze_meld(v, m) for m in rest]
    if any(i.kind == "royale" for i in infos):
        return
    line = [step for step in position.variant.opening_chart if score >= step.min_score][-1]
    sizes = sorted((len(i.cards) for i in infos), reverse=True)
    assert len(sizes) >= line.melds and sum(sizes[: line.melds]) >= line.min_cards


def _key(solution: object, objective: str) -> tuple[int, int]:
    cards, points = solution.cards_played, solution.points_played  # type: ignore[attr-defined]
    return (cards, points) if objective == "cards" else (points, cards)


def _compare(seed: int, swaps: bool) -> None:
    """The model and the exhaustive reference agree on the objective; the model's play is valid
    (conservation, chart, committed cards) and, without committed cards, the engine replays it."""
    hand, table, opened, score, objective, committed = _case(seed, swaps)
    kwargs = {"opened": opened, "objective": objective, "score": score, "committed": committed}
    try:
        slow = reference_solve(BH, hand, table, **kwargs)
    except IllegalMoveError:
        with pytest.raises(IllegalMoveError):
            solve(BH, hand, table, **kwargs)
        return
    fast = solve(BH, hand, table, **kwargs)
    assert _key(fast, objective) == _key(slow, objective), (
        hand,
        table,
        kwargs,
        fast.table_text(),
        slow.table_text(),
    )
    assert fast.value == slow.value
    position = make_position(BH, hand, table, opened)
    _check_swaps(position, fast)
    _check_swaps(position, slow)
    _check_turn(position, fast, score)
    assert not Counter(parse_cards(" ".join(committed))) - Counter(fast.played)
    assert fast.status == "optimal"
    if not committed:
        _replay(position, fast, score)


@settings(max_examples=70, deadline=None)
@given(st.integers(0, 10**9))
def test_matches_reference(seed: int) -> None:
    _compare(seed, swaps=False)


@settings(max_examples=70, deadline=None)
@given(st.integers(0, 10**9))
def test_matches_reference_with_swappable_diamonds(seed: int) -> None:
    _compare(seed, swaps=True)


def test_escorts_example() -> None:
    solution = solve(BH, "QS 6H KS 3H AS", opened=False, score=0)
    assert solution.cards_played == 5
    assert solution.points_played == 10 + 10 + 5 + 5 + 15
    (meld,) = solution.melds
    assert sorted(s.card for s in meld if s.escort is not None) == parse_cards("QS KS")


def test_royale_opens_at_any_score() -> None:
    solution = solve(BH, "JD QD KD 2S 9C", opened=False, score=600, objective="points")
    assert solution.table_text() == "JD QD KD"
    assert solution.points_played == 150
    # at 600 nothing else opens: two melds of 10 cards are out of reach
    assert solve(BH, "7S 7C 7H 2S 9C", opened=False, score=600).cards_played == 0


def test_layoff_of_black_court_card_with_escort() -> None:
    solution = solve(BH, "KC 5H 9S", "TC JC/2H QC/3H", opened=True)
    assert solution.table_text() == "TC JC/2H QC/3H KC/5H"
    assert solution.played_text() == "5H KC"
    # not opened at score 0: a lay-off cannot open; at a score below 0 it can
    assert solve(BH, "KC 5H 9S", "TC JC/2H QC/3H", opened=False).cards_played == 0
    assert solve(BH, "KC 5H 9S", "TC JC/2H QC/3H", opened=False, score=-5).cards_played == 2


def test_chart_lines_and_black_heart_out() -> None:
    hand = "4S 5S 6S 7S 8C 8S 8H QD 9C"
    assert solve(BH, hand, opened=False, score=300).cards_played == 8
    assert solve(BH, hand, opened=False, score=400).cards_played == 0
    # the whole hand played on the first play needs no chart line
    assert solve(BH, "4S 5S 6S 7S", opened=False, score=500).cards_played == 4


def test_a_cut_search_still_plays_the_committed_card(monkeypatch: pytest.MonkeyPatch) -> None:
    # 22 cards in hand: a limit this short stops the search before any play; playing nothing
    # would leave the committed JS in hand, so the first play that places it is the answer,
    # even when the grace past the limit (none here, as on a loaded machine) runs out first
    monkeypatch.setattr(black_heart, "COMMITTED_GRACE", 0.0)
    hand = "5S 5S 6S 9S TS JS JS QS QS 2H 8H 8H 9H 9H TH QD KD JC JC QC QC KC"
    table = (
        "2S 3S 4S | 6C 7C 8C 9C TC | AC 2C 3C | AS 2S 3S 4S | 4C 5C 6C | 3H 4H 5H 6H 7H | 7S 8S 9S | "
        "5H 6H 7H | AH 2H 3H 4H | 2C 3C 4C 5C | TC TH TS | 7C 8C 9C | 6S 7S 8S | AH AC AS"
    )
    for limit in (0.001, 0.05):
        solution = solve(BH, hand, table, opened=True, committed="JS", objective="penalty", time_limit=limit)
        assert parse_cards("JS")[0] in solution.played
        check_solution(make_position(BH, hand, table), solution)


def test_committed_card_must_be_played() -> None:
    solution = solve(BH, "7S 7C 7H 8H 9H TH", opened=True, committed="7H", objective="cards")
    assert 19 in solution.played  # 7H
    with pytest.raises(IllegalMoveError):
        solve(BH, "7S 7C 2H", opened=True, committed="2H")


def test_diamond_wilds_stay_in_their_scopes() -> None:
    assert solve(BH, "7S 8S JD").cards_played == 0  # J♦ stands only for a heart
    assert solve(BH, "5H 6H QD").cards_played == 0  # Q♦ stands only for a spade or club
    assert solve(BH, "7S 7C JD").table_text() == "7S 7C JD=7H"
    assert solve(BH, "5H 6H KD").cards_played == 3  # K♦ stands for any card
    # a wild standing for a black court card takes an escort; J♦ may be that escort
    solution = solve(BH, "QS QC KD JD 3H", objective="cards")
    assert solution.cards_played == 5
    check_solution(make_position(BH, "QS QC KD JD 3H"), solution)


def test_json_takes_the_score() -> None:
    from rummyai.solvers import solve_json

    position = {"variant": BH, "hand": "7S 7C JD 2H", "opened": False}
    assert solve_json({**position, "score": 0})["cards_played"] == 3
    assert solve_json({**position, "score": 100})["cards_played"] == 0
    assert "error" in solve_json({**position, "score": "high"})


# ------------------------------------------------------------------------ diamond swaps (§6.5)
def _kept(solution: Solution) -> list[int]:
    """Diamonds swapped back, net of those that served a later swap, that are not on the new
    table (they went to the hand)."""
    on_table = Counter(c for meld in solution.melds for slot in meld for c in slot.cards())
    freed = Counter(d for _, d, _, _ in solution.swaps)
    served = Counter(c for _, _, r, e in solution.swaps for c in (r, e) if c is not None)
    return [d for d in (freed - served).elements() if not on_table[d]]


def _check_swaps(position: Position, solution: Solution) -> None:
    """Melds valid; table cards conserved (new = old + played - diamonds kept); net counts."""
    variant = position.variant
    kept = _kept(solution)
    check_solution(position, solution)
    new: Counter[int] = Counter()
    for meld in solution.melds:
        new.update(analyze_meld(variant, meld).cards)
    old = Counter({c: n for c, n in enumerate(position.table_counts()) if n})
    assert new == old + Counter(solution.played) - Counter(kept)
    assert not Counter(solution.played) - Counter(position.hand)
    assert solution.cards_played == len(solution.played) - len(kept)
    hv = variant.hand_values
    infos = [analyze_meld(variant, m) for m in solution.melds[len(position.table) :]]
    royales = sum(1 for i in infos if i.kind == "royale")
    gross = sum(hv[c] for c in solution.played) - sum(hv[c] for c in kept)
    assert solution.points_played == gross + (150 - 45) * royales


def _take(state: GameState, pools: list[list[int]], kind: int) -> int:
    """A physical id of `kind` from the first pool that has one (removed from it)."""
    for pool in pools:
        for i in pool:
            if state.variant.deck[i] == kind:
                pool.remove(i)
                return i
    raise AssertionError(f"no id of {card_str(kind)} left")


def _table_meld(state: GameState, meld: Sequence[Slot], pools: list[list[int]]) -> TableMeld:
    ids = tuple(_take(state, pools, s.card) for s in meld)
    escorts = tuple(None if s.escort is None else _take(state, pools, s.escort.card) for s in meld)
    return TableMeld(ids, tuple(s.meaning for s in meld), escorts)


def _grown_meld(state: GameState, meld: Sequence[Slot], old: TableMeld, own: list[int]) -> TableMeld:
    """A start meld after lay-offs: each old card keeps its own escort; new slots come from `own`."""
    deck = state.variant.deck
    pairs = list(zip(old.ids, old.escorts or (None,) * len(old.ids), strict=True))
    ids: list[int] = []
    escorts: list[int | None] = []
    for s in meld:
        want = None if s.escort is None else s.escort.card
        pair = next(
            (p for p in pairs if deck[p[0]] == s.card and (None if p[1] is None else deck[p[1]]) == want),
            None,
        )
        if pair is not None:
            pairs.remove(pair)
            ids.append(pair[0])
            escorts.append(pair[1])
        else:
            ids.append(_take(state, [own], s.card))
            escorts.append(None if want is None else _take(state, [own], want))
    return TableMeld(tuple(ids), tuple(s.meaning for s in meld), tuple(escorts))


def _replay(position: Position, solution: Solution, score: int) -> None:
    """The engine accepts the solution: each swap in order, then melds and lay-offs as one bundle."""
    table = [" ".join(str(s) for s in info.slots) for info in position.table]
    hand = " ".join(card_str(c) for c in position.hand)
    state = build_state(BH, [hand, ""], table, opened=[position.opened, True], scores=[score, 0])
    deck = state.variant.deck
    for j, d, r, e in solution.swaps:
        diamond = next(i for i in state.round.table[j].all_ids() if deck[i] == d)
        held = [list(state.round.hands[0])]
        swap = DiamondSwap(j, diamond, _take(state, held, r), None if e is None else _take(state, held, e))
        assert validate(state, swap) is None, (swap, validate(state, swap))
        state = apply(state, swap)
    assert state.round.opened[0] == position.opened  # swaps alone do not open
    own = list(state.round.hands[0])
    melds = [MeldCards(_table_meld(state, m, [own])) for m in solution.melds[len(position.table) :]]
    lays = []
    for j, meld in enumerate(solution.melds[: len(position.table)]):
        old = state.round.table[j]
        if Counter(c for s in meld for c in s.cards()) != Counter(deck[i] for i in old.all_ids()):
            lays.append(LayOff(j, _grown_meld(state, meld, old, own)))
    if melds or lays:
        move = Opening((*melds, *lays))
        assert validate(state, move) is None, (solution.table_text(), validate(state, move))


def test_swap_frees_a_diamond_that_plays_elsewhere() -> None:
    solution = solve(BH, "7H 5S 6S", "7S 7C QD=7")
    assert solution.swaps == ((0, parse_cards("QD")[0], parse_cards("7H")[0], None),)
    assert solution.cards_played == 3 and solution.played_text() == "5S 6S 7H"
    assert solution.melds[0] == analyze_meld(get_variant(BH), "7S 7C 7H").slots
    position = make_position(BH, "7H 5S 6S", "7S 7C QD=7")
    _check_swaps(position, solution)
    _replay(position, solution, 0)
    # without the swap only the 7H could be laid off
    assert solve(BH, "7H 5S 6S", "7S 7C 7H").cards_played == 1


def test_swap_before_opening_is_allowed_and_does_not_open() -> None:
    # the swap alone (penalty: A♥ 15 out, J♦ 10 in) is made before opening and leaves it closed
    solution = solve(BH, "AH 2C 5S", "TC JC/4H QC/JD", opened=False, objective="penalty")
    assert solution.swaps == ((0, parse_cards("JD")[0], parse_cards("AH")[0], None),)
    _replay(make_position(BH, "AH 2C 5S", "TC JC/4H QC/JD", opened=False), solution, 0)
    # a swap is no opening, so the lay-off of 7S after it is still barred
    assert solve(BH, "7H 7S 2C", "7S 7C QD=7", opened=False).cards_played == 0
    assert solve(BH, "7H 7S 2C", "7S 7C QD=7", opened=True).cards_played == 2
    # the freed Q♦ completes an opening meld (3 cards at score 0)
    position = make_position(BH, "7H 5S 6S 2C", "7S 7C QD=7", opened=False)
    solution = solve(BH, "7H 5S 6S 2C", "7S 7C QD=7", opened=False)
    assert solution.cards_played == 3 and len(solution.swaps) == 1
    _replay(position, solution, 0)
    # at score 100 the chart wants four cards in one meld: the freed Q♦ does not make them
    assert solve(BH, "7H 5S 6S 2C", "7S 7C QD=7", opened=False, score=100).cards_played == 0


def test_no_swap_from_a_royale() -> None:
    v = get_variant(BH)
    (royale,) = make_position(BH, "", "JD QD KD").table
    assert [s.steps for s in swap_states(v, royale, [2] * 53)] == [()]
    assert solve(BH, "5S 6S 2C", "JD QD KD").cards_played == 0
    # the same three diamonds as a group of jacks (not a Royale) may be swapped
    solution = solve(BH, "JS 5S 6S", "JD QD=JS/AH KD=JC/2H")
    assert solution.cards_played == 3 and solution.swaps
    _replay(make_position(BH, "JS 5S 6S", "JD QD=JS/AH KD=JC/2H"), solution, 0)


def test_swap_of_a_diamond_escort_for_a_heart() -> None:
    solution = solve(BH, "4H 7H 8H 2C", "TC JC/4H QC/JD")
    assert solution.cards_played == 3
    assert solution.swaps == ((0, parse_cards("JD")[0], parse_cards("4H")[0], None),)
    assert "JD=6H 7H 8H" in solution.table_text() or "7H 8H JD=9H" in solution.table_text()
    _replay(make_position(BH, "4H 7H 8H 2C", "TC JC/4H QC/JD"), solution, 0)
    # only a natural heart replaces a diamond escort
    assert solve(BH, "4S 7H 8H 2C", "TC JC/4H QC/JD").cards_played == 0


def test_black_court_replacement_brings_an_escort() -> None:
    # K♦ stands for Q♦ with no escort: Q♣ in its place needs one (T♥, or J♦ standing for a heart)
    for hand in ("QC TH 4S 5S", "QC JD 4S 5S"):
        solution = solve(BH, hand, "QC/2H QS/7H KD=QD")
        assert solution.cards_played == 4, hand
        (swap,) = solution.swaps
        assert swap[2:] == (parse_cards("QC")[0], parse_cards(hand)[1])
        _replay(make_position(BH, hand, "QC/2H QS/7H KD=QD"), solution, 0)
    # no heart: the queen cannot stand, so K♦ stays
    assert solve(BH, "QC 4S 5S", "QC/2H QS/7H KD=QD").cards_played == 0


def test_swapped_diamonds_escort_swaps_only_in_order() -> None:
    table = "JS/2H JC/3H JD | KS/4H KC/5H KD"
    # each swap needs an escort and only the other swap's diamond could be it: a cycle, no play
    assert solve(BH, "JS KC", table).cards_played == 0
    assert reference_solve(BH, "JS KC", table).cards_played == 0
    # a heart starts the chain: K♣/6H frees K♦, which escorts J♠, which frees J♦ (laid off)
    solution = solve(BH, "JS KC 6H", table)
    assert solution.cards_played == reference_solve(BH, "JS KC 6H", table).cards_played == 3
    _replay(make_position(BH, "JS KC 6H", table), solution, 0)


def test_committed_card_in_a_swap_commits_the_diamond() -> None:
    solution = solve(BH, "5S 8S 9S 2C", "3S 4S QD=5S", committed="5S")
    assert solution.cards_played == 3 and solution.swaps
    assert any(s.card == parse_cards("QD")[0] for m in solution.melds[1:] for s in m)
    # the freed Q♦ may go straight back onto the run it left, as 6S
    solution = solve(BH, "5S 2C", "3S 4S QD=5S", committed="5S")
    assert solution.table_text() == "3S 4S 5S QD=6S" and solution.cards_played == 1
    # the freed J♦ has nowhere to go: the committed 4H has no legal play
    for solver in (solve, reference_solve):
        with pytest.raises(IllegalMoveError):
            solver(BH, "4H 2C", "TC JC/4H QC/JD", committed="4H")
        assert solver(BH, "4H 2C", "TC JC/4H QC/JD").cards_played == 0


def test_swap_and_keep_counts_no_card() -> None:
    # 7H in for Q♦ and Q♦ kept: one card out, one in; the points objective does not want it
    # (Q♦ is worth 15 in hand, 7H 5), the penalty objective neither
    for objective in ("cards", "points", "penalty"):
        solution = solve(BH, "7H 2C", "7S 7C QD=7", objective=objective)
        assert not solution.swaps
        assert solution.played_text() == "7H"
    # a heart worth more than the J♦ it replaces as an escort: swap and keep the J♦
    solution = solve(BH, "AH", "TC JC/4H QC/JD", objective="penalty")
    assert solution.swaps == ((0, parse_cards("JD")[0], parse_cards("AH")[0], None),)
    assert solution.cards_played == 0 and solution.points_played == 15 - 10
    assert solution.value == 10  # the J♦ left in hand
    position = make_position(BH, "AH", "TC JC/4H QC/JD")
    _check_swaps(position, solution)
    _replay(position, solution, 0)


def test_swaps_in_the_json_answer() -> None:
    """`solve_json` lists the swaps a consumer must make before laying the melds."""
    from rummyai.solvers import solve_json

    answer = solve_json({"variant": BH, "hand": "7H 8S 9S", "table": "7S 7C QD=7"})
    assert answer["cards_played"] == 3
    assert answer["swaps"] == [{"meld": 0, "diamond": "QD", "replacement": "7H", "escort": None}]
    plain = solve_json({"variant": BH, "hand": "8S 9S TS", "table": "7S 7C 7H"})
    assert "swaps" not in plain


def test_chained_diamond_swaps_before_the_opening() -> None:
    """A swapped-out diamond escorts its own replacement by way of a stand-in: QD (freed by JS)
    takes KD's place, then QC takes QD's with KD as its escort; found by hypothesis (seed 226137)."""
    _compare(226137, swaps=True)
    table = ["QC/2H QS/7H KD=QD", "9S TS QD=JS/8H"]
    solution = solve(BH, "QC JS KC 7C", table, opened=False, score=0, objective="penalty")
    qd, kd, qc, js = parse_cards("QD KD QC JS")
    assert solution.swaps == ((1, qd, js, None), (0, kd, qd, None), (0, qd, qc, kd))
