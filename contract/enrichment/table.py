"""The batch extractor as a plain function over a table, fit for Dask's ``map_partitions``.

``enrich_table(table, schema_id)`` takes a ``pyarrow.Table`` or a ``pandas.DataFrame`` with an ``id``
column, a ``fen`` column and optionally a ``side`` column, and returns the same kind of table with the
same rows in the same order (and, for pandas, the same index), every input column unchanged, plus:

* ``features``: a ``fixed_size_list<float32>[width]`` column (pandas: ``pd.ArrowDtype`` of that
  type), the schema's vector; null for a rejected row;
* ``error``: a string column, null for an accepted row, the reason for a rejected row.

Keeping rejected rows (instead of dropping them) keeps the partition length, so nothing can vanish
between the function and the writer; :func:`split_enriched` separates them. The column names of the
vector are in the output metadata (``contract.enrichment.formats.metadata``), not in the table.

Refused for the whole table (:class:`EnrichmentError`): a missing ``id`` or ``fen`` column, a column
name that appears twice, an input that already has a ``features`` or ``error`` column, and (for Arrow
tables and Parquet files, whose columns are typed) an ``id`` column that is neither strings nor
integers, a ``fen`` column that is not strings, a ``side`` column that is not strings — a column of
the wrong type would otherwise reject every row, one line each. Values of the right type are still
checked row by row (a null ``fen``, a side ``'x'``). pyarrow is required (``[parquet]`` extra).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from contract.enrichment.rows import (
    ERROR_FIELD,
    FEATURES_FIELD,
    FEN_FIELD,
    ID_FIELD,
    SIDE_FIELD,
    EnrichmentError,
    extract_cells,
)
from contract.features.extractors import ResolvedSchema, as_resolved

if TYPE_CHECKING:
    import pyarrow as pa

PYARROW_HINT = "install the Parquet extra: pip install 'dicechess-contract[parquet]'"


def require_pyarrow() -> Any:
    """The ``pyarrow`` module, or a refusal that says how to get it."""
    try:
        import pyarrow
    except ImportError:
        raise EnrichmentError(f"Parquet and table enrichment need pyarrow; {PYARROW_HINT}") from None
    return pyarrow


def _pandas() -> Any:
    """pandas if installed (imported by name: it is optional and the kit type-checks without its stubs)."""
    try:
        return importlib.import_module("pandas")
    except ImportError:
        return None


def features_type(schema: ResolvedSchema) -> pa.DataType:
    pa = require_pyarrow()
    return pa.list_(pa.float32(), schema.width)


def check_columns(names: list[str]) -> None:
    """Refuse a table that cannot be enriched, naming the column."""
    for required in (ID_FIELD, FEN_FIELD):
        if required not in names:
            raise EnrichmentError(f"the input has no {required!r} column (columns: {', '.join(names)})")
    for added in (FEATURES_FIELD, ERROR_FIELD):
        if added in names:
            raise EnrichmentError(f"the input already has a {added!r} column; rename it first")
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise EnrichmentError(f"the input has two columns named {name!r}; rename one first")
        seen.add(name)


def _is_text(pa: Any, kind: Any) -> bool:
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    is_view: Callable[[Any], bool] | None = getattr(pa.types, "is_string_view", None)  # pyarrow >= 16
    return bool(pa.types.is_string(kind) or pa.types.is_large_string(kind)
                or (is_view is not None and is_view(kind)))


def _is_integer(pa: Any, kind: Any) -> bool:
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    return bool(pa.types.is_integer(kind))


def _accepts(pa: Any, name: str, kind: Any) -> bool:
    if name == ID_FIELD:
        return _is_text(pa, kind) or _is_integer(pa, kind)
    if name == FEN_FIELD:
        return _is_text(pa, kind)
    return _is_text(pa, kind) or bool(pa.types.is_null(kind))  # side: all-null means "side to move"


_EXPECTED_TYPES = {ID_FIELD: "strings or integers", FEN_FIELD: "strings", SIDE_FIELD: "strings 'w'/'b' (or nulls)"}


def check_schema(schema: pa.Schema) -> None:
    """:func:`check_columns`, then the column types of a typed (Arrow) table, naming the column."""
    pa = require_pyarrow()
    check_columns(list(schema.names))
    for name, wanted in _EXPECTED_TYPES.items():
        if name in schema.names and not _accepts(pa, name, schema.field(name).type):
            raise EnrichmentError(f"column {name!r} has type {schema.field(name).type}; expected {wanted}")


def _enriched_columns(schema: ResolvedSchema, ids: list[Any], fens: list[Any], sides: list[Any]) -> tuple[Any, Any]:
    pa = require_pyarrow()
    batch = extract_cells(schema, zip(ids, fens, sides, strict=True))
    width = schema.width
    mask = pa.array([error is not None for error in batch.errors], type=pa.bool_())
    values = pa.array(batch.vectors.reshape(-1), type=pa.float32())
    features = pa.FixedSizeListArray.from_arrays(values, width, mask=mask)
    errors = pa.array(batch.errors, type=pa.string())
    return features, errors


def enrich_table(table: Any, schema_id: str | ResolvedSchema) -> Any:
    """``table`` (pyarrow.Table or pandas.DataFrame) plus ``features`` and ``error`` columns. ``schema_id``: an id
    (looked up once per call) or a schema resolved once for many calls
    (:func:`contract.features.extractors.resolve`: no look-up)."""
    pa = require_pyarrow()
    schema = as_resolved(schema_id)  # an unknown id is UnknownSchemaError (a KeyError) listing the known ids
    if isinstance(table, pa.Table):
        check_schema(table.schema)
        sides = (table.column(SIDE_FIELD).to_pylist() if SIDE_FIELD in table.column_names
                 else [None] * table.num_rows)
        features, errors = _enriched_columns(
            schema, table.column(ID_FIELD).to_pylist(), table.column(FEN_FIELD).to_pylist(), sides
        )
        return table.append_column(FEATURES_FIELD, features).append_column(ERROR_FIELD, errors)
    pd = _pandas()
    if pd is None or not isinstance(table, pd.DataFrame):
        raise TypeError(f"enrich_table takes a pyarrow.Table or a pandas.DataFrame, not {type(table).__name__}")
    check_columns([str(name) for name in table.columns])
    sides = table[SIDE_FIELD].tolist() if SIDE_FIELD in table.columns else [None] * len(table)
    features, errors = _enriched_columns(
        schema, table[ID_FIELD].tolist(), table[FEN_FIELD].tolist(), sides
    )
    out = table.copy(deep=False)
    out[FEATURES_FIELD] = pd.Series(pd.arrays.ArrowExtensionArray(features), index=table.index)
    out[ERROR_FIELD] = pd.Series(pd.arrays.ArrowExtensionArray(errors), index=table.index)
    return out


def enriched_meta(meta: Any, schema_id: str | ResolvedSchema) -> Any:
    """The empty frame Dask wants as ``meta=`` for ``map_partitions(enrich_table, schema_id)``."""
    return enrich_table(meta.iloc[:0], schema_id)


def split_enriched(enriched: pa.Table, first_line: int) -> tuple[pa.Table, list[tuple[Any, int, str]]]:
    """Accepted rows without the ``error`` column, and ``(id, line, error)`` for the rejected ones.

    ``first_line`` is the 1-based row number of the table's first row in its input file.
    """
    require_pyarrow()
    import pyarrow.compute as pc

    errors = enriched.column(ERROR_FIELD)
    accepted = enriched.filter(pc.is_null(errors)).drop_columns([ERROR_FIELD])
    rejects: list[tuple[Any, int, str]] = []
    if accepted.num_rows != enriched.num_rows:
        ids = enriched.column(ID_FIELD).to_pylist()
        for offset, error in enumerate(errors.to_pylist()):
            if error is not None:
                rejects.append((ids[offset], first_line + offset, error))
    return accepted, rejects
