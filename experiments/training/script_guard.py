"""What every training script does with bad input and Ctrl-C: one line, no traceback.

A script ends with ``raise SystemExit(guarded(main))``: a `RummyError` (an unknown agent, a weights
file that is not one, ...) prints its message and exits 2; Ctrl-C says that the same command
resumes and exits 130. `check_env_id`, `check_variant` and `check_out_dir` are the argument
checks the scripts share.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from rummyai.envs import ENV_IDS
from rummyai.errors import RummyError
from rummyai.variants import ONE_ROUND


def guarded(main: Callable[[], int]) -> int:
    """Run `main`, turning bad input and Ctrl-C into one line on stderr and an exit code."""
    name = Path(sys.argv[0]).name
    try:
        return main()
    except RummyError as error:
        print(f"{name}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{name}: interrupted; rerun the same command to resume", file=sys.stderr)
        return 130


def check_env_id(parser: argparse.ArgumentParser, env_id: str) -> str:
    """The variant of a registered environment id, else the parser's error naming the known ones."""
    if env_id not in ENV_IDS:
        parser.error(f"unknown environment {env_id!r} (known: {', '.join(ENV_IDS)})")
    return ENV_IDS[env_id]


def check_variant(parser: argparse.ArgumentParser, variant: str) -> None:
    """Refuse a variant the one-round training settings do not know, naming the known ones."""
    if variant not in ONE_ROUND:
        parser.error(f"unknown variant {variant!r} (known: {', '.join(ONE_ROUND)})")


def check_out_dir(parser: argparse.ArgumentParser, out: str) -> Path:
    """`out` as a folder (made if missing); the parser's error when a file is in the way."""
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        parser.error(f"--out {out} is a file, not a folder")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
