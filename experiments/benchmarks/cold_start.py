"""Cold start: how long a fresh process takes to give its first answer.

Measures, each `--runs` times in new processes: importing `rummyai.solvers` and the first
`solve` of a rummikub position (the dynamic program's kernels loaded as `rummyai.solvers.dp_native`
finds them: built ahead of time, or numba's just-in-time code from its cache), the wall time of
one `rummyai solve` command, and `rummyai serve` from launch until ``/healthz`` answers and until
a first ``/v1/solve`` answers. Each line says where the kernels came from and whether numba and
OR-Tools were imported. With `--cold` the first process starts from empty caches
(`RUMMYAI_CACHE` and `NUMBA_CACHE_DIR` set to new folders, so the user's own are left alone)
and pays for building the kernels; the later ones load what it wrote. `--jit` sets
``RUMMYAI_DP_NATIVE=0`` (numba's compiler, never the ahead-of-time build).

    .venv/bin/python experiments/benchmarks/cold_start.py [--runs 5] [--cold] [--jit] [--no-serve]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

BIN = Path(sys.executable).parent
HAND, TABLE = "7H 8H 9H JK 3C 5D", "3C 4C 5C | 8S 8D 8H | 5S 5H 5C"
FIRST = f"""
import sys, time; t = time.perf_counter()
import rummyai.solvers as s
t1 = time.perf_counter()
s.solve("rummikub", "{HAND}", "{TABLE}")
t2 = time.perf_counter()
from rummyai.solvers.dp_native import kernels
print(t1 - t, t2 - t1, kernels().origin, "numba" in sys.modules, "ortools" in sys.modules)
"""


def first_solve(env: dict[str, str]) -> tuple[float, float, float, str]:
    """(import s, first solve s, process wall s, where the kernels came from) of one fresh interpreter."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", FIRST], env=env, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - start
    imported, solved, origin, numba, ortools = done.stdout.split()
    return (
        float(imported),
        float(solved),
        wall,
        f"kernels: {origin}, numba imported: {numba}, OR-Tools imported: {ortools}",
    )


def cli_solve(env: dict[str, str]) -> float:
    start = time.perf_counter()
    args = [str(BIN / "rummyai"), "solve", "--variant", "rummikub", "--hand", HAND, "--table", TABLE]
    subprocess.run(args, env=env, capture_output=True, check=True)
    return time.perf_counter() - start


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve_ready(env: dict[str, str], timeout: float = 120.0) -> tuple[float, float]:
    """Seconds from launching `rummyai serve` until /healthz answers, and until a first solve does."""
    port = free_port()
    start = time.perf_counter()
    proc = subprocess.Popen(
        [str(BIN / "rummyai"), "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        healthy = None
        while time.perf_counter() - start < timeout:
            try:
                with urllib.request.urlopen(f"{base}/healthz", timeout=1) as reply:
                    if reply.status == 200:
                        healthy = time.perf_counter() - start
                        break
            except OSError:
                time.sleep(0.02)
        if healthy is None:
            raise SystemExit("rummyai serve did not answer /healthz in time")
        body = json.dumps({"hand": HAND, "table": TABLE}).encode()
        request = urllib.request.Request(
            f"{base}/v1/solve", data=body, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            reply.read()
        return healthy, time.perf_counter() - start
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def line(label: str, values: list[float]) -> str:
    return (
        f"{label:44s} "
        + " ".join(f"{v:6.2f}" for v in values)
        + f"   median {statistics.median(values):.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cold", action="store_true", help="start from empty kernel and numba caches")
    parser.add_argument(
        "--jit", action="store_true", help="numba's just-in-time kernels (RUMMYAI_DP_NATIVE=0)"
    )
    parser.add_argument("--no-serve", action="store_true")
    ns = parser.parse_args()
    env = dict(os.environ)
    print(f"command: python {' '.join(sys.argv)}")
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if ns.jit:
        env["RUMMYAI_DP_NATIVE"] = "0"
    if ns.cold:
        env["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="rummyai-numba-")
        env["RUMMYAI_CACHE"] = tempfile.mkdtemp(prefix="rummyai-cache-")
        imported, solved, wall, what = first_solve(env)
        print(
            f"empty caches: import {imported:.2f} s, first solve (building the kernels) {solved:.2f} s, "
            f"wall {wall:.2f} s ({what})"
        )
    runs = [first_solve(env) for _ in range(ns.runs)]
    print(f"later processes: {runs[-1][3]}")
    print(line("import rummyai.solvers (s)", [r[0] for r in runs]))
    print(line("first solve, cached compiled code (s)", [r[1] for r in runs]))
    print(line("python -c 'import; solve' process wall (s)", [r[2] for r in runs]))
    print(line("rummyai solve (one position) wall (s)", [cli_solve(env) for _ in range(ns.runs)]))
    if not ns.no_serve:
        ready = [serve_ready(env) for _ in range(ns.runs)]
        print(line("rummyai serve until /healthz answers (s)", [r[0] for r in ready]))
        print(line("rummyai serve until a first solve answers (s)", [r[1] for r in ready]))
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
