"""How long does an agent think per move? Seconds per decision, as a distribution.

Plays seeded games of one agent against another on one core (the agent in every seat in turn,
as a duplicate set does) and times each of the agent's decisions alone, then prints the mean,
median, p90, p99 and maximum with the share of moves over one second. The arena records only
each game's total; a per-move budget ("at most 1 s per move") needs the tail. Run it on an idle
machine: the figures are wall-clock times.

    python experiments/studies/move_times.py --agent mcts-pimc --games 10 --seed 99
"""

from __future__ import annotations

import argparse

import numpy as np
from tqdm import tqdm

from rummyai.agents import make_agent_from_spec
from rummyai.arena.duplicate import GameTask, derive_seed
from rummyai.arena.play import play_game
from rummyai.engine import game


def decision_times(agent_spec: str, opponent_spec: str, variant: str, games: int, seed: int) -> list[float]:
    """Seconds of each of the agent's decisions over `games` seeded 2-player games, seats alternating
    (the arena's own `play_game`, one round each)."""
    warm = game.new_match(variant, 2, seed, options=["rounds=1"])  # loads the compiled solver: untimed
    make_agent_from_spec(agent_spec).act(game.view(warm, warm.to_act), game.legal_moves(warm))
    times: list[float] = []
    for number in tqdm(range(games), desc=variant, unit="game"):
        seats = (agent_spec, opponent_spec) if number % 2 == 0 else (opponent_spec, agent_spec)
        task = GameTask(
            set_index=number // 2,
            seating_index=number % 2,
            seats=seats,
            match_seed=derive_seed(seed, number // 2),
            agent_seeds=(derive_seed(seed, number, 0), derive_seed(seed, number, 1)),
            variant=variant,
            options=("rounds=1",),
        )

        def record(seat: int, seconds: float, timed: int = number % 2) -> None:
            if seat == timed:
                times.append(seconds)

        play_game(task, record)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--agent", default="mcts-pimc", help="agent spec to time")
    parser.add_argument("--opponent", default="greedy", help="agent spec of the other seat")
    parser.add_argument("--variant", default="rummikub")
    parser.add_argument("--games", type=int, default=10, help="games (each deal twice, seats swapped)")
    parser.add_argument("--seed", type=int, default=99)
    args = parser.parse_args()
    times = np.array(decision_times(args.agent, args.opponent, args.variant, args.games, args.seed))
    p50, p90, p99 = np.quantile(times, [0.5, 0.9, 0.99])
    print(f"{args.agent} against {args.opponent}, {args.variant}: {len(times)} moves in {args.games} games")
    print(
        f"seconds per move: mean {times.mean():.3f}, median {p50:.3f}, p90 {p90:.3f}, p99 {p99:.3f}, "
        f"max {times.max():.3f}; over 1 s: {(times > 1).mean():.1%}"
    )


if __name__ == "__main__":
    main()
