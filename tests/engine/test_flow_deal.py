"""The deal of every variant at every allowed player count (docs/rules §1.1, §2.1, §3.1, §4.1,
§5.1, §6.1, §8.1): cards per player, the up-card of the discard family, the stock holding the
rest, the seat left of the dealer starting, and the seeded first dealer."""

from __future__ import annotations

from typing import Any

import pytest

from rummyai.engine import new_match
from rummyai.variants import get_variant

# (variant, options, hand size, players allowed, up-card)
DEALS = [
    ("rhine", None, 10, range(2, 7), False),
    ("rhine", {"extra_packs": 1}, 10, range(2, 11), False),
    ("rummy-tiles", None, 14, range(2, 5), False),
    ("rummy-board", None, 18, range(2, 5), False),
    ("rummikub", None, 14, range(2, 5), False),
    ("rummy-palace", None, 13, range(2, 7), True),
    ("standard", None, 10, range(2, 5), True),
    ("standard", ["decks=2"], 10, range(5, 9), True),
    ("black-heart", None, 10, range(2, 7), True),
]
DECK_SIZES = {
    ("rhine", None): 108,
    ("rhine", "extra"): 162,
    ("rummy-tiles", None): 106,
    ("rummy-board", None): 106,
    ("rummikub", None): 106,
    ("rummy-palace", None): 110,
    ("standard", None): 52,
    ("standard", "decks"): 104,
    ("black-heart", None): 75,
}


def _deck_key(variant: str, options: object) -> tuple[str, str | None]:
    if options is None:
        return (variant, None)
    return (variant, "extra" if variant == "rhine" else "decks")


@pytest.mark.parametrize(("variant", "options", "size", "players", "upcard"), DEALS)
def test_deal_at_every_player_count(
    variant: str, options: Any, size: int, players: range, upcard: bool
) -> None:
    total = DECK_SIZES[_deck_key(variant, options)]
    assert len(get_variant(variant, options).deck) == total
    for n in players:
        state = new_match(variant, n, seed=n, options=options)
        rs = state.round
        assert [len(hand) for hand in rs.hands] == [size] * n
        assert len(rs.discard) == (1 if upcard else 0)
        assert len(rs.stock) == total - n * size - len(rs.discard)
        every = [i for hand in rs.hands for i in hand] + list(rs.stock) + list(rs.discard)
        assert sorted(every) == list(range(total))  # each physical card exactly once
        assert rs.table == () and rs.turn == (rs.dealer + 1) % n
        assert state.scores == (0,) * n and state.round_index == 0


@pytest.mark.parametrize(
    "variant", ["rhine", "rummy-tiles", "rummy-board", "rummikub", "rummy-palace", "standard"]
)
def test_first_dealer_is_seeded_and_varies(variant: str) -> None:
    dealers = [new_match(variant, 4, seed=s).round.dealer for s in range(24)]
    assert dealers == [new_match(variant, 4, seed=s).round.dealer for s in range(24)]
    assert len(set(dealers)) == 4  # every seat can deal (and so start) the first round
