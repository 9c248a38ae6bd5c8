"""Tile Rummy's locked joker melds and joker retrieval, T3-T4 (rules §2.5, §2.7).

A start meld holding a joker stays whole, with the joker's meaning unchanged, unless the joker
is retrieved: replaced by a natural tile with its meaning from the rack, and put into a new meld
with at least one other rack tile.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rummyai.jokers.base import JokerRules
from rummyai.jokers.common import is_new, kept, locate, matchings, missing_suits, stands_for, wanted

if TYPE_CHECKING:
    from rummyai.engine.moves import Violation
    from rummyai.engine.tile_rules import Resolved
    from rummyai.variants import Variant


class TilesJokers(JokerRules):
    """Tile Rummy T3-T4, judged on the canonical copy assignment."""

    def check(
        self, variant: Variant, start: Sequence[Resolved], final: Sequence[Resolved], played: set[int]
    ) -> Violation | None:
        from rummyai.engine.moves import Violation

        deck = variant.deck
        where = locate(final)
        retrieved: list[tuple[int, list[int]]] = []
        for m in start:
            for j in m.wild:
                s = final[where[j]]
                same = kept(m, j, s)
                if same and m.ids <= s.ids:
                    continue
                meaning = m.meaning_of(j)
                assert meaning is not None
                missing = missing_suits(m, deck)
                cands = [
                    n
                    for n in played
                    if n in final[where[n]].naturals and stands_for(m.kind, meaning, deck[n], missing)
                ]
                if not cands:
                    if same:
                        return Violation(
                            "2.5 T3",
                            f"'{m.text(deck)}' holds a joker: it may not be split or lose tiles unless the "
                            f"joker is replaced by {wanted(m.kind, meaning, missing)} from the rack",
                        )
                    return Violation(
                        "2.5 T4",
                        f"the joker meaning {meaning} in '{m.text(deck)}' may only change meaning or move "
                        f"when {wanted(m.kind, meaning, missing)} from the rack replaces it",
                    )
                if not is_new(s, start):
                    return Violation(
                        "2.5 T4", f"a retrieved joker must go into a new meld, not '{s.text(deck)}'"
                    )
                retrieved.append((j, cands))
        if not retrieved:
            return None
        short: int | None = None  # the first joker whose meld lacks a rack tile of its own
        for rs in matchings([c for _, c in retrieved]):
            lacking = [
                j for (j, _), r in zip(retrieved, rs, strict=True) if not (final[where[j]].ids & played) - {r}
            ]
            if not lacking:
                return None
            if short is None:
                short = lacking[0]
        if short is None:  # no way to give each joker a replacement of its own
            return Violation("2.5 T4", "each retrieved joker needs its own replacement tile from the rack")
        return Violation(
            "2.5 T4",
            f"the meld '{final[where[short]].text(deck)}' of a retrieved joker needs a rack tile besides "
            "the replacement",
        )


TILES_LOCKED = TilesJokers("tiles_locked", reads_origins=True, model_relaxed=True, locked_melds=True)
