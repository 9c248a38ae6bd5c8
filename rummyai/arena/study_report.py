"""Study report: every table and plot recomputed from a plan and its cells' records.

Writes ``<study>/report.md`` and ``<study>/forest.png`` (each cell's three endpoints with their
95% intervals), from the raw records when present, else the committed compressed copies.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path

from rummyai.arena.batch_ratings import fit_ratings
from rummyai.arena.duplicate import lineup, seatings
from rummyai.arena.play import GameRecord
from rummyai.arena.report import _ci, rating_lines
from rummyai.arena.stats import pairwise
from rummyai.arena.study import cell_records
from rummyai.arena.study_plan import Cell, Plan
from rummyai.arena.study_stats import MIN_SETS_FOR_TEST, CellResult, cell_result, holm
from rummyai.variants import get_variant

REPORT_FILE = "report.md"
FOREST_PNG = "forest.png"
LABELS = {
    "margin": "score margin per deal, focal - reference",
    "placement": "placement rate of focal against a reference seat",
    "deal_win": "deal-win probability, focal - a reference seat",
}


@dataclass(frozen=True)
class CellReport:
    """A cell, its planned size and its result (None before its first complete set), and the
    commits its games were played with (a running cell is finished with the same code)."""

    cell: Cell
    result: CellResult | None
    extra: list[str]
    commits: tuple[str, ...] = ()


def complete_sets(records: list[GameRecord], cell: Cell) -> list[GameRecord]:
    """Only the games of the plan's sets (the first `cell.sets`) that have every seating (a
    running cell's last set may not): games past the planned size never count."""
    by_set: dict[int, list[GameRecord]] = {}
    for record in records:
        if 0 <= int(record["set"]) < cell.sets:
            by_set.setdefault(int(record["set"]), []).append(record)
    kept = []
    for number, games in sorted(by_set.items()):
        table = lineup(cell.agents, cell.players, number)
        if len(games) == len(seatings(table, cell.seating)):  # type: ignore[arg-type]
            kept += games
    return kept


def analyse(plan: Plan, packed_only: bool = False) -> list[CellReport]:
    """Results of every cell of the plan from its stored records (complete sets only)."""
    reports = []
    for index, cell in enumerate(plan.cells):
        stored = cell_records(plan.folder, cell, packed_only)
        commits = tuple(sorted({str(r.get("code", {}).get("commit", "unknown")) for r in stored}))
        records = complete_sets(stored, cell)
        low_wins = get_variant(cell.variant, list(cell.options)).low_score_wins
        if not records:
            reports.append(CellReport(cell, None, [], commits))
            continue
        result = cell_result(
            records, cell.focal, cell.reference, low_wins, plan.resamples, seed=plan.seed + index
        )
        extra: list[str] = []
        if len(set(cell.agents)) > 2:
            order = list(dict.fromkeys(cell.agents))
            ratings = fit_ratings(records, order, plan.ratings, plan.resamples, plan.seed)  # type: ignore[arg-type]
            pairs = pairwise(records, low_wins, order, plan.resamples, plan.seed)
            extra = ["", *(line.replace("## ", "#### ") for line in rating_lines(ratings, pairs))]
        reports.append(CellReport(cell, result, extra, commits))
    return reports


def _num(value: float, digits: int, sign: bool = False) -> str:
    if math.isnan(value):
        return "n/a"
    return f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"


def _done(report: CellReport) -> bool:
    """Whether the cell has reached its planned size."""
    return report.result is not None and report.result.sets >= report.cell.sets


def _verdict(done: bool, p: float, adjusted: float, alpha: float, all_finished: bool) -> str:
    """A cell's verdict: none before its planned size; none without a test (too few sets for
    one); "better" once its adjusted p is at most alpha (final: unfinished cells count as p = 1
    and Holm is monotone); pending while only the unfinished cells can bring its adjusted p down
    to alpha."""
    if not done:
        return "running: no verdict before the planned size"
    if math.isnan(p):
        return f"no test: fewer than {MIN_SETS_FOR_TEST} sets"
    if adjusted <= alpha:
        return "better"
    if p <= alpha and not all_finished:
        return "pending: the unfinished cells decide its adjusted p"
    return "no difference shown"


