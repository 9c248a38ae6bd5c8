"""The worker pool of the HTTP service: two lanes, deadlines, and lost workers replaced one by one.

Jobs are named (``hint``, ``solve``, ``validate``) and take and return plain JSON data, so they
run the same in worker processes (the default) or threads. A job goes to the ``fast`` lane
(positions the compiled dynamic program answers, `rummyai.hint.lanes`) or the ``hard`` lane. Each
worker answers fast-lane jobs on its main thread, one at a time; the workers past the first
`Limits.fast_lane_workers` also answer hard-lane jobs, one at a time, on a second thread
`Limits.hard_nice` steps nicer (Linux gives each thread its own priority). So a cheap request never
waits behind an expensive one, every worker keeps answering cheap ones while it works on a hard
one (the general solver spends its time in OR-Tools, which lets the main thread run), and when the
cores are busy the operating system runs the fast lane and the event loop first.

Every job has a deadline (its time limit, counted from arrival). The solver gets what is left
of it when a worker takes the job, less a margin for the answer's own work (so a late start
answers ``feasible``, the best move so far); a job still waiting half of `Limits.grace` past its
deadline, or a worker that has not answered `Limits.grace` seconds after it, ends in `Overdue`
(503 with ``Retry-After``), and such a worker is replaced at once and stopped as soon as the job
its other lane holds is answered. A worker that dies, busy or idle (the event loop watches each
process), costs only the jobs it held (`WorkerLost`); it is replaced once, by a warm spare kept
for this (`Limits.spare_workers`), and a new spare starts in a thread, so the event loop (and
``/healthz``) keeps answering and full service is back at once.

Worker processes are forked from a fork server that imported the solver and warmed it up once
(`rummyai.hint.warm`), so a worker (the first, a spare, a replacement) is ready in milliseconds
and costs no second import. `SolvePool.start` returns at once: workers take their places in the
background, and a request that comes before its lane has a worker waits for one, its time limit
counted from then.
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
STARTING_WAIT = 10.0
#: Seconds a solve gets at least when a worker takes a job close to (or just past) its deadline.
MIN_SOLVE_SECONDS = 0.02
# A running job whose caller left is stopped only with more than this many seconds still to run.
ABANDON_SECONDS = 0.5


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
            limit = obj.pop("time_limit", None)  # the service's: past it the judge refuses under "time"
            position_from_json(obj, ("new_table",))  # bad cards or table: the same errors as hint
            judge = judge_function()
            if judge is None:
                return {
                    "unavailable": "the move judge (rummyai.engine.judge) is not available in this installation"
                }
            return judge(obj, None if limit is None else time.perf_counter() + float(limit))
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
    """Import the solver and run one tiny solve per path (the dynamic programs, the CP-SAT model)
    so the first real request is not slow."""
    with contextlib.suppress(Exception):  # warming is best effort
        run_job("hint", {"variant": "rummikub", "hand": "7H 8H 9H", "table": [], "alternatives": 0})
        run_job("hint", {"variant": "rummy-tiles", "hand": "7H 8H 9H", "table": [], "alternatives": 0})
        run_job("hint", {"variant": "rhine", "hand": "7H 8H 9H", "table": [], "alternatives": 0})  # CP-SAT


def lower_thread_priority(steps: int) -> None:
    """Make the calling thread (only it, on Linux) `steps` nicer; elsewhere do nothing."""
    if steps and sys.platform == "linux":
        with contextlib.suppress(OSError):
            tid = threading.get_native_id()
            os.setpriority(os.PRIO_PROCESS, tid, min(19, os.getpriority(os.PRIO_PROCESS, tid) + steps))


def _answer_jobs(conn: Connection) -> None:
    """Answer ``(name, obj)`` messages on `conn` until told to stop or the pipe closes."""
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        try:
            conn.send(run_job(*message))
        except OSError:
            return


def _serve_jobs(fast: Connection, hard: Connection, hard_nice: int) -> None:
    """A worker process: warm up, say so, then answer fast-lane jobs on this thread and hard-lane
    jobs on a thread `hard_nice` steps nicer, until told to stop."""
    warm_up()  # at once when forked from the warm fork server

    def hard_jobs() -> None:
        lower_thread_priority(hard_nice)
        _answer_jobs(hard)

    threading.Thread(target=hard_jobs, name="rummyai-hard", daemon=True).start()
    with contextlib.suppress(OSError):
        fast.send("ready")
    _answer_jobs(fast)


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
    """One solver process with a pipe per lane, each waited on with the event loop's reader."""

    def __init__(self, hard_nice: int = 0) -> None:
        """Start the process and wait until it is warm (blocking: call it from a thread)."""
        context = _process_context()
        pipes = {lane: context.Pipe() for lane in LANES}
        self.process = context.Process(
            target=_serve_jobs,
            args=(pipes["fast"][1], pipes["hard"][1], hard_nice),
            daemon=True,
            name="rummyai-solve",
        )
        self.process.start()
        for _, child in pipes.values():
            child.close()
        self.conns: dict[Lane, Connection] = {lane: pipe[0] for lane, pipe in pipes.items()}
        fast = self.conns["fast"]
        if not fast.poll(START_TIMEOUT) or fast.recv() != "ready":
            self.kill()
            raise RuntimeError("a solver worker did not start")

    @property
    def pid(self) -> int | None:
        return self.process.pid

    @property
    def sentinel(self) -> int | None:
        """A descriptor that becomes readable when the process ends."""
        return int(self.process.sentinel)

    def alive(self) -> bool:
        return self.process.is_alive()

    async def call(self, name: str, obj: dict[str, Any], lane: Lane, timeout: float) -> dict[str, Any]:
        """Send the job on its lane's pipe and wait at most `timeout` seconds (`TimeoutError`),
        `WorkerLost` if the process dies."""
        conn = self.conns[lane]
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()
        fd = conn.fileno()

        def readable() -> None:
            if not ready.done():
                ready.set_result(None)

        try:
            conn.send((name, obj))
        except OSError as error:
            raise WorkerLost("a solver worker stopped unexpectedly; retry") from error
        loop.add_reader(fd, readable)
        try:
            await asyncio.wait_for(ready, timeout)
        finally:
            loop.remove_reader(fd)
        try:
            answer: dict[str, Any] = conn.recv()
        except (EOFError, OSError) as error:
            raise WorkerLost("a solver worker stopped unexpectedly; retry") from error
        return answer

    def interrupt(self) -> None:
        """Stop the process mid-job without waiting: the job's call ends in `WorkerLost`, and the
        pool then discards the worker as it discards any lost one."""
        with contextlib.suppress(Exception):
            self.process.kill()

    def kill(self) -> None:
        """Stop the process at once (it may be mid-solve) and release the pipes."""
        with contextlib.suppress(Exception):
            self.process.kill()
        self.process.join(timeout=5)
        for conn in self.conns.values() if hasattr(self, "conns") else ():
            with contextlib.suppress(Exception):
                conn.close()

    def close(self) -> None:
        """Ask the process to finish, then stop it if it does not."""
        with contextlib.suppress(Exception):
            self.conns["fast"].send(None)
        self.process.join(timeout=2)
        self.kill()


