"""How long does an agent think per move? Seconds per decision, as a distribution.

Plays seeded games of one agent against another on one core (the agent in every seat in turn,
as a duplicate set does) and times each of the agent's decisions alone, then prints the mean,
median, p90, p99 and maximum with the share of moves over one second. The arena records only
each game's total; a per-move budget ("at most 1 s per move") needs the tail. Run it on an idle
machine: the figures are wall-clock times.

    python experiments/move_times.py --agent mcts-pimc --games 10 --seed 99
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from tqdm import tqdm

from rummyai.agents import make_agent_from_spec
from rummyai.arena.duplicate import derive_seed
from rummyai.engine import game


def decision_times(agent_spec: str, opponent_spec: str, variant: str, games: int, seed: int) -> list[float]:
    """Seconds of each of the agent's decisions over `games` seeded 2-player games, seats alternating."""
    agent, opponent = make_agent_from_spec(agent_spec), make_agent_from_spec(opponent_spec)
    warm = game.new_match(variant, 2, seed, options=["rounds=1"])  # loads the compiled solver: untimed
    agent.act(game.view(warm, warm.to_act), game.legal_moves(warm))
    times: list[float] = []
    for number in tqdm(range(games), desc=variant, unit="game"):
        seat_of_agent = number % 2
        players = [opponent, opponent]
        players[seat_of_agent] = agent
        for seat, player in enumerate(players):
            player.reset(derive_seed(seed, number, seat))
        state = game.new_match(variant, 2, derive_seed(seed, number // 2), options=["rounds=1"])
        while not state.match_over:
            seat = state.to_act
            legal = game.legal_moves(state)
            view = game.view(state, seat)
            tick = time.perf_counter()
            move = players[seat].act(view, legal)
            if seat == seat_of_agent:
                times.append(time.perf_counter() - tick)
            state = game.apply(state, move)
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
