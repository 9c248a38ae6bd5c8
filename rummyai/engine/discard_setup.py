"""Build draw-meld-discard positions from card text, for tests, examples and hint requests.

`build_state` lays out hands, table melds (with meanings and escorts), the discard pile or row and
the stock from notation, giving each card the lowest free physical id of its kind. `hand_meld`
and `hand_layoff` turn written melds into `TableMeld`s of the ids a seat holds.
"""

from __future__ import annotations

from collections.abc import Sequence

from rummyai.cards import Slot, card_str, parse_cards, parse_meld
from rummyai.engine.discard_melds import analyze, meld_value, normalize
from rummyai.engine.discard_rules import DiscardData, Phase
from rummyai.engine.state import GameState, RoundState, TableMeld
from rummyai.errors import DeckError, MeldError
from rummyai.variants import Variant, get_variant


class _Ids:
    """Hands out free physical ids of each card kind."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.free: dict[int, list[int]] = {}
        for i, kind in enumerate(variant.deck):
            self.free.setdefault(kind, []).append(i)

    def take(self, kind: int) -> int:
        ids = self.free.get(kind)
        if not ids:
            raise DeckError(f"no free copy of {card_str(kind)} left in the {self.variant.id} deck")
        return ids.pop(0)

    def rest(self) -> list[int]:
        return sorted(i for ids in self.free.values() for i in ids)


def _check_escort_meanings(variant: Variant, slots: Sequence[Slot]) -> None:
    """An escort written with a meaning (``QC/KD=5H``) must mean a heart the card may stand for
    (§6.2): a `TableMeld` keeps no escort meanings, so a wrong one would otherwise be dropped."""
    rule = variant.escorts
    for slot in slots:
        escort = slot.escort
        if rule is None or escort is None or escort.meaning is None:
            continue
        meant = escort.meaning.card()
        wild = variant.wild_map.get(escort.card)
        fits = meant == escort.card if wild is None else meant in wild.stands_for
        if meant not in rule.escorts or not fits:
            raise MeldError(
                f"escort {escort} of {card_str(slot.card)} does not stand for a heart it may be (§6.2)"
            )


def _table_meld(variant: Variant, ids: _Ids, slots: Sequence[Slot], seat: int) -> TableMeld:
    _check_escort_meanings(variant, slots)
    core = [ids.take(s.card) for s in slots]
    escorts = [None if s.escort is None else ids.take(s.escort.card) for s in slots]
    meld = TableMeld(
        tuple(core), tuple(s.meaning for s in slots), tuple(escorts) if variant.escorts is not None else ()
    )
    return normalize(variant, meld, (seat,) * len(core))[0]


def build_state(
    variant: str | Variant,
    hands: Sequence[str],
    table: Sequence[str] = (),
    discard: str = "",
    stock: str | None = None,
    *,
    turn: int = 0,
    phase: Phase = "play",
    opened: Sequence[bool] | None = None,
    played: Sequence[bool] | None = None,
    scores: Sequence[int] | None = None,
    table_credit: Sequence[int] | None = None,
    taken: str = "",
    committed: str = "",
    options: Sequence[str] | None = None,
) -> GameState:
    """A position: hands and table in notation (melds may carry ``=`` meanings and ``/`` escorts),
    the discard pile/row oldest first, the stock with its next card last (default: every card
    not placed). `taken`/`committed` name cards in the hand of `turn` taken from the discards."""
    rules = get_variant(variant, options)
    ids = _Ids(rules)
    n = len(hands)
    hand_ids = [tuple(ids.take(k) for k in parse_cards(h)) if h.strip() else () for h in hands]
    credit = list(table_credit) if table_credit is not None else [0] * len(table)
    melds = tuple(_table_meld(rules, ids, parse_meld(text), credit[k]) for k, text in enumerate(table))
    discard_ids = tuple(ids.take(k) for k in parse_cards(discard)) if discard.strip() else ()
    if stock is None:
        stock_ids = tuple(ids.rest())
    else:
        stock_ids = tuple(ids.take(k) for k in parse_cards(stock)) if stock.strip() else ()
    credited = [0] * n
    for meld, seat in zip(melds, credit, strict=True):
        credited[seat] += meld_value(rules, meld, analyze(rules, meld))
    own = list(hand_ids[turn])

    def pick(text: str) -> tuple[int, ...]:
        chosen: list[int] = []
        for kind in parse_cards(text) if text.strip() else []:
            match = next(i for i in reversed(own) if rules.deck[i] == kind and i not in chosen)
            chosen.append(match)
        return tuple(chosen)

    played_flags = tuple(played) if played is not None else (False,) * n
    round_state = RoundState(
        dealer=(turn - 1) % n,
        turn=turn,
        hands=tuple(hand_ids),
        table=melds,
        stock=stock_ids,
        discard=discard_ids,
        opened=tuple(opened) if opened is not None else (True,) * n,
        played_before=played_flags,
        credited=tuple(credited),
        family_data=DiscardData(
            phase=phase,
            taken=pick(taken),
            committed=pick(committed),
            fresh=not played_flags[turn],
            next_turn=turn,
        ),
    )
    return GameState(rules, 0, n, 0, tuple(scores) if scores is not None else (0,) * n, round_state)


def hand_ids(state: GameState, seat: int, text: str) -> list[int]:
    """Ids of the named cards in `seat`'s hand (distinct copies, in the order written)."""
    variant = state.variant
    chosen: list[int] = []
    for kind in parse_cards(text):
        found = [i for i in state.round.hands[seat] if variant.deck[i] == kind and i not in chosen]
        if not found:
            raise DeckError(f"seat {seat} holds no (more) {card_str(kind)}")
        chosen.append(found[0])
    return chosen


def hand_meld(state: GameState, seat: int, text: str) -> TableMeld:
    """A written meld (``"JK=9H TH JH"``, ``"QS/6H KS/3H AS"``) as a `TableMeld` of `seat`'s ids."""
    variant = state.variant
    slots = parse_meld(text)
    _check_escort_meanings(variant, slots)
    used: list[int] = []

    def one(kind: int) -> int:
        found = [i for i in state.round.hands[seat] if variant.deck[i] == kind and i not in used]
        if not found:
            raise DeckError(f"seat {seat} holds no (more) {card_str(kind)}")
        used.append(found[0])
        return found[0]

    core = [one(s.card) for s in slots]
    escorts = [None if s.escort is None else one(s.escort.card) for s in slots]
    return TableMeld(
        tuple(core),
        tuple(s.meaning for s in slots),
        tuple(escorts) if variant.escorts is not None else (),
    )


def hand_layoff(state: GameState, seat: int, target: int, text: str, *, front: bool = False) -> TableMeld:
    """Table meld `target` after adding the written cards from `seat`'s hand at its end (or front)."""
    old = state.round.table[target]
    added = hand_meld(state, seat, text)
    escorts_old = old.escorts or ((None,) * len(old.ids) if state.variant.escorts is not None else ())
    if front:
        return TableMeld(
            (*added.ids, *old.ids),
            (*added.meanings, *old.meanings),
            (*added.escorts, *escorts_old) if state.variant.escorts is not None else (),
        )
    return TableMeld(
        (*old.ids, *added.ids),
        (*old.meanings, *added.meanings),
        (*escorts_old, *added.escorts) if state.variant.escorts is not None else (),
    )
