"""Self-play speed of the tile-style engine: random agents, whole matches, figures per variant.

Usage: python experiments/benchmarks/selfplay_bench.py [--matches N] [--players P] [--variants ID ...]

Each match runs `legal_moves`, the agent's choice and `apply` (which validates the move) for
every move. Rhine is timed per round (option rounds=1) so its figures compare with the
one-round variants. Prints matches/second and moves/second, and the command line used.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass

from rummyai.engine import GameState, Move, play_match, random_choice

DEFAULT_VARIANTS = ("rummikub", "rummy-tiles", "rummy-board", "rhine")


@dataclass
class Args:
    """Command-line arguments."""

    matches: int = 100
    players: int = 2
    variants: tuple[str, ...] = DEFAULT_VARIANTS


def parse(argv: list[str]) -> Args:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100, help="matches per variant")
    parser.add_argument("--players", type=int, default=2, help="players per match")
    parser.add_argument("--variants", nargs="+", default=list(DEFAULT_VARIANTS), help="variant ids")
    ns = parser.parse_args(argv)
    return Args(ns.matches, ns.players, tuple(ns.variants))


def bench(variant: str, matches: int, players: int) -> tuple[float, float, float]:
    """(matches/s, moves/s, moves per match) over `matches` seeded random matches."""
    options = {"rounds": 1} if variant == "rhine" else None
    moves = 0

    def count(state: GameState, move: Move) -> None:
        nonlocal moves
        moves += 1

    start = time.process_time()
    for seed in range(matches):
        play_match(variant, players, seed, random_choice, options=options, on_move=count)
    elapsed = time.process_time() - start
    return matches / elapsed, moves / elapsed, moves / matches


def main(argv: list[str] | None = None) -> None:
    args = parse(sys.argv[1:] if argv is None else argv)
    print(
        "command:",
        " ".join(
            ["python", "experiments/benchmarks/selfplay_bench.py", *(sys.argv[1:] if argv is None else argv)]
        ),
    )
    print(f"{args.matches} random matches per variant, {args.players} players, CPU time of this process")
    print(f"{'variant':<13} {'matches/s':>10} {'moves/s':>10} {'moves/match':>12}")
    for variant in args.variants:
        per_match, per_move, length = bench(variant, args.matches, args.players)
        print(f"{variant:<13} {per_match:>10.1f} {per_move:>10.0f} {length:>12.1f}")


if __name__ == "__main__":
    main()
