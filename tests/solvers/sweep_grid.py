"""The solver sweep run combination by combination (variant x objective x opened x card cap x
tie-break x turn duty), many positions each, to hunt for bugs; not collected by pytest.

    nice -n 10 .venv/bin/python tests/solvers/sweep_grid.py --positions 200 [--config rhine ...] [--kind crowded]

Prints one line per combination: the configuration, the fixed options, the positions checked and
the seconds taken; a failure is shrunk by hypothesis, printed, and the run goes on.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from dataclasses import replace
from pathlib import Path

from hypothesis import HealthCheck, given, settings

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
        return seen[0], f"{type(error).__name__}: {str(error)[:3000]}"
    return seen[0], None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=200, help="positions per combination")
    parser.add_argument("--config", nargs="*", help="configuration names (default: all)")
    parser.add_argument("--kind", help="one kind of position (deal, dense, bare, long, crowded)")
    args = parser.parse_args()
    chosen = [c for c in CONFIGS if not args.config or c.name in args.config]
    for config in chosen:
        for combo in combos(config):
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
