"""Solver benchmark: every figure of the solver-speed targets in one run.

1. `rummikub`, 200 deterministic positions (table empty or 3-60 tiles of random runs and groups
   with jokers anywhere, hand 6-20 tiles), warm solves, in one run with PyPI `rummikub-solver`
   1.0.0 (GLPK_MI, in its own venv created on first use under the cache dir: OR-Tools and its
   MILP back ends ship clashing native libraries): rummyai's default answer (the fewest-melds-broken
   tie-break), cards only (`minimize_changes=False`), the CP-SAT model alone, and the CP-SAT
   fast path's own tie-break phase, with the targets checked (default median and p90 at most half
   of rummikub-solver's, max at most 25 ms; cards-only median at most a fifth of its). Both
   exact methods must agree on every position, and tiles played are compared with rummikub-solver.
   `--order blocks` (default) runs every position through one solver, then the next, as a caller
   solving positions one after another would; `--order positions` gives each position to every
   solver in turn, so each solve follows the others' work on the same core.
2. Mid-game `rummy-tiles` and `rhine` positions (tables of 15-45 cards holding a joker, hands of
   8-16): median / p90 / max and how many are proven optimal (targets: all, p90 <= 30 ms, max <= 200).
3. The other variants: `rummy-board`, `rummy-palace`, `standard`, `black-heart`.
4. Time limits: large positions of every variant (hard Rhine ones with a second pack, tables of
   45-70 cards; the others 30-80; many jokers) solved with `time_limit` t, opened and not, must
   answer within t + 0.3 s; the cards they play are compared with solves of a 10 s limit.
5. A plot of solve time against table size.

Times are wall milliseconds around `rummyai.solvers.solve` (input checks included) per warm solve
(one untimed solve first); every answer is checked valid. The load average is printed at the start
and the end: the machine may be shared. Each section's figures are also appended as one JSON line to
`--out` as soon as it is done.

    .venv/bin/python experiments/benchmarks/solver_bench.py [--positions 200] [--mid 60] [--seed 0]
        [--time-limit 0.5] [--hard 20] [--no-baseline] [--no-cp-sat] [--sections 1234] [--plot FILE]
        [--out FILE]

The figures go to `runs/bench/` unless `--plot` and `--out` name other files (the documentation's
plot and data are `docs/images/solver_bench.png` and `experiments/benchmarks/data/solver_bench.jsonl`).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from functools import partial
from importlib.metadata import version
from pathlib import Path
from typing import Any

from tqdm import tqdm

from rummyai.cards import JOKER, Slot
from rummyai.solvers import make_position, solve
from rummyai.solvers.check import check_solution
from rummyai.solvers.dp_native import kernels
from rummyai.solvers.fast import solve_fast
from rummyai.solvers.position import Position, Solution
from rummyai.solvers.random_positions import joker_positions, random_position
from rummyai.variants import get_variant

HERE = Path(__file__).resolve().parent
CACHE = Path(os.environ.get("RUMMYAI_CACHE", Path.home() / ".cache" / "rummyai"))
VENV = CACHE / "rummikub-solver-venv"
Case = tuple[list[int], list[tuple[Slot, ...]]]

# Runs inside the rummikub-solver venv: one position (tile numbers) per stdin line, one answer
# line each with the tiles played and the solve's wall and CPU milliseconds.
CHILD = r"""
import json, sys, time
from rummikub_solver import GameState, MILPSolver, RuleSet, SolverMode
rs = RuleSet(solver_backend=MILPSolver.GLPK_MI)
for line in sys.stdin:
    p = json.loads(line)
    state = rs.new_game()
    state.initial = False
    state.add_rack(*p["rack"])
    if p["table"]:
        state.add_table(*p["table"])
    t, c = time.perf_counter(), time.process_time()
    sol = rs.solve(state, SolverMode.TILE_COUNT)
    ms, cpu = (time.perf_counter() - t) * 1000, (time.process_time() - c) * 1000
    print(json.dumps({"tiles": 0 if sol is None else len(sol.tiles), "ms": ms, "cpu_ms": cpu}), flush=True)
