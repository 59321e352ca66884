"""Finding the model packages a repository holds, for ``validate --discover`` and its pre-commit hook.

A hook that validates only the packages its configuration names can be bypassed: a second package is
added beside the first, or a named one loses its model, and nothing checks it. So discovery walks the
tree below a root and takes every directory that holds a ``model.onnx``, or a ``manifest.json`` that
names a ``featureSchema`` (a manifest of this contract whose model is gone still marks a package: its
deletion must fail, not pass). What is left out, and why:

- directories whose name starts with ``.`` (``.git``, ``.tox``, ``.venv``) and ``node_modules``;
- a tree that holds a ``dicechess-contract.lock.json``: a vendored copy of the contract, whose fixtures are
  deliberately broken packages checked by ``vendor --check``, not models to serve;
- symbolic links (never followed: a link out of the repository would make the walk reach anything).

The walk is bounded (:data:`MAX_ENTRIES` directory entries, :data:`MAX_DEPTH` levels) and a manifest is read
at most :data:`MANIFEST_PEEK` bytes to recognise it; past a bound it refuses, naming the bound, instead of
walking on. Named packages (``PACKAGE_DIR`` arguments or globs) are required: each must exist and be a
package, so a named package that was deleted fails.

>>> discover(Path("/nonexistent-root-for-doctest")).refusal.message
'/nonexistent-root-for-doctest: no such directory'
"""

from __future__ import annotations

import fnmatch
import glob
import json
import os
import stat
from pathlib import Path
from typing import Final

from contract.core.oserrors import os_error_reason
from contract.core.record import Record
from contract.core.refusal import Refusal, refusal
from contract.model.package import MANIFEST_FILE_NAME, MODEL_FILE_NAME

MAX_ENTRIES: Final = 200_000
MAX_DEPTH: Final = 64
MANIFEST_PEEK: Final = 1024 * 1024
LOCK_FILE_NAME: Final = "dicechess-contract.lock.json"
SKIPPED_NAMES: Final = frozenset({"node_modules", "__pycache__"})


class Discovery(Record):
    """The packages found (sorted, as paths relative to the current directory when given so) or why not."""

    packages: tuple[Path, ...]
    refusal: Refusal | None = None


def _refused(path: object, code: str, **fields: object) -> Discovery:
    return Discovery((), refusal(code, **fields).prefixed(str(path)))


def directory_refusal(path: Path) -> Refusal | None:
    """Why ``path`` is not a directory to look in (missing, a file, unreadable), or ``None``."""
    try:
        if not stat.S_ISDIR(os.stat(path).st_mode):
            return refusal("package.directory.notDirectory").prefixed(str(path))
    except FileNotFoundError:
        return refusal("package.directory.missing").prefixed(str(path))
    except OSError as exc:
        return refusal("package.directory.unreadable", reason=os_error_reason(exc)).prefixed(str(path))
    return None


def _names_a_schema(path: Path) -> bool:
    """``path`` is a JSON object naming a ``featureSchema``: a manifest of this contract."""
    try:
        with open(path, "rb") as stream:
            data = stream.read(MANIFEST_PEEK + 1)
    except OSError:
        return True  # unreadable: let validate say so rather than skip a possible package
    if len(data) > MANIFEST_PEEK:
        return True
    try:
        document = json.loads(data)
    except (ValueError, RecursionError):
        return False
    return isinstance(document, dict) and "featureSchema" in document


def _is_package(directory: Path, names: set[str]) -> bool:
    if MODEL_FILE_NAME in names:
        return True
    return MANIFEST_FILE_NAME in names and _names_a_schema(directory / MANIFEST_FILE_NAME)


def _excluded(path: Path, patterns: tuple[str, ...]) -> bool:
    text = path.as_posix()
    return any(fnmatch.fnmatchcase(text, pattern.rstrip("/")) for pattern in patterns)


def discover(root: Path, exclude: tuple[str, ...] = ()) -> Discovery:
    """Every package directory below ``root`` (``root`` itself included), sorted.

    A directory whose path (as written below ``root``, ``/``-separated) matches a glob of ``exclude`` is
    skipped with everything below it.
    """
    wrong = directory_refusal(root)
    if wrong is not None:
        return Discovery((), wrong)
    found: list[Path] = []
    seen = 0
    pending: list[tuple[Path, int]] = [(root, 0)]
    while pending:
        directory, depth = pending.pop()
        if depth and _excluded(directory, exclude):
            continue
        try:
            with os.scandir(directory) as entries:
                listed = list(entries)
        except OSError as exc:
            return _refused(directory, "package.directory.unreadable", reason=os_error_reason(exc))
        seen += len(listed)
        if seen > MAX_ENTRIES:
            return _refused(root, "package.discovery.tooMany", limit=MAX_ENTRIES)
        names = {entry.name for entry in listed}
        if LOCK_FILE_NAME in names and directory != root:
            continue
        if _is_package(directory, names):
            found.append(directory)
        for entry in listed:
            if entry.name.startswith(".") or entry.name in SKIPPED_NAMES:
                continue
            try:
                is_directory = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_directory:
                if depth + 1 > MAX_DEPTH:
                    return _refused(directory / entry.name, "package.discovery.tooDeep", limit=MAX_DEPTH)
                pending.append((directory / entry.name, depth + 1))
    return Discovery(tuple(sorted(found)))


def named(arguments: list[str]) -> Discovery:
    """The packages the arguments name: each a directory or a glob; one that names no package refuses."""
    found: list[Path] = []
    for argument in arguments:
        if glob.has_magic(argument):
            matches = [Path(match) for match in sorted(glob.glob(argument))
                       if os.path.isdir(match) and not os.path.islink(match)]
            packages = [match for match in matches if _is_package(match, set(os.listdir(match)))]
            if not packages:
                return _refused(argument, "package.discovery.noMatch")
            found.extend(packages)
            continue
        path = Path(argument)
        wrong = directory_refusal(path)
        if wrong is not None:
            return Discovery((), wrong)
        found.append(path)
    return Discovery(tuple(dict.fromkeys(found)))


__all__ = ["LOCK_FILE_NAME", "MAX_DEPTH", "MAX_ENTRIES", "Discovery", "directory_refusal", "discover", "named"]
