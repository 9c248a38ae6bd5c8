"""Rummy Palace joker swaps are explicit in answers (§4.4-4.5): the solve JSON's ``swaps``, the
CLI's text, and the hint's ``swap`` steps; every answer replays move by move through the engine's
own rules (`rummyai.engine.game.validate`: a `JokerSwap` with the placement the entry names, then
the other melds and lay-offs) to the answer's table, and passes the solver's independent check."""

from __future__ import annotations

import io
import json
import random
from collections import Counter
from itertools import combinations
from typing import Any

import pytest

from rummyai.cards import JOKER, card_str, meld_str, parse_card, parse_cards, parse_meld
from rummyai.cli import main
from rummyai.engine.discard import Discard, JokerSwap, LayOff, MeldCards, Opening
from rummyai.engine.discard_melds import analyze
from rummyai.engine.discard_setup import build_state, hand_ids, hand_meld
from rummyai.engine.game import apply, validate
from rummyai.engine.state import GameState, TableMeld
from rummyai.errors import RummyError
from rummyai.hint import hint
from rummyai.hint.api import solve_request_json
from rummyai.melds import analyze_meld, opening_value
from rummyai.solvers import make_position, solve, solve_json, tile_solve
from rummyai.solvers.check import check_solution
from rummyai.solvers.palace_swaps import joker_swaps, read_swaps, swaps_in_order
from rummyai.solvers.position import Solution
from rummyai.solvers.random_positions import random_position
from rummyai.solvers.reference import reference_solve
from rummyai.variants import get_variant

PALACE = get_variant("rummy-palace")
Swap = dict[str, Any]


# ------------------------------------------------------------------------------ engine replay
def _step(state: GameState, move: Any) -> GameState:
    violation = validate(state, move)
    assert violation is None, f"the engine refuses {move}: {violation}"
    return apply(state, move)


def _tokens(meld: TableMeld) -> list[str]:
    return sorted(
        card_str(PALACE.deck[i]) + ("" if m is None else f"={m}")
        for i, m in zip(meld.ids, meld.meanings, strict=True)
    )


def _missing(state: GameState, table_index: int, final: list[str], later: list[str]) -> list[str]:
    """Tokens of `final` the engine's meld lacks, less the `later` ones (swap replacements)."""
    need = Counter(final) - Counter(_tokens(state.round.table[table_index])) - Counter(later)
    return sorted(need.elements())


def _grown(
    state: GameState, table_index: int, added: list[tuple[int, Any]], swapped: tuple[int, int] | None = None
) -> TableMeld:
    """Engine meld `table_index` with `added` (id, meaning) pairs; `swapped` (joker, replacement)
    when a swap in this very meld comes first."""
    old = state.round.table[table_index]
    ids, meanings = list(old.ids), list(old.meanings)
    if swapped is not None:
        k = ids.index(swapped[0])
        ids[k], meanings[k] = swapped[1], None
    return TableMeld((*ids, *(i for i, _ in added)), (*meanings, *(m for _, m in added)))


def _hand_slots(
    state: GameState, tokens: list[str], skip: frozenset[int] = frozenset()
) -> list[tuple[int, Any]]:
    """Hand ids (other than `skip`) for written slots, with their meanings."""
    out: list[tuple[int, Any]] = []
    used = set(skip)
    for token in tokens:
        slot = parse_meld(token)[0]
        i = next(i for i in state.round.hands[0] if PALACE.deck[i] == slot.card and i not in used)
        used.add(i)
        out.append((i, slot.meaning))
    return out


def _subsets(cards: list[tuple[int, Any]]) -> list[list[tuple[int, Any]]]:
    """Every sub-list of `cards`, the largest first."""
    return [list(c) for size in range(len(cards), -1, -1) for c in combinations(cards, size)]


