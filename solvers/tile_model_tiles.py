"""Tile Rummy T3-T4 in the model: locked joker melds stay whole, and a retrieved joker goes into an explicit new meld with a rack tile (rules §2.5).

A mixin of `TileModel`: its methods build constraints on the model's own variables."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from rummyai.cards import JOKER, make_card, suit_of
from rummyai.solvers.tile_model_parts import (
    IntVar,
    _Retrieval,
)

if TYPE_CHECKING:
    from rummyai.solvers.tile_model import TileModel


class LockedJokerMelds:
    """Tile Rummy T3-T4 in the model."""

    def _locked_melds(self: TileModel) -> set[int]:
        """Start melds that must stay whole unless their joker is retrieved (T3)."""
        if self.opening or not self.variant.joker_rules.locked_melds:
            return set()
        return {k for k, info in enumerate(self.position.table) if info.wild_count > 0}

    def _add_retrievals(self: TileModel, locked: set[int]) -> None:
        """T4: a locked meld's joker may leave it when the rack gives a natural with its meaning.

        The joker then goes into an explicit new meld S (one joker, any length) holding a rack
        tile besides the replacement; S may not hold every card of any start meld, which is
        checked over an assignment of S's table cards to the start melds' copies.
        """
        m = self.model
        table = self.position.table
        # every start meld's natural copies, by kind
        copies = []
        for i in table:
            naturals = Counter(s.card for s, w in zip(i.slots, i.as_wild, strict=True) if not w)
            copies.append({c: naturals[c] for c in range(52)})
        flags: dict[int, IntVar] = {}
        for k in sorted(locked):
            flag = m.new_bool_var(f"ret{k}")
            m.add(self.kept[k].keep + flag == 1)
            flags[k] = flag
        attributed: dict[tuple[int, int], list[IntVar]] = {}
        for k in sorted(locked):
            info = table[k]
            flag = flags[k]
            j = info.as_wild.index(True)
            if info.kind == "run":
                assert info.suit is not None
                options = [make_card(info.positions[j], info.suit)]
            else:
                assert info.rank is not None
                present = {suit_of(s.card) for s, w in zip(info.slots, info.as_wild, strict=True) if not w}
                options = [make_card(info.rank, x) for x in range(4) if x not in present]
            options = [c for c in options if self.hand_counts[c]]
            if not options or not self.position.opened:
                m.add(flag == 0)
                continue
            repl = {c: m.new_bool_var(f"rep{k}_{c}") for c in options}
            m.add(sum(repl.values()) == flag)
            shapes = self._shapes(k)
            if not shapes:
                m.add(flag == 0)
                continue
            m.add(sum(var for *_, var in shapes) == flag)
            self.usage[JOKER].append(flag)
            in_s: dict[int, list[IntVar]] = {}
            mine: dict[tuple[int, int], IntVar] = {}
            for naturals, _, var in shapes:
                for c in naturals:
                    in_s.setdefault(c, []).append(var)
            own_hand: dict[int, IntVar] = {}
            witness: dict[int, IntVar] = {}
            for c, vars_ in in_s.items():
                present_expr = sum(vars_)
                self.usage[c].append(present_expr)
                table_parts: list[IntVar] = []
                for u, meld_copies in enumerate(copies):
                    if meld_copies[c] == 0:
                        continue
                    a = m.new_bool_var(f"a{k}_{c}_{u}")
                    if u in flags and u != k:
                        m.add(a <= flags[u])
                    table_parts.append(a)
                    mine[(c, u)] = a
                    attributed.setdefault((c, u), []).append(a)
                if self.hand_counts[c]:
                    o = m.new_bool_var(f"o{k}_{c}")
                    w = m.new_bool_var(f"w{k}_{c}")
                    m.add(w <= o)
                    own_hand[c], witness[c] = o, w
                    table_parts.append(o)
                m.add(sum(table_parts) == present_expr)
            if not witness:
                m.add(flag == 0)
                continue
            m.add(sum(witness.values()) == flag)
            # S holds no start meld whole (melds with another joker cannot fit: one joker per meld)
            for u, info_u in enumerate(table):
                if info_u.wild_count and u != k:
                    continue
                kinds = [c for c in range(52) if copies[u][c]]
                parts = [a for (c, uu), a in mine.items() if uu == u]
                if kinds and all(c in in_s for c in kinds):
                    m.add(sum(parts) <= sum(copies[u].values()) - 1)
            self.retrievals.append(_Retrieval(k, flag, shapes))
            self.hand_claims.append((k, repl, own_hand, witness))
        for (c, u), lst in attributed.items():
            if len(lst) > 1:
                m.add(sum(lst) <= copies[u][c])
