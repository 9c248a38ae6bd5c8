"""A checked hint position: variant, hand and table, rejected with a typed error naming the problem.

The hint engine and its HTTP service check input here before any solver runs, so that a bad card,
a card the deck lacks, too many copies or an invalid table meld gets a clear message at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rummyai.cards import CardsInput as HandInput
from rummyai.cards import Slot, check_copies, is_kind, read_cards
from rummyai.errors import RummyError, check_flag
from rummyai.melds import TableInput, analyze_table, read_table
from rummyai.solvers.duties import check_duties, read_taken
from rummyai.variants import Options, Variant, get_variant

OptionsInput = Options


@dataclass(frozen=True)
class HintPosition:
    """A checked position: the variant, the hand's card kinds and the table's melds as slots."""

    variant: Variant
    hand: tuple[int, ...]
    table: tuple[tuple[Slot, ...], ...]
    opened: bool
    score: int = 0  # Black Heart: the cumulative score that picks the opening chart line
    committed: tuple[int, ...] = ()  # cards that must be played (taken from the discards)
    taken: int | None = None  # Rummy Palace: the card taken from the discards, not to be discarded

    @property
    def card_count(self) -> int:
        """Cards in hand and on the table (escorts included)."""
        return len(self.hand) + sum(len(s.cards()) for m in self.table for s in m)


def read_position(
    variant: Variant | str,
    hand: HandInput,
    table: TableInput = (),
    *,
    opened: bool = True,
    options: OptionsInput = None,
    score: int = 0,
    committed: HandInput = (),
    taken: str | int | None = None,
) -> HintPosition:
    """A checked `HintPosition`; raises a `RummyError` subclass naming the bad variant, card or meld.

    `score` is the player's cumulative score, read by Black Heart's opening chart only;
    `committed` and `taken` describe a draw-and-discard turn after taking from the discards
    (checked against the hand and the variant here, as the solver checks them)."""
    check_flag("opened", opened)
    rules = get_variant(variant, options)
    kinds = read_cards(hand)
    melds = read_table(table)
    analyze_table(rules, melds)
    check_copies(rules, kinds + [c for m in melds for s in m for c in s.cards()], "hand and table")
    if not is_kind(score):
        raise RummyError(f"'score' must be an integer, got {score!r}")
    score = int(score)
    duty = tuple(read_cards(committed, "committed")) if committed else ()
    taken_card = read_taken(taken)
    check_duties(rules, kinds, duty, taken_card, score)
    return HintPosition(rules, tuple(kinds), tuple(melds), bool(opened), score, duty, taken_card)


# ------------------------------------------------------------------------------ JSON requests
POSITION_KEYS = frozenset({"variant", "options", "hand", "table", "opened", "score", "committed", "taken"})


def _tokens_ok(value: object) -> bool:
    return isinstance(value, str) or (isinstance(value, list) and all(isinstance(x, str) for x in value))


def position_from_json(obj: object, extra_keys: Iterable[str] = ()) -> tuple[HintPosition, dict[str, Any]]:
    """Read a JSON position (``variant``, ``options``, ``hand``, ``table``, ``opened``, ``score``).

    Returns the checked position and the remaining (extra) keys; raises `RummyError` for a body
    that is not an object, an unknown key, a value of the wrong type or bad cards and melds.
    ``variant`` defaults to ``rummikub`` as in the solve contract.
    """
    if not isinstance(obj, dict):
        raise RummyError(f"a position must be a JSON object, got {type(obj).__name__}")
    allowed = POSITION_KEYS | set(extra_keys)
    unknown = sorted(set(obj) - allowed)
    if unknown:
        raise RummyError(
            f"unknown key(s) {', '.join(map(repr, unknown))} (known: {', '.join(sorted(allowed))})"
        )
    if "hand" not in obj:
        raise RummyError("missing field(s): hand")
    variant = obj.get("variant", "rummikub")
    if not isinstance(variant, str):
        raise RummyError(f"'variant' must be a string, got {variant!r}")
    options = obj.get("options")
    if options is not None and not (
        (isinstance(options, list) and all(isinstance(o, str) for o in options)) or isinstance(options, dict)
    ):
        raise RummyError(f"'options' must be a list of 'name[=value]' strings or an object, got {options!r}")
    hand = obj.get("hand", [])
    if not _tokens_ok(hand):
        raise RummyError("'hand' must be a string of cards or a list of card tokens")
    table = obj.get("table", [])
    if not (isinstance(table, str) or (isinstance(table, list) and all(_tokens_ok(m) for m in table))):
        raise RummyError(
            "'table' must be a string of melds separated by '|' or a list of melds (lists of tokens)"
        )
    opened = obj.get("opened", True)
    if not isinstance(opened, bool):
        raise RummyError(f"'opened' must be true or false, got {opened!r}")
    score = obj.get("score", 0)
    if isinstance(score, bool) or not isinstance(score, int):
        raise RummyError(f"'score' must be an integer, got {score!r}")
    committed = obj.get("committed", [])
    if not _tokens_ok(committed):
        raise RummyError("'committed' must be a string of cards or a list of card tokens")
    taken = obj.get("taken")
    if taken is not None and not isinstance(taken, str):
        raise RummyError(f"'taken' must be one card token (a string), got {taken!r}")
    position = read_position(
        variant, hand, table, opened=opened, options=options, score=score, committed=committed, taken=taken
    )
    extra = {k: v for k, v in obj.items() if k not in POSITION_KEYS}
    return position, extra
