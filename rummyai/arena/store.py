"""Results store: ``games.jsonl`` (one line per finished game, appended as it ends) and
``tournament.json`` (the arguments), so a killed run restarted with the same arguments resumes.

Only the parent process writes. Each line is written whole and flushed; on opening, a torn last
line (the process killed mid-write) is cut off and duplicate keys are dropped, so no game is
lost or counted twice. A folder holding games but no manifest, or a manifest of other arguments,
is refused rather than mixed into this tournament's results.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from rummyai.errors import RummyError
from rummyai.variants import Variant, get_variant

GAMES_FILE = "games.jsonl"
MANIFEST_FILE = "tournament.json"

#: Manifest fields that may change between runs of the same tournament (more sets extend it).
EXTENDABLE = frozenset({"games", "workers", "backend"})


def check_manifest(out_dir: Path, manifest: dict[str, Any]) -> None:
    """Write the manifest, or check a resumed run has the same tournament arguments.

    A folder whose manifest differs is refused only when it holds games: a run that stopped
    before its first game ended (a bad agent, an early kill) left nothing to protect.
    """
    path = out_dir / MANIFEST_FILE
    if path.exists() and not path.is_file():
        raise RummyError(f"{path} is not a file: the folder cannot hold this tournament (use another --out)")
    if path.exists() and holds_games(out_dir):
        old = read_manifest(path)
        old_rules = _rules(old)
        keys = set(old) | set(manifest)
        # the variant first: the fields it decides (such as low_score_wins) only follow from it
        for key in sorted(keys, key=lambda k: (k != "variant", k)):
            if key == "options" and old_rules is not None and old_rules == _rules(manifest):
                continue  # options that make the same rules (another order or form, a default named)
            if key not in EXTENDABLE and old.get(key) != manifest.get(key):
                raise RummyError(
                    f"{out_dir} holds a different tournament: {key} was {old.get(key)!r}, "
                    f"now {manifest.get(key)!r} (use another --out or the same arguments)"
                )
    elif not path.exists() and holds_games(out_dir):
        raise RummyError(
            f"{out_dir} holds a {GAMES_FILE} without {MANIFEST_FILE}: results of an unknown "
            "tournament (use another --out)"
        )
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    os.replace(tmp, path)


def _rules(manifest: dict[str, Any]) -> Variant | None:
    """The rules a manifest's variant and options make, whatever names them (an option set to
    the variant's default changes nothing); None when they do not read."""
    try:
        return replace(
            get_variant(str(manifest.get("variant")), manifest.get("options")), options=frozenset()
        )
    except RummyError:
        return None


def holds_games(out_dir: Path) -> bool:
    """Whether the folder's ``games.jsonl`` holds at least one complete line."""
    games = out_dir / GAMES_FILE
    return games.exists() and b"\n" in games.read_bytes()


def read_manifest(path: Path) -> dict[str, Any]:
    """A stored manifest; an error naming the file when it is not a JSON object."""
    try:
        manifest = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise RummyError(f"{path} is not a tournament manifest (invalid JSON: {error})") from None
    if not isinstance(manifest, dict):
        raise RummyError(f"{path} is not a tournament manifest (a JSON object is expected)")
    return manifest


def load_records(path: Path) -> list[dict[str, Any]]:
    """Records in `path`, repairing a torn last line and dropping repeated (set, seating) keys."""
    if not path.exists():
        return []
    data = path.read_bytes()
    end = data.rfind(b"\n") + 1
    if end < len(data):
        with path.open("r+b") as handle:
            handle.truncate(end)
    records: list[dict[str, Any]] = []
    seen: set[tuple[int, int]] = set()
    for number, line in enumerate(data[:end].splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise RummyError(f"{path} line {number} is not valid JSON: {error}") from None
        try:
            key = record_key(record)
        except (KeyError, TypeError, ValueError):
            raise RummyError(f"{path} line {number} is not a game record (no set and seating)") from None
        if key not in seen:
            seen.add(key)
            records.append(record)
    return records


def record_key(record: dict[str, Any]) -> tuple[int, int]:
    """The (set, seating) identity of a game record."""
    return (int(record["set"]), int(record["seating"]))


class ResultWriter:
    """Appends records to ``games.jsonl``, one flushed line per finished game."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._handle = path.open("a", encoding="utf-8")

    def append(self, record: dict[str, Any]) -> None:
        """Write one record as a single line and flush it to the OS."""
        self._handle.write(json.dumps(record, sort_keys=True) + "\n")
        self._handle.flush()

    def close(self) -> None:
        """Close the file."""
        self._handle.close()

    def __enter__(self) -> ResultWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
