"""CPU milliseconds per greedy move as mcts-pimc's rollouts make them: view, solver play, apply.

Plays seeded 2-player one-round games in which every seat makes greedy's move the way
`MCTSAgent.greedy_move` does (the legal moves listed only when greedy does not play) and times the
whole turn with the process's CPU clock; prints the mean per move and per part of the turn.

    .venv/bin/python experiments/benchmarks/greedy_bench.py --variant rummikub --games 20 --seed 1
"""

from __future__ import annotations

import argparse
import json
import time

from tqdm import tqdm

from rummyai.agents.greedy import GreedyAgent, draw_or_best
from rummyai.agents.solver_play import seat_position
from rummyai.engine import game
from rummyai.engine.moves import Move


def main(argv: list[str] | None = None) -> int:
    """Print the mean CPU ms per greedy move, and of its view, solve and apply parts, as JSON."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variant", default="rummikub")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    agent = GreedyAgent("cards")
    parts = {"view": 0.0, "play": 0.0, "apply": 0.0}
    moves = 0
    game.new_match(args.variant, 2, args.seed)  # load the variant's modules before timing
    for g in tqdm(range(args.games), desc="games"):
        state = game.new_match(args.variant, 2, args.seed + g, options=["rounds=1"], max_turns=400)
        while not state.match_over:
            t0 = time.process_time()
            view = game.view(state, state.to_act)
            t1 = time.process_time()
            move: Move | None
            if view.get("phase") == "give":
                move = agent.act(view, game.legal_moves(state))
            else:
                move = agent.best_play(seat_position(view))
                if move is None:
                    move = draw_or_best(view, game.legal_moves(state))
            t2 = time.process_time()
            state = game.apply(state, move)
            t3 = time.process_time()
            parts["view"] += t1 - t0
            parts["play"] += t2 - t1
            parts["apply"] += t3 - t2
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