def _speed(result: CellResult, name: str) -> str:
    """Mean seconds per move and, in brackets, the 99th percentile."""
    mean, p99 = result.seconds_per_move.get(name, math.nan), result.p99_seconds.get(name, math.nan)
    return f"{_num(mean, 3)} ({_num(p99, 3)})"


def _p(value: float) -> str:
    return "n/a" if math.isnan(value) else ("<0.0001" if value < 1e-4 else f"{value:.4f}")


def markdown(plan: Plan, reports: list[CellReport]) -> str:
    """The study report as Markdown."""
    # cells short of their planned size count as p = 1: Holm is monotone, so an adjusted p can
    # only fall as they finish, and a finished cell's verdict below alpha is final
    primary = [r.result.endpoints[plan.primary].p if r.result and _done(r) else 1.0 for r in reports]
    primary = [1.0 if math.isnan(p) else p for p in primary]
    adjusted = holm(primary) if plan.correction == "holm" else primary
    finished = sum(1 for r in reports if _done(r))
    lines = [
        f"# Study: {plan.name}",
        "",
        f"**Question.** {plan.question}",
        "",
        f"- plan: `{plan.path.name}` (sha256 {plan.sha256[:16]}); seed {plan.seed}; "
        f"primary endpoint: {plan.primary} ({LABELS[plan.primary]})",
        f"- correction: {plan.correction} over the {len(reports)} planned tests of the primary endpoint "
        f"(alpha {plan.alpha}; a cell short of its planned size counts as p = 1, so adjusted p-values "
        "can only fall as the others finish)",
        f"- cells finished: {finished} of {len(reports)} (status and commands below); "
        f"reproduce this report: `rummyai study report {plan.folder}`",
        "",
        "## Primary endpoint",
        "",
        "| cell | variant | players | focal | reference | sets (planned) | estimate | 95% CI | p | adjusted p | verdict |",
        "| --- | --- | ---: | --- | --- | --- | ---: | --- | ---: | ---: | --- |",
    ]
    digits = 2 if plan.primary == "margin" else 3
    for report, p_adj in zip(reports, adjusted, strict=True):
        c, r = report.cell, report.result
        head = f"| {c.id} | {c.variant} | {c.players} | `{c.focal}` | `{c.reference}` "
        if r is None:
            lines.append(head + f"| 0 ({c.sets}) | | | | | not started |")
            continue
        e = r.endpoints[plan.primary]
        done = _done(report)
        verdict = _verdict(done, e.p, p_adj, plan.alpha, finished == len(reports))
        if verdict == "better":
            verdict = "focal better" if e.value > _null(plan.primary) else "reference better"
        lines.append(
            head + f"| {r.sets} ({c.sets}) | {_num(e.value, digits, plan.primary != 'placement')} "
            f"| {_ci(e.low, e.high, digits)} | {_p(e.p)} "
            f"| {_p(p_adj) if done and not math.isnan(e.p) else 'n/a'} | {verdict} |"
        )
    lines += [
        "",
        f"![endpoints]({FOREST_PNG})",
        "",
        "## All endpoints (secondary ones unadjusted)",
        "",
        "| cell | games | margin | 95% CI | placement rate | 95% CI | focal deal-win | 95% CI "
        "| reference seat deal-win | focal s/move (p99) | reference s/move (p99) |",
        "| --- | ---: | ---: | --- | ---: | --- | ---: | --- | ---: | ---: | ---: |",
    ]
    for report in reports:
        c, r = report.cell, report.result
        if r is None:
            continue
        m, pl, fw = r.endpoints["margin"], r.endpoints["placement"], r.focal_win
        lines.append(
            f"| {c.id} | {r.games} | {_num(m.value, 2, True)} | {_ci(m.low, m.high, 2)} "
            f"| {_num(pl.value, 3)} | {_ci(pl.low, pl.high, 3)} | {_num(fw.value, 3)} "
            f"| {_ci(fw.low, fw.high, 3)} | {_num(r.reference_win, 3)} "
            f"| {_speed(r, c.focal)} | {_speed(r, c.reference)} |"
        )
    lines += status_lines(plan, reports)
    lines += ["", "## Code versions of the games", "", "| cell | version: games |", "| --- | --- |"]
    for report in reports:
        if report.result is not None:
            text = ", ".join(f"`{v}`: {n}" for v, n in sorted(report.result.versions.items()))
            lines.append(f"| {report.cell.id} | {text} |")
    for report in reports:
        if report.extra:
            lines += ["", f"### {report.cell.id}", *report.extra]
    lines += [
        "",
        "## Power calculation (from the plan)",
        "",
        plan.power,
        "",
        "## Analysis (from the plan)",
        "",
    ]
    lines += [plan.analysis, ""]
    return "\n".join(lines)


