"""Train the value agent's model: who wins, from what one seat sees, learned from greedy self-play.

Plays seeded greedy-vs-greedy games of 2-player `rummikub` (one round each). After every move the
position the mover is left in is described by `rummyai.agents.value.features` and labelled with the
round's result for the mover (win 1, loss 0, no winner 0.5). With `--branch P`, at a fraction P of
the decisions where the value agent would have several candidate plays, every candidate is also
played and the game continued by greedy to the end `--rollouts` times (the stock reshuffled, the
same shuffles for every candidate): the candidate's afterstate is then labelled with its mean
result, which teaches the model about positions greedy itself never chooses, and measures how well
the model ranks the candidates of one decision (the choice the agent actually makes).

With `--data FILE`, every game's rows are written to `FILE.parts/` as it ends, so a stopped run
resumes where it stopped (the same command); the finished data is `FILE`, stamped with the
settings that made it (`--games`, `--seed`, `--branch`, `--rollouts`), and a later run reads it
only with the same settings.

Games are split by deal into training (first `1 - --held-out` part) and held-out; the script fits a
logistic regression and a one-hidden-layer tanh network (numpy, full-batch Adam with L2), reports
held-out log-loss, Brier, accuracy and correlation with the result (and the heuristic
`mcts_state.evaluate`'s correlation for comparison), and saves the better model on held-out
log-loss to `--out` as fitted on the training games, so the held-out figures describe it.

    python experiments/train_value.py --games 1500 --branch 0.25 --rollouts 4 --seed 7100 \
        --out rummyai/agents/weights/value_rummikub.npz
"""

from __future__ import annotations

import argparse
import json
import math
import os
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import numpy.typing as npt
from tqdm import tqdm

from rummyai.agents.greedy import GreedyAgent
from rummyai.agents.mcts_state import evaluate
from rummyai.agents.solver_play import seat_position
from rummyai.agents.value import (
    FEATURES,
    ValueAgent,
    ValueModel,
    after_play,
    features,
    save_model,
    seen_from_view,
)
from rummyai.engine import game
from rummyai.engine.moves import Play
from rummyai.engine.state import GameState

Array = npt.NDArray[np.float64]


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=200, help="greedy self-play games (deals)")
    parser.add_argument("--seed", type=int, default=7100, help="first deal's seed (deal g uses seed + g)")
    parser.add_argument("--branch", type=float, default=0.0, help="fraction of decisions branched")
    parser.add_argument("--rollouts", type=int, default=4, help="greedy continuations per branched candidate")
    parser.add_argument("--held-out", type=float, default=0.25, help="fraction of games held out")
    parser.add_argument(
        "--hidden", type=int, default=16, help="hidden units of the network (0: logistic only)"
    )
    parser.add_argument(
        "--data",
        default="",
        help="the played data (.npz): read if present (made with the same settings), else played, "
        "written game by game to DATA.parts/ (a stopped run resumes) and then to DATA",
    )
    parser.add_argument("--out", default="", help="where to save the chosen model (.npz)")
    return parser.parse_args()


@dataclass
class Data:
    """Afterstate features with their labels, the game each came from, and branched decision groups."""

    x: list[Array] = field(default_factory=list)
    y: list[float] = field(default_factory=list)
    weight: list[float] = field(default_factory=list)
    game: list[int] = field(default_factory=list)
    heuristic: list[float] = field(default_factory=list)
    #: for branched rows: the decision's id (rows of one decision are that decision's candidates), else -1
    group: list[int] = field(default_factory=list)
    #: 1 for the row of greedy's own candidate in a branched decision
    greedy: list[int] = field(default_factory=list)

    def add(self, x: Array, y: float, w: float, g: int, h: float, group: int = -1, greedy: int = 0) -> None:
        """Append one row."""
        self.x.append(x)
        self.y.append(y)
        self.weight.append(w)
        self.game.append(g)
        self.heuristic.append(h)
        self.group.append(group)
        self.greedy.append(greedy)

    def arrays(self) -> dict[str, Array]:
        """The rows as numpy arrays (the cache format)."""
        return {
            "x": np.asarray(self.x),
            "y": np.asarray(self.y),
            "weight": np.asarray(self.weight),
            "game": np.asarray(self.game, dtype=float),
            "heuristic": np.asarray(self.heuristic),
            "group": np.asarray(self.group, dtype=float),
            "greedy": np.asarray(self.greedy, dtype=float),
        }