"""


def positions(variant: str, count: int, seed: int) -> list[Case]:
    """Deterministic positions: table empty (1 in 10) or 3-60 tiles, hand 6-20 tiles."""
    out = []
    for i in range(count):
        rng = random.Random(seed * 100_003 + i)
        table_size = 0 if rng.random() < 0.1 else rng.randint(3, 60)
        out.append(random_position(variant, seed * 100_003 + i, table_size, rng.randint(6, 20)))
    return out


def ensure_venv() -> Path:
    """The baseline's own venv (created once under the cache dir)."""
    python = VENV / "bin" / "python"
    if not python.exists():
        print(f"creating {VENV} for rummikub-solver 1.0.0 + cvxopt ...", file=sys.stderr)
        VENV.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", "rummikub-solver==1.0.0", "cvxopt"], check=True
        )
    return python


def to_tiles(cards: list[int]) -> list[int]:
    """rummikub-solver tile numbers: colour-major 1..52, joker 53 (our kinds + 1)."""
    return [53 if c == JOKER else c + 1 for c in cards]


class Baseline:
    """rummikub-solver (GLPK_MI) in its own process, asked one position at a time so that its
    solves and rummyai's alternate under the same load."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [str(ensure_venv()), "-c", CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def solve(self, case: Case) -> dict[str, float]:
        hand, table = case
        payload = {"rack": to_tiles(hand), "table": to_tiles([s.card for meld in table for s in meld])}
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(payload) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit("rummikub-solver stopped (run its venv's python by hand to see why)")
        answer: dict[str, float] = json.loads(line)
        return answer

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


Timed = list[tuple[Solution, float]]


def timed(label: str, variant: str, cases: list[Case], answer: Callable[[Position], Solution]) -> Timed:
    """Each case's answer with its wall milliseconds (one untimed warm-up first); every answer checked."""
    run = [make_position(variant, hand, table) for hand, table in cases]
    answer(run[0])
    out = []
    for position in tqdm(run, desc=label, leave=False, file=sys.stderr):
        start = time.perf_counter()
        sol = answer(position)
        ms = (time.perf_counter() - start) * 1000
        check_solution(position, sol)
        out.append((sol, ms))
    return out


def ours(label: str, variant: str, cases: list[Case], **kwargs: Any) -> Timed:
    """rummyai's `solve` on every case (`kwargs` passed on)."""
    return timed(
        label, variant, cases, lambda p: solve(p.variant, p.hand, [i.slots for i in p.table], **kwargs)
    )


def quantiles(times: Sequence[float]) -> tuple[float, float, float]:
    """median, p90 and max."""
    ordered = sorted(times)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))], ordered[-1]


def row(label: str, times: Sequence[float], proven: str = "") -> str:
    """One line of a table: median / p90 / max ms (and how many answers are proven optimal)."""
    med, p90, top = quantiles(times)
    return f"{label:48s} {med:8.2f} {p90:8.2f} {top:8.2f}  {proven}"


def proven(results: Timed) -> str:
    n = sum(sol.status == "optimal" for sol, _ in results)
    return f"{n}/{len(results)} optimal"


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


class Report:
    """Prints the figures and appends each section's to a JSON-lines file as it is done."""

    def __init__(self, out: Path) -> None:
        self.out = out
        out.parent.mkdir(parents=True, exist_ok=True)

    def section(self, name: str, **figures: Any) -> None:
        with self.out.open("a") as f:
            f.write(json.dumps({"section": name, **figures}) + "\n")


def ms_of(results: Timed) -> list[float]:
    return [ms for _, ms in results]


def clocked(answer: Callable[[], Solution]) -> tuple[Solution, float, float]:
    """An answer with its wall and CPU milliseconds."""
    t, c = time.perf_counter(), time.process_time()
    sol = answer()
    return sol, (time.perf_counter() - t) * 1000, (time.process_time() - c) * 1000


