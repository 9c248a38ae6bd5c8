"""Where the `learned` agent leaves greedy's move: counts over seeded diagnostic deals.

Plays `--deals` 2-player one-round deals of `--variant` (each twice, seats swapped, deals from
`--seed`: the training-diagnostic stream, never the pre-registered seeds), `learned` against
`greedy`, and at every decision of the learned seat asks a second `greedy` what it would play from
the same view. Prints, as one JSON line, how many decisions there were, in how many the learned
move differs from greedy's, how many of those are draws where greedy plays, how often the rules
offered a take from the discards and the learned seat took it, and the learned seat's wins (a
shared win counts half) and those it won by going out. The counts quoted in
``docs/results.md`` come from:

    .venv/bin/python experiments/training/departures.py --variant rummikub --deals 30 --seed 8200000
    .venv/bin/python experiments/training/departures.py --variant standard --deals 30 --seed 8200000
"""

from __future__ import annotations

import argparse
import json

from script_guard import check_variant, guarded
from tqdm import tqdm

from rummyai.agents import make_agent
from rummyai.engine import game
from rummyai.engine.discard_moves import TakeDiscard
from rummyai.engine.moves import Draw
from rummyai.variants import ONE_ROUND

#: What the script counts, in the order it prints them.
FIGURES = (
    "games",
    "wins",
    "wins_going_out",
    "decisions",
    "differ",
    "draw_where_greedy_plays",
    "takes_offered",
    "taken",
)


def main(argv: list[str] | None = None) -> int:
    """Play the deals and print the counts."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--variant", default="rummikub")
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--seed", type=int, default=8_200_000)
    parser.add_argument("--agent", default="learned", help="the agent spec compared with greedy")
    args = parser.parse_args(argv)
    check_variant(parser, args.variant)
    counts = dict.fromkeys(FIGURES, 0.0)
    for deal in tqdm(range(args.deals), desc="deals"):
        seed = args.seed + deal
        for learner_seat in (0, 1):
            agents = [make_agent("greedy"), make_agent("greedy")]
            agents[learner_seat] = make_agent(args.agent)
            shadow = make_agent("greedy")
            state = game.new_match(args.variant, 2, seed, options=ONE_ROUND[args.variant])
            for k, agent in enumerate(agents):
                agent.reset(seed * 2 + k)
            shadow.reset(seed * 2 + learner_seat)
            while not state.match_over:
                seat = state.to_act
                view, legal = game.view(state, seat), game.legal_moves(state)
                move = agents[seat].act(view, legal)
                if seat == learner_seat:
                    counts["decisions"] += 1
                    greedy = shadow.act(view, legal)
                    if move != greedy:
                        counts["differ"] += 1
                        counts["draw_where_greedy_plays"] += isinstance(move, Draw) and not isinstance(
                            greedy, Draw
                        )
                    if any(isinstance(m, TakeDiscard) for m in legal):
                        counts["takes_offered"] += 1
                        counts["taken"] += isinstance(move, TakeDiscard)
                state = game.apply(state, move)
            counts["games"] += 1
            if learner_seat in state.winners:
                share = 1 / len(state.winners)  # a shared win counts half
                counts["wins"] += share
                ended = state.finished or state.round
                counts["wins_going_out"] += share * (not ended.hands[learner_seat])
    figures = {key: int(value) if value == int(value) else value for key, value in counts.items()}
    print(json.dumps({"variant": args.variant, "deals": args.deals, "seed": args.seed, **figures}))
    return 0


if __name__ == "__main__":
    raise SystemExit(guarded(main))
