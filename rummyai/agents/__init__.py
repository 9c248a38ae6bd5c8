"""Agents: one `Agent` protocol (`reset(seed)`, `act(view, legal) -> Move`) and a registry by name.

`make_agent("random", seed=1)` or `make_agent_from_spec("random")` builds one; `AGENTS` maps
each registered name to a one-line description (what `rummyai agents` prints).
"""

from rummyai.agents.base import (
    AGENTS,
    Agent,
    View,
    check_agent_fits,
    make_agent,
    make_agent_from_spec,
    parse_agent_spec,
    register_agent,
)

register_agent(
    "random",
    "rummyai.agents.random_agent:RandomAgent",
    "uniform over the engine's legal moves (seeded baseline)",
)
register_agent(
    "greedy",
    "rummyai.agents.greedy:GreedyAgent",
    "plays the solver's most-cards move every turn, else draws",
)
register_agent(
    "greedy-points",
    "rummyai.agents.greedy:greedy_points",
    "plays the solver's most-points move every turn, else draws",
)
register_agent(
    "noisy-greedy",
    "rummyai.agents.greedy:NoisyGreedyAgent",
    "greedy that plays a uniformly random legal move instead with probability noise (option: noise=0.2)",
)
register_agent(
    "holdback",
    "rummyai.agents.holdback:HoldbackAgent",
    "greedy that holds back a card ending a meld of 4 or more (laid down or laid off) and keeps jokers "
    "while no opponent is close to out (options: hold_fourth, keep_joker, hold, danger, hold_turns, objective, "
    "work_limit)",
)
register_agent(
    "mcts",
    "rummyai.agents.mcts:MCTSAgent",
    "information-set MCTS: determinized 16-turn rollouts over solver candidates, UCB1 at the root "
    "(options: iterations, worlds, time_per_move, rollout_turns, moves=wide|equal, infer, leaf=heuristic|value, ...)",
)
register_agent(
    "mcts-pimc",
    "rummyai.agents.mcts:pimc_agent",
    "flat determinized search: every root move played out on the same 8 sampled deals of the hidden "
    "cards, greedy's solver policy to the end of the round (options: worlds, time_per_move, moves, infer, "
    "rollout=greedy|greedy-points)",
)
register_agent(
    "learned",
    "rummyai.agents.learned:LearnedAgent",
    "scores the environments' candidates with a small numpy network (shipped weights: mcts-pimc imitated in "
    "rummikub for tile-style games, self-play in standard rummy for standard and black-heart, none for "
    "rummy-palace; options: weights=FILE)",
)
register_agent(
    "policy",
    "rummyai.envs.policy_agent:policy_agent",
    "a trained policy on the environments' observation (options: path=MODEL.zip for stable-baselines3, "
    "or target=package.module.callable; version=1 for the -v1 environments' observations)",
)
register_agent(
    "value",
    "rummyai.agents.value:ValueAgent",
    "one-ply search over solver candidates rated by a win-probability model learned from greedy self-play "
    "(options: alternatives, holdbacks, margin)",
)

__all__ = [
    "AGENTS",
    "Agent",
    "View",
    "check_agent_fits",
    "make_agent",
    "make_agent_from_spec",
    "parse_agent_spec",
    "register_agent",
]
