"""The HTTP service (extra ``serve``): hints, solves and move checks as JSON over FastAPI.

Endpoints: ``POST /v1/hint``, ``POST /v1/solve``, ``POST /v1/validate``, ``GET /v1/variants``,
``GET /healthz``, and the web page at ``/`` with its game and replay routes (`rummyai.web.routes`);
OpenAPI docs at ``/docs`` (Swagger UI served from the package, so it works
offline). Bodies are the JSON of the CLI contract. Bad input (malformed JSON, a wrong type, an
unknown card or variant, too many copies, an invalid table, too many cards) is answered 422 with
``{"error": "..."}`` naming the problem; a body over the size limit 413; a full waiting line, a
request past its time limit or a lost worker 503 with ``Retry-After``. Solves run in a bounded
two-lane worker pool (`rummyai.hint.pool`, `rummyai.hint.lanes`). Browsers on the origins given
to `create_app` may call it (CORS).
"""

from __future__ import annotations

import asyncio
import gc
import json
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from rummyai import __version__
from rummyai.errors import RummyError
from rummyai.hint import lanes
from rummyai.hint.limits import Limits, check_card_count
from rummyai.hint.pool import Busy, Overdue, SolvePool, WorkerLost, start_fork_server
from rummyai.hint.schemas import HealthAnswer, HintAnswer, SolveAnswer, ValidateAnswer, VariantModel
from rummyai.variants import BUILTINS, VARIANT_IDS

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

Cards = str | list[str]
Table = str | list[str | list[str]]
Objective = Literal["cards", "points", "penalty"]
SolveObjective = Literal["cards", "points", "penalty", "opening"]

_EXAMPLE: dict[str, Any] = {
    "variant": "rummikub",
    "hand": ["6C", "9D", "TD", "JD", "KS", "KH", "KD", "2H"],
    "table": [["3C", "4C", "5C"], ["8S", "8D", "8H"]],
    "opened": True,
}


class PositionBody(BaseModel):
    """A position: variant (with options), hand and table, and whether the player has opened."""

    model_config = ConfigDict(extra="forbid", strict=True, json_schema_extra={"examples": [_EXAMPLE]})

    variant: str = Field("rummikub", description=f"one of {', '.join(VARIANT_IDS)}")
    options: list[str] | dict[str, Any] | None = Field(None, description="variant options, e.g. ['decks=2']")
    hand: Cards = Field(description='cards as tokens or one string, e.g. "7H 8H JK"')
    table: Table = Field(default_factory=list, description="melds as token lists, or one string with '|'")
    opened: bool = Field(True, description="whether the player has made the opening")


SCORE_FIELD = Field(
    0, description="black-heart: the player's cumulative score (picks the opening chart line)"
)


def _committed_field() -> Any:
    return Field(
        default_factory=list,
        description="standard, black-heart: cards taken from the discards that must be played",
    )


def _taken_field() -> Any:
    return Field(None, description="rummy-palace: the card taken from the discards (not the discard)")


class HintBody(PositionBody):
    """A hint request: the position, the objective and how many alternatives to return."""

    score: int = SCORE_FIELD
    committed: Cards = _committed_field()
    taken: str | None = _taken_field()
    objective: Objective = "cards"
    alternatives: int = Field(3, ge=0, le=5)
    time_limit: float | None = Field(
        None, gt=0, allow_inf_nan=False, description="seconds, capped by the service"
    )


class SolveBody(PositionBody):
    """A solve request (the `rummyai solve` JSON contract)."""

    score: int = SCORE_FIELD
    objective: SolveObjective = "cards"
    time_limit: float | None = Field(
        None, gt=0, allow_inf_nan=False, description="seconds, capped by the service"
    )
    max_cards: int | None = Field(None, ge=0)
    committed: Cards = _committed_field()
    taken: str | None = _taken_field()
    minimize_changes: bool = Field(
        True, description="among the best plays, keep the most table melds whole (false: faster)"
    )


class ValidateBody(PositionBody):
    """A validate request: is `new_table` a legal result of playing from hand onto table?"""

    variant: str = Field(description=f"one of {', '.join(VARIANT_IDS)} (required, as in `rummyai validate`)")
    new_table: Table = Field(description="the table after the play")


async def _disconnected(request: Request, every: float = 0.1) -> None:
    """Return once the client has gone (checked every `every` seconds)."""
    while not await request.is_disconnected():
        await asyncio.sleep(every)


class ErrorBody(BaseModel):
    """Every error answer: one message naming the problem."""

    error: str


_ERRORS: dict[int | str, dict[str, Any]] = {
    413: {"model": ErrorBody, "description": "body too large"},
    422: {"model": ErrorBody, "description": "bad input, the message names the problem"},
    503: {
        "model": ErrorBody,
        "description": "busy, past the time limit, a worker lost (retry after Retry-After seconds), "
        "or the solver/judge is not installed",
        "headers": {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}},
    },
}


