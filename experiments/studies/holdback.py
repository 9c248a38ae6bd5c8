"""Does holding back pay? Hold-back against greedy on the tile variants, 2 and 4 players.

For each variant and table size the script runs a duplicate-deal tournament (the `rummyai.arena`
runner, resumable: rerun the same command to finish an interrupted study) between the hold-back
agent and plain greedy: 2 players seat ``holdback,greedy``; 4 players seat one hold-back agent
against three greedy ones. It then reports, per configuration, the paired score margin of
hold-back over greedy (positive: hold-back scores better) and its win rate against greedy, each
with a 95% bootstrap interval over duplicate sets, writes ``holdback.md`` and ``holdback.png``.

Each duplicate set is one deal (``rounds=1``; Rhine's ten-round match is ten such deals) unless
``--full-matches`` is given.

    python experiments/studies/holdback.py --quick            # a few sets per configuration, minutes
    python experiments/studies/holdback.py --workers 2        # the full study: 2000 sets each (hours)
    python experiments/studies/holdback.py --report-only      # report what a stopped study has finished
"""

from __future__ import annotations

import argparse
import json
import math
import time
from dataclasses import dataclass
from pathlib import Path

from matplotlib.figure import Figure

from rummyai.arena import run_tournament
from rummyai.arena.stats import PairStats

VARIANTS = ("rummikub", "rummy-tiles", "rummy-board", "rhine")


@dataclass(frozen=True)
class Finding:
    """Hold-back against greedy in one configuration."""

    variant: str
    players: int
    sets: int
    games: int
    pair: PairStats
    seconds: float

    @property
    def verdict(self) -> str:
        """Which agent the 95% interval of the margin favours, if either."""
        low, high = self.pair.margin_ci
        if low > 0:
            return "hold-back better"
        if high < 0:
            return "greedy better"
        return "no significant difference"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variants", default=",".join(VARIANTS), help="comma-separated variant ids")
    parser.add_argument("--players", default="2,4", help="comma-separated table sizes")
    parser.add_argument("--sets", type=int, default=2000, help="duplicate sets per configuration")
    parser.add_argument("--quick", action="store_true", help="a short run: 4 sets per configuration")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--holdback", default="holdback", help="hold-back agent spec (parameters to sweep)")
    parser.add_argument("--baseline", default="greedy", help="baseline agent spec")
    parser.add_argument(
        "--full-matches", action="store_true", help="play whole matches, not one deal per set"
    )
    parser.add_argument("--out", default="results/holdback", help="output folder")
    parser.add_argument("--no-progress", action="store_true")
    parser.add_argument(
        "--report-only",
        action="store_true",
        help="play nothing: report the complete sets already in --out (a study stopped early)",
    )
    return parser.parse_args()


def complete_sets(folder: Path) -> int:
    """How many duplicate sets, counted from set 0, have all their games in `folder`."""
    path = folder / "games.jsonl"
    if not path.exists():
        return 0
    per_set: dict[int, int] = {}
    for line in path.read_text().splitlines():
        if line.strip():
            number = int(json.loads(line)["set"])
            per_set[number] = per_set.get(number, 0) + 1
    if not per_set:
        return 0
    full = max(per_set.values())
    done = 0
    while per_set.get(done) == full:
        done += 1
    return done


def run_one(args: argparse.Namespace, variant: str, players: int, sets: int) -> Finding:
    """One configuration's tournament and the hold-back/greedy pair statistics."""
    agents = [args.holdback] + [args.baseline] * (players - 1)
    options = [] if args.full_matches else ["rounds=1"]
    started = time.perf_counter()
    summary = run_tournament(
        variant,
        agents,
        sets,
        players,
        args.seed,
        Path(args.out) / f"{variant}-{players}p",
        workers=args.workers,
        options=options,
        progress=not args.no_progress,
    )
    pair = next(p for p in summary.pairs if p.a == args.holdback and p.b == args.baseline)
    return Finding(variant, players, summary.sets, summary.games, pair, time.perf_counter() - started)


def table(findings: list[Finding]) -> str:
    """The findings as a Markdown table."""
    lines = [
        "| variant | players | sets | games | margin (hold-back - greedy) | 95% CI | win rate vs greedy | 95% CI | verdict |",
        "| --- | ---: | ---: | ---: | ---: | --- | ---: | --- | --- |",
    ]
    for f in findings:
        p = f.pair
        lines.append(
            f"| {f.variant} | {f.players} | {f.sets} | {f.games} | {p.margin:+.2f} "
            f"| [{p.margin_ci[0]:+.2f}, {p.margin_ci[1]:+.2f}] | {p.win_rate:.3f} "
            f"| [{p.win_ci[0]:.3f}, {p.win_ci[1]:.3f}] | {f.verdict} |"
        )
    return "\n".join(lines)


def plot(findings: list[Finding], path: Path) -> None:
    """Forest plots: the paired margin and the win rate, each with its 95% interval."""
    fig = Figure(figsize=(10, 1.2 + 0.5 * len(findings)))
    left, right = fig.subplots(1, 2, sharey=True)
    labels = [f"{f.variant} {f.players}p" for f in findings]
    ys = list(range(len(findings)))[::-1]
    for ax, key, ref, title in (
        (left, "margin", 0.0, "score margin, hold-back - greedy (95% CI)"),
        (right, "win", 0.5, "win rate of hold-back against greedy (95% CI)"),
    ):
        for y, f in zip(ys, findings, strict=True):
            value, (low, high) = (
                (f.pair.margin, f.pair.margin_ci) if key == "margin" else (f.pair.win_rate, f.pair.win_ci)
            )
            if not math.isnan(low):
                ax.plot([low, high], [y, y], color="tab:blue")
            ax.plot([value], [y], "o", color="tab:blue")
        ax.axvline(ref, color="grey", linestyle="--", linewidth=1)
        ax.set_title(title, fontsize=10)
        ax.grid(axis="x", alpha=0.3)
    left.set_yticks(ys, labels)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    args = parse_args()
    sets = 4 if args.quick else args.sets
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    sizes = [int(p) for p in args.players.split(",") if p.strip()]
    findings = []
    for variant in variants:
        for players in sizes:
            if args.report_only:
                sets = complete_sets(Path(args.out) / f"{variant}-{players}p")
                if sets == 0:
                    continue
            finding = run_one(args, variant, players, sets)
            findings.append(finding)
            p = finding.pair
            print(
                f"{variant} {players}p: margin {p.margin:+.2f} [{p.margin_ci[0]:+.2f}, {p.margin_ci[1]:+.2f}], "
                f"win rate {p.win_rate:.3f} ({finding.games} games, {finding.seconds:.0f} s)",
                flush=True,
            )
    out = Path(args.out)
    if not findings:
        raise SystemExit(f"nothing to report: no configuration in {out} has a complete duplicate set")
    out.mkdir(parents=True, exist_ok=True)
    report = [
        "# Hold-back against greedy",
        "",
        f"Agents `{args.holdback}` against `{args.baseline}`; seed {args.seed}; "
        f"{'whole matches' if args.full_matches else 'one deal per duplicate set'}; "
        "4 players: one hold-back agent against three greedy ones. Margins are match-score "
        "differences signed so that positive favours hold-back (for Rhine, fewer penalty points).",
        "",
        table(findings),
        "",
        "![hold-back](holdback.png)",
        "",
    ]
    (out / "holdback.md").write_text("\n".join(report))
    plot(findings, out / "holdback.png")
    print(table(findings))
    print(f"report: {out / 'holdback.md'}, plot: {out / 'holdback.png'}")


if __name__ == "__main__":
    main()
