"""Rhine R3-R5 in the model (rules §1.5): releases with their replacements, and the witness melds of the repair's tighter relaxation (a joker kept in a split piece or replaced beside its old meld, with the physical copies they claim).

A mixin of `TileModel`: its methods build constraints on the model's own variables."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from rummyai.cards import JOKER, make_card, rank_of, suit_of
from rummyai.melds import MeldInfo
from rummyai.runs import position_range, unrolled_rank
from rummyai.solvers.tile_model_parts import (
    IntVar,
    LinearExpr,
    _family,
    _Run,
    _Witness,
)

if TYPE_CHECKING:
    from rummyai.solvers.tile_model import TileModel


class RhineReleases:
    """Rhine R3-R5 in the model."""

    def _add_releases(self: TileModel) -> None:
        """Rhine R3/R4: a start joker stays kept while its meld is kept whole; once the meld is
        broken the joker is either kept in a split piece (same meaning, beside a natural of its
        old meld) or released, and then a replacement natural with its meaning must sit in a meld
        with one of its old meld's naturals. The repair model (`witnesses`) writes those melds
        as explicit instances (`_run_witnesses`, `_group_witnesses`); the first model only asks
        for a joker standing at the meaning or a replacement somewhere. The rest of R3-R5 is
        checked on the decoded table by the engine's judge (see `solve_tile`)."""
        m = self.model
        families: dict[tuple[str, int | None], list[tuple[int, MeldInfo, IntVar, IntVar]]] = {}
        for k, info in enumerate(self.position.table):
            if info.wild_count == 0:
                continue
            if self.safe:
                m.add(self.kept[k].keep == 1)
                continue
            j = info.as_wild.index(True)
            if info.kind == "run":
                assert info.suit is not None
                kinds = [make_card(unrolled_rank(info.positions[j]), info.suit)]
            else:
                assert info.rank is not None
                kinds = [make_card(info.rank, x) for x in range(4)]
            inside = sum(
                1 for s, w in zip(info.slots, info.as_wild, strict=True) if not w and s.card in kinds
            )
            outside = sum(self.table_counts[c] for c in kinds) - inside
            hand_part = [self.played_var(c) for c in kinds if self.hand_counts[c]]
            released = m.new_bool_var(f"rel{k}")
            self.released[k] = released
            split = m.new_bool_var(f"split{k}")
            m.add(released + split + self.kept[k].keep == 1)
            m.add(outside + sum(hand_part) >= released)
            if self.use_witnesses and info.wild_count == 1:
                families.setdefault(_family(info), []).append((k, info, released, split))
                continue
            standing: list[LinearExpr] = []
            if info.kind == "run":
                for run in self.runs:
                    for card, joker in zip(run.window.cards, run.jokers, strict=True):
                        if joker is not None and card == kinds[0]:
                            standing.append(joker)
            else:
                standing.extend(g.jokers for g in self.groups if g.rank == info.rank and g.jokers is not None)
            if standing:
                m.add(sum(standing) >= split)
            else:
                m.add(split == 0)
        for (kind, _), members in sorted(families.items(), key=lambda item: item[1][0][0]):
            if kind == "run":
                self._run_witnesses(members)
            else:
                self._group_witnesses(members)
        if self.use_witnesses:
            self._moved_group_jokers()
        self._add_claims()

    def _moved_group_jokers(self: TileModel) -> None:
        """R5 for the jokers of the aggregated groups, which in the witness model are all moved
        ones (kept jokers sit in kept melds or witness melds): where one start meld holds every
        table copy of a rank, a group of that rank with a joker needs a hand natural of its own
        (else its naturals all come from that meld: the joker simply joined it). The strict
        model asks that of every such group, with a natural of a kind the table lacks."""
        m = self.model
        for group in self.groups:
            if group.jokers is None:
                continue
            cards = [make_card(group.rank, x) for x in range(4)]
            holders = {
                k
                for k, info in enumerate(self.position.table)
                for slot, wild in zip(info.slots, info.as_wild, strict=True)
                if not wild and slot.card in cards
            }
            if self.strict:
                # every copy assignment reads a played card of a kind the table lacks as new
                fresh = [
                    self.played_var(c) for c in cards if self.hand_counts[c] and not self.table_counts[c]
                ]
                m.add(group.jokers <= sum(fresh))
                continue
            if len(holders) > 1:
                continue
            mine = [self.played_var(c) for c in cards if self.hand_counts[c]]
            m.add(group.jokers <= sum(mine))

    def _add_claims(self: TileModel) -> None:
        """The witness melds' physical cards: a natural from a joker's old meld is one of that
        meld's copies, a replacement one from elsewhere (another start meld or the hand), and no
        copy serves two claims."""
        m = self.model
        copies = [
            Counter(s.card for s, w in zip(info.slots, info.as_wild, strict=True) if not w)
            for info in self.position.table
        ]
        by_source: dict[tuple[int, int, str], list[Any]] = {}
        for card, own, k, flag, role in self.claims:
            if self.strict and not self._unambiguous(card, own, flag, copies[k]):
                continue
            sources = [u for u, held in enumerate(copies) if held[card] and (u == k) == own]
            if not own and self.hand_counts[card]:
                sources.append(-1)  # the hand
            if not sources:
                m.add(flag == 0)
                continue
            if len(sources) == 1:
                by_source.setdefault((card, sources[0], role), []).append(flag)
                if self.read_swaps:
                    self._no_better_swap(card, k, sources[0], flag, flag, copies)
                continue
            picks = [m.new_bool_var(f"cl{card}_{u}") for u in sources]
            m.add(sum(picks) == flag)
            for u, pick in zip(sources, picks, strict=True):
                by_source.setdefault((card, u, role), []).append(pick)
                if self.read_swaps:
                    self._no_better_swap(card, k, u, flag, pick, copies)
        for (card, u, _), flags in by_source.items():
            cap = self.played_var(card) if u < 0 else copies[u][card]
            m.add(sum(flags) <= cap)

    def _no_better_swap(
        self: TileModel, card: int, k: int, source: int, flag: Any, claim: Any, copies: list[Counter[int]]
    ) -> None:
        """A group joker's replacement `card` claimed from `source` (a start meld, or -1: the
        hand) in its witness group W, where the joker's old meld M holds a copy of `card` too and
        W holds one: M's copy lies in another final meld g. A canonical assignment (§7.1) keeps
        at least as many pairs as the one that swaps the two copies, so
        (M_g - 1) + (Y_W - 1) >= M_W + Y_g, counting the cards from M and from the source Y in W
        and g (a hand copy keeps no pairs: no Y terms). With M_g <= |M| - M_W and Y_g >= 0:
        2 M_W <= |M| + Y_W - 2 (hand: 2 M_W <= |M| - 1). M_W is bounded below by W's copies of
        kinds all of whose copies are M's, Y_W above by W's copies of kinds Y holds and its
        wild: every judged-legal table satisfies this, so the witness model stays a relaxation."""
        group = self.replace_groups.get(flag.index)
        info = self.position.table[k]
        if group is None or not copies[k][card]:
            return
        m = self.model
        counts, wild = group
        suit = suit_of(card)
        if suit not in counts:
            return
        mine = copies[k]
        sure = [
            var
            for x, var in counts.items()
            if (c := make_card(rank_of(card), x)) != card
            and mine[c]
            and self.table_counts[c] == mine[c]
            and not self.hand_counts[c]
        ]
        if not sure:
            return
        if source < 0:
            room: LinearExpr = len(info.slots) - 1
        else:
            theirs = copies[source]
            caps: list[LinearExpr] = []
            for x, var in counts.items():
                held = theirs[make_card(rank_of(card), x)]
                if held:
                    cap = m.new_int_var(0, held, "")
                    m.add(cap <= var)
                    caps.append(cap)
            if sum(self.position.table[source].as_wild) and not isinstance(wild, int):
                caps.append(wild)
            room = len(info.slots) - 2 + sum(caps)
        # only while W holds one copy of `card` (with two, M's copy may be in W as well)
        single = m.new_bool_var("")
        m.add(counts[suit] >= 2).only_enforce_if(single.Not())
        m.add(2 * sum(sure) <= room).only_enforce_if([claim, single])

    def _beside_stays(
        self: TileModel, info: MeldInfo, card: int, beside: IntVar, nat: dict[int, Any], jok: dict[int, Any]
    ) -> None:
        """A run joker's old meld M claimed beside it by its copy of `card` in the witness run W,
        where the only other copy of `card` comes from the hand: that copy lies in another final
        meld g, and a canonical assignment (§7.1) keeps at least as many pairs as the one that
        swaps the two, so M_W - 1 >= M_g (a hand copy keeps no pairs). A run window with no
        wild that holds `card` lies inside g, so g holds M's copies of the window's kinds that
        no other copy of can stand in for: W then holds that many more of M's cards (its
        natural kinds M holds and its wild bound M_W above). Every judged-legal table
        satisfies this, so the witness model stays a relaxation."""
        m = self.model
        mine = Counter(s.card for s, w in zip(info.slots, info.as_wild, strict=True) if not w)
        if mine[card] != 1 or self.table_counts[card] != 1 or self.hand_counts[card] != 1:
            return
        sure = {c for c in mine if c != card and self.table_counts[c] == mine[c] and not self.hand_counts[c]}
        if not sure:
            return
        suit = info.suit
        assert suit is not None
        ours = [v for p, v in nat.items() if make_card(unrolled_rank(p), suit) in mine]
        bound = sum(ours) + sum(jok.values())
        for run in self.runs:
            cards = run.window.cards
            held = sum(1 for c in cards if c in sure)
            if card not in cards or not held:
                continue
            m.add(bound >= held + 1).only_enforce_if([beside, self._plain_window(run)])

    def _plain_window(self: TileModel, run: _Run) -> IntVar:
        """A flag that is true whenever some copy of the run window holds no wild (its count
        exceeds its wilds, at most one per copy); made once per window."""
        key = run.count.index
        flag = self.plain_windows.get(key)
        if flag is None:
            flag = self.model.new_bool_var("")
            wilds = [j for j in run.jokers if j is not None]
            self.model.add(run.count - sum(wilds) <= 0).only_enforce_if(flag.Not())
            self.plain_windows[key] = flag
        return flag

    def _strict_spot(self: TileModel, card: int) -> bool:
        """Whether a moved joker may stand for `card` in a run. Always, except in the strict
        model where a start run holds `card` as a natural: standing there could take its
        vacated place (R5b), which the model cannot see."""
        return not (self.strict and card in self.run_naturals)

    def _anchored(self: TileModel, info: MeldInfo) -> bool:
        """A start meld with a natural of a kind no other copy of can join the final table, so
        every copy assignment reads it in the meld's final place."""
        return any(
            self.table_counts[s.card] == 1 and self.hand_counts[s.card] == 0
            for s, wild in zip(info.slots, info.as_wild, strict=True)
            if not wild
        )

    def _unambiguous(self: TileModel, card: int, own: bool, flag: IntVar, mine: Counter[int]) -> bool:
        """Strict model: keep a witness claim only where every copy assignment reads it alike
        (§7.1 reads a turn on the assignment keeping most start-meld mates together). A card
        from the joker's old meld must be the only copy of its kind on the final table (no other
        table copy, none played); a card from elsewhere must be of a kind that meld (`mine`, its
        naturals) does not hold. Returns False (and forbids the claim) otherwise."""
        m = self.model
        if own:
            if self.table_counts[card] != 1:
                m.add(flag == 0)
                return False
            if self.hand_counts[card]:
                m.add(flag + self.played_var(card) <= 1)
            return True
        if mine[card]:
            m.add(flag == 0)
            return False
        return True

    def _serve(
        self: TileModel, members: list[tuple[int, MeldInfo, IntVar, IntVar]]
    ) -> list[list[tuple[int, MeldInfo, IntVar, IntVar]]]:
        """Which joker melds each witness instance may serve: instance i those from member i on
        (jokers sharing one witness meld use the instance of the first of them). Returns, per
        instance, (meld, info, released here, kept here); each meld's flags sum to its own."""
        m = self.model
        out: list[list[tuple[int, MeldInfo, IntVar, IntVar]]] = [[] for _ in members]
        for n, (k, info, released, split) in enumerate(members):
            here_r: list[IntVar] = []
            here_k: list[IntVar] = []
            for i in range(n + 1):
                rs = m.new_bool_var(f"sr{k}_{i}")
                ks = m.new_bool_var(f"sk{k}_{i}")
                here_r.append(rs)
                here_k.append(ks)
                out[i].append((k, info, rs, ks))
            m.add(sum(here_r) == released)
            m.add(sum(here_k) == split)
        return out

    def _run_witnesses(self: TileModel, members: list[tuple[int, MeldInfo, IntVar, IntVar]]) -> None:
        """R3/R4 for the run jokers of one suit whose melds are broken: explicit runs of that
        suit (any length, at most one wild), each holding, for every joker it serves, a natural
        from the joker's old meld and, at the joker's place, the replacement natural
        (released) or the joker itself (kept). A relaxation: those melds of a legal table can
        always be written this way, the rest of the table by the usual parts."""
        m = self.model
        for i, served in enumerate(self._serve(members)):
            active, nat, jok = self._run_instance(members[i][0], members[i][1])
            m.add(active <= sum(rs + ks for _, _, rs, ks in served))
            mover = sum(jok.values()) - sum(ks for _, _, _, ks in served)
            # claims on each natural slot, by role: one card may be beside one joker's old
            # meld and replace another (two joker melds trading replacements), and be the new
            # natural (R5) of several, so only claims of one role exclude each other
            slot_at: dict[tuple[str, int], list[IntVar]] = {}
            at_jok: dict[int, list[IntVar]] = {}
            for k, info, rs, ks in served:
                suit = info.suit
                assert suit is not None
                at = info.positions[info.as_wild.index(True)]
                m.add(rs + ks <= active)
                slot_at.setdefault(("replace", at), []).append(rs)
                at_jok.setdefault(at, []).append(ks)
                self.claims.append((make_card(unrolled_rank(at), suit), False, k, rs, "replace"))
                # R3/R4 ask for some natural of the old meld in the same meld, not a neighbour:
                # with two copies of a card, the one beside the joker may come from elsewhere
                sides = [p for p in info.positions if p != at]
                chosen: list[IntVar] = []
                for p in sides:
                    beside = m.new_bool_var(f"wnb{k}_{p}")
                    slot_at.setdefault(("beside", p), []).append(beside)
                    chosen.append(beside)
                    self.claims.append((make_card(unrolled_rank(p), suit), True, k, beside, "beside"))
                    if self.read_swaps:
                        self._beside_stays(info, make_card(unrolled_rank(p), suit), beside, nat, jok)
                m.add(sum(chosen) == rs + ks)
                # R5: a moved joker here needs a natural that is neither from k's meld nor its
                # replacement (else the meld is k's naturals plus replacements)
                extra: list[IntVar] = []
                for p, natural in nat.items():
                    if isinstance(natural, int):
                        continue
                    x = m.new_bool_var(f"wx{k}_{p}")
                    slot_at.setdefault((f"extra{k}", p), []).append(x)
                    extra.append(x)
                    self.claims.append((make_card(unrolled_rank(p), suit), False, k, x, f"extra{k}"))
                m.add(sum(extra) >= mover + rs - 1)
            for (_, p), lst in slot_at.items():
                m.add(sum(lst) <= nat.get(p, 0))
            for p, lst in at_jok.items():
                m.add(sum(lst) <= jok.get(p, 0))
            suit = members[i][1].suit
            assert suit is not None
            for p, wild in jok.items():
                if not isinstance(wild, int) and not self._strict_spot(make_card(unrolled_rank(p), suit)):
                    m.add(wild <= sum(at_jok.get(p, [])))  # only the kept joker at its own place

    def _run_instance(
        self: TileModel, k: int, info: MeldInfo
    ) -> tuple[IntVar, dict[int, Any], dict[int, Any]]:
        """One explicit run of `info`'s suit, any length, at most one wild: its active flag and
        its naturals and wilds by rank position (constants 0 where none can be)."""
        m = self.model
        suit = info.suit
        assert suit is not None
        rule = self.variant.run_rules[suit]
        assert rule is not None
        low, high = position_range(rule)
        active = m.new_bool_var(f"wa{k}")
        inn: dict[int, IntVar] = {}
        nat: dict[int, Any] = {}
        jok: dict[int, Any] = {}
        begins: list[IntVar] = []
        for p in range(low, high + 1):
            card = make_card(unrolled_rank(p), suit)
            inn[p] = m.new_bool_var(f"wi{k}_{p}")
            m.add(inn[p] <= active)
            nat[p] = m.new_bool_var(f"wn{k}_{p}") if self.avail[card] else 0
            jok[p] = m.new_bool_var(f"wj{k}_{p}") if self.jokers else 0
            m.add(nat[p] + jok[p] == inn[p])
            if self.avail[card]:
                self.usage[card].append(nat[p])
            begin = m.new_bool_var(f"wb{k}_{p}")
            m.add(begin <= inn[p])
            if p > low:
                m.add(begin <= 1 - inn[p - 1])
                m.add(begin >= inn[p] - inn[p - 1])
            else:
                m.add(begin >= inn[p])
            begins.append(begin)
        m.add(sum(begins) == active)
        m.add(sum(inn.values()) >= self.variant.min_meld * active)
        m.add(sum(inn.values()) <= 13)
        wilds = [v for v in jok.values() if not isinstance(v, int)]
        if wilds:
            m.add(sum(wilds) <= max(self._wild_cap(13), 0))
            self.usage[JOKER].append(sum(wilds))
        self.witnesses.append(_Witness("run", suit, inn, nat, 0))
        return active, nat, jok

    def _group_witnesses(self: TileModel, members: list[tuple[int, MeldInfo, IntVar, IntVar]]) -> None:
        """R3/R4 for the group jokers of one rank whose melds are broken: explicit groups of
        that rank (at most one wild), each holding, for every joker it serves, a natural copy
        from the joker's old meld and either, in another slot, a natural of that rank from
        outside it (released: the replacement, another table copy or one from the hand) or the
        joker (kept)."""
        m = self.model
        v = self.variant
        for i, served in enumerate(self._serve(members)):
            owner, info = members[i][0], members[i][1]
            rank = info.rank
            assert rank is not None
            active = m.new_bool_var(f"wga{owner}")
            m.add(active <= sum(rs + ks for _, _, rs, ks in served))
            counts: dict[int, IntVar] = {}
            for suit in range(4):
                card = make_card(rank, suit)
                if self.avail[card]:
                    ub = 1 if v.group_distinct_suits else self.avail[card]
                    counts[suit] = m.new_int_var(0, ub, f"wg{owner}_{suit}")
                    m.add(counts[suit] <= ub * active)
                    self.usage[card].append(counts[suit])
            total = sum(counts.values())
            jw: Any = m.new_bool_var(f"wgj{owner}") if self.jokers else 0
            if not isinstance(jw, int):
                m.add(jw <= active)
                self.usage[JOKER].append(jw)
            m.add(total + jw >= v.min_meld * active)
            m.add(total >= max(v.min_naturals_per_meld, 2) * active)
            if v.group_max is not None:
                m.add(total + jw <= v.group_max)
            slots: dict[tuple[str, int], list[IntVar]] = {}  # claims per suit, by role (as for runs)
            kept_here = [ks for _, _, _, ks in served]
            mover = jw - sum(kept_here)
            for k, info_k, rs, ks in served:
                m.add(rs + ks <= active)
                mine = Counter(s.card for s, w in zip(info_k.slots, info_k.as_wild, strict=True) if not w)
                from_meld: list[IntVar] = []
                replacement: list[IntVar] = []
                for suit in counts:
                    card = make_card(rank, suit)
                    if mine[card]:
                        w = m.new_bool_var(f"wgw{k}_{suit}")
                        from_meld.append(w)
                        slots.setdefault(("beside", suit), []).append(w)
                        self.claims.append((card, True, k, w, "beside"))
                    r = m.new_bool_var(f"wgr{k}_{suit}")
                    replacement.append(r)
                    self.replace_groups[r.index] = (counts, jw)
                    slots.setdefault(("replace", suit), []).append(r)
                    self.claims.append((card, False, k, r, "replace"))
                m.add(sum(from_meld) == rs + ks)
                m.add(sum(replacement) == rs)
                extra: list[IntVar] = []  # R5, as for runs
                for suit in counts:
                    x = m.new_bool_var(f"wgx{k}_{suit}")
                    extra.append(x)
                    slots.setdefault((f"extra{k}", suit), []).append(x)
                    self.claims.append((make_card(rank, suit), False, k, x, f"extra{k}"))
                m.add(sum(extra) >= mover + rs - 1)
            for (_, suit), lst in slots.items():
                m.add(sum(lst) <= counts[suit])
            m.add(sum(kept_here) <= jw)
            self.witnesses.append(_Witness("group", rank, {}, dict(counts), jw))
