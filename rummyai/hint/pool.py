"""The worker pool of the HTTP service: two lanes, deadlines, and lost workers replaced one by one.

Jobs are named (``hint``, ``solve``, ``validate``) and take and return plain JSON data, so they
run the same in worker processes (the default: each has its own solver and core) or threads. A
job goes to the ``fast`` lane (positions the compiled dynamic program answers, `rummyai.hint.lanes`)
or the ``hard`` lane. Some workers serve the fast lane only, so cheap requests never wait behind
expensive ones; the others take the oldest waiting job of either lane.

Every job has a deadline (its time limit, counted from arrival). The solver gets what is left
of it when a worker takes the job, less a margin for the answer's own work (so a late start
answers ``feasible``, the best move so far); a job still waiting half of `Limits.grace` past its
deadline, or a worker that has not answered `Limits.grace` seconds after it, ends in `Overdue`
(503 with ``Retry-After``), and such a worker is stopped and replaced. A worker that dies costs only the job it held (`WorkerLost`); it is
replaced once, by a warm spare kept for this (`Limits.spare_workers`), and a new spare starts in
a thread, so the event loop (and ``/healthz``) keeps answering and full service is back at once.

Worker processes are forked from a fork server that imported the solver and warmed it up once
(`rummyai.hint.warm`), so a worker (the first, a spare, a replacement) is ready in milliseconds
and costs no second import. `SolvePool.start` returns at once: workers take their places in the
background, and a request that comes before its lane has a worker waits for one, its time limit
counted from then. Inside a worker, hard-lane jobs run in a thread `Limits.hard_nice` steps
nicer than the process (Linux gives each thread its own priority), so when the cores are busy the
operating system runs fast-lane jobs, the event loop and the fast-lane workers first.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import multiprocessing
import os
import sys
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, Literal

from rummyai.errors import RummyError
from rummyai.hint.limits import Limits

_log = logging.getLogger("rummyai.hint")

Lane = Literal["fast", "hard"]
LANES: tuple[Lane, ...] = ("fast", "hard")

#: Seconds a new worker process may take to start and warm up before it counts as failed.
START_TIMEOUT = 120.0
#: Seconds a request that comes while the service starts waits for its lane's first worker.
STARTING_WAIT = 30.0
#: Seconds a solve gets at least when a worker takes a job close to (or just past) its deadline.
MIN_SOLVE_SECONDS = 0.02


class Busy(Exception):
    """Every worker of the lane is busy and its waiting line is full."""


class WorkerLost(Exception):
    """The worker answering the job died (it is being replaced)."""


class Overdue(Exception):
    """The job outran its deadline (waiting, or in a worker that was then stopped)."""


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
        if name == "noop":
            return {}
        return {"failure": f"unknown job {name!r}"}
    except SolverUnavailable as error:
        return {"unavailable": str(error)}
    except RummyError as error:
        return {"error": str(error)}
    except Exception as error:  # a bug must not take the worker down; report it as a failure
        return {"failure": f"{type(error).__name__}: {error}"}


def warm_up() -> None:
    """Import the solver and run one tiny solve per lane so the first real request is not slow."""
    with contextlib.suppress(Exception):  # warming is best effort
        run_job("hint", {"variant": "rummikub", "hand": "7H 8H 9H", "table": [], "alternatives": 0})
        run_job("hint", {"variant": "rummy-tiles", "hand": "7H 8H 9H", "table": [], "alternatives": 0})


def lower_thread_priority(steps: int) -> None:
    """Make the calling thread (only it, on Linux) `steps` nicer; elsewhere do nothing."""
    if steps and sys.platform == "linux":
        with contextlib.suppress(OSError):
            tid = threading.get_native_id()
            os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + steps))


def _serve_jobs(conn: Connection, hard_nice: int) -> None:
    """A worker process: warm up, say so, then answer ``(name, obj, lane)`` messages until told to
    stop; hard-lane jobs run in a thread `hard_nice` steps nicer than this one."""
    warm_up()  # at once when forked from the warm fork server
    with contextlib.suppress(OSError):
        conn.send("ready")
    nicer = ThreadPoolExecutor(1, "rummyai-hard", initializer=lower_thread_priority, initargs=(hard_nice,))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        name, obj, lane = message
        if lane == "hard" and hard_nice:
            answer = nicer.submit(run_job, name, obj).result()
        else:
            answer = run_job(name, obj)
        try:
            conn.send(answer)
        except OSError:
            return


def _process_context() -> Any:
    """Where worker processes come from: a fork server that imported and warmed the solver once
    (on Linux; elsewhere new interpreters, each warming up on its own)."""
    if sys.platform != "linux":
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["rummyai.hint.warm"])
    return context


def start_fork_server() -> None:
    """Start the workers' fork server now, so that it loads and warms the solver while the caller
    does other work (a service importing its web framework); a no-op where workers are spawned."""
    if sys.platform == "linux":
        from multiprocessing import forkserver

        _process_context()
        forkserver.ensure_running()


class _ProcessWorker:
    """One solver process, spoken to over a pipe; waited on with the event loop's reader."""

    def __init__(self, hard_nice: int = 0) -> None:
        """Start the process and wait until it is warm (blocking: call it from a thread)."""
        context = _process_context()
        parent, child = context.Pipe()
        self.process = context.Process(
            target=_serve_jobs, args=(child, hard_nice), daemon=True, name="rummyai-solve"
        )
        self.process.start()
        child.close()
        self.conn = parent
        if not parent.poll(START_TIMEOUT) or parent.recv() != "ready":
            self.kill()
            raise RuntimeError("a solver worker did not start")

    @property
    def pid(self) -> int | None:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.is_alive()

    async def call(self, name: str, obj: dict[str, Any], lane: Lane, timeout: float) -> dict[str, Any]:
        """Send the job and wait at most `timeout` seconds (`TimeoutError`), `WorkerLost` if it dies."""
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()
        fd = self.conn.fileno()

        def readable() -> None:
            if not ready.done():
                ready.set_result(None)

        try:
            self.conn.send((name, obj, lane))
        except OSError as error:
            raise WorkerLost("a solver worker stopped unexpectedly; retry") from error
        loop.add_reader(fd, readable)
        try:
            await asyncio.wait_for(ready, timeout)
        finally:
            loop.remove_reader(fd)
        try:
            answer: dict[str, Any] = self.conn.recv()
        except (EOFError, OSError) as error:
            raise WorkerLost("a solver worker stopped unexpectedly; retry") from error
        return answer

    def kill(self) -> None:
        """Stop the process at once (it may be mid-solve) and release the pipe."""
        with contextlib.suppress(Exception):
            self.process.kill()
        self.process.join(timeout=5)
        with contextlib.suppress(Exception):
            self.conn.close()

    def close(self) -> None:
        """Ask the process to finish, then stop it if it does not."""
        with contextlib.suppress(Exception):
            self.conn.send(None)
        self.process.join(timeout=2)
        self.kill()


