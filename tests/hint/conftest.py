"""A real hint service on a loopback port (uvicorn in a thread, solver workers in processes)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from rummyai.hint.limits import Limits
from rummyai.hint.service import create_app

#: A Rhine position the solver's general model spends seconds on (2.5 s without a limit here):
#: four hand cards against thirteen table melds, three with jokers.
RHINE_POSITION: dict[str, Any] = {
    "variant": "rhine",
    "hand": ["3S", "4D", "7D", "9C"],
    "table": [
        "5H 6H 7H", "7C JK=8C 9C", "KS KD KC KC", "2S 3S 4S", "2H 2D 2D", "5S 5S 5C", "QH QD QC QS",
        "TS TH TD", "AC 2C 3C", "AS AH AH AD AC AD", "6S 7S 8S", "9D JK=TD JD", "JS JD JC JK=J",
    ],
}  # fmt: skip

TEST_LIMITS = Limits(max_body_bytes=8192, max_cards=120, time_limit=1.0, workers=2, max_pending=16)


@pytest.fixture
def rhine() -> dict[str, Any]:
    """A hard position (a fresh copy)."""
    return dict(RHINE_POSITION)


@pytest.fixture(scope="session")
def service_app() -> FastAPI:
    """The application behind `service_url` (its pool is `app.state.pool`)."""
    return create_app(TEST_LIMITS, cors_origins=("http://allowed.example",))


@pytest.fixture(scope="session")
def service_url(service_app: FastAPI) -> Iterator[str]:
    """Base URL of a running service; stopped at the end of the session."""
    import uvicorn

    config = uvicorn.Config(service_app, host="127.0.0.1", port=0, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the hint service did not start")
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=20)


@pytest.fixture(scope="session")
def client(service_url: str) -> Iterator[httpx.Client]:
    """An HTTP client bound to the running service."""
    with httpx.Client(base_url=service_url, timeout=30) as http:
        yield http


@pytest.fixture
def post_hint(client: httpx.Client) -> Callable[..., httpx.Response]:
    """POST a request (to /v1/hint unless `path` says otherwise) as a polite caller does: a 503
    with ``Retry-After`` (every worker busy, as when a hard solve outruns its limit on a loaded
    machine) is asked again after that wait, up to five times in all."""

    def post(body: dict[str, Any], path: str = "/v1/hint") -> httpx.Response:
        for _ in range(4):
            answer = client.post(path, json=body)
            if answer.status_code != 503 or "retry-after" not in answer.headers:
                return answer
            time.sleep(float(answer.headers["retry-after"]))
        return client.post(path, json=body)

    return post
