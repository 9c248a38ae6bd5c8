"""Tournament report: ``report.md`` with the ratings, pairwise and per-agent tables, and PNG plots
(ratings with intervals, a pairwise win-rate heatmap, score distributions).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from rummyai.arena.ratings import Rating
from rummyai.arena.stats import AgentStats, PairStats

RATINGS_PNG = "ratings.png"
WINRATE_PNG = "winrate.png"
SCORES_PNG = "scores.png"


@dataclass(frozen=True)
class Summary:
    """Everything the report shows (also what `run_tournament` returns)."""

    manifest: dict[str, Any]
    games: int
    sets: int
    ratings: list[Rating]
    agents: list[AgentStats]
    pairs: list[PairStats]
    # how the report was made, beside the games the manifest names (the command line shows them)
    rating_method: str = "bradley-terry"
    record_moves: bool = False
    resumed: int = 0  # games of this run found finished on disk and not played again
    versions: dict[str, int] = field(default_factory=dict)  # games per code version of the records


def _fmt(value: float, digits: int = 3) -> str:
    return "n/a" if math.isnan(value) else f"{value:.{digits}f}"


NO_INTERVAL = "none: every resample of the sets is alike"


def _ci(low: float, high: float, digits: int = 3) -> str:
    """A bootstrap interval as text; none where it has no width (one set, or the same result in
    every set): the resamples then measure nothing, and a point would read as certainty."""
    if high - low < 1e-9:
        return NO_INTERVAL
    return f"[{_fmt(low, digits)}, {_fmt(high, digits)}]"


def disagreements(ratings: Sequence[Rating], pairs: Sequence[PairStats]) -> list[str]:
    """Warnings for every pair the ratings order one way while their head-to-head games say the other."""
    score = {r.agent: r.mu for r in ratings}
    notes = []
    for p in pairs:
        if p.a in score and p.b in score and score[p.a] > score[p.b] and p.win_rate < 0.5:
            if p.sets <= 1:  # one set: nothing to resample, so no interval and no verdict
                evidence = "(no interval)"
            else:
                verdict = "its 95% interval is below one half" if p.win_ci[1] < 0.5 else "within noise"
                evidence = f"[{_fmt(p.win_ci[0])}, {_fmt(p.win_ci[1])}] ({verdict})"
            share = "none" if p.win_rate == 0 else f"only {p.win_rate:.3f}"
            sets = "one set" if p.sets == 1 else f"{p.sets} sets"
            notes.append(
                f"`{p.a}` is rated above `{p.b}` ({score[p.a]:.1f} vs {score[p.b]:.1f}) but placed better "
                f"than it in {share} of their comparisons over {sets} {evidence}"
            )
    return notes


def rating_lines(ratings: Sequence[Rating], pairs: Sequence[PairStats]) -> list[str]:
    """The ratings section: table by method, then any disagreement with the paired results."""
    batch = bool(ratings) and ratings[0].method == "bradley-terry"
    played = {p.a for p in pairs if p.comparisons}  # a short run's lineups may leave an agent out
    ratings = [r for r in ratings if r.agent in played] + [r for r in ratings if r.agent not in played]
    if batch:
        lines = [
            "## Ratings (Bradley-Terry fit of all pairwise placements; Elo scale, 0 = mean agent; "
            "95% bootstrap interval over duplicate sets)",
            "",
            "| agent | rating | 95% interval | sets |",
            "| --- | ---: | --- | ---: |",
        ]
        lines += [
            f"| `{r.agent}` | {r.mu:+.1f} | {_ci(*r.interval, digits=1)} | {r.sets} |"
            if r.agent in played
            else f"| `{r.agent}` | n/a | no games yet | 0 |"
            for r in ratings
        ]
    else:
        lines = [
            "## Ratings (OpenSkill Plackett-Luce, sequential in set order)",
            "",
            "| agent | mu | sigma | 95% interval | ordinal (mu-3σ) | sets |",
            "| --- | ---: | ---: | --- | ---: | ---: |",
        ]
        lines += [
            f"| `{r.agent}` | {r.mu:.2f} | {r.sigma:.2f} | {_ci(*r.interval, digits=2)} | {r.ordinal:.2f} | {r.sets} |"
            if r.agent in played
            else f"| `{r.agent}` | n/a | n/a | no games yet | n/a | 0 |"
            for r in ratings
        ]
    notes = disagreements(ratings, pairs)
    if notes:
        lines += ["", "**Warning: the rating order disagrees with the paired results:**", ""]
        lines += [f"- {note}" for note in notes]
    return lines


def markdown(summary: Summary) -> str:
    """The report as Markdown text."""
    m = summary.manifest
    sense = "lower" if m.get("low_score_wins") else "higher"
    lines = [
        f"# Tournament: {m['variant']}, {m['players']} players",
        "",
        f"- agents: {', '.join(f'`{a}`' for a in m['agents'])}",
        f"- duplicate sets: {summary.sets} ({summary.games} games; seatings: {m['seating']})",
        f"- seed: {m['seed']}; options: {', '.join(m['options']) or 'none'}; max_turns: {m['max_turns']}",
        f"- match scores: {sense} is better; margins below are signed so that positive favours the row agent",
        f"- command: `{command_line(m, summary.rating_method, summary.record_moves)}`",
        f"- code: {_versions(summary.versions)}",
        "",
        *rating_lines(summary.ratings, summary.pairs),
    ]
    lines += [
        "",
        f"![ratings]({RATINGS_PNG})",
        "",
        "## Agents",
        "",
        "| agent | games | wins | win share | mean place | mean score | ms/decision |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for a in summary.agents:
        lines.append(
            f"| `{a.agent}` | {a.games} | {a.wins} | {_fmt(a.win_share)} | {_fmt(a.mean_rank, 2)} "
            f"| {_fmt(a.mean_score, 1)} | {_fmt(a.ms_per_decision, 2)} |"
        )
    lines += [
        "",
        f"![scores]({SCORES_PNG})",
        "",
        "## Pairwise (row agent against column agent, 95% bootstrap CI over duplicate sets)",
        "",
        "| agent | opponent | sets | comparisons | win rate | 95% CI | mean margin | 95% CI |",
        "| --- | --- | ---: | ---: | ---: | --- | ---: | --- |",
    ]
    for p in summary.pairs:
        lines.append(
            f"| `{p.a}` | `{p.b}` | {p.sets} | {p.comparisons} | {_fmt(p.win_rate)} | {_ci(*p.win_ci)} "
            f"| {_fmt(p.margin, 2)} | {_ci(*p.margin_ci, digits=2)} |"
        )
    lines += ["", f"![win rates]({WINRATE_PNG})", ""]
    return "\n".join(lines)


def command_line(manifest: dict[str, Any], ratings: str = "bradley-terry", record_moves: bool = False) -> str:
    """The `rummyai tournament` command that reproduces this tournament and its report."""
    parts = [
        "rummyai tournament",
        f"--variant {manifest['variant']}",
        f"--agents {','.join(manifest['agents'])}",
        f"--sets {manifest['games']}",
        f"--players {manifest['players']}",
        f"--seed {manifest['seed']}",
        "--out DIR",
    ]
    parts += [f"--option {o}" for o in manifest.get("options", [])]
    if manifest.get("max_turns") is not None:
        parts.append(f"--max-turns {manifest['max_turns']}")
    if manifest.get("seating", "permutations") != "permutations":
        parts.append(f"--seating {manifest['seating']}")
    if ratings != "bradley-terry":
        parts.append(f"--ratings {ratings}")
    if record_moves:
        parts.append("--record-moves")
    return " ".join(parts)


def plot_ratings(ratings: Sequence[Rating], path: Path, source: str = "") -> None:
    """Each agent's rating with its 95% interval (error bars)."""
    from matplotlib.figure import Figure  # loaded only to draw: the CLI imports this module

    fig = Figure(figsize=(6, 0.6 * len(ratings) + 1.5))
    ax = fig.add_subplot()
    ordered = list(reversed(ratings))
    ys = np.arange(len(ordered))
    mus = np.array([r.mu for r in ordered])
    # never below zero (the centring leaves rounding noise of either sign); an interval of no
    # width is left out, as the report leaves it out: it would read as certainty
    half = np.maximum([r.mu - r.interval[0] for r in ordered], 0.0)
    upper = np.maximum([r.interval[1] - r.mu for r in ordered], 0.0)
    wide = half + upper >= 1e-9
    ax.plot(mus, ys, "o", color="tab:blue")
    if wide.any():
        errors = np.vstack([half[wide], upper[wide]])
        ax.errorbar(mus[wide], ys[wide], xerr=errors, fmt="none", capsize=4, color="tab:blue")
    ax.set_yticks(ys, [r.agent for r in ordered])
    ax.set_ylim(-0.7, len(ordered) - 0.3)
    batch = bool(ratings) and ratings[0].method == "bradley-terry"
    ax.set_xlabel(
        "Bradley-Terry rating, Elo scale (95% interval)" if batch else "OpenSkill mu (95% interval)"
    )
    ax.set_title("Ratings")
    ax.grid(axis="x", alpha=0.3)
    _save(fig, path, source)


