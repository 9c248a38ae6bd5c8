"""Study plans: a TOML file fixing, before the first game, what a study plays and how it is judged.

A plan names the question, the seed, the duplicate sets, the primary endpoint, the analysis and the
multiple-comparison correction, and lists its *cells*: each one a duplicate-deal tournament of one
variant and table size whose first agent (the *focal* agent) is compared with its second (the
*reference*). Top-level `sets`, `options`, `seating` and `max_turns` are defaults a cell may override.

    name = "holdback-factorial"
    question = "Does holding back the fourth tile, keeping jokers, or both beat greedy?"
    seed = 20261126
    sets = 600
    options = ["rounds=1"]
    primary = "margin"          # margin | placement | deal_win
    correction = "holm"         # holm | none
    power = "why 600 sets: ..."

    [[cell]]
    id = "rummikub-2p-both"
    variant = "rummikub"
    players = 2
    agents = ["holdback:hold_fourth=true:keep_joker=true", "greedy"]
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rummyai.errors import RummyError

ENDPOINTS = ("margin", "placement", "deal_win")
CORRECTIONS = ("holm", "none")
SEATINGS = ("permutations", "rotations")
RATINGS = ("bradley-terry", "openskill")

_TOP = {
    "name": str,
    "question": str,
    "seed": int,
    "sets": int,
    "options": list,
    "seating": str,
    "max_turns": int,
    "primary": str,
    "correction": str,
    "alpha": float,
    "ratings": str,
    "resamples": int,
    "power": str,
    "analysis": str,
    "cell": list,
}
_CELL = {
    "id": str,
    "variant": str,
    "players": int,
    "agents": list,
    "sets": int,
    "options": list,
    "seating": str,
    "max_turns": int,
}
_REQUIRED_TOP = ("name", "question", "seed", "primary", "correction", "power", "analysis", "cell")
_REQUIRED_CELL = ("id", "variant", "players", "agents")
_ID = re.compile(r"^[a-z0-9][a-z0-9._-]*$")


@dataclass(frozen=True)
class Cell:
    """One tournament of the study: focal agent `agents[0]` against reference `agents[1]`."""

    id: str
    variant: str
    players: int
    agents: tuple[str, ...]
    sets: int
    options: tuple[str, ...]
    seating: str
    max_turns: int | None

    @property
    def focal(self) -> str:
        """The agent the study asks about."""
        return self.agents[0]

    @property
    def reference(self) -> str:
        """The agent it is compared with."""
        return self.agents[1]


@dataclass(frozen=True)
class Plan:
    """A parsed, checked study plan (see the module docstring for the file format)."""

    path: Path
    name: str
    question: str
    seed: int
    primary: str
    correction: str
    alpha: float
    ratings: str
    resamples: int
    power: str
    analysis: str
    cells: tuple[Cell, ...]
    sha256: str

    @property
    def folder(self) -> Path:
        """Where the study's records and report live: the plan's own folder."""
        return self.path.parent

    def cell(self, cell_id: str) -> Cell:
        """The cell named `cell_id`; an error listing the plan's cells otherwise."""
        for cell in self.cells:
            if cell.id == cell_id:
                return cell
        raise RummyError(
            f"plan {self.name} has no cell {cell_id!r} (cells: {', '.join(c.id for c in self.cells)})"
        )


def _typed(where: str, key: str, value: Any, kind: type) -> Any:
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RummyError(f"{where}: {key} must be {kind.__name__}, got {value!r}")
    if isinstance(value, list) and key != "cell" and not all(isinstance(v, str) for v in value):
        raise RummyError(f"{where}: {key} must be a list of strings, got {value!r}")
    return value


def _check_keys(where: str, table: dict[str, Any], known: dict[str, type], required: tuple[str, ...]) -> None:
    for key in table:
        if key not in known:
            raise RummyError(f"{where}: unknown key {key!r} (known: {', '.join(known)})")
    for key in required:
        if key not in table:
            raise RummyError(f"{where}: missing {key!r}")
    for key, value in table.items():
        _typed(where, key, value, known[key])


