"""A tournament folder's games for the replay viewer: the list, and one game as frames.

Games recorded with their moves (`rummyai.arena.play.play_recorded_game`) are replayed with the
engine from their deal seed; each frame is the table, every seat's hand, the stock and the scores
after one move, with the move in words.
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import Any

from rummyai.engine import game
from rummyai.engine.replay import move_from_json
from rummyai.engine.state import GameState
from rummyai.errors import RummyError
from rummyai.web.cards import describe_move, meld_cards

#: Moves replayed per game at most (a bound on the work one request can ask for).
MAX_FRAMES = 20_000


def _store() -> Any:
    """The tournament store (`rummyai.arena.store`), imported only by a service that replays runs:
    the arena package brings its report and plotting code with it."""
    return import_module("rummyai.arena.store")


class RunFolder:
    """A tournament folder (``tournament.json`` and ``games.jsonl``), read when asked."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        store = _store()
        if not (self.path / store.GAMES_FILE).is_file():
            raise RummyError(f"{self.path} is not a tournament folder: it has no {store.GAMES_FILE}")
        store.read_manifest(self.path / store.MANIFEST_FILE)  # an unreadable manifest is refused here

    def _records(self) -> list[dict[str, Any]]:
        store = _store()
        records: list[dict[str, Any]] = store.load_records(self.path / store.GAMES_FILE)
        records.sort(key=store.record_key)
        return records

    def _manifest(self) -> dict[str, Any]:
        store = _store()
        manifest: dict[str, Any] = store.read_manifest(self.path / store.MANIFEST_FILE)
        return manifest

    def listing(self) -> dict[str, Any]:
        """The manifest's variant and agents, and per game its seats, scores and whether it has moves."""
        manifest = self._manifest()
        games = [
            {
                "game": n,
                "set": r.get("set"),
                "seating": r.get("seating"),
                "seats": r.get("seats", []),
                "scores": r.get("scores", []),
                "ranks": r.get("ranks", []),
                "moves": len(r["moves"]) if "moves" in r else None,
            }
            for n, r in enumerate(self._records())
        ]
        return {
            "folder": self.path.name,
            "variant": manifest.get("variant"),
            "options": manifest.get("options", []),
            "agents": manifest.get("agents", []),
            "games": games,
        }

    def frames(self, n: int) -> dict[str, Any]:
        """Game `n` of `listing` replayed: its seats and one frame per position (the deal first)."""
        records = self._records()
        if not 0 <= n < len(records):
            raise RummyError(f"no game {n} in {self.path.name} (it has {len(records)})")
        record = records[n]
        if "moves" not in record:
            raise RummyError(
                f"game {n} was played without recording its moves (play the tournament with "
                "`rummyai tournament --record-moves` to replay its games)"
            )
        manifest = self._manifest()
        state = game.new_match(
            manifest["variant"],
            len(record["seats"]),
            int(record["match_seed"]),
            options=list(manifest.get("options", [])),
            max_turns=manifest.get("max_turns"),
        )
        frames = [_frame(state, None, "Deal")]
        for k, data in enumerate(record["moves"][:MAX_FRAMES]):
            move = move_from_json(data)
            seat = state.to_act
            text = describe_move(state, move)
            try:
                state = game.apply(state, move)
            except RummyError as error:
                raise RummyError(f"game {n}: recorded move {k} does not replay: {error}") from None
            frames.append(_frame(state, seat, text))
        return {"game": n, "seats": record["seats"], "scores": record.get("scores", []), "frames": frames}


def _frame(state: GameState, seat: int | None, text: str) -> dict[str, Any]:
    views = [game.view(state, s) for s in range(state.num_players)]
    first = views[0]
    return {
        "seat": seat,
        "move": text,
        "round": state.round_index + 1,
        "table": [meld_cards(m) for m in first.get("table", [])],
        "hands": [list(v["hand_cards"]) for v in views],
        "stock_size": first.get("stock_size"),
        "discard": first.get("discard_cards", []),
        "scores": list(state.scores),
        "to_act": None if state.match_over else state.to_act,
    }
