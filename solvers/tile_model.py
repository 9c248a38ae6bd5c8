"""CP-SAT meld-partition model for the tile-style variants (whole-table rearrangement).

The new table is a multiset of melds built from three kinds of parts:

* run windows of length 3..5 (any longer run splits into such windows), each used an integer
  number of times, with a per-position count of jokers standing in;
* groups aggregated by rank (how many groups of rank r, how many naturals of each suit, how many
  jokers), which decompose into real groups by a balanced deal (see `_deal_groups`);
* kept table melds: a start meld left whole, possibly extended by up to two cards at each end of
  a run or by missing suits of a group. Keeping is the secondary objective (fewest melds broken)
  and is how Tile Rummy's locked joker melds (T3) are modelled.

Every natural card kind and the joker are conserved: table cards all stay, hand cards are the
only new ones. Tile Rummy's joker retrieval (T4) adds an explicit meld for each retrieved joker.

Named options: wrapping runs (Palace ``cyclic_laying``) come from the run windows and from run
extensions in unrolled positions (`rummyai.runs.run_sides`); a single-meld opening
(``opening_single_meld``) is a flag on some new meld shape worth the points alone; Rhine's
qualifying melds (`_Qualifier` for the points rule) claim played hand cards; Rhine's wild twos
are counted as jokers and get their physical kinds back in `decode`. Palace joker swaps are
modelled on opened turns; on an opening turn (swaps allowed after the 30, §4.4)
`rummyai.solvers.opening_swaps` splits the turn into an opening and an opened turn.

This module is the core partition model. The rule pieces are mixins, one module each, switched
on by the variant's joker rule object (`Variant.joker_rules`): `tile_model_tiles` (locked joker
melds and retrieval, T3-T4), `tile_model_rhine` (releases and witness melds, R3-R5),
`tile_model_qualify` (Rhine's qualifying play), `tile_model_official` (taken table jokers) and
`tile_model_swaps` (Palace swaps); `tile_decode` reads a solved model back.

Where the joker rules ask which start meld a card came from (`JokerRules.model_relaxed`: Rhine
R3-R5b, Tile Rummy T3-T4, official Rummikub's jokers, all read on the canonical copy assignment)
the model relaxes them: the engine's judge checks the decoded table, and a rejected one goes to
`rhine_repair.rhine_repair`, whose model adds explicit witness melds for the table jokers (R3
kept in a split piece, R4 replacement beside the old meld, part of R5, with the physical copies
they claim). Every added constraint holds on every judged-legal table, so a judged-legal answer
that reaches a model's optimum (or a model with nothing better) is optimal.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any

from ortools.sat.python import cp_model, cp_model_helper

from rummyai.cards import JOKER, Meaning, Slot, make_card, rank_of, suit_of
from rummyai.cpsat import cp_solver
from rummyai.melds import MeldInfo
from rummyai.runs import run_sides, run_windows, unrolled_rank
from rummyai.solvers.position import Position
from rummyai.solvers.tile_model_official import OfficialTakes
from rummyai.solvers.tile_model_parts import (
    IntVar,
    LinearExpr,
    _avail,
    _Group,
    _Kept,
    _Qualifier,
    _Retrieval,
    _Run,
    _Witness,
)
from rummyai.solvers.tile_model_qualify import RhineQualifying
from rummyai.solvers.tile_model_rhine import RhineReleases
from rummyai.solvers.tile_model_swaps import PalaceSwaps
from rummyai.solvers.tile_model_tiles import LockedJokerMelds
from rummyai.variants import Variant


class _Model(cp_model.CpModel):
    """A `CpModel` without OR-Tools' per-instance aliases of its methods under their old
    CamelCase names (nothing here calls them): setting those up took about a fifth of the
    time to build a model (the proto is the same)."""

    def __init__(self) -> None:
        cp_model_helper.CpBaseModel.__init__(self, None)


class TileModel(LockedJokerMelds, RhineReleases, RhineQualifying, OfficialTakes, PalaceSwaps):
    """Builds, solves and decodes the CP-SAT model of one tile-style position."""

    # class defaults, for models assembled piece by piece (`rummyai.solvers.fast` builds kept
    # melds on a bare instance)
    strict: bool = False
    read_swaps: bool = False
    run_naturals: frozenset[int] | set[int] = frozenset()
    _shape_cache: list[tuple[str, tuple[int, ...], tuple[Slot, ...]]] | None = None

    def __init__(
        self,
        position: Position,
        objective: str,
        max_cards: int | None,
        minimize_changes: bool = True,
        opening: bool = False,
        committed: Sequence[int] = (),
        taken: int | None = None,
        safe: bool = False,
        safe_fixed: bool = False,
        witnesses: bool = False,
        strict: bool = False,
        swaps: bool = True,
        per_meld_jokers: bool = False,
        spread_wilds: bool = False,
        read_swaps: bool = False,
    ) -> None:
        self.safe = safe or safe_fixed
        # Rhine witness melds (`_run_witnesses`): a tighter relaxation, built for the repair only
        self.use_witnesses = witnesses or strict
        # witness cards whose origin no copy assignment can read otherwise (`_add_claims`): a
        # restriction, not a relaxation, whose tables the judge accepts far more often
        self.strict = strict
        # witness claims that a swap of two identical copies would undo are left out (a tighter
        # relaxation, `_no_better_swap`, `_beside_stays`): the repair's proof model. Opened turns
        # only: a qualifying meld is a start meld to the judge, so its hand cards keep pairs
        self.read_swaps = read_swaps and position.opened
        # Rhine R5 as a restriction on new melds with a wild (`_spread`): their naturals' kinds
        # are not all kinds of one start meld, so no copy assignment reads the wild as merely
        # added to that meld (a natural of such a kind from the hand would do too: a restriction)
        self.spread_wilds = spread_wilds
        self.start_kinds = [
            frozenset(s.card for s, wild in zip(info.slots, info.as_wild, strict=True) if not wild)
            for info in position.table
        ]
        # Rhine qualifying melds claim played cards only (the safe models keep them whole)
        self.virtual_qualify = not self.safe
        self.safe_fixed = safe_fixed
        self.committed = list(committed)
        self.taken = taken
        self.position = position
        self.variant: Variant = position.variant
        self.objective = objective
        self.opening = opening
        self.model = _Model()
        hand, table = _avail(position)
        if opening:
            table = [0] * 53
        # Rhine's wild twos follow every joker rule and are never natural: the model counts them
        # as jokers (the JOKER rows hold every wild), `wild_played` splits the hand's by kind
        # for the objective, and `decode` gives each wild slot a physical kind back.
        self.wild_kinds = [c for c in range(52) if position.variant.always_wild(c)]
        for w in self.wild_kinds:
            hand[JOKER] += hand[w]
            table[JOKER] += table[w]
            hand[w] = table[w] = 0
        self.wild_played: dict[int, IntVar] = {}
        self.hand_counts = hand
        self.table_counts = table
        self.avail = [h + t for h, t in zip(hand, table, strict=True)]
        self.jokers = self.avail[JOKER]
        if opening and self.variant.opening_wild_value == "forbidden":
            self.jokers = table[JOKER]
        v = self.variant
        # Pooled jokers: a count of jokers per card kind they stand for, instead of per meld
        # position. Exact when no meld can be all jokers and no per-meld wild cap applies.
        self.pooled = (
            v.max_wilds_per_meld is None
            and not v.wilds_le_naturals
            and self.jokers <= v.min_meld - max(v.min_naturals_per_meld, 1)
            and (not opening or v.opening_group_ace == v.opening_values[1])
            # jokers per meld position: tells a joker kept in a group from one moved to a run
            and not per_meld_jokers
        )
        self.allowance: dict[int, IntVar] = {}
        self.played: dict[int, IntVar] = {}
        self.conservation: dict[int, cp_model.Constraint] = {}
        self.qualified: IntVar | None = None
        # draw-and-discard family: the table is never rearranged, melds only grow
        self.fixed_table = not v.manipulation or safe_fixed
        # `swaps` False: the best play that leaves every table joker in place (Palace's fallback)
        self.swaps_allowed = swaps and self.fixed_table and v.joker_rules.exact_swaps and position.opened
        self.count_open = opening or (self.fixed_table and v.opening == "points" and not position.opened)
        self.usage: list[list[LinearExpr]] = [[] for _ in range(53)]
        self.runs: list[_Run] = []
        self.groups: list[_Group] = []
        self.kept: dict[int, _Kept] = {}
        self.released: dict[int, IntVar] = {}  # Rhine: start joker meld -> its joker released
        self.retrievals: list[_Retrieval] = []
        self.witnesses: list[_Witness] = []  # Rhine R4 witness melds
        self._differs: dict[tuple[int, int], Any] = {}  # `differs` literals, shared by every cut
        # their physical cards: (kind, from the joker's old meld or not, that meld, claim flag,
        # role: "replace", "beside" its old meld's natural, or "extra<meld>", its R5 natural)
        self.claims: list[tuple[int, bool, int, Any, str]] = []
        # group witnesses' replacement claims (by variable index): the group's natural counts
        # by suit and its wild (`_no_better_swap`)
        self.replace_groups: dict[int, tuple[dict[int, IntVar], Any]] = {}
        self.plain_windows: dict[int, IntVar] = {}  # `_plain_window`, by count variable index
        self.open_value: list[LinearExpr] = []
        # opening_single_meld: one flag per new meld shape worth the opening points on its own
        self.single_open: list[IntVar] = []
        self.max_cards = max_cards
        self.minimize_changes = minimize_changes and not opening
        # strict model: card kinds a start run holds as naturals (R5b, `_strict_spot`)
        self.run_naturals = {
            s.card
            for info in position.table
            if info.kind == "run"
            for s, wild in zip(info.slots, info.as_wild, strict=True)
            if not wild
        }
        self._build()

    # ------------------------------------------------------------------ building
    def _wild_cap(self, size: int) -> int:
        v = self.variant
        cap = size - max(v.min_naturals_per_meld, 1)
        if v.max_wilds_per_meld is not None:
            cap = min(cap, v.max_wilds_per_meld)
        if v.wilds_le_naturals:
            cap = min(cap, size // 2)
        return max(cap, 0)

    def _opening_card_value(self, position: int, group: bool) -> int:
        v = self.variant
        if group and position == 1:
            return v.opening_group_ace
        return v.opening_values[position]

    def _build(self) -> None:
        m = self.model
        v = self.variant
        locked = self._locked_melds()
        for k, info in enumerate(() if self.opening else self.position.table):
            # a safe model keeps every start meld holding a wild whole (Rhine's releases do it too)
            safe_whole = self.safe and info.wild_count > 0
            needed = k in locked or (v.joker_rules.accompaniment and info.wild_count > 0) or self.fixed_table
            if self.minimize_changes or needed or safe_whole:
                forced = (
                    (k in locked and (self.safe or not self.position.opened))
                    or self.fixed_table
                    or safe_whole
                )
                self._add_kept(k, info, forced=forced)
        if self.fixed_table:
            # new melds come from the hand (and jokers freed by swaps)
            saved = self.avail
            self.avail = [*self.hand_counts[:52], self.jokers]
            self._add_runs()
            self._add_groups()
            self.avail = saved
        else:
            self._add_runs()
            self._add_groups()
        self.hand_claims: list[tuple[int, dict[int, IntVar], dict[int, IntVar], dict[int, IntVar]]] = []
        if locked and self.position.opened and not self.safe:
            self._add_retrievals(locked)
        self.qualify: list[tuple[str, tuple[int, ...], IntVar, dict[int, IntVar]]] = []
        self.qualify_points: list[_Qualifier] = []
        self.extra_need: list[tuple[int, LinearExpr]] = []
        if v.joker_rules.accompaniment and not self.opening:
            self._add_releases()
            if not self.position.opened and v.opening == "points":
                self._add_points_qualification()
            elif not self.position.opened:
                self._add_qualifying_meld()
                if self.use_witnesses:
                    self._wilds_beside_the_qualifying_group()
        if self.pooled and self.jokers:
            for card in range(52):
                if self.usage[card]:
                    self.allowance[card] = m.new_int_var(0, self.jokers, f"J{card}")
            self.usage[JOKER].extend(self.allowance.values())
            if self.opening and v.opening_wild_value == "zero":
                for card, var in self.allowance.items():
                    self.open_value.append(-v.opening_values[rank_of(card)] * var)
        if v.joker_rules.replacement_takes and self.use_witnesses and not self.opening:
            self._add_official_takes()
        # hand variables and conservation
        for card in range(53):
            terms = list(self.usage[card])
            if card in self.allowance:
                terms.append(-self.allowance[card])
            rhine_safe = self.safe and not self.safe_fixed and v.joker_rules.accompaniment
            blocked = card == JOKER and (self.jokers < self.avail[JOKER] or rhine_safe)
            qualifying_jokers = [q.wilds() for q in self.qualify_points] if card == JOKER else []
            if blocked and qualifying_jokers and self.hand_counts[JOKER]:
                # hand jokers in the qualifying melds are always legal (they are start melds)
                m.add(self.played_var(JOKER) <= sum(qualifying_jokers))
            if card in self.played:
                played: LinearExpr = self.played[card]
                if not terms:
                    m.add(self.played[card] == 0)
            elif self.hand_counts[card] == 0 or blocked or not terms:
                played = 0
            else:
                played = self.played_var(card)
            if not terms:
                if self.table_counts[card]:
                    m.add_bool_or([])  # a table card with no place: cannot happen for valid tables
                continue
            self.conservation[card] = m.add(
                cp_model.LinearExpr.sum(terms) == self.table_counts[card] + played
            )
        self._hand_claims()
        self._split_wilds()
        cards = sum(self.played.values()) if self.played else 0
        hv = self.variant.hand_values
        valued = {c: var for c, var in self.played.items() if not (c == JOKER and self.wild_played)}
        valued_wilds = [hv[c] * var for c, var in self.wild_played.items()]
        points = sum(hv[c] * var for c, var in valued.items()) + sum(valued_wilds) if self.played else 0
        self.cards_expr: LinearExpr = cards
        self.points_expr: LinearExpr = points
        cap = self._cap()
        if cap is not None and self.played:
            m.add(cards <= cap)
        for card in set(self.committed):
            need = self.committed.count(card)
            if self.played.get(card) is None:
                m.add_bool_or([])  # the committed card fits nowhere: no legal play
            else:
                m.add(self.played[card] >= need)
        self._keep_a_discard()
        if self.qualified is not None:
            m.add(cards <= len(self.position.hand) * self.qualified)
        if self.count_open:
            play = m.new_bool_var("play")
            m.add(cards <= len(self.position.hand) * play)
            if v.opening_single_meld:
                m.add(sum(self.single_open) >= play)
            else:
                m.add(sum(self.open_value) >= v.opening_points * play)
        self._objective()

    def _keep_a_discard(self) -> None:
        """The card taken from the discard pile may not be the discard (§4.2): some other card
        must stay in hand. Copies of a kind are alike, so with a second copy in hand one of them
        is the taken card played (or kept while the other is discarded); the cap of one card
        kept back is then enough. Playing nothing keeps the whole hand and is always allowed."""
        v = self.variant
        if self.taken is None or not (v.no_rediscard_of_taken and v.go_out_by_discard_only):
            return
        if self.hand_counts[self.taken] != 1 or len(self.position.hand) < 2:
            return
        others = [self.hand_counts[c] - self.played.get(c, 0) for c in range(53) if c != self.taken]
        self.model.add(sum(others) >= 1)

    def _split_wilds(self) -> None:
        """Wild twos: the hand's wilds played (the JOKER count) split by physical kind."""
        if not self.wild_kinds or JOKER not in self.played:
            return
        held = self.position.hand_counts()
        for c in (JOKER, *self.wild_kinds):
            if held[c]:
                self.wild_played[c] = self.model.new_int_var(0, held[c], f"wild{c}")
        self.model.add(sum(self.wild_played.values()) == self.played[JOKER])

    def _hand_claims(self) -> None:
        """Retrievals need rack tiles: each its own replacement, and a tile in its new meld.

        A replacement may be a rack tile lying in another retrieval's new meld (even its witness),
        or a non-witness rack tile in its own; `share` variables pair such tiles.
        """
        m = self.model
        need: dict[int, list[LinearExpr]] = {}
        shares: dict[tuple[str, int, int], list[IntVar]] = {}
        for k, repl, own, _witness in self.hand_claims:
            for c, o in own.items():
                need.setdefault(c, []).append(o)
            for c, r in repl.items():
                need.setdefault(c, []).append(r)
                for k2, _, own2, witness2 in self.hand_claims:
                    if c not in own2:
                        continue
                    share = m.new_bool_var(f"sh{k}_{k2}_{c}")
                    m.add(share <= r)
                    if k2 == k:
                        m.add(share <= own2[c] - witness2[c])
                    else:
                        m.add(share <= own2[c])
                    need[c].append(-share)
                    shares.setdefault(("r", k, c), []).append(share)
                    shares.setdefault(("o", k2, c), []).append(share)
        for key, lst in shares.items():
            _, k, c = key
            bound = next(
                (repl if key[0] == "r" else own)[c] for kk, repl, own, _ in self.hand_claims if kk == k
            )
            m.add(sum(lst) <= bound)
        for c, expr in self.extra_need:
            need.setdefault(c, []).append(expr)
        for c, terms in need.items():
            played = self.played.get(c)
            if played is None:
                m.add(sum(terms) <= 0)
            else:
                m.add(sum(terms) <= played)

    def _cap(self) -> int | None:
        caps = [c for c in (self.max_cards, self.variant.max_hand_cards_per_turn) if c is not None]
        if self.variant.go_out_by_discard_only:
            caps.append(len(self.position.hand) - 1)
        return min(caps) if caps else None

    def _objective(self) -> None:
        keep = sum(k.keep for k in self.kept.values()) if (self.kept and self.minimize_changes) else 0
        n_keep = len(self.kept) + 1
        max_points = sum(self.variant.hand_values[c] for c in self.position.hand) + 1
        max_cards = len(self.position.hand) + 1
        if self.objective == "cards":
            expr = self.cards_expr * (max_points * n_keep) + self.points_expr * n_keep + keep
        else:
            expr = self.points_expr * (max_cards * n_keep) + self.cards_expr * n_keep + keep
        self.model.maximize(expr)

    def differs(self, var: IntVar, value: int) -> Any:
        """A literal true only when `var` differs from `value`, or None when it cannot. The repair's
        no-good cuts are clauses over these: a boolean's own literal, else one enforced literal per
        variable and value, made once and shared by every later cut (a cut adds no variable then)."""
        domain = var.proto.domain  # (a negative index reads this repeated field wrong)
        low, high = domain[0], domain[len(domain) - 1]
        if low == high:
            return None
        if (low, high) == (0, 1):
            return var if value == 0 else ~var
        key = (var.index, value)
        if key not in self._differs:
            flag = self.model.new_bool_var("")
            self.model.add(var != value).only_enforce_if(flag)
            self._differs[key] = flag
        return self._differs[key]

    def decision_vars(self) -> list[IntVar]:
        """The variables that fix the decoded table (for no-good cuts)."""
        out: list[IntVar] = list(self.played.values())
        for run in self.runs:
            out.append(run.count)
            out.extend(j for j in run.jokers if j is not None)
        for group in self.groups:
            out.append(group.count)
            out.extend(group.naturals.values())
            if group.jokers is not None:
                out.append(group.jokers)
        out.extend(count for _, count in self.group_sets)  # pooled groups as suit sets
        out.extend(self.allowance.values())  # pooled jokers: where each stands
        for kept in self.kept.values():
            out.append(kept.keep)
            for filled, natural in kept.ext.values():
                out.extend((filled, natural))
            out.extend(kept.group_nat.values())
            if kept.group_jok is not None:
                out.append(kept.group_jok)
        for _, _, var, counts in self.qualify:
            out.append(var)
            out.extend(counts.values())
        out.extend(self.wild_played.values())
        for w in self.witnesses:
            out.extend(w.inside.values())
            out.extend(w.naturals.values())
            out.append(w.joker)
        for q in self.qualify_points:
            out.append(q.count)
            out.extend(q.jokers.values())
            out.extend(q.naturals.values())
        return [v for v in out if not isinstance(v, int)]

    def joker_vars(self) -> list[IntVar]:
        """The variables that say which hand cards are played and where every joker stands (and
        whether each joker meld is kept): the repair's wide cuts forbid these alone."""
        out: list[IntVar] = list(self.played.values())
        for run in self.runs:
            out.extend(j for j in run.jokers if j is not None)
        out.extend(group.jokers for group in self.groups if group.jokers is not None)
        out.extend(self.allowance.values())
        for kept in self.kept.values():
            if kept.info.wild_count:
                out.append(kept.keep)
            if kept.group_jok is not None:
                out.append(kept.group_jok)
        out.extend(self.wild_played.values())
        for w in self.witnesses:
            out.extend(w.inside.values())
            out.extend(w.naturals.values())
            out.append(w.joker)
        return [v for v in out if not isinstance(v, int)]

    def _add_kept(self, k: int, info: MeldInfo, forced: bool) -> None:
        m = self.model
        keep = m.new_bool_var(f"keep{k}")
        kept = _Kept(k, info, keep)
        self.kept[k] = kept
        for i, slot in enumerate(info.slots):
            card = JOKER if info.as_wild[i] else slot.card
            self.usage[card].append(keep)
            if slot.escort is not None:
                self.usage[slot.escort.card].append(keep)
        wild_room = (
            self._wild_cap(13) - info.wild_count if self.variant.max_wilds_per_meld is not None else 99
        )
        jokers_ok = self.jokers > 0 and wild_room > 0 and not self.safe_fixed
        ext_jokers: list[IntVar] = []
        if info.kind == "run":
            assert info.suit is not None
            rule = self.variant.run_rules[info.suit]
            assert rule is not None
            reach = 2 if self.variant.manipulation else 12
            for side in run_sides(rule, info.positions, reach):
                prev: IntVar | None = None
                for p in side:
                    card = make_card(unrolled_rank(p), info.suit)
                    if self.avail[card] == 0 and not jokers_ok:
                        break
                    if self.pooled:
                        filled = m.new_bool_var(f"e{k}_{p}")
                        m.add(filled <= (prev if prev is not None else keep))
                        self.usage[card].append(filled)
                        kept.ext[p] = (filled, filled)
                        prev = filled
                        continue
                    filled = m.new_bool_var(f"e{k}_{p}")
                    natural = m.new_bool_var(f"n{k}_{p}") if self.avail[card] else m.new_constant(0)
                    m.add(natural <= filled)
                    m.add(filled <= (prev if prev is not None else keep))
                    if not jokers_ok or not self._strict_spot(card):
                        m.add(natural == filled)
                    else:
                        ext_jokers.append(filled - natural)
                    if self.avail[card]:
                        self.usage[card].append(natural)
                    kept.ext[p] = (filled, natural)
                    prev = filled
            if kept.ext and len(info.positions) + 2 * reach > 13:
                m.add(sum(f for f, _ in kept.ext.values()) <= 13 - len(info.positions))
        else:
            assert info.rank is not None
            extra = 2 if self.variant.manipulation else 8
            room = (self.variant.group_max or len(info.slots) + extra) - len(info.slots)
            if room > 0:
                present = {suit_of(s.card) for s, w in zip(info.slots, info.as_wild, strict=True) if not w}
                for suit in range(4):
                    card = make_card(info.rank, suit)
                    if self.variant.group_distinct_suits and suit in present:
                        continue
                    if self.avail[card] == 0 and not (self.pooled and jokers_ok):
                        continue
                    ub = 1 if self.variant.group_distinct_suits else min(room, self.avail[card])
                    if self.pooled:
                        ub = 1 if self.variant.group_distinct_suits else room
                    var = m.new_int_var(0, ub, f"g{k}_{suit}")
                    kept.group_nat[suit] = var
                    self.usage[card].append(var)
                if jokers_ok and not self.pooled:
                    jv = m.new_int_var(0, min(room, self.jokers, wild_room), f"gj{k}")
                    kept.group_jok = jv
                    ext_jokers.append(jv)
                total = sum(kept.group_nat.values()) + (kept.group_jok if kept.group_jok is not None else 0)
                if kept.group_nat or kept.group_jok is not None:
                    m.add(total <= room * keep)
        swaps = self._add_swaps(kept) if self.swaps_allowed and info.wild_count else []
        if ext_jokers and self.variant.joker_rules.accompaniment:
            # R5: wilds added to a kept meld need a natural card added with them, or they
            # would simply join an existing meld
            ext_naturals: list[LinearExpr] = [n for _, n in kept.ext.values()]
            ext_naturals.extend(kept.group_nat.values())
            m.add(sum(ext_jokers) <= 13 * sum(ext_naturals))
        if ext_jokers:
            self.usage[JOKER].append(sum(ext_jokers))
            if self.variant.max_wilds_per_meld is not None:
                m.add(sum(ext_jokers) <= max(wild_room, 0))
        if self.variant.wilds_le_naturals and (ext_jokers or kept.ext or kept.group_nat):
            ext_nat: list[LinearExpr] = [n for _, n in kept.ext.values()]
            ext_nat.extend(kept.group_nat.values())
            naturals = info.naturals + sum(ext_nat) + sum(swaps)
            m.add(info.wild_count - sum(swaps) + sum(ext_jokers) <= naturals)
        if forced:
            m.add(keep == 1)
        if self.strict and info.wild_count and not self._anchored(info):
            # a grown joker meld whose naturals all have other copies may be read with those
            # copies (§7.1): the joker would have lost its meld's cards
            for filled, _ in kept.ext.values():
                m.add(filled == 0)
            for var in kept.group_nat.values():
                m.add(var == 0)
            if kept.group_jok is not None:
                m.add(kept.group_jok == 0)

    def _add_runs(self) -> None:
        m = self.model
        v = self.variant
        avail = self.avail
        usage = self.usage
        copies = v.copies
        all_jokers = self.jokers
        pooled = self.pooled
        count_open = self.count_open
        blocked = self.run_naturals if self.strict else ()  # `_strict_spot` is False on these
        new_int_var = m.new_int_var
        add = m.add
        caps: dict[int, int] = {}
        # a run with wilds <= naturals may not split into valid pieces of 3-5: allow any length
        max_len = 13 if v.wilds_le_naturals else 5
        for window in run_windows(v, max_len):
            cards = window.cards
            size = len(cards)
            wild_cap = caps.get(size)
            if wild_cap is None:
                wild_cap = caps[size] = self._wild_cap(size)
            jokers = min(all_jokers, wild_cap)
            have = [avail[c] for c in cards]
            if have.count(0) > jokers:
                continue
            ub = min(min(have) + all_jokers, max(copies[c] for c in cards))
            if ub <= 0:
                continue
            count = new_int_var(0, ub, f"r{window.suit}_{window.positions[0]}_{size}")
            joker_vars: list[IntVar | None] = []
            if jokers == 0 or pooled:
                for card in cards:
                    joker_vars.append(None)
                    usage[card].append(count)
            else:
                joker_ub = min(ub, all_jokers)
                for card, held in zip(cards, have, strict=True):
                    jv = new_int_var(0, joker_ub, "")
                    add(jv <= count)
                    if card in blocked:
                        add(jv == 0)
                    joker_vars.append(jv)
                    if held:
                        usage[card].append(count - jv)
                    else:
                        add(jv == count)
            real = [j for j in joker_vars if j is not None]
            if real:
                usage[JOKER].append(sum(real))
                add(sum(real) <= wild_cap * count)
                if self.spread_wilds:
                    naturals = {
                        card: count if jv is None else count - jv
                        for card, jv in zip(cards, joker_vars, strict=True)
                    }
                    self._spread(sum(real), count, naturals)
            if count_open:
                values = [self._opening_card_value(p, False) for p in window.positions]
                self.open_value.append(sum(values) * count)
                if sum(values) >= v.opening_points:
                    self._single_open(count)
                if v.opening_wild_value == "zero":
                    for value, joker in zip(values, joker_vars, strict=True):
                        if joker is not None:
                            self.open_value.append(-value * joker)
            self.runs.append(_Run(window, count, joker_vars))

    def _add_group_sets(self) -> None:
        """Groups as explicit suit sets (pooled jokers, distinct suits, small cap): each set of
        suits of one rank is a template used 0..2 times, like the run windows."""
        m = self.model
        v = self.variant
        assert v.group_max is not None
        for rank in range(1, 14):
            for size in range(v.min_meld, v.group_max + 1):
                for suits in combinations(range(4), size):
                    cards = tuple(make_card(rank, x) for x in suits)
                    missing = sum(1 for c in cards if self.avail[c] == 0)
                    if missing > self.jokers:
                        continue
                    ub = min(min(self.avail[c] + self.jokers for c in cards), max(v.copies[c] for c in cards))
                    if ub <= 0:
                        continue
                    count = m.new_int_var(0, ub, f"GS{rank}_{suits}")
                    for c in cards:
                        self.usage[c].append(count)
                    if self.count_open:
                        value = self._opening_card_value(rank, True) * size
                        self.open_value.append(value * count)
                        if value >= v.opening_points:
                            self._single_open(count)
                    self.group_sets.append((cards, count))

    def _add_groups(self) -> None:
        m = self.model
        v = self.variant
        self.group_sets: list[tuple[tuple[int, ...], IntVar]] = []
        if self.pooled and v.group_distinct_suits and v.group_max is not None and v.group_max <= 4:
            self._add_group_sets()
            return
        for rank in range(1, 14):
            cards = [make_card(rank, s) for s in range(4)]
            naturals_avail = sum(self.avail[c] for c in cards)
            if naturals_avail == 0:
                continue
            wild_cap = self._wild_cap(v.group_max or 13)
            jokers = self.jokers
            min_nat = max(v.min_naturals_per_meld, 1, v.min_meld - (v.max_wilds_per_meld or 99))
            if v.wilds_le_naturals:
                min_nat = max(min_nat, (v.min_meld + 1) // 2)
            ub = min((naturals_avail + jokers) // v.min_meld, naturals_avail // min_nat)
            if ub == 0:
                continue
            count = m.new_int_var(0, ub, f"G{rank}")
            nat: dict[int, IntVar] = {}
            for suit, card in enumerate(cards):
                if self.pooled and (self.avail[card] or jokers):
                    var = m.new_int_var(0, self.avail[card] + jokers, f"G{rank}_{suit}")
                    if v.group_distinct_suits:
                        m.add(var <= count)
                    nat[suit] = var
                    self.usage[card].append(var)
                elif self.avail[card]:
                    var = m.new_int_var(0, self.avail[card], f"G{rank}_{suit}")
                    if v.group_distinct_suits:
                        m.add(var <= count)
                    nat[suit] = var
                    self.usage[card].append(var)
            total_nat = sum(nat.values())
            jv: IntVar | None = None
            size: LinearExpr = total_nat
            if jokers > 0 and wild_cap > 0 and not self.pooled:
                jv = m.new_int_var(0, jokers, f"GJ{rank}")
                self.usage[JOKER].append(jv)
                size = total_nat + jv
                if v.max_wilds_per_meld is not None:
                    m.add(jv <= v.max_wilds_per_meld * count)
                if v.wilds_le_naturals:
                    m.add(jv <= total_nat)
            m.add(size >= v.min_meld * count)
            if v.group_max is not None:
                m.add(size <= v.group_max * count)
            m.add(total_nat >= min_nat * count)
            if self.spread_wilds and jv is not None:
                self._spread(jv, count, {cards[suit]: var for suit, var in nat.items()})
            m.add(size <= 200 * count)
            if self.count_open:
                value = self._opening_card_value(rank, True)
                counted = size if v.opening_wild_value == "represented" else total_nat
                self.open_value.append(value * counted)
                self._single_open_group(value, count, size)
            self.groups.append(_Group(rank, count, nat, jv))

    def _spread(self, wilds: LinearExpr, count: IntVar, naturals: dict[int, LinearExpr]) -> None:
        """`spread_wilds` for a new-meld shape used `count` times with `wilds` wilds and these
        naturals per kind: with a wild it is used once, and for every start meld sharing a kind
        with it, one of its naturals is of a kind that meld does not hold."""
        m = self.model
        wild = m.new_bool_var("")
        m.add(wilds <= 13 * wild)
        m.add(count <= 1).only_enforce_if(wild)
        for kinds in self.start_kinds:
            if not kinds & naturals.keys():
                continue
            outside = [var for card, var in naturals.items() if card not in kinds]
            if not outside:
                m.add(wild == 0)
                return
            m.add(sum(outside) >= 1).only_enforce_if(wild)

    def _single_open(self, count: IntVar) -> None:
        """A flag that one of `count` copies of a shape worth the opening points is the opening."""
        if not self.variant.opening_single_meld:
            return
        flag = self.model.new_bool_var("open1")
        self.model.add(flag <= count)
        self.single_open.append(flag)

    def _single_open_group(self, value: int, count: IntVar, size: LinearExpr) -> None:
        """Aggregated groups of one rank (cards worth `value` each): one of them may open alone
        once it holds `need` cards. The balanced deal of `decode` makes a group of ceil(size /
        count) cards, which reaches `need` when size >= min_meld * count + 1 if need is
        min_meld + 1 (larger needs are refused by `solve_tile`)."""
        v = self.variant
        need = _single_group_need(v, value)
        if not v.opening_single_meld or need is None:
            return
        flag = self.model.new_bool_var("open1g")
        self.model.add(flag <= count)
        self.model.add(size >= v.min_meld * count + max(need - v.min_meld, 0) * flag)
        self.single_open.append(flag)

    def played_var(self, card: int) -> IntVar:
        """The hand-played count of `card`, created early when a rule needs it."""
        var = self.played.get(card)
        if var is None:
            var = self.model.new_int_var(0, self.hand_counts[card], f"h{card}")
            self.played[card] = var
        return var

    def _shapes(self, k: int) -> list[tuple[tuple[int, ...], tuple[Slot, ...], IntVar]]:
        """Every meld with exactly one joker that the available cards allow (runs of any length,
        groups): its natural cards, its written slots and its choice flag (a new one per `k`)."""
        m = self.model
        tag = {"run": f"S{k}r", "group": f"S{k}g"}
        return [(naturals, slots, m.new_bool_var(tag[kind])) for kind, naturals, slots in self._shape_list()]

    def _shape_list(self) -> list[tuple[str, tuple[int, ...], tuple[Slot, ...]]]:
        """The shapes of `_shapes` without flags, listed once per model: a run window is one
        only where at most its joker's place lacks a card, and a rack tile is among its cards."""
        if self._shape_cache is not None:
            return self._shape_cache
        v = self.variant
        out: list[tuple[str, tuple[int, ...], tuple[Slot, ...]]] = []
        for window in run_windows(v, 13):
            missing = [i for i, c in enumerate(window.cards) if not self.avail[c]]
            if len(missing) > 1:
                continue
            for i in missing or range(len(window.cards)):
                naturals = window.cards[:i] + window.cards[i + 1 :]
                # T4(d): the new meld holds a rack tile
                if any(self.hand_counts[c] for c in naturals):
                    joker = Slot(JOKER, Meaning(rank_of(window.cards[i]), window.suit))
                    slots = tuple(joker if n == i else Slot(c) for n, c in enumerate(window.cards))
                    out.append(("run", naturals, slots))
        for rank in range(1, 14):
            suits = [x for x in range(4) if self.avail[make_card(rank, x)]]
            top = (v.group_max or 4) - 1
            for size in range(max(v.min_meld - 1, 2), top + 1):
                for combo in combinations(suits, size):
                    naturals = tuple(make_card(rank, x) for x in combo)
                    if not any(self.hand_counts[c] for c in naturals):
                        continue
                    out.append(
                        ("group", naturals, (*(Slot(c) for c in naturals), Slot(JOKER, Meaning(rank))))
                    )
        self._shape_cache = out
        return out


def _single_group_need(variant: Variant, value: int) -> int | None:
    """Cards a group of cards worth `value` each needs to open alone, None if no group can."""
    need = -(-variant.opening_points // value) if value > 0 else None
    if need is None or (variant.group_max is not None and need > variant.group_max):
        return None
    return need


def single_meld_exact(variant: Variant) -> bool:
    """Whether the single-meld opening flags are exact: represented wilds, and no rank whose
    lone opening group would need more than min_meld + 1 cards (the balanced group deal)."""
    if variant.opening_wild_value != "represented":
        return False
    for rank in range(1, 14):
        value = variant.opening_group_ace if rank == 1 else variant.opening_values[rank]
        need = _single_group_need(variant, value)
        if need is not None and need > variant.min_meld + 1:
            return False
    return True


def solve_model(
    tm: TileModel,
    time_limit: float | None,
    work: float | None = None,
    first: bool = False,
    callback: cp_model.CpSolverSolutionCallback | None = None,
) -> tuple[cp_model.CpSolver, Any]:
    """Run CP-SAT on a built model with fast settings for small models (`work`: a limit in
    CP-SAT's deterministic time, which does not depend on the machine's load; `first`: stop at
    the first solution; `callback`: told of every solution found on the way)."""
    solver = cp_solver()
    params = solver.parameters
    params.stop_after_first_solution = first
    params.cp_model_presolve = False
    params.cut_level = 0
    # the lower-bound tree search helps the partition models, not the Rhine witness models
    params.optimize_with_lb_tree_search = not tm.use_witnesses
    if time_limit is not None:
        params.max_time_in_seconds = float(time_limit)
    if work is not None:
        params.max_deterministic_time = max(float(work), 0.001)
    status = solver.solve(tm.model, callback)
    return solver, status
