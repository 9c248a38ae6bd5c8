"""Which hand cards could be played at all: a cheap bound that settles hopeless positions.

A hand card that fits no meld the available cards (and jokers) could form is never played.
When no hand card is left after removing such cards to a fixed point, the empty play is
optimal and the CP-SAT model need not be solved (about 0.05 ms instead of 0.5-2.5 ms).
"""

from __future__ import annotations

from collections.abc import Sequence

from rummyai.cards import JOKER


def playable(templates: Sequence[Sequence[int]], hand: Sequence[int], table: Sequence[int]) -> list[int]:
    """Hand counts of the cards that could be played: each lies in some meld template whose other
    cards are available (table plus playable hand) or stood in for by the available jokers.

    Removing a card can make other templates impossible, so this repeats to a fixed point.
    """
    play = list(hand)
    while True:
        avail = [t + p for t, p in zip(table, play, strict=True)]
        jokers = avail[JOKER]
        fits = [False] * 53
        any_meld = False
        for cards in templates:
            missing = 0
            for c in cards:
                if avail[c] == 0:
                    missing += 1
            if missing <= jokers and missing < len(cards):
                any_meld = True
                for c in cards:
                    fits[c] = True
        new = [p if fits[c] else 0 for c, p in enumerate(play[:JOKER])] + [play[JOKER] if any_meld else 0]
        if new == play:
            return play
        play = new
