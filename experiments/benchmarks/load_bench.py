"""The hint service under mixed traffic on loopback: easy and hard clients, a burst, a killed worker.

Starts the service in its own process (``python -m rummyai.hint.service``) and runs bounded phases:

1. ``easy``: easy clients alone (mid-game Rummikub hints, which the fast lane answers);
2. ``mixed``: the easy clients while hard clients send Rhine positions the general solver works on;
3. ``burst``: as ``mixed``, plus a burst of hard requests sent at once;
4. ``kill``: as ``mixed``, and one worker process is killed (SIGKILL) after a few seconds;
5. ``memory``: a fixed number of easy requests, the service's memory (its processes together,
   proportional set size) sampled as they go.

A poller asks ``/healthz`` every 50 ms throughout. Per phase and class it prints requests, answers
per second, latency p50/p99/max, answers by status, and how many took longer than the time limit
plus 0.5 s; for ``kill`` the requests lost and the seconds until every worker is back. Results are
written to ``--out`` (JSON) after every phase. The machine's load average is printed with them:
the clients share the cores with the service. Run:

    .venv/bin/python experiments/benchmarks/load_bench.py [--phase-seconds 15] [--memory-requests 10000]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import httpx
import numpy as np
from tqdm import tqdm

from rummyai.cards import card_str
from rummyai.solvers.random_positions import random_position

HERE = Path(__file__).resolve().parent


@dataclass
class Args:
    """Benchmark settings (every one is also a command-line option)."""

    workers: int = 2  # solver worker processes in the service
    time_limit: float = 2.0  # the service's time limit, seconds (hard requests ask for it)
    easy_clients: int = 4  # clients sending easy hints, each waiting for its answer
    hard_clients: int = 2  # clients sending hard Rhine hints
    phase_seconds: float = 15.0  # length of the easy, mixed and kill phases
    burst: int = 80  # hard requests sent at once in the burst phase
    memory_requests: int = 10_000  # easy requests of the memory phase (0: skip it)
    positions: int = 100  # distinct easy positions
    seed: int = 0
    hard_nice: int = 10  # steps nicer than the service that hard-lane solves run
    phases: str = "easy,mixed,burst,kill,memory"  # the phases to run, in this order
    hard_file: str = ""  # JSON lines of hard positions (default: the Rhine set under experiments/)
    out: str = "runs/bench/load_bench.json"  # the documented figures: experiments/benchmarks/data/


def parse_args() -> Args:
    """Command-line options from the `Args` fields."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for f in fields(Args):
        default = getattr(Args, f.name)
        parser.add_argument(f"--{f.name.replace('_', '-')}", type=type(default), default=default)
    return Args(**vars(parser.parse_args()))


# ------------------------------------------------------------------------------ positions
def easy_bodies(args: Args) -> list[dict[str, Any]]:
    """Seeded mid-game Rummikub positions (table 20-40 cards, hand 8-14), opened: the fast lane."""
    rng = np.random.default_rng(args.seed)
    out = []
    for k in range(args.positions):
        hand, table = random_position(
            "rummikub", args.seed * 100_003 + k, int(rng.integers(20, 41)), int(rng.integers(8, 15))
        )
        out.append({"hand": [card_str(c) for c in hand], "table": [[str(s) for s in m] for m in table]})
    return out


def hard_bodies(args: Args) -> list[dict[str, Any]]:
    """Rhine positions the general solver needs its time limit for, as hint requests."""
    path = Path(args.hard_file) if args.hard_file else next(HERE.parent.rglob("rhine_hard.jsonl"), None)
    if path is None or not path.is_file():
        sys.exit("load_bench: no hard positions: give --hard-file (JSON lines of Rhine positions)")
    out = []
    for line in path.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            keep = ("variant", "hand", "table", "opened")
            out.append({**{k: row[k] for k in keep if k in row}, "time_limit": args.time_limit})
    return out


