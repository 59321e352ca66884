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

__all__ = ["float32_bits", "float32_text", "is_float32", "parse_float32"]


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
