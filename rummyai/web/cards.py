"""Cards of engine states and moves as text: physical ids to tokens, melds, and a move in words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rummyai.cards import card_str, cards_str, meld_str
from rummyai.engine.discard_moves import LayOff, MeldCards, Opening
from rummyai.engine.moves import Draw, Move, Play
from rummyai.engine.replay import move_to_json
from rummyai.engine.state import ROUND_END_WORDS, GameState, RoundResult, TableMeld

_CARD_KEYS = ("card", "joker", "replacement", "diamond", "escort")


def meld_cards(meld: dict[str, Any] | list[Any]) -> list[str]:
    """Tokens of a meld as a view lists it: ``{"cards": [...]}`` (tile games), ``{"text": "..."}``
    (draw-and-discard games, wilds written with what they stand for) or a list of tokens."""
    if isinstance(meld, dict):
        if "cards" in meld:
            return [str(c) for c in meld["cards"]]
        return str(meld.get("text", "")).split()
    return [str(c) for c in meld]


def table_ids(state: GameState) -> set[int]:
    """Physical ids of every card on the table."""
    return {i for meld in state.round.table for i in meld.all_ids()}


def describe_move(state: GameState, move: Move) -> str:
    """A move in words, its cards as tokens: "Draw", "Play JK into 5H 6H JK=7H", "Discard KS" ..."""
    deck = state.variant.deck
    if isinstance(move, Draw):
        return "Draw"
    if isinstance(move, Play):
        before = table_ids(state)
        new = [i for meld in move.table for i in meld.all_ids() if i not in before]
        # where they go: plays of the same cards differ in the melds they make
        made = [m for m in move.table if any(i not in before for i in m.all_ids())]
        return f"Play {cards_str(sorted(deck[i] for i in new))} into {_written(made, deck)}"
    melds = _melds(move)
    if melds:  # a meld's wilds and escorts as written: two melds of the same cards may differ there
        name = type(move).__name__.replace("MeldCards", "Meld").replace("LayOff", "Layoff")
        return f"{name} {_written(melds, deck)}"
    data = move_to_json(move)
    if not isinstance(data, dict):
        return str(data)
    words = [str(data.get("type", "move")).replace("_", " ").capitalize()]
    cards: list[int] = []
    _collect(data, cards)
    words += [card_str(deck[i]) for i in cards]
    if "index" in data:
        words.append(
            "the top discard" if data["index"] == 0 else f"the discards down to number {data['index'] + 1}"
        )
    return " ".join(words)


def describe_round(number: int, result: RoundResult, seats: Sequence[str], low_wins: bool = False) -> str:
    """How a finished round ended and what each seat scored in it, in one line (`low_wins`: the
    scores are penalty points, as in Rhine)."""
    if result.reason == "out":
        assert result.winner is not None
        how = f"{seats[result.winner]} went out" + (f" ({result.detail})" if result.detail else "")
    else:
        how = ROUND_END_WORDS.get(result.reason, result.reason)
        if result.winner is not None:
            how += f"; lowest hand: {seats[result.winner]}"
    scores = ", ".join(
        f"{name} {score if low_wins else f'{score:+d}'}"
        for name, score in zip(seats, result.scores, strict=True)
    )
    kind = "penalty points (lower is better)" if low_wins else "scores"
    return f"Round {number} over: {how}. Round {kind}: {scores}."


def _written(melds: list[TableMeld], deck: Sequence[int]) -> str:
    """Melds as written (wilds with their meanings, escorts), ``|`` between them."""
    kinds = tuple(deck)
    return " | ".join(meld_str(m.slots(kinds)) for m in melds)


def _melds(move: Move) -> list[TableMeld]:
    """The melds a draw-and-discard move lays down or lays off onto (an opening's, in order)."""
    if isinstance(move, MeldCards | LayOff):
        return [move.meld]
    if isinstance(move, Opening):
        return [meld for play in move.plays for meld in _melds(play)]
    return []


def _collect(data: Any, out: list[int]) -> None:
    """Card ids named anywhere in a move's JSON (melds' ``ids`` and single-card keys)."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "ids" and isinstance(value, list):
                out.extend(int(v) for v in value)
            elif key in _CARD_KEYS and isinstance(value, int) and not isinstance(value, bool):
                out.append(value)
            else:
                _collect(value, out)
    elif isinstance(data, list):
        for item in data:
            _collect(item, out)