# ------------------------------------------------------------------------------ the service
def free_port() -> int:
    """A free loopback TCP port."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(port: int, args: Args) -> subprocess.Popen[bytes]:
    """The service in its own process; returns once /healthz answers."""
    command = [sys.executable, "-m", "rummyai.hint.service", "--port", str(port)]
    command += [
        "--workers",
        str(args.workers),
        "--time-limit",
        str(args.time_limit),
        "--log-level",
        "warning",
        "--hard-nice",
        str(args.hard_nice),
    ]
    process = subprocess.Popen(command)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and process.poll() is None:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.2)
    process.terminate()
    raise RuntimeError("the service did not start")


def children(pid: int) -> list[int]:
    """Process ids whose parent is `pid` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def worker_pids(server: int) -> list[int]:
    """The service's solver worker processes: the children of its fork server (or, where workers
    are spawned, its own spawned children), not the fork server or the resource tracker."""
    pids = []
    for pid in children(server):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if b"forkserver" in command:
            pids += children(pid)
        elif b"spawn_main" in command:
            pids.append(pid)
    return pids


def service_pids(server: int) -> list[int]:
    """The service's process, its fork server and resource tracker, and its workers."""
    return [server, *children(server), *worker_pids(server)]


def cpu_ticks(pid: int) -> int:
    """User plus system clock ticks the process has used."""
    parts = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(parts[11]) + int(parts[12])


def rss_mb(pids: list[int]) -> float:
    """Memory of the processes together, MB: proportional set size (a page shared by forked
    workers counts once in all), resident set where the kernel does not report it."""
    total = 0
    for pid in pids:
        try:
            rollup = Path(f"/proc/{pid}/smaps_rollup")
            lines = (rollup if rollup.exists() else Path(f"/proc/{pid}/status")).read_text().splitlines()
        except OSError:
            continue
        total += next((int(x.split()[1]) for x in lines if x.startswith(("Pss:", "VmRSS:"))), 0)
    return total / 1024


# ------------------------------------------------------------------------------ traffic
@dataclass
class Record:
    """Answers of one class in one phase."""

    latencies_ms: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    times: list[float] = field(default_factory=list)  # when each answer came (monotonic)
    codes: list[int] = field(default_factory=list)  # each answer's status, in the same order
    late: int = 0  # answers after the time limit + 0.5 s


class Traffic:
    """Clients that send requests in a loop until told to stop, recording every answer."""

    def __init__(self, url: str, limit: float) -> None:
        self.url = url
        self.limit = limit
        self.lock = threading.Lock()
        self.records: dict[str, Record] = {}
        self.stop = threading.Event()
        self.threads: list[threading.Thread] = []

    def record(self, name: str, started: float, status: int) -> None:
        now = time.monotonic()
        with self.lock:
            rec = self.records.setdefault(name, Record())
            rec.latencies_ms.append((now - started) * 1000)
            rec.statuses[status] += 1
            rec.times.append(now)
            rec.codes.append(status)
            if now - started > self.limit + 0.5:
                rec.late += 1

    def send(self, http: httpx.Client, name: str, body: dict[str, Any]) -> httpx.Response | None:
        started = time.monotonic()
        try:
            answer = http.post("/v1/hint", json=body)
        except httpx.HTTPError:
            self.record(name, started, 0)
            return None
        self.record(name, started, answer.status_code)
        return answer

    def client(self, name: str, bodies: list[dict[str, Any]], offset: int, budget: int | None = None) -> None:
        def run() -> None:
            with httpx.Client(base_url=self.url, timeout=60) as http:
                k = offset
                while not self.stop.is_set() and (budget is None or k - offset < budget):
                    answer = self.send(http, name, bodies[k % len(bodies)])
                    k += 1
                    if answer is not None and answer.status_code == 503:
                        time.sleep(0.1)  # a client that backs off a little when told to retry

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        self.threads.append(thread)

    def finish(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=60)


class HealthPoller:
    """Asks /healthz every 50 ms: latency and live workers over time."""

    def __init__(self, url: str) -> None:
        self.samples: list[tuple[float, float, int]] = []  # (time, ms, workers alive; -1 on error)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, args=(url,), daemon=True)
        self.thread.start()

    def run(self, url: str) -> None:
        with httpx.Client(base_url=url, timeout=10) as http:
            while not self.stop.is_set():
                started = time.monotonic()
                try:
                    alive = int(http.get("/healthz").json()["workers_alive"])
                except (httpx.HTTPError, KeyError, ValueError):
                    alive = -1
                self.samples.append((started, (time.monotonic() - started) * 1000, alive))
                time.sleep(0.05)

    def between(self, start: float, end: float) -> list[tuple[float, float, int]]:
        return [s for s in self.samples if start <= s[0] <= end]