def _choice(where: str, key: str, value: str, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise RummyError(f"{where}: {key} must be one of {', '.join(allowed)}, got {value!r}")
    return value


def load_plan(path: str | Path) -> Plan:
    """Read and check a plan; every problem is one `RummyError` line naming the file and the key."""
    file = Path(path)
    if file.is_dir():
        file = file / "plan.toml"
    try:
        data = file.read_bytes()
    except OSError as error:
        raise RummyError(f"cannot read the plan {file}: {error.strerror or error}") from None
    try:
        table = tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise RummyError(f"{file} is not valid TOML: {error}") from None
    where = str(file)
    _check_keys(where, table, _TOP, _REQUIRED_TOP)
    if not _ID.match(table["name"]):
        raise RummyError(
            f"{where}: name must be lower-case letters, digits, '.', '_' or '-', got {table['name']!r}"
        )
    if table["seed"] < 0:
        raise RummyError(f"{where}: seed must be non-negative, got {table['seed']}")
    alpha = float(table.get("alpha", 0.05))
    if not 0.0 < alpha < 1.0:
        raise RummyError(f"{where}: alpha must be between 0 and 1, got {alpha}")
    resamples = int(table.get("resamples", 2000))
    if not 100 <= resamples <= 100_000:
        raise RummyError(f"{where}: resamples must be between 100 and 100000, got {resamples}")
    cells = tuple(_cell(where, index, raw, table) for index, raw in enumerate(table["cell"]))
    if not cells:
        raise RummyError(f"{where}: a plan needs at least one [[cell]]")
    ids = [c.id for c in cells]
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    if repeated:
        raise RummyError(f"{where}: cell ids must be distinct, repeated: {', '.join(repeated)}")
    return Plan(
        path=file,
        name=table["name"],
        question=table["question"].strip(),
        seed=table["seed"],
        primary=_choice(where, "primary", table["primary"], ENDPOINTS),
        correction=_choice(where, "correction", table["correction"], CORRECTIONS),
        alpha=alpha,
        ratings=_choice(where, "ratings", table.get("ratings", "bradley-terry"), RATINGS),
        resamples=resamples,
        power=table["power"].strip(),
        analysis=table["analysis"].strip(),
        cells=cells,
        sha256=hashlib.sha256(data).hexdigest(),
    )


def _cell(where: str, index: int, raw: Any, top: dict[str, Any]) -> Cell:
    if not isinstance(raw, dict):
        raise RummyError(f"{where}: cell {index} must be a table ([[cell]])")
    here = f"{where} cell {raw.get('id', index)!r}"
    _check_keys(here, raw, _CELL, _REQUIRED_CELL)
    if not _ID.match(raw["id"]):
        raise RummyError(f"{here}: id must be lower-case letters, digits, '.', '_' or '-'")
    agents = tuple(a.strip() for a in raw["agents"])
    if len(agents) < 2 or agents[0] == agents[1]:
        raise RummyError(f"{here}: agents must list the focal agent, then a different reference agent")
    sets = raw.get("sets", top.get("sets"))
    if sets is None:
        raise RummyError(f"{here}: missing 'sets' (in the cell or at the top of the plan)")
    if not 1 <= sets <= 1_000_000:
        raise RummyError(f"{here}: sets must be between 1 and 1000000, got {sets}")
    max_turns = raw.get("max_turns", top.get("max_turns"))
    seating = _choice(here, "seating", raw.get("seating", top.get("seating", "permutations")), SEATINGS)
    return Cell(
        id=raw["id"],
        variant=raw["variant"],
        players=raw["players"],
        agents=agents,
        sets=sets,
        options=tuple(raw.get("options", top.get("options", []))),
        seating=seating,
        max_turns=max_turns,
    )
