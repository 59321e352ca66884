"""The language-neutral contract files another repository vendors, their digests and their versions.

What is vendored: every file of ``schema/`` and ``grammar/``, and the shared corpus other
implementations test against (``golden/probes.json``, ``golden/probes.tsv``, ``golden/vectors/``, ``golden/fixtures/``,
``golden/conformance/``). Not vendored: the kit's own bookkeeping (``golden/recorded/`` holds other
implementations' recordings, ``golden/divergences.json`` and ``golden/drift-log.json`` describe the kit,
``golden/example-package/`` is a demonstration).

Contract versions are read from the files themselves, so a new file or version needs no code here: a
file named ``NAME-VERSION.schema.json`` (``manifest-1.1.0.schema.json``, ``pairjudge-1.schema.json``)
gives ``NAME: VERSION``, and a JSON object with a top-level ``version`` or ``formatVersion`` gives
``FILE-STEM: VALUE``.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path, PurePosixPath
from typing import Final

from contract.core.regularfile import sha256_file
from contract.core.resources import data_root

VENDORED_TREES: Final = ("schema", "grammar", "golden/vectors", "golden/fixtures", "golden/conformance")
VENDORED_FILES: Final = ("golden/probes.json", "golden/probes.tsv")
_NAMED_VERSION: Final = re.compile(r"^(?P<name>.+?)-(?P<version>[0-9]+(?:\.[0-9]+)*)\.schema\.json$")
_VERSION_KEYS: Final = ("version", "formatVersion")


def _hidden(part: str) -> bool:
    return part.startswith(".") or part == "__pycache__"


def contract_files(root: Path | None = None) -> list[str]:
    """Every vendored file of ``root`` (default: the installed kit's data) as sorted POSIX paths: the regular
    files (or links to one) under each tree, none in or under a hidden or ``__pycache__`` directory. Linked
    directories are not entered (as ``Path.rglob`` does not); ``os.walk`` rather than ``rglob``, which builds a
    ``Path`` per entry: this runs on every ``vendor --check`` (issue 35)."""
    base = data_root() if root is None else root
    found: list[str] = []
    for tree in VENDORED_TREES:
        directory = base / tree
        if not directory.is_dir():
            continue
        for folder, folders, names in os.walk(directory):
            folders[:] = [name for name in folders if not _hidden(name)]
            prefix = PurePosixPath(tree, *Path(folder).relative_to(directory).parts)
            found += [str(prefix / name) for name in names
                      if not _hidden(name) and os.path.isfile(os.path.join(folder, name))]
    found += [name for name in VENDORED_FILES if (base / name).is_file()]
    return sorted(found)


def file_sha256(path: Path) -> str:
    """Lowercase hex SHA-256, read in chunks; raises OSError for what is not a regular file (a FIFO never blocks)."""
    return sha256_file(path)


def contract_digests(root: Path | None = None) -> dict[str, str]:
    """Path -> lowercase hex SHA-256 of every vendored file of the kit."""
    base = data_root() if root is None else root
    return {name: file_sha256(base / name) for name in contract_files(base)}


def _version_key(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def contract_versions(root: Path | None = None) -> dict[str, list[str]]:
    """Each versioned contract file family -> its versions, oldest first (see the module text)."""
    base = data_root() if root is None else root
    versions: dict[str, set[str]] = {}
    for name in contract_files(base):
        path = PurePosixPath(name)
        match = _NAMED_VERSION.match(path.name)
        if match is not None:
            versions.setdefault(match["name"], set()).add(match["version"])
            continue
        if path.suffix != ".json":
            continue
        try:
            document = json.loads((base / name).read_bytes())
        except (ValueError, OSError):
            continue
        if isinstance(document, dict):
            for key in _VERSION_KEYS:
                value = document.get(key)
                if isinstance(value, str | int) and not isinstance(value, bool):
                    versions.setdefault(path.name.removesuffix(".json"), set()).add(str(value))
                    break
    return {name: sorted(found, key=lambda v: _version_key(v) if re.fullmatch(r"[0-9]+(?:\.[0-9]+)*", v) else (0,))
            for name, found in sorted(versions.items())}


__all__ = ["VENDORED_FILES", "VENDORED_TREES", "contract_digests", "contract_files", "contract_versions",
           "file_sha256"]
