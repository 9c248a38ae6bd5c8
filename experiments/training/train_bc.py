"""Fit the `learned` agent's candidate scorer to expert labels (behaviour cloning / DAgger rounds).

Reads the game files of `collect.py` (one or more folders), turns every labelled decision into
the scorer's input rows (`rummyai.agents.learned.inputs`: scaled candidate features and the
position summary, one row per slot) and trains the same network in torch (CPU). Two targets:
`--loss choice`, a softmax over the valid slots and cross-entropy with the expert's slot; and
`--loss advantage` (default where the files have them), the expert's mean rollout utility of
every slot it searched, centred per decision: the scores learn how much better each move is than
the others (ties between moves stay ties, where a choice alone would teach an arbitrary order).
The network starts as `greedy_scorer` (greedy's move wins), so with little data it stays close
to greedy. One game in ten (by number) is held out; each epoch prints the held-out agreement with
the expert beside greedy's, and the expert's utility of the network's pick above greedy's move
(`gain_over_greedy`, over held-out decisions where the expert searched both).

Every epoch writes ``<out>/checkpoint.pt`` (model, optimiser, epoch; the same command resumes
from it) and the numpy weights ``<out>/scorer_<epoch>.npz`` (what `curve.py` evaluates), and
``<out>/log.jsonl`` gets a line. Extra `learn` (torch).

    nice -n 19 .venv/bin/python experiments/training/train_bc.py --data runs/learn/bc --out runs/learn/scorer
    .venv/bin/python experiments/training/train_bc.py --data runs/learn/bc --out runs/learn/scorer \\
        --export rummyai/agents/weights/learned_rummikub.npz    # ship the last epoch
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
from script_guard import guarded
from tqdm import tqdm

from rummyai.agents.learned import from_torch, greedy_scorer, inputs, save_scorer, to_torch
from rummyai.envs import FEATURES

IS_GREEDY = FEATURES.index("is_greedy")
#: Score units per unit of expert utility in the advantage fit (utilities differ by hundredths).
UTILITY_SCALE = 10.0


def columns(obs: dict[str, Any]) -> tuple[str, ...]:
    """The candidate columns recorded games hold: all of `FEATURES`, or the v1 environments' first ones."""
    return FEATURES[: obs["candidates"].shape[1]]


def load_games(folders: list[str]) -> tuple[list[dict[str, Any]], list[int]]:
    """Decisions (input rows, mask, label) and each decision's game number, labelled ones only."""
    rows: list[dict[str, Any]] = []
    games: list[int] = []
    for folder in folders:
        for file in sorted(Path(folder).glob("game_*[0-9].npz")):
            number = int(file.stem.split("_")[1])
            with np.load(file) as data:
                labels = data["labels"]
                for k, label in enumerate(labels):
                    if label < 0:
                        continue
                    obs = {
                        key: data[key][k]
                        for key in data.files
                        if data[key].ndim and len(data[key]) == len(labels)
                    }
                    rows.append(
                        {
                            "x": inputs(obs, columns(obs)).astype(np.float32),
                            "features": columns(obs),
                            "mask": obs["action_mask"].astype(bool),
                            "label": np.int64(label),
                            "greedy": np.int64(np.argmax(obs["candidates"][:, IS_GREEDY])),
                            "values": (
                                data["expert_values"][k].astype(np.float32)
                                if "expert_values" in data.files
                                else np.full(len(obs["action_mask"]), np.nan, np.float32)
                            ),
                        }
                    )
                    games.append(number)
    return rows, games


