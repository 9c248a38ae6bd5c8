"""CPU milliseconds per greedy move as mcts-pimc's rollouts make them: the move, then its apply.

Plays seeded 2-player one-round games in which every seat makes the rollout policy's move
(`MCTSAgent.greedy_move` of the `mcts-pimc` preset: greedy's solver play, else the draw or the
best listed play) and times each part with the process's CPU clock; prints the mean per move.

    .venv/bin/python experiments/benchmarks/greedy_bench.py --variant rummikub --games 20 --seed 1
"""

from __future__ import annotations

import argparse
import json
import time

from tqdm import tqdm

from rummyai.agents.mcts import pimc_agent
from rummyai.engine import game


def main(argv: list[str] | None = None) -> int:
    """Print the mean CPU ms per greedy move and of its two parts, as JSON."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variant", default="rummikub")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    agent = pimc_agent()
    parts = {"move": 0.0, "apply": 0.0}
    moves = 0
    game.new_match(args.variant, 2, args.seed)  # load the variant's modules before timing
    for g in tqdm(range(args.games), desc="games"):
        state = game.new_match(args.variant, 2, args.seed + g, options=["rounds=1"], max_turns=400)
        while not state.match_over:
            t0 = time.process_time()
            move = agent.greedy_move(state)
            t1 = time.process_time()
            state = game.apply(state, move)
            t2 = time.process_time()
            parts["move"] += t1 - t0
            parts["apply"] += t2 - t1
            moves += 1
    total = sum(parts.values())
    out = {
        "variant": args.variant,
        "games": args.games,
        "moves": moves,
        "cpu_ms_per_move": round(1000 * total / moves, 3),
        **{f"{k}_ms": round(1000 * v / moves, 3) for k, v in parts.items()},
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
