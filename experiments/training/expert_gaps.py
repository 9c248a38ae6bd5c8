"""How much better or worse than greedy's move the expert judged each kind of candidate.

Reads the game files of `collect.py` (with ``expert_values``: the expert's mean rollout utility of
every candidate slot it searched) and prints, per kind of candidate (draw, hold-back play, most-points
play, other play) and for the draw by cards greedy would have played and by the opponent's hand
size, the mean utility minus that of greedy's move in the same decision, with its standard error.
Where every mean is below zero, a network fitted to these utilities has nothing to learn but
greedy's move: the expert's own departures from greedy are then mostly the noise of its sampled
worlds.

    .venv/bin/python experiments/training/expert_gaps.py studies/learned/labels
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from script_guard import guarded

from rummyai.envs.candidates import FEATURES

COLUMN = {name: i for i, name in enumerate(FEATURES)}


def gaps(folder: Path) -> np.ndarray:
    """Rows (draws, holdback, most points, greedy's cards, opponent's hand, utility gap) per searched slot."""
    rows: list[tuple[float, ...]] = []
    for file in sorted(folder.glob("game_*[0-9].npz")):
        with np.load(file) as data:
            if "expert_values" not in data.files:
                continue
            for k in range(len(data["labels"])):
                cands, values = data["candidates"][k], data["expert_values"][k]
                mask = data["action_mask"][k].astype(bool)
                greedy = int(np.argmax(cands[:, COLUMN["is_greedy"]]))
                sizes = data["hand_sizes"][k]
                if np.isnan(values[greedy]):
                    continue
                for slot in np.flatnonzero(mask & ~np.isnan(values)):
                    if slot == greedy:
                        continue
                    rows.append(
                        (
                            cands[slot, COLUMN["draws"]],
                            float(cands[slot, COLUMN["holdback"]] > 0),
                            cands[slot, COLUMN["is_most_points"]],
                            cands[greedy, COLUMN["hand_cards_used"]],
                            float(sizes[1]) if len(sizes) > 1 else 0.0,
                            float(values[slot] - values[greedy]),
                        )
                    )
    return np.array(rows, dtype=float).reshape(-1, 6)


def line(label: str, gap: np.ndarray) -> str:
    """One table row: count, mean gap and its standard error."""
    if len(gap) == 0:
        return f"| {label} | 0 | | |"
    error = gap.std(ddof=1) / np.sqrt(len(gap)) if len(gap) > 1 else float("nan")
    return f"| {label} | {len(gap)} | {gap.mean():+.4f} | {error:.4f} |"


def main(argv: list[str] | None = None) -> int:
    """Print the table in Markdown."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("folder", type=Path, help="folder of collect.py game files")
    args = parser.parse_args(argv)
    r = gaps(args.folder)
    if len(r) == 0:
        parser.error(f"no decisions with expert_values in {args.folder}")
    draw, held, points, greedy_cards, opponent, gap = r.T
    other = (draw == 0) & (held == 0) & (points == 0)
    print("| candidate | slots | utility minus greedy's | standard error |\n| --- | --- | --- | --- |")
    for label, sel in (("draw", draw == 1), ("hold-back play", held == 1), ("most-points play", points == 1)):
        print(line(label, gap[sel]))
    print(line("other play", gap[other]))
    for low, high in ((1, 2), (2, 3), (3, 5), (5, 99)):
        sel = (draw == 1) & (greedy_cards >= low) & (greedy_cards < high)
        print(line(f"draw, greedy plays {low}-{high - 1} cards", gap[sel]))
    for low, high in ((0, 6), (6, 10), (10, 14), (14, 99)):
        sel = (draw == 1) & (opponent >= low) & (opponent < high)
        print(line(f"draw, opponent holds {low}-{high - 1}", gap[sel]))
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
