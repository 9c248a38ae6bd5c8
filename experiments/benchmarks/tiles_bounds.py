"""How far the compiled dynamic program gets on the joker-rule tile variants: its free-joker
bound and a play that leaves every table joker meld alone, against the solver's answer.

For each seeded mid-game position of `tiles_bench.py` (Tile Rummy, official-jokers Rummikub):

* bound: `run_dp.solve_dp` on the variant with free jokers (table jokers go anywhere, any number
  per meld). Every legal play of the variant is legal there, so its best (cards, points) is an
  upper bound;
* floor: `solve_dp` on the hand without jokers and the table without its joker melds, which stay
  as they are (legal under T3, R3 and the official rule alike), tidied to keep start melds whole;
* answer: `solve` with its defaults (proven optimal on these positions, see the benchmark page).

Printed: positions where the bound equals the answer, where the floor does (and breaks no
start meld), where the floor reaches the bound (the program alone proves the play; breaking no
start meld, the tie-break too), and the program's CPU milliseconds for both. Rhine's rules (repeated suits in groups, ace high or low) are outside the program.

    nice -n 19 .venv/bin/python experiments/benchmarks/tiles_bounds.py [--count 60] [--seed 0]
"""

from __future__ import annotations

import argparse
import statistics
import time

from tiles_bench import midgame_positions

from rummyai.cards import JOKER
from rummyai.melds import analyze_meld
from rummyai.solvers import make_position, solve
from rummyai.solvers.candidate_search import twin
from rummyai.solvers.position import Position, count_broken, score_key
from rummyai.solvers.run_dp import dp_supported, solve_dp
from rummyai.variants import get_variant


def probe(name: str, count: int, seed: int) -> dict[str, object]:
    base, *options = name.split("+")
    variant = get_variant(base, options)
    free = twin(variant, joker_rules=False)
    if not dp_supported(free):
        return {"variant": name, "supported": False}
    bound_hits = floor_hits = tidy_hits = proofs = tidy_proofs = 0
    ms: list[float] = []
    cases = midgame_positions(variant, count, seed)
    for hand, table in cases:
        position = make_position(variant, hand, table)
        answer = score_key(position, "cards", solve(variant, hand, table).played)
        t0 = time.process_time()
        whole = Position(free, tuple(sorted(hand)), tuple(analyze_meld(free, tuple(m)) for m in table), True)
        up = solve_dp(whole, "cards")
        jokered = [m for m in table if any(s.card == JOKER for s in m)]
        rest = [m for m in table if m not in jokered]
        plain_hand = tuple(sorted(c for c in hand if c != JOKER))
        part = Position(free, plain_hand, tuple(analyze_meld(free, tuple(m)) for m in rest), True)
        low = solve_dp(part, "cards", tidy=True)
        ms.append((time.process_time() - t0) * 1000)
        if up is None or low is None:
            continue
        top = score_key(position, "cards", up.played)
        floor = score_key(position, "cards", low.played)
        whole_melds = count_broken(position, [*low.melds, *jokered]) == 0
        bound_hits += top == answer
        floor_hits += floor == answer
        tidy_hits += floor == answer and whole_melds
        proofs += floor == top
        tidy_proofs += floor == top and whole_melds
    return {
        "variant": name,
        "positions": len(cases),
        "bound_is_answer": bound_hits,
        "floor_is_answer": floor_hits,
        "floor_is_answer_and_breaks_nothing": tidy_hits,
        "floor_is_bound": proofs,
        "floor_is_bound_and_breaks_nothing": tidy_proofs,
        "dp_ms_median": round(statistics.median(ms), 1),
        "dp_ms_max": round(max(ms), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--count", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    ns = parser.parse_args()
    # the offsets of tiles_bench.py's default variant list, so the positions are the same
    for offset, name in ((1, "rummy-tiles"), (3, "rummikub+official_jokers")):
        print(probe(name, ns.count, ns.seed * 1000 + offset), flush=True)


if __name__ == "__main__":
    main()
