"""The judge's verdict does not depend on the order anything is written in (§7.1: identical copies
are indistinguishable, so a turn is legal or not on card kinds alone), nor does the rule it names
for an illegal play.

Random positions from a narrow band of cards (so copies repeat), new melds laid from the hand and
random rearrangements, some of them broken on purpose; each is judged as written and with the
new table's melds, the hand's cards and the start table's melds shuffled.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rummyai.cards import JOKER, card_str, make_card
from rummyai.engine import judge_play
from rummyai.variants import Variant, get_variant

from .random_tables import rearrange, valid_slots

SETTINGS = [
    ("rhine", ()),
    ("rhine", ("rhine.points_qualify",)),
    ("rhine", ("extra_packs=1",)),
    ("rhine", ("rhine.wild_twos",)),
    ("rummy-tiles", ()),
    ("rummy-board", ()),
    ("rummikub", ()),
    ("rummikub", ("official_jokers",)),
]


def _deal(rng: random.Random, variant: Variant) -> tuple[list[list[int]], list[int]]:
    """A start table of valid melds and a hand, every card from a few ranks of a few suits."""
    low = rng.randint(1, 8)
    suits = rng.sample(range(4), rng.randint(2, 4))
    pool = [make_card(r, s) for r in range(low, low + 5) for s in suits for _ in range(variant.decks)]
    pool += [JOKER] * rng.randint(0, variant.deck.count(JOKER))
    rng.shuffle(pool)
    table: list[list[int]] = []
    for _ in range(100):
        if len(table) >= 4 or len(pool) < 8:
            break
        cards = pool[: rng.randint(3, 5)]
        if valid_slots(variant, cards) is not None:
            table.append(cards)
            del pool[: len(cards)]
        else:
            rng.shuffle(pool)
    return table, pool[: rng.randint(4, 12)]


def _hand_melds(rng: random.Random, variant: Variant, hand: list[int]) -> tuple[list[list[int]], list[int]]:
    """Some valid melds laid from the hand, and the cards left."""
    rest, melds = list(hand), []
    for _ in range(30):
        if len(rest) < 3:
            break
        pick = rng.sample(range(len(rest)), rng.randint(3, min(5, len(rest))))
        cards = [rest[i] for i in pick]
        if valid_slots(variant, cards) is not None:
            melds.append(cards)
            rest = [c for i, c in enumerate(rest) if i not in pick]
    return melds, rest


def _text(melds: list[list[int]]) -> list[str]:
    return [" ".join(card_str(c) for c in m) for m in melds]


def _kinds(tokens: list[str]) -> list[str]:
    """A written meld's cards without the wilds' meanings."""
    return [t.split("=")[0] for t in tokens]


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**9), setting=st.sampled_from(SETTINGS), opened=st.booleans())
def test_the_verdict_does_not_depend_on_the_order_of_melds_or_cards(
    seed: int, setting: tuple[str, tuple[str, ...]], opened: bool
) -> None:
    variant = get_variant(setting[0], list(setting[1]))
    rng = random.Random(seed)
    table, hand = _deal(rng, variant)
    laid, rest = _hand_melds(rng, variant, hand)
    new = rearrange(rng, table + laid, rest, variant)
    if rng.random() < 0.2 and len(new) >= 2:  # a card moved without asking whether the melds stay valid
        a, b = rng.sample(range(len(new)), 2)
        new[b].append(new[a].pop())
        new = [m for m in new if m]
    hand_text, table_text, new_text = [card_str(c) for c in hand], _text(table), _text(new)
    verdict = judge_play(variant, hand_text, table_text, new_text, opened=opened)
    if verdict.legal:  # the judged new table comes back in the order given
        assert [sorted(_kinds(m)) for m in verdict.new_table] == [sorted(_kinds(m.split())) for m in new_text]
    for _ in range(2):
        order = rng.sample(range(len(new_text)), len(new_text))
        shuffled = judge_play(
            variant,
            rng.sample(hand_text, len(hand_text)),
            rng.sample(table_text, len(table_text)),
            [new_text[k] for k in order],
            opened=opened,
        )
        # the same verdict; for an illegal play the same rule and reason; for a legal one the same
        # cards played, qualifying melds and judged melds
        assert (shuffled.legal, shuffled.rule, shuffled.reason, shuffled.played, shuffled.opening) == (
            verdict.legal,
            verdict.rule,
            verdict.reason,
            verdict.played,
            verdict.opening,
        ), (setting, opened, hand_text, table_text, new_text, order)
        assert (
            shuffled.new_table == [verdict.new_table[k] for k in order]
            if verdict.legal
            else not shuffled.new_table
        )


def test_an_illegal_play_names_the_same_rule_in_every_order() -> None:
    # the joker meld 3S 4S JK=5S 6S is split and its joker changes meaning: T3 and T4 both refuse
    # it; which one the judge names may not depend on the order of the new melds
    new = ["4S 6S JK", "3S JK 4S"]
    hand = "5C JK 3D 4S 4C 7D 5H"
    verdicts = {
        (v.rule, v.reason)
        for v in (judge_play("rummy-tiles", hand, ["4S 6S JK 3S"], o) for o in (new, new[::-1]))
    }
    assert len(verdicts) == 1, verdicts


def test_the_qualifying_melds_found_do_not_depend_on_the_order_of_the_new_melds() -> None:
    # the hand's 8H 9H TH may be read into either meld that holds them: 8H 9H TH JH or 7H 8H 9H TH
    # qualifies, and the judge names the same one in every order
    hand = "9H TH 8H JH 7D 9D 7H TD JD"
    new = ["8H TH 9H 7H", "8D 9D 7D", "9H TH 8H JH"]
    variant = get_variant("rhine", ["rhine.points_qualify"])
    openings = [
        judge_play(variant, hand, ["8H TH 9H", "8D 9D 7D"], o, opened=False).opening for o in (new, new[::-1])
    ]
    assert openings[0] and openings[0] == openings[1], openings
