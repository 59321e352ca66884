"""Reading a regular file without ever blocking on a FIFO or a device, and its streamed SHA-256.

Shared by the package loader, the vendoring digests and every reader of a named file. Refusals: a path
that is not a regular file (a FIFO, a device, a directory) raises :class:`OSError` (``EINVAL``), as does any
failure to open or read it; nothing here waits for a writer.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from pathlib import Path
from typing import BinaryIO, Final

DIGEST_BUFFER: Final = 64 * 1024


def open_regular(path: Path) -> BinaryIO:
    """Open a regular file for reading, or raise OSError — never block on a FIFO or a device.

    The readability check runs before the open; if the path is swapped for a FIFO in between, a
    plain ``open`` would wait forever for a writer. Opening non-blocking and checking what was opened
    closes that gap. A platform without ``O_NONBLOCK`` (Windows) has no FIFO a path can name, so there
    the path is checked before the open and the opened file again after it.
    """
    nonblocking: int | None = getattr(os, "O_NONBLOCK", None)
    flags = os.O_RDONLY | getattr(os, "O_BINARY", 0)  # os.open never makes an inheritable descriptor (PEP 446)
    if nonblocking is None and not stat.S_ISREG(os.stat(path).st_mode):
        raise OSError(errno.EINVAL, "not a regular file", str(path))
    fd = os.open(path, flags if nonblocking is None else flags | nonblocking)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        if nonblocking is not None:
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def sha256_file(path: Path) -> str:
    """Lowercase hex SHA-256 of a file, streamed in 64 KiB buffers (raises OSError)."""
    return sha256_and_match(path, None)[0]


def sha256_and_match(path: Path, expected: bytes | None) -> tuple[str, bool]:
    """The file's SHA-256 (as :func:`sha256_file`) and whether its bytes are ``expected``, in one streamed read:
    comparing with bytes already in memory costs far less than hashing them too."""
    digest = hashlib.sha256()
    same, offset = expected is not None, 0
    with open_regular(path) as handle:
        while chunk := handle.read(DIGEST_BUFFER):
            digest.update(chunk)
            # bytes slices compare with memcmp (a memoryview's compare item by item, ~40 times slower)
            same = same and expected is not None and expected[offset:offset + len(chunk)] == chunk
            offset += len(chunk)
    return digest.hexdigest(), same and expected is not None and offset == len(expected)


__all__ = ["DIGEST_BUFFER", "open_regular", "sha256_and_match", "sha256_file"]
