"""Learning curve: win rate against greedy of every saved epoch of the scorer, as a plot.

For each ``scorer_<epoch>.npz`` in `--scorers` the `learned` agent with those weights plays
`--sets` duplicate sets of 2-player one-round games of `--variant` (default rummikub) against
`greedy` (each deal twice, seats swapped; deals from `--seed`, the training-diagnostic stream,
never the pre-registered seeds).
Every finished set is appended to ``<out>/curve.jsonl`` (the same command resumes), and
``<out>/curve.png`` plots the win rate per epoch with a 95% bootstrap interval over sets.

    nice -n 19 .venv/bin/python experiments/training/curve.py --scorers runs/learn/scorer --sets 40
"""

from __future__ import annotations

import argparse
import json
from importlib.metadata import version
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from script_guard import check_out_dir, check_variant, guarded
from tqdm import tqdm

from rummyai.agents import make_agent
from rummyai.agents.learned import LearnedAgent
from rummyai.engine import game
from rummyai.variants import ONE_ROUND


def play_set(weights: Path, seed: int, variant: str = "rummikub") -> float:
    """The learner's share of wins over one deal played twice (seats swapped; a shared win is half)."""
    wins = 0.0
    for learner_seat in (0, 1):
        agents = [make_agent("greedy"), make_agent("greedy")]
        agents[learner_seat] = LearnedAgent(weights=str(weights))
        state = game.new_match(variant, 2, seed, options=ONE_ROUND[variant])
        for k, agent in enumerate(agents):
            agent.reset(seed * 2 + k)
        while not state.match_over:
            seat = state.to_act
            state = game.apply(state, agents[seat].act(game.view(state, seat), game.legal_moves(state)))
        if learner_seat in state.winners:
            wins += 1.0 / len(state.winners)
    return wins / 2


def bootstrap(values: list[float], rng: np.random.Generator) -> tuple[float, float]:
    """95% percentile bootstrap interval of the mean."""
    data = np.asarray(values)
    means = data[rng.integers(len(data), size=(2000, len(data)))].mean(axis=1)
    return float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


def main(argv: list[str] | None = None) -> int:
    """Play the missing sets, then write the plot."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scorers", required=True, help="folder of scorer_<epoch>.npz files")
    parser.add_argument("--sets", type=int, default=40)
    parser.add_argument("--seed", type=int, default=8_100_000)
    parser.add_argument("--every", type=int, default=1, help="evaluate every n-th epoch (and the last)")
    parser.add_argument("--out", default="", help="output folder (default: --scorers)")
    parser.add_argument("--variant", default="rummikub", help="variant the sets are played in")
    args = parser.parse_args(argv)
    check_variant(parser, args.variant)
    files = sorted(Path(args.scorers).glob("scorer_*.npz"))
    if not files:
        parser.error(f"no scorer_<epoch>.npz files in {args.scorers}")
    out = check_out_dir(parser, args.out or args.scorers)
    files = [f for k, f in enumerate(files) if k % args.every == 0 or f == files[-1]]
    log = out / "curve.jsonl"
    done: dict[int, dict[int, float]] = {}
    if log.exists():
        for line in log.read_text().splitlines():
            row = json.loads(line)
            done.setdefault(row["epoch"], {})[row["set"]] = row["win"]
    todo = [
        (f, s) for f in files for s in range(args.sets) if s not in done.get(int(f.stem.split("_")[1]), {})
    ]
    with open(log, "a") as sink:
        for file, s in tqdm(todo, desc="sets", unit="set"):
            epoch = int(file.stem.split("_")[1])
            win = play_set(file, args.seed + s, args.variant)
            done.setdefault(epoch, {})[s] = win
            sink.write(json.dumps({"epoch": epoch, "set": s, "seed": args.seed + s, "win": win}) + "\n")
            sink.flush()
    rng = np.random.default_rng(0)
    epochs = sorted(done)
    rates = [float(np.mean(list(done[e].values()))) for e in epochs]
    lows, highs = (
        zip(*(bootstrap(list(done[e].values()), rng) for e in epochs), strict=True) if epochs else ((), ())
    )
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.errorbar(
        epochs, rates, yerr=[np.subtract(rates, lows), np.subtract(highs, rates)], fmt="o-", capsize=3
    )
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("saved weights: train_bc.py epoch or ppo_selfplay.py update")
    ax.set_ylabel("win rate vs greedy")
    ax.set_title(f"learned vs greedy, 2-player {args.variant}, {args.sets} sets per point", fontsize=10)
    fig.text(
        0.99, 0.01, f"experiments/training/curve.py, rummyai {version('rummyai')}", ha="right", fontsize=6
    )
    fig.tight_layout()
    fig.savefig(out / "curve.png", dpi=120)
    for e, r, lo, hi in zip(epochs, rates, lows, highs, strict=True):
        print(f"epoch {e}: win rate {r:.3f} [{lo:.3f}, {hi:.3f}] over {len(done[e])} sets")
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
