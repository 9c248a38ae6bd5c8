"""HTTP routes of the web page: the static page at ``/``, games against agents, and replays.

``GET /`` is the page (``static/index.html``, its files under ``/web/``); ``GET /v1/agents``;
``POST /v1/games`` deals a game, ``GET /v1/games/{id}`` shows it, ``POST /v1/games/{id}/choose``
plays a listed move and ``POST /v1/games/{id}/table`` lays down a whole table (tile variants);
``GET /v1/runs`` lists the games of the tournament folder given to ``rummyai serve --runs`` and
``GET /v1/runs/{n}`` replays one as frames. Errors are ``{"error": "..."}`` as elsewhere.
"""

from __future__ import annotations

import asyncio
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field

from rummyai.agents import AGENTS
from rummyai.errors import RummyError
from rummyai.variants import VARIANT_IDS
from rummyai.web.games import Games, choose, play_table, snapshot
from rummyai.web.runs import RunFolder

STATIC = Path(str(resources.files("rummyai.web") / "static"))


class NewGame(BaseModel):
    """A game to deal: the variant, the opponents' agent names (1 to 3), the deal's seed and
    optionally a number of turns after which every round is cut, and the variant's options."""

    model_config = ConfigDict(extra="forbid", strict=True)

    variant: str = Field("rummikub", description=f"one of {', '.join(VARIANT_IDS)}")
    opponents: list[str] = Field(default_factory=lambda: ["greedy"], description="agent names, 1 to 3")
    seed: int = Field(1, ge=0, lt=2**32)
    max_turns: int | None = Field(None, ge=1, le=10_000, description="end the game after this many turns")
    options: list[str] | dict[str, Any] | None = Field(
        None, description="the variant's options, e.g. ['official_jokers'] (rummyai variants lists them)"
    )


class Choice(BaseModel):
    """The index of one of the legal moves the game lists."""

    model_config = ConfigDict(extra="forbid", strict=True)

    index: int


class NewTable(BaseModel):
    """Tile variants: the whole table after the move, as melds of tokens (a wild as ``JK=7H``)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    melds: list[list[str]]


#: agents that need a model file or module to play, which a name from the page cannot give
NEEDS_A_MODEL = frozenset({"policy"})


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def add_web(app: FastAPI, runs: str | Path | None = None) -> None:
    """Serve the page, the game routes and (with `runs`, a tournament folder) the replay routes."""
    games = Games()
    folder = RunFolder(runs) if runs is not None else None
    router = APIRouter()

    @router.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @router.get("/v1/agents", summary="the agents one can play against")
    async def agents() -> list[dict[str, str]]:
        return [
            {"name": name, "description": text} for name, text in AGENTS.items() if name not in NEEDS_A_MODEL
        ]

    async def answer(work: Any, *args: Any) -> JSONResponse:
        try:
            found = await asyncio.to_thread(work, *args)
        except RummyError as error:
            status = 404 if str(error).startswith("no game") else 422
            return _error(status, str(error))
        return JSONResponse(found)

    @router.post("/v1/games", summary="deal a game against agents (you are seat 0)")
    async def new_game(body: NewGame) -> JSONResponse:
        return await answer(
            lambda: snapshot(games.new(body.variant, body.opponents, body.seed, body.max_turns, body.options))
        )

    @router.get("/v1/games/{game_id}", summary="the game as seat 0 sees it")
    async def get_game(game_id: str) -> JSONResponse:
        return await answer(lambda: snapshot(games.get(game_id)))

    @router.post("/v1/games/{game_id}/choose", summary="play one of the listed legal moves")
    async def choose_move(game_id: str, body: Choice) -> JSONResponse:
        def work() -> dict[str, Any]:
            found = games.get(game_id)
            choose(found, body.index)
            return snapshot(found)

        return await answer(work)

    @router.post("/v1/games/{game_id}/table", summary="tile variants: lay down a whole new table")
    async def lay_table(game_id: str, body: NewTable) -> JSONResponse:
        def work() -> dict[str, Any]:
            found = games.get(game_id)
            play_table(found, body.melds)
            return snapshot(found)

        return await answer(work)

    @router.get("/v1/runs", summary="the games of the tournament folder given with --runs")
    async def list_runs() -> JSONResponse:
        if folder is None:
            return _error(404, "no tournament folder: start the service with --runs DIR")
        return await answer(folder.listing)

    @router.get("/v1/runs/{n}", summary="one game of the folder, replayed as frames")
    async def replay(n: int) -> JSONResponse:
        if folder is None:
            return _error(404, "no tournament folder: start the service with --runs DIR")
        return await answer(folder.frames, n)

    app.include_router(router)
    app.mount("/web", StaticFiles(directory=STATIC), name="web")
