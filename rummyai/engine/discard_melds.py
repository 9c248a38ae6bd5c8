"""Meld checks of the draw-meld-discard family on physical ids: new melds, lay-offs, openings, values.

`normalize` turns a `TableMeld` of ids into the canonical table form (meld order, every wild's
meaning filled in) or raises `Illegal` citing the docs/rules section. Openings are judged from
the `MeldInfo`s of the new melds a player made in one turn (`Requirement.met_by`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from rummyai.cards import Meaning, card_str
from rummyai.engine.moves import Violation
from rummyai.engine.state import TableMeld
from rummyai.errors import MeldError
from rummyai.melds import MeldInfo, analyze_meld, card_count, opening_value
from rummyai.memo import memoized
from rummyai.variants import ChartStep, Variant

# docs/rules sections cited by violations, per variant (documentation data, not rules).
_SECTIONS: dict[str, dict[str, str]] = {
    "rummy-palace": {
        "turn": "4.2",
        "meld": "4.3",
        "opening": "4.4",
        "swap": "4.5",
        "end": "4.6",
        "knock": "4.7",
        "escort": "4.3",
    },
    "standard": {
        "turn": "5.2",
        "meld": "5.3",
        "opening": "5.2",
        "swap": "5.2",
        "end": "5.4",
        "knock": "5.2",
        "escort": "5.3",
    },
    "black-heart": {
        "turn": "5.2",
        "meld": "6.3",
        "opening": "6.4",
        "swap": "6.5",
        "end": "5.4",  # §6.7.9: a deal ends (draw pile empty) as in the standard game
        "knock": "5.2",
        "escort": "6.2",
    },
}
Topic = Literal["turn", "meld", "opening", "swap", "end", "knock", "escort"]


def section(variant: Variant, topic: Topic) -> str:
    """The docs/rules section a violation about `topic` cites for this variant."""
    table = _SECTIONS.get(variant.id) or _SECTIONS["standard"]
    return table[topic]


class Illegal(Exception):
    """Raised inside the family to stop at the first broken rule."""

    def __init__(self, violation: Violation) -> None:
        super().__init__(str(violation))
        self.violation = violation


def fail(variant: Variant, topic: Topic, reason: str) -> Illegal:
    """An `Illegal` for `topic` with the variant's section."""
    return Illegal(Violation(section(variant, topic), reason))


def _meld_error(variant: Variant, error: MeldError) -> Illegal:
    text = str(error)
    topic: Topic = "escort" if "escort" in text else "meld"
    return fail(variant, topic, text)


@memoized("_dmd_analyze_cache", Illegal, 100_000)
def analyze(variant: Variant, meld: TableMeld) -> MeldInfo:
    """The meld's interpretation under the variant, or `Illegal` with the meld section (cached)."""
    if variant.escorts is None and any(e is not None for e in meld.escorts):
        raise fail(variant, "meld", f"escorts do not exist in {variant.id}")
    if meld.escorts and len(meld.escorts) != len(meld.ids):
        raise fail(variant, "meld", "a meld needs one escort entry (or None) per core card")
    if len(meld.meanings) != len(meld.ids):
        raise fail(variant, "meld", "a meld needs one meaning entry (or None) per core card")
    try:
        return analyze_meld(variant, meld.slots(variant.deck))
    except MeldError as error:
        raise _meld_error(variant, error) from None


def normalize(variant: Variant, meld: TableMeld, credit: Sequence[int] = ()) -> tuple[TableMeld, MeldInfo]:
    """Canonical table form of a valid meld (meld order, meanings resolved) and its analysis; cached.

    `credit` gives the seat credited with each core card of `meld` in its given order.
    """
    return _normalized(variant, (meld, tuple(credit)))


@memoized("_dmd_cache", Illegal, 100_000)
def _normalized(variant: Variant, key: tuple[TableMeld, tuple[int, ...]]) -> tuple[TableMeld, MeldInfo]:
    """`normalize` of a (meld, credit) pair."""
    meld, credit = key
    info = analyze(variant, meld)
    deck = variant.deck
    escorts = meld.escorts or (None,) * len(meld.ids)
    credits = tuple(credit) or (-1,) * len(meld.ids)
    free = list(range(len(meld.ids)))
    ids: list[int] = []
    meanings: list[Meaning | None] = []
    new_escorts: list[int | None] = []
    new_credit: list[int] = []
    for k, slot in enumerate(info.slots):
        pick = None
        for j in free:
            e = escorts[j]
            if deck[meld.ids[j]] != slot.card:
                continue
            if (e is None) != (slot.escort is None):
                continue
            if e is not None and slot.escort is not None and deck[e] != slot.escort.card:
                continue
            stated = meld.meanings[j]
            if stated is not None and info.as_wild[k]:
                meant = slot.meaning
                if meant is None or stated.rank != meant.rank or stated.suit not in (None, meant.suit):
                    continue
            pick = j
            break
        assert pick is not None, "analysis lost a card"
        free.remove(pick)
        ids.append(meld.ids[pick])
        meaning = slot.meaning if info.as_wild[k] else None
        if meaning is not None and info.kind == "group" and variant.escorts is None:
            meaning = Meaning(meaning.rank, None)  # a group wild's suit binds nothing (§4.5)
        meanings.append(meaning)
        new_escorts.append(escorts[pick])
        new_credit.append(credits[pick])
    table_escorts = tuple(new_escorts) if variant.escorts is not None else ()
    table_credit = tuple(new_credit) if credit else ()
    return TableMeld(tuple(ids), tuple(meanings), table_escorts, table_credit), info