def replay(hand: str, table: str, opened: bool, answer: dict[str, Any]) -> GameState:
    """Play `answer` through the engine: the opening (new melds without a swapped joker made with
    them), each swap with the placement its entry names, then the other lay-offs and melds.
    Returns the state after a legal discard, the table checked against the answer's."""
    start = [m.strip() for m in table.split("|")] if table.strip() else []
    state = build_state("rummy-palace", [hand, ""], table=start, opened=[opened, True])
    final = [sorted(m) for m in answer["melds"]]
    swaps: list[Swap] = answer.get("swaps", [])
    at = {i: i for i in range(len(start))}  # answer meld -> engine table meld
    made_by_swap = {s["to_meld"] for s in swaps if not s["lay_off"]}
    if not opened and answer["played"]:
        # the opening's parts of new melds that a swapped joker joins later
        found, parts = read_swaps(make_position(PALACE, hand, table, opened), _solution(answer))
        assert [s.to_json() for s in found] == swaps
        plays, laid, used = [], [], frozenset[int]()
        for j in range(len(start), len(final)):
            if j in made_by_swap:
                continue
            tokens = [str(slot) for slot in parts[j]] if j in parts else final[j]
            slots = _hand_slots(state, tokens, used)
            used |= {i for i, _ in slots}
            plays.append(MeldCards(TableMeld(tuple(i for i, _ in slots), tuple(m for _, m in slots))))
            laid.append(j)
        state = _step(state, Opening(tuple(plays)))
        at.update({j: len(start) + k for k, j in enumerate(laid)})
    for n, swap in enumerate(swaps):
        old = state.round.table[swap["meld"]]
        replacement = parse_card(swap["replacement"])
        group = analyze(PALACE, old).kind == "group"  # any group joker; a run's for that card
        joker = next(
            i
            for i, m in zip(old.ids, old.meanings, strict=True)
            if PALACE.deck[i] == JOKER and m is not None and (group or m.card() == replacement)
        )
        (new_card,) = hand_ids(state, 0, swap["replacement"])
        placed = parse_meld(swap["placed_as"])[0].meaning
        j = swap["to_meld"]
        later = [s["replacement"] for s in swaps[n + 1 :] if s["meld"] == j]
        later += [s["placed_as"] for s in swaps[n + 1 :] if s["to_meld"] == j]
        # the hand cards laid with the joker: as many as the engine takes (the rest follow later)
        if swap["lay_off"]:
            others = _missing(state, at[j], final[j], later)
            others.remove(swap["placed_as"])
            if j == swap["meld"]:
                others.remove(swap["replacement"])  # the swap itself puts it there
            cards = _hand_slots(state, [t for t in others if not t.startswith("JK")], frozenset({new_card}))
            same = (joker, new_card) if j == swap["meld"] else None
            places: list[Any] = [
                LayOff(at[j], _grown(state, at[j], [*chosen, (joker, placed)], same))
                for chosen in _subsets(cards)
            ]
        else:
            rest = sorted((Counter(final[j]) - Counter([swap["placed_as"], *later])).elements())
            cards = _hand_slots(state, rest, frozenset({new_card}))
            places = [
                MeldCards(TableMeld((*(i for i, _ in chosen), joker), (*(m for _, m in chosen), placed)))
                for chosen in _subsets(cards)
            ]
            at[j] = len(state.round.table)
        tries = [JokerSwap(swap["meld"], joker, new_card, place) for place in places]
        state = _step(state, next((t for t in tries if validate(state, t) is None), tries[0]))
    for j, tokens in enumerate(final):
        if j in at:
            missing = _missing(state, at[j], tokens, [])
            if missing:
                state = _step(state, LayOff(at[j], _grown(state, at[j], _hand_slots(state, missing))))
        else:
            state = _step(state, MeldCards(hand_meld(state, 0, " ".join(tokens))))
            at[j] = len(state.round.table) - 1
    assert sorted(_tokens(m) for m in state.round.table) == sorted(final)
    left = Counter(parse_cards(hand)) - Counter(parse_cards(" ".join(answer["played"])))
    assert Counter(PALACE.deck[i] for i in state.round.hands[0]) == left
    keep = next(i for i in state.round.hands[0] if PALACE.deck[i] != JOKER)
    return _step(state, Discard(keep))


def _solution(answer: dict[str, Any]) -> Solution:
    """The `Solution` an answer's JSON describes (the parts `read_swaps` reads)."""
    played = tuple(parse_cards(" ".join(answer["played"])))
    melds = tuple(tuple(parse_meld(" ".join(m))) for m in answer["melds"])
    return Solution(played, melds, answer["status"], "cards", len(played), len(played), 0, 0.0)


