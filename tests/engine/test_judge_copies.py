"""The judge reads identical copies as the rules do (§7.1): it agrees with a brute force.

Two packs hold two copies of each card, and the text does not say which copy is which. The
rules read a turn on the canonical copy assignment: of every way to place the copies, those
keeping the most pairs of cards that began in one meld together in one final meld; the turn is
legal if one of them passes. The brute force here scores every permutation of every card kind's
copies, keeps the best-scoring ones and judges each with every reading of the unstated wilds,
with no cap, by `check_assigned` (the id-level check, which takes ids as given).
Positions are small Rhine tables dealt from a narrow band of cards (so copies repeat), and new
tables are made by random rearrangements that keep every meld valid, so the joker rules and
the copies decide. Two equal wild-free club runs ride along untouched: 2**9 placements of their
copies that cannot matter, which a search over raw placements spends its budget on. The other
tile variants' joker rules are checked the same way.
"""

from __future__ import annotations

import random
import time
from collections import Counter, defaultdict
from itertools import permutations, product
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummyai.cards import JOKER, card_str, make_card, parse_cards, parse_meld
from rummyai.engine import judge_play
from rummyai.engine.judge import _meanings
from rummyai.engine.moves import Violation
from rummyai.engine.qualify import search_qualifying
from rummyai.engine.state import TableMeld
from rummyai.engine.tile_rules import check_assigned
from rummyai.variants import Variant, get_variant

from .random_tables import RHINE, deal, rearrange, valid_slots

# two identical club runs left untouched: 2**9 ways to place their copies, none of which matters
# (no wild near them, and no card of theirs is dealt by `deal`), so the judge must see past them
FILLER = ["3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC"]


def _text(rng: random.Random, cards: list[int], state_meanings: bool, variant: Variant = RHINE) -> list[str]:
    slots = valid_slots(variant, cards)
    assert slots is not None
    out = []
    for s in slots:
        if s.meaning is not None and (state_meanings or rng.random() < 0.5):
            out.append(f"{card_str(s.card)}={s.meaning}")
        else:
            out.append(card_str(s.card))
    rng.shuffle(out)
    return out


