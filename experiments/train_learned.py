"""Train the `learned` agent's weights with the cross-entropy method against greedy, then evaluate.

The agent (`rummyai.agents.learned`) scores each candidate move with ``c @ W @ s`` (candidate
features c, position features s). Training starts from the matrix that reproduces greedy and
searches offsets to a few entries of W (`TRAINABLE`) with the cross-entropy method (CEM): each
generation samples a population of offsets from a diagonal Gaussian, plays every member on the same
duplicate-dealt 2-player games against greedy (each deal twice, seats swapped: common random
numbers, so the deal's luck cancels out of the comparison between members), and refits the
Gaussian to the elite members. Fitness is the mean score margin over greedy per duplicate set.

Progress goes to ``<out>/progress.json`` after every generation (rerun the same command to resume),
and the current mean is written as the weights file each time. At the end the script evaluates the
weights with the arena (`rummyai.arena.run_tournament`, the real greedy agent) on deals never used
in training and prints the paired win rate and mean score margin with 95% bootstrap intervals.

    nice -n 10 python experiments/train_learned.py                      # reproduce the shipped weights
    python experiments/train_learned.py --generations 2 --population 3 --sets 2 --eval-sets 4 \\
        --weights-out /tmp/w.json --out /tmp/learned                     # a smoke run
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import shlex
import sys
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from rummyai.agents import Agent
from rummyai.agents.greedy import GreedyAgent
from rummyai.agents.learned import (
    CANDIDATE_FEATURES,
    DEFAULT_WEIGHTS,
    STATE_FEATURES,
    LearnedAgent,
    Matrix,
    Weights,
    greedy_weights,
    save_weights,
)
from rummyai.agents.solver_play import SeatPosition
from rummyai.arena import run_tournament
from rummyai.arena.duplicate import derive_seed, match_seed
from rummyai.engine import game
from rummyai.engine.moves import Play
from rummyai.errors import RummyError

#: Entries of W the search may move away from the greedy matrix, as (candidate, state) feature names.
TRAINABLE: tuple[tuple[str, str], ...] = (
    ("draw", "bias"),
    ("draw", "stock"),
    ("draw", "opponent_near_out"),
    ("points", "bias"),
    ("points", "opponent_near_out"),
    ("jokers", "bias"),
    ("jokers", "opponent_near_out"),
    ("cards", "opponent_near_out"),
    ("melds_changed", "bias"),
    ("new_melds", "bias"),
    ("greedy", "bias"),
    ("greedy", "opponent_near_out"),
    ("opens", "bias"),
)
#: Stream tags keeping training deals apart from the evaluation deals (`match_seed`).
TRAIN_STREAM = 0x7EA1


@dataclass
class Args:
    """Command-line arguments (``--name value``; defaults reproduce the shipped weights)."""

    seed: int = field(default=1, metadata={"help": "seeds the population samples and the training deals"})
    variant: str = field(
        default="rummikub", metadata={"help": "tile-style variant to train on (2 players, one deal per game)"}
    )
    generations: int = field(default=8, metadata={"help": "CEM generations"})
    population: int = field(default=8, metadata={"help": "members sampled per generation"})
    elites: int = field(default=3, metadata={"help": "best members the Gaussian is refitted to"})
    sets: int = field(
        default=20,
        metadata={
            "help": "duplicate sets (deals, each played with the seats swapped) per member and generation"
        },
    )
    init_sigma: float = field(
        default=0.25, metadata={"help": "initial standard deviation of every trainable offset"}
    )
    min_sigma: float = field(
        default=0.05,
        metadata={"help": "floor on the standard deviation (keeps the search from collapsing on noise)"},
    )
    smoothing: float = field(
        default=0.7, metadata={"help": "weight of the refitted Gaussian against the previous one"}
    )
    eval_sets: int = field(
        default=200, metadata={"help": "duplicate sets of the final evaluation against greedy"}
    )
    eval_seed: int = field(
        default=90_001,
        metadata={
            "help": "tournament seed of the final evaluation (its deals are checked to be unseen in training)"
        },
    )
    weights_out: str = field(default=str(DEFAULT_WEIGHTS), metadata={"help": "weights file to write"})
    out: str = field(
        default="results/learned", metadata={"help": "folder for progress.json and the evaluation tournament"}
    )
    no_eval: bool = field(default=False, metadata={"help": "skip the final evaluation"})


def parse_args(argv: list[str] | None = None) -> Args:
    """Args from the command line, one ``--flag`` per dataclass field."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    for arg in dataclasses.fields(Args):
        flag = "--" + arg.name.replace("_", "-")
        if arg.type == "bool":
            parser.add_argument(flag, action="store_true", help=arg.metadata["help"])
        else:
            kind = {"int": int, "float": float, "str": str}[str(arg.type)]
            parser.add_argument(
                flag, type=kind, default=arg.default, help=arg.metadata["help"] + " (%(default)s)"
            )
    return Args(**vars(parser.parse_args(argv)))


