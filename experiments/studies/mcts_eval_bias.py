"""How well do the MCTS leaf values predict who wins? Truncated rollouts against rollouts to the end.

Plays seeded greedy-vs-greedy games of 2-player `rummikub`. At a few turn counts (`--at`, and the
turn after each, so both seats) the position is taken from the acting seat's view and, over
`--samples` determinizations, scored three ways: the heuristic `mcts_state.evaluate` with no
rollout, the heuristic after a `--turns`-turn fast rollout, and that rollout continued to the end
of the round (win = 1, loss = 0); and, from the seat's view alone, the value model of
`rummyai.agents.value` (its win probability; `--value-weights` names another weights file). Each score is averaged per position and compared with the real
result of the greedy game (did the acting seat win?): Pearson correlation and the Brier score of
a one-feature logistic fit (lower is better; the base rate scores 0.25).

    python experiments/studies/mcts_eval_bias.py --games 150 --samples 6

On those 883 positions: heuristic now -0.081, after 16 turns -0.050, fast rollout to the end
+0.005, value model +0.044 (the model reaches 0.21 over all turns of held-out games, where late,
short hands make the winner plain; mid-round no feature of the seat's view says much).
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from rummyai.agents.greedy import GreedyAgent
from rummyai.agents.mcts_state import Determinizer, evaluate, rollout
from rummyai.agents.value import ValueModel, features, load_model, seen_from_view
from rummyai.engine import game
from rummyai.engine.state import GameState


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--samples", type=int, default=12, help="determinizations per position")
    parser.add_argument("--turns", type=int, default=16, help="truncated rollout length")
    parser.add_argument(
        "--at",
        default="10,24,38",
        help="turn counts where positions are taken (that turn and the next: both seats)",
    )
    parser.add_argument("--seed", type=int, default=9100)
    parser.add_argument("--value-weights", default=None, help="value model weights (default: shipped)")
    return parser.parse_args()


def scores(
    state: GameState, seat: int, samples: int, turns: int, rng: np.random.Generator, model: ValueModel
) -> list[float]:
    """Mean over determinizations of: heuristic now, heuristic after `turns`, win at the end;
    then the value model's win probability from the seat's view."""
    view = game.view(state, seat)
    sampler = Determinizer(view)
    now, horizon, final = [], [], []
    for _ in range(samples):
        sample = sampler.sample(rng)
        now.append(evaluate(sample, None, seat))
        mid, result = rollout(sample, turns, rng)
        horizon.append(evaluate(mid, result, seat))
        if result is None:
            _, result = rollout(mid, 100_000, rng)
        final.append(1.0 if result is not None and result.winner == seat else 0.0)
    value = float(model.predict(features(seen_from_view(view)))[0])
    return [float(np.mean(now)), float(np.mean(horizon)), float(np.mean(final)), value]


def logistic_brier(x: np.ndarray, y: np.ndarray, steps: int = 3000) -> float:
    """Brier score of a one-feature logistic regression fitted by gradient descent (in-sample)."""
    z = (x - x.mean()) / (x.std() or 1.0)
    a, b = 0.0, 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(a * z + b)))
        a -= 0.5 * float(np.mean((p - y) * z))
        b -= 0.5 * float(np.mean(p - y))
    p = 1 / (1 + np.exp(-(a * z + b)))
    return float(np.mean((p - y) ** 2))


def main() -> None:
    args = parse_args()
    greedy = GreedyAgent()
    model = load_model(args.value_weights)
    rows: list[list[float]] = []
    outcomes: list[float] = []
    for g in range(args.games):
        state = game.new_match("rummikub", 2, args.seed + g, options=["rounds=1"])
        rng = np.random.default_rng([args.seed, g])
        taken: list[tuple[int, list[float]]] = []
        marks = {int(t) + k for t in args.at.split(",") for k in (0, 1)}
        while not state.history:
            seat = state.to_act
            if state.round.turn_count in marks:
                taken.append((seat, scores(state, seat, args.samples, args.turns, rng, model)))
            state = game.apply(state, greedy.act(game.view(state, seat), game.legal_moves(state)))
        winner = state.history[0].winner
        for seat, row in taken:
            rows.append(row)
            outcomes.append(1.0 if winner == seat else 0.0)
    x, y = np.asarray(rows), np.asarray(outcomes)
    print(f"{len(y)} positions from {args.games} greedy games, {args.samples} determinizations each")
    print(f"base rate (acting seat wins) {y.mean():.3f}, Brier of the base rate {y.var():.4f}")
    for k, label in enumerate(
        ("heuristic now", f"heuristic after {args.turns} turns", "fast rollout to the end", "value model now")
    ):
        corr = float(np.corrcoef(x[:, k], y)[0, 1]) if x[:, k].std() > 0 else math.nan
        print(f"  {label:28s} corr {corr:+.3f}  logistic Brier {logistic_brier(x[:, k], y):.4f}")


if __name__ == "__main__":
    main()
