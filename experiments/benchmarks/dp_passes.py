"""Where a cards-only Rummikub solve spends its time: the compiled search's passes.

The dynamic program (`rummyai.solvers.run_dp`) searches at falling thresholds: each pass keeps the
states that could still reach its threshold, and the first pass that finds a play has the best
one. On `solver_bench.py`'s 200 positions this prints, per warm `solve(..., minimize_changes=False)`
(the least of `--repeat` timings per position, milliseconds, median / mean / p90): the whole solve,
its kernel calls and their count, and what the kernel would cost with other thresholds: one
pass at exactly the answer's score (the least any schedule can cost), and the falling thresholds
spaced by other multiples of the most valuable card (the program's own: 0, 1, 4, 13, 40 ...).
The program's functions are wrapped here to time them; answers are checked to stay the same.

    .venv/bin/python experiments/benchmarks/dp_passes.py [--positions 200] [--seed 0] [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from solver_bench import positions  # the sibling script's generator: the same 200 positions
from tqdm import tqdm

import rummyai.solvers.run_dp as run_dp
from rummyai.solvers import make_position, solve
from rummyai.solvers.dp_native import kernels

SCHEDULES = {
    "0, 1, 3, 9 ...": (0, 1, 3, 9),
    "0, 1, 5, 15 ...": (0, 1, 5, 15),
    "0, 2, 6, 18 ...": (0, 2, 6, 18),
}


PROGRAM_THRESHOLDS = run_dp._thresholds  # before any is replaced here


class Timed:
    """The compiled search, timed and counted: the kernel time and passes of the last solve."""

    def __init__(self) -> None:
        self.inner = kernels().search
        self.seconds = 0.0
        self.passes = 0
        self.last_score = 0

    def __call__(self, *args: Any) -> tuple[int, int]:
        start = time.perf_counter()
        best, score = self.inner(*args)
        self.seconds += time.perf_counter() - start
        self.passes += 1
        self.last_score = score
        return best, score


def spaced(multiples: tuple[int, ...]) -> Callable[[Any, Any, int], list[int]]:
    """Falling thresholds spaced by these multiples of the most valuable card, then by 3x."""

    def thresholds(naturals: Any, unit: Any, bonus: int) -> list[int]:
        top = PROGRAM_THRESHOLDS(naturals, unit, bonus)[0]
        held = unit[:52][naturals[:52] > 0]
        step = int(held.max()) if held.size else max(bonus, 1)

        def slack() -> Iterator[int]:
            yield from (m * step for m in multiples)
            s = multiples[-1] * step
            while True:
                s *= 3
                yield s

        out = []
        for s in slack():
            if s >= top:
                break
            out.append(top - s)
        return [*out, 0]

    return thresholds


def summary(label: str, ms: list[float]) -> str:
    ordered = sorted(ms)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"{label:44s} {statistics.median(ordered):7.3f} {statistics.mean(ordered):7.3f} {p90:7.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=5, help="timings per position (the least is kept)")
    ns = parser.parse_args()
    if ns.positions < 1 or ns.repeat < 1:
        parser.error("--positions and --repeat must be at least 1")
    run = [
        make_position("rummikub", hand, table) for hand, table in positions("rummikub", ns.positions, ns.seed)
    ]
    calls = [(p.variant, p.hand, [info.slots for info in p.table]) for p in run]
    timed = Timed()
    run_dp.kernels = lambda: kernels()._replace(search=timed)  # type: ignore[assignment]

    def measure(label: str) -> tuple[list[float], list[float], list[int], list[tuple[int, int]]]:
        whole, kernel, passes, answers = [], [], [], []
        for call in tqdm(calls, desc=label, leave=False):
            best: tuple[float, float, int] | None = None
            for _ in range(ns.repeat):
                timed.seconds, timed.passes = 0.0, 0
                start = time.perf_counter()
                sol = solve(*call, minimize_changes=False)
                took = (time.perf_counter() - start, timed.seconds, timed.passes)
                best = took if best is None or took < best else best
            assert best is not None
            whole.append(best[0] * 1000)
            kernel.append(best[1] * 1000)
            passes.append(best[2])
            answers.append((sol.cards_played, sol.points_played))
        return whole, kernel, passes, answers

    for call in calls:  # warm: kernels loaded, tables built
        solve(*call, minimize_changes=False)
    whole, kernel, passes, answers = measure("falling thresholds")
    scores = []
    for call in calls:
        solve(*call, minimize_changes=False)
        scores.append(timed.last_score)
    print(f"{ns.positions} rummikub positions, seed {ns.seed}, cards only; ms per solve: median, mean, p90")
    print(summary("whole solve", whole))
    print(summary("kernel, falling thresholds (the program's)", kernel))
    counts = dict(sorted(Counter(passes).items()))
    print(f"passes per solve: {statistics.mean(passes):.2f} on average; solves by passes: {counts}")
    exact: list[float] = []
    for call, score in tqdm(list(zip(calls, scores, strict=True)), desc="one pass at the score", leave=False):
        run_dp._thresholds = lambda naturals, unit, bonus, s=score: [s, 0]  # type: ignore[assignment]
        least = float("inf")
        for _ in range(ns.repeat):
            timed.seconds = 0.0
            solve(*call, minimize_changes=False)
            least = min(least, timed.seconds)
        exact.append(least * 1000)
    print(summary("kernel, one pass at the answer's score", exact))
    for label, multiples in SCHEDULES.items():
        run_dp._thresholds = spaced(multiples)  # type: ignore[assignment]
        _, kernel, _, same = measure(label)
        assert same == answers, f"{label}: other answers"
        print(summary(f"kernel, thresholds {label}", kernel))
    run_dp._thresholds = PROGRAM_THRESHOLDS


if __name__ == "__main__":
    main()
