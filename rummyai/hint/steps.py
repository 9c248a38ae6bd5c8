"""Steps a person follows to turn the current table into a new one (the table diff of a hint).

`plan_steps(old, new)` matches each new meld to the old meld it shares most cards with (an exact
maximum-weight assignment, so as many cards as possible stay where they lie), then routes every
other card: from a meld that gives it up, or from the hand, to the meld that needs it. Steps are
grouped by (from, to), so a step moves one or more cards between two places; fewer steps means a
move that is easier to carry out. Cards are compared by kind: two copies of a card are
interchangeable. Cards that leave the table for the hand (a joker swap in the draw-and-discard
variants) become ``take`` steps. Black Heart's diamond swaps and Rummy Palace's joker swaps
(`plan_with_swaps`) become ``swap`` steps, and the cards they free count as hand cards from then
on. A Palace joker goes back on the table this turn: the step that lays it follows its swap, and
on an opening turn the opening's melds come before any swap (§4.4).

Melds are counted from 0 in data (`Step.source` and a step's ``from_meld`` index the start table,
``to_meld`` the new one) and from 1 in text: "meld N" is the start table's meld N, "new meld N"
the new table's meld N. A step writes a meld's cards where the steps first name it, and its number
alone after that (`_named_once`). `in_start_order` lays a rearranged table out in the start
table's order, new melds last.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from rummyai.cards import (
    JOKER,
    Meaning,
    Slot,
    card_str,
    cards_str,
    make_card,
    meld_str,
    rank_of,
    sorted_cards,
    suit_of,
)
from rummyai.errors import MeldError
from rummyai.melds import MeldInfo, MeldInput, analyze_meld, to_slots
from rummyai.variants import Variant

Action = Literal["move", "play", "take", "swap", "open"]
Swap = tuple[int, int, int, int | None]  # (old meld, diamond, replacement, new escort): `Solution.swaps`
# Rummy Palace: (old meld, joker's slot, replacement, new meld the joker goes to, the joker there,
# whether that meld is on the table before the joker joins it): `rummyai.solvers.palace_swaps.JokerSwap`
JokerSwap = tuple[int, int, int, int, Slot, bool]
Fate = Literal["kept", "extended", "changed", "taken_apart"]
NewFate = Literal["kept", "extended", "changed", "new"]
Meld = tuple[Slot, ...]

# Matching weight: kept cards first, then melds left whole (a meld kept intact saves a step).
_CARD_WEIGHT = 1000
_INTACT_BONUS = 1


@dataclass(frozen=True)
class Step:
    """One thing to do: move `cards` from `source` to `target`.

    `source` is an index into the old table (None: the hand); `target` an index into the new
    table (None: back into the hand). `action` is ``play`` (hand to table), ``move`` (between
    table melds), ``take`` (table to hand), ``swap`` (hand `cards` put into old meld `target`
    in place of `wild`, a diamond or a joker, which goes to the hand) or ``open`` (hand cards laid as an
    opening meld that later steps take apart: `plan_with_opening`).
    """

    action: Action
    cards: tuple[int, ...]
    source: int | None
    target: int | None
    text: str
    opening: int | None = None  # the opening meld an ``open`` step lays, or a play takes cards from
    wild: int | None = None  # a ``swap`` step's joker or diamond, which leaves the meld

    def to_json(self) -> dict[str, Any]:
        """Plain-data form used by the JSON contract (``opening`` only where it is set)."""
        out: dict[str, Any] = {
            "action": self.action,
            "cards": cards_str(self.cards).split(),
            "from_meld": self.source,
            "to_meld": self.target,
            "text": self.text,
        }
        if self.opening is not None:
            out["opening"] = self.opening
        if self.wild is not None:
            out["wild"] = card_str(self.wild)
        return out


@dataclass(frozen=True)
class StepPlan:
    """How to get from `old` to `new`: each meld's fate and the steps, tables moves first.

    `origin[j]` is the old meld that new meld j continues (None for a new meld); `fates[i]` says
    what happens to old meld i; `played` are hand cards put down, `taken` table cards taken back.
    """

    old: tuple[Meld, ...]
    new: tuple[Meld, ...]
    origin: tuple[int | None, ...]
    fates: tuple[Fate, ...]
    played: tuple[int, ...]
    taken: tuple[int, ...]
    steps: tuple[Step, ...]

    def new_fates(self) -> tuple[NewFate, ...]:
        """What each new meld is: an old meld kept, extended or changed, or a new meld."""
        result: list[NewFate] = []
        for i in self.origin:
            result.append("new" if i is None else _NEW_FATE[self.fates[i]])
        return tuple(result)

    def melds_with(self, fate: Fate) -> list[int]:
        """Indexes of old melds with this fate."""
        return [i for i, f in enumerate(self.fates) if f == fate]

    @property
    def new_melds(self) -> list[int]:
        """Indexes of new-table melds that continue no old meld."""
        return [j for j, i in enumerate(self.origin) if i is None]

    def summary(self) -> str:
        """A short phrase: what happens to the table, e.g. "extend 2 melds, take apart 1, 3 steps"."""
        parts: list[str] = []
        for fate, verb in _VERBS:
            n = len(self.melds_with(fate))
            if n:
                parts.append(f"{verb} {_plural(n, 'meld')}")
        if self.new_melds:
            parts.append(f"lay down {_plural(len(self.new_melds), 'new meld')}")
        if self.taken:
            parts.append(f"take {cards_str(self.taken)} back")
        kept = len(self.melds_with("kept"))
        if kept and parts:
            parts.append(f"leave {_plural(kept, 'meld')} as {'it is' if kept == 1 else 'they are'}")
        parts.append(_plural(len(self.steps), "step"))
        return ", ".join(parts)

    def to_json(self) -> dict[str, Any]:
        """Plain-data form: meld fates by index and the steps."""
        return {
            "kept": self.melds_with("kept"),
            "extended": self.melds_with("extended"),
            "changed": self.melds_with("changed"),
            "taken_apart": self.melds_with("taken_apart"),
            "new": self.new_melds,
            "origin": list(self.origin),
            "taken": cards_str(self.taken).split(),
            "steps": [self._step_json(s) for s in self.steps],
        }

    def _step_json(self, step: Step) -> dict[str, Any]:
        """A step in the JSON convention: `from_meld` indexes the start table, `to_meld` the new
        one (None: the hand); a swap's cards go from the hand into start meld `swap_meld`, which
        is `to_meld` in the new table (None if it does not stay)."""
        if step.action != "swap":
            return step.to_json()
        index = step.target
        to = next((j for j, i in enumerate(self.origin) if i == index), None)
        return {**step.to_json(), "from_meld": None, "to_meld": to, "swap_meld": index}


_VERBS: tuple[tuple[Fate, str], ...] = (
    ("extended", "extend"),
    ("changed", "rearrange"),
    ("taken_apart", "take apart"),
)
_NEW_FATE: dict[Fate, NewFate] = {
    "kept": "kept",
    "extended": "extended",
    "changed": "changed",
    "taken_apart": "new",
}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _slots(meld: MeldInput | MeldInfo) -> Meld:
    if isinstance(meld, MeldInfo):
        return meld.slots
    return to_slots(meld)


def _kinds(meld: Meld) -> Counter[int]:
    return Counter(c for slot in meld for c in slot.cards())


# ------------------------------------------------------------------------------ assignment
def max_weight_assignment(weights: Sequence[Sequence[int]]) -> list[int | None]:
    """For each row, the column it is matched to (None if unmatched), maximising the total weight.

    Exact (Hungarian algorithm with potentials, O(n^2 m)); rows and columns may differ in number
    and a pair of weight 0 is reported as unmatched. Pure Python: tables hold a few dozen melds.
    """
    rows = len(weights)
    cols = len(weights[0]) if rows else 0
    if rows == 0 or cols == 0:
        return [None] * rows
    transpose = rows > cols
    w = [list(r) for r in zip(*weights, strict=True)] if transpose else [list(r) for r in weights]
    n, m = len(w), len(w[0])
    big = max((x for row in w for x in row), default=0)
    cost = [[big - x for x in row] for row in w]  # minimise cost = maximise weight
    inf = float("inf")
    u = [0.0] * (n + 1)
    v = [0.0] * (m + 1)
    p = [0] * (m + 1)  # p[j]: row matched to column j (1-based, 0 = none)
    way = [0] * (m + 1)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = [inf] * (m + 1)
        used = [False] * (m + 1)
        while True:
            used[j0] = True
            i0 = p[j0]
            delta = inf
            j1 = 0
            row = cost[i0 - 1]
            ui0 = u[i0]
            for j in range(1, m + 1):
                if not used[j]:
                    cur = row[j - 1] - ui0 - v[j]
                    if cur < minv[j]:
                        minv[j] = cur
                        way[j] = j0
                    if minv[j] < delta:
                        delta = minv[j]
                        j1 = j
            for j in range(m + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    match: list[int | None] = [None] * n
    for j in range(1, m + 1):
        if p[j]:
            match[p[j] - 1] = j - 1
    if not transpose:
        return [c if c is not None and w[r][c] > 0 else None for r, c in enumerate(match)]
    result: list[int | None] = [None] * rows
    for c, r in enumerate(match):
        if r is not None and w[c][r] > 0:
            result[r] = c
    return result


def in_start_order(
    old: Sequence[Meld], new: Sequence[Meld]
) -> tuple[tuple[Meld, ...], tuple[int | None, ...]]:
    """`new` laid out as a person reads it after the move, with the start meld each of its melds
    continues (`match_melds`, or None): each meld that continues a start meld at that start
    meld's place, then the new melds in their order. Pass the origins on to `plan_steps` so that
    the steps read the melds alike."""
    origin = match_melds([_kinds(m) for m in old], [_kinds(m) for m in new])
    order = sorted(range(len(new)), key=lambda j: (origin[j] is None, origin[j] or 0, j))
    return tuple(new[j] for j in order), tuple(origin[j] for j in order)


def match_melds(old: Sequence[Counter[int]], new: Sequence[Counter[int]]) -> list[int | None]:
    """For each new meld, the old meld it continues (or None), keeping as many cards as possible.

    Identical melds are paired first (always part of some optimal matching), the rest by an exact
    assignment on shared cards, ties going to old melds left whole.
    """
    origin: list[int | None] = [None] * len(new)
    free_old = list(range(len(old)))
    by_content: dict[tuple[tuple[int, int], ...], list[int]] = {}
    for i in free_old:
        by_content.setdefault(tuple(sorted(old[i].items())), []).append(i)
    free_new: list[int] = []
    for j, meld in enumerate(new):
        same = by_content.get(tuple(sorted(meld.items())))
        if same:
            origin[j] = same.pop(0)
        else:
            free_new.append(j)
    taken = {i for i in origin if i is not None}
    free_old = [i for i in free_old if i not in taken]
    if not free_old or not free_new:
        return origin
    weights = []
    for j in free_new:
        row = []
        for i in free_old:
            shared = sum((new[j] & old[i]).values())
            intact = shared == sum(old[i].values())
            row.append(shared * _CARD_WEIGHT + (_INTACT_BONUS if intact and shared else 0))
        weights.append(row)
    for j, col in zip(free_new, max_weight_assignment(weights), strict=True):
        if col is not None:
            origin[j] = free_old[col]
    return origin


# ------------------------------------------------------------------------------ routing
Place = int | None  # a meld index, or None for the hand


def _route(
    sources: dict[int, list[tuple[Place, int]]], sinks: dict[int, list[tuple[Place, int]]]
) -> dict[tuple[Place, Place], list[int]]:
    """Send every card from a source place to a sink place, reusing (from, to) pairs where possible."""
    edges: dict[tuple[Place, Place], list[int]] = {}
    # Kinds with a single possible pairing first: their edges guide the free choices later.
    order = sorted(sources, key=lambda k: (len(sources[k]) * len(sinks.get(k, [])), k))
    for kind in order:
        src_place = [place for place, _ in sources[kind]]
        src_left = [n for _, n in sources[kind]]
        dst_place = [place for place, _ in sinks.get(kind, [])]
        dst_left = [n for _, n in sinks.get(kind, [])]
        while True:
            best: tuple[int, int, int] | None = None
            for a, s_n in enumerate(src_left):
                for b, t_n in enumerate(dst_left):
                    if not s_n or not t_n:
                        continue
                    reuse = (src_place[a], dst_place[b]) in edges
                    score = (1000 if reuse else 0) + min(s_n, t_n)
                    if best is None or score > best[0]:
                        best = (score, a, b)
            if best is None:
                break
            _, a, b = best
            n = min(src_left[a], dst_left[b])
            edges.setdefault((src_place[a], dst_place[b]), []).extend([kind] * n)
            src_left[a] -= n
            dst_left[b] -= n
    return edges


def plan_steps(
    old: Iterable[MeldInput | MeldInfo],
    new: Iterable[MeldInput | MeldInfo],
    opening_first: bool = False,
    variant: Variant | None = None,
    origin: Sequence[int | None] | None = None,
) -> StepPlan:
    """`_plan_steps`, its melds named with their cards only where a step first mentions them."""
    return _named_once(_plan_steps(old, new, opening_first, variant, origin))


def _plan_steps(
    old: Iterable[MeldInput | MeldInfo],
    new: Iterable[MeldInput | MeldInfo],
    opening_first: bool = False,
    variant: Variant | None = None,
    origin: Sequence[int | None] | None = None,
    openings: int = 0,
) -> StepPlan:
    """Steps that turn table `old` into table `new` (melds as text, slots, kinds or `MeldInfo`).

    Hand cards played are the cards `new` holds beyond `old`; cards `old` holds beyond `new` go
    back to the hand. The result is exact on which melds stay (the most cards kept) and groups
    card movements into as few (from, to) steps as the routing finds. `opening_first` (a player
    who has not opened) puts the hand's new melds first: the opening comes before anything else.
    With the `variant`, a wild that stays in its meld but stands for another card there (a joker
    moving from one end of a run to the other) gets a step of its own, after the steps that take
    cards out of that meld and before those that bring cards in. `origin`, where given, says which
    start meld each new meld continues (as `in_start_order` found it); else `match_melds` finds it.
    The last `openings` melds of `old` are an opening laid first (`plan_with_opening`).
    """
    old_melds = tuple(_slots(m) for m in old)
    new_melds = tuple(_slots(m) for m in new)
    old_kinds = [_kinds(m) for m in old_melds]
    new_kinds = [_kinds(m) for m in new_melds]
    origin = match_melds(old_kinds, new_kinds) if origin is None else list(origin)
    match_of_old: dict[int, int] = {i: j for j, i in enumerate(origin) if i is not None}

    fates: list[Fate] = []
    sources: dict[int, list[tuple[Place, int]]] = {}
    sinks: dict[int, list[tuple[Place, int]]] = {}
    for i, kinds in enumerate(old_kinds):
        j = match_of_old.get(i)
        kept = kinds & new_kinds[j] if j is not None else Counter()
        released = kinds - kept
        if j is None:
            fates.append("taken_apart")
        elif not released:
            fates.append("kept" if kinds == new_kinds[j] else "extended")
        else:
            fates.append("changed")
        for kind, n in released.items():
            sources.setdefault(kind, []).append((i, n))
    for j, kinds in enumerate(new_kinds):
        start = origin[j]
        needed = kinds - old_kinds[start] if start is not None else kinds
        for kind, n in needed.items():
            sinks.setdefault(kind, []).append((j, n))
    total_old: Counter[int] = Counter()
    total_new: Counter[int] = Counter()
    for kinds in old_kinds:
        total_old.update(kinds)
    for kinds in new_kinds:
        total_new.update(kinds)
    played = total_new - total_old
    taken = total_old - total_new
    for kind, n in played.items():
        sources.setdefault(kind, []).append((None, n))
    for kind, n in taken.items():
        sinks.setdefault(kind, []).append((None, n))

    edges = _route(sources, sinks)
    labels = _Labels(old_melds, new_melds, origin, openings)
    steps = [labels.step(src, dst, sorted_cards(cards)) for (src, dst), cards in edges.items()]
    if variant is not None:
        for j, kept_from in enumerate(origin):
            if kept_from is None:
                continue
            kept = old_kinds[kept_from] & new_kinds[j]
            changes = _role_changes(variant, old_melds[kept_from], new_melds[j], kept)
            if changes:
                steps.append(labels.within(kept_from, j, changes))
                fates[kept_from] = "changed"
    # before opening, the new melds the hand lays alone come first (one also needing table cards
    # is put together after them: half of it is no meld)
    from_table = {dst for (src, dst) in edges if src is not None}
    brand_new = {j for j, start in enumerate(origin) if start is None and j not in from_table}
    brand_new = brand_new if opening_first else set()
    steps.sort(
        key=lambda step: (not (step.action == "play" and step.target in brand_new), *_step_order(step))
    )
    for within in [
        s for s in steps if s.source is not None and s.target is not None and origin[s.target] == s.source
    ]:
        _place_within(steps, within)
    return StepPlan(
        old=old_melds,
        new=new_melds,
        origin=tuple(origin),
        fates=tuple(fates),
        played=tuple(sorted_cards(played.elements())),
        taken=tuple(sorted_cards(taken.elements())),
        steps=tuple(steps),
    )


def opening_name(k: int, count: int) -> str:
    """How steps name the `k`-th of `count` opening melds laid before the table is touched (by
    letter: "opening meld 2" would read like the start table's "meld 2")."""
    return "your opening meld" if count == 1 else f"opening meld {chr(ord('A') + k)}"


def plan_with_opening(
    old: Iterable[MeldInput | MeldInfo],
    new: Iterable[MeldInput | MeldInfo],
    opening: Sequence[MeldInput | MeldInfo],
    origin: Sequence[int | None] | None = None,
    variant: Variant | None = None,
) -> StepPlan:
    """Steps for a player who opens and plays on in the same turn (Rhine §1.4) where the new table
    does not keep the `opening` melds whole: an ``open`` step lays each from the hand first,
    before the table may be touched, and the steps after it move their cards on from there.

    The data keeps the start table's convention: an ``open`` step has no `source` nor `target`
    (hand cards, still the hand's as far as the start table goes), and a step that moves cards out
    of an opening meld is a ``play`` from the hand; its text names the opening meld. `origin`, as
    in `plan_steps`, is read against the start table followed by the opening melds."""
    start = tuple(_slots(m) for m in old)
    laid = tuple(_slots(m) for m in opening)
    plan = _plan_steps((*start, *laid), new, False, variant, origin, openings=len(laid))
    n = len(start)
    becomes = {i - n: j for j, i in enumerate(plan.origin) if i is not None and i >= n}
    lays: list[Step] = []
    stays: list[Step] = []
    for k, meld in enumerate(laid):
        name = opening_name(k, len(laid))
        text = f"Lay down {meld_str(meld)} from your hand as {name}"
        if k == len(laid) - 1:
            opens = "this opens" if len(laid) == 1 else f"opening melds A-{chr(ord('A') + k)} open together"
            text += f": {opens}, and the table may be touched after {'it' if len(laid) == 1 else 'them'}"
        if k in becomes:
            j = becomes[k]
            text += f"; it ends as new meld {j + 1}"
            # the cards left in it go into that new meld: the data's hand cards end where they lie
            left = sorted_cards((_kinds(meld) & _kinds(plan.new[j])).elements())
            what = f"Leave {cards_str(left)} in {name}: it is new meld {j + 1}"
            stays.append(Step("play", tuple(left), None, j, what, opening=k))
        lays.append(Step("open", tuple(sorted_cards(_kinds(meld).elements())), None, None, text, opening=k))
    moved = [
        replace(step, source=None, action="play", opening=step.source - n)
        if step.source is not None and step.source >= n
        else step
        for step in plan.steps
    ]
    played: Counter[int] = Counter(plan.played)
    for meld in laid:
        played += _kinds(meld)
    return _named_once(
        StepPlan(
            old=start,
            new=plan.new,
            origin=tuple(None if i is None or i >= n else i for i in plan.origin),
            fates=plan.fates[:n],
            played=tuple(sorted_cards(played.elements())),
            taken=plan.taken,
            steps=(*lays, *moved, *stays),
        )
    )


Role = Meaning | None  # what a card stands for in a meld: None for itself


def _roles(variant: Variant, meld: Meld) -> dict[int, Counter[Role]]:
    """Per card kind in `meld`, what its copies stand for (a group wild: its rank only)."""
    try:
        info = analyze_meld(variant, meld)
    except MeldError:
        return {}
    roles: dict[int, Counter[Role]] = {}
    for slot, wild in zip(info.slots, info.as_wild, strict=True):
        role = slot.meaning if wild else None
        if role is not None and info.kind != "run":
            role = Meaning(role.rank)
        roles.setdefault(slot.card, Counter())[role] += 1
    return roles


def _role_changes(variant: Variant, old: Meld, new: Meld, kept: Counter[int]) -> list[tuple[int, Role, Role]]:
    """(card, what it stood for, what it stands for) for each kept card of a wild kind whose role
    in the meld changed."""
    was, now = _roles(variant, old), _roles(variant, new)
    changes: list[tuple[int, Role, Role]] = []
    for card, n in kept.items():
        if not variant.is_wild(card):
            continue
        before, after = was.get(card, Counter()), now.get(card, Counter())
        moved = n - sum((before & after).values())
        gone = list((before - after).elements())
        came = list((after - before).elements())
        for k in range(min(moved, len(gone), len(came))):
            changes.append((card, gone[k], came[k]))
    return changes


def plan_with_swaps(
    old: Iterable[MeldInput | MeldInfo],
    new: Iterable[MeldInput | MeldInfo],
    swaps: Sequence[Swap],
    opening_first: bool = False,
    joker_swaps: Sequence[JokerSwap] = (),
    opening_parts: Mapping[int, Sequence[Slot]] | None = None,
    committed: Sequence[int] = (),
    variant: Variant | None = None,
    origin: Sequence[int | None] | None = None,
) -> StepPlan:
    """`plan_steps` for a move that starts with diamond swaps: one ``swap`` step each, in order,
    then the steps from the table the swaps leave (the freed diamonds are hand cards by then).
    A diamond freed by a `committed` card must go back on the table this turn, in one move with
    the step that lays it (§6.5), and its step says so.

    Rummy Palace's `joker_swaps` give a ``swap`` step each too, each followed by the step that
    lays its joker (with the hand cards laid beside it); on an opening turn (`opening_first`) the
    opening's melds come first: a new meld a swapped joker is laid off onto later is laid as its
    part in `opening_parts` (by new-meld index; default: the meld without the swapped jokers),
    and the rest of it follows the swap. `variant` and `origin` as in `plan_steps` (`origin` only
    without swaps: it reads `new` against the start table)."""
    if (swaps or joker_swaps) and origin is not None:
        raise ValueError("origin is read against the start table: a move with swaps has no such origin")
    if joker_swaps:
        return _plan_joker_swaps(old, new, joker_swaps, opening_first, opening_parts or {}, variant)
    old_melds = tuple(_slots(m) for m in old)
    middle = list(old_melds)
    steps: list[Step] = []
    for index, diamond, replacement, escort in swaps:
        before = middle[index]
        middle[index] = _swapped(before, diamond, replacement, escort)
        put = (replacement,) if escort is None else (replacement, escort)
        with_escort = "" if escort is None else f" with escort {card_str(escort)}"
        then = (
            "must go back on the table this turn: swap it and lay it in one move"
            if replacement in committed
            else "goes to your hand"
        )
        text = (
            f"Swap {card_str(diamond)} out of meld {index + 1} ({meld_str(before)}) for "
            f"{card_str(replacement)}{with_escort} from your hand; {card_str(diamond)} {then}"
        )
        steps.append(Step("swap", put, None, index, text, wild=diamond))
    plan = _plan_steps(middle, new, opening_first, variant, origin)
    rest = list(plan.steps)
    if opening_first and opening_parts:
        rest = _opening_parts_first(plan, rest, opening_parts)
    ordered: list[Step] = []
    for step, (_, diamond, replacement, _) in zip(steps, swaps, strict=True):
        ordered.append(step)
        if replacement in committed:  # the freed diamond is laid in the same move (§6.5)
            lay = next((k for k, s in enumerate(rest) if s.action == "play" and diamond in s.cards), None)
            if lay is not None:
                ordered.append(rest.pop(lay))
    # a diamond swapped out and neither laid again nor swapped into another meld stays in the
    # hand: a table card taken back
    put_back = Counter(plan.played) + Counter(replacement for _, _, replacement, _ in swaps)
    kept = Counter(diamond for _, diamond, _, _ in swaps) - put_back
    taken = tuple(sorted_cards((Counter(plan.taken) + kept).elements()))
    plan = _swaps_change(plan, [index for index, _, _, _ in swaps])
    return _named_once(replace(plan, old=old_melds, steps=(*ordered, *rest), taken=taken))


def _swaps_change(plan: StepPlan, melds: Iterable[int]) -> StepPlan:
    """`plan` with the old melds a swap changed (a card put in a wild's place) counted as changed,
    not kept or extended: the plan was read from the table after the swaps."""
    fates = list(plan.fates)
    for i in melds:
        if fates[i] in ("kept", "extended"):
            fates[i] = "changed"
    return replace(plan, fates=tuple(fates))


def _opening_parts_first(
    plan: StepPlan, steps: list[Step], parts: Mapping[int, Sequence[Slot]]
) -> list[Step]:
    """`steps` with the hand's step into each new meld of `parts` first: split in two where the
    part (the melds that open) is less than the meld, the rest of the hand's cards added where
    the step stood."""
    labels = _Labels(plan.old, plan.new, plan.origin)
    first: list[Step] = []
    out: list[Step] = []
    for step in steps:
        part = parts.get(step.target) if step.target is not None else None
        now = _kinds(tuple(part)) if part else Counter()
        if not part or step.action != "play" or step.source is not None or not now <= Counter(step.cards):
            out.append(step)
        elif now == Counter(step.cards):  # the whole new meld opens
            first.append(step)
        else:
            lay, add = _split_lay(labels, step, now, meld_str(part))
            first.append(lay)
            out.append(add)
    return [*first, *out]


def _split_lay(labels: _Labels, step: Step, now: Counter[int], shown: str) -> tuple[Step, Step]:
    """A step laying hand cards into a new meld as two: the cards `now` (written `shown`) laid
    first as that meld, the rest added to it later."""
    target = step.target
    assert target is not None
    number = labels.new_number.get(target)
    where = f"new meld {number}" if number is not None else "a new meld"
    lay = Step(
        "play",
        tuple(sorted_cards(now.elements())),
        None,
        target,
        f"Lay down {shown} from your hand as {where}",
    )
    later = sorted_cards((Counter(step.cards) - now).elements())
    text = f"Add {cards_str(later)} from your hand to {labels.new_label(target)}"
    return lay, Step("play", tuple(later), None, target, text)


def _plan_joker_swaps(
    old: Iterable[MeldInput | MeldInfo],
    new: Iterable[MeldInput | MeldInfo],
    swaps: Sequence[JokerSwap],
    opening_first: bool,
    parts: Mapping[int, Sequence[Slot]],
    variant: Variant | None,
) -> StepPlan:
    """`plan_with_swaps` for Rummy Palace joker swaps (see there)."""
    old_melds = tuple(_slots(m) for m in old)
    middle = list(old_melds)
    before: list[Meld] = []
    for index, slot, replacement, _, _, _ in swaps:
        before.append(middle[index])
        middle[index] = _joker_out(middle[index], slot, replacement)
    plan = _plan_steps(middle, new, opening_first, variant)
    labels = _Labels(middle, plan.new, plan.origin)
    last = {to: n for n, (_, _, _, to, _, _) in enumerate(swaps)}  # the last swap into each meld
    first_lay_off: dict[int, bool] = {}  # a new meld whose first joker is laid off onto it: the opening's
    for _, _, _, to, _, lay_off in swaps:
        first_lay_off.setdefault(to, lay_off)
    onto_opening = {to for to, lay_off in first_lay_off.items() if lay_off and plan.origin[to] is None}
    first: list[Step] = []
    after: list[list[Step]] = [[] for _ in swaps]
    rest: list[Step] = []
    for step in plan.steps:
        target = step.target
        if step.action != "play" or target not in last:
            opening = (
                opening_first and step.action == "play" and target is not None and plan.origin[target] is None
            )
            (first if opening else rest).append(step)
        elif target in onto_opening:
            # its part is laid in the opening; the swapped jokers (and what needs them) follow
            jokers = Counter({JOKER: sum(1 for _, _, _, to, _, _ in swaps if to == target)})
            part = tuple(parts.get(target, ()))
            now = _kinds(part) if part else Counter(step.cards) - jokers
            shown = meld_str(part) if part else cards_str(sorted_cards(now.elements()))
            lay, add = _split_lay(labels, step, now, shown)
            first.append(lay)
            after[last[target]].append(add)
        else:
            # every swap into this meld but the last lays its own joker at once; the last lays
            # the rest (its joker and the hand cards beside it). A swap whose joker starts a new
            # meld lays it with the hand cards that make it a meld, the later jokers aside
            into = [n for n, swap in enumerate(swaps) if swap[3] == target]
            rest_cards = Counter(step.cards)
            laid = None
            if len(into) > 1 and not swaps[into[0]][5] and variant is not None:
                laid = _laid_with_swaps(variant, plan.new[target], [swaps[n][4] for n in into])
            for i, n in enumerate(into[:-1]):
                if not rest_cards[JOKER]:
                    break
                placed = swaps[n][4]
                if laid is not None:
                    # the stretch this joker makes a meld with, less what is down already
                    cards = _kinds(laid[i]) - (_kinds(laid[i - 1]) if i else Counter())
                    hand = cards - Counter({JOKER: cards[JOKER]})
                    beside = f" and {cards_str(sorted_cards(hand.elements()))} from your hand" if hand else ""
                    if i == 0:
                        text = (
                            f"Lay down {meld_str(laid[0])} (the joker{beside}) "
                            f"as new meld {labels.new_number[target]}"
                        )
                    else:
                        text = f"Add {placed} (the joker){beside} to {labels.new_label(target)}"
                    rest_cards -= cards
                    after[n].append(Step("play", tuple(sorted_cards(cards.elements())), None, target, text))
                    continue
                rest_cards[JOKER] -= 1
                text = f"Add {placed} (the joker) to {labels.new_label(target)}"
                after[n].append(Step("play", (JOKER,), None, target, text))
            if rest_cards[JOKER]:  # the last swapped joker, with any hand cards laid beside it
                hand = rest_cards - Counter({JOKER: 1})
                beside = f" and {cards_str(sorted_cards(hand.elements()))} from your hand" if hand else ""
                text = f"Add {swaps[last[target]][4]} (the joker){beside} to {labels.new_label(target)}"
                step = Step("play", tuple(sorted_cards(rest_cards.elements())), None, target, text)
            after[last[target]].append(step)
    steps: list[Step] = list(first)
    for n, (index, _, replacement, to, placed, _) in enumerate(swaps):
        text = (
            f"Swap {card_str(JOKER)} out of meld {index + 1} ({meld_str(before[n])}) for "
            f"{card_str(replacement)} from your hand; the joker goes into {labels.new_label(to)} as {placed}"
        )
        steps.append(Step("swap", (replacement,), None, index, text, wild=JOKER))
        steps.extend(after[n])
    plan = _swaps_change(plan, [index for index, _, _, _, _, _ in swaps])
    return _named_once(replace(plan, old=old_melds, steps=(*steps, *rest)))


def _laid_with_swaps(variant: Variant, meld: Meld, jokers: Sequence[Slot]) -> list[Meld] | None:
    """For a new meld that swapped `jokers` build in turn, the meld on the table once each is
    laid (growing), as the solver orders the swaps (`palace_swaps.layable_piece`: each lay-off
    leaves a meld); None when some joker has no such piece."""
    from rummyai.solvers.palace_swaps import layable_piece

    try:
        info = analyze_meld(variant, meld)
    except MeldError:
        return None
    places: list[int] = []
    for joker in jokers:  # each joker's slot (a group's alike jokers take theirs in turn)
        at = next((k for k, s in enumerate(info.slots) if s == joker and k not in places), None)
        if at is None:
            return None
        places.append(at)
    laid: set[int] = set()
    out: list[Meld] = []
    for t in range(len(jokers)):
        piece = layable_piece(variant, info, set(places[: t + 1]) | laid, set(places[t + 1 :]))
        if piece is None:
            return None
        laid |= set(piece)
        out.append(tuple(info.slots[k] for k in sorted(laid)))
    return out


def _joker_out(meld: Meld, slot: int, replacement: int) -> Meld:
    """`meld` with the joker standing for `replacement` (in `slot` if it does) replaced by it: in a
    run the joker meaning that card, in a group any joker (any missing suit will do, §4.5)."""
    naturals = [(k, s.card) for k, s in enumerate(meld) if s.card != JOKER]
    group = len({rank_of(card) for _, card in naturals}) == 1  # a run's ranks differ

    def fits(k: int) -> bool:
        """Whether slot `k` holds a joker standing for `replacement`: its written meaning, else
        the meaning its place gives (the group's rank; in a run, the next rank on from the first
        natural, wrapping past the king where the variant lets runs wrap)."""
        meaning = meld[k].meaning
        if meld[k].card != JOKER or not naturals:
            return False
        first, card = naturals[0]
        if group:
            return (rank_of(card) if meaning is None else meaning.rank) == rank_of(replacement)
        if meaning is not None and meaning.suit is not None:
            return meaning.card() == replacement
        return make_card((rank_of(card) - 1 + k - first) % 13 + 1, suit_of(card)) == replacement

    order = [slot, *range(len(meld))] if 0 <= slot < len(meld) else list(range(len(meld)))
    for k in order:
        if fits(k):
            return (*meld[:k], Slot(replacement), *meld[k + 1 :])
    raise ValueError(f"no joker for {card_str(replacement)} in {meld_str(meld)} to swap")


def _swapped(meld: Meld, diamond: int, replacement: int, escort: int | None) -> Meld:
    """`meld` with `diamond` (a core card or an escort) replaced by `replacement`."""
    for i, slot in enumerate(meld):
        if slot.card == diamond:
            new = Slot(replacement, escort=Slot(escort) if escort is not None else slot.escort)
            return (*meld[:i], new, *meld[i + 1 :])
    for i, slot in enumerate(meld):
        if slot.escort is not None and slot.escort.card == diamond:
            return (*meld[:i], Slot(slot.card, slot.meaning, Slot(replacement)), *meld[i + 1 :])
    raise ValueError(f"no {card_str(diamond)} in {meld_str(meld)} to swap")


# a meld named in a step's text: "meld 2 (5H 6H 7H)", "new meld 4 (7S 7D 7C)", "new meld 4",
# "your opening meld (KH KH KC)" (`opening_name`)
_MELD_NAME = re.compile(r"\b((?:new )?meld \d+|your opening meld|opening meld [A-Z]\b)( \([^()]*\))?")


def _named_once(plan: StepPlan) -> StepPlan:
    """`plan` with each meld's cards written only where the steps, in order, first name it: a
    later step finds it by its name, and the cards written there could be ones an earlier step
    has moved since."""
    named: set[str] = set()

    def shorten(found: re.Match[str]) -> str:
        if found.group(1) in named:
            return found.group(1)
        named.add(found.group(1))
        return found.group(0)

    steps = tuple(replace(step, text=_MELD_NAME.sub(shorten, step.text)) for step in plan.steps)
    return replace(plan, steps=steps)


def _place_within(steps: list[Step], within: Step) -> None:
    """Move the step of wilds changing role inside a meld after the steps that take cards out of
    that meld (the role it takes may be theirs) and before the first that brings cards in (which
    may need the place it leaves)."""
    at = steps.index(within)
    del steps[at]
    out = [k for k, s in enumerate(steps) if s.source == within.source and s.action in ("move", "take")]
    into = [k for k, s in enumerate(steps) if s.target == within.target]
    if out:
        at = max(at, out[-1] + 1)
    if into:
        at = min(at, into[0])
    steps.insert(at, within)


def _step_order(step: Step) -> tuple[int, int, int]:
    rank = {"swap": -1, "move": 0, "take": 1, "play": 2}[step.action]
    source = -1 if step.source is None else step.source
    target = 10_000 if step.target is None else step.target
    return (rank, source if step.action != "play" else target, target)


def as_laid(cards: Sequence[int], meld: Meld) -> str:
    """`cards` as a step writes them: a black court card and its escort as `meld` lays them
    (``KC/2H``, Black Heart §6.2) when both are among `cards`, the others as plain cards."""
    left = Counter(cards)
    shown: list[str] = []
    for slot in meld:
        if slot.escort is not None and not Counter(slot.cards()) - left:
            left -= Counter(slot.cards())
            shown.append(str(slot))
    if not shown:
        return cards_str(cards)
    return " ".join([*shown, *cards_str(sorted_cards(left.elements())).split()])


class _Labels:
    """How steps name melds: old melds by their number and cards, new melds by their cards; the
    last `openings` old melds are an opening laid first (`plan_with_opening`), named as such."""

    def __init__(
        self, old: Sequence[Meld], new: Sequence[Meld], origin: Sequence[int | None], openings: int = 0
    ) -> None:
        self.old = old
        self.new = new
        self.origin = origin
        self.start_count = len(old) - openings
        # "meld N" is the start table's Nth meld, "new meld N" the new table's Nth (JSON index + 1)
        self.new_number = {j: j + 1 for j, i in enumerate(origin) if i is None}

    def old_label(self, i: int) -> str:
        if i >= self.start_count:
            return f"{opening_name(i - self.start_count, len(self.old) - self.start_count)} ({meld_str(self.old[i])})"
        return f"meld {i + 1} ({meld_str(self.old[i])})"

    def new_label(self, j: int) -> str:
        i = self.origin[j]
        if i is not None:
            return self.old_label(i)
        return f"new meld {self.new_number[j]} ({meld_str(self.new[j])})"

    def within(self, i: int, j: int, changes: Sequence[tuple[int, Role, Role]]) -> Step:
        """Wilds that stay in old meld `i` (new meld `j`) but stand for other cards there."""

        def role(meaning: Role) -> str:
            return "itself" if meaning is None else str(meaning)

        moves = ", ".join(f"{card_str(card)} from {role(was)} to {role(now)}" for card, was, now in changes)
        cards = tuple(sorted_cards(card for card, _, _ in changes))
        return Step("move", cards, i, j, f"Move {moves} within {self.old_label(i)}")

    def step(self, source: Place, target: Place, cards: list[int]) -> Step:
        text_cards = cards_str(cards) if target is None else as_laid(cards, self.new[target])
        if source is None and target is not None:
            whole = self.origin[target] is None and len(cards) == sum(
                len(s.cards()) for s in self.new[target]
            )
            if whole:
                text = f"Lay down {meld_str(self.new[target])} from your hand as new meld {self.new_number[target]}"
            elif self.origin[target] is None:
                text = f"Put {text_cards} from your hand into {self.new_label(target)}"
            else:
                text = f"Add {text_cards} from your hand to {self.new_label(target)}"
            return Step("play", tuple(cards), None, target, text)
        if source is not None and target is None:
            text = f"Take {text_cards} from {self.old_label(source)} into your hand"
            return Step("take", tuple(cards), source, None, text)
        assert source is not None and target is not None
        text = f"Move {text_cards} from {self.old_label(source)} to {self.new_label(target)}"
        return Step("move", tuple(cards), source, target, text)
