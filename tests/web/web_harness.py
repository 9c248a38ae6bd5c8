"""What the browser tests and the screenshot script share: a recorded tournament, a running
service with the web page, and headless Chromium (Debian's ``chromium`` and ``chromium-driver``)."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service

from rummyai.arena.runner import run_tournament
from rummyai.hint.limits import Limits
from rummyai.hint.service import create_app


def record_runs(out: Path, variant: str = "rummikub", max_turns: int = 40) -> Path:
    """A small tournament (greedy against random, `max_turns` turns a game) that keeps its moves."""
    run_tournament(
        variant,
        ["greedy", "random"],
        1,
        2,
        seed=5,
        out_dir=out,
        max_turns=max_turns,
        progress=False,
        report=False,
        record_moves=True,
    )
    return out


def start_service(runs: Path, limits: Limits | None = None) -> tuple[str, Callable[[], None]]:
    """Serve the page (by default two solver workers) on a free loopback port: its URL and how to stop it."""
    import uvicorn

    app = create_app(limits or Limits(workers=2, time_limit=2.0), runs=runs)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the service did not start")
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]

    def stop() -> None:
        server.should_exit = True
        thread.join(timeout=20)

    return f"http://127.0.0.1:{port}", stop


def missing_browser() -> str | None:
    """Why headless Chromium cannot run here, or None when it can."""
    if shutil.which("chromedriver") is None or shutil.which("chromium") is None:
        return "the browser tests need Debian's chromium and chromium-driver (.ci/run installs them)"
    return None


def make_driver(width: int = 1280, height: int = 1000) -> webdriver.Chrome:
    """Headless Chromium through its chromedriver."""
    options = Options()
    options.binary_location = str(shutil.which("chromium"))
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        f"--window-size={width},{height}",
    ):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(str(shutil.which("chromedriver"))), options=options)
    driver.set_script_timeout(30)
    return driver
