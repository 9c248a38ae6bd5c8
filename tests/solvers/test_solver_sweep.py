"""A sweep of the CP-SAT solver against the exhaustive reference over every option of `solve`.

One property test per variant, and per named option that changes what a meld, a wild or an
opening is, draws everything else: the objective, opened or not, a card cap (`max_cards`), the
tidy-table tie-break on or off, Black Heart's score, and for the draw-and-discard variants a
committed card (taken from the row) and a card taken from the discard pile. Positions are seeded
deals (table jokers, hands near the table), dense ones from a few ranks and suits (duplicates,
wilds, wrapping ranks), bare ones (no table or one meld, a card or two), twins (a joker run beside a
meld holding a copy of one of its cards, §7.1), where a variant caps
the cards per turn long hands, and when hunting crowded ones (a 12-card table, a short hand).

Every answer must score as the reference does (``feasible`` only where the model relaxes the joker
rules and the judge repairs its answer, and then never better), pass the independent checks and the
engine's judge, keep the turn's duties, and be the same on a second run.

``SWEEP_EXAMPLES=<n>`` runs each property on n positions from a fresh seed, to hunt for bugs
(the default is a small derandomized sample for CI).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from solver_checks import admit_meld, draw_hand, draw_table_meld, judged_legal, start_melds_grow

from rummyai.cards import JOKER, Meaning, Slot, make_card, rank_of, suit_of
from rummyai.errors import IllegalMoveError
from rummyai.solvers import make_position, solve
from rummyai.solvers.check import check_solution
from rummyai.solvers.position import Solution, score_key
from rummyai.solvers.random_positions import random_position
from rummyai.solvers.reference import reference_solve, turn_rules
from rummyai.variants import EscortRule, Variant, get_variant

HUNT = int(os.environ.get("SWEEP_EXAMPLES", "0"))


@dataclass(frozen=True)
class Config:
    """A variant under test and the position sizes its reference can search quickly."""

    name: str
    variant: Variant
    tables: tuple[int, ...]  # table sizes of the seeded deals
    max_hand: int
    examples: int  # CI examples


def _config(name: str, variant: Variant, tables: tuple[int, ...], max_hand: int, examples: int) -> Config:
    return Config(name, variant, tables, max_hand, examples)


REARRANGE = (0, 3, 6, 9)
FIXED = (0, 3, 6, 9, 12)
CONFIGS = [
    _config("rummikub", get_variant("rummikub"), REARRANGE, 6, 14),
    _config("rummikub+official", get_variant("rummikub", ["official_jokers"]), REARRANGE, 6, 8),
    _config(
        "rummikub+rack_or_table",
        get_variant("rummikub", {"official_jokers": True, "joker_replacement_from": "rack_or_table"}),
        REARRANGE,
        6,
        8,
    ),
    _config("rummy-board", get_variant("rummy-board"), REARRANGE, 6, 14),
    _config("rummy-tiles", get_variant("rummy-tiles"), REARRANGE, 6, 14),
    _config("rhine", get_variant("rhine"), REARRANGE, 6, 14),
    _config("rhine+wild_twos", get_variant("rhine", {"rhine.wild_twos": True}), REARRANGE, 6, 10),
    _config("rhine+points", get_variant("rhine", {"rhine.points_qualify": True}), REARRANGE, 6, 8),
    _config("rhine+canasta", get_variant("rhine", {"rhine.canasta_values": True}), REARRANGE, 6, 8),
    _config("rummy-palace", get_variant("rummy-palace"), FIXED, 7, 14),
    _config("palace+cyclic", get_variant("rummy-palace", ["cyclic_laying"]), FIXED, 7, 8),
    _config("palace+single", get_variant("rummy-palace", ["opening_single_meld"]), FIXED, 7, 8),
    _config("standard", get_variant("standard"), FIXED, 7, 14),
    _config("standard+decks=2", get_variant("standard", {"decks": 2}), FIXED, 7, 8),
    _config("black-heart", get_variant("black-heart"), FIXED, 6, 14),
]
OBJECTIVES = ("cards", "points", "penalty")


@dataclass(frozen=True)
class Case:
    """One drawn call of `solve`."""

    hand: list[int]
    table: list[tuple[Slot, ...]]
    opened: bool
    objective: str
    max_cards: int | None
    changes: bool
    committed: list[int]
    taken: int | None
    score: int


def _wild_kinds(variant: Variant) -> list[int]:
    """Cards that are always wild (jokers, Rhine's twos) or may be (Black Heart's diamonds)."""
    return [c for c in range(53) if variant.copies[c] and c in variant.wild_map]


def _dense(draw: st.DrawFn, variant: Variant, max_hand: int) -> tuple[list[int], list[tuple[Slot, ...]]]:
    """Up to two table melds and a hand from a window of four ranks (wrapping past the king) and
    two or three suits, wilds included: duplicates and wild placements are common here."""
    low = draw(st.integers(1, 13))
    ranks = [(low - 1 + k) % 13 + 1 for k in range(4)]
    suits = draw(st.lists(st.integers(0, 3), min_size=2, max_size=3, unique=True))
    wilds = _wild_kinds(variant)
    used: Counter[int] = Counter()
    table: list[tuple[Slot, ...]] = []
    for _ in range(draw(st.sampled_from([2, 1, 0]))):  # hypothesis favours the first
        start = draw(st.integers(0, 1))
        if draw(st.booleans()):
            suit = draw(st.sampled_from(suits))
            meanings = [Meaning(r, suit) for r in ranks[start : start + draw(st.integers(3, 4 - start))]]
            cards = [make_card(m.rank, suit) for m in meanings]
        else:
            rank = ranks[start]
            group = draw(st.lists(st.integers(0, 3), min_size=3, max_size=4, unique=True))
            meanings = [Meaning(rank)] * len(group)
            cards = [make_card(rank, s) for s in group]
        meld = draw_table_meld(draw, variant, cards, meanings, wilds, used)
        if meld is not None:
            table.append(meld)
    pool = [make_card(r, s) for r in ranks for s in suits] + wilds
    return draw_hand(draw, variant, pool, used, min(2, max_hand), max_hand), table


def _twin(draw: st.DrawFn, variant: Variant, max_hand: int) -> tuple[list[int], list[tuple[Slot, ...]]]:
    """A joker run and another meld holding a copy of one of its naturals (a group of that rank,
    or a run of that suit through it), and a hand near both: the positions where identical copies
    could make a forbidden joker move look legal (§7.1)."""
    low = draw(st.integers(1, 10))
    suit = draw(st.integers(0, 3))
    spot = draw(st.integers(0, 2))
    run = tuple(
        Slot(JOKER, Meaning(low + k, suit)) if k == spot else Slot(make_card(low + k, suit)) for k in range(3)
    )
    twin_rank = low + (1 if spot == 0 else 0)
    if draw(st.booleans()):
        others = draw(
            st.lists(st.sampled_from([x for x in range(4) if x != suit]), min_size=2, max_size=2, unique=True)
        )
        other = tuple(Slot(make_card(twin_rank, x)) for x in sorted([suit, *others]))
    else:
        start = max(1, min(twin_rank - draw(st.integers(0, 2)), 11))
        other = tuple(Slot(make_card(start + k, suit)) for k in range(3))
    if any(slot.meaning is None and variant.is_wild(slot.card) for meld in (run, other) for slot in meld):
        return _dense(draw, variant, max_hand)  # a natural that is wild here (Rhine's twos)
    used: Counter[int] = Counter(c for meld in (run, other) for slot in meld for c in slot.cards())
    ranks = [r for r in range(max(1, low - 1), min(13, low + 4) + 1)]
    pool = [make_card(r, x) for r in ranks for x in {suit, (suit + 1) % 4}] + [JOKER]
    return draw_hand(draw, variant, pool, used, 1, max_hand), [run, other]


def _escorted_meld(
    draw: st.DrawFn, variant: Variant, rule: EscortRule, used: Counter[int]
) -> tuple[Slot, ...] | None:
    """A group or run of cards that need an escort (Black Heart's black courts), each carrying
    a drawn escort (a heart or an escort-capable wild), some cards replaced by a wild; None when
    the deck lacks the copies or the meld is not valid."""
    court = draw(st.sampled_from(sorted(rule.needs_escort)))
    rank, suit = rank_of(court), suit_of(court)
    if draw(st.booleans()):  # a group: the courts of this rank, and wilds that may play as it
        kin = sorted(c for c in (*rule.needs_escort, *variant.wild_map) if rank_of(c) == rank)
        copies = [c for c in kin for _ in range(variant.copies[c])]  # each physical card once
        picks = draw(st.lists(st.integers(0, len(copies) - 1), min_size=3, max_size=4, unique=True))
        cards = [copies[i] for i in sorted(picks)]
    else:  # a run of the court's suit through it (wrapping past the king where allowed)
        low = draw(st.integers(rank - 2, rank))
        cards = [make_card((low - 1 + k) % 13 + 1, suit) for k in range(draw(st.integers(3, 4)))]
    escorts = [c for c in range(53) if variant.copies[c] and c in rule.escorts]
    escorts += [w for w, r in variant.wild_map.items() if r.stands_for & rule.escorts]
    slots: list[Slot] = []
    for card in cards:
        wilds = sorted(w for w, r in variant.wild_map.items() if card in r.stands_for)
        if card not in variant.wild_map and wilds and draw(st.integers(0, 2)) == 0:
            slot = Slot(draw(st.sampled_from(wilds)), Meaning(rank_of(card), suit_of(card)))
        else:
            slot = Slot(card)
        if card in rule.needs_escort:
            slot = Slot(slot.card, slot.meaning, Slot(draw(st.sampled_from(escorts))))
        slots.append(slot)
    return admit_meld(variant, slots, used)


def _escorts(draw: st.DrawFn, variant: Variant, max_hand: int) -> tuple[list[int], list[tuple[Slot, ...]]]:
    """Black Heart heavy in escorts and diamonds: up to three table melds of black courts with
    their escorts (wilds among them, so diamond swaps are open), sometimes the Diamond Royale,
    and a hand of courts, a few hearts, the diamonds and the ranks next to the courts."""
    assert variant.escorts is not None
    used: Counter[int] = Counter()
    table = [
        meld
        for _ in range(draw(st.sampled_from([2, 1, 3, 0])))
        if (meld := _escorted_meld(draw, variant, variant.escorts, used)) is not None
    ]
    royale = variant.royale
    if (
        royale is not None
        and draw(st.integers(0, 3)) == 0
        and all(used[c] < variant.copies[c] for c in royale.cards)
    ):
        table.append(tuple(Slot(c) for c in royale.cards))  # never extended, split or swapped
        used.update(royale.cards)
    courts = variant.escorts.needs_escort
    near = [make_card(r, suit_of(c)) for c in courts for r in (1, 2, 9, 10)]  # runs through courts
    hearts = draw(st.lists(st.sampled_from(sorted(variant.escorts.escorts)), min_size=1, max_size=3))
    pool = sorted({*courts, *hearts, *variant.wild_map, *near})
    return draw_hand(draw, variant, pool, used, 3, max_hand), table


def _long_hand(draw: st.DrawFn, variant: Variant) -> tuple[list[int], list[tuple[Slot, ...]]]:
    """No table and a hand of 12 to 14 cards from two suits: a per-turn cap (rummy-board's 12)
    decides how much of it may go down."""
    suits = draw(st.lists(st.integers(0, 3), min_size=2, max_size=2, unique=True))
    pool = [make_card(r, s) for r in range(1, 14) for s in suits] + _wild_kinds(variant)[:1]
    cards = draw(st.lists(st.sampled_from(pool), min_size=12, max_size=14, unique=True))
    return sorted(cards), []


@dataclass(frozen=True)
class Combo:
    """Options of a `solve` call held fixed (None: drawn). `duty` is ``none``, ``committed``
    (a card taken from the row must be played) or ``taken`` (a card taken from the pile may not
    be the discard); `capped` draws a `max_cards`."""

    objective: str | None = None
    opened: bool | None = None
    changes: bool | None = None
    capped: bool | None = None
    duty: str | None = None
    kind: str | None = None  # the kind of position (see `_position`)


ANY = Combo()


def duties(variant: Variant) -> list[str]:
    """The turn duties this variant has (rules as data: `take_must_play`, `no_rediscard_of_taken`)."""
    return ["none"] + ["committed"] * variant.take_must_play + ["taken"] * variant.no_rediscard_of_taken


def _position(
    draw: st.DrawFn, config: Config, kind: str | None = None
) -> tuple[list[int], list[tuple[Slot, ...]]]:
    """A position of one kind (see the module doc; ``crowded``, a table of 12 cards and a hand
    of one to three, is slow for the reference: drawn only when hunting or asked for)."""
    v = config.variant
    kinds = ["deal", "deal", "dense", "bare"] + ["long"] * (v.max_hand_cards_per_turn is not None)
    kinds += ["twin"] * (v.tile_style and JOKER in v.wild_map)
    kinds += ["escorts"] * (v.escorts is not None)
    kind = kind or draw(st.sampled_from(kinds + ["crowded"] * bool(HUNT)))
    if kind in ("deal", "crowded"):
        # sizes from the seed, not drawn: hypothesis favours small values, deals should not
        seed = draw(st.integers(0, 10**9))
        rng = random.Random(seed)
        table_size = 12 if kind == "crowded" else rng.choice(config.tables)
        hand_size = rng.randint(1, 3) if kind == "crowded" else rng.randint(2, config.max_hand)
        joker_rate, related = rng.choice([0.0, 0.15, 0.4]), rng.choice([0.0, 0.7, 1.0])
        return random_position(v, seed, table_size, hand_size, joker_rate=joker_rate, related=related)
    if kind == "dense":
        return _dense(draw, v, config.max_hand)
    if kind == "bare":
        hand, table = _dense(draw, v, 3)
        return hand, table[:1]
    if kind == "escorts":
        return _escorts(draw, v, config.max_hand)
    if kind == "twin":
        return _twin(draw, v, config.max_hand)
    return _long_hand(draw, v)


def _pick(draw: st.DrawFn, fixed: object, options: st.SearchStrategy) -> Any:
    return draw(options) if fixed is None else fixed


@st.composite
def cases(draw: st.DrawFn, config: Config, combo: Combo = ANY) -> Case:
    """A position and the options of one `solve` call (those `combo` fixes, else drawn)."""
    v = config.variant
    hand, table = _position(draw, config, combo.kind)
    capped = _pick(draw, combo.capped, st.booleans())
    cap = draw(st.integers(0, max(len(hand), 1))) if capped else None
    duty = _pick(draw, combo.duty, st.sampled_from(duties(v)))
    committed = [draw(st.sampled_from(hand))] if duty == "committed" and hand else []
    taken = draw(st.sampled_from(hand)) if duty == "taken" and hand else None
    score = draw(st.sampled_from([step.min_score for step in v.opening_chart] or [0]))
    return Case(
        hand,
        table,
        _pick(draw, combo.opened, st.booleans()),
        _pick(draw, combo.objective, st.sampled_from(OBJECTIVES)),
        cap,
        _pick(draw, combo.changes, st.booleans()),
        committed,
        taken,
        score,
    )


def _settings(config: Config) -> settings:
    return settings(
        max_examples=HUNT or config.examples,
        deadline=None,
        derandomize=not HUNT,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        database=None,
    )


def check_case(config: Config, case: Case) -> str:
    """The solver's answer against the reference's (see the module doc), and how it stands:
    ``refused`` (no legal play keeps the duties), ``optimal``, or for an unproven answer
    ``feasible=best`` (the reference's score) or ``feasible<best``."""
    v = config.variant
    common = {
        "opened": case.opened,
        "objective": case.objective,
        "max_cards": case.max_cards,
        "committed": case.committed,
        "score": case.score,
    }
    taken = {} if case.taken is None else {"taken": case.taken}
    try:
        slow = reference_solve(v, case.hand, case.table, **common, **taken)
    except IllegalMoveError:
        with pytest.raises(IllegalMoveError):
            solve(v, case.hand, case.table, minimize_changes=case.changes, **common, **taken)
        return "refused"
    fast = solve(v, case.hand, case.table, minimize_changes=case.changes, **common, **taken)
    again = solve(v, case.hand, case.table, minimize_changes=case.changes, **common, **taken)
    assert (fast.played, fast.melds, fast.status, fast.swaps) == (
        again.played,
        again.melds,
        again.status,
        again.swaps,
    )
    position = make_position(v, case.hand, case.table, case.opened)
    got = (fast.cards_played, fast.points_played)
    best = (slow.cards_played, slow.points_played)
    verdict = fast.status
    if fast.status == "optimal":
        assert got == best, (fast.table_text(), slow.table_text())
        assert fast.value == slow.value
    else:  # only the judge repair (a relaxed joker rule) may stop short of a proof
        assert v.joker_rules.model_relaxed
        mine, theirs = (
            score_key(position, case.objective, fast.played),
            score_key(position, case.objective, slow.played),
        )
        assert mine <= theirs
        verdict = "feasible=best" if mine == theirs else "feasible<best"
    _check_legal(config, case, fast)
    # the fewest-broken tie-break is best effort (solvers.fast, rhine_repair): it may break more
    # start melds than the reference's fewest (sweep_grid.py --ties counts how often), but it
    # never costs the primary objective, checked above with the tie-break on and off
    return verdict


def _check_legal(config: Config, case: Case, fast: Solution) -> None:
    """The answer is a legal turn: checks, judge or growing table, cap and duties."""
    v = config.variant
    position = make_position(v, case.hand, case.table, case.opened)
    check_solution(position, fast)
    if v.tile_style:
        if fast.played:
            assert judged_legal(v, case.hand, case.table, fast.melds, case.opened)
    elif not fast.swaps:
        assert start_melds_grow(position, fast.melds)
    for cap in (case.max_cards, v.max_hand_cards_per_turn):
        assert cap is None or fast.cards_played <= cap
    assert not Counter(case.committed) - Counter(fast.played)
    if fast.played:
        assert turn_rules(position, case.committed, case.taken)(fast.played)


@pytest.mark.parametrize("config", CONFIGS, ids=[c.name for c in CONFIGS])
def test_sweep_matches_reference(config: Config) -> None:
    @_settings(config)
    @given(case=cases(config))
    def sweep(case: Case) -> None:
        check_case(config, case)

    sweep()


# ---------------------------------------------------------------------------- pinned regressions
@pytest.mark.parametrize(
    ("hand", "table", "taken", "played"),
    [
        ("9H 9H", "5H 6H 7H 8H", "9H", "9H"),  # lay off the taken 9H, discard the other copy
        ("9H", "", "9H", ""),  # nothing to play: proven, not a failed model
        ("9H 3C", "5H 6H 7H 8H", "3C", ""),  # 9H laid off would leave only the taken 3C
    ],
)
def test_taken_card_copies_are_alike(hand: str, table: str, taken: str, played: str) -> None:
    """Rummy Palace may not discard the card taken from the pile; a second copy of it may go."""
    sol = solve("rummy-palace", hand, table, taken=taken)
    assert sol.status == "optimal"
    assert sol.played_text() == played
    assert reference_solve("rummy-palace", hand, table, taken=taken).played_text() == played


# ---------------------------------------------------------------------------- cut searches
LIMITS: list[dict[str, Any]] = [
    {"work_limit": 0.00001},
    {"work_limit": 0.0001},
    {"work_limit": 0.0003, "max_cards": 5},
    {"work_limit": 0.0003, "opened": False},
    {"time_limit": 0.0005},
    {"work_limit": 0.0002, "commit": True},
]


@pytest.mark.parametrize(
    "variant", ["rummikub", "rummy-board", "rummy-tiles", "rhine", "rummy-palace", "standard", "black-heart"]
)
def test_cut_search_gives_a_legal_move(variant: str) -> None:
    """A time or work limit that stops the search early gives a legal move (``feasible`` when not
    proven), the same one on every run for a work limit; a committed card is still played ("play
    nothing" would leave it in hand)."""
    v = get_variant(variant)
    config = Config(variant, v, (), 0, 0)
    statuses = set()
    for seed in range(3):
        hand, table = random_position(v, seed, 60, 20, joker_rate=0.2, related=0.7)
        placeable = solve(v, hand, table, work_limit=0.01).played[:1]  # a card with a legal play
        for limits in LIMITS:
            committed = list(placeable) if limits.get("commit") and v.take_must_play else []
            opened = bool(limits.get("opened", True))
            case = Case(hand, table, opened, "cards", limits.get("max_cards"), True, committed, None, 0)
            runs = [
                solve(
                    v,
                    hand,
                    table,
                    opened=opened,
                    max_cards=case.max_cards,
                    committed=committed,
                    time_limit=limits.get("time_limit"),
                    work_limit=limits.get("work_limit"),
                )
                for _ in range(2)
            ]
            if "work_limit" in limits:  # a time limit cuts or not as the machine's speed says
                statuses.add(runs[0].status)
            _check_legal(config, case, runs[0])
            if "work_limit" in limits:
                assert (runs[1].played, runs[1].melds, runs[1].status) == (
                    runs[0].played,
                    runs[0].melds,
                    runs[0].status,
                )
    # the work limits did cut some searches; standard's positions here are proven optimal even
    # within the smallest work limit (its turns only add new melds and lay-offs from the hand)
    assert "feasible" in statuses or variant == "standard"


OFFICIAL = get_variant("rummikub", ["official_jokers"])
FROM_TABLE = get_variant("rummikub", {"official_jokers": True, "joker_replacement_from": "rack_or_table"})


@pytest.mark.parametrize(
    ("variant", "hand", "table"),
    [
        (OFFICIAL, "AS", "JK=AS JK=2S 3S"),  # the freed joker may not stay in its own meld as 4S
        (FROM_TABLE, "4H", "JK=AH JK=2H 3H"),
    ],
)
def test_official_jokers_go_to_a_new_meld(variant: Variant, hand: str, table: str) -> None:
    """Official Rummikub table jokers (§8.2): the model let a replaced joker stay in its meld
    ('AS JK=2S 3S JK=4S', which the judge rejects) and called it optimal; answers are now judged."""
    sol = solve(variant, hand, table)
    position = make_position(variant, hand, table)
    check_solution(position, sol)
    if sol.played:
        assert judged_legal(variant, list(position.hand), [i.slots for i in position.table], sol.melds, True)
    best = reference_solve(variant, hand, table)
    assert (sol.cards_played, sol.points_played) <= (best.cards_played, best.points_played)
    assert sol.status == "feasible" or sol.cards_played == best.cards_played


def test_rhine_repair_rejects_a_joker_freed_for_nothing() -> None:
    """The first Rhine model plays 6S for the joker (R5 rejects it: the joker has no new meld);
    the repair finds that nothing goes down. (`committed`, which this case also pinned, is now
    refused for variants without a take-and-play duty: see tests/test_contract_solve.py.)"""
    sol = solve("rhine", "6S 4H", "5S JK=6S 7S")
    assert (sol.status, sol.cards_played) == ("optimal", 0)
    assert reference_solve("rhine", "6S 4H", "5S JK=6S 7S").cards_played == 0


def test_rhine_joker_melds_trading_replacements_are_not_called_optimal() -> None:
    """Each joker's replacement comes from the other joker meld ('2S 3S 4S' frees both jokers,
    R4): three cards go down. The repair's witness model misses that table; its one-card optimum
    was taken for a bound and the one-card answer called optimal. It is ``feasible`` now."""
    hand, table = "AS AH 3D", "2S 3S JK=4S | JK=2S 3S 4S"
    best = reference_solve("rhine", hand, table)
    assert best.cards_played == 3
    sol = solve("rhine", hand, table)
    check_solution(make_position("rhine", hand, table), sol)
    assert sol.status == "feasible" or sol.cards_played == 3
    assert sol.cards_played <= 3


def test_official_jokers_judged_in_any_meld_order() -> None:
    """Found by the sweep (rummikub+official, opened): the solver's 3-card play was right, but the
    reference listed the same table in the other meld order, which the judge rejected (a §8.2
    joker-rule verdict on one copy assignment was taken for an invalid meld), and played 2."""
    hand, table = "2S 2S 4S", "AS JK=2S JK=3S 4S"
    best = reference_solve(OFFICIAL, hand, table)
    assert best.cards_played == 3
    sol = solve(OFFICIAL, hand, table, minimize_changes=False)
    assert (sol.status, sol.cards_played) == ("optimal", 3)
    position = make_position(OFFICIAL, hand, table)
    check_solution(position, sol)
    assert judged_legal(OFFICIAL, list(position.hand), [i.slots for i in position.table], sol.melds, True)
