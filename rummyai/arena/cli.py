"""Command-line front end of the arena: `rummyai tournament ...` (also ``python -m rummyai.arena``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rummyai.arena.batch_ratings import RATING_METHODS
from rummyai.arena.report import Summary
from rummyai.arena.runner import run_tournament
from rummyai.errors import RummyError


def add_tournament_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add the `tournament` options to a parser (the CLI's subcommand parser or a standalone one)."""
    parser.add_argument("--variant", required=True, help="variant id, e.g. rummikub")
    parser.add_argument(
        "--agents",
        required=True,
        help="comma-separated agent specs, name[:key=value...] (e.g. random,greedy,holdback:hold_turns=3)",
    )
    parser.add_argument(
        "--sets",
        "--games",
        dest="sets",
        type=int,
        required=True,
        help="number of duplicate sets: deals, each played once per seating (--games is an alias that "
        "also counts duplicate sets, not single games)",
    )
    parser.add_argument("--players", type=int, required=True, help="seats at each table")
    parser.add_argument("--seed", type=int, default=0, help="tournament seed (deals and agent seeds)")
    parser.add_argument("--out", required=True, help="output folder (games.jsonl, report.md, plots)")
    parser.add_argument("--workers", type=int, default=1, help="parallel worker processes")
    parser.add_argument("--backend", choices=("local", "ray"), default="local", help="where games run")
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME[=VALUE]", help="variant option (repeatable)"
    )
    parser.add_argument("--max-turns", type=int, default=None, help="engine cap on turns per round")
    parser.add_argument(
        "--seating",
        choices=("permutations", "rotations"),
        default="permutations",
        help="replay each deal under every seat permutation (default) or only the rotations",
    )
    parser.add_argument(
        "--ratings",
        choices=RATING_METHODS,
        default="bradley-terry",
        help="rating method: batch Bradley-Terry fit with bootstrap intervals (default) or sequential OpenSkill",
    )
    parser.add_argument(
        "--allow-mixed-versions",
        action="store_true",
        help="resume a folder whose games were played with other code (each record keeps its version)",
    )
    parser.add_argument(
        "--record-moves",
        action="store_true",
        help="keep every move in games.jsonl, for the replays of `rummyai serve --runs DIR`",
    )
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    return parser


def tournament_main(args: argparse.Namespace) -> int:
    """Run the tournament the parsed arguments describe and print where the report is; exit status."""
    agents = [spec.strip() for spec in args.agents.split(",")]
    if "" in agents:
        print(f"rummyai: error: --agents {args.agents!r} has an empty name between commas", file=sys.stderr)
        return 2
    try:
        summary = run_tournament(
            args.variant,
            agents,
            args.sets,
            args.players,
            args.seed,
            args.out,
            workers=args.workers,
            backend=args.backend,
            options=args.option,
            max_turns=args.max_turns,
            seating=args.seating,
            progress=not args.no_progress,
            ratings=args.ratings,
            allow_mixed_versions=args.allow_mixed_versions,
            record_moves=args.record_moves,
        )
    except RummyError as error:
        print(f"rummyai: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # the games played so far are on disk
        print(f"rummyai: interrupted; rerun the same command to resume into {args.out}", file=sys.stderr)
        return 130
    if summary.resumed:
        left = "nothing left to play" if summary.resumed == summary.games else "the rest played now"
        print(
            f"resumed: {summary.resumed} of {summary.games} games were already in {args.out}/games.jsonl; {left}"
        )
    print(format_summary(summary))
    print(f"report: {args.out}/report.md (plots: ratings.png, winrate.png, scores.png)")
    return 0


def format_summary(summary: Summary) -> str:
    """A short plain-text ratings table for the terminal."""
    width = max(len(r.agent) for r in summary.ratings)
    lines = [
        f"{summary.sets} duplicate set{'s' * (summary.sets != 1)}, {summary.games} game{'s' * (summary.games != 1)}",
        f"{'agent':<{width}}  rating  95% interval      win share",
    ]
    played = {a.agent: a for a in summary.agents}
    for r in summary.ratings:
        low, high = r.interval
        if played[r.agent].games == 0:  # a short run's lineups may leave an agent out
            lines.append(f"{r.agent:<{width}}  no games yet")
            continue
        interval = "none (all alike)" if r.degenerate else f"[{low:6.1f}, {high:6.1f}]"
        lines.append(f"{r.agent:<{width}}  {r.mu:6.1f}  {interval:<16}  {played[r.agent].win_share:.3f}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Standalone entry point (``python -m rummyai.arena``)."""
    parser = add_tournament_arguments(argparse.ArgumentParser(prog="rummyai tournament"))
    return tournament_main(parser.parse_args(argv))
