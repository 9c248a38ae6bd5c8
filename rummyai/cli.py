"""The `rummyai` command: list variants, play matches, judge and solve positions.

Bad input (unknown card or variant, too many copies, an invalid meld, an illegal move) prints one
line on stderr and exits with status 2, never a traceback. Heavy modules are imported only by the
subcommands that need them, so `rummyai variants` starts fast.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TextIO

from rummyai.errors import RummyError
from rummyai.variants import BUILTINS, OPTIONS, VARIANT_IDS, get_variant

EXIT_BAD_INPUT = 2


def _options(values: Sequence[str] | None) -> list[str]:
    """Options given as repeated ``--option name[=value]`` (commas also separate)."""
    return [o.strip() for value in values or () for o in value.split(",") if o.strip()]


# ------------------------------------------------------------------------------ variants
def cmd_variants(args: argparse.Namespace, out: TextIO) -> int:
    """List the seven built-in variants with a one-line summary each."""
    rows = [BUILTINS[v].describe() for v in VARIANT_IDS]
    if args.json:
        out.write(json.dumps(rows) + "\n")
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(title="rummyai variants")
    for column in ("id", "cards", "players", "summary"):
        table.add_column(column, no_wrap=column != "summary")
    for row in rows:
        players = "{}-{}".format(*row["players"])
        table.add_row(row["id"], str(row["cards"]), players, row["summary"])
    Console(file=out, width=120).print(table)
    return 0


# ------------------------------------------------------------------------------ play
def play_agents_match(
    variant_id: str, options: Sequence[str], specs: Sequence[str], seed: int, max_turns: int | None = None
) -> dict[str, Any]:
    """Play one match with agents built from `specs` (one per seat); the same seed gives the same match."""
    from rummyai.agents import make_agent_from_spec
    from rummyai.engine.game import play_match, view
    from rummyai.engine.selfplay import match_record

    agents = [make_agent_from_spec(spec) for spec in specs]
    for seat, agent in enumerate(agents):
        agent.reset(seed * 1000 + seat)
    moves = 0

    def choose(state: Any, seat: int, legal: Any, rng: Any) -> Any:
        nonlocal moves
        moves += 1
        return agents[seat].act(view(state, seat), legal)

    state = play_match(variant_id, len(agents), seed, choose, options=list(options), max_turns=max_turns)
    return match_record(state, specs, moves)


def cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    """Play one whole match with the named agents and print it."""
    specs = [a.strip() for a in args.agents.split(",") if a.strip()] if args.agents else ["random"]
    if len(specs) == 1:
        specs = specs * args.players
    if len(specs) != args.players:
        raise RummyError(f"--agents names {len(specs)} agents for {args.players} players")
    record = play_agents_match(args.variant, _options(args.option), specs, args.seed, args.max_turns)
    if args.json:
        out.write(json.dumps(record) + "\n")
        return 0
    _print_match(record, out)
    return 0


def _print_match(record: dict[str, Any], out: TextIO) -> None:
    from rich.console import Console
    from rich.table import Table

    seats = [f"{i}:{name}" for i, name in enumerate(record["agents"])]
    table = Table(title=f"{record['variant']} · seed {record['seed']} · {record['players']} players")
    table.add_column("round")
    table.add_column("ended by")
    table.add_column("winner")
    for seat in seats:
        table.add_column(seat, justify="right")
    for number, result in enumerate(record["rounds"], start=1):
        winner = "-" if result["winner"] is None else str(result["winner"])
        table.add_row(str(number), result["reason"], winner, *(str(s) for s in result["scores"]))
    table.add_row("total", "", "", *(str(s) for s in record["totals"]), style="bold")
    console = Console(file=out)
    console.print(table)
    winners = ", ".join(seats[w] for w in record["winners"])
    console.print(f"winner: {winners}  ({record['moves']} moves)")


# ------------------------------------------------------------------------------ validate / solve
def _position_from_args(args: argparse.Namespace, extra: dict[str, Any]) -> dict[str, Any]:
    position: dict[str, Any] = {
        "variant": args.variant,
        "hand": args.hand or "",
        "table": args.table or "",
        "opened": not args.not_opened,
        **extra,
    }
    if args.option:
        position["options"] = _options(args.option)
    return position


def _run_lines(
    handle: Callable[[dict[str, Any]], dict[str, Any]], defaults: dict[str, Any], out: TextIO
) -> int:
    """Answer one JSON position per stdin line; a bad line gets ``{"error": ...}`` and the run goes on."""
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            try:
                position = json.loads(line)
            except json.JSONDecodeError as error:
                raise RummyError(f"malformed JSON on this line: {error}") from None
            if not isinstance(position, dict):
                raise ValueError("a position is a JSON object")
            answer = handle({**defaults, **position})
        except (ValueError, RummyError) as error:
            answer = {"error": str(error)}
        out.write(json.dumps(answer) + "\n")
        out.flush()
    return 0


def cmd_validate(args: argparse.Namespace, out: TextIO) -> int:
    """Judge a tile-style PLAY: is the new table a legal result of playing from hand onto table?"""
    from rummyai.engine.judge import judge_json

    if args.jsonl:
        defaults = {"variant": args.variant, **({"options": _options(args.option)} if args.option else {})}
        return _run_lines(judge_json, defaults, out)
    answer = judge_json(_position_from_args(args, {"new_table": args.new_table or ""}))
    if "error" in answer:
        raise RummyError(answer["error"])
    if args.json:
        out.write(json.dumps(answer) + "\n")
    elif answer["legal"]:
        out.write(f"legal: plays {' '.join(answer['played'])}\n")
    else:
        out.write(f"illegal ({answer['rule']}): {answer['reason']}\n")
    return 0


def cmd_solve(args: argparse.Namespace, out: TextIO) -> int:
    """Find the best move from hand and table under the variant's rules."""
    from rummyai.solvers import solve_json

    extra = {"objective": args.objective}
    if args.time_limit is not None:
        extra["time_limit"] = args.time_limit
    if args.jsonl:
        defaults = {"variant": args.variant, **extra}
        if args.option:
            defaults["options"] = _options(args.option)
        return _run_lines(solve_json, defaults, out)
    answer = solve_json(_position_from_args(args, extra))
    if "error" in answer:
        raise RummyError(answer["error"])
    if args.json:
        out.write(json.dumps(answer) + "\n")
        return 0
    played = " ".join(answer["played"]) or "nothing"
    out.write(
        f"{answer['status']}: play {played} ({answer['cards_played']} cards, {answer['points_played']} points)\n"
    )
    for swap in answer.get("swaps", []):
        escort = f" with escort {swap['escort']}" if swap["escort"] else ""
        out.write(
            f"  first swap {swap['diamond']} out of meld {swap['meld'] + 1} for {swap['replacement']}{escort}\n"
        )
    for meld in answer["melds"]:
        out.write("  " + " ".join(meld) + "\n")
    out.write(f"solved in {answer['ms']:.1f} ms\n")
    return 0


