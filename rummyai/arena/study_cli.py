"""Command-line front end of studies: `rummyai study run PLAN.toml` and `rummyai study report DIR`."""

from __future__ import annotations

import argparse
import sys

from rummyai.errors import RummyError


def add_study_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add the `study run` and `study report` subcommands to a parser."""
    sub = parser.add_subparsers(dest="study_command", required=True, metavar="{run,report}")
    run = sub.add_parser("run", help="play a plan's missing games (resumes; refuses mixed code versions)")
    run.add_argument("plan", help="the plan's TOML file (its folder holds the records)")
    run.add_argument("--cells", default="", help="comma-separated cell ids to run (default: all, in order)")
    run.add_argument("--workers", type=int, default=1, help="parallel worker processes")
    run.add_argument("--backend", choices=("local", "ray"), default="local", help="where games run")
    run.add_argument(
        "--allow-mixed-versions",
        action="store_true",
        help="add games to cells holding games of other code (each record keeps its version)",
    )
    run.add_argument("--allow-dirty", action="store_true", help="run code with uncommitted changes")
    run.add_argument(
        "--allow-uncommitted-plan", action="store_true", help="run a plan not committed (trials only)"
    )
    run.add_argument("--no-progress", action="store_true", help="hide the progress bars")
    report = sub.add_parser("report", help="recompute a study's tables and plots from its records")
    report.add_argument("study", help="the study folder (holding plan.toml) or the plan file")
    report.add_argument(
        "--packed",
        action="store_true",
        help="read only the compressed records (what a fresh checkout holds), even beside raw ones",
    )
    return parser


def study_main(args: argparse.Namespace) -> int:
    """Run the parsed `study` subcommand; exit status."""
    from rummyai.arena.study_plan import load_plan

    try:
        if args.study_command == "run":
            from rummyai.arena.study import run_study
            from rummyai.arena.study_report import write_study_report

            plan = load_plan(args.plan)
            cells = [c.strip() for c in args.cells.split(",") if c.strip()]
            if args.workers < 1:
                raise RummyError(f"--workers must be at least 1, got {args.workers}")
            done = run_study(
                plan,
                cells,
                workers=args.workers,
                backend=args.backend,
                allow_mixed_versions=args.allow_mixed_versions,
                allow_uncommitted_plan=args.allow_uncommitted_plan,
                allow_dirty=args.allow_dirty,
                progress=not args.no_progress,
                command=" ".join(["rummyai study run", *sys.argv[3:]]),
            )
            path = write_study_report(plan)
            told = [
                f"{cell} ({n} games played)" if n else f"{cell} (nothing left to play)"
                for cell, n in done.items()
            ]
            print(f"cells run: {', '.join(told)}; report: {path}")
            return 0
        from rummyai.arena.study_report import write_study_report

        path = write_study_report(load_plan(args.study), packed_only=args.packed)
        print(f"report: {path}")
        return 0
    except RummyError as error:
        print(f"rummyai: error: {error}", file=sys.stderr)
        return 2


def main(argv: list[str] | None = None) -> int:
    """Standalone entry point (``python -m rummyai.arena.study_cli``)."""
    parser = add_study_arguments(argparse.ArgumentParser(prog="rummyai study"))
    return study_main(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
