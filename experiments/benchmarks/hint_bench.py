"""Latency of the hint service under a bounded burst of concurrent clients on loopback.

Starts the service in its own process (``python -m rummyai.hint.service``), deals seeded
mid-game positions (a table of about 20 to 40 cards in valid melds, a hand of 8 to 14 cards),
warms the workers up, then lets several clients send a fixed number of requests as fast as
they get answers. Prints p50, p90, p99 and max latency as the clients see it, the server-side
time of each answer (its ``ms``), and requests per second. Run:

    .venv/bin/python experiments/benchmarks/hint_bench.py [--requests 400] [--clients 4] [--endpoint hint]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, fields
from typing import Any

import httpx

from rummyai.cards import card_str
from rummyai.solvers.random_positions import random_position


@dataclass
class Args:
    """Benchmark settings (every one is also a command-line option)."""

    variant: str = "rummikub"  # variant of the dealt positions
    positions: int = 100  # distinct positions, cycled through by the requests
    requests: int = 400  # requests in the burst (bounded)
    clients: int = 4  # concurrent clients, each with its own keep-alive connection
    workers: int = 2  # solver worker processes in the service
    endpoint: str = "hint"  # hint or solve
    alternatives: int = 3  # alternatives per hint
    min_table: int = 20  # table size range (cards)
    max_table: int = 40
    min_hand: int = 8  # hand size range (cards)
    max_hand: int = 14
    warmup: int = 20  # requests before the measured burst
    seed: int = 0
    in_process: bool = False  # also time hint() and solve() in this process (CPU ms: robust to load)


def parse_args() -> Args:
    """Command-line options from the `Args` fields."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for f in fields(Args):
        default = getattr(Args, f.name)
        name = f"--{f.name.replace('_', '-')}"
        if isinstance(default, bool):
            parser.add_argument(name, action="store_true", default=default)
        else:
            parser.add_argument(name, type=type(default), default=default)
    return Args(**vars(parser.parse_args()))


def bodies(args: Args) -> list[dict[str, Any]]:
    """Seeded mid-game positions as request bodies."""
    out = []
    for k in range(args.positions):
        seed = args.seed * 100_003 + k
        table_cards = args.min_table + seed % (args.max_table - args.min_table + 1)
        hand_cards = args.min_hand + seed % (args.max_hand - args.min_hand + 1)
        hand, table = random_position(args.variant, seed, table_cards, hand_cards)
        body: dict[str, Any] = {
            "variant": args.variant,
            "hand": [card_str(c) for c in hand],
            "table": [[str(s) for s in m] for m in table],
        }
        if args.endpoint == "hint":
            body["alternatives"] = args.alternatives
        out.append(body)
    return out


def free_port() -> int:
    """A free loopback TCP port."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(port: int, workers: int) -> subprocess.Popen[bytes]:
    """The service in its own process; returns once /healthz answers."""
    command = [sys.executable, "-m", "rummyai.hint.service", "--port", str(port), "--workers", str(workers)]
    process = subprocess.Popen([*command, "--log-level", "warning"])
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.2)
        if process.poll() is not None:
            break
    process.terminate()
    raise RuntimeError("the service did not start")


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of values, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def burst(
    url: str, path: str, work: list[dict[str, Any]], clients: int
) -> tuple[list[float], list[float], int, float]:
    """Send every body once from `clients` threads; (latencies ms, server ms, errors, seconds)."""
    latencies: list[float] = []
    server_ms: list[float] = []
    errors = 0
    lock = threading.Lock()
    queue = list(reversed(work))

    def client() -> None:
        nonlocal errors
        with httpx.Client(base_url=url, timeout=60) as http:
            while True:
                with lock:
                    if not queue:
                        return
                    body = queue.pop()
                start = time.perf_counter()
                answer = http.post(
                    path, content=json.dumps(body), headers={"content-type": "application/json"}
                )
                elapsed = (time.perf_counter() - start) * 1000
                with lock:
                    if answer.status_code == 200:
                        latencies.append(elapsed)
                        server_ms.append(float(answer.json()["ms"]))
                    else:
                        errors += 1

    threads = [threading.Thread(target=client) for _ in range(clients)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies, server_ms, errors, time.perf_counter() - start


def in_process(args: Args, work: list[dict[str, Any]]) -> None:
    """CPU and wall milliseconds of `hint` and of one `solve` per position, without HTTP."""
    from rummyai.hint import hint
    from rummyai.solvers import solve

    hint(args.variant, "7H 8H 9H", "")  # imports and first-call costs
    rows: dict[str, list[float]] = {"hint cpu ms": [], "hint wall ms": [], "solve cpu ms": []}
    for body in work:
        cpu, wall = time.process_time(), time.perf_counter()
        hint(args.variant, body["hand"], body["table"], alternatives=args.alternatives)
        rows["hint cpu ms"].append((time.process_time() - cpu) * 1000)
        rows["hint wall ms"].append((time.perf_counter() - wall) * 1000)
        cpu = time.process_time()
        solve(args.variant, body["hand"], body["table"])
        rows["solve cpu ms"].append((time.process_time() - cpu) * 1000)
    print(f"in process, {len(work)} positions:")
    for name, values in rows.items():
        cells = [percentile(values, q) for q in (0.5, 0.9, 0.99)] + [max(values)]
        print(f"{name:>14} " + " ".join(f"{v:8.1f}" for v in cells))


def main() -> None:
    """Run the benchmark and print its table."""
    args = parse_args()
    load_before = os.getloadavg()[0]
    work = bodies(args)
    port = free_port()
    server = start_server(port, args.workers)
    url = f"http://127.0.0.1:{port}"
    path = f"/v1/{args.endpoint}"
    try:
        burst(url, path, [work[k % len(work)] for k in range(args.warmup)], args.clients)
        requests = [work[k % len(work)] for k in range(args.requests)]
        latencies, server_ms, errors, seconds = burst(url, path, requests, args.clients)
    finally:
        server.terminate()
        server.wait(timeout=30)
    sizes = [(sum(len(m) for m in b["table"]), len(b["hand"])) for b in work]
    print(
        f"{args.variant} {path}: {args.requests} requests, {args.clients} clients, {args.workers} workers, "
        f"{len(work)} positions (table {min(s[0] for s in sizes)}-{max(s[0] for s in sizes)} cards, "
        f"hand {min(s[1] for s in sizes)}-{max(s[1] for s in sizes)})"
    )
    print(f"{'':>14} {'p50':>8} {'p90':>8} {'p99':>8} {'max':>8}")
    for name, values in (("latency ms", latencies), ("server ms", server_ms)):
        cells = [percentile(values, q) for q in (0.5, 0.9, 0.99)] + [max(values)]
        print(f"{name:>14} " + " ".join(f"{v:8.1f}" for v in cells))
    print(f"throughput: {len(latencies) / seconds:.1f} requests/s over {seconds:.1f} s; errors: {errors}")
    if args.in_process:
        in_process(args, work)
    print(
        f"machine: {os.cpu_count()} cores, load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after"
    )


if __name__ == "__main__":
    main()
