"""The `rummyai` command: list variants, play matches, judge and solve positions.

Bad input (unknown card or variant, too many copies, an invalid meld, a file that cannot be read
or written) prints one line on stderr and exits with status 2, never a traceback; with --json the
same message is also printed as ``{"error": ...}`` on standard output. `validate` exits 1 for an
illegal play. With --jsonl every input line, empty or bad ones included, gets exactly one answer
line in order. A bug is reported in one line too (status 1; ``RUMMYAI_DEBUG=1`` shows the
traceback). Heavy modules are imported only by the subcommands that need them, so
`rummyai variants` starts fast.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import textwrap
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NoReturn, TextIO

from rummyai import __version__
from rummyai.engine.state import ROUND_END_WORDS
from rummyai.errors import RummyError
from rummyai.variants import BUILTINS, OPTIONS, VARIANT_IDS, get_variant

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 1
EXIT_ILLEGAL = 1  # validate: the play breaks a rule
EXIT_INTERRUPTED = 130  # Ctrl-C, as shells report SIGINT
STDIN = "-"
#: What --variant means beside --jsonl (each line may name its own variant).
JSONL_VARIANT = "with it, the variant of the lines that name none"


class _UsageError(SystemExit):
    """A command line argparse refuses (status 2, its line already on stderr); `main` also writes
    it as an ``{"error": ...}`` line under --json."""

    def __init__(self, message: str) -> None:
        super().__init__(EXIT_BAD_INPUT)
        self.message = message


class _HelpWithDefaults(argparse.HelpFormatter):
    """Help lines that end with the option's default where it has one to say (not None, off or
    empty) and the text does not name it already."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        unsaid = default is None or default is False or default in ("", [], argparse.SUPPRESS)
        if not action.option_strings or unsaid or "default" in text:
            return action.help
        return f"{text} (default {str(default).replace('%', '%%')})"


