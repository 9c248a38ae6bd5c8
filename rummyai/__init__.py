"""rummyai: rules engines, an exact meld solver, hints, environments, agents and tournaments for rummy.

The functions here are the entry points a user needs; each imports its heavy module (the solver,
the agents, the arena) only when first called, so ``import rummyai`` stays light.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path as _Path
from typing import TYPE_CHECKING, Any

from rummyai.errors import (
    CardError,
    DeckError,
    IllegalMoveError,
    MeldError,
    RummyError,
    VariantError,
)
from rummyai.variants import BUILTINS, VARIANT_IDS, Options, Variant, get_variant

if TYPE_CHECKING:
    from rummyai.agents.base import Agent
    from rummyai.arena.batch_ratings import RatingMethod
    from rummyai.arena.duplicate import Seating
    from rummyai.arena.report import Summary
    from rummyai.arena.runner import Backend
    from rummyai.engine.judge import Judgement
    from rummyai.hint.api import Hint
    from rummyai.matches import MatchRecord
    from rummyai.solvers.position import HandInput, Solution, TableInput

__version__ = "0.2.0.dev0"

# An installed rummyai holds `solvers` and `envs` (pyproject maps the repository's top-level
# folders to rummyai.solvers and rummyai.envs). In a source checkout they sit beside this folder:
# look for them there too, so that Python started in the checkout (whose `rummyai/` then comes
# before any installed copy) still finds them.
_CHECKOUT = _Path(__file__).resolve().parent.parent
if not _Path(__file__).with_name("solvers").is_dir() and (_CHECKOUT / "solvers" / "__init__.py").is_file():
    __path__.append(str(_CHECKOUT))


def list_variants() -> list[str]:
    """The ids of the seven built-in variants (``rummikub`` first)."""
    return list(VARIANT_IDS)


def solve(
    variant: Variant | str,
    hand: HandInput,
    table: TableInput = (),
    *,
    opened: bool = True,
    objective: str = "cards",
    time_limit: float | None = None,
    max_cards: int | None = None,
    minimize_changes: bool = True,
    work_limit: float | None = None,
    committed: HandInput = (),
    taken: str | int | None = None,
    score: int = 0,
    options: Options = None,
) -> Solution:
    """The best move for `hand` against `table` under `variant` (see `rummyai.solvers.solve`).

    `objective` is ``cards``, ``points``, ``penalty`` or ``opening`` (the smallest legal opening);
    `time_limit` (seconds) or `work_limit`
    (CP-SAT work units) cut the search, and the answer's status is then ``feasible``; `options`
    are the variant's named options (as for `get_variant`).
    """
    from rummyai.solvers import solve as solve_position

    return solve_position(
        variant,
        hand,
        table,
        opened=opened,
        objective=objective,
        time_limit=time_limit,
        max_cards=max_cards,
        minimize_changes=minimize_changes,
        work_limit=work_limit,
        committed=committed,
        taken=taken,
        score=score,
        options=options,
    )


def hint(
    variant: Variant | str,
    hand: HandInput,
    table: TableInput = (),
    *,
    opened: bool = True,
    objective: str = "cards",
    alternatives: int = 3,
    time_limit: float | None = None,
    options: Options = None,
    score: int = 0,
    committed: HandInput = (),
    taken: str | int | None = None,
) -> Hint:
    """The best move with the steps a person follows to make it, and up to `alternatives` others."""
    from rummyai.hint.api import hint as hint_position

    return hint_position(
        variant,
        hand,
        table,
        opened=opened,
        objective=objective,
        alternatives=alternatives,
        time_limit=time_limit,
        options=options,
        score=score,
        committed=committed,
        taken=taken,
    )


def validate(
    variant: Variant | str,
    hand: HandInput,
    table: TableInput,
    new_table: TableInput,
    *,
    opened: bool = True,
    options: Options = None,
) -> Judgement:
    """Judge a tile-style play: is `new_table` a legal result of playing `hand` cards onto `table`?

    Cards and melds are given as for `solve` (text, tokens or card kinds). The answer's `legal`
    is false with the `rule` broken (a section of the rules pages) and the `reason`; bad input
    raises a `RummyError` subclass naming it (and whether the table or the new table holds it).
    """
    from rummyai.engine.judge import judge_play

    return judge_play(variant, hand, table, new_table, opened=opened, options=options)


def list_agents() -> dict[str, str]:
    """Every registered agent name with a one-line description."""
    from rummyai.agents import AGENTS

    return dict(AGENTS)


def make_agent(spec: str) -> Agent:
    """An agent from a spec such as ``"greedy"`` or ``"mcts:iterations=40:infer=true"``."""
    from rummyai.matches import build_agent

    return build_agent(spec)


def play_match(
    variant: Variant | str,
    agents: Sequence[str | Agent],
    *,
    seed: int = 0,
    options: Options = None,
    max_turns: int | None = None,
) -> MatchRecord:
    """Play one whole match, one agent (spec or object) per seat; the same seed replays it (unless an
    agent searches on a wall-clock budget, `time_per_move`)."""
    from rummyai.matches import play_match as play

    return play(variant, agents, seed=seed, options=options, max_turns=max_turns)


def run_tournament(
    variant: str | Variant,
    agents: Sequence[str],
    sets: int,
    players: int,
    seed: int,
    out: str,
    *,
    workers: int = 1,
    options: Sequence[str] | Mapping[str, Any] | None = (),
    progress: bool = False,
    max_turns: int | None = None,
    seating: Seating = "permutations",
    ratings: RatingMethod = "bradley-terry",
    record_moves: bool = False,
    backend: Backend = "local",
) -> Summary:
    """A duplicate-deal tournament of `sets` deals written to the folder `out` (resumable).

    Every deal is replayed with the seats permuted (`seating`: every permutation, or the
    rotations only); `out` receives ``games.jsonl`` (with every move when `record_moves`, for
    replays), ``report.md`` and plots. The summary holds the ratings (`ratings`: Bradley-Terry
    or OpenSkill) and pairwise statistics. `backend` ``ray`` spreads the games over a Ray cluster.
    """
    from rummyai.arena.runner import run_tournament as run

    return run(
        variant,
        agents,
        sets,
        players,
        seed,
        out,
        workers=workers,
        backend=backend,
        options=options,
        max_turns=max_turns,
        seating=seating,
        progress=progress,
        record_moves=record_moves,
        ratings=ratings,
    )


__all__ = [
    "BUILTINS",
    "VARIANT_IDS",
    "CardError",
    "DeckError",
    "IllegalMoveError",
    "MeldError",
    "Options",
    "RummyError",
    "Variant",
    "VariantError",
    "__version__",
    "get_variant",
    "hint",
    "list_agents",
    "list_variants",
    "make_agent",
    "play_match",
    "run_tournament",
    "solve",
    "validate",
]
