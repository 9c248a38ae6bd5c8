"""Games played in the browser: the person at seat 0 against agents, kept in memory.

A game is created with a variant, the opponents' agent names and a seed; the agents' turns are
played at once, up to the person's next decision. The person moves by picking one of the engine's
legal moves, or (tile variants) by laying down a whole new table, e.g. a hint's. Only the last
`MAX_GAMES` games are kept.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from rummyai.agents import AGENTS, Agent, check_agent_fits, make_agent_from_spec
from rummyai.cards import card_str, parse_meld
from rummyai.engine import game
from rummyai.engine.moves import Move, Play
from rummyai.engine.state import GameState, TableMeld
from rummyai.errors import IllegalMoveError, RummyError
from rummyai.melds import analyze_meld
from rummyai.variants import VARIANT_IDS, Options, get_variant
from rummyai.web.cards import describe_move, describe_round, meld_cards

MAX_GAMES = 64
#: Agent decisions played in one request at most (far above any real stretch of agents' turns).
MAX_AGENT_TURNS = 5_000
#: Legal moves listed for the person at most (tile variants list many plays).
MAX_LISTED = 2_000
HUMAN = 0


@dataclass
class BrowserGame:
    """One game: the engine state, the seats' agents (None at the person's seat) and a move log."""

    id: str
    state: GameState
    seats: list[str]
    agents: list[Agent | None]
    log: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Games:
    """The games in play, by id (the oldest dropped beyond `MAX_GAMES`)."""

    def __init__(self) -> None:
        self._games: OrderedDict[str, BrowserGame] = OrderedDict()
        self._lock = threading.Lock()

    def new(
        self,
        variant: str,
        opponents: list[str],
        seed: int,
        max_turns: int | None = None,
        options: Options = None,
    ) -> BrowserGame:
        """Deal a new game (its rounds cut after `max_turns` turns, if given; the variant with
        `options`) and play the agents' turns up to the person's first decision."""
        if variant not in VARIANT_IDS:
            raise RummyError(f"unknown variant {variant!r} (known: {', '.join(VARIANT_IDS)})")
        rules = get_variant(variant, options)
        low, high = rules.min_players, rules.max_players
        if not low - 1 <= len(opponents) <= high - 1:
            raise RummyError(
                f"{variant} is played by {low} to {high} players: give 1 to {high - 1} opponents"
            )
        for name in opponents:
            if name not in AGENTS:
                raise RummyError(f"unknown agent {name!r} (known: {', '.join(AGENTS)})")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**32:
            raise RummyError(f"seed must be a whole number 0..2**32-1, got {seed!r}")
        agents: list[Agent | None] = [None]
        for k, name in enumerate(opponents, start=1):
            agent = make_agent_from_spec(name)
            check_agent_fits(agent, name, rules, len(opponents) + 1)  # as matches and tournaments do
            agent.reset(seed + k)
            agents.append(agent)
        state = game.new_match(rules, len(agents), seed, max_turns=max_turns)
        found = BrowserGame(secrets.token_hex(8), state, ["you", *opponents], agents)
        with found.lock:
            _play_agents(found)
        with self._lock:
            self._games[found.id] = found
            while len(self._games) > MAX_GAMES:
                self._games.popitem(last=False)
        return found

    def get(self, game_id: str) -> BrowserGame:
        """The game with this id; `RummyError` when there is none (or it was dropped)."""
        with self._lock:
            found = self._games.get(game_id)
        if found is None:
            raise RummyError(f"no game {game_id!r} (games are kept in memory; start a new one)")
        return found


def _apply(found: BrowserGame, seat: int, move: Move) -> None:
    text = describe_move(found.state, move)
    round_index = found.state.round_index
    found.state = game.apply(found.state, move)
    found.log.append({"seat": seat, "who": found.seats[seat], "move": text, "round": round_index + 1})
    if len(found.state.history) > round_index:  # this move ended the round
        result = found.state.history[round_index]
        line = describe_round(round_index + 1, result, found.seats, found.state.variant.low_score_wins)
        found.log.append({"seat": None, "who": "table", "move": line, "round": round_index + 1})


def _play_agents(found: BrowserGame) -> None:
    """Agents act until it is the person's turn or the match is over."""
    for _ in range(MAX_AGENT_TURNS):
        state = found.state
        if state.match_over or state.to_act == HUMAN:
            return
        seat = state.to_act
        agent = found.agents[seat]
        assert agent is not None
        move = agent.act(game.view(state, seat), game.legal_moves(state))
        _apply(found, seat, move)
    raise RummyError(f"the agents did not hand the turn back within {MAX_AGENT_TURNS} moves")


