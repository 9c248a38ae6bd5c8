"""Rummy Palace joker swaps in the model (rules §4.5): a kept meld's joker swapped for the hand card it stands for.

A mixin of `TileModel`: its methods build constraints on the model's own variables."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummyai.cards import JOKER, make_card, suit_of
from rummyai.solvers.tile_model_parts import (
    IntVar,
    _Kept,
)

if TYPE_CHECKING:
    from rummyai.solvers.tile_model import TileModel


class PalaceSwaps:
    """Rummy Palace joker swaps in the model."""

    def _add_swaps(self: TileModel, kept: _Kept) -> list[IntVar]:
        """Rummy Palace joker swap (§4.5): a hand card with a table joker's meaning takes its
        place; the joker must then be melded again this turn (joker conservation sees to it)."""
        m = self.model
        info = kept.info
        out: list[IntVar] = []
        for i, slot in enumerate(info.slots):
            if not info.as_wild[i]:
                continue
            meaning = slot.meaning
            assert meaning is not None
            if info.kind == "run":
                options = [meaning.card()]
            else:
                assert info.rank is not None
                present = {suit_of(x.card) for x, w in zip(info.slots, info.as_wild, strict=True) if not w}
                options = [make_card(info.rank, x) for x in range(4) if x not in present]
            for card in options:
                if card is None or not self.hand_counts[card]:
                    continue
                var = m.new_bool_var(f"swap{kept.index}_{i}_{card}")
                self.usage[card].append(var)
                self.usage[JOKER].append(-var)
                if info.kind == "group" and suit_of(card) in kept.group_nat:
                    m.add(var + kept.group_nat[suit_of(card)] <= 1)
                kept.swaps.append((i, card, var))
                out.append(var)
        if out:
            by_slot: dict[int, list[IntVar]] = {}
            by_suit: dict[int, list[IntVar]] = {}
            for i, card, var in kept.swaps:
                by_slot.setdefault(i, []).append(var)
                by_suit.setdefault(suit_of(card), []).append(var)
            for vars_ in by_slot.values():
                m.add(sum(vars_) <= 1)
            if info.kind == "group" and self.variant.group_distinct_suits:
                for vars_ in by_suit.values():
                    m.add(sum(vars_) <= 1)
        return out
