"""Arena: duplicate-deal tournaments between agents, with resumable JSONL results stamped with the
code version, batch Bradley-Terry ratings (OpenSkill optional), pairwise win rates with bootstrap
intervals, a Markdown report and plots; and studies, pre-registered plans of such tournaments.

`run_tournament(variant, agents, sets, players, seed, out_dir, workers=..., backend=...)` is the
library entry point; `tournament_main(args)` is what `rummyai tournament` calls, `study_main(args)`
what `rummyai study` calls (`run_study(load_plan(path))`, `write_study_report(plan)`).
"""

from rummyai.arena.batch_ratings import batch_ratings, fit_ratings
from rummyai.arena.cli import add_tournament_arguments, main, tournament_main
from rummyai.arena.duplicate import GameTask, lineup, match_seed, plan, seatings, set_tasks
from rummyai.arena.play import play_game, ranks_of
from rummyai.arena.ratings import Rating, rate
from rummyai.arena.report import Summary, write_report
from rummyai.arena.runner import run_tournament, summarise
from rummyai.arena.stats import AgentStats, PairStats, agent_stats, pairwise
from rummyai.arena.study import run_study
from rummyai.arena.study_cli import add_study_arguments, study_main
from rummyai.arena.study_plan import Plan, load_plan
from rummyai.arena.study_report import write_study_report
from rummyai.arena.study_stats import holm
from rummyai.arena.version import CodeVersion, code_version

__all__ = [
    "AgentStats",
    "CodeVersion",
    "GameTask",
    "PairStats",
    "Plan",
    "Rating",
    "Summary",
    "add_study_arguments",
    "add_tournament_arguments",
    "agent_stats",
    "batch_ratings",
    "code_version",
    "fit_ratings",
    "holm",
    "lineup",
    "load_plan",
    "main",
    "match_seed",
    "pairwise",
    "plan",
    "play_game",
    "ranks_of",
    "rate",
    "run_study",
    "run_tournament",
    "seatings",
    "set_tasks",
    "study_main",
    "summarise",
    "tournament_main",
    "write_report",
    "write_study_report",
]
