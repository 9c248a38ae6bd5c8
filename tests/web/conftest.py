"""A service with the web page on a loopback port, a recorded tournament for its replay viewer,
and headless Chromium driven by Selenium (Debian's ``chromium`` and ``chromium-driver``)."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from rummyai.arena.play import play_recorded_game
from rummyai.arena.runner import run_tournament
from rummyai.hint.limits import Limits
from rummyai.hint.service import create_app


@pytest.fixture(scope="session")
def recorded_runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small tournament folder whose games keep their moves."""
    out = tmp_path_factory.mktemp("runs") / "greedy-vs-random"
    run_tournament(
        "rummikub",
        ["greedy", "random"],
        1,
        2,
        seed=5,
        out_dir=out,
        max_turns=40,
        progress=False,
        report=False,
        game_fn=play_recorded_game,
    )
    return out


@pytest.fixture(scope="session")
def web_url(recorded_runs: Path) -> Iterator[str]:
    """Base URL of a running service with the web page and the replay folder."""
    import uvicorn

    app = create_app(Limits(workers=2, time_limit=2.0), runs=recorded_runs)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the service did not start")
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=20)


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Headless Chromium; fails (does not skip) when chromium or chromedriver is missing."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    driver_path = shutil.which("chromedriver")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if driver_path is None or chromium is None:
        pytest.fail("the browser tests need Debian's chromium and chromium-driver (.ci/run installs them)")
    options = Options()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1000"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    driver.set_script_timeout(30)
    yield driver
    driver.quit()
