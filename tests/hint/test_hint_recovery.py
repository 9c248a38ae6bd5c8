"""The real service (worker processes) under trouble: a killed worker costs only its request and is
replaced while /healthz keeps answering; CORS preflights; Swagger UI served from the package."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI


def test_a_killed_worker_costs_its_request_only_and_is_replaced(
    client: httpx.Client,
    service_url: str,
    service_app: FastAPI,
    rhine: dict[str, Any],
    post_hint: Callable[..., httpx.Response],
) -> None:
    pool = service_app.state.pool
    before = pool.status()["replacements"]
    answers: list[httpx.Response] = []

    def ask() -> None:
        with httpx.Client(base_url=service_url, timeout=30) as own:
            answers.append(own.post("/v1/hint", json={**rhine, "time_limit": 1.0}))

    asker = threading.Thread(target=ask)
    asker.start()
    deadline = time.monotonic() + 20
    while not pool.worker_pids(busy=True) and time.monotonic() < deadline:
        time.sleep(0.005)
    busy = pool.worker_pids(busy=True)
    assert busy, "the hard request never reached a worker"
    os.kill(busy[0], signal.SIGKILL)
    asker.join(timeout=30)
    lost = answers[0]
    assert lost.status_code == 503 and lost.headers["retry-after"] == "1", lost.text
    assert "worker" in lost.json()["error"]
    health = client.get("/healthz")  # answered while the new worker starts
    assert health.status_code == 200 and health.json()["status"] == "ok"
    easy = client.post("/v1/hint", json={"hand": "7H 8H 9H", "table": ["3C 4C 5C"]})
    assert easy.status_code == 200  # the fast lane's own worker still answers
    while pool.status()["workers_alive"] < 2 and time.monotonic() < deadline + 60:
        time.sleep(0.05)
    status = pool.status()
    assert status["workers_alive"] == 2 and status["replacements"] == before + 1
    again = post_hint({**rhine, "time_limit": 0.5, "alternatives": 0})
    assert again.status_code == 200 and again.json()["status"] in ("optimal", "feasible")


def test_cors_preflight_names_allowed_origins_only(client: httpx.Client) -> None:
    ask = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"}
    allowed = client.options("/v1/hint", headers={"Origin": "http://allowed.example", **ask})
    assert allowed.status_code == 200
    assert allowed.headers["access-control-allow-origin"] == "http://allowed.example"
    other = client.options("/v1/hint", headers={"Origin": "http://other.example", **ask})
    assert other.status_code == 400 and "access-control-allow-origin" not in other.headers
    answer = client.post("/v1/hint", json={"hand": "7H 8H 9H"}, headers={"Origin": "http://allowed.example"})
    assert answer.headers["access-control-allow-origin"] == "http://allowed.example"


def test_docs_load_swagger_ui_from_the_service_itself(client: httpx.Client) -> None:
    page = client.get("/docs")
    assert page.status_code == 200
    assets = [
        part.split('"')[1]
        for part in page.text.split("src=")[1:] + page.text.split("href=")[1:]
        if part.startswith('"')
    ]
    scripts = [a for a in assets if a.endswith(".js")]
    assert scripts and all(a.startswith("/") for a in assets), assets  # nothing from another host
    for asset in scripts:
        assert client.get(asset).status_code == 200


def _threads(pid: int) -> dict[int, tuple[int, int]]:
    """Per thread of process `pid`: its nice value and the clock ticks it has run (from /proc)."""
    out = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        out[int(task.name)] = (int(fields[16]), int(fields[11]) + int(fields[12]))
    return out


def test_hard_jobs_run_in_a_nicer_thread_while_fast_jobs_keep_the_worker_priority(
    service_app: FastAPI, rhine: dict[str, Any], post_hint: Callable[..., httpx.Response]
) -> None:
    pool = service_app.state.pool
    base = os.getpriority(os.PRIO_PROCESS, os.getpid())
    nicer = min(19, base + pool.limits.hard_nice)
    before = {pid: _threads(pid) for pid in pool.worker_pids()}
    for _ in range(3):
        answer = post_hint({**rhine, "time_limit": 0.3, "alternatives": 0})
        assert answer.status_code == 200, answer.text
    after = {pid: _threads(pid) for pid in pool.worker_pids()}
    assert all(threads[pid][0] == base for pid, threads in after.items()), after  # main threads
    worked = [
        tid
        for pid, threads in after.items()
        for tid, (nice, ticks) in threads.items()
        if nice == nicer and ticks > before.get(pid, {}).get(tid, (0, 0))[1]
    ]
    assert worked, (before, after)  # the hard solves ran on a thread of the nicer priority


def test_an_idle_worker_that_dies_is_replaced_before_any_request_needs_it(service_app: FastAPI) -> None:
    pool = service_app.state.pool
    deadline = time.monotonic() + 60
    while not (pool.status()["ready"] and pool.status()["spare_workers"]) and time.monotonic() < deadline:
        time.sleep(0.05)
    before = pool.status()["replacements"]
    idle = pool.worker_pids(busy=False)
    assert idle
    os.kill(idle[0], signal.SIGKILL)
    while pool.status()["replacements"] == before and time.monotonic() < deadline:
        time.sleep(0.01)
    status = pool.status()
    assert status["replacements"] == before + 1 and status["workers_alive"] == 2
    assert idle[0] not in pool.worker_pids()
