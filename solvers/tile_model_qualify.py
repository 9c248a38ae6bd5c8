"""Rhine's qualifying play in the model (rules §1.4, §1.7 variation 1): one natural meld from the hand, or melds from the hand worth the points, before the turn goes on.

A mixin of `TileModel`: its methods build constraints on the model's own variables."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rummyai.cards import JOKER, make_card, rank_of
from rummyai.runs import run_windows
from rummyai.solvers.tile_model_parts import (
    IntVar,
    LinearExpr,
    _Qualifier,
)

if TYPE_CHECKING:
    from rummyai.solvers.tile_model import TileModel


class RhineQualifying:
    """Rhine's qualifying play in the model."""

    def _add_qualifying_meld(self: TileModel) -> None:
        """Rhine's basic qualifying set (§1.4): one new meld of 3+ natural hand cards, no wild.
        The judge looks for it among the played hand cards (it may be extended, merged or split
        in the same turn), so it only claims played cards (`extra_need`); the safe models keep it
        whole on the new table instead (always legal)."""
        m = self.model
        v = self.variant
        choices: list[IntVar] = []
        for window in run_windows(v, 13):
            if all(self.hand_counts[c] for c in window.cards):
                var = m.new_bool_var("Qr")
                choices.append(var)
                for c in window.cards:
                    if not self.virtual_qualify:
                        self.usage[c].append(var)
                    self.extra_need.append((c, var))
                self.qualify.append(("run", window.cards, var, {}))
        for rank in range(1, 14):
            cards = [make_card(rank, x) for x in range(4)]
            if sum(self.hand_counts[c] for c in cards) < max(v.min_meld, v.opening_min_naturals):
                continue
            var = m.new_bool_var(f"Qg{rank}")
            choices.append(var)
            counts: dict[int, IntVar] = {}
            for c in cards:
                if self.hand_counts[c]:
                    q = m.new_int_var(0, self.hand_counts[c], f"Q{c}")
                    m.add(q <= self.hand_counts[c] * var)
                    counts[c] = q
                    if not self.virtual_qualify:
                        self.usage[c].append(q)
                    self.extra_need.append((c, q))
            if v.group_max is not None:
                m.add(sum(counts.values()) <= v.group_max * var)
            m.add(sum(counts.values()) >= max(v.min_meld, v.opening_min_naturals) * var)
            self.qualify.append(("group", tuple(cards), var, counts))
        self.qualified = m.new_bool_var("qualified")
        m.add(sum(choices) == self.qualified) if choices else m.add(self.qualified == 0)

    def _wilds_beside_the_qualifying_group(self: TileModel) -> None:
        """R5 with the basic qualifying set as a start meld (§1.4, §1.5): where no table meld holds
        a card of its rank, a group of that rank with a wild needs a played natural besides the
        qualifying group's (else its naturals all come from that set: the wild simply joined it;
        one wild per meld, so one such natural per wild)."""
        m = self.model
        for kind, cards, _, counts in self.qualify:
            if kind != "group" or any(self.table_counts[c] for c in cards):
                continue
            played = sum(self.played_var(c) for c in cards if self.hand_counts[c])
            for group in self.groups:
                if group.rank == rank_of(cards[0]) and group.jokers is not None:
                    m.add(group.jokers <= played - sum(counts.values()))

    def _add_points_qualification(self: TileModel) -> None:
        """Rhine's points qualification (§1.7 variation 1, §1.8.3): new melds from hand cards,
        at most one wild each, worth at least `opening_points` with every wild valued as the card
        it stands for. As for the basic rule they only claim played cards (the judge combines the
        played hand cards' melds), except in the safe models, which keep them whole."""
        m = self.model
        v = self.variant
        hand = self.hand_counts
        wilds = hand[JOKER]
        value: list[LinearExpr] = []
        for window in run_windows(v, 13):
            missing = sum(1 for c in window.cards if hand[c] == 0)
            if missing > min(wilds, 1):
                continue
            ub = min(min(hand[c] for c in window.cards) + wilds, 2)
            count = m.new_int_var(0, ub, "Qr")
            jokers: dict[int, IntVar] = {}
            for i, card in enumerate(window.cards):
                if wilds:
                    jokers[i] = m.new_int_var(0, min(ub, wilds), f"Qj{i}")
                natural = count - jokers[i] if wilds else count
                if hand[card] == 0:
                    m.add(natural == 0)
                    continue
                if not self.virtual_qualify:
                    self.usage[card].append(natural)
                self.extra_need.append((card, natural))
            if jokers:
                m.add(sum(jokers.values()) <= count)  # one wild per meld
            points = sum(self._opening_card_value(p, False) for p in window.positions)
            value.append(points * count)
            self.qualify_points.append(_Qualifier("run", 0, window.cards, count, jokers))
        for rank in range(1, 14):
            cards = [make_card(rank, x) for x in range(4) if hand[make_card(rank, x)]]
            naturals_held = sum(hand[c] for c in cards)
            ub = min(naturals_held // 2, (naturals_held + wilds) // v.min_meld)
            if ub == 0:
                continue
            count = m.new_int_var(0, ub, f"Qg{rank}")
            naturals = {c: m.new_int_var(0, hand[c], f"Qn{c}") for c in cards}
            for c, var in naturals.items():
                if not self.virtual_qualify:
                    self.usage[c].append(var)
                self.extra_need.append((c, var))
            total = sum(naturals.values())
            jokers = {0: m.new_int_var(0, min(wilds, ub), f"Qgj{rank}")} if wilds else {}
            size = total + sum(jokers.values())
            if jokers:
                m.add(jokers[0] <= count)
            m.add(total >= max(v.min_naturals_per_meld, 1) * count)
            m.add(size >= v.min_meld * count)
            m.add(total <= naturals_held * count)
            value.append(self._opening_card_value(rank, True) * size)
            self.qualify_points.append(_Qualifier("group", rank, tuple(cards), count, jokers, naturals))
        for q in self.qualify_points:
            if q.jokers:
                if not self.virtual_qualify:
                    self.usage[JOKER].append(q.wilds())
                self.extra_need.append((JOKER, q.wilds()))
        self.qualified = m.new_bool_var("qualified")
        if not self.qualify_points:
            m.add(self.qualified == 0)
            return
        m.add(sum(value) >= v.opening_points * self.qualified)
        m.add(sum(q.count for q in self.qualify_points) >= self.qualified)