def result_for(state: GameState, seat: int) -> float:
    """The finished round's result for `seat`: 1 win, 0 loss, 0.5 when nobody won."""
    winner = state.history[0].winner
    return 0.5 if winner is None else float(winner == seat)


def finish(state: GameState, greedy: GreedyAgent) -> GameState:
    """Play the round out with greedy for every seat."""
    while not state.history:
        state = game.apply(state, greedy.act(game.view(state, state.to_act), game.legal_moves(state)))
    return state


def branch(
    state: GameState, plays: list[Play], rollouts: int, rng: np.random.Generator, greedy: GreedyAgent
) -> list[float]:
    """Mean result for the mover of each play, continued by greedy on `rollouts` reshuffled stocks."""
    seat = state.to_act
    orders = [rng.permutation(len(state.round.stock)) for _ in range(rollouts)]
    means = []
    for play in plays:
        total = 0.0
        for order in orders:
            stock = tuple(state.round.stock[k] for k in order)
            start = replace(state, round=replace(state.round, stock=stock))
            total += result_for(finish(game.apply(start, play), greedy), seat)
        means.append(total / rollouts)
    return means


def play_games(args: argparse.Namespace, parts: Path | None = None) -> dict[str, Array]:
    """Greedy self-play games with their afterstate rows and the branched decisions; with `parts`,
    each game's rows are written there as it ends and games already there are read, not played."""
    greedy = GreedyAgent()
    chooser = ValueAgent(weights=_identity_model(), alternatives=4)
    chunks: list[dict[str, Array]] = []
    groups = 0
    if parts is not None:
        parts.mkdir(parents=True, exist_ok=True)
    for g in tqdm(range(args.games), desc="games", unit="game"):
        part = None if parts is None else parts / f"game-{g:06d}.npz"
        if part is not None and part.exists():
            with np.load(part) as stored:
                chunk = {k: stored[k] for k in stored.files}
        else:
            chunk = play_game(args, g, groups, greedy, chooser)
            if part is not None:
                tmp = part.with_suffix(".tmp.npz")
                np.savez_compressed(tmp, **chunk)  # type: ignore[arg-type]
                os.replace(tmp, part)
        chunks.append(chunk)
        branched = chunk["group"][chunk["group"] >= 0]
        groups = int(branched.max()) + 1 if branched.size else groups
    return {k: np.concatenate([c[k] for c in chunks]) for k in chunks[0]} if chunks else Data().arrays()


def play_game(
    args: argparse.Namespace, g: int, groups: int, greedy: GreedyAgent, chooser: ValueAgent
) -> dict[str, Array]:
    """Game `g`'s rows; its branched decisions are numbered from `groups` on."""
    data = Data()
    state = game.new_match("rummikub", 2, args.seed + g, options=["rounds=1"])
    rng = np.random.default_rng([args.seed, g, 0x76616C])
    pending: list[tuple[int, Array, float]] = []
    while not state.history:
        seat = state.to_act
        view = game.view(state, seat)
        if args.branch > 0 and view["phase"] == "normal" and rng.random() < args.branch:
            plays = chooser.candidates(seat_position(view))
            if len(plays) > 1:
                seen = seen_from_view(view)
                means = branch(state, plays, args.rollouts, rng, greedy)
                for k, (play, mean) in enumerate(zip(plays, means, strict=True)):
                    data.add(
                        features(after_play(seen, play)),
                        mean,
                        args.rollouts,
                        g,
                        math.nan,
                        groups,
                        int(k == 0),
                    )
                groups += 1
        state = game.apply(state, greedy.act(view, game.legal_moves(state)))
        if not state.history:
            after = game.view(state, seat)
            pending.append((seat, features(seen_from_view(after)), evaluate(state, None, seat)))
    for seat, x, h in pending:
        data.add(x, result_for(state, seat), 1.0, g, h)
    return data.arrays()


