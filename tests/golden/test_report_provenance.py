"""The provenance a page opens with: the commit only of the checkout itself, the date reproducible."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from contract.core.provenance import commit_of, timestamp

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(where: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(where), *args], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_the_date_honours_source_date_epoch() -> None:
    assert timestamp({"SOURCE_DATE_EPOCH": "0"}) == "1970-01-01T00:00:00Z"
    assert timestamp({"SOURCE_DATE_EPOCH": "1780000000"}) == "2026-05-28T20:26:40Z"
    assert timestamp({"SOURCE_DATE_EPOCH": "soon"}).endswith("Z")  # not a number: the current time


def test_a_directory_that_is_no_checkout_has_no_commit(tmp_path: Path) -> None:
    assert commit_of(tmp_path) == (None, False)
    assert commit_of(None) == (None, False)


@needs_git
def test_the_commit_is_the_checkouts_own_never_an_enclosing_repositorys(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "inner").mkdir(parents=True)
    _git(repo, "init", "-q")
    (repo / "file.txt").write_text("one\n", encoding="utf-8")
    _git(repo, "add", "file.txt")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", "one")
    head = _git(repo, "rev-parse", "HEAD")
    assert commit_of(repo) == (head, False)
    assert commit_of(repo / "inner") == (None, False)
    (repo / "file.txt").write_text("two\n", encoding="utf-8")
    assert commit_of(repo) == (head, True)