def cmd_agents(args: argparse.Namespace, out: TextIO) -> int:
    """List the registered agents with a line each."""
    from rummyai.agents import AGENTS

    if args.json:
        out.write(json.dumps(AGENTS) + "\n")
        return 0
    width = max(len(name) for name in AGENTS)
    for name, description in AGENTS.items():
        out.write(f"{name:<{width}}  {description}\n")
    return 0


def cmd_tournament(args: argparse.Namespace, out: TextIO) -> int:
    """Run a duplicate-deal tournament (see `rummyai.arena`)."""
    from rummyai.arena.cli import tournament_main

    return tournament_main(args)


def cmd_hint(args: argparse.Namespace, out: TextIO) -> int:
    """Print the best move with the steps to carry it out, and alternatives."""
    from rummyai.hint.api import format_hint, hint_json

    request = _position_from_args(args, {"objective": args.objective, "alternatives": args.alternatives})
    answer = hint_json(request)
    if "error" in answer:
        raise RummyError(answer["error"])
    out.write(json.dumps(answer) + "\n" if args.json else format_hint(answer))
    return 0


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    """Run the HTTP hint service (needs the `serve` extra)."""
    try:
        from rummyai.hint.service import serve
    except ImportError as error:
        raise RummyError(
            f"the HTTP service needs the 'serve' extra: pip install 'rummyai[serve]' ({error})"
        ) from None
    serve(args.host, args.port)
    return 0


