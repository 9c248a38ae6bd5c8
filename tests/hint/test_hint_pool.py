"""The two-lane worker pool: cheap jobs pass hard ones, deadlines end in `Overdue` with the worker
replaced, a full line is refused, and the service sorts requests into lanes."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from rummyai.errors import RummyError
from rummyai.hint import pool as pool_module
from rummyai.hint.lanes import lane_of
from rummyai.hint.limits import Limits
from rummyai.hint.pool import Busy, Overdue, SolvePool


@pytest.fixture
def fake_jobs(monkeypatch: pytest.MonkeyPatch) -> None:
    """Jobs that sleep `obj["sleep"]` seconds and answer their name (threads read run_job at call time)."""

    def fake_job(name: str, obj: dict[str, Any]) -> dict[str, Any]:
        time.sleep(float(obj["sleep"]))
        return {"name": name}

    monkeypatch.setattr(pool_module, "run_job", fake_job)
    monkeypatch.setattr(pool_module, "warm_up", lambda: None)


def _with_pool(limits: Limits, scenario: Callable[[SolvePool], Awaitable[None]]) -> None:
    async def main() -> None:
        pool = SolvePool(limits)
        await pool.start()
        try:
            await scenario(pool)
        finally:
            await pool.stop()

    asyncio.run(main())


@pytest.mark.usefixtures("fake_jobs")
def test_fast_jobs_pass_hard_ones_waiting_for_the_hard_lane() -> None:
    async def scenario(pool: SolvePool) -> None:
        finished: list[str] = []

        async def job(name: str, lane: Any, sleep: float) -> None:
            await pool.run(name, {"sleep": sleep}, lane, seconds=5)
            finished.append(name)

        hard = [asyncio.create_task(job(f"hard{k}", "hard", 0.4)) for k in range(3)]
        await asyncio.sleep(0.05)
        await asyncio.gather(*(job(f"fast{k}", "fast", 0.0) for k in range(5)))
        assert sorted(finished[:5]) == [f"fast{k}" for k in range(5)]  # all before the first hard job ended
        await asyncio.gather(*hard)
        assert finished[5:] == ["hard0", "hard1", "hard2"]

    _with_pool(Limits(workers=2, pool="thread"), scenario)


def test_a_shared_worker_takes_fast_jobs_when_no_hard_job_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    both = threading.Barrier(2, timeout=5)  # passes only when two fast jobs run at the same time

    def meet(name: str, obj: dict[str, Any]) -> dict[str, Any]:
        both.wait()
        return {"name": name}

    monkeypatch.setattr(pool_module, "run_job", meet)
    monkeypatch.setattr(pool_module, "warm_up", lambda: None)

    async def scenario(pool: SolvePool) -> None:
        answers = await asyncio.gather(*(pool.run("f", {}, "fast", seconds=10) for _ in range(2)))
        assert answers == [{"name": "f"}, {"name": "f"}]

    _with_pool(Limits(workers=2, pool="thread"), scenario)


@pytest.mark.usefixtures("fake_jobs")
def test_a_job_past_its_deadline_is_overdue_and_its_worker_replaced() -> None:
    async def scenario(pool: SolvePool) -> None:
        with pytest.raises(Overdue, match="time limit"):
            await pool.run("stuck", {"sleep": 1.0}, "hard", seconds=0.1)
        for _ in range(250):
            if pool.status()["replacements"]:
                break
            await asyncio.sleep(0.02)
        assert pool.status()["replacements"] == 1
        assert pool.status()["workers_alive"] == 1  # the warm spare took the stopped worker's place
        for _ in range(250):  # and a new spare is started in the background
            if pool.status()["spare_workers"] == 1:
                break
            await asyncio.sleep(0.02)
        assert pool.status()["spare_workers"] == 1
        assert await pool.run("after", {"sleep": 0}, "hard", seconds=1) == {"name": "after"}

    _with_pool(Limits(workers=1, pool="thread", grace=0.1), scenario)


@pytest.mark.usefixtures("fake_jobs")
def test_a_job_still_waiting_at_its_deadline_is_overdue_and_leaves_the_line() -> None:
    async def scenario(pool: SolvePool) -> None:
        blocker = asyncio.create_task(pool.run("long", {"sleep": 0.6}, "hard", seconds=5))
        await asyncio.sleep(0.05)
        with pytest.raises(Overdue, match="no solver worker was free"):
            await pool.run("late", {"sleep": 0}, "hard", seconds=0.1)
        assert pool.status()["waiting"] == {"fast": 0, "hard": 0}
        assert await blocker == {"name": "long"}
        assert pool.status()["replacements"] == 0

    _with_pool(Limits(workers=1, pool="thread", grace=0.05), scenario)


@pytest.mark.usefixtures("fake_jobs")
def test_a_waiting_job_whose_caller_gives_up_leaves_the_line_unrun() -> None:
    # a request whose client disconnected is cancelled by the service: its job must not run later
    async def scenario(pool: SolvePool) -> None:
        blocker = asyncio.create_task(pool.run("long", {"sleep": 0.3}, "hard", seconds=5))
        await asyncio.sleep(0.05)
        gone = asyncio.create_task(pool.run("gone", {"sleep": 0.3}, "hard", seconds=5))
        await asyncio.sleep(0.05)
        assert pool.status()["waiting"]["hard"] == 1
        gone.cancel()
        await asyncio.sleep(0.01)
        assert pool.status()["waiting"]["hard"] == 0
        assert await blocker == {"name": "long"}
        started = time.monotonic()
        assert await pool.run("next", {"sleep": 0}, "hard", seconds=5) == {"name": "next"}
        assert time.monotonic() - started < 0.2  # not behind the abandoned job

    _with_pool(Limits(workers=1, pool="thread"), scenario)


@pytest.mark.usefixtures("fake_jobs")
def test_a_full_line_is_refused_at_once() -> None:
    async def scenario(pool: SolvePool) -> None:
        blockers = [asyncio.create_task(pool.run("b", {"sleep": 0.3}, "hard", seconds=5)) for _ in range(2)]
        await asyncio.sleep(0.05)
        with pytest.raises(Busy):  # the one worker is busy and one job already waits
            await pool.run("third", {"sleep": 0}, "hard", seconds=5)
        await asyncio.gather(*blockers)

    _with_pool(Limits(workers=1, max_pending=1, pool="thread"), scenario)


def test_requests_are_sorted_into_lanes(rhine: dict[str, Any]) -> None:
    opened = {"variant": "rummikub", "hand": "7H 8H 9H", "table": ["3C 4C 5C"]}
    assert lane_of("hint", opened) == "fast"
    assert lane_of("solve", opened) == "fast"
    assert lane_of("hint", {**opened, "opened": False}) == "hard"  # the opening is not the fast path
    assert lane_of("solve", {**opened, "max_cards": 1}) == "hard"
    assert lane_of("hint", rhine) == "hard"
    assert lane_of("validate", {**opened, "new_table": ["3C 4C 5C", "7H 8H 9H"]}) == "fast"
    # a check whose judge must try the readings of many unstated wilds is not cheap
    wilds = {
        "variant": "rhine",
        "options": ["rhine.wild_twos"],
        "hand": "JK JK JK JK 2S 3C 4C 5C 6C 7C 8C 9C TC JC QC",
        "opened": False,
    }
    few = ["3C 4C JK", "5C 6C JK", "7C 8C JK=9C"]
    many = ["3C 4C JK", "5C 6C JK", "7C 8C JK", "9C TC JK", "JC QC 2S"]
    assert lane_of("validate", {**wilds, "new_table": few}) == "fast"
    assert lane_of("validate", {**wilds, "new_table": many}) == "hard"
    with pytest.raises(RummyError, match="unknown suit"):
        lane_of("hint", {**opened, "hand": "7H 8H ZZ"})


@pytest.mark.parametrize(
    ("job", "extra", "needle"),
    [
        ("hint", {"committed": "7H"}, "'committed' .* applies to standard, black-heart, not rummikub"),
        ("solve", {"taken": "7H"}, "'taken' .* applies to rummy-palace, not rummikub"),
        ("solve", {"score": 40}, "'score' .* applies to black-heart, not rummikub"),
        ("solve", {"variant": "standard", "committed": "KD"}, "committed card KD is not in the hand"),
        ("solve", {"variant": "standard", "objective": "opening"}, "standard's opening is 'none'"),
        ("solve", {"objective": "opening", "max_cards": 2}, "no max_cards below the hand"),
        ("solve", {"variant": "standard", "committed": "7H 8H", "max_cards": 1}, "max_cards is 1"),
    ],
)
def test_duties_the_variant_has_no_rule_for_are_refused_before_a_worker(
    job: str, extra: dict[str, Any], needle: str
) -> None:
    """The lane check reads a request as the worker does: duties are refused there, at once."""
    body = {"variant": "rummikub", "hand": "7H 8H 9H", "table": ["3C 4C 5C"], **extra}
    with pytest.raises(RummyError, match=needle):
        lane_of(job, body)


def test_limits_keep_half_the_workers_for_the_fast_lane() -> None:
    assert Limits(workers=1).fast_lane_workers() == 0
    assert Limits(workers=2).fast_lane_workers() == 1
    assert Limits(workers=5, fast_workers=3).fast_lane_workers() == 3
    with pytest.raises(ValueError, match="fast_workers"):
        Limits(workers=2, fast_workers=2)


def test_the_pool_starts_at_once_and_early_jobs_wait_for_their_first_worker(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pool_module, "run_job", lambda name, obj: {"name": name})
    monkeypatch.setattr(pool_module, "warm_up", lambda: time.sleep(0.5))  # a slow worker start

    async def main() -> None:
        pool = SolvePool(Limits(workers=2, pool="thread", spare_workers=0))
        started = time.monotonic()
        await pool.start()
        assert time.monotonic() - started < 0.3  # did not wait for the workers
        assert pool.status()["ready"] is False and pool.status()["workers_alive"] == 0
        try:  # its 0.2 s limit counts from the first worker, so it is answered, not overdue
            assert await pool.run("early", {}, "fast", seconds=0.2) == {"name": "early"}
            await pool.wait_ready(timeout=10)
            status = pool.status()
            assert status["ready"] is True and status["workers_alive"] == 2
            assert status["replacements"] == 0  # taking their places at start replaces nothing
        finally:
            await pool.stop()

    asyncio.run(main())


def test_a_request_waits_for_the_first_worker_no_longer_than_the_starting_wait(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pool_module, "warm_up", lambda: time.sleep(1.0))
    monkeypatch.setattr(pool_module, "STARTING_WAIT", 0.1)

    async def main() -> None:
        pool = SolvePool(Limits(workers=1, pool="thread", spare_workers=0))
        await pool.start()
        try:
            with pytest.raises(Busy, match="still starting"):
                await pool.run("early", {}, "fast", seconds=5)
        finally:
            await pool.stop()

    asyncio.run(main())


class _FakeProcess:
    """A worker that answers after ``obj["sleep"]`` seconds and, like a killed process, fails the
    jobs it holds when it is stopped."""

    def __init__(self) -> None:
        self.killed = False
        self.pid = None
        self.sentinel = None

    def alive(self) -> bool:
        return not self.killed

    async def call(self, name: str, obj: dict[str, Any], lane: Any, timeout: float) -> dict[str, Any]:
        async with asyncio.timeout(timeout):
            end = time.monotonic() + float(obj["sleep"])
            while time.monotonic() < end:
                if self.killed:
                    raise pool_module.WorkerLost("stopped")
                await asyncio.sleep(0.01)
        return {"name": name}

    def kill(self) -> None:
        self.killed = True

    def close(self) -> None:
        self.kill()


def test_a_worker_stopped_for_an_overdue_hard_job_first_answers_its_fast_job(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made: list[_FakeProcess] = []

    def new_worker(self: SolvePool) -> _FakeProcess:
        made.append(_FakeProcess())
        return made[-1]

    monkeypatch.setattr(SolvePool, "_new_worker", new_worker)

    async def scenario(pool: SolvePool) -> None:
        await pool.wait_ready()
        first = made[0]
        hard = asyncio.create_task(pool.run("hard", {"sleep": 5.0}, "hard", seconds=0.1))
        await asyncio.sleep(0.05)
        fast = asyncio.create_task(pool.run("fast", {"sleep": 0.5}, "fast", seconds=5))
        with pytest.raises(Overdue):
            await hard
        assert not first.killed  # its fast job is still running
        assert await fast == {"name": "fast"}
        for _ in range(100):
            if first.killed:
                break
            await asyncio.sleep(0.01)
        assert first.killed and pool.status()["replacements"] == 1
        assert await pool.run("after", {"sleep": 0}, "fast", seconds=1) == {"name": "after"}

    _with_pool(Limits(workers=1, pool="thread", grace=0.05), scenario)


def test_limits_name_a_bad_priority_or_spare_count() -> None:
    with pytest.raises(ValueError, match=r"hard_nice \(--hard-nice\) must be 0..19, got 25"):
        Limits(hard_nice=25)
    with pytest.raises(ValueError, match="spare_workers must be >= 0, got -1"):
        Limits(spare_workers=-1)


def test_a_move_check_stops_at_its_time_limit_instead_of_outrunning_it() -> None:
    # 12 melds with unstated wilds: the judge tries their readings (about 0.6 s without a limit)
    melds = ["3H 4H JK", "3D 4D JK", "3C 4C JK", "3S 4S JK", "5H 6H 2S", "5D 6D 2H", "5C 6C 2D"]
    melds += ["5S 6S 2C", "7H 8H 2S", "7D 8D 2H", "7S 8S 2D", "9H TH 2C"]
    obj = {
        "variant": "rhine",
        "options": ["rhine.wild_twos", "extra_packs=1"],
        "opened": False,
        "hand": " ".join(melds),
        "table": "7C 8C 9C",
        "new_table": ["7C 8C 9C", *melds],
        "time_limit": 0.05,
    }
    started = time.perf_counter()
    answer = pool_module.run_job("validate", obj)
    assert answer["rule"] == "time" and not answer["legal"]
    assert time.perf_counter() - started < 0.4


def test_a_running_job_whose_caller_gives_up_is_stopped_and_its_worker_replaced(
    rhine: dict[str, Any],
) -> None:
    """A client that leaves during a long search does not hold the lane until the search ends:
    the worker process is stopped, the warm spare takes its place and answers the next request."""

    async def scenario(pool: SolvePool) -> None:
        await pool.wait_ready()
        gone = asyncio.create_task(pool.run("hint", {**rhine, "alternatives": 0}, "hard", seconds=8))
        for _ in range(500):
            if pool.worker_pids(busy=True):
                break
            await asyncio.sleep(0.01)
        [searching] = pool.worker_pids(busy=True)
        await asyncio.sleep(0.2)
        gone.cancel()
        assert await pool.run("noop", {}, "hard", seconds=5) == {}
        assert pool.status()["abandoned"] == 1 and pool.status()["replacements"] == 1
        assert searching not in pool.worker_pids()
        with pytest.raises(ProcessLookupError):
            os.kill(searching, 0)  # the search's process is gone, not finishing in the background

    _with_pool(Limits(workers=1, pool="process"), scenario)