def plot_winrates(pairs: Sequence[PairStats], names: Sequence[str], path: Path, source: str = "") -> None:
    """Heatmap of the row agent's win rate against the column agent (blank where they never met);
    each cell shows the rate, its 95% interval and the number of duplicate sets behind it."""
    index = {name: i for i, name in enumerate(names)}
    grid = np.full((len(names), len(names)), np.nan)
    labels: dict[tuple[int, int], str] = {}
    for p in pairs:
        if p.a not in index or p.b not in index:
            continue  # an agent left out of the plot
        i, j = index[p.a], index[p.b]
        grid[i, j] = p.win_rate
        interval = (
            "" if p.win_ci[1] - p.win_ci[0] < 1e-9 else f"\n[{_fmt(p.win_ci[0], 2)}, {_fmt(p.win_ci[1], 2)}]"
        )
        labels[i, j] = f"{p.win_rate:.2f}{interval}\nn={p.sets} sets"
    size = 1.0 + 1.3 * len(names)
    from matplotlib.figure import Figure

    fig = Figure(figsize=(size + 2.5, size + 0.5))
    ax = fig.add_subplot()
    image = ax.imshow(grid, vmin=0.0, vmax=1.0, cmap="RdBu")
    for (i, j), text in labels.items():
        dark = abs(grid[i, j] - 0.5) > 0.3  # the colour map's deep ends: white text reads there
        ax.text(j, i, text, ha="center", va="center", fontsize=7, color="white" if dark else "black")
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("opponent")
    ax.set_title("Win rate, row vs column (95% interval, duplicate sets)")
    fig.colorbar(image, ax=ax)
    _save(fig, path, source)


