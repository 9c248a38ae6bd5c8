"""Duplicate deals: which agents sit at each table, and the seatings every deal is replayed under.

A tournament of N *duplicate sets* plays, for each set s, one deal (the match seed
`match_seed(seed, s)`) once per *seating*: every distinct ordering of the set's lineup over the
seats, so each agent plays every seat's cards against the same deal and luck cancels out.

The lineup of set s (P seats, agent list A of length K):
* K == P: the list itself, every set (repeats allowed: ``holdback,greedy,greedy,greedy``);
* K > P: the P-agent combinations of the list, in lexicographic order, cycled over the sets;
* K < P: the list cycled from position s to fill P seats (``a,b,c`` for 4 seats gives
  ``a,b,c,a`` then ``b,c,a,b`` ...), so every agent gets the extra seats equally often.

Seatings are either every distinct permutation of the lineup (``"permutations"``, P! at most) or
its P cyclic rotations (``"rotations"``, for big tables).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from rummyai.errors import RummyError

Seating = Literal["permutations", "rotations"]


@dataclass(frozen=True)
class GameTask:
    """One game to play: the deal (`match_seed`), who sits where, and each seat's agent seed."""

    set_index: int
    seating_index: int
    seats: tuple[str, ...]
    match_seed: int
    agent_seeds: tuple[int, ...]
    variant: str
    options: tuple[str, ...] = ()
    max_turns: int | None = None

    @property
    def key(self) -> tuple[int, int]:
        """Identity of the game in a tournament (used to resume without double counting)."""
        return (self.set_index, self.seating_index)


def derive_seed(*parts: int) -> int:
    """A 32-bit seed derived from integer parts (independent streams for sets, seats, games)."""
    return int(np.random.SeedSequence([int(p) for p in parts]).generate_state(1)[0])


def match_seed(seed: int, set_index: int) -> int:
    """The deal of duplicate set `set_index`: the same for every seating of that set."""
    return derive_seed(seed, set_index, 0)


def lineup(agents: tuple[str, ...], players: int, set_index: int) -> tuple[str, ...]:
    """The agents at the table in set `set_index` (see the module docstring for the rule)."""
    if not agents:
        raise RummyError("a tournament needs at least one agent")
    if players < 1:
        raise RummyError(f"players must be at least 1, got {players}")
    k = len(agents)
    if k == players:
        return agents
    if k > players:
        combos = list(itertools.combinations(range(k), players))
        return tuple(agents[i] for i in combos[set_index % len(combos)])
    return tuple(agents[(set_index + i) % k] for i in range(players))


def planned_games(agents: tuple[str, ...], players: int, sets: int, mode: Seating = "permutations") -> int:
    """Games in `sets` duplicate sets: lineups repeat with a period (a repeated agent spec makes
    some lineups seat fewer distinct ways), so one period is counted, not every set."""
    k = len(agents)
    period = math.comb(k, players) if k > players else (k if k < players else 1)
    per_set = [len(seatings(lineup(agents, players, s), mode)) for s in range(min(period, sets))]
    whole, rest = divmod(sets, len(per_set))
    return whole * sum(per_set) + sum(per_set[:rest])


def seatings(table: tuple[str, ...], mode: Seating = "permutations") -> list[tuple[str, ...]]:
    """Distinct seatings of a lineup, the lineup itself first, in a fixed order."""
    if mode == "permutations":
        return list(dict.fromkeys(itertools.permutations(table)))
    if mode == "rotations":
        rotated = (table[i:] + table[:i] for i in range(len(table)))
        return list(dict.fromkeys(rotated))
    raise RummyError(f"unknown seating mode {mode!r} (permutations or rotations)")


def set_tasks(
    set_index: int,
    *,
    agents: tuple[str, ...],
    players: int,
    seed: int,
    variant: str,
    options: tuple[str, ...] = (),
    max_turns: int | None = None,
    mode: Seating = "permutations",
) -> list[GameTask]:
    """Every game of one duplicate set."""
    deal = match_seed(seed, set_index)
    tasks = []
    for index, seats in enumerate(seatings(lineup(agents, players, set_index), mode)):
        agent_seeds = tuple(derive_seed(seed, set_index, index + 1, seat) for seat in range(players))
        tasks.append(GameTask(set_index, index, seats, deal, agent_seeds, variant, options, max_turns))
    return tasks


def plan(sets: int, **kwargs: Any) -> list[GameTask]:
    """Every game of sets 0..sets-1 in order (keyword arguments as for `set_tasks`)."""
    return [task for s in range(sets) for task in set_tasks(s, **kwargs)]
