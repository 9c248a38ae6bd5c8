"""The mcts-pimc worlds study's curve: placement rate against greedy by seconds per move.

Reads the study's committed records (as ``rummyai study report --packed`` does) and plots, per
cell, the focal agent's placement rate with its 95% interval against its mean seconds per move,
labelled with the number of worlds; writes ``cost.png`` beside the plan, as its reading asks.

    .venv/bin/python experiments/studies/worlds_curve.py studies/mcts-pimc-worlds
"""

from __future__ import annotations

import argparse
from importlib.metadata import version
from pathlib import Path

from matplotlib.figure import Figure

from rummyai.arena.study_plan import load_plan
from rummyai.arena.study_report import analyse
from rummyai.errors import RummyError


def main() -> int:
    """Draw the curve from the packed records."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("study", help="the study folder (holding plan.toml)")
    args = parser.parse_args()
    try:
        plan = load_plan(Path(args.study) / "plan.toml")
        reports = analyse(plan, packed_only=True)
    except RummyError as error:
        parser.error(str(error))
    points = []
    for report in reports:
        focal = report.cell.focal
        if report.result is None or "worlds=" not in focal:
            continue
        placement = report.result.endpoints["placement"]
        points.append((report.result.seconds_per_move[focal], placement, focal.partition("worlds=")[2]))
    if not points:
        parser.error(f"no finished cell of {args.study} sets mcts-pimc's worlds")
    points.sort(key=lambda p: p[0])
    fig = Figure(figsize=(6, 3.5), layout="constrained")
    ax = fig.subplots()
    xs = [p[0] for p in points]
    ys = [p[1].value for p in points]
    errors = [[p[1].value - p[1].low for p in points], [p[1].high - p[1].value for p in points]]
    ax.errorbar(xs, ys, yerr=errors, fmt="o", capsize=3)  # seconds do not order the cells: no line
    for x, y, label in zip(xs, ys, (p[2] for p in points), strict=True):
        ax.annotate(f"{label} worlds", (x, y), textcoords="offset points", xytext=(6, 6), fontsize=8)
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("mean seconds per move (wall time, shared machine)")
    ax.set_ylabel("placement rate vs greedy")
    ax.set_title(f"{plan.name}: 95% intervals over duplicate sets", fontsize=10)
    fig.supxlabel(
        f"experiments/studies/worlds_curve.py {args.study}, rummyai {version('rummyai')}",
        fontsize=7,
        ha="right",
        x=0.99,
    )
    out = Path(args.study) / "cost.png"
    fig.savefig(out, dpi=110)
    print(f"plot: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
