"""A real hint service on a loopback port (uvicorn in a thread, solver workers in processes)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from rummyai.hint.limits import Limits
from rummyai.hint.service import create_app

TEST_LIMITS = Limits(max_body_bytes=8192, max_cards=120, time_limit=1.0, workers=2, max_pending=16)


@pytest.fixture(scope="session")
def service_url() -> Iterator[str]:
    """Base URL of a running service; stopped at the end of the session."""
    import uvicorn

    config = uvicorn.Config(create_app(TEST_LIMITS), host="127.0.0.1", port=0, log_level="warning")
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
