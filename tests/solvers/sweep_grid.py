"""The solver sweep run combination by combination (variant x objective x opened x card cap x
tie-break x turn duty), many positions each, to hunt for bugs; not collected by pytest.

    nice -n 10 .venv/bin/python tests/solvers/sweep_grid.py --positions 200 [--config rhine ...] [--kind crowded]
    nice -n 10 .venv/bin/python tests/solvers/sweep_grid.py --ties --positions 500
    nice -n 10 .venv/bin/python tests/solvers/sweep_grid.py --config rummy-palace --opened no --duty taken

`--objective`, `--opened` and `--duty` keep only some combinations (hunting where bugs are likely).

Prints one line per combination: the configuration, the fixed options, the positions checked and
the seconds taken; a failure is shrunk by hypothesis, printed, and the run goes on. `--ties`
counts instead how often the best-effort fewest-broken tie-break breaks more start melds than
the reference's fewest (rearrangement variants).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from rummyai.solvers import make_position, solve
from rummyai.solvers.position import count_broken
from rummyai.solvers.reference import reference_solve

sys.path.insert(0, str(Path(__file__).parent))
from test_solver_sweep import CONFIGS, OBJECTIVES, Case, Combo, Config, cases, check_case, duties


def combos(config: Config) -> list[Combo]:
    """Every combination of the options `check_case` varies, for this variant."""
    grid = itertools.product(OBJECTIVES, (False, True), (False, True), (False, True), duties(config.variant))
    return [Combo(obj, opened, changes, capped, duty) for obj, opened, changes, capped, duty in grid]


def run(config: Config, combo: Combo, positions: int) -> tuple[int, str | None]:
    """Check `positions` random cases of one combination; the count run and a failure, if any."""
    seen = [0]

    @settings(
        max_examples=positions,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=cases(config, combo))
    def sweep(case: Case) -> None:
        seen[0] += 1
        check_case(config, case)

    try:
        sweep()
    except Exception as error:  # report and go on: the point is to see every failing combination
        notes = "\n".join(getattr(error, "__notes__", []))
        return seen[0], f"{type(error).__name__}: {str(error)[:3000]}\n{notes}"
    return seen[0], None


def ties(config: Config, positions: int) -> Counter[str]:
    """How the tie-break's broken start melds compare with the reference's fewest, on optimal
    answers of `positions` cases with `minimize_changes` on: ``same``, ``more`` or ``fewer``."""
    tally: Counter[str] = Counter()

    @settings(max_examples=positions, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(case=cases(config, Combo(changes=True, duty="none")))
    def count(case: Case) -> None:
        kwargs = {"opened": case.opened, "objective": case.objective, "max_cards": case.max_cards}
        fast = solve(config.variant, case.hand, case.table, **kwargs)
        if fast.status != "optimal" or not fast.played:
            tally["unproven or no play"] += 1
            return
        slow = reference_solve(config.variant, case.hand, case.table, **kwargs)
        mine = count_broken(make_position(config.variant, case.hand, case.table, case.opened), fast.melds)
        tally["same" if mine == slow.melds_broken else "more" if mine > slow.melds_broken else "fewer"] += 1

    count()
    return tally


def _wanted(combo: Combo, args: argparse.Namespace) -> bool:
    """Whether the command line's filters (objective, opened, duty) keep this combination."""
    if args.objective and combo.objective not in args.objective:
        return False
    if args.opened is not None and combo.opened != (args.opened == "yes"):
        return False
    return not args.duty or combo.duty in args.duty


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=200, help="positions per combination")
    parser.add_argument("--config", nargs="*", help="configuration names (default: all)")
    parser.add_argument("--kind", help="one kind of position (deal, dense, bare, long, crowded)")
    parser.add_argument("--ties", action="store_true", help="count fewest-broken tie-break misses instead")
    parser.add_argument("--objective", nargs="*", choices=OBJECTIVES, help="objectives (default: all)")
    parser.add_argument("--opened", choices=("yes", "no"), help="only opened / unopened turns")
    parser.add_argument("--duty", nargs="*", help="turn duties (none, committed, taken; default: all)")
    args = parser.parse_args()
    chosen = [c for c in CONFIGS if not args.config or c.name in args.config]
    if args.ties:
        for config in chosen:
            if config.variant.manipulation:
                print(f"{config.name:24} {dict(ties(config, args.positions))}", flush=True)
        return
    for config in chosen:
        for combo in combos(config):
            if not _wanted(combo, args):
                continue
            combo = replace(combo, kind=args.kind)
            start = time.perf_counter()
            count, failure = run(config, combo, args.positions)
            took = time.perf_counter() - start
            label = f"{combo.objective} opened={combo.opened} changes={combo.changes} capped={combo.capped}"
            label += f" kind={combo.kind or 'any'}"
            print(f"{config.name:24} {label:48} duty={combo.duty:9} {count:6} {took:7.1f}s", flush=True)
            if failure:
                print("FAILED", failure, flush=True)


if __name__ == "__main__":
    main()
