"""Rows in, one vector or one error per row out: the kit's row rules, applied to chunks and table cells.

What makes a row acceptable, and the message for one that is not, is defined once, by
:func:`contract.features.rows.extract_rows` (also behind ``extract --fen`` and ``extract --input`` to
stdout). This module only adapts it for bulk work:

* table cells (pandas ``NA``/``NaN``/``NaT`` included) become the ``{id, fen, side}`` rows it reads,
  a missing value meaning an absent field;
* a row whose extraction raises anything but a refusal (an extractor bug) is rejected with that
  error instead of ending the run, so one row can never take its chunk down with it.

Rejected rows are never dropped here: every input row gets a result.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from contract import registry
from contract.features.rows import RowResult, extract_rows

ID_FIELD = "id"
FEN_FIELD = "fen"
SIDE_FIELD = "side"
FEATURES_FIELD = "features"
ERROR_FIELD = "error"


class EnrichmentError(Exception):
    """A whole run is refused (unreadable input, missing column, mismatched resume state, …)."""


class OptionError(EnrichmentError):
    """A run is refused because of how it was asked for (a usage error: exit code 2)."""


@dataclass(frozen=True)
class RowBatch:
    """The outcome for a batch of rows: a float32 matrix and, per row, ``None`` or an error."""

    vectors: npt.NDArray[np.float32]  # [n, width]; the rows of rejected entries are zero
    errors: list[str | None]


def is_missing(value: object) -> bool:
    """``None``, pandas' ``NA``/``NaT`` and float NaN all mean "no value" in a table cell."""
    if value is None:
        return True
    if isinstance(value, float):
        return math.isnan(value)
    return type(value).__name__ in {"NAType", "NaTType"}


def results(schema_id: str, rows: Sequence[object]) -> list[RowResult]:
    """``extract_rows`` over ``rows``; if it raises, row by row, so only the failing row is rejected."""
    try:
        return list(extract_rows(schema_id, rows))
    except Exception:  # an extractor bug: find the row(s) it belongs to
        pass
    out: list[RowResult] = []
    for index, row in enumerate(rows):
        try:
            (result,) = extract_rows(schema_id, [row])
        except Exception as exc:
            row_id = row.get(ID_FIELD) if isinstance(row, dict) else None
            result = RowResult(0, row_id, None, f"extraction failed: {type(exc).__name__}: {exc}")
        out.append(RowResult(index, result.id, result.features, result.error))
    return out


def _cell_row(row_id: object, fen: object, side: object) -> dict[str, Any]:
    row: dict[str, Any] = {}
    for name, value in ((ID_FIELD, row_id), (FEN_FIELD, fen), (SIDE_FIELD, side)):
        if not is_missing(value):
            row[name] = value
    return row


def extract_cells(schema_id: str, cells: Iterable[tuple[object, object, object]]) -> RowBatch:
    """Vectors for ``(id, fen, side)`` table cells; rejected rows get a zero vector and their error."""
    outcome = results(schema_id, [_cell_row(*cell) for cell in cells])
    vectors = np.zeros((len(outcome), registry.get(schema_id).width), dtype=np.float32)
    for index, result in enumerate(outcome):
        if result.features is not None:
            vectors[index] = result.features
    return RowBatch(vectors, [result.error for result in outcome])
