"""Match flow shared by every variant: dealing rounds, applying moves, scoring, ending the match.

Round-level rules live in a `TurnFamily` (tile style or draw-meld-discard); this module picks the
family from the variant and handles what is common: dealer rotation, cumulative scores, the
match-end rule, the `max_turns` truncation and the seeded randomness (the same seed always gives
the same deals).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from rummyai.engine.family import TurnFamily
from rummyai.engine.move_shape import move_problem, quick_move_problem
from rummyai.engine.moves import Move, Violation
from rummyai.engine.state import GameState, RoundResult
from rummyai.errors import IllegalMoveError, RummyError
from rummyai.variants import Variant, get_variant

_FAMILIES: dict[str, TurnFamily] = {}
_FAMILY_MODULES = {"play_or_draw": "rummyai.engine.tile", "draw_meld_discard": "rummyai.engine.discard"}


def register_family(name: str, family: TurnFamily) -> None:
    """Make a turn family available to `family_of` (done on import by each family module)."""
    _FAMILIES[name] = family


def family_of(variant: Variant) -> TurnFamily:
    """The turn family implementing this variant's round rules."""
    if variant.family not in _FAMILIES and variant.family in _FAMILY_MODULES:
        # Import the family module lazily so that it can import this module.
        try:
            importlib.import_module(_FAMILY_MODULES[variant.family])
        except ModuleNotFoundError as error:
            raise RummyError(f"the {variant.family} turn family is not available: {error}") from None
    try:
        return _FAMILIES[variant.family]
    except KeyError:
        raise RummyError(f"the {variant.family} turn family is not implemented") from None


_UNUSED_RNG = np.random.default_rng(0)


def round_rng(seed: int, round_index: int, step: int = 0) -> np.random.Generator:
    """Deterministic generator for one round (step > 0 for later random events in it)."""
    return np.random.default_rng([seed, round_index, step])


def first_dealer(variant: Variant, num_players: int, seed: int) -> int:
    """Round-1 dealer, drawn from the seeded RNG (every variant's decision)."""
    return int(np.random.default_rng([seed, 10**6]).integers(num_players))


def new_match(
    variant: str | Variant,
    num_players: int,
    seed: int = 0,
    *,
    options: Any = None,
    max_turns: int | None = None,
) -> GameState:
    """Start a match: the first round dealt from `seed`."""
    rules = get_variant(variant, options)
    check_whole("seed", seed)
    if seed < 0:
        raise RummyError(f"seed must be a non-negative integer, got {seed}")
    check_players(rules, num_players)
    check_max_turns(max_turns)
    scores = (0,) * num_players
    dealer = first_dealer(rules, num_players, seed)
    round_state = family_of(rules).deal(rules, num_players, dealer, scores, round_rng(seed, 0))
    return GameState(rules, seed, num_players, 0, scores, round_state, max_turns=max_turns)


def check_whole(name: str, value: object) -> None:
    """Bad match settings raise a `RummyError` naming them (not numpy's or Python's own error)."""
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise RummyError(f"{name} must be an integer, got {value!r}")


def check_players(rules: Variant, num_players: object) -> None:
    """A number of seats the variant is played with (matches, tournaments, environments, CLI)."""
    check_whole("num_players", num_players)
    assert isinstance(num_players, int | np.integer)
    if not rules.min_players <= num_players <= rules.max_players:
        raise RummyError(
            f"{rules.id} is played by {rules.min_players} to {rules.max_players} players, not {num_players}"
        )


def check_max_turns(max_turns: object) -> None:
    """A turn cap per round: None (no cap) or a whole number of at least 1."""
    if max_turns is None:
        return
    check_whole("max_turns", max_turns)
    assert isinstance(max_turns, int | np.integer)
    if max_turns < 1:
        raise RummyError(f"max_turns must be at least 1, got {max_turns}")


def legal_moves(state: GameState) -> list[Move]:
    """Simple legal moves for the seat to act (new melds, single lay-offs, draws)."""
    if state.match_over or state.round.result is not None:
        return []
    return family_of(state.variant).legal_moves(state)


def validate(state: GameState, move: Move) -> Violation | None:
    """The first rule `move` breaks (with its docs/rules section), or None if it is legal."""
    if state.match_over:
        return Violation("game", "the match is over")
    problem = quick_move_problem(move)
    if problem is not None:
        return Violation("move", f"malformed move: {problem}")
    try:
        return family_of(state.variant).validate(state, move)
    except (AttributeError, TypeError, IndexError, KeyError):  # a field of the wrong type, deeper
        problem = move_problem(move)
        if problem is None:
            raise  # well formed: a bug, not bad input
        return Violation("move", f"malformed move: {problem}")