def _brute_force(
    hand: list[str],
    table: list[list[str]],
    new_table: list[list[str]],
    opened: bool = True,
    variant: Variant = RHINE,
) -> bool:
    """Legal iff some canonical assignment of copies (most pairs of start meld-mates kept together)
    and some reading of the unstated wilds passes R1-R5b (before opening: with the qualifying
    melds searched inside each assignment, §1.4)."""
    from rummyai.cards import parse_cards, parse_table

    deck = variant.deck
    free: dict[int, list[int]] = defaultdict(list)
    for i in reversed(range(len(deck))):
        free[deck[i]].append(i)
    start = []
    for meld in parse_table(table):
        start.append(TableMeld(tuple(free[s.card].pop() for s in meld), tuple(s.meaning for s in meld)))
    hand_ids = [free[c].pop() for c in parse_cards(hand)]
    final = parse_table(new_table)
    sources: dict[int, list[int]] = defaultdict(list)
    for i in [i for m in start for i in m.ids] + hand_ids:
        sources[deck[i]].append(i)
    spots: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for m, meld in enumerate(final):
        for p, slot in enumerate(meld):
            spots[slot.card].append((m, p))
    kinds = sorted(spots)
    if any(len(spots[k]) > len(sources[k]) for k in kinds):
        return False
    orders = [list(permutations(sources[k], len(spots[k]))) for k in kinds]
    readings = list(product(*(_meanings(variant, meld) for meld in final)))
    owner = {i: u for u, meld in enumerate(start) for i in meld.ids}
    scored = []
    for combo in product(*orders):
        ids = {
            spot: i
            for k, order in zip(kinds, combo, strict=True)
            for spot, i in zip(spots[k], order, strict=True)
        }
        if set(ids.values()) < {i for meld in start for i in meld.ids}:
            continue  # a table card left the table: no assignment of the copies
        pairs = Counter((m, owner[i]) for (m, _), i in ids.items() if i in owner)
        scored.append((sum(n * (n - 1) // 2 for n in pairs.values()), ids))
    best = max((score for score, _ in scored), default=0)
    for score, ids in scored:
        if score < best:
            continue
        for reading in readings:
            new = tuple(
                TableMeld(tuple(ids[(m, p)] for p in range(len(meld))), reading[m])
                for m, meld in enumerate(final)
            )
            violation = check_assigned(variant, start, hand_ids, new, opened, ()).violation
            if violation is None:
                return True
            if opened or violation.rule != "1.4":
                continue
            if search_qualifying(variant, tuple(start), hand_ids, [new], violation).violation is None:
                return True
    return False


@settings(max_examples=500, deadline=None)
@given(seed=st.integers(0, 10**9), fillers=st.sampled_from([True, True, True, False]))
def test_judge_matches_brute_force_on_random_rearrangements(seed: int, fillers: bool) -> None:
    rng = random.Random(seed)
    table, hand = deal(rng)
    melds = rearrange(rng, table, hand)
    hand_text = [card_str(c) for c in hand]
    table_text = [_text(rng, m, True) for m in table]
    new_text = [_text(rng, m, False) for m in melds]
    expected = _brute_force(hand_text, table_text, new_text)
    extra = [FILLER, FILLER] if fillers else []
    verdict = judge_play(RHINE, hand_text, table_text + extra, new_text + extra)
    assert verdict.legal == expected, (hand_text, table_text, new_text, verdict.reason)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 10**9), trio=st.booleans())
def test_judge_matches_brute_force_before_opening(seed: int, trio: bool) -> None:
    rng = random.Random(seed)
    table, hand = deal(rng)
    if trio:  # a qualifying meld in hand (diamonds: no copy elsewhere)
        hand += [make_card(r, 2) for r in (7, 8, 9)]
    melds = rearrange(rng, table, hand)
    hand_text = [card_str(c) for c in hand]
    table_text = [_text(rng, m, True) for m in table]
    new_text = [_text(rng, m, False) for m in melds]
    expected = _brute_force(hand_text, table_text, new_text, opened=False)
    extra = [FILLER, FILLER]
    verdict = judge_play(RHINE, hand_text, [*table_text, *extra], [*new_text, *extra], opened=False)
    assert verdict.legal == expected, (hand_text, table_text, new_text, verdict.reason)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**9), variant=st.sampled_from(["rummikub", "rummy-tiles", "rummy-board"]))
def test_judge_matches_brute_force_in_other_tile_variants(seed: int, variant: str) -> None:
    # their joker rules (locked melds, retrieval with a rack tile) also look at copies
    rules = get_variant(variant)
    rng = random.Random(seed)
    table, hand = deal(rng, rules)
    melds = rearrange(rng, table, hand, rules)
    hand_text = [card_str(c) for c in hand]
    table_text = [_text(rng, m, True, rules) for m in table]
    new_text = [_text(rng, m, False, rules) for m in melds]
    expected = _brute_force(hand_text, table_text, new_text, variant=rules)
    extra = [FILLER, FILLER]
    verdict = judge_play(rules, hand_text, [*table_text, *extra], [*new_text, *extra])
    assert verdict.legal == expected, (variant, hand_text, table_text, new_text, verdict.reason)


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    variant=st.sampled_from(["rummikub", "rummy-board", "rummy-tiles"]),
    shape=st.sampled_from(["run", "group", "moved"]),
)
def test_judge_matches_brute_force_before_an_exclusive_opening(seed: int, variant: str, shape: str) -> None:
    # §2.4, §3.4, §8.2: the opening turn adds new melds from the hand only. The hand's new meld
    # shares card kinds with a table meld (a run one rank lower, a group with another suit),
    # written anywhere among the melds: read on kinds (§7.1) it is the hand's. `moved` takes the
    # table run's top card into the hand's run, which no reading of the copies allows.
    rules = get_variant(variant)
    rng = random.Random(seed)
    low = rng.randint(2, 7)
    run = [make_card(r, 0) for r in range(low, low + 4)]
    if rng.random() < 0.5:
        run[1] = JOKER
    group = [make_card(low + 1, s) for s in (1, 3, 0 if run[1] == JOKER else 2)]
    royals = [make_card(r, 2) for r in (11, 12, 13)]  # 36 points of diamonds: no copy elsewhere
    if shape == "run":
        new = [make_card(r, 0) for r in range(low - 1, low + 2)]
        melds = [run, group, new, royals]
    elif shape == "group":
        new = [*group[:2], make_card(low + 1, 2 if run[1] == JOKER else 0)]
        melds = [run, group, new, royals]
    else:
        new = [make_card(r, 0) for r in range(low + 4, low + 7)]
        melds = [run[:-1], group, [run[-1], *new], royals]
    melds = [list(m) for m in melds]
    rng.shuffle(melds)
    table = [run, group]
    hand_text = [card_str(c) for c in [*new, *royals]]
    table_text = [_text(rng, m, True, rules) for m in table]
    new_text = [_text(rng, m, False, rules) for m in melds]
    expected = _brute_force(hand_text, table_text, new_text, opened=False, variant=rules)
    assert expected == (shape != "moved")
    verdict = judge_play(rules, hand_text, table_text, new_text, opened=False)
    assert verdict.legal == expected, (variant, hand_text, table_text, new_text, verdict.reason)


