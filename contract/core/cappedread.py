"""Reading a small regular file whole, with a cap: what is larger is refused, never read whole.

Refuses (raises OSError) what is not a regular file, without blocking on a FIFO or a device
(:func:`contract.model.package.open_regular`).
"""

from __future__ import annotations

from pathlib import Path

from contract.core.regularfile import open_regular


def read_capped(path: Path, limit: int) -> bytes | None:
    """The bytes of a regular file of at most ``limit`` bytes; ``None`` when it is larger (raises OSError)."""
    with open_regular(path) as handle:
        data = handle.read(limit + 1)
    return None if len(data) > limit else data


__all__ = ["read_capped"]