def apply(state: GameState, move: Move) -> GameState:
    """The state after `move`; raises `IllegalMoveError` naming the rule if it is illegal.

    When the round ends, it is scored, the match-end rule is checked and the next round dealt.
    """
    violation = validate(state, move)
    if violation is not None:
        raise IllegalMoveError(violation.rule, violation.reason)
    family = family_of(state.variant)
    needs_rng = getattr(family, "needs_rng", None)
    if needs_rng is None or needs_rng(state, move):
        rng = round_rng(state.seed, state.round_index, state.round.turn_count + 1)
    else:
        rng = _UNUSED_RNG  # the family declared it draws nothing random for this move
    round_state = family.apply(state, move, rng)
    state = replace(state, round=round_state)
    if (
        round_state.result is None
        and state.max_turns is not None
        and round_state.turn_count >= state.max_turns
    ):
        state = replace(state, round=family.truncate(state))
    if state.round.result is not None:
        state = _finish_round(state)
    return state


def view(state: GameState, seat: int) -> dict[str, Any]:
    """What `seat` may see of the state (other hands and the stock order hidden)."""
    check_whole("seat", seat)
    seat = int(seat)
    if not 0 <= seat < state.num_players:
        raise RummyError(f"no seat {seat} in a {state.num_players}-player game")
    public = family_of(state.variant).view(state, seat)
    public.update(
        variant=state.variant.id,
        options=sorted(state.variant.options),
        seat=seat,
        round_index=state.round_index,
        scores=list(state.scores),
        match_over=state.match_over,
    )
    return public


def _finish_round(state: GameState) -> GameState:
    variant = state.variant
    result = state.round.result
    assert result is not None
    scores = tuple(a + b for a, b in zip(state.scores, result.scores, strict=True))
    history = (*state.history, result)
    state = replace(state, scores=scores, history=history, finished=state.round)
    winners = match_winners(variant, scores, history)
    if winners:
        return replace(state, winners=winners)
    round_index = state.round_index + 1
    dealer = (state.round.dealer + 1) % state.num_players
    round_state = family_of(variant).deal(
        variant, state.num_players, dealer, scores, round_rng(state.seed, round_index)
    )
    return replace(state, round_index=round_index, round=round_state)


def match_winners(
    variant: Variant, scores: tuple[int, ...], history: tuple[RoundResult, ...]
) -> tuple[int, ...]:
    """Seats that won the match if its end rule has fired, else ()."""
    played = len(history)
    last = history[-1]
    ended = variant.rounds is not None and played >= variant.rounds
    if variant.game_end == "total_at_most":
        assert variant.game_end_score is not None
        ended = ended or min(scores) <= variant.game_end_score
    elif variant.game_end == "out_with_at_least":
        assert variant.game_end_score is not None
        out = last.winner is not None and last.reason == "out"
        if out and last.winner is not None and scores[last.winner] >= variant.game_end_score:
            return (last.winner,)
    if not ended:
        return ()
    best = min(scores) if variant.low_score_wins else max(scores)
    return tuple(seat for seat, score in enumerate(scores) if score == best)


Chooser = Callable[[GameState, int, list[Move], np.random.Generator], Move]


def agent_rng(seed: int) -> np.random.Generator:
    """The generator handed to `play_match` choosers, derived from the match seed."""
    return np.random.default_rng([seed, 7919])


def play_match(
    variant: str | Variant,
    players: int,
    seed: int,
    choose: Chooser,
    *,
    options: Any = None,
    max_turns: int | None = None,
    max_moves: int = 1_000_000,
    on_move: Callable[[GameState, Move], None] | None = None,
) -> GameState:
    """Play a whole match: `choose(state, seat, moves, rng)` picks each move; the final state.

    Deterministic from `seed`: the deals come from it and `rng` is `agent_rng(seed)`.
    `on_move(state, move)` is called before each move is applied (recording, logging).
    """
    state = new_match(variant, players, seed, options=options, max_turns=max_turns)
    rng = agent_rng(seed)
    for _ in range(max_moves):
        if state.match_over:
            return state
        seat = state.to_act
        move = choose(state, seat, legal_moves(state), rng)
        if on_move is not None:
            on_move(state, move)
        state = apply(state, move)
    raise RummyError(f"the match did not end within {max_moves} moves")


def random_choice(state: GameState, seat: int, moves: list[Move], rng: np.random.Generator) -> Move:
    """A chooser picking uniformly among the listed moves."""
    return moves[int(rng.integers(len(moves)))]