# ------------------------------------------------------------------------------ the cases
# (why, hand, table, opened, expected swaps as (meld, replacement, to_meld, placed_as, lay_off))
SWAPS = [
    (
        "a: opened, 7H takes the run joker's place, the joker starts 2C 3C JK=4C",
        "7H 2C 3C 9D",
        "5H 6H JK=7H 8H",
        True,
        [(0, "7H", 1, "JK=4C", False)],
    ),
    (
        "a: opened, two run jokers swapped and laid off at the run's low end, inside out",
        "TH JH 4D 9S",
        "9H JK=TH JK=JH QH | 4C 4S JK=4",
        True,
        [(0, "TH", 0, "JK=8H", True), (0, "JH", 0, "JK=7H", True)],
    ),
    (
        "b: opened, 5D takes the group joker's place, the joker starts JK=6C 7C 8C",
        "5D 7C 8C 2D",
        "5S 5H JK=5 | 9C TC JC",
        True,
        [(0, "5D", 2, "JK=6C", False)],
    ),
    (
        "b: opened, two group jokers: KS's starts 5S 5D JK=5, KC's is laid off onto it",
        "5S KS QH QH 5D JD KC KC",
        "KH JK=K JK=K KD",
        True,
        [(0, "KS", 1, "JK=5", False), (0, "KC", 1, "JK=5", True)],
    ),
    (
        "a+b: the run gives up its joker (6C) before the group's joker is laid off onto it",
        "2S 4H KH JD KD 6C QC QC",
        "JK=Q QH QD QS | JK=6C 7C 8C JK=9C",
        True,
        [(1, "6C", 2, "JK=K", False), (0, "QC", 1, "JK=TC", True)],
    ),
    (
        "b: two group jokers laid off at a run's low end, 8C before 7C (then 6C)",
        "4H 7H QH 4D TD QD 6C KC",
        "9C JK=TC JK=JC QC | 4S 5S 6S | JK=7 7C JK=7 7D | 4C JK=4 4S JK=4",
        True,
        [(2, "7H", 0, "JK=8C", True), (3, "4H", 0, "JK=7C", True), (3, "4D", 4, "JK=JD", False)],
    ),
    (
        "a+b: the run gives up its JK=5S before the eights' joker joins it (jokers <= naturals each step)",
        "5S 9S TS 4H 8H 3D 6D AC TC",
        "JK=8 8C 8S | 3S JK=4S JK=5S 6S | 2C 3C 4C 5C 6C | 3S JK=3 JK=3 3H",
        True,
        [(3, "3D", 4, "JK=T", False), (1, "5S", 1, "JK=7S", True), (0, "8H", 1, "JK=8S", True)],
    ),
    (
        "a+b: two swapped jokers inside a new run: the first is laid with 4S 5S, the second with 8S 9S",
        "8H 4D 4S 5S 8S 9S KC",
        "JK=8 8C 8D | 3D JK=4D 5D",
        True,
        [(0, "8H", 2, "JK=6S", False), (1, "4D", 2, "JK=7S", True)],
    ),
    (
        "a: three swapped jokers build one new run, each laid with the hand cards its stretch needs",
        "2S AS 2D 8H KH QC 4S",
        "AD JK=2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD | AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC JK=QC KC | "
        "AH 2H 3H 4H 5H 6H 7H JK=8H 9H TH JH QH KH",
        True,
        [(0, "2D", 3, "JK=3S", False), (1, "QC", 3, "JK=5S", True), (2, "8H", 3, "JK=6S", True)],
    ),
    (
        "b: opened, the group joker is laid off with 8C onto 9C TC JC",
        "8C 5D 2S",
        "5S 5H JK=5 | 9C TC JC",
        True,
        [(0, "5D", 1, "JK=7C", True)],
    ),
    (
        "c: opening with the kings, then 6C for the joker, laid off on its own run",
        "KS KH KD 6C 2D 9S",
        "5C JK=6C 7C",
        False,
        [(0, "6C", 0, "JK=8C", True)],
    ),
    (
        "c: opening with the kings, then 5C for the joker, laid off onto the opening's kings",
        "5C KS KH KD 2D 9S",
        "5S 5H 5D JK=5C",
        False,
        [(0, "5C", 1, "JK=K", True)],
    ),
    (
        "c: opening with TC JC QC, then 9S for a joker laid off with AC onto it; QD's joker starts KS KH JK=K",
        "8S 9S TH KH AC TC JC QC KS QD",
        "JK=9S TS JS JK=QS KS | TH TS TC | QH JK=Q QS | TD JK=JD QD",
        False,
        [(0, "9S", 4, "JK=KC", True), (2, "QD", 5, "JK=K", False)],
    ),
    (
        "c: opening with the kings, then 7H for the joker, which starts 2C 3C JK=4C",
        "7H 2C 3C 9D KS KH KD",
        "5H 6H JK=7H 8H",
        False,
        [(0, "7H", 2, "JK=4C", False)],
    ),
]


