"""The code version a game was played with: the package version and the git commit of its source.

Every game record carries it, so a run resumed after the code changed is caught (and refused
unless mixing is asked for) and a reader can tell which code produced which games.
"""

from __future__ import annotations

import hashlib
import subprocess
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path

UNKNOWN = "unknown"
#: Filled in by `git archive` (see this folder's .gitattributes): the commit an exported copy is of.
ARCHIVE_COMMIT = "$Format:%H$"


@dataclass(frozen=True)
class CodeVersion:
    """Package version, source commit (``unknown`` outside a git checkout) and uncommitted changes:
    `dirty`, and `changes`, a digest of those edits, so that two different sets of edits on one
    commit are two versions (empty when clean or unknown)."""

    package: str
    commit: str
    dirty: bool
    changes: str = ""

    @property
    def label(self) -> str:
        """One string naming the version, e.g. ``0.1.0+4e7f6a3c1b2d`` (``.dirty`` when edited,
        ``.dirty-1a2b3c4d`` with the digest of the edits when it is known)."""
        short = self.commit[:12] if self.commit != UNKNOWN else UNKNOWN
        edits = (f".dirty-{self.changes}" if self.changes else ".dirty") if self.dirty else ""
        return f"{self.package}+{short}{edits}"

    def as_dict(self) -> dict[str, object]:
        """JSON-ready fields (``changes`` only when there is a digest)."""
        out: dict[str, object] = {"package": self.package, "commit": self.commit, "dirty": self.dirty}
        if self.changes:
            out["changes"] = self.changes
        return out

    @classmethod
    def from_dict(cls, stamp: dict[str, object]) -> CodeVersion:
        """The version a record's ``code`` stamp names (`as_dict`'s inverse)."""
        return cls(
            str(stamp.get("package")),
            str(stamp.get("commit")),
            bool(stamp.get("dirty")),
            str(stamp.get("changes") or ""),
        )


def _git(args: list[str], where: Path) -> str | None:
    try:
        done = subprocess.run(
            ["git", *args], cwd=where, capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


@cache
def code_version() -> CodeVersion:
    """The running code's version (computed once per process)."""
    try:
        package = metadata.version("rummyai")
    except metadata.PackageNotFoundError:
        package = UNKNOWN
    if not ARCHIVE_COMMIT.startswith("$"):
        return CodeVersion(package, ARCHIVE_COMMIT, False)  # an unedited export of that commit
    source = Path(__file__).resolve().parents[2]
    top = _git(["rev-parse", "--show-toplevel"], source)
    commit = _git(["rev-parse", "HEAD"], source)
    if commit is None or top is None or Path(top).resolve() != source:  # a copy inside another repository
        return CodeVersion(package, UNKNOWN, False)
    code = ["--", "rummyai", "solvers", "envs"]
    status = _git(["status", "--porcelain", "--untracked-files=no", *code], source)
    if not status:
        return CodeVersion(package, commit, False)
    edits = _git(["diff", "HEAD", *code], source) or ""
    return CodeVersion(package, commit, True, hashlib.sha256(edits.encode()).hexdigest()[:12])


def file_commit(path: Path) -> tuple[str | None, bool]:
    """The last commit that changed `path` and whether the file differs from it (None: not committed)."""
    where = path.resolve().parent
    commit = _git(["log", "-n", "1", "--format=%H", "--", path.name], where)
    status = _git(["status", "--porcelain", "--", path.name], where)
    return (commit or None), bool(status)
