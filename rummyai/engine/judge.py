"""Judge a tile-style PLAY written in card tokens (the `rummyai validate` contract).

Text has no physical ids, and needs none: the rules read a turn on card kinds (§7.1), and
`tile_rules.check_play` tells which copy went where by the canonical copy assignment. The judge
gives the cards ids and tries each reading of the wilds whose meaning is not written: the play
is legal if SOME reading passes. A joker's meaning written on the start table is the one the
joker rules hold it to.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations, islice, product
from typing import Any, TypeVar

from rummyai.cards import (
    CardsInput,
    Meaning,
    Slot,
    card_str,
    check_copies,
    rank_of,
    rank_str,
    read_cards,
    sort_key,
    suit_of,
)
from rummyai.engine.copies import CopiesTimeout, conservation_problem, deadline_scope
from rummyai.engine.moves import Violation
from rummyai.engine.qualify import before_opening, qualifies_inside_turn, search_qualifying
from rummyai.engine.state import TableMeld
from rummyai.engine.tile_rules import PlayCheck, check_play, meld_sort_key, meld_text, sections
from rummyai.errors import MeldError, RummyError, VariantError, check_flag
from rummyai.melds import TableInput, analyze_meld, analyze_table, read_table
from rummyai.variants import Variant, get_variant

MAX_LAYOUTS = 20_000  # readings of the new table's unstated wilds tried per judgement
_T = TypeVar("_T")


@dataclass(frozen=True)
class Judgement:
    """The verdict on a play: legal or not, the hand cards played, the rule broken and why.

    `new_table` is the judged table with every wild's meaning written (legal plays only);
    `opening` the melds that open for a player who had not opened (legal plays only: the hint
    lays them first, and in Rhine they may be only part of a new meld, §1.4). `start_meld`, where
    the broken rule names one (Rhine R4), is the start meld whose joker broke it, by its index in
    the table as given: the solver's repair tries keeping that joker.
    """

    legal: bool
    played: list[str] = field(default_factory=list)
    rule: str | None = None
    reason: str | None = None
    new_table: list[list[str]] = field(default_factory=list)
    opening: list[list[str]] = field(default_factory=list)
    start_meld: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The contract's output: ``{"legal": true, "played": [...]}`` or the rule and reason."""
        if self.legal:
            return {"legal": True, "played": list(self.played)}
        return {"legal": False, "rule": self.rule, "reason": self.reason}


def judge_play(
    variant: str | Variant,
    hand: CardsInput,
    table: TableInput,
    new_table: TableInput,
    opened: bool = True,
    options: Any = None,
    deadline: float | None = None,
    fixed_order: bool = True,
) -> Judgement:
    """Is `new_table` a legal result of playing cards from `hand` onto `table`?

    The answer depends on card kinds only (§7.1), never on the order anything is written in:
    the hand, the table and the new table are judged in one fixed order (by card kinds, then
    meanings), so the verdict, the rule named for an illegal play and the qualifying melds found
    for a legal one are the same however the play is written; `new_table` comes back in the
    order given. `fixed_order=False` judges them as written, which gives the same verdict: the
    solver's check asks only legal or not, and reading its tables in the order the bridge to
    engine plays reads them lets the two share one copy search.

    `deadline` (a `time.perf_counter()` value) bounds the search over readings of unstated
    wilds and the exact search for canonical copy assignments (`copies.deadline_scope`): past
    it, a play with no legal reading found yet is refused under rule ``time``.

    Raises `CardError` (unknown token), `DeckError` (more copies than the deck holds),
    `MeldError` (a start-table meld that is not valid, an escort in the new table) or
    `VariantError`; each names the meld by its number in the table or the new table.
    """
    check_flag("opened", opened)
    check_flag("fixed_order", fixed_order)
    rules = get_variant(variant, options)
    if not rules.tile_style:
        raise VariantError(f"{rules.id} is not a tile-style variant; the judge rates table rearrangements")
    hand_cards = read_cards(hand)
    start = [normalize_meld(rules, m) for m in read_table(table)]
    written = read_table(new_table, "new table")
    for k, meld in enumerate(written, start=1):
        if any(s.escort is not None for s in meld):
            raise MeldError(f"new table meld {k}: escorts ('/') do not exist in {rules.id}")
    final = [normalize_meld(rules, m) for m in written]
    check_copies(rules, [*hand_cards, *(s.card for m in start for s in m)], "hand and table")
    check_copies(rules, [s.card for m in final for s in m], "the new table")
    analyze_table(rules, start)
    if not fixed_order:
        return _judge_ordered(rules, hand_cards, start, final, opened, deadline)
    order = sorted(range(len(final)), key=lambda k: meld_sort_key(final[k]))
    start_order = sorted(range(len(start)), key=lambda k: meld_sort_key(start[k]))
    verdict = _judge_ordered(
        rules,
        sorted(hand_cards, key=sort_key),
        [start[k] for k in start_order],
        [final[k] for k in order],
        opened,
        deadline,
    )
    if verdict.start_meld is not None:
        verdict = replace(verdict, start_meld=start_order[verdict.start_meld])
    if verdict.legal:  # one judged meld per new meld, in the order judged
        as_given: list[list[str]] = [[] for _ in order]
        for text, k in zip(verdict.new_table, order, strict=True):
            as_given[k] = text
        verdict = replace(verdict, new_table=as_given)
    return verdict


