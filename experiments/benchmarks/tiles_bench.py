"""Rhine, Tile Rummy (`rummy-tiles`) and official-jokers Rummikub mid-game positions: solve
time, proofs, repairs, and where the time goes.

Positions are seeded: tables of 15-45 cards dealt as random valid melds with jokers (joker rate
0.2, at least one joker on the table), hands of 8-16 cards of which 70% fit next to the table's
cards (`rummyai.solvers.random_positions.joker_positions`), the same recipe as the mid-game
section of `solver_bench.py`; a variant's positions depend on `--seed` and its name only (`STREAMS`),
not on the other variants asked for. Each position is solved warm with the default options
(`objective="cards"`, `minimize_changes=True`, no limit; a variant's options follow its name
after `+`, as in `rummikub+official_jokers`) and every answer is checked by `check_solution`
(the engine's judge included). Printed per variant: wall ms median / p90 / max,
answers proven optimal, answers the judge refused before repair (`rhine_repair` calls), the
cards and points played in all, and the share of time spent in the compiled program's runs
(inside Tile Rummy's, official Rummikub's and Rhine's joker searches, `rummyai.solvers.locked_dp`,
`rummyai.solvers.official_dp` and `rummyai.solvers.rhine_jokers`), building models, in CP-SAT, in the judge and in the repair, and the same shares with the CP-SAT solves per position for the
slowest tenth of the positions.

`--games N` plays N seeded four-player `holdback` games of `rummy-tiles` (the agents call the
solver under their deterministic work limit, as in the studies) and prints the CPU seconds,
moves per CPU second and a SHA-256 of every move chosen: two code versions that print the
same digest chose the same moves.

`--ties` compares, on the positions Tile Rummy's locked-joker program, official Rummikub's
table-joker program or Rhine's program answers, the start melds its answer breaks with the
CP-SAT model's exact fewest-broken tie-break (same cards and points).

`--refusals` searches the Rhine positions its program hands to CP-SAT again with twenty times
its budget of states and tells which it answers then, and for the others which rule the last
play its search's judge refused broke (for R4: whether that play kept the named joker, laid a
replacement beside its start meld's natural and was refused on §7.1's copy reading, or none).

`--clock cpu` (default) times with `time.process_time` (this process's CPU time, which the
load of other processes barely moves; CP-SAT runs single-threaded here); `--clock wall` with
`time.perf_counter`.

`--time-limit t` solves every position again with `time_limit=t` and reports the worst wall
time against t + 0.3 s and how many answers came back `feasible`. `--hard N` solves N large Rhine
positions (a second pack, tables of 45-70 cards, joker rate 0.3, hands of 10-20) with
`time_limit=--hard-limit` and reports the same.

    nice -n 19 .venv/bin/python experiments/benchmarks/tiles_bench.py [--count 60] [--seed 0]
        [--variants rummy-tiles,rhine,rummikub+official_jokers] [--time-limit 0.05] [--hard 20]
        [--hard-limit 0.5] [--games 0] [--clock cpu|wall] [--out FILE] [-v]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import time
import zlib
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rummyai.cards import JOKER, Slot
from rummyai.solvers import locked_dp as locked_mod
from rummyai.solvers import make_position, solve
from rummyai.solvers import official_dp as official_mod
from rummyai.solvers import rhine_jokers as rhine_jokers_mod
from rummyai.solvers import rhine_repair as repair_mod
from rummyai.solvers import tile_model as model_mod
from rummyai.solvers import tile_solve as solve_mod
from rummyai.solvers.check import check_solution
from rummyai.solvers.random_positions import joker_positions
from rummyai.variants import Variant, get_variant

Case = tuple[list[int], list[tuple[Slot, ...]]]

# the timer of the per-position figures (`--clock`); time limits are always wall time
clock: Callable[[], float] = time.process_time


#: Seed stream of each variant's positions, fixed so that a variant gets the same positions whichever
#: `--variants` list it is in (rummy-tiles and rhine as in section 2 of `solver_bench.py`).
STREAMS = {"rummy-tiles": 1, "rhine": 2, "rummikub+official_jokers": 3}

#: `--refusals` searches a position Rhine's program hands over again with this many times its states
MORE_STATES = 20


def stream(name: str) -> int:
    """The seed stream of a variant name (with its options): `STREAMS`, else one from its text."""
    return STREAMS.get(name, 10 + zlib.crc32(name.encode()) % 990)


class Phases:
    """Time per phase of a solve (the compiled program in the joker searches, model build, CP-SAT, judge,
    repair), by wrapping its collaborators (nested time is counted in the innermost phase only)."""

    def __init__(self) -> None:
        self.total: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self.stack: list[str] = []

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def inner(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            self.stack.append(name)
            t0 = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                spent = clock() - t0
                self.stack.pop()
                self.total[name] += spent
                if self.stack:
                    self.total[self.stack[-1]] -= spent

        return inner

    @contextmanager
    def installed(self) -> Iterator[None]:
        """Patch the phase functions where `tile_solve`, `rhine_repair` and `locked_dp` look them up."""
        saved: list[tuple[Any, str, Any]] = []

        def patch(module: Any, attr: str, name: str) -> None:
            saved.append((module, attr, getattr(module, attr)))
            setattr(module, attr, self.wrap(name, getattr(module, attr)))

        build_init = model_mod.TileModel.__init__
        saved.append((model_mod.TileModel, "__init__", build_init))
        model_mod.TileModel.__init__ = self.wrap("build", build_init)
        for module in (solve_mod, repair_mod):
            patch(module, "solve_model", "cp-sat")
            patch(module, "judged_legal", "judge")
        patch(repair_mod, "judge", "judge")  # the repair's first judgement of a table, with its reasons
        patch(solve_mod, "rhine_repair", "repair")
        patch(locked_mod, "solve_dp_spent", "program")  # Tile Rummy's locked-joker program
        patch(locked_mod, "judged_legal", "judge")
        patch(official_mod, "solve_dp_spent", "program")  # official Rummikub's joker program
        patch(official_mod, "judged_legal", "judge")
        patch(rhine_jokers_mod, "relaxed_play", "program")  # Rhine's program
        patch(rhine_jokers_mod, "judge", "judge")
        try:
            yield
        finally:
            for module, attr, fn in reversed(saved):
                setattr(module, attr, fn)


def quantiles(values: list[float]) -> tuple[float, float, float]:
    ordered = sorted(values)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))], ordered[-1]


def run_variant(name: str, variant: Variant, cases: list[Case], ns: argparse.Namespace) -> dict[str, Any]:
    """Solve every case warm, check each answer, and gather the figures."""
    times: list[float] = []
    # per position: CPU (or wall) seconds per phase and CP-SAT solves, for the tail's figures
    spent: list[dict[str, float]] = []
    solves: list[int] = []
    proven = repaired = cards = points = 0
    phases = Phases()
    solve(variant, *cases[0])  # warm-up, untimed
    with phases.installed():
        for n, (hand, table) in enumerate(cases):
            before = phases.calls["repair"]
            totals = dict(phases.total)
            calls = phases.calls["cp-sat"]
            t0 = clock()
            sol = solve(variant, hand, table)
            ms = (clock() - t0) * 1000
            spent.append({k: v - totals.get(k, 0.0) for k, v in phases.total.items()})
            solves.append(phases.calls["cp-sat"] - calls)
            check_solution(make_position(variant, hand, table), sol)
            times.append(ms)
            proven += sol.status == "optimal"
            cards += sol.cards_played
            points += sol.points_played
            repaired += phases.calls["repair"] > before
            if ns.verbose:
                print(f"  {name} #{n}: {ms:7.1f} ms {sol.status} cards={sol.cards_played}", flush=True)
    med, p90, top = quantiles(times)
    total = sum(times) / 1000
    share = {k: round(100 * v / total, 1) for k, v in sorted(phases.total.items())}
    # the slowest tenth of the positions: their share per phase and CP-SAT solves per position
    tail = sorted(range(len(times)), key=times.__getitem__)[-max(1, len(times) // 10) :]
    tail_total = sum(times[i] for i in tail) / 1000
    tail_share = {
        k: round(100 * sum(spent[i].get(k, 0.0) for i in tail) / tail_total, 1) for k in sorted(phases.total)
    }
    out: dict[str, Any] = {
        "variant": name,
        "positions": len(cases),
        "median_ms": round(med, 1),
        "p90_ms": round(p90, 1),
        "max_ms": round(top, 1),
        "proven": proven,
        "repaired": repaired,
        "cards_played": cards,
        "points_played": points,
        "phase_pct": share,
        "solves_per_position": round(sum(solves) / len(solves), 1),
        "tail_phase_pct": tail_share,
        "tail_solves_per_position": round(sum(solves[i] for i in tail) / len(tail), 1),
    }
    if ns.time_limit:
        walls: list[float] = []
        feasible = 0
        for hand, table in cases:
            t0 = time.perf_counter()
            sol = solve(variant, hand, table, time_limit=ns.time_limit)
            walls.append(time.perf_counter() - t0)
            check_solution(make_position(variant, hand, table), sol)
            feasible += sol.status == "feasible"
        out["time_limit"] = {
            "limit_s": ns.time_limit,
            "max_wall_s": round(max(walls), 3),
            "within": sum(w <= ns.time_limit + 0.3 for w in walls),
            "feasible": feasible,
        }
    return out


def hard_section(count: int, seed: int, limit: float) -> dict[str, Any]:
    """Large Rhine positions (a second pack, tables of 45-70 cards, joker rate 0.3, hands of
    10-20) solved with `time_limit=limit`: worst wall time against limit + 0.3 s."""
    rules = get_variant("rhine", ["extra_packs=1"])
    cases = joker_positions(rules, count, seed, (45, 70), (10, 20), 0.3)
    walls: list[float] = []
    statuses: list[str] = []
    for hand, table in cases:
        t0 = time.perf_counter()
        sol = solve(rules, hand, table, time_limit=limit)
        walls.append(time.perf_counter() - t0)
        check_solution(make_position(rules, hand, table), sol)
        statuses.append(sol.status)
    med, p90, top = quantiles(walls)
    return {
        "variant": "rhine+extra_packs=1 (hard)",
        "limit_s": limit,
        "wall_s": [round(med, 3), round(p90, 3), round(top, 3)],
        "within": sum(w <= limit + 0.3 for w in walls),
        "positions": count,
        "optimal": statuses.count("optimal"),
        "feasible": statuses.count("feasible"),
    }


def games_section(count: int, seed: int) -> dict[str, Any]:
    """`count` seeded four-player holdback games of rummy-tiles: CPU seconds, moves, and a digest
    of every move the agents chose (equal digests: the same moves)."""
    from rummyai.agents.greedy import GreedyAgent
    from rummyai.matches import play_match

    digest = hashlib.sha256()
    act = GreedyAgent.act

    def recorded(self: GreedyAgent, view: Any, legal: Any) -> Any:
        move = act(self, view, legal)
        digest.update(repr(move).encode())
        return move

    GreedyAgent.act = recorded  # type: ignore[method-assign]
    moves = 0
    t0 = time.process_time()
    try:
        for n in range(count):
            record = play_match("rummy-tiles", ["holdback"] * 4, seed=seed + n)
            moves += record["moves"]
            digest.update(json.dumps(record, sort_keys=True, default=str).encode())
    finally:
        GreedyAgent.act = act  # type: ignore[method-assign]
    cpu = time.process_time() - t0
    return {
        "section": "rummy-tiles holdback games",
        "games": count,
        "moves": moves,
        "cpu_s": round(cpu, 2),
        "moves_per_cpu_s": round(moves / cpu, 1),
        "digest": digest.hexdigest(),
    }


def ties_section(name: str, variant: Variant, cases: list[Case]) -> dict[str, Any]:
    """The joker programs' fewest-broken tie-break (Tile Rummy's locked-joker program, official
    Rummikub's table-joker program, Rhine's program) against the CP-SAT model's exact one, on the
    positions the program answers (same cards and points asserted, or more where CP-SAT's answer
    is unproven)."""
    from rummyai.solvers.locked_dp import locked_dp_applies, solve_locked_dp
    from rummyai.solvers.official_dp import official_dp_applies, solve_official_dp
    from rummyai.solvers.position import score_key
    from rummyai.solvers.rhine_dp import rhine_dp_applies
    from rummyai.solvers.rhine_jokers import solve_rhine_jokers
    from rummyai.solvers.tile_solve import solve_tile

    answered = more = fewer = extra = broken = exact_broken = 0
    for hand, table in cases:
        position = make_position(variant, hand, table)
        if locked_dp_applies(position, None):
            found = solve_locked_dp(position, "cards")
        elif official_dp_applies(position, None):
            found = solve_official_dp(position, "cards")
        elif rhine_dp_applies(position, None):
            found = solve_rhine_jokers(position, "cards")
        else:
            continue
        if found is None:
            continue
        exact = solve_tile(position, "cards", None, None)
        ours, theirs = (score_key(position, "cards", s.played) for s in (found, exact))
        assert ours == theirs if exact.status == "optimal" else ours >= theirs
        if ours != theirs:
            continue  # a better play than CP-SAT's: its layout says nothing about the tie-break
        answered += 1
        more += found.melds_broken > exact.melds_broken
        fewer += found.melds_broken < exact.melds_broken
        extra += max(0, found.melds_broken - exact.melds_broken)
        broken += found.melds_broken
        exact_broken += exact.melds_broken
    return {
        "section": f"{name} tie-break",
        "answered": answered,
        "more_broken": more,
        "fewer_broken": fewer,
        "extra_broken": extra,
        "broken": broken,
        "exact_broken": exact_broken,
    }


def refusals_section(name: str, variant: Variant, cases: list[Case]) -> dict[str, Any]:
    """Rhine's program on the positions it hands to CP-SAT, searched again with `MORE_STATES`
    times its budget of states: answered then, its states still run out with no play refused, or
    the last play its judge refused, by the rule broken. An R4 refusal is split by what the play
    does with the named start meld's joker, read on card kinds: kept (its meaning, beside a
    natural of its start meld), released with a replacement beside such a natural (so the copy
    reading of §7.1 refused it), or released with none beside one (the program's relaxation asks
    only that a replacement exists)."""
    from rummyai.solvers.rhine_dp import rhine_dp_applies

    refused: list[tuple[Any, list[tuple[Slot, ...]]]] = []
    real = rhine_jokers_mod.judge
    budget = rhine_jokers_mod.MAX_STATES

    def judge(position: Any, melds: list[tuple[Slot, ...]], deadline: float | None = None) -> Any:
        verdict = real(position, melds, deadline)
        if not verdict.legal:
            refused.append((verdict, melds))
        return verdict

    counts: dict[str, int] = defaultdict(int)
    rhine_jokers_mod.judge = judge
    try:
        for hand, table in cases:
            position = make_position(variant, hand, table)
            if not rhine_dp_applies(position, None):
                continue
            if rhine_jokers_mod.solve_rhine_jokers(position, "cards") is not None:
                counts["answered"] += 1
                continue
            refused.clear()
            rhine_jokers_mod.MAX_STATES = budget * MORE_STATES
            try:
                found = rhine_jokers_mod.solve_rhine_jokers(position, "cards")
            finally:
                rhine_jokers_mod.MAX_STATES = budget
            if found is not None:
                counts[f"answered with {MORE_STATES} times the states"] += 1
            elif not refused:
                counts["states ran out, nothing refused"] += 1
            else:
                counts[_refusal(position, *refused[-1])] += 1
    finally:
        rhine_jokers_mod.judge = real
    return {"section": f"{name} hand-overs", **dict(sorted(counts.items()))}


def _refusal(position: Any, verdict: Any, melds: list[tuple[Slot, ...]]) -> str:
    """How a refused play treats the joker of the start meld the judge named (`refusals_section`)."""
    if verdict.rule != "1.5 R4" or verdict.start_meld is None:
        return str(verdict.rule)
    start = position.table[verdict.start_meld]
    naturals = {slot.card for slot, wild in zip(start.slots, start.as_wild, strict=True) if not wild}
    meaning = next(slot.meaning for slot, wild in zip(start.slots, start.as_wild, strict=True) if wild)
    if meaning.suit is None:
        kinds = {suit * 13 + meaning.rank - 1 for suit in range(4)}
    else:
        kinds = {meaning.suit * 13 + meaning.rank - 1}
    for meld in melds:
        cards = [slot.card for slot in meld]
        if Slot(JOKER, meaning) in meld and naturals & set(cards):
            return "R4, joker kept"
    for meld in melds:
        cards = [slot.card for slot in meld]
        witness = naturals & set(cards)
        if any(c in kinds and (witness - {c} or cards.count(c) > 1) for c in cards) and witness:
            return "R4, released, replacement beside"
    return "R4, released, no replacement beside"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=60, help="positions per variant")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variants", default="rummy-tiles,rhine")
    parser.add_argument("--time-limit", type=float, default=0.0, help="also solve with this time_limit")
    parser.add_argument("--hard", type=int, default=0, help="large Rhine positions solved with --hard-limit")
    parser.add_argument("--hard-limit", type=float, default=0.5)
    parser.add_argument("--games", type=int, default=0, help="seeded 4-player holdback games of rummy-tiles")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument(
        "--ties", action="store_true", help="compare the joker programs' tie-break with CP-SAT's"
    )
    parser.add_argument(
        "--refusals", action="store_true", help="why Rhine's program hands positions to CP-SAT"
    )
    parser.add_argument("--out", default="", help="append each variant's figures as a JSON line")
    parser.add_argument("-v", "--verbose", action="store_true")
    ns = parser.parse_args()
    global clock
    clock = time.process_time if ns.clock == "cpu" else time.perf_counter
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for name in ns.variants.split(",") if ns.count else []:
        base, *options = name.split("+")
        variant = get_variant(base, options)
        cases = joker_positions(variant, ns.count, ns.seed * 1000 + stream(name))
        fig = run_variant(name, variant, cases, ns)
        fig["load"] = [round(x, 2) for x in os.getloadavg()]
        print(
            f"{name}: n={fig['positions']} median={fig['median_ms']} ms p90={fig['p90_ms']} ms "
            f"max={fig['max_ms']} ms proven={fig['proven']}/{fig['positions']} repaired={fig['repaired']} "
            f"cards={fig['cards_played']} points={fig['points_played']} "
            f"time%={fig['phase_pct']} solves/position={fig['solves_per_position']} "
            f"slowest tenth: time%={fig['tail_phase_pct']} solves/position={fig['tail_solves_per_position']}"
            + (f" time_limit={fig['time_limit']}" if "time_limit" in fig else ""),
            flush=True,
        )
        if ns.out:
            with open(ns.out, "a") as fh:
                fh.write(json.dumps(fig) + "\n")
        if ns.ties:
            print(json.dumps(ties_section(name, variant, cases)), flush=True)
        if ns.refusals and base == "rhine":
            print(json.dumps(refusals_section(name, variant, cases)), flush=True)
    if ns.hard:
        fig = hard_section(ns.hard, ns.seed * 1000 + 7, ns.hard_limit)
        fig["load"] = [round(x, 2) for x in os.getloadavg()]
        print(json.dumps(fig), flush=True)
        if ns.out:
            with open(ns.out, "a") as fh:
                fh.write(json.dumps(fig) + "\n")
    if ns.games:
        fig = games_section(ns.games, ns.seed * 1000)
        fig["load"] = [round(x, 2) for x in os.getloadavg()]
        print(json.dumps(fig), flush=True)
        if ns.out:
            with open(ns.out, "a") as fh:
                fh.write(json.dumps(fig) + "\n")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
