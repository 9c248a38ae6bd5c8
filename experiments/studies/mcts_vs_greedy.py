"""Does MCTS beat greedy? A duplicate-deal tournament of the `mcts` agent against `greedy`.

Runs the arena (`rummyai.arena.run_tournament`: every deal played twice with the seats swapped,
resumable: rerun the same command to extend or finish a run) on 2-player `rummikub` by default,
one deal per duplicate set, and prints the paired result of mcts against greedy: win rate and
mean score margin (positive: mcts scored more), each with its 95% bootstrap interval over sets,
and the seconds per move each agent took. The budget is given in iterations per move so that the
result is reproducible; the seconds per move depend on the machine and its load.

    python experiments/studies/mcts_vs_greedy.py --sets 20                    # a quick look
    python experiments/studies/mcts_vs_greedy.py --sets 400 --workers 2       # a study
    python experiments/studies/mcts_vs_greedy.py --mcts mcts:iterations=60:rollout_turns=4:deviation_z=0
    python experiments/studies/mcts_vs_greedy.py --sets 300 --workers 1 --seed 4242 \
        --mcts mcts:iterations=40:moves=equal:infer=true          # equal-card moves, draw inference
    python experiments/studies/mcts_vs_greedy.py --sets 300 --workers 1 --seed 515151 --mcts value
    python experiments/studies/mcts_vs_greedy.py --sets 300 --workers 1 --seed 626262 \
        --mcts mcts:iterations=80:moves=equal:infer=true:leaf=value:rollout_turns=2

Any agent spec can stand in for `--mcts` (the `value` agent above); the printed names follow it.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from rummyai.arena import run_tournament


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variant", default="rummikub")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--sets", type=int, default=40, help="duplicate sets (deals)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--mcts", default="mcts:iterations=30:rollout_turns=16", help="mcts agent spec")
    parser.add_argument("--baseline", default="greedy", help="baseline agent spec")
    parser.add_argument("--full-matches", action="store_true", help="whole matches, not one deal per set")
    parser.add_argument("--out", default="results/mcts_vs_greedy", help="output folder")
    parser.add_argument("--no-progress", action="store_true")
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    agents = [args.mcts] + [args.baseline] * (args.players - 1)
    options = [] if args.full_matches else ["rounds=1"]
    slug = args.mcts.replace(":", "_").replace("=", "")
    out = Path(args.out) / f"{args.variant}-{args.players}p-{slug}"
    started = time.perf_counter()
    summary = run_tournament(
        args.variant,
        agents,
        args.sets,
        args.players,
        args.seed,
        out,
        workers=args.workers,
        options=options,
        progress=not args.no_progress,
    )
    elapsed = time.perf_counter() - started
    pair = next(p for p in summary.pairs if p.a == args.mcts and p.b == args.baseline)
    low, high = pair.margin_ci
    verdict = "mcts better" if low > 0 else "greedy better" if high < 0 else "no significant difference"
    win_low, win_high = pair.win_ci
    by_wins = (
        "mcts better" if win_low > 0.5 else "greedy better" if win_high < 0.5 else "no significant difference"
    )
    print(f"{args.variant}, {args.players} players: {summary.sets} duplicate sets, {summary.games} games")
    print(
        f"{args.mcts} vs {args.baseline}: win rate {pair.win_rate:.3f} "
        f"[{pair.win_ci[0]:.3f}, {pair.win_ci[1]:.3f}] (95% CI)"
    )
    print(f"mean score margin (mcts - baseline): {pair.margin:+.2f} [{low:+.2f}, {high:+.2f}] (95% CI)")
    print(f"verdict (95%): by score margin {verdict}; by win rate {by_wins}")
    for stats in summary.agents:
        print(
            f"  {stats.agent}: {stats.games} games, mean score {stats.mean_score:+.2f}, "
            f"{stats.ms_per_decision / 1000:.3f} s per move"
        )
    print(f"wall time {elapsed:.0f} s; results and report in {out}")


if __name__ == "__main__":
    main()