class CachedGreedy(GreedyAgent):
    """Exactly `greedy`, with its solver answers cached by position (training replays deals a lot)."""

    def __init__(self) -> None:
        super().__init__("cards")
        self.memo: OrderedDict[Any, Play | None] = OrderedDict()

    def best_play(self, position: SeatPosition) -> Play | None:
        """Greedy's play, from the cache when this exact position was solved before."""
        key = (position.variant.id, position.hand, position.table, position.opened)
        if key not in self.memo:
            self.memo[key] = super().best_play(position)
            if len(self.memo) > 100_000:
                self.memo.popitem(last=False)
        return self.memo[key]


def matrix_of(offsets: np.ndarray) -> Matrix:
    """The weight matrix for trainable offsets from the greedy matrix."""
    w = greedy_weights()
    for (row, col), value in zip(TRAINABLE, offsets, strict=True):
        w[CANDIDATE_FEATURES.index(row), STATE_FEATURES.index(col)] += value
    return w


def play_deal(variant: str, deal: int, agents: list[Agent]) -> list[int]:
    """Final scores of one 2-player deal (``rounds=1``) with `agents` in seat order."""
    state = game.new_match(variant, len(agents), deal, options=["rounds=1"])
    for agent in agents:
        agent.reset(deal)
    while not state.match_over:
        seat = state.to_act
        move = agents[seat].act(game.view(state, seat), game.legal_moves(state))
        state = game.apply(state, move)
    return list(state.scores)


def set_margin(variant: str, deal: int, learner: Agent, greedy: Agent) -> float:
    """Learner's mean score margin over greedy on one deal, played from both seats."""
    first = play_deal(variant, deal, [learner, greedy])
    second = play_deal(variant, deal, [greedy, learner])
    return ((first[0] - first[1]) + (second[1] - second[0])) / 2


def training_deals(args: Args, generation: int) -> list[int]:
    """The deals of one generation (shared by all its members: common random numbers)."""
    return [derive_seed(args.seed, TRAIN_STREAM, generation, s) for s in range(args.sets)]


def load_progress(path: Path, args: Args) -> dict[str, Any]:
    """The saved search state, or a fresh one; a file from different arguments is refused."""
    fresh = {
        "args": _search_args(args),
        "generation": 0,
        "mean": [0.0] * len(TRAINABLE),
        "sigma": [args.init_sigma] * len(TRAINABLE),
        "history": [],
    }
    if not path.exists():
        return fresh
    saved: dict[str, Any] = json.loads(path.read_text())
    if saved.get("args") != fresh["args"]:
        raise RummyError(f"{path} was written with other training arguments; use another --out")
    return saved


def _search_args(args: Args) -> dict[str, Any]:
    """The arguments that define the search (a resumed run must use the same)."""
    keep = ("seed", "variant", "population", "elites", "sets", "init_sigma", "min_sigma", "smoothing")
    return {k: getattr(args, k) for k in keep}


def run_generation(
    args: Args,
    generation: int,
    mean: np.ndarray,
    sigma: np.ndarray,
    learner: LearnedAgent,
    greedy: GreedyAgent,
    bar: tqdm,
) -> tuple[np.ndarray, np.ndarray, dict[str, Any]]:
    """Sample, evaluate and refit one CEM generation; returns the new mean, sigma and a log row."""
    rng = np.random.default_rng([args.seed, generation])
    members = mean + sigma * rng.standard_normal((args.population, len(TRAINABLE)))
    deals = training_deals(args, generation)
    fitness = np.zeros(args.population)
    for k, offsets in enumerate(members):
        learner.weights = dataclasses.replace(learner.weights, matrix=matrix_of(offsets))
        fitness[k] = np.mean([set_margin(args.variant, d, learner, greedy) for d in deals])
        bar.update(len(deals))
    order = np.argsort(-fitness, kind="stable")[: args.elites]
    elite = members[order]
    a = args.smoothing
    new_mean = a * elite.mean(axis=0) + (1 - a) * mean
    new_sigma = np.maximum(a * elite.std(axis=0) + (1 - a) * sigma, args.min_sigma)
    row = {
        "generation": generation,
        "fitness_mean": float(fitness.mean()),
        "fitness_best": float(fitness.max()),
        "elite_fitness": float(fitness[order].mean()),
        "fitness": [round(float(f), 3) for f in fitness],
    }
    bar.set_postfix(gen=generation, best=f"{fitness.max():+.2f}", avg=f"{fitness.mean():+.2f}")
    return new_mean, new_sigma, row


