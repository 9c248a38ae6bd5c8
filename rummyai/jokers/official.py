"""Official Rummikub's table jokers (rules §8.2, option `official_jokers`).

A table joker can only be taken by replacing it with the tile it stands for (from the rack, or
with `joker_replacement_from=rack_or_table` also from the table), and the taken joker goes into
a new meld this turn. Melds holding a joker are not locked.
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


class OfficialJokers(JokerRules):
    """Official Rummikub's joker taking, judged on the canonical copy assignment."""

    def check(
        self, variant: Variant, start: Sequence[Resolved], final: Sequence[Resolved], played: set[int]
    ) -> Violation | None:
        from rummyai.engine.moves import Violation

        deck = variant.deck
        where = locate(final)
        from_rack = variant.joker_replacement_from == "rack"
        taken: list[list[int]] = []
        for m in start:
            for j in m.wild:
                s = final[where[j]]
                if kept(m, j, s) and s.naturals & m.naturals:
                    continue
                meaning = m.meaning_of(j)
                assert meaning is not None
                missing = missing_suits(m, deck)
                pool = played if from_rack else set(where) - m.ids
                cands = [
                    n
                    for n in pool
                    if n not in m.ids
                    and n in final[where[n]].naturals
                    and stands_for(m.kind, meaning, deck[n], missing)
                ]
                if not cands:
                    source = "the rack" if from_rack else "the rack or the table"
                    return Violation(
                        "8.2",
                        f"a table joker ({meaning} in '{m.text(deck)}') may only be taken by replacing it "
                        f"with {wanted(m.kind, meaning, missing)} from {source}",
                    )
                if not is_new(s, start):
                    return Violation("8.2", f"a taken joker must go into a new meld, not '{s.text(deck)}'")
                taken.append(cands)
        if taken and next(matchings(taken), None) is None:
            return Violation("8.2", "each taken joker needs its own replacement tile")
        return None


OFFICIAL = OfficialJokers(
    "official", reads_origins=True, model_relaxed=True, replacement_takes=True, replacement_source_option=True
)
