"""Run a study plan: each cell is a resumable duplicate-deal tournament in the plan's folder.

``<study>/plan.toml`` is the plan; ``<study>/<cell>/games.jsonl`` the raw records, appended as games
end (not committed); ``<study>/<cell>/games.jsonl.gz`` their compressed copy, refreshed every few
minutes and when a cell ends (committed, so a fresh checkout reports and resumes from it);
``<study>/plan-record.json`` the plan's commit and hash and every run's code version. A plan must be
committed before its first game and may not change after it; a cell holding games of other code
is refused unless mixing is asked for.
"""

from __future__ import annotations

import fcntl
import gzip
import json
import os
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rummyai.arena.play import GameFn, GameRecord
from rummyai.arena.runner import Backend, check_match_settings, run_tournament
from rummyai.arena.store import GAMES_FILE, load_records, record_key
from rummyai.arena.study_plan import Cell, Plan
from rummyai.arena.version import CodeVersion, code_version, file_commit
from rummyai.errors import RummyError

PACKED_FILE = GAMES_FILE + ".gz"
RECORD_FILE = "plan-record.json"
#: How often a running cell refreshes its compressed copy (seconds).
PACK_SECONDS = 300.0


def pack(cell_dir: Path) -> Path:
    """Write the cell's compressed copy of its raw records (byte-stable: no time stamp inside)."""
    raw = cell_dir / GAMES_FILE
    target = cell_dir / PACKED_FILE
    data = raw.read_bytes() if raw.exists() else b""
    data = data[: data.rfind(b"\n") + 1]
    tmp = target.with_suffix(".tmp")
    tmp.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
    os.replace(tmp, target)
    return target


def unpack_if_missing(cell_dir: Path) -> None:
    """Restore the raw records from the committed compressed copy (a fresh checkout resuming)."""
    raw, packed = cell_dir / GAMES_FILE, cell_dir / PACKED_FILE
    if not raw.exists() and packed.exists():
        raw.write_bytes(gzip.decompress(packed.read_bytes()))


def cell_records(study_dir: Path, cell: Cell, packed_only: bool = False) -> list[GameRecord]:
    """A cell's finished games: the raw records if present (unless `packed_only`), else the
    committed compressed copy."""
    folder = study_dir / cell.id
    raw, packed = folder / GAMES_FILE, folder / PACKED_FILE
    if raw.exists() and not packed_only:
        return load_records(raw)
    if not packed.exists():
        return []
    records, seen = [], set()
    for number, line in enumerate(gzip.decompress(packed.read_bytes()).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise RummyError(f"{packed} line {number} is not valid JSON: {error}") from None
        if record_key(record) not in seen:
            seen.add(record_key(record))
            records.append(record)
    return records


def check_plan_record(plan: Plan, allow_uncommitted: bool) -> dict[str, Any]:
    """The plan record, created at the first run; refuses an uncommitted or changed plan."""
    commit, edited = file_commit(plan.path)
    if not allow_uncommitted:
        if commit is None:
            raise RummyError(f"{plan.path} is not committed: commit the plan before its first game")
        if edited:
            raise RummyError(f"{plan.path} has uncommitted changes: a plan is fixed before its first game")
    path = plan.folder / RECORD_FILE
    if path.exists():
        record: dict[str, Any] = json.loads(path.read_text())
        if record.get("plan_sha256") != plan.sha256:
            raise RummyError(
                f"{plan.path} changed since its first run (commit {record.get('plan_commit')}): "
                "write a new plan instead of editing a started one"
            )
        return record
    return {
        "plan": plan.name,
        "plan_file": plan.path.name,
        "plan_sha256": plan.sha256,
        "plan_commit": commit if not edited else None,
        "runs": [],
    }


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on `path` (created if missing) for the duration of the block."""
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def write_plan_record(plan: Plan, record: dict[str, Any]) -> None:
    """Store the plan record atomically."""
    path = plan.folder / RECORD_FILE
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(record, indent=2, sort_keys=True) + "\n")
    os.replace(tmp, path)


def check_cells(plan: Plan, build_agents: bool = True) -> None:
    """Refuse, naming the file and the cell, any cell of the plan whose games could not be played
    (its variant, options, players, turn cap, agents): before the first game of any cell, so that
    a mistake in a later cell does not surface after earlier cells have run."""
    for cell in plan.cells:
        try:
            if len(cell.agents) > cell.players:
                raise RummyError(
                    f"{len(cell.agents)} agents for {cell.players} seats: a cell seats the focal agent, "
                    "the reference and at most one agent per other seat"
                )
            check_match_settings(
                cell.variant, cell.agents, cell.players, cell.options, cell.max_turns, build_agents
            )
        except RummyError as error:
            raise RummyError(f"{plan.path} cell {cell.id!r}: {error}") from None


def run_study(
    plan: Plan,
    cells: Sequence[str] = (),
    *,
    workers: int = 1,
    backend: Backend = "local",
    allow_mixed_versions: bool = False,
    allow_uncommitted_plan: bool = False,
    allow_dirty: bool = False,
    progress: bool = True,
    command: str = "",
    version: CodeVersion | None = None,
    game_fn: GameFn | None = None,
) -> dict[str, int]:
    """Play the missing games of the chosen cells (all by default); per cell run, in order, the
    games it played now (0: every game was on disk already)."""
    chosen = [plan.cell(c) for c in cells] if cells else list(plan.cells)
    check_cells(plan, build_agents=game_fn is None)
    code = version or code_version()
    if code.dirty and not allow_dirty:
        raise RummyError(
            f"the code has uncommitted changes ({code.label}): commit them first, or pass --allow-dirty"
        )
    with _locked(plan.folder / (RECORD_FILE + ".lock")):  # runs of other cells may start alongside
        record = check_plan_record(plan, allow_uncommitted_plan)
        record["runs"].append(
            {
                "started": datetime.now(UTC).isoformat(timespec="seconds"),
                "code": code.as_dict(),
                "cells": [c.id for c in chosen],
                "command": command,
            }
        )
        write_plan_record(plan, record)
    played: dict[str, int] = {}
    for cell in chosen:
        folder = plan.folder / cell.id
        folder.mkdir(parents=True, exist_ok=True)
        unpack_if_missing(folder)
        last = [time.monotonic()]

        def refresh(_: GameRecord, folder: Path = folder, last: list[float] = last) -> None:
            if time.monotonic() - last[0] >= PACK_SECONDS:
                pack(folder)
                last[0] = time.monotonic()

        summary = run_tournament(
            cell.variant,
            list(cell.agents),
            cell.sets,
            cell.players,
            plan.seed,
            folder,
            workers=workers,
            backend=backend,
            options=cell.options,
            max_turns=cell.max_turns,
            seating=cell.seating,  # type: ignore[arg-type]
            progress=progress,
            report=False,
            resamples=100,
            game_fn=game_fn,
            version=code,
            allow_mixed_versions=allow_mixed_versions,
            on_record=refresh,
        )
        pack(folder)
        played[cell.id] = summary.games - summary.resumed
    return played