def train(args: Args) -> Matrix:
    """Run (or resume) the CEM search and return the final mean's weight matrix."""
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    progress_path = out / "progress.json"
    progress = load_progress(progress_path, args)
    learner = LearnedAgent(weights=Weights(greedy_weights(), {}))
    greedy = CachedGreedy()
    mean = np.asarray(progress["mean"])
    sigma = np.asarray(progress["sigma"])
    start = int(progress["generation"])
    games_per_gen = args.population * args.sets
    bar = tqdm(total=args.generations * games_per_gen, initial=start * games_per_gen, unit="set")
    for generation in range(start, args.generations):
        started = time.perf_counter()
        mean, sigma, row = run_generation(args, generation, mean, sigma, learner, greedy, bar)
        row["seconds"] = round(time.perf_counter() - started, 1)
        progress.update(generation=generation + 1, mean=mean.tolist(), sigma=sigma.tolist())
        progress["history"].append(row)
        progress_path.write_text(json.dumps(progress, indent=1))
        write_weights(args, mean, progress, final=generation + 1 == args.generations)
    bar.close()
    return matrix_of(mean)


def write_weights(args: Args, mean: np.ndarray, progress: dict[str, Any], final: bool) -> None:
    """Write the current mean as the weights file, with how it was made."""
    meta = {
        "trained_on": f"{args.variant}, 2 players, one deal per game, against greedy",
        "method": "cross-entropy method over offsets from the greedy matrix",
        "command": "python experiments/train_learned.py " + shlex.join(sys.argv[1:]),
        "search": progress["args"],
        "generations_done": progress["generation"],
        "complete": final,
        "trainable": [f"{r}*{c}" for r, c in TRAINABLE],
    }
    save_weights(args.weights_out, matrix_of(mean), meta)


def check_unseen(args: Args, generations: int) -> None:
    """Refuse an evaluation whose deals include a training deal."""
    seen = {d for g in range(generations) for d in training_deals(args, g)}
    shared = seen & {match_seed(args.eval_seed, s) for s in range(args.eval_sets)}
    if shared:
        raise RummyError(f"evaluation seed {args.eval_seed} reuses {len(shared)} training deal(s)")


def evaluate(args: Args) -> None:
    """Arena tournament of the written weights against greedy on unseen deals; prints the result."""
    check_unseen(args, args.generations)
    spec = f"learned:weights={Path(args.weights_out).resolve()}"
    started = time.perf_counter()
    summary = run_tournament(
        args.variant,
        [spec, "greedy"],
        args.eval_sets,
        2,
        args.eval_seed,
        Path(args.out) / "eval",
        workers=1,
        options=["rounds=1"],
    )
    pair = next(p for p in summary.pairs if p.a == spec and p.b == "greedy")
    print(
        f"evaluation: {args.variant}, 2 players, {summary.sets} duplicate sets ({summary.games} games), "
        f"seed {args.eval_seed}, {time.perf_counter() - started:.0f} s"
    )
    print(
        f"learned vs greedy: win rate {pair.win_rate:.3f} [{pair.win_ci[0]:.3f}, {pair.win_ci[1]:.3f}], "
        f"mean score margin {pair.margin:+.2f} [{pair.margin_ci[0]:+.2f}, {pair.margin_ci[1]:+.2f}] (95% bootstrap)"
    )


def main() -> None:
    args = parse_args()
    if args.elites > args.population or min(args.population, args.sets, args.generations) < 1:
        raise SystemExit("need population, sets and generations >= 1 and elites <= population")
    matrix = train(args)
    print("weights (rows: candidate features, columns: state features " + ", ".join(STATE_FEATURES) + ")")
    for name, row in zip(CANDIDATE_FEATURES, matrix, strict=True):
        print(f"  {name:>14}: " + " ".join(f"{x:+.3f}" for x in row))
    print(f"written to {args.weights_out}")
    if not args.no_eval:
        evaluate(args)


if __name__ == "__main__":
    main()