def rummikub_section(ns: argparse.Namespace, report: Report) -> dict[str, Any]:
    cases = positions("rummikub", ns.positions, ns.seed)
    print(f"\n1. {len(cases)} rummikub positions, seed {ns.seed}: ms per warm solve (wall, and CPU)")
    print(f"{'solver':48s} {'median':>8s} {'p90':>8s} {'max':>8s}")
    run = [make_position("rummikub", hand, table) for hand, table in cases]
    base = None if ns.no_baseline else Baseline()
    if base is not None:
        base.solve(cases[0])  # its process has imported its solver before any solve is timed
    kinds: dict[str, dict[str, Any]] = {"default": {}, "cards only": {"minimize_changes": False}}
    wall: dict[str, list[float]] = {k: [] for k in [*kinds, "rummikub-solver"]}
    cpu: dict[str, list[float]] = {k: [] for k in wall}
    answers: dict[str, Timed] = {k: [] for k in kinds}
    tiles: list[float] = []
    table_of = [[info.slots for info in position.table] for position in run]

    def ours(kind: str, k: int, keep: bool) -> None:
        sol, ms, cpu_ms = clocked(partial(solve, run[k].variant, run[k].hand, table_of[k], **kinds[kind]))
        if keep:
            wall[kind].append(ms)
            cpu[kind].append(cpu_ms)
            answers[kind].append((sol, ms))

    def theirs(k: int, keep: bool) -> None:
        assert base is not None
        answer = base.solve(cases[k])
        if keep:
            wall["rummikub-solver"].append(answer["ms"])
            cpu["rummikub-solver"].append(answer["cpu_ms"])
            tiles.append(answer["tiles"])

    solvers = [partial(ours, kind) for kind in kinds] + ([theirs] if base is not None else [])
    every = range(len(run))
    if ns.order == "positions":
        # each position by every solver in turn: the same load for all, but each solve follows
        # the others' work on the same core (their memory in its caches)
        for i, k in enumerate(tqdm([0, *every], desc="rummikub", leave=False, file=sys.stderr)):
            for answer in solvers:
                answer(k, i > 0)  # the first round warms every solver up on position 0
    else:
        # every position by one solver, then by the next (after one untimed solve of the first)
        for answer in solvers:
            answer(0, False)
            for k in tqdm(every, desc="rummikub", leave=False, file=sys.stderr):
                answer(k, True)
    for kind in kinds:
        for position, (sol, _) in zip(run, answers[kind], strict=True):
            check_solution(position, sol)
    if base is not None:
        base.close()
    default, plain = answers["default"], answers["cards only"]
    labels = {
        "default": "rummyai default (fewest melds broken)",
        "cards only": "rummyai cards only (minimize_changes=False)",
        "rummikub-solver": "rummikub-solver 1.0.0 GLPK_MI",
    }
    for kind, label in labels.items():
        if wall[kind]:
            extra = proven(answers[kind]) if kind in answers else ""
            print(row(f"{label}, wall", wall[kind], extra))
            print(row(f"{label}, CPU", cpu[kind]))
    cp, keep = plain, default  # with --no-cp-sat each stands in for itself below
    if not ns.no_cp_sat:
        cp = timed(
            "cp-sat", "rummikub", cases, lambda p: solve_fast(p, "cards", None, minimize_changes=False)
        )
        print(row("rummyai CP-SAT model alone (cards only), wall", ms_of(cp), proven(cp)))
        keep = timed("cp-sat keep", "rummikub", cases, lambda p: solve_fast(p, "cards", None))
        print(row("rummyai CP-SAT with its keep phase, wall", ms_of(keep), proven(keep)))
    agree = sum(
        (a.cards_played, a.points_played)
        == (b.cards_played, b.points_played)
        == (c.cards_played, c.points_played)
        for (a, _), (b, _), (c, _) in zip(default, plain, cp, strict=True)
    )
    broken = {
        "default": sum(s.melds_broken for s, _ in default),
        "cards_only": sum(s.melds_broken for s, _ in plain),
        "cp_sat_keep_phase": sum(s.melds_broken for s, _ in keep),
    }
    fewer = sum(a.melds_broken < b.melds_broken for (a, _), (b, _) in zip(default, keep, strict=True))
    more = sum(a.melds_broken > b.melds_broken for (a, _), (b, _) in zip(default, keep, strict=True))
    if ns.no_cp_sat:
        print(f"start melds broken in all: default {broken['default']}, cards only {broken['cards_only']}")
    else:
        print(f"default, cards-only and CP-SAT agree on cards and points on {agree}/{len(cases)} positions")
        print(
            f"start melds broken in all: default {broken['default']}, cards only {broken['cards_only']}, "
            f"CP-SAT keep phase {broken['cp_sat_keep_phase']} (default fewer on {fewer}, more on {more} "
            "positions)"
        )
    figures: dict[str, Any] = {
        "positions": len(cases),
        "wall": {k: quantiles(v) for k, v in wall.items() if v},
        "cpu": {k: quantiles(v) for k, v in cpu.items() if v},
        "cp_sat": quantiles(ms_of(cp)),
        "cp_sat_keep": quantiles(ms_of(keep)),
        "agree": agree,
        "broken": broken,
        "default_fewer_broken": fewer,
        "default_more_broken": more,
    }
    if base is not None:
        for what, clock in (("wall", wall), ("CPU", cpu)):
            t_med, t_p90, _ = quantiles(clock["rummikub-solver"])
            d_med, d_p90, d_max = quantiles(clock["default"])
            c_med = quantiles(clock["cards only"])[0]
            print(
                f"targets ({what}): default median {d_med / t_med:.2f} and p90 {d_p90 / t_p90:.2f} of "
                f"rummikub-solver's (<= 0.5: {verdict(d_med <= t_med / 2 and d_p90 <= t_p90 / 2)}), max "
                f"{d_max:.1f} ms (<= 25: {verdict(d_max <= 25)}); cards-only median {c_med / t_med:.2f} of "
                f"its (<= 0.2: {verdict(c_med <= t_med / 5)})"
            )
        more_t = sum(s.cards_played > t for (s, _), t in zip(plain, tiles, strict=True))
        fewer_t = sum(s.cards_played < t for (s, _), t in zip(plain, tiles, strict=True))
        print(f"tiles played: rummyai more on {more_t}, fewer on {fewer_t}, equal on the rest")
        figures.update(tiles_more=more_t, tiles_fewer=fewer_t)
    report.section("rummikub", **figures)
    return {"cases": cases, "default": default, "plain": plain, "base": wall["rummikub-solver"]}