def _judge_ordered(
    rules: Variant,
    hand_cards: list[int],
    start: list[tuple[Slot, ...]],
    final: list[tuple[Slot, ...]],
    opened: bool,
    deadline: float | None,
) -> Judgement:
    """`judge_play` on read input in the order given: ids handed out in that order (identical
    copies in order of appearance), then the layouts judged."""
    ids = _IdPool(rules)
    start_melds = tuple(
        TableMeld(tuple(ids.take(s.card) for s in meld), tuple(s.meaning for s in meld)) for meld in start
    )
    hand_ids = [ids.take(c) for c in hand_cards]
    try:
        with deadline_scope(deadline):
            return _judge_layouts(rules, start_melds, hand_ids, final, opened, deadline)
    except CopiesTimeout:
        return Judgement(False, rule="time", reason="the time limit ran out before a legal reading was found")


def _judge_layouts(
    rules: Variant,
    start_melds: tuple[TableMeld, ...],
    hand_ids: list[int],
    final: list[tuple[Slot, ...]],
    opened: bool,
    deadline: float | None,
) -> Judgement:
    """`judge_play` past its input checks: the first legal reading, else the first violation."""
    first: Violation | None = None
    unqualified: list[tuple[TableMeld, ...]] = []
    sec = sections(rules)
    doomed: set[tuple[tuple[Meaning | None, ...], ...]] = set()
    for new in layouts(rules, start_melds, hand_ids, final):
        if isinstance(new, Violation):
            return Judgement(False, rule=new.rule, reason=new.reason)
        if deadline is not None and time.perf_counter() > deadline:
            return Judgement(
                False, rule="time", reason="the time limit ran out before a legal reading was found"
            )
        meanings = tuple(m.meanings for m in new)
        if meanings in doomed:
            continue  # same kinds and meanings: another copy assignment cannot make a meld valid
        check = check_play(rules, start_melds, hand_ids, new, opened)
        if check.violation is None:
            return _legal(rules, check)
        if check.violation.rule in (sec.conservation, sec.validity) and _some_invalid(rules, new):
            doomed.add(meanings)
        if not opened and check.violation.rule not in before_opening(rules):
            unqualified.append(new)  # other qualifying melds may pass it (search_qualifying)
        first = first or check.violation
    assert first is not None
    if not opened and qualifies_inside_turn(rules) and unqualified:
        # §1.4: these copy assignments found no qualifying meld among the new melds; look inside
        check = search_qualifying(rules, start_melds, hand_ids, unqualified, first)
        if check.violation is None:
            return _legal(rules, check)
        if first.rule == sec.opening:
            first = check.violation
    return Judgement(False, rule=first.rule, reason=first.reason, start_meld=first.meld)


def _some_invalid(variant: Variant, new: tuple[TableMeld, ...]) -> bool:
    """Whether a new meld is no valid meld, which its kinds and meanings alone decide (so every
    copy assignment fails alike). Asked directly: a section number cannot tell, Rummikub cites
    §8.2 for invalid melds and for its table-joker rule alike, whose verdict depends on the copies."""
    deck = variant.deck
    for meld in new:
        try:
            analyze_meld(variant, meld.slots(deck))
        except MeldError:
            return True
    return False