def summary(rec: Record, seconds: float) -> dict[str, Any]:
    values = sorted(rec.latencies_ms)
    ok = rec.statuses.get(200, 0)

    def q(p: float) -> float:
        return round(values[min(len(values) - 1, int(p * len(values)))], 1) if values else float("nan")

    return {
        "requests": len(values),
        "ok_per_s": round(ok / seconds, 1),
        "p50_ms": q(0.5),
        "p99_ms": q(0.99),
        "max_ms": round(values[-1], 1) if values else float("nan"),
        "statuses": {str(k): v for k, v in sorted(rec.statuses.items())},
        "late": rec.late,
    }


def run_phase(
    name: str,
    url: str,
    args: Args,
    easy: list[dict[str, Any]],
    hard: list[dict[str, Any]] | None,
    during: Callable[[Traffic, float], dict[str, Any]] | None = None,
    server: int | None = None,
) -> tuple[dict[str, Any], Traffic, float, float]:
    """Easy clients (and hard ones if `hard`) for `phase_seconds`; `during` runs meanwhile. With
    the `server` pid, also the CPU seconds its process, its workers and these clients used."""
    traffic = Traffic(url, args.time_limit)
    before = cpu_split(server) if server else None
    start = time.monotonic()
    for k in range(args.easy_clients):
        traffic.client("easy", easy, k * 17)
    if hard:
        for k in range(args.hard_clients):
            traffic.client("hard", hard, k * 5)
    extra = during(traffic, start) if during else {}
    remaining = args.phase_seconds - (time.monotonic() - start)
    if remaining > 0:
        time.sleep(remaining)
    traffic.finish()
    end = time.monotonic()
    result: dict[str, Any] = {cls: summary(rec, end - start) for cls, rec in sorted(traffic.records.items())}
    result["seconds"] = round(end - start, 1)
    if server and before:
        result["cpu_s"] = cpu_used(before, cpu_split(server))
    result.update(extra)
    return result, traffic, start, end


def cpu_split(server: int) -> dict[str, dict[int, int] | float]:
    """Clock ticks so far of the service's own process and of each of its workers, and CPU seconds
    of this (client) process."""

    def ticks(pids: list[int]) -> dict[int, int]:
        out = {}
        for pid in pids:
            with contextlib.suppress(OSError, ValueError, IndexError):
                out[pid] = cpu_ticks(pid)
        return out

    mine = os.times()
    return {
        "service": ticks([server]),
        "workers": ticks(worker_pids(server)),
        "clients": mine.user + mine.system,
    }


def cpu_used(before: dict[str, Any], after: dict[str, Any]) -> dict[str, float]:
    """CPU seconds between two `cpu_split` readings (a worker replaced meanwhile counts what its
    successor used; what the lost one used after `before` is not seen)."""
    tick = os.sysconf("SC_CLK_TCK")
    used = {"clients": round(after["clients"] - before["clients"], 2)}
    for key in ("service", "workers"):
        delta = sum(t - before[key].get(pid, 0) for pid, t in after[key].items())
        used[key] = round(delta / tick, 2)
    return used


