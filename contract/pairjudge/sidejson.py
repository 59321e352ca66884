"""The side JSON files of a bundle (``config.json``, the tokenizer files, the weights index,
``adapter_config.json`` and those of ``base/``), read with a bound on the memory they take.

Python's ``json`` builds one object per value: an empty object, 2 bytes of text, takes about 60
bytes parsed, so a byte cap alone lets a file cost 25 times its size. :func:`memory_estimate` is an
upper bound of what parsing a text takes (measured on the worst shapes: empty objects and arrays,
many short keys, one-character non-ASCII strings; ``benchmarks/pairjudge_memory.py`` checks it):
4 bytes per byte of text plus 128 bytes per value, where the values are counted from the
characters that can start one (``,`` ``:`` ``[`` ``{``, inside strings too, so the count is never
low). A file whose estimate exceeds :data:`MAX_MEMORY` is refused before it is parsed, and a file
whose size alone exceeds it is refused before it is read; at most ``MAX_MEMORY // 4 + 1`` bytes
are ever read. The reference has no such bound; a bundle refused by it is a deliberate refusal
(docs/pairjudge.md).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from contract.core.checktable import PAIRJUDGE_TABLE as TABLE
from contract.core.oserrors import os_error_reason
from contract.core.regularfile import open_regular
from contract.pairjudge import referencejson

MAX_MEMORY = 512 * 1024 * 1024
BYTES_FACTOR = 4
VALUE_COST = 128
MAX_BYTES = MAX_MEMORY // BYTES_FACTOR


@dataclass(frozen=True)
class SideJson:
    """A parsed side file: its value (any JSON) and the reader's warnings."""

    value: Any
    warnings: tuple[str, ...]


def memory_estimate(data: bytes) -> int:
    """An upper bound, in bytes, of the memory Python's ``json`` takes to parse ``data``."""
    values = 1 + sum(data.count(char) for char in (b",", b":", b"[", b"{"))
    return BYTES_FACTOR * len(data) + VALUE_COST * values


def read_side_json(path: Path, name: str) -> SideJson | str | None:
    """The parsed file, None when there is no regular file at ``path``, or why it cannot be used
    (a sentence fragment naming ``name``). Never raises, never blocks on a FIFO."""
    if not os.path.isfile(path):
        return None
    try:
        with open_regular(path) as handle:
            if os.fstat(handle.fileno()).st_size > MAX_BYTES:
                return TABLE.text("detail.file.tooLarge", name=name, limit=MAX_BYTES)
            data = handle.read(MAX_BYTES + 1)
    except (OSError, ValueError) as exc:
        reason = os_error_reason(exc) if isinstance(exc, OSError) else str(exc)
        return TABLE.text("detail.file.unreadable", name=name, reason=reason)
    if len(data) > MAX_BYTES:  # it grew while being read
        return TABLE.text("detail.file.tooLarge", name=name, limit=MAX_BYTES)
    estimate = memory_estimate(data)
    if estimate > MAX_MEMORY:
        return TABLE.text("detail.file.tooManyValues", name=name, estimate=estimate, limit=MAX_MEMORY)
    parsed = referencejson.load(data, name, referencejson.SIDE_MAX_DEPTH)
    if isinstance(parsed, referencejson.JsonProblem):
        return parsed.problem
    return SideJson(parsed.value, parsed.warnings)