def _expected(swaps: list[tuple[int, str, int, str, bool]]) -> list[Swap]:
    return [
        {"meld": m, "joker": "JK", "replacement": r, "to_meld": j, "placed_as": p, "lay_off": off}
        for m, r, j, p, off in swaps
    ]


def _cli(hand: str, table: str, opened: bool, *extra: str) -> str:
    out = io.StringIO()
    argv = ["solve", "--variant", "rummy-palace", "--hand", hand, "--table", table, *extra]
    assert main([*argv, *([] if opened else ["--not-opened"])], out=out) == 0
    return out.getvalue()


@pytest.mark.parametrize(("why", "hand", "table", "opened", "swaps"), SWAPS, ids=[c[0][:60] for c in SWAPS])
def test_solve_json_names_each_swap_and_replays_in_the_engine(
    why: str, hand: str, table: str, opened: bool, swaps: list[tuple[int, str, int, str, bool]]
) -> None:
    answer = solve_json({"variant": "rummy-palace", "hand": hand, "table": table, "opened": opened})
    assert answer["status"] == "optimal", why
    assert answer["swaps"] == _expected(swaps), why
    for swap in answer["swaps"]:  # the replacement is played, the joker lies where the entry says
        assert swap["replacement"] in answer["played"]
        assert swap["placed_as"] in answer["melds"][swap["to_meld"]]
    replay(hand, table, opened, answer)
    position = make_position("rummy-palace", hand, table, opened)
    check_solution(position, solve("rummy-palace", hand, table, opened=opened))
    # the HTTP solve path answers the same swaps
    http = solve_request_json({"variant": "rummy-palace", "hand": hand, "table": table, "opened": opened})
    assert http["swaps"] == answer["swaps"]


@pytest.mark.parametrize(("why", "hand", "table", "opened", "swaps"), SWAPS, ids=[c[0][:60] for c in SWAPS])
def test_cli_text_prints_a_line_per_swap(
    why: str, hand: str, table: str, opened: bool, swaps: list[tuple[int, str, int, str, bool]]
) -> None:
    lines = [
        line.strip() for line in _cli(hand, table, opened).splitlines() if line.strip().startswith("swap")
    ]
    want = [
        f"swap JK out of meld {m + 1} for {r}, then "
        f"{'lay it off onto' if off else 'lay it down in new'} meld {j + 1} as {p}"
        for m, r, j, p, off in swaps
    ]
    assert lines == want, why
    parsed = json.loads(_cli(hand, table, opened, "--json"))
    assert parsed["swaps"] == _expected(swaps)


@pytest.mark.parametrize(("why", "hand", "table", "opened", "swaps"), SWAPS, ids=[c[0][:60] for c in SWAPS])
def test_hint_shows_each_swap_as_a_step(
    why: str, hand: str, table: str, opened: bool, swaps: list[tuple[int, str, int, str, bool]]
) -> None:
    best = hint("rummy-palace", hand, table, opened=opened, alternatives=0).best
    steps = list(best.plan.steps)
    kinds = [s.action for s in steps]
    assert kinds.count("swap") == len(swaps), why
    first = kinds.index("swap")
    # opened: the swaps come first; opening: only the opening's melds, worth the 30, before them
    before = steps[:first]
    if opened:
        assert before == []
    else:
        assert before and all(
            s.action == "play" and s.target is not None and best.plan.origin[s.target] is None for s in before
        )
        value = sum(
            opening_value(
                PALACE, analyze_meld(PALACE, tuple(parse_meld(" ".join(card_str(c) for c in s.cards))))
            )
            for s in before
        )
        assert value >= PALACE.opening_points
    swap_steps = [s for s in steps if s.action == "swap"]
    for step, (meld, replacement, to_meld, placed, _) in zip(swap_steps, swaps, strict=True):
        assert step.cards == (parse_card(replacement),) and step.target == meld and step.source is None
        assert f"Swap JK out of meld {meld + 1}" in step.text and f"for {replacement}" in step.text
        assert step.text.endswith(f"as {placed}")
        # the joker is laid right after its (last) swap
        k = steps.index(step)
        if all(s[2] != to_meld for s in swaps[swap_steps.index(step) + 1 :]):
            nxt = steps[k + 1]
            assert nxt.action == "play" and nxt.target == to_meld and JOKER in nxt.cards
    _new_melds_valid_at_every_step(best.plan)
    # every hand card the move plays is played by some step, the joker included
    played = Counter(c for s in steps if s.action in ("play", "swap") for c in s.cards)
    assert played == Counter(best.played) + Counter({JOKER: len(swaps)})
    data = best.to_json()
    assert [s["action"] for s in data["steps"]].count("swap") == len(swaps)


