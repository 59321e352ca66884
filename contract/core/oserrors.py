"""One way to say what an operating-system error was: ``PATH: reason``, never Python's ``[Errno N] …``.

>>> os_error_text(FileNotFoundError(2, "No such file or directory", "a/b.json"))
'a/b.json: No such file or directory'
>>> os_error_text(OSError(18, "Invalid cross-device link", "a", None, "b"))  # (errno, text, path, winerror, path2)
'a -> b: Invalid cross-device link'
>>> os_error_text(PermissionError(13, "Permission denied"))
'Permission denied'
>>> os_error_text(FileNotFoundError(2, "No such file or directory", "x"), with_path=False)
'No such file or directory'
>>> os_error_reason(OSError("Error writing bytes to file. Detail: [errno 28] No space left on device"))
'No space left on device'
"""

from __future__ import annotations

import os
import re

_QUOTED_ERRNO = re.compile(r"\[errno (?P<number>[0-9]{1,4})\]", re.IGNORECASE)


def os_error_reason(exc: OSError) -> str:
    """The reason alone: the system's text, else (for an error that only quotes one, as Arrow's
    ``... Detail: [errno 28] No space left on device`` does) the system's text for the quoted error
    number, else the exception's own words, else its class name."""
    quoted = _QUOTED_ERRNO.search(exc.strerror or str(exc))
    if quoted is not None:
        return os.strerror(int(quoted["number"]))
    if exc.strerror:
        return exc.strerror
    return str(exc) or exc.__class__.__name__


def os_error_text(exc: OSError, *, with_path: bool = True) -> str:
    """``PATH: reason`` (``PATH -> OTHER: reason`` for a rename); the reason alone without a path."""
    reason = os_error_reason(exc)
    if not with_path or exc.filename is None:
        return reason
    first = os.fsdecode(exc.filename) if isinstance(exc.filename, bytes | os.PathLike) else str(exc.filename)
    if exc.filename2 is not None:
        return f"{first} -> {exc.filename2}: {reason}"
    return f"{first}: {reason}"


__all__ = ["os_error_reason", "os_error_text"]
