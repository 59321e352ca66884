"""Cell-level differences between two sets of vectors, the drift table, and the drift log.

A *drift* is a cell of an existing probe (same schema, same probe id) whose float32 bit pattern would
change; new probes and new schemas are not drift. ``regenerate`` refuses any drift unless given
``--accept-drift REASON``; the accepted cells and the reason are appended to ``golden/drift-log.json``
(:func:`append_to_log`), which keeps every accepted change with its justification. A drift log that is
not a valid log is refused (``VectorFileError``) rather than overwritten.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from contract.core import formatversion
from contract.core.floattext import float32_text
from contract.core.strictjson import StrictJsonError, dumps
from contract.core.strictjson import parse as parse_json
from contract.recordings.vectorfile import VectorFile, VectorFileError, read

VECTOR_PREFIX = "golden/vectors/"
LOG_DESCRIPTION = (
    "Changes to existing probes' vectors accepted by 'python -m contract.golden regenerate "
    "--accept-drift REASON', oldest first, each with its reason and every changed cell."
)


@dataclass(frozen=True)
class Cell:
    """One differing value: where it is and the two float32 values."""

    schema: str
    probe: str
    column: str
    old: float
    new: float


def compare(old: VectorFile, new: VectorFile) -> list[Cell]:
    """Cells of probes present in both files whose bits differ (a changed column list counts whole)."""
    cells: list[Cell] = []
    for probe_id, before in old.probes.items():
        after = new.probes.get(probe_id)
        if after is None:
            continue
        if old.columns != new.columns:
            columns = new.columns if len(new.columns) == len(before.features) else old.columns
        else:
            columns = new.columns
        width = max(len(before.features), len(after.features))
        old_bits, new_bits = before.bits(), after.bits()
        for index in range(width):
            if index >= len(old_bits) or index >= len(new_bits) or old_bits[index] != new_bits[index]:
                cells.append(Cell(
                    new.schema,
                    probe_id,
                    columns[index] if index < len(columns) else f"#{index}",
                    before.features[index] if index < len(before.features) else float("nan"),
                    after.features[index] if index < len(after.features) else float("nan"),
                ))
    return cells


def vector_drift(old_files: Mapping[str, bytes | None], new_files: Mapping[str, bytes]) -> list[Cell]:
    """Drift over every vector file present both on disk and in the regenerated set."""
    cells: list[Cell] = []
    for path, data in new_files.items():
        before = old_files.get(path)
        if not path.startswith(VECTOR_PREFIX) or before is None:
            continue
        try:
            old = read(path + " (committed)", before)
        except VectorFileError:
            continue  # an unreadable committed file is a check failure, not drift of a probe
        cells.extend(compare(old, read(path, data)))
    return cells


def _text(value: float) -> str:
    return "(none)" if math.isnan(value) else float32_text(value)


def table(cells: Sequence[Cell], headers: tuple[str, str, str, str, str] = (
        "schema", "probe", "column", "old", "new"), limit: int = 200) -> str:
    """A fixed-width table of cells, at most ``limit`` rows (the rest counted)."""
    rows = [headers] + [(c.schema, c.probe, c.column, _text(c.old), _text(c.new)) for c in cells[:limit]]
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    lines = ["  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    if len(cells) > limit:
        lines.append(f"... and {len(cells) - limit} more cells")
    return "\n".join(lines)


def _number(value: float) -> float | None:
    """A cell value for the log: the float32 text's double, or null for a cell that did not exist."""
    return None if math.isnan(value) else float(float32_text(value))


def empty_log() -> dict[str, Any]:
    return {"formatVersion": formatversion.current("drift-log"), "description": LOG_DESCRIPTION, "entries": []}


def read_log(data: bytes | None) -> dict[str, Any]:
    if data is None:
        return empty_log()
    try:
        log = parse_json(data)
    except StrictJsonError as exc:
        raise VectorFileError(f"golden/drift-log.json: {exc}") from None
    if not isinstance(log, dict) or not isinstance(log.get("entries"), list):
        raise VectorFileError("golden/drift-log.json: must be an object with an 'entries' list")
    why = formatversion.problem(log, "drift-log")
    if why is not None:
        raise VectorFileError(f"golden/drift-log.json: {why}")
    return log


def append_to_log(data: bytes | None, reason: str, cells: Sequence[Cell]) -> bytes:
    """The drift log with one more entry (the reason and every accepted cell)."""
    log = read_log(data)
    log["entries"].append({
        "reason": reason,
        "changes": [
            {"schema": c.schema, "probe": c.probe, "column": c.column,
             "old": _number(c.old), "new": _number(c.new)}
            for c in cells
        ],
    })
    return dumps(log).encode("utf-8")


def log_bytes(log: Mapping[str, Any]) -> bytes:
    return dumps(dict(log)).encode("utf-8")
