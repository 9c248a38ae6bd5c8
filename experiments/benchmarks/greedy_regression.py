"""Record, then check, the moves greedy and mcts-pimc choose on seeded games: a speed change to the
greedy path (solver, bridge, engine checks) must leave every one of them the same.

Positions come from seeded 2-player games of each tile-style variant: greedy against greedy (the
positions greedy itself reaches), random against random (positions off greedy's path) and
greedy-points against random; at every decision both greedy objectives are asked and their moves
(and whether greedy fell back from the solver's play) written as canonical JSON. A few mcts-pimc decisions against greedy cover the rollout path.
`--record` writes the file; `--check` replays the same games and stops at the first difference.
`--fixture` also writes a small sample of views and answers for `tests/agents/test_greedy_fixture.py`.

    .venv/bin/python experiments/benchmarks/greedy_regression.py --record
    .venv/bin/python experiments/benchmarks/greedy_regression.py --check
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tqdm import tqdm

from rummyai.agents import make_agent_from_spec
from rummyai.agents.greedy import GreedyAgent
from rummyai.agents.solver_play import seat_position
from rummyai.engine import game
from rummyai.engine.replay import move_to_json

DATA = Path(__file__).parent / "data" / "greedy_regression.jsonl.gz"
FIXTURE = Path(__file__).parents[2] / "tests" / "agents" / "data" / "greedy_moves.json"

# (variant, matchup, games): seats' agent specs; greedy is asked at every decision of every game
SCENARIOS: tuple[tuple[str, tuple[str, str], int], ...] = (
    ("rummikub", ("greedy", "greedy"), 16),
    ("rummikub", ("random", "random"), 3),
    ("rummikub", ("greedy-points", "random"), 4),
    ("rummy-board", ("greedy", "greedy"), 10),
    ("rummy-board", ("random", "random"), 2),
    ("rummy-board", ("greedy-points", "random"), 3),
    ("rummy-tiles", ("greedy", "greedy"), 4),
    ("rummy-tiles", ("random", "random"), 1),
    ("rhine", ("greedy", "greedy"), 1),
)
MAX_TURNS = 400
PIMC_GAMES = (5, 6)  # seeds of the mcts-pimc games (one-round rummikub against greedy)
PIMC_DECISIONS = 25  # mcts-pimc decisions recorded per game


def canonical(move: Any) -> Any:
    """A move as JSON with its table written in a fixed order (melds as the engine lists them)."""
    return move_to_json(move) if move is not None else None


def greedy_records(quick: bool) -> Iterator[dict[str, Any]]:
    """One record per decision of the scenario games: both greedy objectives' moves and answers."""
    cards, points = GreedyAgent("cards"), GreedyAgent("points")
    for variant, matchup, games in SCENARIOS:
        for g in range(1 if quick else games):
            seed = 1000 + g
            agents = [make_agent_from_spec(spec) for spec in matchup]
            for k, agent in enumerate(agents):
                agent.reset(seed + k)
            state = game.new_match(variant, 2, seed, options=["rounds=1"], max_turns=MAX_TURNS)
            turn = 0
            while not state.match_over:
                seat = state.to_act
                view = game.view(state, seat)
                legal = game.legal_moves(state)
                record: dict[str, Any] = {"variant": variant, "matchup": "-".join(matchup), "seed": seed}
                record["turn"] = turn
                before = cards.fallbacks, points.fallbacks
                record["cards"] = canonical(cards.act(view, legal))
                record["points"] = canonical(points.act(view, legal))
                record["fallbacks"] = [cards.fallbacks - before[0], points.fallbacks - before[1]]
                yield record
                state = game.apply(state, agents[seat].act(view, legal))
                turn += 1


def pimc_records(quick: bool) -> Iterator[dict[str, Any]]:
    """The mcts-pimc agent's moves on seeded one-round rummikub games against greedy."""
    for seed in PIMC_GAMES[:1] if quick else PIMC_GAMES:
        agents = [make_agent_from_spec("mcts-pimc"), make_agent_from_spec("greedy")]
        for k, agent in enumerate(agents):
            agent.reset(seed + k)
        state = game.new_match("rummikub", 2, seed, options=["rounds=1"])
        mine = 0
        while not state.match_over and mine < (3 if quick else PIMC_DECISIONS):
            seat = state.to_act
            move = agents[seat].act(game.view(state, seat), game.legal_moves(state))
            if seat == 0:
                yield {"pimc_seed": seed, "decision": mine, "move": canonical(move)}
                mine += 1
            state = game.apply(state, move)


