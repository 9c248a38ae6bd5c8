"""Rhine solver on hard positions: agent-game calls that hit the work limit (recorded in
`experiments/benchmarks/data/rhine_hard.jsonl`, one position per line in the solver's JSON form), plus
seeded random Rhine positions with table jokers. Prints time (median/p90/max ms), how many
answers are proven optimal, cards played, and checks every answer with the engine's judge.

Run: nice -n 10 .venv/bin/python experiments/benchmarks/rhine_hard.py [--positions PATH] [--random N] [--seed S]
Wall times depend on the machine's load; the CPU seconds of this process vary less.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path
from typing import Any

from rummyai.cards import Slot, card_str, parse_card
from rummyai.engine.judge import judge_play
from rummyai.solvers import solve
from rummyai.solvers.random_positions import random_position


def _legal(args: tuple[Any, ...], kwargs: dict[str, Any], melds: Any, played: Any) -> bool:
    """The engine's judge on an answer (no play is always allowed)."""
    if not played:
        return True
    variant, hand, table = args[:3]
    verdict = judge_play(
        variant,
        [card_str(c) for c in hand],
        table,
        [[str(s) for s in meld] for meld in melds],
        opened=kwargs.get("opened", True),
    )
    return bool(verdict.legal)


def _table_text(table: list[tuple[Slot, ...]]) -> list[str]:
    return [" ".join(str(s) for s in meld) for meld in table]


def _random_calls(count: int, seed: int) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
    """Seeded Rhine positions of mid-game size whose table holds at least one joker."""
    rng = random.Random(seed)
    out: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    while len(out) < count:
        s = rng.randrange(10**9)
        hand, table = random_position("rhine", s, rng.choice([20, 30, 40]), rng.randint(4, 10), 0.2, 0.7)
        if not any(slot.card == 52 for meld in table for slot in meld):
            continue
        kwargs = {"opened": True, "objective": "cards", "work_limit": 5.0, "minimize_changes": True}
        out.append((("rhine", hand, _table_text(table)), kwargs))
    return out


def _run(name: str, calls: list[tuple[tuple[Any, ...], dict[str, Any]]], verbose: bool) -> None:
    times: list[float] = []
    cpu = 0.0
    optimal = illegal = cards = broken = 0
    for args, kwargs in calls:
        t0, c0 = time.perf_counter(), time.process_time()
        sol = solve(*args, **kwargs)
        ms = (time.perf_counter() - t0) * 1000
        cpu += time.process_time() - c0
        times.append(ms)
        optimal += sol.status == "optimal"
        cards += sol.cards_played
        broken += sol.melds_broken
        legal = _legal(args, kwargs, sol.melds, sol.played)
        illegal += not legal
        if verbose:
            print(
                f"  {ms:8.0f} ms {sol.status:9s} cards={sol.cards_played} broken={sol.melds_broken} legal={legal}"
            )
    times.sort()
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    print(
        f"{name}: n={len(times)} median={statistics.median(times):.0f} ms p90={p90:.0f} ms "
        f"max={times[-1]:.0f} ms total={sum(times) / 1000:.1f} s (cpu {cpu:.1f} s) optimal={optimal}/{len(times)} "
        f"illegal={illegal} cards={cards} broken={broken}"
    )


def main() -> None:
    """Measure the recorded hard positions (if present) and the random ones."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", default=str(Path(__file__).parent / "data" / "rhine_hard.jsonl"))
    parser.add_argument("--random", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--changes", choices=["on", "off"], default="on", help="minimize_changes")
    parser.add_argument("-v", "--verbose", action="store_true")
    opts = parser.parse_args()
    path = Path(opts.positions)
    changes = opts.changes == "on"
    if path.exists():
        calls = []
        for line in path.read_text().splitlines():
            p = json.loads(line)
            args = (p["variant"], [parse_card(t) for t in p["hand"]], p["table"])
            kwargs = {"opened": p["opened"], "objective": p["objective"], "work_limit": p["work_limit"]}
            calls.append((args, {**kwargs, "minimize_changes": changes}))
        _run("hard (agent games)", calls, opts.verbose)
    if opts.random:
        calls = [(a, {**k, "minimize_changes": changes}) for a, k in _random_calls(opts.random, opts.seed)]
        _run(f"random (seed {opts.seed})", calls, opts.verbose)


if __name__ == "__main__":
    main()