@pytest.mark.parametrize("variant", ["rummikub", "rummy-board"])
@pytest.mark.parametrize("new_meld_first", [True, False])
def test_an_opening_meld_of_copies_of_a_table_meld_is_the_hands(variant: str, new_meld_first: bool) -> None:
    # §7.1: the order the melds are written in does not decide which copy is the table's
    new = [["6H", "7H", "8H", "9H"], ["7H", "8H", "9H", "TH"]]
    if not new_meld_first:
        new.reverse()
    verdict = judge_play(get_variant(variant), "6H 8H 7H 9H", [["7H", "8H", "9H", "TH"]], new, opened=False)
    assert verdict.legal, verdict.reason
    moved = [["6H", "7H", "8H", "9H", "TH"], ["7H", "8H", "9H"]]
    verdict = judge_play(get_variant(variant), "6H 8H 7H 9H", [["7H", "8H", "9H", "TH"]], moved, opened=False)
    assert not verdict.legal


def test_copies_mixed_across_two_equal_start_melds() -> None:
    # Mixing the 6H/7H copies of the two start melds would pass R5, but the canonical reading
    # keeps each run's cards together: the second run's joker is released by the hand's 5H and
    # returns to its own meld as 8H with no new natural beside it (R5)
    table = [["6H", "7H", "JK=5H"], ["6H", "7H", "JK=5H"], ["5S", "6S", "7S", "8S"]]
    new = [["JK=5H", "6H", "7H"], ["5H", "6H", "7H", "JK=8H"], table[2]]
    assert not _brute_force(["5H"], table, new)
    verdict = judge_play(RHINE, ["5H"], table, new)
    assert not verdict.legal and verdict.rule == "1.5 R5"
    # with a new natural beside it the returning joker is accompanied
    assert judge_play(RHINE, ["5H", "9H"], table, [new[0], [*new[1], "9H"], table[2]]).legal


@pytest.mark.parametrize("joker_meld_first", [True, False])
def test_ties_among_plain_melds_do_not_crowd_out_the_joker_melds_ties(joker_meld_first: bool) -> None:
    # The table's 8S and 8H may stay with 8D and the joker or with 8C: a tie, and only the second
    # reading gives the joker a new natural (R5), so the play is legal. Five pairs of identical
    # plain groups add 2^5 more tied readings that no joker rule reads: the verdict must not
    # depend on the order the melds are written in.
    ranks = "9TJQK"
    plain = [f"{r}S {r}H {r}D" for r in ranks]
    hand = ["8H", "8S", "JK", *(c for m in plain for c in m.split())]
    table = ["8S 8D 8C 8H", *plain]
    eights = ["8S 8D 8H JK=8", "8C 8H 8S"]
    if not joker_meld_first:
        eights.reverse()
    new = [*eights, *(m for m in plain for _ in range(2))]
    verdict = judge_play(RHINE, hand, table, new)
    assert verdict.legal, verdict.reason


