"""The solver sweep run combination by combination (variant x objective x opened x card cap x
tie-break x turn duty), many positions each, to hunt for bugs; not collected by pytest.

    nice -n 10 .venv/bin/python tests/solvers/sweep_grid.py --positions 200 [--config rhine ...] [--kind crowded]
    nice -n 10 .venv/bin/python tests/solvers/sweep_grid.py --ties --positions 500
    nice -n 10 .venv/bin/python tests/solvers/sweep_grid.py --config rummy-palace --opened no --duty taken
    nice -n 10 .venv/bin/python tests/solvers/sweep_grid.py --statuses --config rhine --positions 100
    nice -n 10 .venv/bin/python tests/solvers/sweep_grid.py --config black-heart --kind escorts

`--objective`, `--opened` and `--duty` keep only some combinations (hunting where bugs are likely).
Besides the CI configurations, `HUNT_CONFIGS` (too slow or too rare for CI: Rhine with an extra
pack) may be named with `--config`.

Prints one line per combination: the configuration, the fixed options, the positions checked and
the seconds taken; a failure is shrunk by hypothesis, printed, and the run goes on. `--ties`
counts instead how often the best-effort fewest-broken tie-break breaks more start melds than
the reference's fewest (rearrangement variants). `--statuses` adds to each line how the answers
stood (`check_case`'s verdicts: ``optimal``, ``refused``, ``feasible=best`` when unproven but as
good as the reference's proven best, ``feasible<best`` when worse) and prints every
``feasible<best`` case: the reference proves more than the solver found, a miss to look into.
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

from rummyai.cards import card_str
from rummyai.solvers import make_position, solve
from rummyai.solvers.position import count_broken
from rummyai.solvers.reference import reference_solve

sys.path.insert(0, str(Path(__file__).parent))
from test_solver_sweep import CONFIGS, OBJECTIVES, Case, Combo, Config, cases, check_case, duties

from rummyai.variants import get_variant

# hunted only when named: Rhine with a third pack (six jokers, three copies of every card)
HUNT_CONFIGS = [Config("rhine+packs=1", get_variant("rhine", {"extra_packs": 1}), (0, 3, 6, 9), 6, 0)]


def combos(config: Config) -> list[Combo]:
    """Every combination of the options `check_case` varies, for this variant."""
    grid = itertools.product(OBJECTIVES, (False, True), (False, True), (False, True), duties(config.variant))
    return [Combo(obj, opened, changes, capped, duty) for obj, opened, changes, capped, duty in grid]


def describe(case: Case) -> str:
    """A case as the arguments of a `solve` call, to paste into a regression test."""
    hand = " ".join(card_str(c) for c in case.hand)
    table = " | ".join(" ".join(str(slot) for slot in meld) for meld in case.table)
    extra = f" committed={[card_str(c) for c in case.committed]}" if case.committed else ""
    extra += f" taken={card_str(case.taken)}" if case.taken is not None else ""
    return (
        f"hand={hand!r} table={table!r} opened={case.opened} objective={case.objective!r} "
        f"max_cards={case.max_cards} changes={case.changes} score={case.score}{extra}"
    )


def run(
    config: Config, combo: Combo, positions: int, verdicts: Counter[str], behind: list[str]
) -> tuple[int, str | None]:
    """Check `positions` random cases of one combination; the count run and a failure, if any.
    Each case's verdict is counted into `verdicts`, and a ``feasible<best`` case described in
    `behind`."""
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
        verdict = check_case(config, case)
        verdicts[verdict] += 1
        if verdict == "feasible<best":
            behind.append(describe(case))

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
    parser.add_argument("--statuses", action="store_true", help="count answer statuses, print misses")
    args = parser.parse_args()
    chosen = [c for c in CONFIGS if not args.config or c.name in args.config]
    chosen += [c for c in HUNT_CONFIGS if args.config and c.name in args.config]
    totals: Counter[str] = Counter()
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
            start = time.process_time()
            verdicts: Counter[str] = Counter()
            behind: list[str] = []
            count, failure = run(config, combo, args.positions, verdicts, behind)
            took = time.process_time() - start
            label = f"{combo.objective} opened={combo.opened} changes={combo.changes} capped={combo.capped}"
            label += f" kind={combo.kind or 'any'}"
            line = f"{config.name:24} {label:48} duty={combo.duty:9} {count:6} {took:7.1f}s cpu"
            print(line + (f" {dict(sorted(verdicts.items()))}" if args.statuses else ""), flush=True)
            totals.update(verdicts)
            totals["failed"] += failure is not None
            for text in behind if args.statuses else []:
                print("FEASIBLE<BEST", config.name, text, flush=True)
            if failure:
                print("FAILED", failure, flush=True)
    print("TOTAL", dict(sorted(totals.items())), flush=True)


if __name__ == "__main__":
    main()
