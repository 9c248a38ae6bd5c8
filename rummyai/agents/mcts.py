"""Information-set MCTS agent (single-observer ISMCTS, Cowling, Powley & Whitehouse 2011).

Every iteration samples a *determinization* of the hidden information from the acting seat's view
(opponents' hands and the stock dealt uniformly from the unseen cards, hand sizes kept), selects a
root move with UCB1, applies it to that determinization and plays a truncated rollout (a few turns
of a fast greedy policy) scored by a heuristic (`mcts_state.evaluate`). The tree is the root
information set and its moves: deeper nodes would hold a different, determinization-dependent move
set at every opponent turn, and with rollouts of a few turns the statistics there stay too thin to
help at a budget of a second.

Root moves on tile variants, `moves="wide"`: the solver's plays (most cards, most points, the
hold-back play keeping a joker or a fourth card) plus the draw and the engine's listed plays
placing the most cards. `moves="equal"`: the most-cards play and the other plays placing as many
cards but keeping different cards (`mcts_candidates.equal_card_alternatives`); fewer-card plays
are left out, since the search judged them wrongly (they lost to greedy). On draw-and-discard
variants the root moves are the engine's legal moves. With `infer` (2-player tile games) an
opponent that drew on the table our last move left is dealt, but for the drawn card, no card
that lays off on that table (`mcts_inference.DrawTracker`). Once an opponent holds at most
`wide_within` cards the root moves are the wide set again, and at most `solver_within` cards the
rollouts play the greedy solver policy for every seat (the baseline's own answers, about a
hundred times slower per turn than the fast policy).

The first root move is always the greedy one, and by default the agent leaves it only for a move
whose paired advantage over it (same determinizations, same rollout seeds) exceeds `deviation_z`
standard errors: a truncated rollout is a noisy judge, and deviating on noise loses to plain
greedy. Rollouts run 16 turns by default: at 4 turns the horizon rewards splitting a play over
several turns (each turn with a play saves a draw before the horizon) and the agent lost to
greedy. With `leaf="value"` a rollout that stops before the round ends is scored by the value
model of `rummyai.agents.value` (win probability learned from greedy self-play, read from what the
searching seat sees there) instead of the heuristic `evaluate`; `value_weights` names another
weights file. The budget is `iterations` per decision, cut short by `time_per_move` seconds when given.
With an iteration budget the agent is deterministic: the same seed gives the same moves.

With `worlds` > 0 the root is searched by flat perfect-information Monte Carlo instead of UCB1
(`flat_search`): every root move is played on the same `worlds` determinizations with the same
rollout seeds, and the best mean utility wins. `pimc_agent` (registered as `mcts-pimc`) pairs it
with the wide root moves, draw inference and greedy-policy rollouts to the end of the round: every
move is judged by how the round really ends if both seats then play as greedy does.

How these settings play against `greedy` is measured by the studies in ``docs/results.md``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence

import numpy as np

from rummyai.agents.base import View
from rummyai.agents.greedy import GreedyAgent, draw_or_best, give_highest, most_cards
from rummyai.agents.holdback import HoldbackAgent
from rummyai.agents.mcts_candidates import equal_card_alternatives
from rummyai.agents.mcts_inference import DrawTracker
from rummyai.agents.mcts_state import Determinizer, evaluate, rollout
from rummyai.agents.solver_play import (
    best_legal_play,
    hand_cards_in,
    nothing_to_play,
    seat_position,
    state_position,
)
from rummyai.agents.value import features, load_model, seen_from_view
from rummyai.engine import game
from rummyai.engine.moves import Draw, Move, Play
from rummyai.engine.state import GameState, RoundResult
from rummyai.errors import IllegalMoveError, RummyError
from rummyai.variants import Variant


class MCTSAgent:
    """Single-observer information-set MCTS over solver and engine candidates (module docstring)."""

    def __init__(
        self,
        iterations: int = 30,
        time_per_move: float | None = None,
        rollout_turns: int = 16,
        exploration: float = 0.7,
        extra_legal: int = 2,
        max_candidates: int = 12,
        card_weight: float = 3.0,
        open_weight: float = 10.0,
        scale: float = 40.0,
        deviation_z: float = 1.5,
        solver_work_limit: float = 5.0,
        moves: str = "wide",
        alternatives: int = 4,
        infer: bool = False,
        wide_within: int = 0,
        solver_within: int = 0,
        same_value: bool = False,
        leaf: str = "heuristic",
        value_weights: str | None = None,
        worlds: int = 0,
        rollout_policy: str = "cards",
        seed: int = 0,
    ) -> None:
        if iterations < 1:
            raise RummyError(f"iterations must be at least 1, got {iterations}")
        if time_per_move is not None and time_per_move <= 0:
            raise RummyError(f"time_per_move must be positive, got {time_per_move}")
        if rollout_turns < 0 or extra_legal < 0 or max_candidates < 1:
            raise RummyError(
                "rollout_turns and extra_legal must be at least 0 and max_candidates at least 1, got "
                f"{rollout_turns}, {extra_legal}, {max_candidates}"
            )
        if moves not in ("wide", "equal"):
            raise RummyError(f"moves must be wide or equal, got {moves!r}")
        if alternatives < 0:
            raise RummyError(f"alternatives must be at least 0, got {alternatives}")
        if worlds < 0:
            raise RummyError(f"worlds must be at least 0, got {worlds}")
        if rollout_policy not in ("cards", "points"):
            raise RummyError(f"rollout_policy must be cards or points, got {rollout_policy!r}")
        if leaf not in ("heuristic", "value"):
            raise RummyError(f"leaf must be heuristic or value, got {leaf!r}")
        if value_weights is not None and leaf != "value":
            raise RummyError("value_weights is read only with leaf=value")
        if not scale > 0 or not solver_work_limit > 0:
            raise RummyError(
                f"scale and solver_work_limit must be positive, got {scale} and {solver_work_limit}"
            )
        if min(exploration, deviation_z, wide_within, solver_within) < 0:
            raise RummyError(
                "exploration, deviation_z, wide_within and solver_within must be at least 0, got "
                f"{exploration}, {deviation_z}, {wide_within} and {solver_within}"
            )
        self.name = "mcts"
        self.moves = moves
        self.alternatives = alternatives
        self.infer = infer
        self.wide_within = wide_within
        self.solver_within = solver_within
        self.same_value = same_value
        self.value_model = load_model(value_weights) if leaf == "value" else None
        self.solver_rollouts = False
        self.tracker = DrawTracker()
        self.dead: tuple[int, frozenset[int], int] | None = None
        self.iterations = iterations
        self.worlds = worlds
        self.time_per_move = time_per_move
        self.rollout_turns = rollout_turns
        self.exploration = exploration
        self.extra_legal = extra_legal
        self.max_candidates = max_candidates
        self.weights = (card_weight, open_weight, scale)
        self.deviation_z = deviation_z
        self.greedy = GreedyAgent("cards", solver_work_limit)
        self.rollout_agent = GreedyAgent(rollout_policy, solver_work_limit)
        self.holdback = HoldbackAgent(work_limit=solver_work_limit)
        self.solver_work_limit = solver_work_limit
        self.seed = seed
        self.decision = 0
        #: statistics of the last search: move -> (visits, mean utility); for tests and debugging.
        self.last_stats: list[tuple[Move, int, float]] = []

    def reset(self, seed: int) -> None:
        """Start a game: every later random choice derives from `seed` and the decision count."""
        self.seed = seed
        self.decision = 0
        self.greedy.reset(seed)
        self.holdback.reset(seed)
        self.tracker.reset()

    # ------------------------------------------------------------------ acting
    def act(self, view: View, legal: Sequence[Move]) -> Move:
        """The move chosen by the search: with `deviation_z` > 0 the greedy move unless another
        root move is significantly better on paired rollouts (`conservative_choice`), else the
        most visited root move (ties: the best mean, then the greedy move first)."""
        if not legal:
            raise RummyError(f"mcts asked to act at seat {view.get('seat')} with no legal move")
        if self.infer:
            self.dead = self.tracker.dead(view)
        move = self.choose(view, legal)
        if self.infer:
            self.tracker.record(view, move)
        return move

    def choose(self, view: View, legal: Sequence[Move]) -> Move:
        """The move to make (see `act`)."""
        started = time.perf_counter()
        rng = np.random.default_rng([self.seed, self.decision, 0x6D637473])
        self.decision += 1
        self.last_stats = []
        family = view.get("family")
        if family == "play_or_draw" and view.get("phase") == "give":
            return give_highest(view, legal)
        if view.get("phase") in ("extra", "knock"):
            return self.greedy.act(view, legal)
        candidates = self.candidates(view, legal)
        self.solver_rollouts = family == "play_or_draw" and self.opponent_within(view, self.solver_within)
        if len(candidates) == 1:
            return candidates[0]
        return self.search(view, candidates, rng, started)

    def candidates(self, view: View, legal: Sequence[Move]) -> list[Move]:
        """Distinct root moves, the greedy (most cards) move first."""
        hand = view.get("hand", [])
        moves: list[Move] = []
        if view.get("family") == "play_or_draw":
            position = seat_position(view)
            full, _ = best_legal_play(position, "cards", self.solver_work_limit)
            if self.moves == "equal" and not self.opponent_within(view, self.wide_within):
                if full is None:
                    return [draw_or_best(view, legal)]
                limit = min(self.alternatives, self.max_candidates - 1)
                others = equal_card_alternatives(
                    position, full, self.solver_work_limit, limit, self.same_value
                )
                return [full, *others]
            if full is None:
                moves.append(draw_or_best(view, legal))
            else:
                moves.append(full)
                points, _ = best_legal_play(position, "points", self.solver_work_limit)
                if points is not None:
                    moves.append(points)
                held = self.holdback.without_jokers(position) or full
                held = self.holdback.hold_back_fourth(position, held) or held
                moves.append(held)
            moves.extend(m for m in legal if isinstance(m, Draw))
            plays = sorted((m for m in legal if isinstance(m, Play)), key=lambda m: -hand_cards_in(m, hand))
            moves.extend(plays[: self.extra_legal])
        else:
            moves.append(most_cards(view, legal))
            moves.extend(legal)
        unique = list(dict.fromkeys(moves))
        return unique[: self.max_candidates]

    @staticmethod
    def opponent_within(view: View, cards: int) -> bool:
        """Whether some opponent holds at most `cards` cards (the end of the round is near)."""
        seat = int(view["seat"])
        return any(int(n) <= cards for k, n in enumerate(view["hand_sizes"]) if k != seat)

    # ------------------------------------------------------------------ search
    def search(self, view: View, candidates: list[Move], rng: np.random.Generator, started: float) -> Move:
        """UCB1 over the root moves. The n-th visit of every move plays the n-th determinization
        with the n-th rollout seed (common random numbers), so moves are compared on the same
        hidden deals and the noise of the deal largely cancels out of their difference."""
        seat = int(view["seat"])
        k = len(candidates)
        visits = np.zeros(k, dtype=int)
        totals = np.zeros(k)
        values: list[list[float]] = [[] for _ in range(k)]
        deadline = None if self.time_per_move is None else started + self.time_per_move
        try:
            sampler = Determinizer(view, self.dead)
        except RummyError:
            return candidates[0]
        if self.worlds > 0:
            return self.flat_search(seat, candidates, sampler, rng, deadline)
        samples: list[GameState] = []
        seeds: list[int] = []
        for iteration in range(self.iterations):
            if deadline is not None and iteration >= k and time.perf_counter() > deadline:
                break
            if iteration < k:
                arm = iteration
            else:
                means = totals / visits
                bonus = self.exploration * np.sqrt(math.log(iteration) / visits)
                arm = int(np.argmax(means + bonus))
            n = int(visits[arm])
            if n == len(samples):
                samples.append(sampler.sample(rng))
                seeds.append(int(rng.integers(2**62)))
            visits[arm] += 1
            rollout_rng = np.random.default_rng(seeds[n])
            value = self.simulate(samples[n], candidates[arm], seat, rollout_rng)
            values[arm].append(value)
            totals[arm] += value
        tried = visits > 0
        means = np.where(tried, totals / np.maximum(visits, 1), -np.inf)
        self.last_stats = [(m, int(v), float(q)) for m, v, q in zip(candidates, visits, means, strict=True)]
        if self.deviation_z <= 0:
            best = max(range(k), key=lambda a: (visits[a], means[a], -a))
            return candidates[best]
        return candidates[self.conservative_choice(values)]

    def flat_search(
        self,
        seat: int,
        candidates: list[Move],
        sampler: Determinizer,
        rng: np.random.Generator,
        deadline: float | None,
    ) -> Move:
        """Perfect-information Monte Carlo: every root move is played on the same `worlds`
        determinizations with the same rollout seeds, and the best mean utility wins (ties: the
        earlier candidate, so greedy's move first). With a time budget another world starts only
        while the slowest world so far would still end by the deadline, so a move overruns its
        budget only when its first world alone does."""
        k = len(candidates)
        totals = np.zeros(k)
        played, slowest = 0, 0.0
        for _ in range(self.worlds):
            now = time.perf_counter()
            if deadline is not None and played > 0 and now + slowest > deadline:
                break
            world = sampler.sample(rng)
            rollout_seed = int(rng.integers(2**62))
            for arm, move in enumerate(candidates):
                totals[arm] += self.simulate(world, move, seat, np.random.default_rng(rollout_seed))
            played += 1
            slowest = max(slowest, time.perf_counter() - now)
        means = totals / played
        self.last_stats = [(m, played, float(q)) for m, q in zip(candidates, means, strict=True)]
        return candidates[max(range(k), key=lambda a: (means[a], -a))]

    def conservative_choice(self, values: list[list[float]]) -> int:
        """The root move to play: the first candidate (the greedy move) unless another beats it
        on the determinizations both were tried on by more than `deviation_z` standard errors of
        the paired difference; among those that do, the one with the largest paired advantage."""
        base = values[0]
        best, best_gain = 0, 0.0
        for arm in range(1, len(values)):
            n = min(len(base), len(values[arm]))
            if n < 3:
                continue
            diff = np.asarray(values[arm][:n]) - np.asarray(base[:n])
            gain = float(diff.mean())
            error = float(diff.std(ddof=1)) / math.sqrt(n)
            if gain > self.deviation_z * error and gain > best_gain:
                best, best_gain = arm, gain
        return best

    def solver_rollout(self, state: GameState, turns: int) -> tuple[GameState, RoundResult | None]:
        """Every seat plays the greedy solver policy (`rollout_policy`: most cards, the baseline's
        own, or most points) for up to `turns` moves or to the end of the round: slow, but exact
        about how a greedy opponent answers a move."""
        rounds = len(state.history)
        for _ in range(turns):
            if len(state.history) > rounds or state.match_over:
                break
            state = game.apply(state, self.greedy_move(state))
        return state, state.history[rounds] if len(state.history) > rounds else None

    def greedy_move(self, state: GameState) -> Move:
        """The rollout policy's move for the seat to act, listing the legal moves only when it does
        not play (the same move as its ``act``; listing them every turn cost a tenth of a rollout).
        The position is read straight from the state (`state_position`), the view written out
        only for the mini-pool step, and the moves not listed where the solver proved there is no
        play (`nothing_to_play`)."""
        seat = state.to_act
        if getattr(state.round.family_data, "phase", "normal") == "give":
            return self.rollout_agent.act(game.view(state, seat), game.legal_moves(state))
        position = state_position(state, seat)
        play = self.rollout_agent.best_play(position)
        if play is not None:
            return play
        if nothing_to_play(position, self.rollout_agent.objective, self.rollout_agent.work_limit):
            return Draw()  # no listed play places a card: `draw_or_best` would draw
        return draw_or_best({"hand": list(state.round.hands[seat])}, game.legal_moves(state))

    def simulate(self, state: GameState, move: Move, seat: int, rng: np.random.Generator) -> float:
        """Utility for `seat` of playing `move` in one determinization, then a truncated rollout."""
        rounds = len(state.history)
        start = state.round.turn_count
        try:
            state = game.apply(state, move)
        except IllegalMoveError:
            return -1.0  # the move depends on a card this determinization placed elsewhere
        result = state.history[rounds] if len(state.history) > rounds else None
        if result is None and self.solver_rollouts:
            state, result = self.solver_rollout(state, self.rollout_turns)
        elif result is None:
            state, result = rollout(state, self.rollout_turns, rng)
        ended = state.finished if result is not None and state.finished is not None else state.round
        delay = max(0, ended.turn_count - start - 1)
        if result is None and self.value_model is not None:
            return self.leaf_value(state, seat)
        card_weight, open_weight, scale = self.weights
        return evaluate(state, result, seat, card_weight, open_weight, scale, delay)

    def check_game(self, variant: Variant, players: int) -> None:
        """Refuse before the first move what the search cannot play: a value leaf needs a
        tile-style variant (the value model reads tile-style positions)."""
        if self.value_model is not None and not variant.tile_style:
            raise RummyError(f"mcts leaf=value needs a tile-style variant, not {variant.id!r}")

    def leaf_value(self, state: GameState, seat: int) -> float:
        """The value model's win probability for `seat` where a rollout stopped, read from what the
        seat sees there and mapped to [-0.8, 0.8] (inside the utilities of a finished round)."""
        assert self.value_model is not None
        view = game.view(state, seat)
        if view.get("family") != "play_or_draw":
            raise RummyError(f"mcts leaf=value needs a tile-style variant, not {view.get('variant')!r}")
        p = float(self.value_model.predict(features(seen_from_view(view)))[0])
        return 0.8 * (2 * p - 1)


def pimc_agent(
    worlds: int = 8,
    time_per_move: float | None = None,
    moves: str = "wide",
    infer: bool = True,
    rollout: str = "greedy",
    seed: int = 0,
) -> MCTSAgent:
    """The `mcts-pimc` preset: flat perfect-information Monte Carlo (`MCTSAgent.flat_search`) over
    the wide root moves, each rollout greedy's solver policy for every seat to the end of the round
    (`rollout="greedy-points"` rolls out the most-points policy instead, an ablation: rollouts that
    are not the opponent's own policy). The setting that beat greedy in two pre-registered runs
    (README, "Tournament")."""
    policies = {"greedy": "cards", "greedy-points": "points"}
    if worlds < 1:  # worlds=0 would be the UCB1 search of `mcts`, another agent
        raise RummyError(f"worlds must be at least 1, got {worlds}")
    if rollout not in policies:
        raise RummyError(f"rollout must be greedy or greedy-points, got {rollout!r}")
    return MCTSAgent(
        worlds=worlds,
        time_per_move=time_per_move,
        moves=moves,
        infer=infer,
        solver_within=99,
        rollout_turns=400,
        rollout_policy=policies[rollout],
        seed=seed,
    )