def status_lines(plan: Plan, reports: list[CellReport]) -> list[str]:
    """Which cells are finished, and the command finishing each other one on the code it began with."""
    lines = [
        "",
        "## Status",
        "",
        "| cell | complete sets | planned | state | command to finish |",
        "| --- | ---: | ---: | --- | --- |",
    ]
    started = {(x.cell.variant, x.cell.players): x.commits[0] for x in reports if len(x.commits) == 1}
    for report in reports:
        c, r = report.cell, report.result
        done = r.sets if r else 0
        if done >= c.sets:
            lines.append(f"| {c.id} | {done} | {c.sets} | finished | |")
            continue
        # a cell not yet started runs on the code its sibling arms of the same table began with
        commit = report.commits[0] if len(report.commits) == 1 else started.get((c.variant, c.players), "")
        commit = "" if commit == "unknown" else commit
        command = f"experiments/studies/run_frozen.sh {plan.path} {c.id} {commit}".rstrip()
        state = "running or stopped" if done else "not started"
        lines.append(f"| {c.id} | {done} | {c.sets} | {state} | `{command}` |")
    return lines


def _null(endpoint: str) -> float:
    return 0.5 if endpoint == "placement" else 0.0


def plot_forest(reports: list[CellReport], path: Path, source: str = "") -> None:
    """One panel per endpoint: each cell's estimate with its 95% interval, the null value dashed;
    `source` (the command and version that drew it) is written under the panels."""
    shown = [r for r in reports if r.result is not None]
    from matplotlib.figure import Figure  # loaded only to draw: the CLI imports this module

    fig = Figure(figsize=(14, 1.4 + 0.45 * max(1, len(shown))), layout="constrained")
    axes = fig.subplots(1, 3, sharey=True)
    ys = list(range(len(shown)))[::-1]
    for ax, name in zip(axes, ("margin", "placement", "deal_win"), strict=True):
        for y, report in zip(ys, shown, strict=True):
            assert report.result is not None
            e = report.result.endpoints[name]
            done = report.result.sets >= report.cell.sets
            color = "tab:blue" if done else "tab:gray"
            ax.plot([e.low, e.high], [y, y], color=color)
            ax.plot([e.value], [y], "o", color=color)
        ax.axvline(_null(name), color="grey", linestyle="--", linewidth=1)
        ax.set_title(LABELS[name], fontsize=9)
        ax.grid(axis="x", alpha=0.3)
    axes[0].set_yticks(ys, [f"{r.cell.id} ({r.result.sets if r.result else 0} sets)" for r in shown])
    fig.suptitle("95% intervals over duplicate sets (grey: still running)", fontsize=10)
    if source:
        fig.supxlabel(source, fontsize=7, ha="right", x=0.99)
    fig.savefig(path, dpi=110, bbox_inches="tight")


def write_study_report(plan: Plan, packed_only: bool = False) -> Path:
    """Recompute and write the study's report and plot; return the report's path. `packed_only`
    reads only the compressed copies, what a fresh checkout holds, even beside raw records."""
    reports = analyse(plan, packed_only)
    folder = os.path.relpath(plan.folder)
    command = f"rummyai study report {plan.folder if folder.startswith('..') else folder}"
    source = f"{command}{' --packed' if packed_only else ''}, rummyai {version('rummyai')}"
    plot_forest(reports, plan.folder / FOREST_PNG, source)
    path = plan.folder / REPORT_FILE
    path.write_text(markdown(plan, reports))
    return path
