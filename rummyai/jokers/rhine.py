"""Rhine Rummy's joker rules R3-R5b (rules §1.5, decisions §1.8).

A table joker is kept while its meaning stays and its meld keeps a natural card of its start
meld (R3); otherwise it is released and needs its own replacement next to that meld's cards
(R4). A joker from the hand or a released one never simply joins cards of one start meld (R5),
and never takes the exact run place a natural of that meld has left (R5b).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rummyai.jokers.base import JokerRules
from rummyai.jokers.common import kept, locate, replacement_sets, stands_for, wanted

if TYPE_CHECKING:
    from rummyai.engine.moves import Violation
    from rummyai.engine.tile_rules import Resolved
    from rummyai.variants import Variant


class RhineJokers(JokerRules):
    """Rhine R3-R5b, judged on the canonical copy assignment."""

    def check(
        self, variant: Variant, start: Sequence[Resolved], final: Sequence[Resolved], played: set[int]
    ) -> Violation | None:
        from rummyai.engine.moves import Violation

        deck = variant.deck
        where = locate(final)
        released: list[tuple[int, Resolved, int]] = []
        for u, m in enumerate(start):
            for j in m.wild:
                s = final[where[j]]
                if not (kept(m, j, s) and s.naturals & m.naturals):
                    released.append((j, m, u))
        options: list[list[int]] = []
        for j, m, u in released:
            meaning = m.meaning_of(j)
            assert meaning is not None
            cands = [
                n
                for f in final
                if f.naturals & m.naturals
                for n in f.naturals
                if n not in m.ids and stands_for(m.kind, meaning, deck[n])
            ]
            if not cands:
                return Violation(
                    "1.5 R4",
                    f"the joker meaning {meaning} in '{m.text(deck)}' changed meaning or left its meld "
                    f"without {wanted(m.kind, meaning)} replacing it next to that meld's cards",
                    meld=u,
                )
            options.append(cands)
        movers = [j for j in played if j in final[where[j]].wild]
        movers += [j for j, _, _ in released]
        first: Violation | None = None
        any_matching = False
        for replacements in replacement_sets(options):  # R5 reads the set of replacements only
            any_matching = True
            problem = _accompaniment(variant, start, final, where, movers, replacements)
            if problem is None:
                return _displacement(variant, start, final, where, movers)
            first = first or problem
        if not any_matching:
            return Violation("1.5 R4", "each released joker needs its own replacement card")
        return first


def _accompaniment(
    variant: Variant,
    start: Sequence[Resolved],
    final: Sequence[Resolved],
    where: dict[int, int],
    movers: list[int],
    replacements: frozenset[int],
) -> Violation | None:
    """R5: no moved joker's meld may hold only natural cards of one start meld plus replacements."""
    from rummyai.engine.moves import Violation

    for j in movers:
        s = final[where[j]]
        for u in start:
            if s.naturals <= u.naturals | replacements:
                return Violation(
                    "1.5 R5",
                    f"a joker may not simply join an existing meld: '{s.text(variant.deck)}' holds no new "
                    f"natural card beyond '{u.text(variant.deck)}'",
                )
    return None


def _displacement(
    variant: Variant,
    start: Sequence[Resolved],
    final: Sequence[Resolved],
    where: dict[int, int],
    movers: list[int],
) -> Violation | None:
    """R5b: a moved joker standing in a run for the exact card n, where n was a natural of a start
    meld U whose other naturals the run still holds, took n's place."""
    from rummyai.engine.moves import Violation

    deck = variant.deck
    for j in movers:
        s = final[where[j]]
        if s.kind != "run":
            continue
        meaning = s.meaning_of(j)
        if meaning is None:
            continue
        for u in start:
            gone = [n for n in u.naturals if stands_for("run", meaning, deck[n]) and n not in s.ids]
            if gone and s.naturals & u.naturals:
                return Violation(
                    "1.5 R5b",
                    f"a joker may not take the place of a natural card: {meaning} left "
                    f"'{u.text(deck)}' and the joker stands for it in '{s.text(deck)}'",
                )
    return None


RHINE = RhineJokers(
    "rhine", reads_origins=True, model_relaxed=True, hand_joker_joins=False, accompaniment=True
)