def _error(status: int, message: str, retry_after: int | None = None) -> JSONResponse:
    headers = None if retry_after is None else {"Retry-After": str(retry_after)}
    return JSONResponse({"error": message}, status_code=status, headers=headers)


_FIELD_HELP = {
    "hand": "expected a string of cards or a list of card tokens",
    "committed": "expected a string of cards or a list of card tokens",
    "table": "expected a string of melds separated by '|' or a list of melds (lists of card tokens)",
    "new_table": "expected a string of melds separated by '|' or a list of melds (lists of card tokens)",
    "options": "expected a list of 'name[=value]' strings or an object",
}


def _validation_message(error: RequestValidationError) -> str:
    """One line naming each bad field of a request that failed the schema."""
    by_field: dict[str, list[str]] = {}
    for item in error.errors():
        kind = item.get("type", "")
        loc = [str(x) for x in item.get("loc", ()) if x != "body"]
        if kind == "json_invalid":
            detail = item.get("ctx", {}).get("error", "")
            return f"malformed JSON: {detail}" if detail else "malformed JSON"
        if not loc:
            return "the request body must be a JSON object"
        by_field.setdefault(loc[0], []).append(f"{'.'.join(loc)}: {item.get('msg', 'invalid')}")
    parts = []
    for name, messages in list(by_field.items())[:3]:
        if len(messages) > 1 and name in _FIELD_HELP:
            parts.append(f"{name}: {_FIELD_HELP[name]}")
        else:
            parts.append(messages[0])
    return "; ".join(parts) or "invalid request"


def _unreadable_json(body: bytes) -> str | None:
    """Why a non-empty body is not JSON that Python can read (None when it is, or is empty).

    FastAPI answers such bodies (a number of more than 4300 digits, nesting deeper than the
    parser's recursion limit) with a bare 400; this names the problem, as 422 like any bad JSON.
    """
    if not body.strip():
        return None
    try:
        json.loads(body)
    except (ValueError, RecursionError) as error:
        return f"malformed JSON: {error}"
    return None