def normalize_meld(variant: Variant, meld: tuple[Slot, ...]) -> tuple[Slot, ...]:
    """Write a meld's meanings in the one form the engine keeps (§7.1).

    A natural card stating itself (``8C=8C``) plays as itself, so its meaning is dropped; a run
    wild given a rank only (``JK=T`` in a club run) takes the run's suit. Melds that are not
    valid are left as written, for the rules to reject with a reason.
    """
    if all(s.meaning is None for s in meld):
        return meld
    try:
        info = analyze_meld(variant, meld)
    except MeldError:
        return meld
    out = []
    for s in meld:
        if s.meaning is not None and not variant.is_wild(s.card):
            s = Slot(s.card, None, s.escort)  # "8C=8C": analyze_meld only accepts its own card here
        elif s.meaning is not None and s.meaning.suit is None and info.kind == "run":
            s = Slot(s.card, Meaning(s.meaning.rank, info.suit), s.escort)
        out.append(s)
    return tuple(out)


def _legal(variant: Variant, check: PlayCheck) -> Judgement:
    deck = variant.deck
    played = sorted((deck[i] for i in check.played), key=sort_key)
    table = [meld_text(m, deck).split() for m in check.table]
    opening = [meld_text(m, deck).split() for m in check.opening]
    return Judgement(True, [card_str(c) for c in played], new_table=table, opening=opening)


class _IdPool:
    """Hands out the physical ids of each card kind in deck order."""

    def __init__(self, variant: Variant) -> None:
        self.free: dict[int, list[int]] = defaultdict(list)
        for i in reversed(range(len(variant.deck))):
            self.free[variant.deck[i]].append(i)

    def take(self, kind: int) -> int:
        return self.free[kind].pop()


def layouts(
    variant: Variant,
    start: tuple[TableMeld, ...],
    hand: list[int],
    final: list[tuple[Slot, ...]],
) -> Iterator[tuple[TableMeld, ...] | Violation]:
    """Candidate physical new tables, one per reading of the new melds' unstated wilds (`_meanings`):
    the written meanings first, then those that change the fewest melds' readings, up to
    `MAX_LAYOUTS` tables. Copies get any ids: `check_play` reads them on the canonical copy
    assignment (§7.1), so no assignment of identical copies is tried here."""
    deck = variant.deck
    before = Counter(deck[i] for m in start for i in m.ids)
    after = Counter(s.card for meld in final for s in meld)
    problem = conservation_problem(deck, before, Counter(deck[i] for i in hand), after)
    if problem is not None:
        yield Violation(sections(variant).conservation, problem)
        return
    pools: dict[int, list[int]] = defaultdict(list)
    for i in [*(i for m in start for i in m.ids), *hand]:
        pools[deck[i]].append(i)
    ids = [tuple(pools[s.card].pop(0) for s in meld) for meld in final]
    played = after.total() - before.total()
    cap = variant.max_hand_cards_per_turn
    # no hand card played (R1), or more than the cap: every reading fails alike
    doomed = played == 0 or (cap is not None and played > cap)
    choices = [_meanings(variant, meld) for meld in final]
    for combo in islice(_fewest_changes(choices), 1 if doomed else MAX_LAYOUTS):
        yield tuple(TableMeld(i, mean) for i, mean in zip(ids, combo, strict=True))


def _fewest_changes(alternatives: Sequence[Sequence[_T]]) -> Iterator[tuple[_T, ...]]:
    """Every pick of one alternative per list, the preferred (first) ones, then those changing
    the fewest lists.

    A plain product would vary the last lists first and, past a cap, never reach another choice
    for the first list; one list changed is the likeliest need.
    """
    movable = [k for k, a in enumerate(alternatives) if len(a) > 1]
    preferred = [a[0] for a in alternatives]
    yield tuple(preferred)
    for changes in range(1, len(movable) + 1):
        for which in combinations(movable, changes):
            for pick in product(*(alternatives[k][1:] for k in which)):
                out = list(preferred)
                for k, choice in zip(which, pick, strict=True):
                    out[k] = choice
                yield tuple(out)


