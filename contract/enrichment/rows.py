"""Rows in, one vector or one error per row out: the kit's row rules, applied to chunks and table cells.

What makes a row acceptable, and the message for one that is not, is defined once, by
:func:`contract.features.rows.extract_rows` (also behind ``extract --fen`` and ``extract --input`` to
stdout). This module only adapts it for bulk work:

* table cells (pandas ``NA``/``NaN``/``NaT`` included) become the ``{id, fen, side}`` rows it reads,
  a missing value meaning an absent field, a numpy scalar its Python value (``np.int64(7)`` -> ``7``);
  a float id is refused as everywhere, with a hint (pandas makes floats of an integer column that has
  missing values);
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

from contract.core.errors import ContractError
from contract.features.extractors import ResolvedSchema, as_resolved
from contract.features.rows import RowResult, extract_matrix, extract_rows
from contract.features.rules import RuleSet

ID_FIELD = "id"
FEN_FIELD = "fen"
SIDE_FIELD = "side"
FEATURES_FIELD = "features"
ERROR_FIELD = "error"


class EnrichmentError(ContractError):
    """A whole run is refused (unreadable input, missing column, mismatched resume state, …)."""


class OptionError(EnrichmentError):
    """A run is refused because of how it was asked for (a usage error: exit code 2)."""


class InputError(EnrichmentError):
    """The input turned out unreadable part-way (a corrupt Parquet page, an I/O error): its chunks are
    worth nothing, so the run removes its parts directory and a plain rerun is not refused."""


@dataclass(frozen=True)
class RowBatch:
    """The outcome for a batch of rows: a float32 matrix and, per row, ``None`` or an error, and the id
    the row rules read (``None`` when the row had no usable one)."""

    vectors: npt.NDArray[np.float32]  # [n, width]; the rows of rejected entries are zero
    errors: list[str | None]
    ids: list[Any]


def is_missing(value: object) -> bool:
    """``None``, pandas' ``NA``/``NaT`` and float NaN all mean "no value" in a table cell."""
    if value is None:
        return True
    if isinstance(value, float):
        return math.isnan(value)
    return type(value).__name__ in {"NAType", "NaTType"}


def results(schema_id: str | ResolvedSchema, rows: Sequence[object], rules: RuleSet | None = None) -> list[RowResult]:
    """``extract_rows`` over ``rows``; if it raises, row by row, so only the failing row is rejected."""
    try:
        return list(extract_rows(schema_id, rows, rules=rules))
    except Exception:  # an extractor bug: find the row(s) it belongs to
        pass
    out: list[RowResult] = []
    for index, row in enumerate(rows):
        try:
            (result,) = extract_rows(schema_id, [row], rules=rules)
        except Exception as exc:
            row_id = row.get(ID_FIELD) if isinstance(row, dict) else None
            result = RowResult(0, row_id, None, f"extraction failed: {type(exc).__name__}: {exc}")
        out.append(RowResult(index, result.id, result.features, result.error))
    return out


FLOAT_ID_HINT = ("; pandas turns an integer column with missing values into floats:"
                 " give 'id' the nullable dtype 'Int64' (or strings)")


def cell_row(row_id: object, fen: object, side: object) -> dict[str, Any]:
    """The row a table's cells stand for: a missing cell is an absent field, a numpy scalar its value."""
    row: dict[str, Any] = {}
    for name, cell in ((ID_FIELD, row_id), (FEN_FIELD, fen), (SIDE_FIELD, side)):
        # numpy scalars in an object column: np.int64(7) is the id 7
        value = cell.item() if isinstance(cell, np.generic) else cell
        if not is_missing(value):
            row[name] = value
    return row


def extract_batch(schema_id: str | ResolvedSchema, rows: Sequence[object], rules: RuleSet | None = None) -> RowBatch:
    """:func:`results` over ``rows`` as one float32 matrix (zero rows for the rejected) and the errors;
    ``rules``: the rule set of the engine release asked for (``None``: the kit's default release, or the
    resolved schema's own). ``schema_id`` may be the run's resolved schema (no registry look-up then); an id
    is resolved here, once for the batch (an unknown one is :class:`UnknownSchemaError`)."""
    schema = as_resolved(schema_id, rules)
    try:
        return RowBatch(*extract_matrix(schema, rows))  # the same, without a result object per row
    except Exception:  # an extractor bug: results() finds the row(s) it belongs to
        pass
    outcome = results(schema, rows)
    vectors = np.zeros((len(outcome), schema.width), dtype=np.float32)
    for index, result in enumerate(outcome):
        if result.features is not None:
            vectors[index] = result.features
    return RowBatch(vectors, [result.error for result in outcome], [result.id for result in outcome])


def extract_cells(schema_id: str | ResolvedSchema, cells: Iterable[tuple[object, object, object]]) -> RowBatch:
    """Vectors for ``(id, fen, side)`` table cells; rejected rows get a zero vector and their error."""
    rows = [cell_row(*cell) for cell in cells]
    batch = extract_batch(schema_id, rows)
    errors = [error + FLOAT_ID_HINT if error is not None and isinstance(row.get(ID_FIELD), float) else error
              for row, error in zip(rows, batch.errors, strict=True)]
    return RowBatch(batch.vectors, errors, batch.ids)
