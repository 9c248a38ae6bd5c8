"""Arena: duplicate-deal tournaments between agents, with resumable JSONL results, OpenSkill
ratings, pairwise win rates with bootstrap intervals, a Markdown report and plots.

`run_tournament(variant, agents, games, players, seed, out_dir, workers=..., backend=...)` is the
library entry point; `tournament_main(args)` is what `rummyai tournament` calls.
"""

from rummyai.arena.cli import add_tournament_arguments, main, tournament_main
from rummyai.arena.duplicate import GameTask, lineup, match_seed, plan, seatings, set_tasks
from rummyai.arena.play import play_game, ranks_of
from rummyai.arena.ratings import Rating, rate
from rummyai.arena.report import Summary, write_report
from rummyai.arena.runner import run_tournament, summarise
from rummyai.arena.stats import AgentStats, PairStats, agent_stats, pairwise

__all__ = [
    "AgentStats",
    "GameTask",
    "PairStats",
    "Rating",
    "Summary",
    "add_tournament_arguments",
    "agent_stats",
    "lineup",
    "main",
    "match_seed",
    "pairwise",
    "plan",
    "play_game",
    "ranks_of",
    "rate",
    "run_tournament",
    "seatings",
    "set_tasks",
    "summarise",
    "tournament_main",
    "write_report",
]