def records(quick: bool) -> Iterator[dict[str, Any]]:
    """Every record, greedy ones first."""
    yield from greedy_records(quick)
    yield from pimc_records(quick)


def record(path: Path, quick: bool, fixture: bool) -> int:
    """Write the records (and, with `fixture`, every 40th view with its answers for the tests)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    sample: list[dict[str, Any]] = []
    with gzip.open(path, "wt") as out:
        for k, rec in enumerate(tqdm(records(quick), desc="record")):
            out.write(json.dumps(rec, sort_keys=True) + "\n")
            if fixture and "seed" in rec and k % 40 == 0:
                sample.append(rec)
    if fixture:
        write_fixture(sample)
    return 0


def write_fixture(sample: list[dict[str, Any]]) -> None:
    """Views of the sampled decisions (replayed from the games) and greedy's solver play there."""
    wanted = {(r["variant"], r["matchup"], r["seed"], r["turn"]): r for r in sample}
    out = []
    for variant, matchup, games in SCENARIOS:
        for g in range(games):
            seed = 1000 + g
            keys = [k for k in wanted if k[:3] == (variant, "-".join(matchup), seed)]
            if not keys:
                continue
            agents = [make_agent_from_spec(spec) for spec in matchup]
            for k, agent in enumerate(agents):
                agent.reset(seed + k)
            state = game.new_match(variant, 2, seed, options=["rounds=1"], max_turns=MAX_TURNS)
            turn, last = 0, max(k[3] for k in keys)
            while not state.match_over and turn <= last:
                seat = state.to_act
                view = game.view(state, seat)
                rec = wanted.get((variant, "-".join(matchup), seed, turn))
                if rec is not None and view.get("phase") != "give":
                    position = seat_position(view)
                    plays = {k: canonical(GreedyAgent(k).best_play(position)) for k in ("cards", "points")}
                    out.append({"view": view, "best_play": plays})
                state = game.apply(state, agents[seat].act(view, game.legal_moves(state)))
                turn += 1
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    FIXTURE.write_text(json.dumps(out, sort_keys=True, indent=None) + "\n")
    print(f"wrote {len(out)} fixture positions to {FIXTURE}", file=sys.stderr)


def key(rec: dict[str, Any]) -> tuple[Any, ...]:
    """Which decision a record answers."""
    if "pimc_seed" in rec:
        return ("pimc", rec["pimc_seed"], rec["decision"])
    return (rec["variant"], rec["matchup"], rec["seed"], rec["turn"])


def check(path: Path, quick: bool) -> int:
    """Replay the games and compare every record; 1 at the first difference."""
    with gzip.open(path, "rt") as f:
        expected = {key(rec): rec for rec in map(json.loads, f)}
    start = time.process_time()
    n = 0
    for got in tqdm(records(quick), desc="check"):
        got = json.loads(json.dumps(got, sort_keys=True))
        want = expected.get(key(got))
        if got != want:
            print(f"DIFFERENT at {key(got)}:\n want {json.dumps(want)}\n got  {json.dumps(got)}")
            return 1
        n += 1
    print(f"{n} of {len(expected)} records identical ({time.process_time() - start:.1f} s CPU)")
    return 0 if quick or n == len(expected) else 1


def main(argv: list[str] | None = None) -> int:
    """Record or check (see the module docstring)."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--record", action="store_true")
    mode.add_argument("--check", action="store_true")
    parser.add_argument("--fixture", action="store_true", help="with --record: also write the test fixture")
    parser.add_argument("--quick", action="store_true", help="one game per scenario (a prefix of the file)")
    parser.add_argument("--path", type=Path, default=DATA)
    args = parser.parse_args(argv)
    if args.record:
        return record(args.path, args.quick, args.fixture)
    return check(args.path, args.quick)


if __name__ == "__main__":
    raise SystemExit(main())