# ------------------------------------------------------------------------------ parser
def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(prog="rummyai", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("variants", help="list the built-in variants")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=cmd_variants)

    def variant_args(p: argparse.ArgumentParser, required: bool = True) -> None:
        p.add_argument("--variant", required=required, help=f"one of {', '.join(VARIANT_IDS)}")
        p.add_argument("--option", action="append", help="variant option name[=value]; repeatable")

    p = sub.add_parser("play", help="play one whole match")
    variant_args(p)
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--agents", default="", help="comma-separated agent names, one per seat")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--max-turns", type=int, default=None, help="truncate each round after this many turns")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_play)

    for name, run, help_text in (
        ("validate", cmd_validate, "judge a tile-style play"),
        ("solve", cmd_solve, "find the best move"),
    ):
        p = sub.add_parser(name, help=help_text)
        variant_args(p, required=False)
        p.add_argument("--hand", help='hand cards, e.g. "7H 8H 9H JK"')
        p.add_argument("--table", help='table melds separated by |, e.g. "3C 4C 5C | 8S 8D 8H"')
        p.add_argument("--not-opened", action="store_true", help="the player has not opened yet")
        mode = p.add_mutually_exclusive_group()
        mode.add_argument("--json", action="store_true")
        mode.add_argument("--jsonl", action="store_true", help="read one JSON position per stdin line")
        p.set_defaults(run=run)
        if name == "validate":
            p.add_argument("--new-table", help="the table after the play")
        else:
            p.add_argument("--objective", default="cards", choices=("cards", "points", "penalty"))
            p.add_argument("--time-limit", type=float, default=None, help="seconds")
    p = sub.add_parser("hint", help="best move with steps a person can follow")
    variant_args(p)
    p.add_argument("--hand", required=True)
    p.add_argument("--table", default="")
    p.add_argument("--not-opened", action="store_true")
    p.add_argument("--objective", default="cards", choices=("cards", "points", "penalty"))
    p.add_argument("--alternatives", type=int, default=3)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_hint)

    p = sub.add_parser("serve", help="HTTP hint service (FastAPI)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--workers", type=int, default=2, help="solver worker processes")
    p.add_argument("--time-limit", type=float, default=2.0, help="solve time limit per request, seconds")
    p.set_defaults(run=cmd_serve)

    p = sub.add_parser("agents", help="list the agents")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_agents)

    from rummyai.arena.cli import add_tournament_arguments

    p = add_tournament_arguments(sub.add_parser("tournament", help="duplicate-deal tournament with ratings"))
    p.set_defaults(run=cmd_tournament)
    return parser


def _check_variant_given(args: argparse.Namespace) -> None:
    needs_variant = args.command in ("validate", "solve") and not args.jsonl
    if needs_variant and not args.variant:
        raise RummyError("--variant is required (one of " + ", ".join(VARIANT_IDS) + ")")
    if getattr(args, "variant", None):
        get_variant(args.variant, _options(getattr(args, "option", None)))
    if getattr(args, "players", None) is not None and args.command == "play":
        variant = get_variant(args.variant, _options(args.option))
        if not variant.min_players <= args.players <= variant.max_players:
            raise RummyError(
                f"{variant.id} is played by {variant.min_players} to {variant.max_players} players, not {args.players}"
            )


def main(argv: Iterable[str] | None = None, out: TextIO | None = None) -> int:
    """Entry point of the `rummyai` command; returns the exit status."""
    args = build_parser().parse_args(list(argv) if argv is not None else None)
    stream = out or sys.stdout
    try:
        _check_variant_given(args)
        status: int = args.run(args, stream)
        return status
    except RummyError as error:
        print(f"rummyai: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return 0


__all__ = ["OPTIONS", "build_parser", "main"]

if __name__ == "__main__":
    sys.exit(main())