def _new_melds_valid_at_every_step(plan: Any) -> None:
    """A new meld is a valid meld after every step that lays into it (§4.3: jokers never outnumber
    naturals): read from its final form, the cards laid so far with the wilds whose meanings fit."""
    laid: dict[int, Counter[int]] = {}
    for step in plan.steps:
        target = step.target
        if step.action == "play" and target is not None and plan.origin[target] is None:
            have = laid.setdefault(target, Counter())
            have.update(step.cards)
            assert _some_valid_part(plan.new[target], have), step.text


def _some_valid_part(final: tuple[Any, ...], cards: Counter[int]) -> bool:
    """Whether the slots of `final` holding these card kinds (wilds: any choice of its wild
    slots) make a valid meld."""
    naturals = [k for k, slot in enumerate(final) if slot.card != JOKER and cards[slot.card]]
    wild_slots = [k for k, slot in enumerate(final) if slot.card == JOKER]
    for chosen in combinations(wild_slots, cards[JOKER]):
        try:
            analyze_meld(PALACE, tuple(final[k] for k in sorted([*naturals, *chosen])))
        except RummyError:
            continue
        return True
    return False


def test_two_swapped_jokers_starting_a_new_meld_are_laid_with_the_hand_cards_first() -> None:
    # the first joker starts 3S 3D JK=3 with the hand's threes; the second is laid off onto it
    best = hint(
        "rummy-palace",
        "3S 6S TS 5H JH JH 3D 9D QD",
        "2C 3C 4C | 9H TH JK=JH QH | JK=9 9H 9S | AS AH JK=A AD | 3S JK=4S 5S",
        taken="JH",
        alternatives=0,
    ).best
    assert [s.action for s in best.plan.steps][:4] == ["swap", "play", "swap", "play"]
    assert Counter(best.plan.steps[1].cards) == Counter(parse_cards("3S 3D JK"))
    _new_melds_valid_at_every_step(best.plan)


@pytest.mark.parametrize(
    ("hand", "table", "opened"),
    [
        ("6C 2S", "3C 4C 5C", True),  # a lay-off
        ("4D 4H 2S JK 9C", "4C 4S JK=4 JK=4", True),  # table jokers, but the full group keeps them
        ("QH KH AH 5C", "5S 5H JK=5", False),  # swapping 5C in would leave no card to discard
        ("9D 2S", "7H JK=8H 9H", True),  # nothing fits: no play at all
    ],
)
def test_a_move_without_swaps_has_no_swaps_key(hand: str, table: str, opened: bool) -> None:
    answer = solve_json({"variant": "rummy-palace", "hand": hand, "table": table, "opened": opened})
    assert "swaps" not in answer
    if answer["played"]:
        replay(hand, table, opened, answer)
    assert not any(line.strip().startswith("swap") for line in _cli(hand, table, opened).splitlines())
    best = hint("rummy-palace", hand, table, opened=opened, alternatives=0).best
    assert all(s.action != "swap" for s in best.plan.steps)


def test_a_meld_needing_two_swapped_jokers_at_once_is_not_an_answer() -> None:
    # 7H JK=8H JK=9H TH would play four cards, but each swap puts its joker back on the table by
    # itself (§4.5) and neither 7H JK TH nor JK TH is a meld; the best move the engine can make
    # lays both jokers off on the spade run instead
    hand, table = "AS 5S 7H TH 2D", "JK=A AC AD | 4S JK=5S 6S"
    answer = solve_json({"variant": "rummy-palace", "hand": hand, "table": table})
    assert sorted(answer["played"]) == ["5S", "AS"]
    assert answer["status"] == "optimal"
    assert reference_solve("rummy-palace", hand, table).cards_played == 2
    replay(hand, table, True, answer)


