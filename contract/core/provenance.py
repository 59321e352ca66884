"""Where a page came from: the kit version, the commit of the checkout, and when it was written.

Every page the kit writes for people (the golden report, the conformance matrix) opens with these
facts so that a page found later can be traced to what produced it. The commit is known only when the
data comes from a git checkout whose top level is that directory (never from a repository that merely
encloses it); the date honours ``SOURCE_DATE_EPOCH`` (reproducible builds) and is otherwise the
current time in UTC.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import contract

GIT_TIMEOUT = 10.0


@dataclass(frozen=True)
class Provenance:
    kit_version: str
    commit: str | None  # None: not read from a git checkout
    modified: bool  # the checkout has uncommitted changes to tracked files
    date: str  # ISO 8601, UTC, to the second

    def commit_text(self) -> str:
        if self.commit is None:
            return "not known (not a git checkout)"
        return self.commit + (" with uncommitted changes" if self.modified else "")


def _git(root: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True,
                              timeout=GIT_TIMEOUT, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def commit_of(root: Path | None) -> tuple[str | None, bool]:
    """(commit, has uncommitted changes) of the checkout at ``root``; (None, False) if it is none."""
    if root is None:
        return None, False
    top = _git(root, "rev-parse", "--show-toplevel")
    if top is None or Path(top).resolve() != root.resolve():
        return None, False
    commit = _git(root, "rev-parse", "HEAD")
    status = _git(root, "status", "--porcelain", "--untracked-files=no")
    return commit, bool(status)


def timestamp(environ: dict[str, str] | None = None) -> str:
    """Now in UTC, or ``SOURCE_DATE_EPOCH`` when it is set to a number of seconds."""
    env = os.environ if environ is None else environ
    raw = env.get("SOURCE_DATE_EPOCH", "").strip()
    moment = datetime.now(UTC)
    if raw.isdigit():
        moment = datetime.fromtimestamp(int(raw), UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def collect(root: Path | None) -> Provenance:
    commit, modified = commit_of(root)
    return Provenance(contract.__version__, commit, modified, timestamp())
