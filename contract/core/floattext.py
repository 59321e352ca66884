"""Shortest text for a float32 that reads back to the same float32, in Java ``Float.toString`` form.

The recorded goldens print features with Java's ``Float.toString``: the fewest decimal digits that
round-trip, at least one digit after the point (``78.0``), plain notation for magnitudes in
[1e-3, 1e7) and computerised scientific notation outside it (``1.0E-4``, ``1.2345678E7``). Reading such
a text as a double and casting to float32 gives the original bits back. Non-finite values print as
Java does (``NaN``, ``Infinity``, ``-Infinity``); JSON writers must refuse them.
"""

from __future__ import annotations

import math
import struct

import numpy as np

__all__ = ["float32_bits", "float32_text", "float32_text_rows", "is_float32", "parse_float32"]


def float32_text(value: float | np.floating) -> str:
    """``float32_text(np.float32(0.4212963))`` -> ``'0.4212963'``; ``78.0`` -> ``'78.0'``."""
    x = np.float32(value)
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    magnitude = abs(float(x))
    if magnitude == 0.0 or 1e-3 <= magnitude < 1e7:
        return np.format_float_positional(x, unique=True, trim="0")
    text = np.format_float_scientific(x, unique=True, trim="0", exp_digits=1)
    mantissa, exponent = text.split("e")
    return f"{mantissa}E{int(exponent)}"


_REMEMBERED: dict[int, str] = {}  # float32 bit pattern -> float32_text, for float32_text_rows
REMEMBERED_LIMIT = 1 << 16  # patterns remembered across calls; feature values repeat (counts, /216 and /5 fractions)


def float32_text_rows(matrix: np.ndarray, separator: str = ", ") -> list[str]:
    """Each row of a float32 ``[n, width]`` matrix as its values' :func:`float32_text` joined by ``separator``.

    The same text as ``separator.join(map(float32_text, row))``, built for many rows at once: each distinct
    bit pattern of the matrix is written once (and remembered, up to :data:`REMEMBERED_LIMIT` patterns, for
    the next call), then every row is a join of looked-up texts. ``0.0`` and ``-0.0`` are distinct patterns.

    >>> float32_text_rows(np.array([[0.5, 78.0], [-0.0, 1e-4]], dtype=np.float32))
    ['0.5, 78.0', '-0.0, 1.0E-4']
    """
    bits = np.ascontiguousarray(matrix, dtype=np.float32).view(np.uint32)
    if bits.ndim != 2:
        raise ValueError(f"float32_text_rows needs a 2-dimensional matrix, not {bits.ndim} dimensions")
    texts = _REMEMBERED
    new = [pattern for pattern in np.unique(bits).tolist() if pattern not in texts]
    if new:
        values = np.array(new, dtype=np.uint32).view(np.float32)
        written = dict(zip(new, map(float32_text, values), strict=True))
        room = REMEMBERED_LIMIT - len(_REMEMBERED)
        _REMEMBERED.update(list(written.items())[:max(room, 0)])
        if len(written) > room:  # more than the memory keeps: this call uses its own table
            texts = {**_REMEMBERED, **written}
    look_up = texts.__getitem__
    return [separator.join(map(look_up, row)) for row in bits.tolist()]


def parse_float32(text: str) -> np.float32:
    """The float32 a golden's number text denotes (parse as double, round to float32)."""
    return np.float32(float(text))


def float32_bits(value: float | np.floating) -> str:
    """The float32 bit pattern as ``0x`` and eight hex digits: ``float32_bits(-13.0)`` -> ``'0xc1500000'``.

    A value outside float32's range (a double such as ``1e300``) has no float32 pattern and raises
    ``OverflowError``; callers showing foreign answers check :func:`is_float32` first.
    """
    return "0x" + struct.pack(">f", float(value)).hex()


def is_float32(value: object) -> bool:
    """Whether ``value`` is a number that has a float32 pattern (not a bool, not out of range)."""
    if isinstance(value, bool) or not isinstance(value, int | float | np.floating):
        return False
    try:
        struct.pack(">f", float(value))
    except (OverflowError, struct.error):
        return False
    return True