def test_a_table_needing_two_swapped_jokers_at_once_is_refused_by_name() -> None:
    position = make_position(PALACE, "AS 5S 7H TH 2D", "JK=A AC AD | 4S JK=5S 6S")
    melds = (
        tuple(parse_meld("AS AC AD")),
        tuple(parse_meld("4S 5S 6S")),
        tuple(parse_meld("7H JK=8H JK=9H TH")),
    )
    played = tuple(parse_cards("AS 5S 7H TH"))
    assert not swaps_in_order(position, played, melds)
    solution = Solution(played, melds, "optimal", "cards", 4, 4, 0, 0.0)
    with pytest.raises(RummyError, match="two swapped jokers in one meld at once"):
        joker_swaps(position, solution)


@pytest.mark.parametrize("opened", [True, False])
def test_answers_on_random_tables_with_jokers_replay_in_the_engine(opened: bool) -> None:
    """Seeded positions rich in table jokers: every answer that plays cards replays through the
    engine one operation at a time (swaps each with its own placement), so no answer needs a
    move the engine refuses; the swaps actually exercised are counted so the test cannot pass
    on positions without any."""
    rng = random.Random(4501 if opened else 4502)
    swapped = 0
    for _ in range(60 if opened else 40):
        seed = rng.randrange(10**9)
        hand_kinds, table_melds = random_position(
            PALACE, seed, rng.randint(6, 12), rng.randint(4 if opened else 8, 12), 0.5, 0.9
        )
        if not any(slot.card == JOKER for meld in table_melds for slot in meld):
            continue
        hand = " ".join(card_str(c) for c in hand_kinds)
        table = " | ".join(meld_str(meld) for meld in table_melds)
        answer = solve_json({"variant": "rummy-palace", "hand": hand, "table": table, "opened": opened})
        if answer["played"] and len(answer["played"]) < len(hand_kinds):  # a card is left to discard
            replay(hand, table, opened, answer)
            swapped += len(answer.get("swaps", []))
    assert swapped >= (10 if opened else 2)


def test_joker_swaps_is_empty_outside_palace_and_refuses_a_foreign_table() -> None:
    rummikub = make_position("rummikub", "7H", "5H 6H JK=7H 8H")
    assert joker_swaps(rummikub, solve("rummikub", "7H", "5H 6H JK=7H 8H")) == ()
    position = make_position("rummy-palace", "7H 2C 3C 9D", "5H 6H JK=7H 8H")
    other = solve("rummy-palace", "6C 2S", "3C 4C 5C")
    with pytest.raises(RummyError, match="does not continue"):
        joker_swaps(position, other)


def test_past_the_cut_budget_the_answer_is_the_best_play_without_swaps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With no cuts left, the table that needs two swapped jokers at once is not repaired: the
    answer leaves every table joker in place, is labelled feasible, and the engine takes it."""
    monkeypatch.setattr(tile_solve, "SWAP_CUTS", 0)
    hand, table = "AS 5S 7H TH 2D", "JK=A AC AD | 4S JK=5S 6S"
    answer = solve_json({"variant": "rummy-palace", "hand": hand, "table": table})
    assert answer["status"] == "feasible"
    assert answer["played"] == ["AS"]
    assert "swaps" not in answer
    replay(hand, table, True, answer)


def test_the_python_answer_names_its_joker_swaps_as_the_json_answer_does() -> None:
    import rummyai
    from rummyai.solvers.api import solve_json

    answer = rummyai.solve("rummy-palace", "5H 9C 9D 9S KD", "5S 5D JK=5H")
    assert [swap.to_json() for swap in answer.joker_swaps] == [
        {"meld": 0, "joker": "JK", "replacement": "5H", "to_meld": 1, "placed_as": "JK=9", "lay_off": False}
    ]
    as_json = solve_json({"variant": "rummy-palace", "hand": "5H 9C 9D 9S KD", "table": ["5S 5D JK=5H"]})
    assert as_json["swaps"] == [swap.to_json() for swap in answer.joker_swaps]
