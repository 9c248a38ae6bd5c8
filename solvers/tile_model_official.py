"""Official Rummikub's taken table jokers in the model (rules §8.2, option `official_jokers`): each taken joker needs its replacement tile.

A mixin of `TileModel`: its methods build constraints on the model's own variables."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from rummyai.cards import make_card, suit_of
from rummyai.melds import MeldInfo
from rummyai.runs import unrolled_rank
from rummyai.solvers.tile_model_parts import (
    IntVar,
    LinearExpr,
)

if TYPE_CHECKING:
    from rummyai.solvers.tile_model import TileModel


class OfficialTakes:
    """Official Rummikub's taken table jokers in the model."""

    def _add_official_takes(self: TileModel) -> None:
        """Official Rummikub table jokers (§8.2 ``official_jokers``), in the repair model only: a
        start joker whose meld is not kept whole still stands for its meaning somewhere (kept),
        or is taken, and then a natural with its meaning (a group's: a missing suit) is played
        from the rack, or under ``rack_or_table`` may also lie on the table outside its old meld;
        each taken joker has its own. Every judged-legal table meets this (the judge also wants
        the kept joker beside an old natural, the taken one in a new meld), so the model stays
        a relaxation; without it the repair cut layouts that take jokers for nothing one by one."""
        m = self.model
        kept_at: dict[tuple[str, int], list[IntVar]] = {}
        taken_for: dict[int, list[IntVar]] = {}  # run jokers by the one card that replaces them
        for k, info in enumerate(self.position.table):
            if not info.wild_count:
                continue
            inside = Counter(s.card for s, w in zip(info.slots, info.as_wild, strict=True) if not w)
            takes: dict[tuple[int, ...], list[IntVar]] = {}
            for j, wild in enumerate(info.as_wild):
                if not wild:
                    continue
                key, kinds = self._official_meaning(info, j)
                kept, taken = m.new_bool_var(f"okept{k}_{j}"), m.new_bool_var(f"otaken{k}_{j}")
                m.add(kept + taken + (self.kept[k].keep if k in self.kept else 0) == 1)
                kept_at.setdefault(key, []).append(kept)
                takes.setdefault(kinds, []).append(taken)
                if info.kind == "run":
                    taken_for.setdefault(kinds[0], []).append(taken)
            for kinds, flags in takes.items():
                supply = [self._supply(c, inside[c]) for c in kinds]
                m.add(sum(flags) <= sum(supply))
        for card, flags in taken_for.items():
            m.add(sum(flags) <= self._supply(card, 0))
        for key, flags in kept_at.items():
            m.add(sum(flags) <= self._standing(*key))

    def _official_meaning(self: TileModel, info: MeldInfo, j: int) -> tuple[tuple[str, int], tuple[int, ...]]:
        """Where start joker `j` of `info` is kept (a run's card, a group's rank) and the naturals
        that may replace it (that card; the group's rank in a suit its naturals lack)."""
        if info.kind == "run":
            assert info.suit is not None
            card = make_card(unrolled_rank(info.positions[j]), info.suit)
            return ("run", card), (card,)
        assert info.rank is not None
        present = {suit_of(s.card) for s, w in zip(info.slots, info.as_wild, strict=True) if not w}
        return ("group", info.rank), tuple(make_card(info.rank, x) for x in range(4) if x not in present)

    def _supply(self: TileModel, card: int, held_back: int) -> LinearExpr:
        """Naturals of `card` that may replace a taken joker: those played from the hand, and
        under ``rack_or_table`` the table's copies but `held_back` (those in the joker's meld)."""
        played = self.played_var(card) if self.hand_counts[card] else 0
        if self.variant.joker_replacement_from == "rack_or_table":
            return played + self.table_counts[card] - held_back
        return played

    def _standing(self: TileModel, kind: str, key: int) -> LinearExpr:
        """Jokers of the new melds standing for this run card or this group rank. Pooled, the
        jokers standing for that card kind (or any kind of that rank) in runs and groups alike:
        a group joker moved into a run then counts as kept, which the per-meld model
        (`per_meld_jokers`) tells apart."""
        cards = [key] if kind == "run" else [make_card(key, x) for x in range(4)]
        if self.pooled:
            return sum(self.allowance.get(c, 0) for c in cards)
        if kind == "run":
            return sum(
                j
                for run in self.runs
                for c, j in zip(run.window.cards, run.jokers, strict=True)
                if c == key and j is not None
            )
        return sum(g.jokers for g in self.groups if g.rank == key and g.jokers is not None)
