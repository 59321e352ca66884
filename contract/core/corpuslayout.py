"""The text layout of the golden corpus files: the engine golden generator's layout, reproduced.

``fortemate/dicechess-training:tools/kcp13-golden`` writes a corpus as a two-space-indented object whose
scalar fields and scalar arrays sit on one line (arrays inline with ``", "``), and whose list of probes
is a list of blocks, one field per line, indented six spaces (spec/features.md §12). Every float in
such a file is a float32 printed with the shortest text that round-trips (Java ``Float.toString``:
``78.0``, ``0.4212963``). :func:`render` writes that layout for any object of that shape; it refuses
(``TypeError``) values it cannot lay out rather than guess, and refuses non-finite floats
(``ValueError``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from contract.core.floattext import float32_text

INDENT = "  "


def scalar(value: Any) -> str:
    """One JSON scalar; floats as float32 text."""
    if value is None or isinstance(value, bool | int | str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"a golden file holds only finite numbers, not {value!r}")
        return float32_text(value)
    raise TypeError(f"not a JSON scalar: {type(value).__name__}")


def _inline(value: Any) -> str:
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        return "{" + ", ".join(f"{json.dumps(k)}: {_inline(v)}" for k, v in value.items()) + "}"
    if isinstance(value, Sequence) and not isinstance(value, str):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    return scalar(value)


def _block(obj: Mapping[str, Any], depth: int) -> list[str]:
    pad = INDENT * (depth + 1)
    lines: list[str] = []
    items = list(obj.items())
    for index, (key, value) in enumerate(items):
        comma = "," if index < len(items) - 1 else ""
        head = f"{pad}{json.dumps(key)}: "
        is_block_list = (
            isinstance(value, Sequence) and not isinstance(value, str)
            and len(value) > 0 and all(isinstance(v, Mapping) for v in value)
        )
        if is_block_list:
            lines.append(head + "[")
            for item_index, item in enumerate(value):
                item_comma = "," if item_index < len(value) - 1 else ""
                lines.append(f"{pad}{INDENT}{{")
                lines.extend(_block(item, depth + 2))
                lines.append(f"{pad}{INDENT}}}{item_comma}")
            lines.append(f"{pad}]{comma}")
        else:
            lines.append(head + _inline(value) + comma)
    return lines


def render(obj: Mapping[str, Any]) -> bytes:
    """The corpus text: LF line endings and a trailing newline."""
    return ("\n".join(["{", *_block(obj, 0), "}"]) + "\n").encode("utf-8")