def midgame_section(ns: argparse.Namespace, report: Report) -> dict[str, tuple[list[Case], Timed]]:
    print(f"\n2. mid-game positions with table jokers (tables 15-45 cards, hands 8-16), {ns.mid} each")
    out = {}
    for offset, variant in enumerate(("rummy-tiles", "rhine"), start=1):
        cases = joker_positions(variant, ns.mid, ns.seed * 1000 + offset, (15, 45), (8, 16), 0.2)
        res = ours(variant, variant, cases)
        print(row(f"rummyai on {variant}", ms_of(res), proven(res)))
        med, p90, top = quantiles(ms_of(res))
        all_proven = all(s.status == "optimal" for s, _ in res)
        print(
            f"  targets: every answer proven ({verdict(all_proven)}), p90 <= 30 ms ({verdict(p90 <= 30)}), "
            f"max <= 200 ms ({verdict(top <= 200)})"
        )
        report.section(
            f"midgame-{variant}",
            times=(med, p90, top),
            proven=sum(s.status == "optimal" for s, _ in res),
            positions=len(res),
        )
        out[variant] = (cases, res)
    return out


def variants_section(ns: argparse.Namespace, report: Report) -> None:
    print("\n3. other variants (positions made as in 1)")
    for offset, variant in enumerate(("rummy-board", "rummy-palace", "standard", "black-heart"), start=1):
        count = ns.positions if variant == "rummy-board" else max(ns.positions // 4, 1)
        res = ours(variant, variant, positions(variant, count, ns.seed + offset))
        print(row(f"rummyai on {variant} ({count})", ms_of(res), proven(res)))
        report.section(
            variant,
            times=quantiles(ms_of(res)),
            proven=sum(s.status == "optimal" for s, _ in res),
            positions=count,
        )


#: section 4's settings: (label, variant, options, table sizes, hand sizes, joker rate)
LIMIT_SETUPS = [
    ("rhine, second pack", "rhine", ["extra_packs=1"], (45, 70), (10, 20), 0.3),
    ("rummikub", "rummikub", [], (30, 80), (10, 25), 0.3),
    ("rummikub, official jokers", "rummikub", ["official_jokers=true"], (30, 80), (10, 25), 0.3),
    ("rummy-tiles", "rummy-tiles", [], (30, 80), (10, 25), 0.3),
    ("rhine", "rhine", [], (30, 80), (10, 25), 0.3),
    ("rummy-board", "rummy-board", [], (30, 80), (10, 25), 0.3),
    ("rummy-palace", "rummy-palace", [], (30, 80), (10, 25), 0.3),
    ("standard", "standard", [], (30, 80), (10, 25), 0.3),
    ("black-heart", "black-heart", [], (30, 80), (10, 25), 0.3),
]


REFERENCE_LIMIT = 10.0  # seconds: section 4's answers are compared with solves this long


def time_limit_section(ns: argparse.Namespace, report: Report) -> None:
    limit = ns.time_limit
    print(
        f"\n4. time_limit={limit} s on {ns.hard} large positions per setting (hands drawn near the "
        "table), each solved opened and not opened: wall seconds"
    )
    print(
        f"{'setting':32s} {'median':>7s} {'p90':>7s} {'max':>7s}  within t + 0.3 s  optimal  "
        f"cards (with a {REFERENCE_LIMIT:g} s limit)  no play where one exists"
    )
    for offset, (label, variant, options, tables, hands, jokers) in enumerate(LIMIT_SETUPS):
        rules = get_variant(variant, options)
        cases = (
            joker_positions(rules.id, ns.hard, ns.seed * 1000 + 7 + 100 * offset, tables, hands, jokers)
            if rules.copies[JOKER]  # standard and black-heart have no joker in their decks
            else [
                random_position(rules, ns.seed * 1000 + 7 + 100 * offset + i, 60, 18, jokers, 0.7)
                for i in range(ns.hard)
            ]
        )
        solve(rules, cases[0][0], cases[0][1], time_limit=limit)  # untimed: loads OR-Tools and the kernels
        walls = []
        statuses = []
        cards, longer = [], []  # cards played under the limit, and with `REFERENCE_LIMIT`
        for hand, table in tqdm(cases, desc=label, leave=False, file=sys.stderr):
            for opened in (True, False):
                start = time.perf_counter()
                sol = solve(rules, hand, table, opened=opened, time_limit=limit, score=0)
                walls.append(time.perf_counter() - start)
                statuses.append(sol.status)
                check_solution(make_position(rules, hand, table, opened), sol)
                cards.append(sol.cards_played)
                ref = solve(rules, hand, table, opened=opened, time_limit=REFERENCE_LIMIT, score=0)
                longer.append(ref.cards_played)
        within = sum(w <= limit + 0.3 for w in walls)
        none = sum(1 for c, r in zip(cards, longer, strict=True) if c == 0 < r)
        med, p90, top = quantiles(walls)
        print(
            f"{label:32s} {med:7.3f} {p90:7.3f} {top:7.3f}  {within}/{len(walls)} "
            f"({verdict(within == len(walls))})  {statuses.count('optimal')}/{len(walls)}  "
            f"{sum(cards)} ({sum(longer)})  {none}"
        )
        report.section(
            "time-limit",
            setting=label,
            limit=limit,
            wall_s=(med, p90, top),
            within=within,
            solves=len(walls),
            statuses=statuses,
            cards=cards,
            cards_longer=longer,
        )


def plot(path: str, rk: dict[str, Any], mid: dict[str, tuple[list[Case], Timed]]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2 if mid else 1, figsize=(11 if mid else 6, 4), squeeze=False)
    ax = axes[0][0]
    sizes = [sum(len(m) for m in table) for _, table in rk["cases"]]
    ax.scatter(sizes, ms_of(rk["default"]), s=10, label="rummyai default (fewest broken)")
    ax.scatter(sizes, ms_of(rk["plain"]), s=10, marker="x", label="rummyai cards only")
    if rk["base"]:
        ax.scatter(sizes, rk["base"], s=10, marker="^", label="rummikub-solver GLPK_MI")
    ax.set_title("rummikub")
    if mid:
        ax = axes[0][1]
        for variant, (cases, res) in mid.items():
            ax.scatter([sum(len(m) for m in table) for _, table in cases], ms_of(res), s=10, label=variant)
        ax.set_title("mid-game positions with table jokers")
    for ax in axes[0]:
        ax.set_xlabel("tiles on the table")
        ax.set_ylabel("ms per solve")
        ax.set_yscale("log")
        ax.legend()
    command = " ".join(["experiments/benchmarks/solver_bench.py", *sys.argv[1:]])
    fig.supxlabel(
        textwrap.fill(f"{command}, rummyai {version('rummyai')}, load {os.getloadavg()[0]:.1f}", 110),
        fontsize=7,
    )
    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    print(f"\nplot saved to {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200, help="rummikub positions (and rummy-board's)")
    parser.add_argument("--mid", type=int, default=60, help="mid-game positions per variant")
    parser.add_argument("--hard", type=int, default=20, help="positions per setting for the time limit")
    parser.add_argument("--time-limit", type=float, default=0.5, help="seconds, in section 4")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-baseline", action="store_true", help="skip rummikub-solver (no venv needed)")
    parser.add_argument("--no-cp-sat", action="store_true", help="skip timing the CP-SAT paths in section 1")
    parser.add_argument("--sections", default="1234", help="which sections to run, e.g. 12")
    parser.add_argument(
        "--order",
        choices=("blocks", "positions"),
        default="blocks",
        help="section 1: each solver through every position in turn (blocks), or every solver on each "
        "position in turn (positions)",
    )
    # the committed figures are written by naming their files (docs/solver-benchmarks.md); by
    # default a run writes into runs/ (ignored by git) and leaves the checkout as it is
    parser.add_argument("--plot", default="runs/bench/solver_bench.png", help="'' for no plot")
    parser.add_argument("--out", default="runs/bench/solver_bench.jsonl", help="JSON lines, appended")
    ns = parser.parse_args()
    report = Report(Path(ns.out))
    packages = {p: version(p) for p in ("rummyai", "ortools", "numba", "numpy")}
    print(f"command: python {' '.join(sys.argv)}", flush=True)
    print(f"{platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores; {packages}")
    print(f"dynamic program kernels: {kernels().origin} (rummyai.solvers.dp_native)")
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    report.section(
        "run", argv=sys.argv, packages=packages, kernels=kernels().origin, load_start=os.getloadavg()
    )
    rk: dict[str, Any] = {}
    mid: dict[str, tuple[list[Case], Timed]] = {}
    if "1" in ns.sections:
        rk = rummikub_section(ns, report)
    if "2" in ns.sections:
        mid = midgame_section(ns, report)
    if "3" in ns.sections:
        variants_section(ns, report)
    if "4" in ns.sections:
        time_limit_section(ns, report)
    print(f"\nload average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    report.section("end", load_end=os.getloadavg())
    if ns.plot and rk:
        plot(ns.plot, rk, mid)


if __name__ == "__main__":
    main()