SETTINGS = ("games", "seed", "branch", "rollouts")  # what the played data depends on


def load_or_play(args: argparse.Namespace) -> dict[str, Array]:
    """The data: read from `--data` when it was made with these settings (refused otherwise),
    else played (resuming from `--data`'s parts) and written there."""
    settings = json.dumps({k: getattr(args, k) for k in SETTINGS}, sort_keys=True)
    cache = Path(args.data) if args.data else None
    if cache is None:
        return play_games(args)
    if cache.exists():
        with np.load(cache) as stored:
            arrays = {k: stored[k] for k in stored.files}
        made = str(arrays.pop("settings", "unknown settings"))
        if made != settings:
            raise SystemExit(f"{cache} holds data made with {made}, not {settings}: use another --data")
        print(f"read {len(arrays['y'])} rows from {cache}")
        return arrays
    arrays = play_games(args, cache.with_name(cache.name + ".parts"))
    tmp = cache.with_suffix(".tmp.npz")
    np.savez_compressed(tmp, settings=np.array(settings), **arrays)  # type: ignore[arg-type]
    os.replace(tmp, cache)
    return arrays


def _identity_model() -> ValueModel:
    """A placeholder model (the data collection only uses the agent's candidate list)."""
    n = len(FEATURES)
    return ValueModel(np.zeros(n), np.ones(n), ((np.zeros((n, 1)), np.zeros(1)),))


# --------------------------------------------------------------------------- fitting
def fit(
    x: Array, y: Array, w: Array, hidden: int, seed: int, steps: int = 3000, l2: float = 1e-3
) -> ValueModel:
    """A logistic regression (`hidden` = 0) or a one-hidden-layer tanh network fitted by Adam
    on weighted cross-entropy with L2 on the weights."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    z = (x - mean) / scale
    rng = np.random.default_rng(seed)
    shapes = [(z.shape[1], 1)] if hidden == 0 else [(z.shape[1], hidden), (hidden, 1)]
    params: list[Array] = []
    for a, b in shapes:
        params += [rng.normal(0, 1 / math.sqrt(a), (a, b)), np.zeros(b)]
    moments = [np.zeros_like(p) for p in params] + [np.zeros_like(p) for p in params]
    wn = w / w.sum()
    for t in range(1, steps + 1):
        grads = _gradients(params, z, y, wn, l2)
        for k, (p, grad) in enumerate(zip(params, grads, strict=True)):
            m, v = moments[k], moments[len(params) + k]
            m *= 0.9
            m += 0.1 * grad
            v *= 0.999
            v += 0.001 * grad * grad
            p -= 0.01 * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    layers = tuple((params[k], params[k + 1]) for k in range(0, len(params), 2))
    return ValueModel(mean, scale, layers)


def _gradients(params: list[Array], z: Array, y: Array, wn: Array, l2: float) -> list[Array]:
    """Gradients of the weighted cross-entropy plus L2 for a 1- or 2-layer network."""
    if len(params) == 2:
        weight, bias = params
        p = 1 / (1 + np.exp(-(z @ weight + bias)[:, 0]))
        d = ((p - y) * wn)[:, None]
        return [z.T @ d + l2 * weight, d.sum(axis=0)]
    w0, b0, w1, b1 = params
    h = np.tanh(z @ w0 + b0)
    p = 1 / (1 + np.exp(-(h @ w1 + b1)[:, 0]))
    d = ((p - y) * wn)[:, None]
    dh = (d @ w1.T) * (1 - h * h)
    return [z.T @ dh + l2 * w0, dh.sum(axis=0), h.T @ d + l2 * w1, d.sum(axis=0)]


def scores(model: ValueModel, x: Array, y: Array, w: Array) -> dict[str, float]:
    """Weighted log-loss and Brier, accuracy on decided rows, correlation of p with y."""
    p = np.clip(model.predict(x), 1e-6, 1 - 1e-6)
    wn = w / w.sum()
    loss = float(-(wn * (y * np.log(p) + (1 - y) * np.log(1 - p))).sum())
    decided = (y == 0) | (y == 1)
    return {
        "log_loss": loss,
        "brier": float((wn * (p - y) ** 2).sum()),
        "accuracy": float(((p[decided] > 0.5) == (y[decided] == 1)).mean()),
        "corr": float(np.corrcoef(p, y)[0, 1]),
    }


def ranking(model: ValueModel, x: Array, y: Array, group: Array, greedy: Array) -> dict[str, float]:
    """On branched decisions: the mean rollout result of the model's pick, of greedy's play and of
    the best candidate, and how often the model picks greedy's play."""
    picked, base, best, same = [], [], [], []
    p = model.predict(x)
    for g in np.unique(group):
        rows = np.flatnonzero(group == g)
        pick = rows[int(np.argmax(p[rows]))]
        first = rows[greedy[rows] == 1][0]
        picked.append(y[pick])
        base.append(y[first])
        best.append(y[rows].max())
        same.append(float(pick == first))
    diff = np.asarray(picked) - np.asarray(base)
    return {
        "decisions": float(len(picked)),
        "model_pick": float(np.mean(picked)),
        "greedy_pick": float(np.mean(base)),
        "gain": float(diff.mean()),
        "gain_se": float(diff.std(ddof=1) / math.sqrt(len(diff))) if len(diff) > 1 else math.nan,
        "oracle": float(np.mean(best)),
        "same_as_greedy": float(np.mean(same)),
    }


