"""CPU seconds per decision of the `learned` agent (or any agent spec), as a distribution.

Plays `--games` seeded 2-player one-round rummikub games of the agent against `greedy` and times
every decision of the agent with the process's CPU clock (the fairer clock on a shared machine;
wall time is printed too). The shipped agent's target is at most 20 ms per decision.

    .venv/bin/python experiments/training/decision_time.py --games 20 --seed 99
    .venv/bin/python experiments/training/decision_time.py --agent policy:path=model.zip --games 5
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from script_guard import guarded
from tqdm import tqdm

from rummyai.agents import make_agent_from_spec
from rummyai.engine import game


def main(argv: list[str] | None = None) -> int:
    """Print mean, median, p90, p99 and max of the agent's CPU and wall milliseconds per decision."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--agent", default="learned")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=99)
    args = parser.parse_args(argv)
    cpu: list[float] = []
    wall: list[float] = []
    for g in tqdm(range(args.games), desc="games"):
        seed = args.seed + g
        agents = [make_agent_from_spec(args.agent), make_agent_from_spec("greedy")]
        if g % 2:
            agents.reverse()
        mine = 1 if g % 2 else 0
        state = game.new_match("rummikub", 2, seed, options=["rounds=1"])
        for k, agent in enumerate(agents):
            agent.reset(seed + k)
        while not state.match_over:
            seat = state.to_act
            c, w = time.process_time(), time.perf_counter()
            move = agents[seat].act(game.view(state, seat), game.legal_moves(state))
            if seat == mine:
                cpu.append(time.process_time() - c)
                wall.append(time.perf_counter() - w)
            state = game.apply(state, move)

    def summary(values: list[float]) -> dict[str, float]:
        ms = np.asarray(values) * 1000
        return {
            "mean": round(float(ms.mean()), 2),
            "median": round(float(np.median(ms)), 2),
            "p90": round(float(np.percentile(ms, 90)), 2),
            "p99": round(float(np.percentile(ms, 99)), 2),
            "max": round(float(ms.max()), 2),
        }

    print(
        json.dumps(
            {"agent": args.agent, "decisions": len(cpu), "cpu_ms": summary(cpu), "wall_ms": summary(wall)}
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
