"""Rhine §1.4: a player who has not qualified qualifies with melds from the hand, then plays on.

The engine form of such a PLAY is (qualifying melds, final table). When a move names no
qualifying melds, the checks look for them: first new melds made wholly of hand cards
(`tile_rules.check_play`), then, because a qualifying meld may be extended, merged or split
later in the same turn, any qualifying set made of the hand cards played (`search_qualifying`).
Both the engine's move check (`check_play_qualifying`) and the text judge use this search.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from itertools import combinations, islice, product

from rummyai.cards import Meaning, Slot, sort_key
from rummyai.engine.moves import Violation
from rummyai.engine.state import TableMeld
from rummyai.engine.tile_moves import Candidate, candidate_melds, candidate_value, opening_combos, to_meld
from rummyai.engine.tile_rules import PlayCheck, check_play, sections
from rummyai.errors import MeldError
from rummyai.melds import analyze_meld, opening_value
from rummyai.variants import Variant

MAX_QUALIFYING_TRIES = 400
MAX_PART_CHOICES = 16  # ways to pick a meld's hand copies where it holds more than the hand played


def check_play_qualifying(
    variant: Variant,
    start: Sequence[TableMeld],
    hand: Sequence[int],
    final: Sequence[TableMeld],
    opened: bool,
    opening: Sequence[TableMeld] = (),
) -> PlayCheck:
    """`check_play`, and for a player who has not qualified and named no qualifying melds, the
    search for qualifying melds inside the played hand cards (§1.4)."""
    check = check_play(variant, start, hand, final, opened, opening)
    violation = check.violation
    if violation is None or opened or opening or not qualifies_inside_turn(variant):
        return check
    if violation.rule in before_opening(variant):
        return check
    found = search_qualifying(variant, tuple(start), list(hand), [tuple(final)], violation)
    return found if found.violation is None else check


def qualifies_inside_turn(variant: Variant) -> bool:
    """Whether a player qualifies and then plays on under the manipulation rules that turn (§1.4)."""
    return bool(variant.manipulation) and not variant.opening_turn_exclusive


def search_qualifying(
    variant: Variant,
    start: tuple[TableMeld, ...],
    hand: list[int],
    layouts: list[tuple[TableMeld, ...]],
    default: Violation,
) -> PlayCheck:
    """Rhine §1.4 engine form: SOME qualifying melds from the played hand cards, then R1-R5.

    The qualifying melds need not survive as melds of the new table: once on the table they may
    be extended, merged or split in the same turn. `check_play` alone only tries new melds made
    wholly of hand cards, so this tries smaller qualifying melds. Under the basic rule a 3-card
    natural meld is enough (any larger one holds one, and a smaller start meld constrains R5
    less); under the 30-point rule, hand-card parts of the new melds and hand melds are combined.
    """
    start_ids = {i for m in start for i in m.ids}
    first: Violation | None = None
    tries = 0
    # only rules read on card kinds and counts are hopeless: the joker rules are read on the
    # canonical copies, which qualifying melds change (they are start melds for R1-R5b)
    hopeless = before_opening(variant)
    for new in layouts:
        plain = check_play(variant, start, hand, new, True).violation
        if plain is not None and plain.rule in hopeless:
            continue  # no choice of qualifying melds makes these melds valid: skip this layout
        placed = {i for m in new for i in m.ids} - start_ids
        played = [i for i in hand if i in placed]
        for opening in _qualifying_sets(variant, played, new):
            tries += 1
            if tries > MAX_QUALIFYING_TRIES:
                break
            check = check_play(variant, start, hand, new, False, opening)
            if check.violation is None:
                return check
            first = first or check.violation
    if _has_hand_meld(start_ids, hand, layouts[0]):
        # the plain search judged a new meld of hand cards as the qualifying play: its verdict
        # names the problem a player sees ("worth 27", "no wild"), so it stands
        return PlayCheck(default)
    return PlayCheck(first or default)


def before_opening(variant: Variant) -> tuple[str, ...]:
    """Rules read on card kinds and counts alone, which no choice of qualifying melds changes (a
    play failing any other rule, even the joker rules, may pass with other qualifying melds:
    they are start melds for the canonical copies)."""
    sec = sections(variant)
    return (sec.conservation, sec.validity, sec.cap)


def _has_hand_meld(start_ids: set[int], hand: list[int], new: tuple[TableMeld, ...]) -> bool:
    """Whether some new meld is made wholly of hand cards."""
    mine = set(hand) - start_ids
    return any(set(m.ids) <= mine for m in new)


def _qualifying_sets(
    variant: Variant, played: list[int], new: tuple[TableMeld, ...]
) -> Iterator[tuple[TableMeld, ...]]:
    """Qualifying plays (§1.4, §1.7 variation 1) made of the played hand cards."""
    deck = variant.deck
    where = {i: k for k, m in enumerate(new) for i in m.ids}
    if variant.opening == "natural_meld":
        naturals = [i for i in played if not variant.is_wild(deck[i])]
        seen: set[tuple[tuple[int, int], ...]] = set()
        for trio in combinations(naturals, variant.opening_min_naturals):
            # copies of one card in one new meld are interchangeable for R1-R5
            key = tuple(sorted((deck[i], where[i]) for i in trio))
            if key in seen:
                continue
            seen.add(key)
            meld = TableMeld(tuple(sorted(trio, key=lambda i: sort_key(deck[i]))), (None,) * len(trio))
            try:
                analyze_meld(variant, meld.slots(deck))
            except MeldError:
                continue
            yield (meld,)
        return
    hand_melds = candidate_melds(variant, played)
    cands = _hand_parts(variant, played, new) + hand_melds + _stand_ins(variant, played, hand_melds)
    unique = list({(c.cards, c.meanings): c for c in cands}.values())  # first of each, in order
    for combo in opening_combos(variant, played, unique):
        pools: dict[int, list[int]] = defaultdict(list)
        for i in reversed(played):
            pools[deck[i]].append(i)
        yield tuple(to_meld(c, pools) for c in combo)


def _stand_ins(variant: Variant, played: list[int], melds: list[Candidate]) -> list[Candidate]:
    """Runs of the hand with one more wild standing for a natural the run holds, the natural
    left for another qualifying meld (``3S 4S JK=5S`` beside ``5S 6S 7S``): a qualifying meld's
    wild may mean what it never means on the final table, once released in the same turn.
    (`candidate_melds` puts wilds only where the hand lacks the card, and leaves naturals out
    of groups already.)"""
    deck = variant.deck
    wilds = [deck[i] for i in played if variant.is_wild(deck[i])]
    if not wilds:
        return []
    wild_kinds = sorted(set(wilds))
    cap = len(wilds) if variant.max_wilds_per_meld is None else min(len(wilds), variant.max_wilds_per_meld)
    out: list[Candidate] = []
    for meld in melds:
        if meld.wilds >= cap:
            continue
        try:
            info = analyze_meld(
                variant, tuple(Slot(c, m) for c, m in zip(meld.cards, meld.meanings, strict=True))
            )
        except MeldError:
            continue
        if info.kind != "run" or info.suit is None:
            continue
        for k, meaning in enumerate(meld.meanings):
            if meaning is not None:
                continue
            stands_for = Meaning(info.positions[k] if info.positions[k] <= 13 else 1, info.suit)
            for wild in wild_kinds:
                cards = (*meld.cards[:k], wild, *meld.cards[k + 1 :])
                meanings = (*meld.meanings[:k], stands_for, *meld.meanings[k + 1 :])
                value = candidate_value(variant, cards, meanings)
                if value is not None:
                    out.append(Candidate(cards, meanings, meld.wilds + 1, value))
    return out


def _hand_parts(variant: Variant, played: list[int], new: tuple[TableMeld, ...]) -> list[Candidate]:
    """Each new meld's cards that the played hand cards can supply, where they make a meld by
    themselves (the qualifying meld the player laid first and then extended with table cards,
    or the whole meld).

    Read on card kinds, not on which copy the new table's ids name (§7.1): a kind the hand holds
    may be the hand's copy in any meld that holds it. Where a meld holds more copies of a kind
    than the hand played (two jokers meaning different cards), each choice of slots is a part.
    Sorted by value, then kinds and meanings, so that the order the melds are written in does
    not decide which qualifying sets are tried first."""
    deck = variant.deck
    have = Counter(deck[i] for i in played)
    found: dict[tuple[tuple[int, ...], tuple[Meaning | None, ...]], Candidate] = {}
    for meld in new:
        slots = meld.slots(deck)
        by_kind: dict[int, list[int]] = defaultdict(list)
        for k, slot in enumerate(slots):
            if have[slot.card]:
                by_kind[slot.card].append(k)
        choices = [combinations(where, min(len(where), have[kind])) for kind, where in by_kind.items()]
        for picks in islice(product(*choices), MAX_PART_CHOICES):
            keep = sorted(k for pick in picks for k in pick)
            if len(keep) < variant.min_meld:
                continue
            part = tuple(slots[k] for k in keep)
            key = (tuple(s.card for s in part), tuple(s.meaning for s in part))
            if key in found:
                continue
            try:
                info = analyze_meld(variant, part)
            except MeldError:
                continue
            found[key] = Candidate(key[0], key[1], sum(info.as_wild), opening_value(variant, info))
    return sorted(found.values(), key=lambda c: (-c.value, c.cards, [str(m or "") for m in c.meanings]))
