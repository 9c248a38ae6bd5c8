"""A real hint service on a loopback port (uvicorn in a thread, solver workers in processes)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from rummyai.hint.limits import Limits
from rummyai.hint.service import create_app

#: A Rhine position the solver's general model takes a while over (its fast path does not apply).
RHINE_POSITION: dict[str, Any] = {
    "variant": "rhine",
    "hand": ["3H", "3H", "4C", "5D", "8H", "9S", "9H", "TS", "TD", "TC", "JC"],
    "table": ["8D 9D JK=TD", "JH QH KH", "KS KH KD KD KC", "2S 2S 2H 2C", "5S 6S 7S", "6D 6D 6C"],
}

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