def main(argv: list[str] | None = None) -> int:
    """Train (or resume), writing a checkpoint and numpy weights every epoch."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", nargs="+", required=True, help="folders of collect.py game files")
    parser.add_argument("--out", required=True)
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--weight-decay", type=float, default=1e-4)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--export", default="", help="also write the last epoch's weights here")
    parser.add_argument(
        "--loss",
        choices=("advantage", "choice"),
        default="advantage",
        help="fit the expert's centred utilities (decisions without them: its choice) or its choice only",
    )
    parser.add_argument(
        "--choice-weight", type=float, default=0.1, help="weight of the choice term with advantage"
    )
    args = parser.parse_args(argv)
    import torch

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows, games = load_games(args.data)
    if not rows:
        parser.error(f"no labelled decisions in {args.data}")
    features = rows[0]["features"]
    if any(r["features"] != features for r in rows):
        parser.error(f"the games in {args.data} were recorded with different candidate columns")
    held = np.array([g % 10 == 0 for g in games])
    x = torch.tensor(np.stack([r["x"] for r in rows]))
    mask = torch.tensor(np.stack([r["mask"] for r in rows]))
    label = torch.tensor(np.stack([r["label"] for r in rows]))
    greedy = torch.tensor(np.stack([r["greedy"] for r in rows]))
    values = torch.tensor(np.stack([r["values"] for r in rows]))
    searched = ~torch.isnan(values) & mask
    centred = torch.where(searched, values, 0.0)
    counts = searched.sum(-1, keepdim=True).clamp(min=1)
    centred = torch.where(searched, centred - centred.sum(-1, keepdim=True) / counts, 0.0)
    has_values = searched.sum(-1) >= 2
    train_idx = torch.tensor(np.flatnonzero(~held))
    val_idx = torch.tensor(np.flatnonzero(held))
    model = to_torch(greedy_scorer(args.hidden, args.seed, features))
    optimiser = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    start = 0
    checkpoint = out / "checkpoint.pt"
    if checkpoint.exists():
        saved = torch.load(checkpoint, weights_only=False)
        try:
            model.load_state_dict(saved["model"])
        except RuntimeError:
            parser.error(f"{checkpoint} holds a network of another shape: resume with its --hidden")
        optimiser.load_state_dict(saved["optimiser"])
        start = saved["epoch"] + 1

    def logits(idx: Any) -> Any:
        scores = model(x[idx]).squeeze(-1)
        return scores.masked_fill(~mask[idx], -1e9)

    def loss_of(idx: Any) -> Any:
        scores = model(x[idx]).squeeze(-1)
        choice = torch.nn.functional.cross_entropy(scores.masked_fill(~mask[idx], -1e9), label[idx])
        if args.loss == "choice":
            return choice
        fit, with_values = searched[idx], has_values[idx]
        mean = torch.where(fit, scores, 0.0).sum(-1, keepdim=True) / counts[idx]
        error = torch.where(fit, scores - mean - centred[idx] * UTILITY_SCALE, 0.0)
        regression = (error**2).sum(-1)[with_values].sum() / max(1, int(with_values.sum()))
        return regression + args.choice_weight * choice

    def gain_over_greedy(pick: Any, idx: Any) -> tuple[float, float]:
        """Mean expert utility of `pick` minus greedy's slot, and the share of decisions it covers."""
        rows_ = torch.arange(len(idx))
        v = values[idx]
        chosen, base = v[rows_, pick], v[rows_, greedy[idx]]
        known = ~torch.isnan(chosen) & ~torch.isnan(base)
        if not bool(known.any()):
            return float("nan"), 0.0
        return float((chosen - base)[known].mean()), float(known.float().mean())

    generator = torch.Generator().manual_seed(args.seed)
    if start and "generator" in saved:
        generator.set_state(saved["generator"])  # the shuffles an uninterrupted run would make next
    print(f"{len(rows)} labelled decisions ({int(held.sum())} held out) from {len(set(games))} games")
    for epoch in tqdm(range(start, args.epochs), desc="epochs", initial=start, total=args.epochs):
        model.train()
        order = train_idx[torch.randperm(len(train_idx), generator=generator)]
        total = 0.0
        for i in range(0, len(order), args.batch):
            idx = order[i : i + args.batch]
            loss = loss_of(idx)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            total += loss.item() * len(idx)
        model.eval()
        with torch.no_grad():
            pick = logits(val_idx).argmax(-1) if len(val_idx) else torch.tensor([])
            agree = float((pick == label[val_idx]).float().mean()) if len(val_idx) else float("nan")
            greedy_agree = (
                float((greedy[val_idx] == label[val_idx]).float().mean()) if len(val_idx) else float("nan")
            )
            gain, covered = gain_over_greedy(pick, val_idx) if len(val_idx) else (float("nan"), 0.0)
            expert_gain, _ = (
                gain_over_greedy(label[val_idx], val_idx) if len(val_idx) else (float("nan"), 0.0)
            )
        meta = {
            "epoch": epoch,
            "decisions": len(rows),
            "data": args.data,
            "loss": args.loss,
            "held_out_agreement": agree,
            "gain_over_greedy": gain,
        }
        scorer = from_torch(model, meta, features)
        save_scorer(out / f"scorer_{epoch:03d}.npz", scorer)
        torch.save(
            {
                "model": model.state_dict(),
                "optimiser": optimiser.state_dict(),
                "epoch": epoch,
                "generator": generator.get_state(),
            },
            checkpoint,
        )
        figures = {
            "epoch": epoch,
            "train_loss": total / max(1, len(order)),
            "held_out_agreement": agree,
            "greedy_agreement": greedy_agree,
            "gain_over_greedy": gain,
            "gain_covers": covered,
            "expert_gain_over_greedy": expert_gain,
        }
        # a figure with nothing to measure (no held-out decision, no expert values) is null:
        # JSON has no NaN, and strict readers refuse the bare token
        line = {key: None if isinstance(x, float) and math.isnan(x) else x for key, x in figures.items()}
        with open(out / "log.jsonl", "a") as log:
            log.write(json.dumps(line) + "\n")
        tqdm.write(json.dumps(line))
    if args.export:
        last = sorted(out.glob("scorer_*.npz"))[-1]
        Path(args.export).write_bytes(last.read_bytes())
        print(f"exported {last} to {args.export}")
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