class _Parser(argparse.ArgumentParser):
    """An argument parser whose usage errors are one line on stderr with status 2 (no usage dump),
    and whose help names each option's default."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _HelpWithDefaults)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: error: {message} (see {self.prog} --help)\n")
        raise _UsageError(message)


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
    console = Console(file=out)  # the terminal's width (80 columns when not a terminal)
    console.print(table)
    out.write("Options (--option NAME or NAME=VALUE):\n")
    for row in rows:
        named = f"  {row['id']}: {', '.join(row['available_options']) or 'none'}"
        out.write(textwrap.fill(named, console.width, subsequent_indent="    ") + "\n")
    return 0


# ------------------------------------------------------------------------------ play
def cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    """Play one whole match with the named agents and print it."""
    from rummyai.matches import play_match

    specs = [a.strip() for a in args.agents.split(",")] if args.agents else ["random"]
    if not all(specs):
        raise RummyError(f"--agents {args.agents!r} has an empty name between commas")
    if len(specs) == 1:
        specs = specs * args.players
    if len(specs) != args.players:
        raise RummyError(f"--agents names {len(specs)} agents for {args.players} players")
    if args.seed < 0:
        raise RummyError(f"--seed must be a non-negative integer, got {args.seed}")
    if args.max_turns is not None and args.max_turns < 1:
        raise RummyError(f"--max-turns must be at least 1, got {args.max_turns}")
    record = play_match(
        args.variant, specs, seed=args.seed, options=_options(args.option), max_turns=args.max_turns
    )
    if args.json:
        out.write(json.dumps(record) + "\n")
        return 0
    _print_match(dict(record), out)
    return 0


def _print_match(record: dict[str, Any], out: TextIO) -> None:
    from rich.console import Console
    from rich.table import Table

    seats = [f"{i}:{name}" for i, name in enumerate(record["agents"])]
    order = "low score wins" if get_variant(record["variant"]).low_score_wins else "high score wins"
    title = f"{record['variant']} · seed {record['seed']} · {record['players']} players · {order}"
    table = Table(title=title)
    table.add_column("round")
    table.add_column("ended by")
    table.add_column("winner")
    for seat in seats:
        table.add_column(seat, justify="right")
    for number, result in enumerate(record["rounds"], start=1):
        winner = "-" if result["winner"] is None else str(result["winner"])
        ended = ROUND_END_WORDS.get(result["reason"], result["reason"])
        table.add_row(str(number), ended, winner, *(str(s) for s in result["scores"]))
    table.add_row("total", "", "", *(str(s) for s in record["totals"]), style="bold")
    console = Console(file=out)
    console.print(table)
    winners = ", ".join(seats[w] for w in record["winners"])
    label = "winners" if len(record["winners"]) > 1 else "winner"
    console.print(f"{label}: {winners}, by the match total ({order})  ({record['moves']} moves)")


# ------------------------------------------------------------------------------ validate / solve
def _position_from_args(args: argparse.Namespace, extra: dict[str, Any]) -> dict[str, Any]:
    if args.hand is None:
        raise RummyError(
            '--hand is required: the cards in hand, e.g. "7H 8H JK" (or --jsonl to read positions)'
        )
    position: dict[str, Any] = {
        "variant": args.variant,
        "hand": args.hand,
        "table": args.table or "",
        "opened": not args.not_opened,
        **extra,
    }
    if args.option:
        position["options"] = _options(args.option)
    return position


def _line_defaults(args: argparse.Namespace, extra: dict[str, Any]) -> dict[str, Any]:
    """Keys the command line gives every --jsonl position (a line's own keys win); unset ones left out."""
    defaults = {k: v for k, v in extra.items() if v is not None}
    if args.variant:
        defaults["variant"] = args.variant
    if args.option:
        defaults["options"] = _options(args.option)
    if args.not_opened:
        defaults["opened"] = False
    for name in ("hand", "table", "new_table"):
        if getattr(args, name, None) is not None:
            defaults[name] = getattr(args, name)
    return defaults


def _run_lines(
    handle: Callable[[dict[str, Any]], dict[str, Any]], defaults: dict[str, Any], source: str, out: TextIO
) -> int:
    """Answer one JSON position per line of `source` (a path, or ``-`` for stdin), one answer line each.

    A bad line (empty, malformed JSON, not an object, bad cards) gets ``{"error": ...}`` and the
    run goes on; so does a line that hits a bug (then the exit status is 1 at the end).
    """
    if not source:
        raise RummyError("--jsonl names an empty path (give a file, or no value to read stdin)")
    if source == STDIN:
        reconfigure = getattr(sys.stdin, "reconfigure", None)
        if reconfigure is not None:  # JSON is UTF-8 (RFC 8259); bad bytes make a malformed line
            reconfigure(encoding="utf-8-sig", errors="replace")
        return _answer_lines(handle, defaults, sys.stdin, out)
    try:
        with open(source, encoding="utf-8-sig", errors="replace") as lines:
            return _answer_lines(handle, defaults, lines, out)
    except IsADirectoryError:
        raise RummyError(f"--jsonl {source}: is a folder, not a file of JSON lines") from None
    except OSError as error:
        if error.filename is None:
            raise
        raise RummyError(f"--jsonl {source}: {error.strerror or error}") from None


def _answer_lines(
    handle: Callable[[dict[str, Any]], dict[str, Any]],
    defaults: dict[str, Any],
    lines: Iterable[str],
    out: TextIO,
) -> int:
    status = 0
    for line in lines:
        try:
            position = _merge(defaults, _parse_line(line))
            _check_option_values(position.get("options"))
            answer = handle(position)
        except RummyError as error:
            answer = {"error": str(error)}
        except Exception as error:  # a bug must not stop the run: report it on its line
            answer = {"error": f"internal error ({type(error).__name__}): {error}"}
            status = EXIT_INTERNAL
        out.write(json.dumps(answer) + "\n")
        out.flush()
    return status


def _check_option_values(options: object) -> None:
    """Refuse a fractional number for an integer option (``{"rounds": 2.5}``) instead of truncating it."""
    if not isinstance(options, dict):
        return
    for name, value in options.items():
        if isinstance(value, float) and not value.is_integer():
            raise RummyError(f"option {name!r} needs an integer, got {value!r}")


def _merge(defaults: dict[str, Any], position: dict[str, Any]) -> dict[str, Any]:
    """A line's position over the command line's defaults. --option fills in the options of a line
    that gives none; with --variant, only of that variant's lines (options belong to a variant)."""
    merged = {**defaults, **position}
    if (
        "options" in defaults
        and "options" not in position
        and "variant" in defaults
        and position.get("variant", defaults["variant"]) != defaults["variant"]
    ):
        del merged["options"]
    return merged


def _parse_line(line: str) -> dict[str, Any]:
    """The JSON object on one --jsonl line; `RummyError` for an empty line, bad JSON or a non-object."""
    line = line.lstrip("\ufeff")  # a byte-order mark some editors write first
    if not line.strip():
        raise RummyError("empty line: expected a JSON object with the position")
    try:
        position = json.loads(line)
    except (ValueError, RecursionError) as error:  # bad JSON, a number too long to read, deep nesting
        raise RummyError(f"malformed JSON on this line: {error}") from None
    if not isinstance(position, dict):
        raise RummyError(f"a position is a JSON object, got {type(position).__name__}")
    return position


def _validate_answer(position: dict[str, Any]) -> dict[str, Any]:
    """The engine judge's answer to one validate position (it names unknown keys)."""
    from rummyai.engine.judge import judge_json

    return judge_json(position)


def _answer_one(
    handle: Callable[[dict[str, Any]], dict[str, Any]], args: argparse.Namespace, extra: dict[str, Any]
) -> dict[str, Any]:
    """`handle`'s answer to the command line's own position (keys left unset are left out);
    `RummyError` for an ``{"error": ...}`` answer."""
    answer = handle(_position_from_args(args, {k: v for k, v in extra.items() if v is not None}))
    if "error" in answer:
        raise RummyError(_named_as_flag(answer["error"]))
    return answer


# JSON keys a single position's flags fill, and the flag a person typed for each
_FLAG_OF = {
    "hand": "--hand",
    "table": "--table",
    "new_table": "--new-table",
    "options": "--option",
    "objective": "--objective",
    "time_limit": "--time-limit",
    "alternatives": "--alternatives",
    "score": "--score",
    "committed": "--committed",
    "taken": "--taken",
}
_LEADING_KEY = re.compile(r"'?([a-z_]+)'?(?=[\s:(,])")


def _named_as_flag(message: str) -> str:
    """An error of the JSON contract, which names the key it refuses ("time_limit must be ..."),
    as the command line's: the flag instead ("--time-limit must be ...")."""
    found = _LEADING_KEY.match(message)
    if found is None or found.group(1) not in _FLAG_OF:
        return message
    return _FLAG_OF[found.group(1)] + message[found.end() :]


def _turn_keys(args: argparse.Namespace) -> dict[str, Any]:
    """The keys `solve` and `hint` both read from their flags (None where unset)."""
    return {
        "objective": args.objective,
        "time_limit": args.time_limit,
        "score": args.score,
        "committed": args.committed,
        "taken": args.taken,
    }


def cmd_validate(args: argparse.Namespace, out: TextIO) -> int:
    """Judge a tile-style PLAY: is the new table a legal result of playing from hand onto table?"""
    if args.jsonl is not None:
        return _run_lines(_validate_answer, _line_defaults(args, {}), args.jsonl, out)
    if args.new_table is None:
        raise RummyError("--new-table is required: the table after the play (melds separated by '|')")
    answer = _answer_one(_validate_answer, args, {"new_table": args.new_table})
    if args.json:
        out.write(json.dumps(answer) + "\n")
    elif answer["legal"]:
        out.write(f"legal: plays {' '.join(answer['played'])}\n")
    else:
        out.write(f"illegal ({answer['rule']}): {answer['reason']}\n")
    return 0 if answer["legal"] else EXIT_ILLEGAL


def cmd_solve(args: argparse.Namespace, out: TextIO) -> int:
    """Find the best move from hand and table under the variant's rules."""
    from rummyai.solvers import solve_json

    extra = {**_turn_keys(args), "minimize_changes": args.minimize_changes}
    if args.jsonl is not None:
        return _run_lines(solve_json, _line_defaults(args, extra), args.jsonl, out)
    answer = _answer_one(solve_json, args, extra)
    if args.json:
        out.write(json.dumps(answer) + "\n")
        return 0
    played = " ".join(answer["played"]) or "nothing"
    worth = f"{_n(answer['cards_played'], 'card')}, {_n(answer['points_played'], 'point')} at hand value"
    out.write(f"{answer['status']}: play {played} ({worth})\n")
    if answer["status"] == "feasible":
        out.write(
            "  not proven the best: a time or work limit cut the search, or the joker-rule check could not prove it\n"
        )
    elif not answer["played"]:
        from rummyai.hint.api import nothing_played

        opening = args.not_opened or args.objective == "opening"  # that objective asks for an opening
        variant = get_variant(args.variant, _options(args.option))
        out.write(f"  {nothing_played(variant, not opening, proven=True)}\n")
    for swap in answer.get("swaps", []):
        if "joker" in swap:  # Rummy Palace: the joker goes straight back on the table
            how = "lay it off onto" if swap["lay_off"] else "lay it down in new"
            out.write(
                f"  swap {swap['joker']} out of meld {swap['meld'] + 1} for {swap['replacement']}, "
                f"then {how} meld {swap['to_meld'] + 1} as {swap['placed_as']}\n"
            )
            continue
        escort = f" with escort {swap['escort']}" if swap["escort"] else ""
        out.write(
            f"  first swap {swap['diamond']} out of meld {swap['meld'] + 1} for {swap['replacement']}{escort}\n"
        )
    for meld in answer["melds"]:
        out.write("  " + " ".join(meld) + "\n")
    out.write(f"solved in {answer['ms']:.1f} ms\n")
    return 0


def _n(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def cmd_agents(args: argparse.Namespace, out: TextIO) -> int:
    """List the registered agents with a line each."""
    from rummyai.agents import AGENTS

    if args.json:
        out.write(json.dumps(AGENTS) + "\n")
        return 0
    import shutil

    width = max(len(name) for name in AGENTS)
    columns = max(shutil.get_terminal_size((100, 24)).columns, width + 40)
    for name, description in AGENTS.items():
        lines = textwrap.wrap(description, columns - width - 2) or [""]
        out.write(f"{name:<{width}}  {lines[0]}\n")
        out.writelines(f"{'':<{width}}  {line}\n" for line in lines[1:])
    return 0


def cmd_tournament(args: argparse.Namespace, out: TextIO) -> int:
    """Run a duplicate-deal tournament (see `rummyai.arena`)."""
    from rummyai.arena.cli import tournament_main

    return tournament_main(args)


def cmd_hint(args: argparse.Namespace, out: TextIO) -> int:
    """Print the best move with the steps to carry it out, and alternatives."""
    from rummyai.hint.api import format_hint, hint_json

    extra = {**_turn_keys(args), "alternatives": args.alternatives}
    if args.jsonl is not None:
        return _run_lines(hint_json, _line_defaults(args, extra), args.jsonl, out)
    answer = _answer_one(hint_json, args, extra)
    out.write(json.dumps(answer) + "\n" if args.json else format_hint(answer))
    return 0


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    """Run the HTTP hint service (needs the `serve` extra)."""
    if not 0 <= args.port <= 65535:
        raise RummyError(f"--port must be 0..65535, got {args.port}")
    try:
        from rummyai.hint.limits import Limits
        from rummyai.hint.pool import start_fork_server

        start_fork_server()  # the solver loads in the workers' fork server while the web framework does
        from rummyai.hint.service import serve
    except ImportError as error:
        raise RummyError(
            f"the HTTP service needs the 'serve' extra: pip install '.[serve]' from a clone ({error})"
        ) from None
    web = {"cors_origins": args.cors_origin, "runs": args.runs}
    serve(args.host, args.port, _limits(Limits, args), **{k: v for k, v in web.items() if v})
    return 0


def _limits(factory: Callable[..., Any], args: argparse.Namespace) -> Any:
    """The service limits from --workers and --time-limit, bad values named as input errors."""
    if args.workers < 1:
        raise RummyError(f"--workers must be at least 1, got {args.workers}")
    if not (args.time_limit > 0 and math.isfinite(args.time_limit)):
        raise RummyError(f"--time-limit must be a positive number of seconds, got {args.time_limit}")
    return factory(workers=args.workers, time_limit=args.time_limit)


# ------------------------------------------------------------------------------ parser
OBJECTIVE_HELP = "cards: most cards (ties: points); points: most points; penalty: least left in hand"
COMMITTED_HELP = "cards that must be played, as after taking from the discards (standard, black-heart)"
TAKEN_HELP = "the card taken from the discards, which may not be the discard (rummy-palace)"
SCORE_HELP = "black-heart: the player's cumulative score, which picks the opening chart line (default 0)"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = _Parser(
        prog="rummyai",
        description=__doc__.splitlines()[0],
        epilog="Cards: rank A 2-9 T (or 10) J Q K and suit S H D C, e.g. 7H TS AD, the joker JK (JK=7H "
        "states what it stands for); melds are separated by |. Exit status: 0 done, 1 an illegal play "
        "(validate) or an internal error, 2 bad input, 130 interrupted.",
    )
    parser.add_argument("--version", action="version", version=f"rummyai {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("variants", help="list the built-in variants")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(run=cmd_variants)

    def variant_args(p: argparse.ArgumentParser, jsonl_note: str = "") -> None:
        """--variant (required, unless `jsonl_note` says what --jsonl lines do without it) and --option."""
        note = f" (required without --jsonl; {jsonl_note})" if jsonl_note else ""
        p.add_argument("--variant", required=not jsonl_note, help=f"one of {', '.join(VARIANT_IDS)}{note}")
        p.add_argument("--option", action="append", help="variant option name[=value]; repeatable")

    def position_args(p: argparse.ArgumentParser, json_help: str, jsonl_variant: str) -> None:
        """The position's arguments, and --json or --jsonl (then each line's keys win over them)."""
        variant_args(p, jsonl_variant)
        p.add_argument("--hand", help='hand cards, e.g. "7H 8H 9H JK"')
        p.add_argument("--table", help='table melds separated by |, e.g. "3C 4C 5C | 8S 8D 8H"')
        p.add_argument("--not-opened", action="store_true", help="the player has not opened yet")
        mode = p.add_mutually_exclusive_group()
        mode.add_argument("--json", action="store_true", help=json_help)
        mode.add_argument(
            "--jsonl",
            nargs="?",
            const=STDIN,
            default=None,
            metavar="FILE",
            help="answer one JSON position per line of FILE (standard input without FILE or with -)",
        )

    p = sub.add_parser("play", help="play one whole match")
    variant_args(p)
    p.add_argument("--players", type=int, default=2, help="number of seats (default 2)")
    p.add_argument(
        "--agents",
        default="",
        help="comma-separated agent names, one per seat (one name alone fills every seat; default: random)",
    )
    p.add_argument(
        "--seed", type=int, default=0, help="deal seed: the same seed replays the same match (default 0)"
    )
    p.add_argument("--max-turns", type=int, default=None, help="truncate each round after this many turns")
    p.add_argument("--json", action="store_true", help="print the match record as JSON")
    p.set_defaults(run=cmd_play)

    for name, run, help_text in (
        ("validate", cmd_validate, "judge a tile-style play"),
        ("solve", cmd_solve, "find the best move"),
    ):
        p = sub.add_parser(name, help=help_text)
        unset = "rummikub" if name == "solve" else "every line must name one"
        position_args(p, "print the answer as one JSON object", f"{JSONL_VARIANT} ({unset} without it)")
        p.set_defaults(run=run)
        if name == "validate":
            p.add_argument("--new-table", help="the table after the play")
        else:
            p.add_argument(
                "--objective",
                default="cards",
                choices=("cards", "points", "penalty", "opening"),
                help=OBJECTIVE_HELP + "; opening: the fewest hand cards that meet the opening requirement",
            )
            p.add_argument("--time-limit", type=float, default=None, help="seconds (default: no limit)")
            p.add_argument("--score", type=int, default=None, help=SCORE_HELP)
            p.add_argument("--committed", default=None, help=COMMITTED_HELP)
            p.add_argument("--taken", default=None, help=TAKEN_HELP)
            p.add_argument(
                "--minimize-changes",
                action=argparse.BooleanOptionalAction,
                default=None,
                help="among the best plays, keep the most table melds whole (default: on; off is faster)",
            )
    p = sub.add_parser("hint", help="best move with steps a person can follow")
    position_args(p, "print the hint as JSON", f"{JSONL_VARIANT} (rummikub without it)")
    p.add_argument(
        "--objective", default="cards", choices=("cards", "points", "penalty"), help=OBJECTIVE_HELP
    )
    p.add_argument(
        "--alternatives", type=int, default=3, help="other good moves to show besides the best (0-5)"
    )
    p.add_argument(
        "--time-limit", type=float, default=None, help="seconds for the whole hint (default: no limit)"
    )
    p.add_argument("--score", type=int, default=None, help=SCORE_HELP)
    p.add_argument("--committed", default=None, help=COMMITTED_HELP)
    p.add_argument("--taken", default=None, help=TAKEN_HELP)
    p.set_defaults(run=cmd_hint)

    p = sub.add_parser("serve", help="HTTP hint service (FastAPI)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on")
    p.add_argument("--port", type=int, default=8000, help="port to listen on")
    p.add_argument("--workers", type=int, default=2, help="solver worker processes")
    p.add_argument("--time-limit", type=float, default=2.0, help="solve time limit per request, seconds")
    p.add_argument(
        "--cors-origin",
        action="append",
        default=[],
        help="browser origin allowed to call (repeatable, * for any)",
    )
    p.add_argument("--runs", default=None, help="tournament folder the web page's replay viewer opens")
    p.set_defaults(run=cmd_serve)

    p = sub.add_parser("agents", help="list the agents")
    p.add_argument("--json", action="store_true", help="print the list as JSON")
    p.set_defaults(run=cmd_agents)

    from rummyai.arena.cli import add_tournament_arguments

    tournament = add_tournament_arguments(
        sub.add_parser("tournament", help="duplicate-deal tournament with ratings")
    )
    tournament.set_defaults(run=cmd_tournament)

    from rummyai.arena.study_cli import add_study_arguments, study_main

    study = add_study_arguments(sub.add_parser("study", help="run or report a pre-registered study plan"))
    study.set_defaults(run=lambda args, out: study_main(args))
    return parser


def _check_variant_given(args: argparse.Namespace) -> None:
    needs_variant = args.command in ("validate", "solve", "hint") and getattr(args, "jsonl", None) is None
    if needs_variant and not args.variant:
        raise RummyError("--variant is required (one of " + ", ".join(VARIANT_IDS) + ")")
    if args.command == "tournament" and not args.out.strip():
        raise RummyError("--out names an empty path: give the folder for the games and the report")
    if getattr(args, "variant", None):
        get_variant(args.variant, _options(getattr(args, "option", None)))
    if getattr(args, "players", None) is not None and args.command == "play":
        from rummyai.engine.game import check_players

        check_players(get_variant(args.variant, _options(args.option)), args.players)


def main(argv: Iterable[str] | None = None, out: TextIO | None = None) -> int:
    """Entry point of the `rummyai` command; returns the exit status."""
    words = list(argv) if argv is not None else sys.argv[1:]
    stream = out or sys.stdout
    parser = build_parser()
    if not words:  # no subcommand: the help, as a usage error
        parser.print_help(sys.stderr)
        return EXIT_BAD_INPUT
    try:
        args, extra = parser.parse_known_args(words)
        if extra:  # name the subcommand's help, which lists what it takes
            _Parser(prog=f"rummyai {args.command}").error(f"unrecognized arguments: {' '.join(extra)}")
    except _UsageError as error:  # with --json, the answer line names the problem too
        if "--json" in words:
            stream.write(json.dumps({"error": error.message}) + "\n")
        raise
    try:
        _check_variant_given(args)
        status: int = args.run(args, stream)
        stream.flush()  # a full disk or closed pipe shows here, inside the handlers below
        return status
    except RummyError as error:
        return _report(args, stream, f"rummyai: error: {error}", str(error), EXIT_BAD_INPUT)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:  # Ctrl-C: games already played are on disk, the same command resumes
        sys.stderr.write(
            "rummyai: interrupted (a tournament or study resumes when the same command is rerun)\n"
        )
        return EXIT_INTERRUPTED
    except OSError as error:  # a file or folder that cannot be read or written: name it
        if error.filename is None and stream is sys.stdout:
            _silence_stdout()  # the output itself failed: nothing more can go there
            args.json = False
        problem = _io_problem(args, error)
        return _report(args, stream, f"rummyai: error: {problem}", problem, EXIT_BAD_INPUT)
    except Exception as error:  # a bug: one line, not a traceback (RUMMYAI_DEBUG=1 shows it)
        if os.environ.get("RUMMYAI_DEBUG"):
            raise
        message = f"internal error ({type(error).__name__}): {error}"
        return _report(args, stream, f"rummyai: {message}", message, EXIT_INTERNAL)


def _silence_stdout() -> None:
    """Point standard output at the null device, so the flush at exit does not fail a second time."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError):  # no file descriptor behind sys.stdout (tests, embedding)
        pass


def _io_problem(args: argparse.Namespace, error: OSError) -> str:
    """What could not be read or written, and why (the path, or the --out folder being written)."""
    reason = error.strerror or str(error)
    if error.filename is not None:
        return f"cannot use {error.filename}: {reason}"
    if getattr(args, "out", None):
        return f"cannot write to {args.out}: {reason}"
    return f"cannot write the output: {reason}"


def _report(args: argparse.Namespace, out: TextIO, line: str, message: str, status: int) -> int:
    """Print an error as one line on stderr, and as ``{"error": ...}`` on `out` with --json."""
    print(" ".join(line.split("\n")), file=sys.stderr)
    if getattr(args, "json", False):
        try:
            out.write(json.dumps({"error": message}) + "\n")
            out.flush()
        except OSError:  # the output is full or gone: the line on stderr said it all
            if out is sys.stdout:
                _silence_stdout()
    return status


__all__ = ["OPTIONS", "build_parser", "main"]

if __name__ == "__main__":
    sys.exit(main())
