"""Arena: duplicate-deal tournaments between agents, with resumable JSONL results stamped with the
code version, batch Bradley-Terry ratings (OpenSkill optional), pairwise win rates with bootstrap
intervals, a Markdown report and plots; and studies, pre-registered plans of such tournaments.

`run_tournament(variant, agents, sets, players, seed, out_dir, workers=..., backend=...)` is the
library entry point; `tournament_main(args)` is what `rummyai tournament` calls, `study_main(args)`
what `rummyai study` calls (`run_study(load_plan(path))`, `write_study_report(plan)`).

The names load on first use (PEP 562), so importing one submodule, such as the record store,
does not pull in the plotting and reporting code.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

#: Public name -> the submodule that defines it.
_HOMES = {
    "batch_ratings": "rummyai.arena.batch_ratings",
    "fit_ratings": "rummyai.arena.batch_ratings",
    "add_tournament_arguments": "rummyai.arena.cli",
    "main": "rummyai.arena.cli",
    "tournament_main": "rummyai.arena.cli",
    "GameTask": "rummyai.arena.duplicate",
    "lineup": "rummyai.arena.duplicate",
    "match_seed": "rummyai.arena.duplicate",
    "plan": "rummyai.arena.duplicate",
    "seatings": "rummyai.arena.duplicate",
    "set_tasks": "rummyai.arena.duplicate",
    "play_game": "rummyai.arena.play",
    "ranks_of": "rummyai.arena.play",
    "Rating": "rummyai.arena.ratings",
    "rate": "rummyai.arena.ratings",
    "Summary": "rummyai.arena.report",
    "write_report": "rummyai.arena.report",
    "run_tournament": "rummyai.arena.runner",
    "summarise": "rummyai.arena.runner",
    "AgentStats": "rummyai.arena.stats",
    "PairStats": "rummyai.arena.stats",
    "agent_stats": "rummyai.arena.stats",
    "pairwise": "rummyai.arena.stats",
    "run_study": "rummyai.arena.study",
    "add_study_arguments": "rummyai.arena.study_cli",
    "study_main": "rummyai.arena.study_cli",
    "Plan": "rummyai.arena.study_plan",
    "load_plan": "rummyai.arena.study_plan",
    "write_study_report": "rummyai.arena.study_report",
    "holm": "rummyai.arena.study_stats",
    "CodeVersion": "rummyai.arena.version",
    "code_version": "rummyai.arena.version",
}


def __getattr__(name: str) -> Any:
    """Import a public name's submodule when the name is first asked for."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'rummyai.arena' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


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
