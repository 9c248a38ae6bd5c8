"""Fit the `learned` agent's candidate scorer to expert labels (behaviour cloning / DAgger rounds).

Reads the game files of `collect.py` (one or more folders), turns every labelled decision into
the scorer's input rows (`rummyai.agents.learned.inputs`: scaled candidate features and the
position summary, one row per slot) and trains the same network in torch (CPU): a softmax over
the valid slots, cross-entropy with the expert's slot. The network starts as `greedy_scorer`
(greedy's move wins), so with little data it stays close to greedy. One game in ten (by number)
is held out; each epoch prints the held-out agreement with the expert beside greedy's.

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
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from rummyai.agents.learned import from_torch, greedy_scorer, inputs, save_scorer, to_torch
from rummyai.envs import FEATURES

IS_GREEDY = FEATURES.index("is_greedy")


def load_games(folders: list[str]) -> tuple[list[dict[str, np.ndarray]], list[int]]:
    """Decisions (input rows, mask, label) and each decision's game number, labelled ones only."""
    rows: list[dict[str, np.ndarray]] = []
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
                            "x": inputs(obs, FEATURES).astype(np.float32),
                            "mask": obs["action_mask"].astype(bool),
                            "label": np.int64(label),
                            "greedy": np.int64(np.argmax(obs["candidates"][:, IS_GREEDY])),
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
    args = parser.parse_args(argv)
    import torch

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows, games = load_games(args.data)
    if not rows:
        parser.error(f"no labelled decisions in {args.data}")
    held = np.array([g % 10 == 0 for g in games])
    x = torch.tensor(np.stack([r["x"] for r in rows]))
    mask = torch.tensor(np.stack([r["mask"] for r in rows]))
    label = torch.tensor(np.stack([r["label"] for r in rows]))
    greedy = torch.tensor(np.stack([r["greedy"] for r in rows]))
    train_idx = torch.tensor(np.flatnonzero(~held))
    val_idx = torch.tensor(np.flatnonzero(held))
    model = to_torch(greedy_scorer(args.hidden, args.seed))
    optimiser = torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    start = 0
    checkpoint = out / "checkpoint.pt"
    if checkpoint.exists():
        saved = torch.load(checkpoint, weights_only=False)
        model.load_state_dict(saved["model"])
        optimiser.load_state_dict(saved["optimiser"])
        start = saved["epoch"] + 1

    def logits(idx: Any) -> Any:
        scores = model(x[idx]).squeeze(-1)
        return scores.masked_fill(~mask[idx], -1e9)

    generator = torch.Generator().manual_seed(args.seed)
    print(f"{len(rows)} labelled decisions ({int(held.sum())} held out) from {len(set(games))} games")
    for epoch in tqdm(range(start, args.epochs), desc="epochs", initial=start, total=args.epochs):
        model.train()
        order = train_idx[torch.randperm(len(train_idx), generator=generator)]
        total = 0.0
        for i in range(0, len(order), args.batch):
            idx = order[i : i + args.batch]
            loss = torch.nn.functional.cross_entropy(logits(idx), label[idx])
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
        meta = {"epoch": epoch, "decisions": len(rows), "data": args.data, "held_out_agreement": agree}
        scorer = from_torch(model, meta)
        save_scorer(out / f"scorer_{epoch:03d}.npz", scorer)
        torch.save(
            {"model": model.state_dict(), "optimiser": optimiser.state_dict(), "epoch": epoch}, checkpoint
        )
        line = {
            "epoch": epoch,
            "train_loss": total / max(1, len(order)),
            "held_out_agreement": agree,
            "greedy_agreement": greedy_agree,
        }
        with open(out / "log.jsonl", "a") as log:
            log.write(json.dumps(line) + "\n")
        tqdm.write(json.dumps(line))
    if args.export:
        last = sorted(out.glob("scorer_*.npz"))[-1]
        Path(args.export).write_bytes(last.read_bytes())
        print(f"exported {last} to {args.export}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