def main() -> None:
    """Run every phase, print its figures and write them to --out as they come."""
    args = parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # a stopped run still stops its service
    easy, hard = easy_bodies(args), hard_bodies(args)
    port = free_port()
    server = start_server(port, args)
    url = f"http://127.0.0.1:{port}"
    results: dict[str, Any] = {"args": asdict(args), "load_before": os.getloadavg(), "cores": os.cpu_count()}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    poller = HealthPoller(url)

    def save(phase: str, result: dict[str, Any], start: float, end: float) -> None:
        health = poller.between(start, end)
        result["healthz_max_ms"] = round(max((s[1] for s in health), default=float("nan")), 1)
        result["load_after"] = os.getloadavg()
        results[phase] = result
        out.write_text(json.dumps(results, indent=1) + "\n")
        print(f"\n== {phase} ({result['seconds']} s, /healthz max {result['healthz_max_ms']} ms)")
        for cls in ("easy", "hard", "burst"):
            if cls in result:
                row = result[cls]
                print(
                    f"  {cls:>5}: {row['requests']:6d} requests, {row['ok_per_s']:6.1f} ok/s, "
                    f"p50 {row['p50_ms']:7.1f} ms, p99 {row['p99_ms']:7.1f} ms, max {row['max_ms']:7.1f} ms, "
                    f"statuses {row['statuses']}, over limit+0.5 s: {row['late']}"
                )
        for key in ("cpu_s", "lost", "recovery_s", "killed", "rss_mb"):
            if key in result:
                print(f"  {key}: {result[key]}")

    try:
        with httpx.Client(base_url=url, timeout=60) as http:  # warm-up: both lanes once
            for body in [*easy[:10], hard[0]]:
                http.post("/v1/hint", json=body)
        wanted = set(args.phases.split(","))
        for phase, hard_traffic in (("easy", None), ("mixed", hard)):
            if phase in wanted:
                result, _, start, end = run_phase(phase, url, args, easy, hard_traffic, server=server.pid)
                save(phase, result, start, end)

        def burst(traffic: Traffic, start: float) -> dict[str, Any]:
            with ThreadPoolExecutor(args.burst) as pool:
                clients = [httpx.Client(base_url=url, timeout=60) for _ in range(args.burst)]
                list(
                    pool.map(
                        lambda k: traffic.send(clients[k], "burst", hard[k % len(hard)]), range(args.burst)
                    )
                )
                for c in clients:
                    c.close()
            return {"burst_done_s": round(time.monotonic() - start, 1)}

        if "burst" in wanted:
            result, _, start, end = run_phase("burst", url, args, easy, hard, burst, server.pid)
            save("burst", result, start, end)

        def kill(traffic: Traffic, start: float) -> dict[str, Any]:
            time.sleep(3.0)
            workers = worker_pids(server.pid)
            ticks = {pid: cpu_ticks(pid) for pid in workers}
            time.sleep(0.3)
            busiest = max(workers, key=lambda pid: cpu_ticks(pid) - ticks[pid])  # the one solving now
            killed_at = time.monotonic()
            os.kill(busiest, signal.SIGKILL)
            back = None
            while time.monotonic() - killed_at < 30:
                alive = [s for s in poller.samples if s[0] > killed_at and s[2] == args.workers]
                if alive:
                    back = alive[0][0] - killed_at
                    break
                time.sleep(0.05)
            time.sleep(1.0)
            until = killed_at + (back if back is not None else 30.0) + 0.5
            with traffic.lock:
                lost = {
                    cls: sum(
                        1
                        for t, code in zip(rec.times, rec.codes, strict=True)
                        if killed_at <= t <= until and code != 200
                    )
                    for cls, rec in traffic.records.items()
                }
            return {"killed": busiest, "recovery_s": None if back is None else round(back, 2), "lost": lost}

        if "kill" in wanted:
            result, _, start, end = run_phase("kill", url, args, easy, hard, kill)
            save("kill", result, start, end)

        if args.memory_requests and "memory" in wanted:
            traffic = Traffic(url, args.time_limit)
            start = time.monotonic()
            samples: list[tuple[int, float]] = []
            share = args.memory_requests // args.easy_clients
            for k in range(args.easy_clients):
                traffic.client("easy", easy, k * 17, budget=share)
            with tqdm(total=share * args.easy_clients, desc="memory phase", unit="req") as bar:
                done = 0
                while any(t.is_alive() for t in traffic.threads):
                    now = len(traffic.records.get("easy", Record()).latencies_ms)
                    bar.update(now - done)
                    done = now
                    samples.append((now, round(rss_mb(service_pids(server.pid)), 1)))
                    time.sleep(1.0)
            traffic.finish()
            end = time.monotonic()
            samples.append((len(traffic.records["easy"].latencies_ms), rss_mb(service_pids(server.pid))))
            result = {"easy": summary(traffic.records["easy"], end - start), "seconds": round(end - start, 1)}
            result["rss_mb"] = {
                "first": samples[0],
                "after_1000": next((s for s in samples if s[0] >= 1000), None),
                "last": samples[-1],
            }
            result["rss_samples"] = samples
            save("memory", result, start, end)
    finally:
        poller.stop.set()
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
