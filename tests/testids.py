"""Test ids that pytest shows as they are: printable ASCII without a backslash.

pytest writes any other character of a parametrized id as an escape (``\\n``, ``\\u0663``), and an id
with an escape is not found again when it is passed back on the command line — mutmut does exactly
that for every mutant (tests/mutation), and its clean run then stops with "not found". Such characters
are written ``U+XXXX`` here instead, bytes outside printable ASCII ``xHH``.
"""

from __future__ import annotations


def plain_id(value: str | bytes) -> str:
    if isinstance(value, bytes):
        return "".join(chr(b) if 0x20 <= b < 0x7F and b != 0x5C else f"x{b:02X}" for b in value)
    return "".join(c if " " <= c <= "~" and c != "\\" else f"U+{ord(c):04X}" for c in value)