class _ThreadWorker:
    """One solver thread (`Limits.pool` ``thread``): a thread past its deadline is abandoned, not
    stopped (Python cannot stop a thread); its solve still ends at the solver's own time limit."""

    def __init__(self) -> None:
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="rummyai-solve")
        self.executor.submit(warm_up).result()

    @property
    def pid(self) -> int | None:
        return None

    def alive(self) -> bool:
        return True

    async def call(self, name: str, obj: dict[str, Any], lane: Lane, timeout: float) -> dict[str, Any]:
        loop = asyncio.get_running_loop()

        def job() -> dict[str, Any]:
            return run_job(name, obj)  # the module's run_job, read at call time

        return await asyncio.wait_for(loop.run_in_executor(self.executor, job), timeout)

    def kill(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        self.kill()


@dataclass(eq=False)
class _Job:
    name: str
    obj: dict[str, Any]
    lane: Lane
    deadline: float  # time.monotonic() by which the answer is due
    seq: int
    future: asyncio.Future[dict[str, Any]]
    started: bool = False


@dataclass(eq=False)
class _Slot:
    """A place for one worker: the lanes it serves and the worker now in it (None while replaced)."""

    index: int
    lanes: tuple[Lane, ...]
    worker: _ProcessWorker | _ThreadWorker | None = None
    busy: bool = False
    jobs: int = 0
    replaced: int = 0
    seated: bool = False  # has had a worker (a later empty slot is a replacement)
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class SolvePool:
    """`limits.workers` workers over two lanes, at most `limits.max_pending` jobs waiting per lane."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        fast_only = limits.fast_lane_workers()
        self._slots = [
            _Slot(i, ("fast",) if i < fast_only else ("fast", "hard")) for i in range(limits.workers)
        ]
        self._queues: dict[Lane, deque[_Job]] = {lane: deque() for lane in LANES}
        self._seq = itertools.count()
        self._wake: asyncio.Event | None = None
        self._running = False
        self._ready: dict[Lane, asyncio.Event] = {}
        self._spares: list[_ProcessWorker | _ThreadWorker] = []
        self._refill: asyncio.Task[None] | None = None
        self.replacements = 0
        self.answered = 0

    # ------------------------------------------------------------------ life cycle
    def _new_worker(self) -> _ProcessWorker | _ThreadWorker:
        if self.limits.pool == "process":
            return _ProcessWorker(self.limits.hard_nice)
        return _ThreadWorker()

    async def start(self) -> None:
        """Start the loop that feeds each slot and return at once: each slot starts its worker
        in a thread, and spares follow once every slot has one."""
        if self._running:
            return
        self._wake = asyncio.Event()
        self._ready = {lane: asyncio.Event() for lane in LANES}
        self._running = True
        for slot in self._slots:
            slot.task = asyncio.create_task(self._feed(slot), name=f"rummyai-slot-{slot.index}")

    async def wait_ready(self, timeout: float = START_TIMEOUT) -> None:
        """Wait until every slot has a worker (`TimeoutError` after `timeout` seconds)."""
        if not self._running:
            await self.start()
        deadline = time.monotonic() + timeout
        while not all(s.worker is not None for s in self._slots):
            if time.monotonic() > deadline:
                raise TimeoutError("the solver workers did not start in time")
            await asyncio.sleep(0.01)

    async def _started_worker(self) -> _ProcessWorker | _ThreadWorker:
        """A new worker, started in a thread; if the pool stops meanwhile it is closed when ready."""
        task = asyncio.ensure_future(asyncio.to_thread(self._new_worker))
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            task.add_done_callback(lambda t: None if t.cancelled() or t.exception() else t.result().kill())
            raise

    async def stop(self) -> None:
        """Stop feeding, answer waiting jobs with `Busy`, and end every worker."""
        self._running = False
        if self._refill is not None:
            self._refill.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._refill
            self._refill = None
        for slot in self._slots:
            if slot.task is not None:
                slot.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await slot.task
                slot.task = None
        for queue in self._queues.values():
            while queue:
                job = queue.popleft()
                if not job.future.done():
                    job.future.set_exception(Busy("the service is stopping"))
        workers = [slot.worker for slot in self._slots if slot.worker is not None] + self._spares
        self._spares = []
        for slot in self._slots:
            slot.worker = None
        await asyncio.gather(*(asyncio.to_thread(w.close) for w in workers))

    # ------------------------------------------------------------------ state
    @property
    def in_flight(self) -> int:
        """Jobs running or waiting."""
        return sum(s.busy for s in self._slots) + sum(len(q) for q in self._queues.values())

    def status(self) -> dict[str, Any]:
        """Workers alive, jobs waiting per lane, running jobs and replacements so far."""
        return {
            "workers": len(self._slots),
            "workers_alive": sum(s.worker is not None for s in self._slots),
            "ready": all(s.worker is not None for s in self._slots),
            "fast_lane_workers": sum(s.lanes == ("fast",) for s in self._slots),
            "running": sum(s.busy for s in self._slots),
            "waiting": {lane: len(q) for lane, q in self._queues.items()},
            "spare_workers": len(self._spares),
            "replacements": self.replacements,
            "answered": self.answered,
        }

    def worker_pids(self, busy: bool | None = None) -> list[int]:
        """Process ids of the live worker processes (none for threads), only busy or idle ones if asked."""
        return [
            p
            for s in self._slots
            if s.worker is not None and (p := s.worker.pid) is not None and busy in (None, s.busy)
        ]

    # ------------------------------------------------------------------ jobs
    async def run(
        self, name: str, obj: dict[str, Any], lane: Lane = "hard", seconds: float | None = None
    ) -> dict[str, Any]:
        """Answer a job within `seconds` (default: the service's time limit) plus `Limits.grace`.

        Raises `Busy` when the lane's line is full, `Overdue` past the deadline, `WorkerLost` when
        the worker died. For ``hint`` and ``solve`` the solver's ``time_limit`` is set to the
        seconds left when a worker takes the job.
        """
        if not self._running:
            await self.start()
        assert self._wake is not None
        if not self._ready[lane].is_set():  # the service is starting: the clock runs from the first worker
            try:
                await asyncio.wait_for(self._ready[lane].wait(), STARTING_WAIT)
            except TimeoutError:
                raise Busy("the solver workers are still starting; retry shortly") from None
        seconds = self.limits.time_limit if seconds is None else seconds
        queue = self._queues[lane]
        idle = sum(1 for s in self._slots if not s.busy and s.worker is not None and lane in s.lanes)
        if len(queue) >= self.limits.max_pending + idle:
            waiting = sum(len(q) for q in self._queues.values())
            raise Busy(f"the service is busy ({waiting} requests waiting); retry shortly")
        loop = asyncio.get_running_loop()
        job = _Job(name, obj, lane, time.monotonic() + seconds, next(self._seq), loop.create_future())
        queue.append(job)
        self._wake.set()
        try:
            return await asyncio.wait_for(asyncio.shield(job.future), seconds + self.limits.grace)
        except TimeoutError:
            if job.started:  # its worker is being stopped this instant; take its answer
                return await job.future
            with contextlib.suppress(ValueError):
                queue.remove(job)
            raise Overdue(f"no solver worker was free within {seconds:g} s; retry shortly") from None

    def _take(self, slot: _Slot) -> _Job | None:
        """The job this slot runs next: the oldest waiting job of the lanes it serves."""
        heads = [self._queues[lane][0] for lane in slot.lanes if self._queues[lane]]
        if not heads:
            return None
        job = min(heads, key=lambda j: j.seq)
        self._queues[job.lane].popleft()
        return job

    async def _feed(self, slot: _Slot) -> None:
        """Run jobs in this slot's worker, one at a time, replacing the worker when it is lost."""
        assert self._wake is not None
        while self._running:
            if slot.worker is None:
                await self._replace(slot)
                continue
            job = self._take(slot)
            if job is None:
                self._wake.clear()
                await self._wake.wait()
                continue
            if job.future.done():
                continue
            left = job.deadline - time.monotonic()
            if left < -self.limits.grace / 2:
                job.future.set_exception(Overdue("the request waited past its time limit; retry shortly"))
                continue
            obj = dict(job.obj)
            if job.name in ("hint", "solve"):  # what is left (less a margin), a little at least
                solve = max(min(left * 0.9, left - 0.05), MIN_SOLVE_SECONDS)
                obj["time_limit"] = min(float(obj.get("time_limit") or solve), solve)
            job.started = True
            slot.busy = True
            try:
                answer = await slot.worker.call(job.name, obj, job.lane, max(left, 0.0) + self.limits.grace)
            except TimeoutError:
                self._settle(job, exception=Overdue("the solve outran its time limit; retry shortly"))
                await self._discard(slot)
            except WorkerLost as error:
                self._settle(job, exception=error)
                await self._discard(slot)
            else:
                self._settle(job, answer=answer)
            finally:
                slot.busy = False
                slot.jobs += 1
            if self._queues["fast"] or self._queues["hard"]:
                self._wake.set()  # others may be waiting for a job this slot left behind

    def _settle(
        self, job: _Job, answer: dict[str, Any] | None = None, exception: Exception | None = None
    ) -> None:
        if job.future.done():
            return
        self.answered += 1
        if exception is not None:
            job.future.set_exception(exception)
        else:
            job.future.set_result(answer or {})

    async def _discard(self, slot: _Slot) -> None:
        worker, slot.worker = slot.worker, None
        if worker is not None:
            await asyncio.to_thread(worker.kill)  # off the event loop: the kill waits for the process

    async def _replace(self, slot: _Slot) -> None:
        """Put a worker in the empty slot: a warm spare at once, else a new one started in a
        thread (on failure wait a second and return, to be called again); then top the spares up."""
        first = not slot.seated
        while self._spares:
            spare = self._spares.pop(0)
            if spare.alive():
                self._seat(slot, spare)
                break
            await asyncio.to_thread(spare.kill)
        else:
            try:
                worker = await self._started_worker()
            except Exception as error:
                _log.warning("solver worker %d could not be started (%s); trying again", slot.index, error)
                await asyncio.sleep(1.0)
                return
            if not self._running:
                await asyncio.to_thread(worker.close)
                return
            self._seat(slot, worker)
        if not first:
            slot.replaced += 1
            self.replacements += 1
            _log.warning("solver worker %d replaced", slot.index)
        if all(s.worker is not None for s in self._slots):
            self._top_up()

    def _seat(self, slot: _Slot, worker: _ProcessWorker | _ThreadWorker) -> None:
        """Put `worker` in `slot` and tell the jobs of its lanes waiting for a first worker."""
        slot.worker = worker
        slot.seated = True
        for lane in slot.lanes:
            self._ready[lane].set()
        assert self._wake is not None
        self._wake.set()

    def _top_up(self) -> None:
        """Start spares up to `Limits.spare_workers` in the background, unless that already runs."""
        if (
            self._running
            and len(self._spares) < self.limits.spare_workers
            and (self._refill is None or self._refill.done())
        ):
            self._refill = asyncio.create_task(self._start_spares(), name="rummyai-spares")

    async def _start_spares(self) -> None:
        while self._running and len(self._spares) < self.limits.spare_workers:
            try:
                worker = await self._started_worker()
            except Exception as error:
                _log.warning("a spare solver worker could not be started (%s); trying again", error)
                await asyncio.sleep(1.0)
                continue
            if self._running:
                self._spares.append(worker)
            else:
                await asyncio.to_thread(worker.close)
