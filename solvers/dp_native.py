"""The dynamic program's kernels compiled ahead of time, so that a fresh process does not import numba.

`kernels()` gives `search`, `playable` and `walk` (`rummyai.solvers.dp_kernels`) and `rhine_search`
(`rummyai.solvers.rhine_kernels`). On first use it
looks for an extension module built from the kernels' exact source for this Python and numpy
(`tag`) in the cache folder (``$RUMMYAI_CACHE``, else ``~/.cache/rummyai``); if there is none it
builds one with numba's ahead-of-time compiler in a child process (``python -m
rummyai.solvers.dp_native``, a C compiler needed, about as long as numba's first just-in-time
compile), one process at a time under a file lock. Loading the built module takes milliseconds
where importing numba and loading its cached machine code take most of a second. When the build
fails, or ``RUMMYAI_DP_NATIVE=0`` is set, the kernels run under numba's just-in-time compiler
(machine code cached by ``cache=True``); a failed build is remembered for that tag, not retried.

    python -m rummyai.solvers.dp_native [FOLDER]   # build now (e.g. at install), into FOLDER
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import platform
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

MODULE = "rummyai_dp_kernels"
HERE = Path(__file__).resolve().parent
SOURCES = ("dp_kernels.py", "dp_layout.py", "rhine_kernels.py")
BUILD_TIMEOUT = 900  # seconds; a build this slow is given up (numba's compiler serves instead)

# Signatures of the exported kernels (C-contiguous arrays, as `run_dp` passes them).
_A32, _A64 = "i4[::1]", "i8[::1]"
SIGNATURES = {
    "search": f"UniTuple(i8, 2)({_A32}, {_A32}, i4[:, ::1], {_A64}, i8, i8, i8, {_A32}, {_A32}, i4[:, :, ::1], {_A32}, "
    f"i4[:, ::1], {_A32}, i4[:, ::1], i4[:, :, ::1], {_A32}, {_A64}, {_A32}, {_A64}, {_A64}, {_A32}, {_A32}, {_A32}, i8, b1, "
    f"i8, i8, i8, {_A64}, i8)",
    "playable": f"{_A32}({_A32}, {_A32})",
    "walk": f"{_A32}({_A32}, {_A32}, i8, i8)",
    "rhine_search": f"UniTuple(i8, 2)({_A32}, {_A32}, {_A64}, i8, i8, {_A64}, i8, b1, {_A32}, {_A32}, {_A32}, i4[:, ::1], {_A64}, {_A64}, {_A32}, {_A32}, "
    f"{_A64}, {_A32}, {_A32})",
}
# The module each kernel is written in
HOMES = {
    "search": "dp_kernels",
    "playable": "dp_kernels",
    "walk": "dp_kernels",
    "rhine_search": "rhine_kernels",
}


class Kernels(NamedTuple):
    """The compiled functions and where they come from (``native`` or ``numba``)."""

    search: Callable[..., tuple[int, int]]
    playable: Callable[..., Any]
    walk: Callable[..., Any]
    rhine_search: Callable[..., tuple[int, int]]
    origin: str


def tag() -> str:
    """Names a build: the kernels' source and exported signatures, this Python, numpy's version and
    the processor (the module is compiled for the processor that builds it)."""
    digest = hashlib.sha256()
    for name in SOURCES:
        digest.update((HERE / name).read_bytes())
    digest.update(repr(SIGNATURES).encode())
    for part in (sys.implementation.cache_tag, np.__version__, platform.machine(), sys.platform, _cpu()):
        digest.update(part.encode())
    return digest.hexdigest()[:16]


def _cpu() -> str:
    """The processor's feature flags where the system lists them (Linux), else ''."""
    try:
        with open("/proc/cpuinfo") as info:
            return next((line for line in info if line.startswith("flags")), "")
    except OSError:
        return ""


def cache_folder() -> Path:
    """Where the built module lives: one folder per `tag` under the cache."""
    root = Path(os.environ.get("RUMMYAI_CACHE") or Path.home() / ".cache" / "rummyai")
    return root / f"dp-kernels-{tag()}"


_LOADED: list[Kernels] = []


def kernels() -> Kernels:
    """The kernels this process uses (loaded, built or compiled once)."""
    if not _LOADED:
        _LOADED.append(_native() or _jit())
    return _LOADED[0]


def rhine_kernels() -> Callable[..., tuple[int, int]]:
    """Rhine's meld program (`rummyai.solvers.rhine_kernels.rhine_search`), as `kernels` loads it."""
    return kernels().rhine_search


def _jit() -> Kernels:
    from rummyai.solvers import dp_kernels, rhine_kernels

    return Kernels(
        dp_kernels.search, dp_kernels.playable, dp_kernels.walk, rhine_kernels.rhine_search, "numba"
    )


def _native() -> Kernels | None:
    """The ahead-of-time module, built first if needed; None where that is off or failed."""
    if os.environ.get("RUMMYAI_DP_NATIVE", "1") == "0":
        return None
    try:
        import fcntl  # POSIX: elsewhere numba's compiler serves
    except ImportError:
        return None
    try:
        folder = cache_folder()
        module = _load(folder)
        if module is None and not (folder / "failed").exists():
            folder.mkdir(parents=True, exist_ok=True)
            with open(folder / "lock", "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)  # another process may be building it
                module = _load(folder)
                if module is None and not (folder / "failed").exists():
                    _build_in_child(folder)
                    module = _load(folder)
    except Exception:  # no home folder, a cache that cannot be written, a module that will not load:
        return None  # numba's compiler serves (the same functions, compiled in this process)
    if module is None:
        return None
    return Kernels(module.search, module.playable, module.walk, module.rhine_search, "native")


def _load(folder: Path) -> Any:
    """The built module in `folder`, or None."""
    built = sorted(folder.glob(f"{MODULE}*.so")) + sorted(folder.glob(f"{MODULE}*.pyd"))
    if not built:
        return None
    spec = importlib.util.spec_from_file_location(MODULE, built[0])
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _build_in_child(folder: Path) -> None:
    """Run `build` in a child process (this one keeps numba unimported); note a failure."""
    command = [sys.executable, "-m", "rummyai.solvers.dp_native", str(folder)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=BUILD_TIMEOUT)
    except subprocess.TimeoutExpired:
        (folder / "failed").write_text(f"the build took more than {BUILD_TIMEOUT} s")
        return
    if done.returncode != 0:
        (folder / "failed").write_text(done.stderr[-4000:] or f"exit status {done.returncode}")


def build(folder: Path) -> Path:
    """Compile the kernels ahead of time into `folder` (written whole, then moved in place)."""
    import importlib
    import warnings

    from numba.pycc import CC

    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder) as work, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # numba marks its ahead-of-time compiler as pending deprecation
        cc = CC(MODULE)
        cc.output_dir = work
        cc.verbose = False
        cc.target_cpu = "host"  # as numba's just-in-time compiler does
        for name, signature in SIGNATURES.items():
            home = importlib.import_module(f"rummyai.solvers.{HOMES[name]}")
            cc.export(name, signature)(getattr(home, name).py_func)
        cc.compile()
        (built,) = list(Path(work).glob(f"{MODULE}*"))
        target = folder / built.name
        os.replace(built, target)
    return target


if __name__ == "__main__":
    print(build(Path(sys.argv[1]) if len(sys.argv) > 1 else cache_folder()))
