"""A vendored copy of the contract files in another repository, and the check its CI runs.

:func:`vendor` writes every file of :mod:`contract.core.vendorfiles` into a directory with a lock file
(:data:`LOCK_NAME`) recording the kit's version, the contract versions and each file's SHA-256. A new
directory is staged as a temporary sibling and renamed into place whole; an existing vendored copy (it
holds a lock file) is updated file by file, each through a temporary sibling, the lock last. Any other
existing directory, or a file, is refused: nothing of the user's is overwritten.

:func:`check` compares a vendored copy with its lock and with the installed kit, naming each file that
was edited, is missing, is not the kit's, or differs from the installed kit's.
"""

from __future__ import annotations

import json
import secrets
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from contract import __version__
from contract.core.refusal import Refusal
from contract.core.resources import data_root
from contract.core.stagedfile import sync_path, write_atomic
from contract.core.vendorfiles import contract_digests, contract_versions, file_sha256

LOCK_NAME: Final = "dicechess-contract.lock.json"
LOCK_VERSION: Final = 1


def lock_document() -> dict[str, Any]:
    """The lock of the installed kit's files (``schema/vendor-lock-1.schema.json``)."""
    return {
        "lockVersion": LOCK_VERSION,
        "kit": "dicechess-contract",
        "kitVersion": __version__,
        "contractVersions": contract_versions(),
        "files": contract_digests(),
    }


def _lock_bytes(document: dict[str, Any]) -> bytes:
    return (json.dumps(document, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def _write_tree(target: Path, document: dict[str, Any]) -> None:
    source = data_root()
    for name in document["files"]:
        destination = target / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(destination, (source / name).read_bytes())
    write_atomic(target / LOCK_NAME, _lock_bytes(document))


@dataclass(frozen=True)
class Vendored:
    directory: Path
    written: tuple[str, ...]
    removed: tuple[str, ...]


def read_lock(directory: Path) -> dict[str, Any] | Refusal:
    lock = directory / LOCK_NAME
    try:
        document = json.loads(lock.read_bytes())
    except FileNotFoundError:
        return Refusal(f"{directory} is not a vendored copy of the contract: it has no {LOCK_NAME}")
    except (OSError, ValueError) as exc:
        return Refusal(f"{lock}: cannot be read as a lock file ({exc})")
    files = document.get("files") if isinstance(document, dict) else None
    if not isinstance(files, dict) or not all(isinstance(v, str) for v in files.values()):
        return Refusal(f"{lock}: not a dicechess-contract lock file (no \"files\" object of digests)")
    return dict(document)


def vendor(directory: Path) -> Vendored | Refusal:
    """Write the contract files and their lock into ``directory`` (see the module text)."""
    document = lock_document()
    if directory.is_symlink() or (directory.exists() and not directory.is_dir()):
        return Refusal(f"refusing to vendor into {directory}: it exists and is not a directory")
    if not directory.exists():
        directory.parent.mkdir(parents=True, exist_ok=True)
        staged = directory.with_name(f".{directory.name}.tmp-{secrets.token_hex(6)}")
        staged.mkdir()
        try:
            _write_tree(staged, document)
            staged.rename(directory)
        except BaseException:
            shutil.rmtree(staged, ignore_errors=True)
            raise
        sync_path(directory.parent)
        return Vendored(directory, tuple(document["files"]), ())
    if any(directory.iterdir()):
        previous = read_lock(directory)
        if isinstance(previous, Refusal):
            return Refusal(f"refusing to vendor into {directory}: it is not empty and not a vendored copy "
                           f"(no valid {LOCK_NAME}); choose a new or empty directory")
        old_files = set(previous["files"])
    else:
        old_files = set()
    _write_tree(directory, document)
    removed = sorted(old_files - set(document["files"]))
    for name in removed:  # files an older kit vendored and this one no longer ships
        (directory / name).unlink(missing_ok=True)
    return Vendored(directory, tuple(document["files"]), tuple(removed))


def check(directory: Path) -> list[tuple[str, str]] | Refusal:
    """``(file, problem)`` for each problem of a vendored copy (none: it matches its lock and the kit)."""
    if not directory.is_dir():
        return Refusal(f"{directory}: no such directory")
    lock = read_lock(directory)
    if isinstance(lock, Refusal):
        return lock
    locked: dict[str, str] = lock["files"]
    kit = contract_digests()
    problems: list[tuple[str, str]] = []
    for name in sorted(set(locked) | set(kit)):
        path = directory / name
        if name not in locked:
            problems.append((name, f"missing (the installed kit {__version__} ships it; run vendor again)"))
            continue
        if not path.is_file():
            problems.append((name, "missing"))
            continue
        actual = file_sha256(path)
        if actual != locked[name]:
            problems.append((name, f"edited (its SHA-256 is not the one in {LOCK_NAME})"))
        elif name not in kit:
            problems.append((name, f"not in the installed kit {__version__} any more (run vendor again)"))
        elif kit[name] != locked[name]:
            problems.append((name, f"differs from the installed kit {__version__}'s (run vendor again)"))
    return problems


__all__ = ["LOCK_NAME", "LOCK_VERSION", "Vendored", "check", "lock_document", "read_lock", "vendor"]