def plot_scores(agents: Sequence[AgentStats], path: Path, source: str = "") -> None:
    """Box plots of each agent's final match scores."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(1.5 + 1.2 * len(agents), 4))
    ax = fig.add_subplot()
    ax.boxplot([list(a.scores) for a in agents], showmeans=True)
    ax.set_xticks(range(1, len(agents) + 1), [a.agent for a in agents], rotation=20, ha="right")
    ax.set_ylabel("final match score")
    ax.set_title("Score distributions")
    ax.grid(axis="y", alpha=0.3)
    _save(fig, path, source)


def _versions(versions: dict[str, int]) -> str:
    """The code versions that played the games: one, or each with its number of games."""
    if not versions:
        return "no games yet"
    if len(versions) == 1:
        return f"rummyai {next(iter(versions))}"
    mixed = ", ".join(f"rummyai {label} ({games} games)" for label, games in versions.items())
    return f"{mixed} (mixed: resumed with --allow-mixed-versions)"


def _source(summary: Summary) -> str:
    """What a plot names under its panels: the command that drew it and the code that played."""
    command = command_line(summary.manifest, summary.rating_method, summary.record_moves)
    return f"{command}\n{_versions(summary.versions)}"


def _save(fig: Any, path: Path, source: str) -> None:
    """Save a plot, with `source` written under it when given."""
    if source:
        _sign(fig, source)
    fig.savefig(path, dpi=110, bbox_inches="tight")  # the canvas grows to fit long agent specs


def _sign(fig: Any, source: str) -> None:
    """Write `source` under everything the figure draws (the saved canvas grows to hold it)."""
    box = fig.get_tightbbox()  # inches, tick labels and axis titles included
    x, y = box.x1 / fig.get_figwidth(), (box.y0 - 0.05) / fig.get_figheight()
    fig.text(x, y, source, ha="right", va="top", fontsize=6, color="dimgray")


def write_report(summary: Summary, out_dir: Path) -> Path:
    """Write report.md and the three plots into `out_dir`; return the report's path."""
    # the plots show the agents with games, as the report's tables do (a short run's lineups
    # may leave an agent out)
    played = {p.a for p in summary.pairs if p.comparisons} | {a.agent for a in summary.agents if a.scores}
    names = [a.agent for a in summary.agents if a.agent in played]
    source = _source(summary)
    plot_ratings([r for r in summary.ratings if r.agent in played], out_dir / RATINGS_PNG, source)
    plot_winrates(summary.pairs, names, out_dir / WINRATE_PNG, source)
    plot_scores([a for a in summary.agents if a.agent in played], out_dir / SCORES_PNG, source)
    path = out_dir / "report.md"
    path.write_text(markdown(summary))
    return path