def _meanings(variant: Variant, meld: tuple[Slot, ...]) -> list[tuple[Meaning | None, ...]]:
    """The written meanings first, then other valid meanings for the unstated wilds."""
    written = tuple(s.meaning for s in meld)
    unstated = [k for k, s in enumerate(meld) if s.meaning is None and variant.is_wild(s.card)]
    if not unstated:
        return [written]
    naturals = [s.card for s in meld if not variant.always_wild(s.card)]
    options: list[Meaning] = []
    if len({rank_of(c) for c in naturals}) == 1:
        options.append(Meaning(rank_of(naturals[0])))
    for suit in {suit_of(c) for c in naturals}:
        options += [Meaning(r, suit) for r in range(1, 14)]
    out = [written]
    seen = {_wild_meanings(variant, meld, written)}
    for pick in islice(product(options, repeat=len(unstated)), 4096):
        stated = list(written)
        for k, meaning in zip(unstated, pick, strict=True):
            stated[k] = meaning
        key = _wild_meanings(variant, meld, tuple(stated))
        if key is None or key in seen:
            continue  # not a meld, or the same reading as one already listed
        seen.add(key)
        out.append(tuple(stated))
    return out


def _wild_meanings(
    variant: Variant, meld: tuple[Slot, ...], stated: tuple[Meaning | None, ...]
) -> tuple[tuple[int, str], ...] | None:
    """How the meld reads with these meanings (its wilds and what they stand for), None if invalid.

    Two statements with one reading judge alike, so the search lists each reading once and the
    alternatives of many joker melds stay within `MAX_MEANINGS`.
    """
    try:
        info = analyze_meld(variant, tuple(Slot(s.card, m) for s, m in zip(meld, stated, strict=True)))
    except MeldError:
        return None
    group = info.kind == "group"  # the rules read a group wild by its rank alone (§0, §1.8 5)
    return tuple(
        sorted(
            (s.card, rank_str(s.meaning.rank) if group and s.meaning else str(s.meaning))
            for s, w in zip(info.slots, info.as_wild, strict=True)
            if w
        )
    )


_JUDGE_KEYS = {"variant", "hand", "table", "new_table", "opened", "options"}


def judge_json(obj: Mapping[str, Any], deadline: float | None = None) -> dict[str, Any]:
    """The `rummyai validate --json` answer for one input object (``{"error": ...}`` on bad input;
    ``table`` defaults to an empty table, as in `solve`); `deadline` as in `judge_play`."""
    try:
        if not isinstance(obj, Mapping):
            raise RummyError("a position is a JSON object")
        missing = [k for k in ("variant", "hand", "new_table") if k not in obj]
        if missing:
            raise RummyError(f"missing field(s): {', '.join(missing)}")
        unknown = sorted(set(obj) - _JUDGE_KEYS)
        if unknown:
            known = ", ".join(sorted(_JUDGE_KEYS))
            raise RummyError(f"unknown key(s) {', '.join(map(repr, unknown))} (known: {known})")
        opened = obj.get("opened", True)
        if not isinstance(opened, bool):
            raise RummyError(f"'opened' must be true or false, got {opened!r}")
        if not isinstance(obj["variant"], str):
            raise RummyError(f"'variant' must be a string, got {obj['variant']!r}")
        judgement = judge_play(
            obj["variant"],
            _tokens(obj["hand"], "hand"),
            _table(obj.get("table", []), "table"),
            _table(obj["new_table"], "new_table"),
            opened=opened,
            options=obj.get("options"),
            deadline=deadline,
        )
    except RummyError as error:
        return {"error": str(error)}
    return judgement.to_json()


def _tokens(value: Any, name: str) -> list[str] | str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(t, str) for t in value):
        return list(value)
    raise RummyError(f"'{name}' must be a string of card tokens or a list of them")


def _table(value: Any, name: str) -> list[str | list[str]] | str:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(
        isinstance(m, str) or (isinstance(m, list) and all(isinstance(t, str) for t in m)) for m in value
    ):
        return list(value)
    raise RummyError(
        f"'{name}' must be a string of melds separated by '|' or a list of melds, each a string or a "
        "list of card tokens"
    )
