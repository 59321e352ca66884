"""Every path an ``extract`` run writes, checked before any work; write failures that name the path.

An enrichment run writes up to four things: the output, the rejects file, the JSONL metadata sidecar
and the ``OUT.parts/`` directory. :func:`check_targets` is called before the first row is read and
refuses, naming the path:

* a target that is the same file as an input or as another target. "Same" is decided by identity
  (``st_dev``/``st_ino`` of what exists, so a hard link or a symbolic link to the input is caught)
  and by the resolved name of what does not exist yet (``--rejects OUT.meta.json`` is the sidecar);
  a target inside the parts directory counts as the parts directory;
* a target that exists and is not a regular file (a directory, a FIFO, a device such as
  ``/dev/null`` or ``/dev/full``, a socket) or is a symbolic link: the output is published by
  renaming a temporary file onto its name, which would replace the node (as root) instead of
  writing to it. Rows go to a device or a pipe through stdout instead (``> /dev/null``);
* a file target that exists when the run was not told to replace it (``--overwrite``; ``--resume``
  of the run's own interrupted work counts as the earlier run's permission);
* a target whose directory does not exist.

:func:`naming` turns an ``OSError`` raised while writing a target (disk full, file too large, …) into
an :class:`~contract.enrichment.rows.EnrichmentError` that names the target, not a hidden temporary
sibling and not nothing at all.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from contract.core.oserrors import os_error_reason
from contract.core.pagetargets import kind
from contract.enrichment.rows import EnrichmentError

Identity = tuple[int, int]


@dataclass(frozen=True)
class Target:
    role: str  # "output", "rejects file", "metadata sidecar", "parts directory"
    path: Path


@dataclass(frozen=True)
class Source:
    role: str  # "input"
    path: Path | None  # None: an open stream (stdin), identified by ``fd``
    fd: int | None = None


def _identity(info: os.stat_result) -> Identity:
    return (info.st_dev, info.st_ino)


def _stat(path: Path) -> os.stat_result | None:
    try:
        return path.stat()
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise EnrichmentError(f"{path}: cannot be checked ({os_error_reason(exc)})") from None


def _source_identity(source: Source) -> Identity | None:
    try:
        if source.fd is not None:
            return _identity(os.fstat(source.fd))
        if source.path is not None:
            return _identity(source.path.stat())
    except OSError:
        return None
    return None


def _check_kind(target: Target, is_parts: bool) -> os.stat_result | None:
    path = target.path
    if path.is_symlink():
        raise EnrichmentError(f"{path}: is a symbolic link; give the {target.role} as the path it points to")
    info = _stat(path)
    if info is None:
        if not path.parent.is_dir():
            raise EnrichmentError(f"{path.parent}: the {target.role}'s directory does not exist")
        return None
    if is_parts:
        if not stat.S_ISDIR(info.st_mode):
            raise EnrichmentError(f"{path}: is {kind(info.st_mode)}; the {target.role} must be a directory or absent")
        return info
    if not stat.S_ISREG(info.st_mode):
        raise EnrichmentError(
            f"{path}: is {kind(info.st_mode)}; the {target.role} must be a regular file or absent"
            " (to send rows to a device or a pipe, leave out --output and redirect stdout)"
        )
    return info


def check_targets(
    sources: Sequence[Source], targets: Sequence[Target], *, replace: bool, parts: Target | None = None
) -> None:
    """Refuse, before any work, targets that clash with an input or with each other, that exist and
    are not regular files, that exist when ``replace`` is false, or whose directory is missing."""
    seen: list[tuple[Target, Identity | None, str]] = []
    inputs = [(source, _source_identity(source)) for source in sources]
    everything = [*targets, *([parts] if parts is not None else [])]
    for target in everything:
        info = _check_kind(target, target is parts)
        identity = _identity(info) if info is not None else None
        name = os.path.realpath(target.path)
        for source, source_id in inputs:
            same_name = source.path is not None and os.path.realpath(source.path) == name
            if same_name or (identity is not None and identity == source_id):
                where = source.path if source.path is not None else "stdin"
                raise EnrichmentError(f"{target.path}: the {target.role} is the same file as the {source.role}"
                                      f" ({where}); it would be destroyed")
        for other, other_id, other_name in seen:
            if other_name == name or (identity is not None and identity == other_id):
                raise EnrichmentError(f"{target.path}: the {target.role} is the same file as the {other.role}"
                                      f" ({other.path})")
        seen.append((target, identity, name))
    if parts is not None:
        inside = os.path.realpath(parts.path) + os.sep
        for target, _, name in seen:
            if target is not parts and name.startswith(inside):
                raise EnrichmentError(f"{target.path}: the {target.role} is inside the {parts.role}"
                                      f" ({parts.path}), which the run deletes")
    if not replace:
        for target in targets:
            if target.path.exists():
                raise EnrichmentError(f"{target.path}: the {target.role} exists; pass --overwrite to replace it")


@contextmanager
def naming(path: Path, doing: str = "cannot be written") -> Iterator[None]:
    """Inside the block, an ``OSError`` becomes ``PATH: cannot be written (reason)`` (a broken pipe
    is left as it is, for the caller to end quietly)."""
    try:
        yield
    except BrokenPipeError:  # the reader went away (``| head``): not a failure to report
        raise
    except OSError as exc:
        raise EnrichmentError(f"{path}: {doing} ({os_error_reason(exc)})") from None
