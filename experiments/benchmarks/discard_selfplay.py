"""Random self-play of the draw-meld-discard variants: whole matches, speed and how rounds end.

Usage: python experiments/benchmarks/discard_selfplay.py [--matches N] [--players 2 4] [--max-turns T]
       [--variants rummy-palace standard black-heart]

Every seat picks uniformly among `legal_moves`; `apply` validates each move. `max_turns` is only
a safety net: the table counts the rounds it cut short (column "cut"). Prints, per variant and
player count: matches/s, moves/s, rounds per match, and the share of each round ending.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import dataclass

from rummyai.engine import play_match, random_choice
from rummyai.engine.state import GameState

DEFAULT_VARIANTS = ("rummy-palace", "standard", "black-heart")


@dataclass
class Args:
    """Command-line arguments."""

    matches: int = 20
    players: tuple[int, ...] = (2, 4)
    max_turns: int = 300
    variants: tuple[str, ...] = DEFAULT_VARIANTS


def parse(argv: list[str]) -> Args:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20, help="matches per variant and player count")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4], help="player counts")
    parser.add_argument("--max-turns", type=int, default=300, help="safety-net turn cap per round")
    parser.add_argument("--variants", nargs="+", default=list(DEFAULT_VARIANTS), help="variant ids")
    ns = parser.parse_args(argv)
    return Args(ns.matches, tuple(ns.players), ns.max_turns, tuple(ns.variants))


def run(variant: str, players: int, matches: int, max_turns: int) -> dict[str, float | str]:
    """Play the matches; figures for one table row."""
    moves = 0
    rounds = 0
    reasons: Counter[str] = Counter()

    def count(state: GameState, move: object) -> None:
        nonlocal moves
        moves += 1

    start = time.perf_counter()
    for seed in range(matches):
        final = play_match(variant, players, seed, random_choice, max_turns=max_turns, on_move=count)
        rounds += len(final.history)
        reasons.update(r.reason + ("/" + r.detail if r.detail else "") for r in final.history)
    elapsed = time.perf_counter() - start
    shares = ", ".join(f"{k} {v / rounds:.0%}" for k, v in reasons.most_common())
    return {
        "variant": variant,
        "players": str(players),
        "matches/s": matches / elapsed,
        "moves/s": moves / elapsed,
        "rounds/match": rounds / matches,
        "cut": str(reasons["max_turns"]),
        "endings": shares,
    }


def main(argv: list[str]) -> None:
    args = parse(argv)
    print("command: python experiments/benchmarks/discard_selfplay.py " + " ".join(argv))
    print(f"{'variant':<14}{'players':>8}{'matches/s':>11}{'moves/s':>9}{'rounds':>8}{'cut':>5}  endings")
    for variant in args.variants:
        for players in args.players:
            row = run(variant, players, args.matches, args.max_turns)
            print(
                f"{variant:<14}{players:>8}{row['matches/s']:>11.2f}{row['moves/s']:>9.0f}"
                f"{row['rounds/match']:>8.1f}{row['cut']:>5}  {row['endings']}"
            )


if __name__ == "__main__":
    main(sys.argv[1:])