@pytest.mark.parametrize("joker_meld_first", [True, False])
def test_six_independent_ties_among_joker_melds_are_all_read(joker_meld_first: bool) -> None:
    # Each rank's group of four splits into a plain group and a joker group with the hand's two
    # naturals; of the two tied readings of the split only one gives the joker a new natural (R5).
    # Six such ranks are 2^6 tied tables: the legal one must be found whatever the meld order.
    rhine = get_variant("rhine", ["extra_packs=1"])
    ranks = "345678"
    hand = [card for r in ranks for card in (f"{r}S", f"{r}D", "JK")]
    table = [f"{r}S {r}D {r}H {r}C" for r in ranks]
    new = []
    for r in ranks:
        pair = [f"{r}S {r}D {r}C", f"{r}S {r}D {r}H JK"]
        new += pair if not joker_meld_first else pair[::-1]
    verdict = judge_play(rhine, hand, table, new)
    assert verdict.legal, verdict.reason


def test_the_judge_and_the_bridge_share_one_copy_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table judged from text, then the same table with the game's own physical cards: the
    search reads copies by kind, so the second call finds the first one's answer, and its table
    names the game's own ids."""
    from rummyai.engine import tile_rules
    from rummyai.engine.bridge import play_for_table

    rhine = get_variant("rhine", ["extra_packs=1"])
    rhine.__dict__.pop("_canonical_copies", None)
    searches = 0
    real_search = tile_rules.canonical_search

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal searches
        searches += 1
        return real_search(*args, **kwargs)

    monkeypatch.setattr(tile_rules, "canonical_search", counted)
    table, hand = "5S 5D 5H 5C | 7H 8H JK=9H", "5S 5D JK TH"
    new = ["5S 5D 5C", "5S 5D 5H JK", "7H 8H JK=9H TH"]
    # the solver's check reads a table as written, as the bridge does
    assert judge_play(rhine, hand, table, new, fixed_order=False).legal
    assert searches == 1
    # the same position with other physical copies: the start table's from the top of the deck
    deck = rhine.deck
    taken: set[int] = set()

    def ids_of(cards: list[str]) -> tuple[int, ...]:
        out = []
        for card in cards:
            kind = parse_cards(card)[0]
            i = max(j for j in range(len(deck)) if deck[j] == kind and j not in taken)
            taken.add(i)
            out.append(i)
        return tuple(out)

    start = (
        TableMeld(ids_of(["5S", "5D", "5H", "5C"]), (None,) * 4),
        TableMeld(ids_of(["7H", "8H", "JK"]), tuple(slot.meaning for slot in parse_meld("7H 8H JK=9H"))),
    )
    hand_ids = list(ids_of(["5S", "5D", "JK", "TH"]))
    play = play_for_table(rhine, start, hand_ids, [parse_meld(m) for m in new], True)
    assert play is not None and searches == 1
    placed = {i for meld in play.table for i in meld.ids}
    assert placed == {i for meld in start for i in meld.ids} | set(hand_ids)


def _six_split_groups() -> tuple[Variant, list[str], list[str], list[str]]:
    """Six ranks' groups of four, each split into a plain group and a joker group: 2^6 tied tables."""
    rhine = get_variant("rhine", ["extra_packs=1"])
    rhine.__dict__.pop("_canonical_copies", None)  # searched afresh, not remembered from another test
    ranks = "345678"
    hand = [card for r in ranks for card in (f"{r}S", f"{r}D", "JK")]
    table = [f"{r}S {r}D {r}H {r}C" for r in ranks]
    new = [meld for r in ranks for meld in (f"{r}S {r}D {r}C", f"{r}S {r}D {r}H JK")]
    return rhine, hand, table, new


def test_building_many_tied_tables_stops_at_the_judges_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """The deadline is checked while the tied tables are built, not only in the searches before."""
    from rummyai.engine import copies

    built = 0
    real_build = copies._build

    def build_then_run_late(*args: Any) -> Any:
        nonlocal built
        built += 1
        if built == 20:
            copies._DEADLINE.set(0.0)  # the deadline passes here (the judge's scope resets it)
        return real_build(*args)

    monkeypatch.setattr(copies, "_build", build_then_run_late)
    rhine, hand, table, new = _six_split_groups()
    verdict = judge_play(rhine, hand, table, new, deadline=time.perf_counter() + 3600)
    assert verdict.rule == "time"
    assert built < 40  # of 64