class _ThreadWorker:
    """A solver thread per lane (`Limits.pool` ``thread``): a thread past its deadline is abandoned,
    not stopped (Python cannot stop a thread); its solve still ends at the solver's own time limit."""

    def __init__(self) -> None:
        self.executors = {lane: ThreadPoolExecutor(1, thread_name_prefix=f"rummyai-{lane}") for lane in LANES}
        self.executors["fast"].submit(warm_up).result()

    @property
    def pid(self) -> int | None:
        return None

    @property
    def sentinel(self) -> int | None:
        return None

    def alive(self) -> bool:
        return True

    async def call(self, name: str, obj: dict[str, Any], lane: Lane, timeout: float) -> dict[str, Any]:
        loop = asyncio.get_running_loop()

        def job() -> dict[str, Any]:
            return run_job(name, obj)  # the module's run_job, read at call time

        return await asyncio.wait_for(loop.run_in_executor(self.executors[lane], job), timeout)

    def kill(self) -> None:
        for executor in self.executors.values():
            executor.shutdown(wait=False, cancel_futures=True)

    def interrupt(self) -> None:
        """Nothing: a thread cannot be stopped; its solve ends at the solver's own time limit."""

    def close(self) -> None:
        self.kill()


Worker = _ProcessWorker | _ThreadWorker