def main() -> None:
    args = parse_args()
    arrays = load_or_play(args)
    x, y, w = arrays["x"], arrays["y"], arrays["weight"]
    games, group, greedy_row = arrays["game"], arrays["group"], arrays["greedy"]
    cut = int(games.max() * (1 - args.held_out)) if len(games) else 0
    train, test = games <= cut, games > cut
    natural_test = test & (group < 0)
    branched_test = test & (group >= 0)
    print(
        f"{len(y)} rows ({int((group < 0).sum())} natural, {int((group >= 0).sum())} branched); "
        f"held out: games > {cut}"
    )
    h = arrays["heuristic"][natural_test]
    print(f"heuristic evaluate, held-out natural rows: corr {np.corrcoef(h, y[natural_test])[0, 1]:+.3f}")
    report: dict[str, object] = {}
    best_name, best_loss, best = "", math.inf, None
    kinds = [("logistic", 0)] + ([(f"mlp{args.hidden}", args.hidden)] if args.hidden > 0 else [])
    for name, hidden in kinds:
        model = fit(x[train], y[train], w[train], hidden, args.seed)
        natural = scores(model, x[natural_test], y[natural_test], w[natural_test])
        line = f"{name}: held-out natural " + ", ".join(f"{k} {v:.4f}" for k, v in natural.items())
        entry: dict[str, object] = {"natural": natural}
        if branched_test.any():
            ranked = ranking(
                model, x[branched_test], y[branched_test], group[branched_test], greedy_row[branched_test]
            )
            line += "\n    branched decisions: " + ", ".join(f"{k} {v:.4f}" for k, v in ranked.items())
            entry["branched"] = ranked
        print(line)
        report[name] = entry
        if natural["log_loss"] < best_loss:
            best_name, best_loss, best = name, natural["log_loss"], model
    if args.out and best is not None:
        meta = json.dumps({"model": best_name, "command": vars(args), "held_out": report})
        save_model(args.out, replace(best, meta=meta))
        print(f"saved {best_name} (fitted on the training games; held-out figures above) to {args.out}")


if __name__ == "__main__":
    main()
