"""Fixtures of the web tests: a recorded tournament, the service with the page, headless Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from web_harness import make_driver, missing_browser, record_runs, start_service

from rummyai.hint.limits import Limits


@pytest.fixture(scope="session")
def recorded_runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small tournament folder whose games keep their moves."""
    return record_runs(tmp_path_factory.mktemp("runs") / "greedy-vs-random")


@pytest.fixture(scope="session")
def web_url(recorded_runs: Path) -> Iterator[str]:
    """Base URL of a running service with the web page and the replay folder."""
    url, stop = start_service(recorded_runs)
    yield url
    stop()


@pytest.fixture(scope="session")
def discard_runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small tournament folder of a draw-and-discard variant (standard rummy) with its moves."""
    return record_runs(tmp_path_factory.mktemp("runs") / "standard", "standard", max_turns=20)


@pytest.fixture(scope="session")
def discard_web_url(discard_runs: Path) -> Iterator[str]:
    """Base URL of a service (one solver thread: replays need none) replaying `discard_runs`."""
    url, stop = start_service(discard_runs, Limits(workers=1, pool="thread"))
    yield url
    stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Headless Chromium; fails (does not skip) when chromium or chromedriver is missing."""
    why = missing_browser()
    if why is not None:
        pytest.fail(why)
    driver = make_driver()
    yield driver
    driver.quit()