@dataclass(eq=False)
class _Job:
    name: str
    obj: dict[str, Any]
    lane: Lane
    deadline: float  # time.monotonic() by which the answer is due
    seq: int
    future: asyncio.Future[dict[str, Any]]
    started: bool = False
    slot: _Slot | None = field(default=None, repr=False)  # the slot running it, once started


@dataclass(eq=False)
class _Slot:
    """One lane of one worker: it runs that lane's jobs in that worker, one at a time."""

    index: int  # the worker's place
    lane: Lane
    busy: bool = False
    jobs: int = 0
    current: Worker | None = field(default=None, repr=False)  # the worker answering its job now
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class SolvePool:
    """`limits.workers` workers over two lanes, at most `limits.max_pending` jobs waiting per lane."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        fast_only = limits.fast_lane_workers()
        self._workers: list[Worker | None] = [None] * limits.workers
        self._seated = [False] * limits.workers  # has had a worker (a later empty place is a replacement)
        self._seating: dict[int, asyncio.Task[None]] = {}
        self._slots = [_Slot(i, "fast") for i in range(limits.workers)]
        self._slots += [_Slot(i, "hard") for i in range(fast_only, limits.workers)]
        self._queues: dict[Lane, deque[_Job]] = {lane: deque() for lane in LANES}
        self._seq = itertools.count()
        self._wake: asyncio.Event | None = None
        self._running = False
        self._ready: dict[Lane, asyncio.Event] = {}
        self._spares: list[Worker] = []
        self._retiring: set[Worker] = set()  # out of place, stopped when their running job is answered
        self._ending: set[asyncio.Future[None]] = set()  # replacing workers whose process ended
        self._refill: asyncio.Task[None] | None = None
        self.replacements = 0
        self.answered = 0
        self.abandoned = 0  # running jobs stopped because their caller left

    # ------------------------------------------------------------------ life cycle
    def _new_worker(self) -> Worker:
        if self.limits.pool == "process":
            return _ProcessWorker(self.limits.hard_nice)
        return _ThreadWorker()

    async def start(self) -> None:
        """Start the loop that feeds each slot and return at once: workers start in threads and
        take their places as they come; spares follow once every place has one."""
        if self._running:
            return
        self._wake = asyncio.Event()
        self._ready = {lane: asyncio.Event() for lane in LANES}
        self._running = True
        for slot in self._slots:
            slot.task = asyncio.create_task(self._feed(slot), name=f"rummyai-{slot.lane}-{slot.index}")

    async def wait_ready(self, timeout: float = START_TIMEOUT) -> None:
        """Wait until every place has a worker (`TimeoutError` after `timeout` seconds)."""
        if not self._running:
            await self.start()
        deadline = time.monotonic() + timeout
        while not self.ready:
            if time.monotonic() > deadline:
                raise TimeoutError("the solver workers did not start in time")
            await asyncio.sleep(0.01)

    async def stop(self) -> None:
        """Stop feeding, answer waiting jobs with `Busy`, and end every worker."""
        self._running = False
        tasks = [t for t in (self._refill, *self._seating.values(), *(s.task for s in self._slots)) if t]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._refill = None
        self._seating.clear()
        for slot in self._slots:
            slot.task = None
        for queue in self._queues.values():
            while queue:
                job = queue.popleft()
                if not job.future.done():
                    job.future.set_exception(Busy("the service is stopping"))
        for worker in self._workers:
            if worker is not None:
                self._unwatch(worker)
        workers = [w for w in self._workers if w is not None] + self._spares + list(self._retiring)
        self._spares = []
        self._retiring.clear()
        self._workers = [None] * len(self._workers)
        await asyncio.gather(*(asyncio.to_thread(w.close) for w in workers))

    # ------------------------------------------------------------------ state
    @property
    def ready(self) -> bool:
        """Whether every place has a worker."""
        return all(w is not None for w in self._workers)

    @property
    def in_flight(self) -> int:
        """Jobs running or waiting."""
        return sum(s.busy for s in self._slots) + sum(len(q) for q in self._queues.values())

    def status(self) -> dict[str, Any]:
        """Workers alive, jobs waiting per lane, running jobs and replacements so far."""
        hard = {s.index for s in self._slots if s.lane == "hard"}
        return {
            "workers": len(self._workers),
            "workers_alive": sum(w is not None for w in self._workers),
            "ready": self.ready,
            "fast_lane_workers": len(self._workers) - len(hard),
            "running": sum(s.busy for s in self._slots),
            "waiting": {lane: len(q) for lane, q in self._queues.items()},
            "spare_workers": len(self._spares),
            "replacements": self.replacements,
            "answered": self.answered,
            "abandoned": self.abandoned,
        }

    def worker_pids(self, busy: bool | None = None) -> list[int]:
        """Process ids of the live worker processes (none for threads), only busy or idle ones if asked."""
        working = {s.index for s in self._slots if s.busy}
        return [
            p
            for i, w in enumerate(self._workers)
            if w is not None and (p := w.pid) is not None and busy in (None, i in working)
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
        idle = sum(
            1 for s in self._slots if s.lane == lane and not s.busy and self._workers[s.index] is not None
        )
        if len(queue) >= self.limits.max_pending + idle:
            waiting = sum(len(q) for q in self._queues.values())
            raise Busy(f"the service is busy ({waiting} requests waiting); retry shortly")
        loop = asyncio.get_running_loop()
        job = _Job(name, obj, lane, time.monotonic() + seconds, next(self._seq), loop.create_future())
        queue.append(job)
        self._wake.set()
        try:
            return await asyncio.wait_for(asyncio.shield(job.future), seconds + self.limits.grace)
        except asyncio.CancelledError:  # the caller gave up (its client left): its job is dropped
            if not job.started:
                job.future.cancel()
                with contextlib.suppress(ValueError):
                    queue.remove(job)
            else:
                self._abandon(job)
            raise
        except TimeoutError:
            if job.started:  # its worker is being stopped this instant; take its answer
                return await job.future
            with contextlib.suppress(ValueError):
                queue.remove(job)
            raise Overdue(f"no solver worker was free within {seconds:g} s; retry shortly") from None

    async def _feed(self, slot: _Slot) -> None:
        """Run the slot's lane's jobs in its worker, one at a time, replacing the worker when lost."""
        assert self._wake is not None
        queue = self._queues[slot.lane]
        while self._running:
            worker = self._workers[slot.index]
            if worker is None:
                await self._replace(slot.index)
                continue
            if not queue:
                self._wake.clear()
                await self._wake.wait()
                continue
            job = queue.popleft()
            if job.future.done():
                continue
            left = job.deadline - time.monotonic()
            if left < -self.limits.grace / 2:
                job.future.set_exception(Overdue("the request waited past its time limit; retry shortly"))
                continue
            obj = dict(job.obj)
            if job.name in ("hint", "solve", "validate"):  # what is left (less a margin), a little at least
                solve = max(min(left * 0.9, left - 0.05), MIN_SOLVE_SECONDS)
                obj["time_limit"] = min(float(obj.get("time_limit") or solve), solve)
            job.started = True
            job.slot = slot
            slot.busy = True
            slot.current = worker
            lost = False
            try:
                answer = await worker.call(job.name, obj, slot.lane, max(left, 0.0) + self.limits.grace)
            except TimeoutError:
                self._settle(job, exception=Overdue("the solve outran its time limit; retry shortly"))
                lost = True
            except WorkerLost as error:
                self._settle(job, exception=error)
                lost = True
            else:
                self._settle(job, answer=answer)
            finally:
                slot.busy = False
                slot.current = None
                slot.jobs += 1
            if lost or worker in self._retiring:
                await self._discard(slot.index, worker)
            if self._queues["fast"] or self._queues["hard"]:
                self._wake.set()  # others may be waiting for a job this slot left behind

    def _abandon(self, job: _Job) -> None:
        """A running job whose caller left: its worker is stopped, and replaced by a warm spare, when
        more than `ABANDON_SECONDS` of the job's time are left and the worker's other lane is idle,
        so that the rest of an unwanted search does not hold the lane (a shorter one is let finish:
        a replacement costs more)."""
        slot = job.slot
        worker = None if slot is None else slot.current
        if worker is None or job.future.done() or job.deadline - time.monotonic() < ABANDON_SECONDS:
            return
        if any(other is not slot and other.current is worker for other in self._slots):
            return  # the same process answers another request on its other lane
        job.future.cancel()
        self.abandoned += 1
        worker.interrupt()

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

    async def _discard(self, index: int, worker: Worker) -> None:
        """Take `worker` out of place `index` (if its other lane has not) and stop it, at once or,
        while its other lane still answers a job there, when that answer is in."""
        if self._workers[index] is worker:
            self._workers[index] = None
            self._unwatch(worker)
            assert self._wake is not None
            self._wake.set()  # the place's idle slots see it empty and have it filled
        if any(s.current is worker for s in self._slots):
            self._retiring.add(worker)
            return
        self._retiring.discard(worker)
        await asyncio.to_thread(worker.kill)  # off the event loop: the kill waits for the process

    def _watch(self, index: int, worker: Worker) -> None:
        """Have the event loop notice at once when a worker process ends, busy or idle."""
        sentinel = worker.sentinel
        if sentinel is None:
            return

        def ended() -> None:
            self._unwatch(worker)
            task = asyncio.ensure_future(self._discard(index, worker))
            self._ending.add(task)  # held until done (the loop keeps only weak references)
            task.add_done_callback(self._ending.discard)

        asyncio.get_running_loop().add_reader(sentinel, ended)

    @staticmethod
    def _unwatch(worker: Worker) -> None:
        if worker.sentinel is not None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(worker.sentinel)

    async def _replace(self, index: int) -> None:
        """Put a worker in empty place `index` (once, whichever of its slots asks first)."""
        task = self._seating.get(index)
        if task is None or task.done():
            task = asyncio.create_task(self._seat_worker(index), name=f"rummyai-seat-{index}")
            self._seating[index] = task
        await asyncio.shield(task)

    async def _seat_worker(self, index: int) -> None:
        """A warm spare at once, else a new worker started in a thread (on failure wait a second;
        the slot asks again); then top the spares up."""
        while self._spares:
            spare = self._spares.pop(0)
            if spare.alive():
                self._seat(index, spare)
                break
            await asyncio.to_thread(spare.kill)
        else:
            try:
                worker = await self._started_worker()
            except Exception as error:
                _log.warning("solver worker %d could not be started (%s); trying again", index, error)
                await asyncio.sleep(1.0)
                return
            if not self._running:
                await asyncio.to_thread(worker.close)
                return
            self._seat(index, worker)
        if self.ready:
            self._top_up()

    def _seat(self, index: int, worker: Worker) -> None:
        """Put `worker` in place `index` and tell the jobs waiting for a first worker of its lanes."""
        if self._seated[index]:
            self.replacements += 1
            _log.warning("solver worker %d replaced", index)
        self._workers[index] = worker
        self._seated[index] = True
        self._watch(index, worker)
        for slot in self._slots:
            if slot.index == index:
                self._ready[slot.lane].set()
        assert self._wake is not None
        self._wake.set()

    async def _started_worker(self) -> Worker:
        """A new worker, started in a thread; if the pool stops meanwhile it is closed when ready."""
        task = asyncio.ensure_future(asyncio.to_thread(self._new_worker))
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            task.add_done_callback(lambda t: None if t.cancelled() or t.exception() else t.result().kill())
            raise

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