def test_judging_many_tied_tables_stops_at_the_judges_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """The deadline is checked while the tied tables are judged one by one."""
    from rummyai.engine import copies, tile_rules

    judged = 0

    def refuse_then_run_late(*args: Any, **kwargs: Any) -> tile_rules.PlayCheck:
        nonlocal judged
        judged += 1
        if judged == 20:
            copies._DEADLINE.set(0.0)
        return tile_rules.PlayCheck(Violation("test", "every reading refused"))

    monkeypatch.setattr(tile_rules, "check_assigned", refuse_then_run_late)
    rhine, hand, table, new = _six_split_groups()
    verdict = judge_play(rhine, hand, table, new, deadline=time.perf_counter() + 3600)
    assert verdict.rule == "time"
    assert judged < 40  # of 64


def test_a_turn_that_takes_no_meld_apart_is_judged_without_the_copy_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Lay-offs and new melds keep every start meld whole: that reading keeps every pair, so it is
    canonical, and the judge needs no search over copies when it passes."""
    from rummyai.engine import tile_rules

    def no_search(*args: object) -> None:
        raise AssertionError("the canonical copy search ran")

    monkeypatch.setattr(tile_rules, "_canonical_ids", no_search)
    table = "5H 6H 7H | 7H JK=8H 9H | 8S 8D JK=8 | 9S TS JS"
    new_table = "4H 5H 6H 7H | 7H JK=8H 9H TH | 8S 8D JK=8 8C | 9S TS JS QS | 8H 9H TH"
    verdict = judge_play(RHINE, "4H 8C 8H 9H TH TH QS", table, new_table)
    assert verdict.legal, verdict.reason
    assert sorted(verdict.played) == sorted(["4H", "8C", "8H", "9H", "TH", "TH", "QS"])


@pytest.mark.parametrize("laid_on_first", [True, False])
def test_two_start_melds_of_the_same_kinds_keep_their_jokers_without_the_copy_search(
    monkeypatch: pytest.MonkeyPatch, laid_on_first: bool
) -> None:
    """`JK=4C 5C 6C 7C` and `5C 6C 7C JK=8C` hold the same kinds: each fits where the other
    stays, and only one way round keeps both jokers' meanings (R4). Reading the one left as it
    was first into the meld of exactly its kinds refused that reading; the whole start melds are
    placed where their jokers keep their meanings, so the judge needs no copy search."""
    from rummyai.engine import tile_rules

    def no_search(*args: object) -> None:
        raise AssertionError("the canonical copy search ran")

    monkeypatch.setattr(tile_rules, "_canonical_ids", no_search)
    melds = ["JK=4C 5C 6C 7C", "5C 6C 7C JK=8C"]
    grown = (
        ["JK=4C 5C 6C 7C 8C", "5C 6C 7C JK=8C"] if laid_on_first else ["JK=4C 5C 6C 7C", "5C 6C 7C JK=8C 9C"]
    )
    card = "8C" if laid_on_first else "9C"
    verdict = judge_play(RHINE, f"{card} 2D", " | ".join(melds), " | ".join(grown))
    assert verdict.legal, verdict.reason
    assert verdict.played == [card]


def test_an_opening_of_many_supersets_of_table_melds_is_the_hands() -> None:
    # eleven table runs, and the hand's eleven runs one card longer, written in any order: each
    # table run is kept whole, however many ties the copies make (no search past a budget)
    starts = ["A 2 3", "5 6 7", "9 T J"]
    table = [[f"{r}{s}" for r in run.split()] for run in starts for s in "SHDC"][:11]
    longer = {"A 2 3": "4", "5 6 7": "8", "9 T J": "Q"}
    hand_melds = [[*m, f"{longer[' '.join(c[0] for c in m)]}{m[0][1]}"] for m in table]
    hand = [card for meld in hand_melds for card in meld]
    for seed in range(8):
        new = [*hand_melds, *table]
        random.Random(seed).shuffle(new)
        verdict = judge_play(get_variant("rummikub"), hand, table, new, opened=False)
        assert verdict.legal, (seed, verdict.reason)
    # a start joker meld kept beside a hand meld of the same cards whose joker means another card
    twin = [["5H", "6H", "JK=7H"]]
    runs = [m for m in table if m != ["5H", "6H", "7H"]][:10]
    hand = [card for meld in hand_melds if meld[:3] in runs for card in meld] + ["5H", "6H", "JK"]
    for seed in range(4):
        new = [*(m for m in hand_melds if m[:3] in runs), *runs]
        random.Random(seed).shuffle(new)
        new = [["JK=4H", "5H", "6H"], *new, *twin]
        verdict = judge_play(get_variant("rummikub"), hand, [*runs, *twin], new, opened=False)
        assert verdict.legal, (seed, verdict.reason)


def test_a_verdict_with_more_tied_copies_than_are_kept_does_not_depend_on_meld_order() -> None:
    # three packs: copies tie in many ways and the search keeps some of them; it reads the melds
    # in one order, so every order of the same new table gets the same verdict (§7.1)
    variant = get_variant("rhine", ["rhine.points_qualify", "extra_packs=1"])
    hand = _words("2S 6S 7S JS JS QS 6H 9H JH 2D 3D 3D 4D QD AC AC 6C 9C TC KC")
    table = [
        _words(m)
        for m in _words(
            "7D 8D 9D TD|6C 7C JK=8C 9C|8D 8H 8C|8C 8H 8S|7D 8D 9D TD JD|2C 3C JK=4C 5C|5H JK=6H 7H|"
            "KH KD JK=K KS|5C 6C 7C JK=8C",
            "|",
        )
    ]
    new = [
        _words(m)
        for m in _words(
            "7D 8D 9D|5C 6C 7C 8C|8H 8H 8D|6S 7S 8S|7D 8D 9D|2S 2C JK=2|5H 6H 7H|KS KH KD KC|JK=4C 5C 6C|"
            "2D 3D 4D|AC AC JK=A|3D 3C JK=3|9H 9C 9C|TD TD TC|JS JS JH JD|QS QD JK=Q|6C 7C 8C",
            "|",
        )
    ]
    for order in (new, new[::-1], sorted(new)):
        verdict = judge_play(variant, hand, table, order, opened=False)
        assert verdict.legal and verdict.opening == [["JS", "JS", "JH"]], verdict.reason


def _words(text: str, sep: str | None = None) -> list[str]:
    return text.split(sep)


def test_a_qualifying_meld_inside_a_new_meld_is_found_whichever_copies_the_ids_name() -> None:
    # §1.4 with the 30-point rule: the hand qualifies with 7H JK=8H 9H TH (34 points), then a
    # table 6H joins it and the table's 7H 8H 9H stay together. Two 7Hs and two 9Hs are about; the
    # order of the melds decides which copies the written table's ids name, and the verdict may not
    # depend on it (§7.1)
    variant = get_variant("rhine", ["rhine.points_qualify"])
    hand = "3H 5D 8D JD 3C 5C 8C JC 2H 3H 4H 5H 7H 8H 9H TH JH JK"
    table = "6S 7S JK=8S 9S TS | TD JD QD KD | 6H 7H 8H 9H JK=TH | QS QD QH QC | AC 2C JK=3C | 6S 6C 6H"
    new = [
        "6S 7S JK=8S 9S TS",
        "TD JD QD KD",
        "QS QD QH QC",
        "AC 2C JK=3C",
        "6S 6C 6H",
        "2H JK=3H 4H",
        "7H 8H 9H",
        "6H 7H JK=8H 9H TH",
        "3H 3H 3C",
        "5H 5D 5C",
        "8H 8D 8C",
        "JH JD JC",
    ]
    rng = random.Random(7)
    for _ in range(12):
        order = rng.sample(new, len(new))
        verdict = judge_play(variant, hand, table, order, opened=False)
        assert verdict.legal, (order, verdict.reason)
