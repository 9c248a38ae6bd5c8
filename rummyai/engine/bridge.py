"""From a table written in card kinds (a solver answer, a hint, text) to an engine `Play`.

The solver and the text contracts speak card kinds; the engine's state holds physical ids. This
is the one conversion: the kinds get any ids, `check_play` reads them on the canonical copy
assignment (§7.1), and the play keeps the ids it judged, so an answer reports the copies the
rules read (a card that can stay with its meld-mates stays).
"""

from __future__ import annotations

from collections.abc import Sequence

from rummyai.cards import Slot
from rummyai.engine.judge import layouts, normalize_meld
from rummyai.engine.moves import Play, Violation
from rummyai.engine.qualify import check_play_qualifying
from rummyai.engine.state import TableMeld
from rummyai.variants import Variant


def play_for_table(
    variant: Variant,
    table: Sequence[TableMeld],
    hand: Sequence[int],
    melds: Sequence[Sequence[Slot]],
    opened: bool,
) -> Play | None:
    """The legal PLAY from `hand` that leaves `melds` on the table, or None when no reading of
    its unstated wilds is legal. Stated meanings are kept; an unopened seat's qualifying melds
    are left for the engine to find, exactly as checked here."""
    final = [normalize_meld(variant, tuple(meld)) for meld in melds]
    for layout in layouts(variant, tuple(table), list(hand), final):
        if isinstance(layout, Violation):
            return None
        check = check_play_qualifying(variant, table, hand, layout, opened)
        if check.violation is None:
            return Play(check.table)
    return None


def table_slots(variant: Variant, table: Sequence[TableMeld]) -> list[tuple[Slot, ...]]:
    """A table of physical ids written in kinds with meanings (the bridge's input form)."""
    return [meld.slots(variant.deck) for meld in table]
