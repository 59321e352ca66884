"""Files that appear under their final name complete or not at all.

Every writer in the kit goes through here: the bytes go to a hidden temporary sibling
(``.<name>.tmp-<hex>``, same directory so the rename is atomic), are flushed and fsynced, and only
then is the sibling renamed onto the final name. A failure or interruption removes the sibling and
leaves whatever was at the final name untouched.

:class:`StagedFile` keeps the write and the rename apart, for callers that publish several files only
when all of them are complete; :func:`write_atomic` does both at once.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import IO, Any

from contract.core.oserrors import os_error_reason


def temporary_sibling(path: Path) -> Path:
    """A fresh hidden name in the same directory, so a rename onto ``path`` is atomic."""
    return path.with_name(f".{path.name}.tmp-{os.urandom(6).hex()}")  # secrets.token_hex(6), without importing random


def sync_path(path: Path) -> None:
    """fsync a file or a directory by name.

    A filesystem that cannot sync directories is tolerated, and so is a platform that cannot open a
    directory at all (Windows refuses with EACCES; NTFS journals a rename itself).
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        if exc.errno in (errno.EACCES, errno.EISDIR, errno.EPERM) and path.is_dir():
            return
        raise
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP):
            raise
    finally:
        os.close(fd)


class StagedFile:
    """``with StagedFile(path) as handle: ...`` writes a temporary sibling; a clean exit leaves it complete
    (flushed, fsynced, closed) for :meth:`publish`, an exception removes it. ``open_args`` go to ``open``."""

    def __init__(self, path: Path, mode: str = "wb", **open_args: Any) -> None:
        self.path = path
        self.tmp = temporary_sibling(path)
        self._mode = mode
        self._open_args = open_args

    def __enter__(self) -> IO[Any]:
        self.handle: IO[Any] = open(self.tmp, self._mode, **self._open_args)
        return self.handle

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        try:
            try:
                if exc_type is None:
                    self.handle.flush()
                    os.fsync(self.handle.fileno())
            finally:  # closed even when the flush or the fsync fails (a full disk)
                self.handle.close()
        except BaseException:
            self.discard()
            raise
        if exc_type is not None:
            self.discard()

    def publish(self) -> None:
        """Rename the complete temporary file onto the final name."""
        try:
            os.replace(self.tmp, self.path)
        except BaseException:
            self.discard()
            raise

    def discard(self) -> None:
        self.tmp.unlink(missing_ok=True)


def write_atomic(path: Path, data: bytes | str) -> None:
    """Write ``data`` to ``path`` via a temporary sibling and a rename: never half-written.

    A failure names ``path`` (an ``OSError`` from a write or fsync carries no file name of its own), so a
    full disk says which file it stopped.
    """
    staged = StagedFile(path)
    try:
        with staged as handle:
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
        staged.publish()
    except OSError as exc:
        if exc.filename is not None:
            raise
        raise OSError(exc.errno, os_error_reason(exc), str(path)) from exc