class BodyLimit:
    """ASGI middleware: refuse bodies over `max_bytes` with 413 before the app reads them.

    Bodies are read as JSON whatever their declared type (``curl -d`` sends a form type), since
    every endpoint takes JSON.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await _error(413, f"request body over {self.max_bytes} bytes")(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the client left before its body ended: nothing to answer, nothing to run
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await _error(413, f"request body over {self.max_bytes} bytes")(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        problem = _unreadable_json(body)
        if problem is not None:
            await _error(422, problem)(scope, receive, send)
            return
        headers = [(k, v) for k, v in scope.get("headers") or [] if k != b"content-type"]
        scope = {**scope, "headers": [*headers, (b"content-type", b"application/json")]}
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _load_then_freeze() -> None:
    """Import the lane check's modules, then keep everything loaded so far out of later garbage
    collections (it lives as long as the process)."""
    lanes.load()
    gc.freeze()


def create_app(
    limits: Limits | None = None, cors_origins: Sequence[str] = (), runs: str | Path | None = None
) -> FastAPI:
    """The FastAPI application with its own worker pool, bounded by `limits`; browsers on
    `cors_origins` (``*`` for any) may call it; the web page replays the games of tournament
    folder `runs`."""
    from fastapi_offline import FastAPIOffline

    limits = limits or Limits()
    if limits.pool == "process":
        start_fork_server()  # warms the solver in its own process while the routes are built
    pool = SolvePool(limits)
    loading: list[asyncio.Future[None]] = []  # the lane check's modules, imported in a thread at start

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await pool.start()  # returns at once; workers take their places in the background
        loading[:] = [asyncio.ensure_future(asyncio.to_thread(_load_then_freeze))]
        try:
            yield
        finally:
            await pool.stop()

    app = FastAPIOffline(
        title="rummyai hint service",
        version=__version__,
        description="Best moves, alternatives with steps, solves and move checks for rummy variants.",
        lifespan=lifespan,
    )
    app.state.limits = limits
    app.state.pool = pool
    app.add_middleware(BodyLimit, max_bytes=limits.max_body_bytes)
    if cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(cors_origins),
            allow_methods=["GET", "POST"],
            allow_headers=["Content-Type"],
            expose_headers=["Retry-After"],
            max_age=600,
        )

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, error: RequestValidationError) -> JSONResponse:
        return _error(422, _validation_message(error))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        return _error(error.status_code, str(error.detail))

    async def dispatch(
        request: Request, job: str, body: BaseModel, card_fields: tuple[str, ...]
    ) -> JSONResponse:
        obj = body.model_dump(exclude_none=True)
        try:
            check_card_count(limits, (obj.get(f) for f in card_fields))
        except RummyError as error:
            return _error(422, str(error))
        try:
            if loading:
                await loading[0]
            lane = lanes.lane_of(job, obj)
        except RummyError as error:
            return _error(422, str(error))
        seconds = limits.solve_time(obj.get("time_limit"))
        if job != "validate":
            obj["time_limit"] = seconds
        running = asyncio.create_task(pool.run(job, obj, lane, seconds))
        leaving = asyncio.create_task(_disconnected(request))
        await asyncio.wait((running, leaving), return_when=asyncio.FIRST_COMPLETED)
        leaving.cancel()
        if not running.done():  # the client left: a job still waiting is dropped, nobody reads this
            running.cancel()
            return _error(503, "the client disconnected")
        try:
            answer = running.result()
        except (Busy, Overdue, WorkerLost) as error:
            return _error(503, str(error), limits.retry_after)
        if "error" in answer:
            return _error(422, str(answer["error"]))
        if "unavailable" in answer:
            return _error(503, str(answer["unavailable"]))
        if "failure" in answer:
            return _error(500, f"internal error: {answer['failure']}")
        return JSONResponse(answer)

    @app.post(
        "/v1/hint",
        responses=_ERRORS,
        response_model=HintAnswer,
        summary="best move, alternatives and the steps to play them",
    )
    async def post_hint(request: Request, body: HintBody) -> JSONResponse:
        return await dispatch(request, "hint", body, ("hand", "table"))

    @app.post(
        "/v1/solve", responses=_ERRORS, response_model=SolveAnswer, summary="best move (the solve contract)"
    )
    async def post_solve(request: Request, body: SolveBody) -> JSONResponse:
        return await dispatch(request, "solve", body, ("hand", "table"))

    @app.post(
        "/v1/validate",
        responses=_ERRORS,
        response_model=ValidateAnswer,
        summary="is new_table a legal play from hand onto table",
    )
    async def post_validate(request: Request, body: ValidateBody) -> JSONResponse:
        return await dispatch(request, "validate", body, ("hand", "table", "new_table"))

    @app.get("/v1/variants", response_model=list[VariantModel], summary="the built-in variants")
    async def get_variants() -> list[dict[str, Any]]:
        return [BUILTINS[v].describe() for v in VARIANT_IDS]

    @app.get("/healthz", response_model=HealthAnswer, summary="liveness and load")
    async def healthz() -> dict[str, Any]:
        return {"status": "ok", "version": __version__, "in_flight": pool.in_flight, **pool.status()}

    from rummyai.web.routes import add_web

    add_web(app, runs)
    return app


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    limits: Limits | None = None,
    log_level: str = "info",
    *,
    cors_origins: Sequence[str] = (),
    runs: str | Path | None = None,
) -> None:
    """Run the service with uvicorn until interrupted (a `RummyError` when the address cannot be
    listened on, before any worker starts)."""
    import uvicorn

    _check_address(host, port)
    uvicorn.run(create_app(limits, cors_origins, runs), host=host, port=port, log_level=log_level)


def _check_address(host: str, port: int) -> None:
    """Refuse, naming it, an address the service cannot listen on (a port in use or out of range,
    a host that is not this machine's), probed as uvicorn's one-process server binds: every
    address the host resolves to, IPv6 ones for IPv6 only."""
    import socket

    where = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    if not 0 <= port <= 65535:
        raise RummyError(f"cannot listen on {where}: a port is 0..65535")
    try:
        for family, kind, proto, _, address in socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        ):
            with socket.socket(family, kind, proto) as probe:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:
                    probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                probe.bind(address)
    except OSError as error:
        raise RummyError(f"cannot listen on {where}: {error.strerror or error}") from None


def main(argv: list[str] | None = None) -> None:
    """``python -m rummyai.hint.service [--host H] [--port P] [--workers N] [--time-limit S]``."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m rummyai.hint.service", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on")
    parser.add_argument("--workers", type=int, default=Limits.workers, help="solver worker processes")
    parser.add_argument(
        "--time-limit", type=float, default=Limits.time_limit, help="seconds per solve, at most"
    )
    parser.add_argument("--pool", choices=("process", "thread"), default=Limits.pool)
    parser.add_argument(
        "--hard-nice",
        type=int,
        default=Limits.hard_nice,
        help="steps nicer than the service that hard-lane solves run (0..19)",
    )
    parser.add_argument("--log-level", default="info", help="uvicorn log level")
    parser.add_argument(
        "--cors-origin",
        action="append",
        default=[],
        help="a browser origin allowed to call (repeatable; * for any)",
    )
    parser.add_argument("--runs", default=None, help="a tournament folder for the replay viewer")
    args = parser.parse_args(argv)
    try:
        limits = Limits(
            workers=args.workers, time_limit=args.time_limit, pool=args.pool, hard_nice=args.hard_nice
        )
    except ValueError as error:
        parser.error(str(error))
    try:
        serve(
            args.host,
            args.port,
            limits,
            log_level=args.log_level,
            cors_origins=args.cors_origin,
            runs=args.runs,
        )
    except RummyError as error:  # e.g. --runs names no tournament folder
        parser.error(str(error))


__all__ = ["BodyLimit", "Limits", "create_app", "main", "serve"]

if __name__ == "__main__":
    main()
