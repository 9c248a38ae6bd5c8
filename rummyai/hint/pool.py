"""The worker pool that runs solves for the HTTP service, so one slow request does not stall others.

Jobs are named (``hint``, ``solve``, ``validate``) and take and return plain JSON data, so they
run the same in a process pool (the default: each worker has its own solver and its own core)
or a thread pool. A worker answers ``{"error": ...}`` for bad input, ``{"unavailable": ...}``
when the solver or judge is not installed; anything else unexpected becomes ``{"failure": ...}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from rummyai.errors import RummyError
from rummyai.hint.limits import Limits

_log = logging.getLogger("rummyai.hint")


class Busy(Exception):
    """Every worker is busy and the waiting line is full."""


class WorkerLost(Exception):
    """A worker process died while answering (the pool has been restarted)."""


def run_job(name: str, obj: dict[str, Any]) -> dict[str, Any]:
    """Answer one job in a worker: ``hint``, ``solve`` or ``validate`` on a JSON request."""
    from rummyai.hint.api import SolverUnavailable, hint_json, judge_function, solve_request_json
    from rummyai.hint.position import position_from_json

    try:
        if name == "hint":
            return hint_json(obj)
        if name == "solve":
            return solve_request_json(obj)
        if name == "validate":
            position_from_json(obj, ("new_table",))  # bad cards or table: the same errors as hint
            judge = judge_function()
            if judge is None:
                return {
                    "unavailable": "the move judge (rummyai.engine.judge) is not available in this installation"
                }
            return judge(obj)
        return {"failure": f"unknown job {name!r}"}
    except SolverUnavailable as error:
        return {"unavailable": str(error)}
    except RummyError as error:
        return {"error": str(error)}
    except Exception as error:  # a bug must not take the worker down; report it as a failure
        return {"failure": f"{type(error).__name__}: {error}"}


def warm_up() -> None:
    """Import the solver and run one tiny solve so the first real request is not slow."""
    with contextlib.suppress(Exception):  # warming is best effort
        run_job("hint", {"variant": "rummikub", "hand": "7H 8H 9H", "table": [], "alternatives": 0})


class SolvePool:
    """A bounded pool: `limits.workers` running jobs, at most `limits.max_pending` waiting."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._executor: Executor | None = None
        self._in_flight = 0

    def start(self) -> None:
        """Create the executor and warm every worker up."""
        if self.limits.pool == "process":
            context = multiprocessing.get_context("spawn")
            executor = ProcessPoolExecutor(self.limits.workers, mp_context=context, initializer=warm_up)
            try:
                # Touch every worker so they are all spawned and warm before the first request.
                futures = [executor.submit(run_job, "noop", {}) for _ in range(self.limits.workers)]
                for future in futures:
                    future.result()
                self._executor = executor
                return
            except (BrokenProcessPool, RuntimeError, OSError) as error:
                # Typically a script that starts the service without `if __name__ == "__main__":`.
                executor.shutdown(wait=False, cancel_futures=True)
                _log.warning("worker processes failed to start (%s); using threads instead", error)
        self._executor = ThreadPoolExecutor(self.limits.workers, thread_name_prefix="rummyai-solve")
        warm_up()

    def stop(self) -> None:
        """Shut the executor down: waiting jobs are cancelled, running ones (bounded by the solve
        time limit) finish, and no worker process outlives the service."""
        executor, self._executor = self._executor, None
        if executor is None:
            return
        processes = (
            list(getattr(executor, "_processes", None) or {})
            if isinstance(executor, ProcessPoolExecutor)
            else []
        )
        children = [p for p in multiprocessing.active_children() if p.pid in processes]
        executor.shutdown(wait=True, cancel_futures=True)
        for child in children:
            child.join(timeout=5)
            if child.is_alive():
                child.terminate()

    @property
    def in_flight(self) -> int:
        """Jobs running or waiting."""
        return self._in_flight

    async def run(self, name: str, obj: dict[str, Any]) -> dict[str, Any]:
        """Run a job in the pool; raise `Busy` when the line is full, `WorkerLost` on a crash."""
        if self._executor is None:
            self.start()
        if self._in_flight >= self.limits.workers + self.limits.max_pending:
            raise Busy(f"the service is busy ({self._in_flight} requests in progress); retry shortly")
        self._in_flight += 1
        try:
            loop = asyncio.get_running_loop()
            assert self._executor is not None
            return await loop.run_in_executor(self._executor, run_job, name, obj)
        except BrokenProcessPool as error:
            self.stop()
            self.start()
            raise WorkerLost("a solver worker stopped unexpectedly; the pool was restarted, retry") from error
        finally:
            self._in_flight -= 1