def meld_value(variant: Variant, meld: TableMeld, info: MeldInfo) -> int:
    """Score value of a meld on the table (the Royale counts its fixed value)."""
    if info.kind == "royale" and variant.royale is not None:
        return variant.royale.value
    return sum(variant.hand_value(variant.deck[i]) for i in meld.all_ids())


def ids_value(variant: Variant, ids: Sequence[int]) -> int:
    """Sum of the score values of physical cards."""
    return sum(variant.hand_value(variant.deck[i]) for i in ids)


def check_layoff(
    variant: Variant, old: TableMeld, new: TableMeld, hand: Sequence[int], seat: int
) -> tuple[TableMeld, MeldInfo, list[int]]:
    """Judge a lay-off turning table meld `old` into `new`; returns the normalized meld, its
    analysis and the hand ids added. Old cards keep their meanings and escorts."""
    if len(new.meanings) != len(new.ids) or (new.escorts and len(new.escorts) != len(new.ids)):
        raise fail(variant, "meld", "a meld needs one meaning and one escort entry (or None) per core card")
    old_info = analyze(variant, old)
    if old_info.kind == "royale":
        raise fail(variant, "escort", "the Diamond Royale can never be extended")
    old_escorts = old.escorts or (None,) * len(old.ids)
    new_escorts = new.escorts or (None,) * len(new.ids)
    old_index = {i: k for k, i in enumerate(old.ids)}
    missing = [i for i in old.ids if i not in new.ids]
    if missing:
        raise fail(
            variant, "turn", f"a lay-off may not remove {card_str(variant.deck[missing[0]])} from the meld"
        )
    hand_set = set(hand)
    added: list[int] = []
    meanings: list[Meaning | None] = []
    escorts: list[int | None] = []
    credit: list[int] = []
    old_credit = old.credit or (-1,) * len(old.ids)
    for k, i in enumerate(new.ids):
        if i in old_index:
            j = old_index[i]
            if new_escorts[k] != old_escorts[j]:
                raise fail(variant, "escort", "an escort stays with its card in a lay-off")
            meanings.append(old.meanings[j])
            escorts.append(old_escorts[j])
            credit.append(old_credit[j])
            continue
        if i not in hand_set:
            raise fail(variant, "turn", f"card id {i} ({card_str(variant.deck[i])}) is not in the hand")
        added.append(i)
        meanings.append(new.meanings[k])
        escorts.append(new_escorts[k])
        credit.append(seat)
        if new_escorts[k] is not None:
            added.append(new_escorts[k])  # type: ignore[arg-type]
    for e in new_escorts:
        if e is not None and e not in hand_set and e not in old_escorts:
            raise fail(variant, "turn", f"escort id {e} is not in the hand")
    if not added:
        raise fail(variant, "turn", "a lay-off adds at least one hand card")
    if len(set(new.all_ids())) != len(new.all_ids()):
        raise fail(variant, "turn", "a card appears twice in the meld")
    candidate = TableMeld(new.ids, tuple(meanings), tuple(escorts) if variant.escorts else (), ())
    normalized, info = normalize(variant, candidate, credit)
    if info.kind != old_info.kind:
        raise fail(variant, "meld", f"a lay-off may not turn a {old_info.kind} into a {info.kind}")
    return normalized, info, added


@dataclass(frozen=True)
class Requirement:
    """What a player's opening must meet: points (Palace §4.4) or a chart line (Black Heart §6.4)."""

    kind: Literal["points", "chart"]
    points: int = 0
    single_meld: bool = False
    melds: int = 0
    min_cards: int = 0

    def met_by(self, variant: Variant, infos: Sequence[MeldInfo]) -> bool:
        """Whether these new melds, made from the hand this turn, meet the requirement."""
        if not infos:
            return False
        if self.kind == "points":
            values = [opening_value(variant, info) for info in infos]
            best = max(values) if self.single_meld else sum(values)
            return best >= self.points
        if any(info.kind == "royale" for info in infos):
            return True
        sizes = sorted((card_count(info) for info in infos), reverse=True)
        return len(sizes) >= self.melds and sum(sizes[: self.melds]) >= self.min_cards

    def describe(self) -> str:
        """Human text of the requirement for violation messages."""
        if self.kind == "points":
            scope = "one meld" if self.single_meld else "new melds from the hand"
            return f"{self.points} points in {scope}"
        return f"{self.melds} new meld(s) holding at least {self.min_cards} cards (or a Diamond Royale)"


def requirement(variant: Variant, score: int) -> Requirement | None:
    """The opening a player with cumulative `score` must make, or None if any play opens."""
    if variant.opening == "points":
        return Requirement("points", points=variant.opening_points, single_meld=variant.opening_single_meld)
    if variant.opening == "chart":
        step: ChartStep | None = None
        for line in variant.opening_chart:
            if score >= line.min_score:
                step = line
        if step is None or step.melds == 0:
            return None
        return Requirement("chart", melds=step.melds, min_cards=step.min_cards)
    return None
