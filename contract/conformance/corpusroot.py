"""Which corpus a conformance run asks, and whether it is the installed kit's.

``conformance run`` reads the corpus (``golden/`` and ``schema/``) of the dicechess-contract checkout it
is run from, as ``golden check`` does: a current directory holding ``golden/``, ``generators/`` and
``schema/feature-schemas.json``. Anywhere else it reads the installed kit's (the checkout of an
editable install, or the copy a wheel ships under ``contract/_data/``). :func:`choose` says which, with
a SHA-256 over the files a run reads (:data:`PATTERNS`: the corpora, graphs, recordings, vectors, the
known-divergences file and the schemas; each file's path and bytes) for that corpus and for the
installed kit's. When they differ, the kit that answers (the installed one) was not built from the corpus
it is asked about: :attr:`CorpusChoice.problem` names the differing files and the run fails.

:func:`use` points the readers of this package (:mod:`.corpus`, :mod:`.recording`,
:mod:`.divergences`) at the chosen root; :func:`golden` and :func:`schemas` are where they read.
Files are hashed in chunks (no file is read whole); a file that cannot be read counts as differing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from contract.core.resources import data_root

PATTERNS: Final = ("golden/conformance/**/*", "golden/recorded/*.json",
                   "golden/recorded/engine-live/conformance-engine-answers.jsonl.gz", "golden/vectors/*.json",
                   "golden/fixtures/*", "golden/divergences.json", "schema/*.json")
CHUNK: Final = 1 << 20
SHOWN: Final = 5  # differing files named in the message
CHECKOUT: Final = "checkout"
INSTALLED: Final = "installed"

_chosen: list[Path] = []  # the root :func:`use` chose (empty: the installed kit's)


def use(root: Path | None) -> None:
    """Read the corpus under ``root`` from now on (``None``: the installed kit's)."""
    _chosen[:] = [] if root is None else [root]


def root() -> Path:
    return _chosen[0] if _chosen else data_root()


def golden() -> Path:
    return root() / "golden"


def schemas() -> Path:
    return root() / "schema"


def is_checkout(path: Path) -> bool:
    """A dicechess-contract checkout: ``golden/`` and ``generators/`` beside ``schema/feature-schemas.json``."""
    return ((path / "golden").is_dir() and (path / "generators").is_dir()
            and (path / "schema" / "feature-schemas.json").is_file())


def files(base: Path) -> Iterator[tuple[str, Path]]:
    """(relative path, path) of every regular file a run reads under ``base``, sorted."""
    found: dict[str, Path] = {}
    for pattern in PATTERNS:
        for path in base.glob(pattern):
            if path.is_file():
                found[path.relative_to(base).as_posix()] = path
    yield from sorted(found.items())


def _file_digest(path: Path) -> str:
    digest = hashlib.sha256()
    try:
        with path.open("rb") as handle:
            while chunk := handle.read(CHUNK):
                digest.update(chunk)
    except OSError as exc:
        return f"unreadable: {exc.__class__.__name__}"
    return digest.hexdigest()


def digests(base: Path) -> dict[str, str]:
    """Each file's SHA-256 (or why it is unreadable), by relative path."""
    return {name: _file_digest(path) for name, path in files(base)}


def combined(table: dict[str, str]) -> str:
    """One SHA-256 over every (relative path, file digest) pair."""
    digest = hashlib.sha256()
    for name, value in sorted(table.items()):
        digest.update(f"{name}\0{value}\n".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


@dataclass(frozen=True)
class CorpusChoice:
    source: str  # checkout | installed
    root: Path
    digest: str
    installed_root: Path
    installed_digest: str
    differing: tuple[str, ...]  # relative paths that differ (or exist on one side only)

    @property
    def problem(self) -> str | None:
        """Why this corpus is not the one the installed kit was built with, or ``None``."""
        if not self.differing:
            return None
        shown = ", ".join(self.differing[:SHOWN])
        more = f" and {len(self.differing) - SHOWN} more" if len(self.differing) > SHOWN else ""
        return (f"the checkout's corpus ({self.root}) differs from the installed kit's ({self.installed_root}) in"
                f" {len(self.differing)} file(s): {shown}{more}; the kit that answers is the installed one, so its"
                " answers are not about this corpus: install this checkout (pip install -e .) or run outside it")

    def line(self) -> str:
        """The run's first line: which corpus it asked."""
        where = (f"the checkout {self.root}" if self.source == CHECKOUT
                 else f"the installed kit's, {self.root}")
        head = f"Corpus: {where} (golden/, schema/; sha256 {self.digest[:16]})"
        if self.problem is not None:
            return f"{head}: DIFFERS FROM THE INSTALLED KIT'S ({self.installed_digest[:16]}): this run fails"
        if self.source == CHECKOUT and self.root != self.installed_root:
            return f"{head}, the same as the installed kit's"
        return head

    def as_json(self) -> dict[str, str]:
        return {"source": self.source, "root": str(self.root), "digest": self.digest,
                "installedDigest": self.installed_digest}


def choose(cwd: Path | None = None) -> CorpusChoice:
    """The corpus a run started in ``cwd`` (default: the current directory) asks, compared with the kit's."""
    here = (Path.cwd() if cwd is None else cwd).resolve()
    installed = data_root().resolve()
    chosen, source = (here, CHECKOUT) if is_checkout(here) else (installed, INSTALLED)
    mine = digests(chosen)
    theirs = mine if chosen == installed else digests(installed)
    differing = tuple(sorted(name for name in set(mine) | set(theirs) if mine.get(name) != theirs.get(name)))
    return CorpusChoice(source, chosen, combined(mine), installed, combined(theirs), differing)