def choose(found: BrowserGame, index: int) -> None:
    """The person plays legal move `index` (as `snapshot` lists them); then the agents play."""
    with found.lock:
        _check_turn(found)
        legal = game.legal_moves(found.state)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(legal):
            raise RummyError(f"choice must be 0..{len(legal) - 1}, got {index!r}")
        _apply(found, HUMAN, legal[index])
        _play_agents(found)


def play_table(found: BrowserGame, melds: list[list[str]]) -> None:
    """Tile variants: the person lays the table out as `melds` (tokens, a wild as ``JK=7H``),
    taking cards from the table first and the hand for the rest; then the agents play."""
    with found.lock:
        _check_turn(found)
        state = found.state
        if state.variant.family != "play_or_draw":
            raise RummyError("only tile variants take a whole new table; pick one of the listed moves")
        deck = state.variant.deck
        rs = state.round
        pools: dict[int, list[int]] = {}
        for i in [i for m in rs.table for i in m.ids] + list(rs.hands[HUMAN]):
            pools.setdefault(deck[i], []).append(i)
        table: list[TableMeld] = []
        for meld in melds:
            if not isinstance(meld, list) or not all(isinstance(t, str) for t in meld):
                raise RummyError("melds must be lists of card tokens")
            info = analyze_meld(state.variant, parse_meld(" ".join(meld)))  # wilds get their meanings
            ids: list[int] = []
            for slot in info.slots:
                if not pools.get(slot.card):
                    raise RummyError(
                        f"card {card_str(slot.card)} is neither on the table nor in your hand (or used twice)"
                    )
                ids.append(pools[slot.card].pop(0))
            table.append(TableMeld(tuple(ids), tuple(slot.meaning for slot in info.slots)))
        try:
            _apply(found, HUMAN, Play(tuple(table)))
        except IllegalMoveError as error:
            raise RummyError(f"that table is not a legal play: {error}") from None
        _play_agents(found)


def _check_turn(found: BrowserGame) -> None:
    if found.state.match_over:
        raise RummyError("the game is over; start a new one")
    if found.state.to_act != HUMAN:
        raise RummyError("it is not your turn")


def snapshot(found: BrowserGame) -> dict[str, Any]:
    """What the person sees: own hand, the table, the others' card counts, scores, legal moves,
    the position to ask a hint for, and the last moves."""
    state = found.state
    view = game.view(state, HUMAN)
    your_turn = not state.match_over and state.to_act == HUMAN
    legal = game.legal_moves(state) if your_turn else []
    table = [meld_cards(m) for m in view.get("table", [])]
    position: dict[str, Any] = {
        "variant": state.variant.id,
        "options": sorted(state.variant.options),
        "hand": list(view["hand_cards"]),
        "table": table,
        "opened": bool(view.get("opened", [True])[HUMAN]),
    }
    deck = state.variant.deck
    if view.get("committed"):
        position["committed"] = [card_str(deck[i]) for i in view["committed"]]
    if view.get("taken") and state.variant.no_rediscard_of_taken:  # Rummy Palace: not the discard
        position["taken"] = card_str(deck[view["taken"][-1]])
    if state.variant.opening == "chart":  # Black Heart: the cumulative score picks the chart line
        position["score"] = int(state.scores[HUMAN])
    return {
        "id": found.id,
        "variant": state.variant.id,
        "options": sorted(state.variant.options),
        "family": state.variant.family,
        "seats": found.seats,
        "hand": list(view["hand_cards"]),
        "table": table,
        "hand_sizes": view.get("hand_sizes", []),
        "stock_size": view.get("stock_size"),
        "discard": view.get("discard_cards", []),
        "phase": view.get("phase"),
        "scores": list(state.scores),
        "round": state.round_index + 1,
        "to_act": None if state.match_over else state.to_act,
        "your_turn": your_turn,
        "match_over": state.match_over,
        "winners": list(state.winners) if state.match_over else [],
        "legal": [{"index": k, "label": describe_move(state, m)} for k, m in enumerate(legal[:MAX_LISTED])],
        "legal_count": len(legal),
        # a hint answers the turn's play: none before a draw-and-discard draw, none while a
        # stalled tile round gives cards to its mini-pool
        "position": position if your_turn and view.get("phase") not in ("draw", "knock", "give") else None,
        "log": found.log[-30:],
        # the last finished round in words (the page announces it once), None before any
        "last_round": _last_round(found),
    }


def _last_round(found: BrowserGame) -> dict[str, Any] | None:
    history = found.state.history
    if not history:
        return None
    number = len(history)
    result = history[-1]
    return {
        "round": number,
        "winner": result.winner,
        "scores": list(result.scores),
        "reason": result.reason,
        "text": describe_round(number, result, found.seats, found.state.variant.low_score_wins),
    }
