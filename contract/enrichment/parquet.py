"""Parquet in, Parquet out, a chunk of rows at a time (pyarrow is the optional ``[parquet]`` extra).

The output keeps every input column and its type and adds ``features`` as
``fixed_size_list<float32>[width]``. The Arrow schema metadata carries the enrichment metadata under
``dicechess.enrichment`` (the input's own metadata is kept, except a stale ``pandas`` entry).

The bytes are a function of the input rows, the schema id and the chunk size only: one row group per
input chunk (rejected rows removed), fixed writer options, contiguous arrays. That is what lets the
single-process path, a resumed run and the Dask example (``write_enriched``) agree byte for byte.

Columns of Arrow's view types (``string_view``, ``binary_view``, ``list_view``, …, which some
writers store and which Arrow's selection kernels do not support) are read as their plain
equivalents (``string``, ``binary``, ``list``, …): the output has the plain type.

A chunk holds at most ``chunk_size`` rows, fewer when rows are wide: :func:`rows_per_chunk` derives
one row count per file from the Parquet metadata (the widest row group's uncompressed bytes per row)
so that a chunk stays within the byte budget; the CLI, a resumed run and the Dask writer use the same
count, so their row groups, and bytes, agree.

Refused: a file that is not Parquet, an input without ``id``/``fen`` columns, with a duplicate column
name, with columns of the wrong type, or that already has ``features``/``error`` columns (see
``table.check_schema``), a missing pyarrow (with the command that installs it). Data that turns out
unreadable part-way (a corrupt page) is an :class:`~contract.enrichment.rows.InputError` naming the file.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from contract.core import registry
from contract.core.stagedfile import StagedFile, sync_path
from contract.enrichment import budget
from contract.enrichment.metadata import METADATA_KEY, metadata_text
from contract.enrichment.rows import ERROR_FIELD, FEATURES_FIELD, ID_FIELD, EnrichmentError, InputError
from contract.enrichment.table import (
    check_schema,
    enrich_table,
    features_type,
    require_pyarrow,
    split_enriched,
)
from contract.features.rows import RowResult, format_row

if TYPE_CHECKING:
    import pyarrow as pa

# One place for every option that affects the bytes written.
WRITE_OPTIONS: dict[str, Any] = {
    "compression": "zstd",
    "use_dictionary": True,
    "write_statistics": True,
    "version": "2.6",
    "data_page_version": "1.0",
}

Reject = tuple[Any, int, str]  # (id, 1-based row number, error)


def _pq() -> Any:
    require_pyarrow()
    import pyarrow.parquet as pq

    return pq


_VIEWS = (("is_string_view", "string"), ("is_binary_view", "binary"))
_LIST_VIEWS = (("is_list_view", "list_"), ("is_large_list_view", "large_list"))


def plain_type(kind: Any) -> Any:
    """``kind`` with every Arrow view type replaced by its plain equivalent (recursively)."""
    pa = require_pyarrow()
    types = pa.types
    for test, plain in _VIEWS:
        if getattr(types, test, lambda _: False)(kind):
            return getattr(pa, plain)()
    for test, plain in _LIST_VIEWS:
        if getattr(types, test, lambda _: False)(kind):
            return getattr(pa, plain)(kind.value_field.with_type(plain_type(kind.value_type)))
    if types.is_list(kind) or types.is_large_list(kind):
        maker = pa.list_ if types.is_list(kind) else pa.large_list
        return maker(kind.value_field.with_type(plain_type(kind.value_type)))
    if types.is_fixed_size_list(kind):
        return pa.list_(kind.value_field.with_type(plain_type(kind.value_type)), kind.list_size)
    if types.is_struct(kind):
        return pa.struct([kind.field(i).with_type(plain_type(kind.field(i).type)) for i in range(kind.num_fields)])
    if types.is_map(kind):
        return pa.map_(plain_type(kind.key_type), kind.item_field.with_type(plain_type(kind.item_type)))
    if types.is_dictionary(kind):
        return pa.dictionary(kind.index_type, plain_type(kind.value_type), kind.ordered)
    return kind


def plain_schema(schema: pa.Schema) -> pa.Schema:
    """The schema with view types replaced (the same object when there are none)."""
    pa = require_pyarrow()
    fields = [field.with_type(plain_type(field.type)) for field in schema]
    if all(new.type == old.type for new, old in zip(fields, schema, strict=True)):
        return schema
    return pa.schema(fields, metadata=schema.metadata)


def read_raw_schema(path: Path) -> pa.Schema:
    """The Arrow schema a Parquet file stores, as it is (no view type made plain, nothing checked)."""
    pa = require_pyarrow()
    try:
        return _pq().read_schema(path)
    except (pa.ArrowException, OSError) as exc:
        raise EnrichmentError(f"{path}: not a readable Parquet file ({exc})") from None


def input_schema(path: Path) -> pa.Schema:
    """The Arrow schema of a Parquet input (view types made plain), checked for ``id``/``fen`` and free
    output names."""
    schema = plain_schema(read_raw_schema(path))
    check_schema(schema)
    check_cell_metadata(path)
    return schema


def check_cell_metadata(path: Path) -> None:
    """Refuse, before reading any data, a column chunk whose recorded uncompressed size shows a cell over
    the cell limit (its values average more than the limit): such a page would have to be decoded whole."""
    metadata = _pq().ParquetFile(path).metadata
    for group in range(metadata.num_row_groups):
        row_group = metadata.row_group(group)
        for index in range(row_group.num_columns):
            column = row_group.column(index)
            if column.physical_type != "BYTE_ARRAY" or column.num_values <= 0:
                continue
            if column.total_uncompressed_size > column.num_values * (budget.CELL_LIMIT + 4):
                raise EnrichmentError(
                    f"{path}: column {column.path_in_schema!r} of row group {group} holds"
                    f" {column.total_uncompressed_size} bytes for {column.num_values} values: a cell may hold at"
                    f" most {budget.CELL_LIMIT} bytes (as a JSONL line); nothing was written")


def input_rows(path: Path) -> int:
    return int(_pq().ParquetFile(path).metadata.num_rows)


def rows_per_chunk(path: Path, chunk_size: int, chunk_bytes: int) -> int:
    """Rows per chunk for this file: ``chunk_size``, or fewer so that a chunk of the widest row group's
    rows stays within ``chunk_bytes`` (uncompressed, as the Parquet metadata records it); at least 1."""
    metadata = _pq().ParquetFile(path).metadata
    widest = 0.0
    for index in range(metadata.num_row_groups):
        group = metadata.row_group(index)
        if group.num_rows:
            widest = max(widest, group.total_byte_size / group.num_rows)
    if widest <= 0:
        return chunk_size
    return max(1, min(chunk_size, int(chunk_bytes // widest)))


def read_plain_table(path: Path) -> pa.Table:
    """A whole Parquet file (a Dask shard) with view types made plain; a cell over the cell limit is an
    :class:`InputError` before anything is expanded (text is read in dictionary form first)."""
    pa = require_pyarrow()
    try:
        source, plain = _open(path)
        table = source.read()
        _checked_sizes(pa, path, table, 1)
        return _plain_table(pa, table, plain)
    except (pa.ArrowException, OSError) as exc:
        raise InputError(f"{path}: the Parquet data cannot be read ({exc}); nothing was written") from None


def output_schema(source: pa.Schema, schema_id: str) -> pa.Schema:
    """The input schema plus ``features``, with the enrichment metadata (and no stale pandas entry)."""
    metadata = {key: value for key, value in (source.metadata or {}).items() if key != b"pandas"}
    metadata[METADATA_KEY.encode()] = metadata_text(schema_id).encode("utf-8")
    return source.remove_metadata().append(
        require_pyarrow().field(FEATURES_FIELD, features_type(schema_id))
    ).with_metadata(metadata)


def iter_table_chunks(path: Path, chunk_size: int, chunk_bytes: int) -> Iterator[pa.Table]:
    """Tables of at most ``chunk_size`` rows and about ``chunk_bytes`` decoded bytes (cut by
    :class:`~contract.enrichment.budget.Cutter`), whatever the row groups, view types made plain. Data
    that cannot be read, or a cell over the cell limit, is an :class:`InputError` naming the file."""
    pa = require_pyarrow()
    try:
        yield from _table_chunks(pa, path, chunk_size, chunk_bytes)
    except (pa.ArrowException, OSError) as exc:
        raise InputError(f"{path}: the Parquet data cannot be read ({exc}); nothing was written") from None


READ_BUFFER_BYTES = 1 << 20


def _open(path: Path) -> tuple[Any, pa.Schema]:
    # Buffered column reads, no pre-buffering: otherwise Arrow reads whole row groups ahead, and memory
    # follows the file's size (1 GB of 1 MB rows: 1.1 GiB in Arrow's pool, against 160 MiB buffered).
    # Text and binary columns in dictionary form: a repeated value is decoded once, never per row.
    pa = require_pyarrow()
    schema = _pq().read_schema(path)
    text = [field.name for field in schema
            if budget.is_binary_like(pa, field.type) and not pa.types.is_dictionary(field.type)]
    source = _pq().ParquetFile(path, buffer_size=READ_BUFFER_BYTES, pre_buffer=False, read_dictionary=text)
    return source, plain_schema(schema)


def _checked_sizes(pa: Any, path: Path, table: Any, first_row: int) -> Any:
    try:
        return budget.row_sizes(pa, table)
    except budget.CellTooLarge as big:
        raise InputError(
            f"{path}: row {first_row + big.row} column {big.column!r} holds {big.size} bytes; a cell may hold"
            f" at most {budget.CELL_LIMIT} bytes (as a JSONL line); nothing was written"
        ) from None


def _plain_table(pa: Any, table: Any, plain: pa.Schema) -> pa.Table:
    """``table`` (a table or record batch) as contiguous arrays of ``plain``, column by column."""
    columns = []
    for name, field in zip(table.schema.names, plain, strict=True):
        column = table.column(name)
        chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
        plain_chunks = [plain_array(pa, chunk, field.type) for chunk in chunks]
        columns.append(pa.chunked_array(plain_chunks, type=field.type))
    return pa.Table.from_arrays(columns, schema=plain).combine_chunks()


def plain_array(pa: Any, array: Any, kind: Any) -> Any:
    """``array`` as type ``kind`` (its plain equivalent): list views rebuilt as lists from their
    logical values (Arrow's own cast of a list view gives an invalid list array), the rest cast."""
    if array.type == kind:
        return array
    types = pa.types
    listy = [getattr(types, test, lambda _: False)(array.type)
             for test in ("is_list_view", "is_large_list_view", "is_list", "is_large_list")]
    if any(listy) and (types.is_list(kind) or types.is_large_list(kind)):
        import pyarrow.compute as pc

        lengths = np.asarray(pc.list_value_length(array).fill_null(0).to_numpy(zero_copy_only=False))
        wide = types.is_large_list(kind)
        offsets = pa.array(np.concatenate([[0], np.cumsum(lengths)]), pa.int64() if wide else pa.int32())
        values = plain_array(pa, array.flatten(), kind.value_type)
        maker = pa.LargeListArray if wide else pa.ListArray
        mask = array.is_null() if array.null_count else None
        return maker.from_arrays(offsets, values, type=kind, mask=mask)
    if types.is_struct(array.type) and types.is_struct(kind):
        children = [plain_array(pa, child, kind.field(i).type) for i, child in enumerate(array.flatten())]
        mask = array.is_null() if array.null_count else None
        return pa.StructArray.from_arrays(children, fields=list(kind), mask=mask)
    return array.cast(kind)


def _table_chunks(pa: Any, path: Path, chunk_size: int, chunk_bytes: int) -> Iterator[pa.Table]:
    source, plain = _open(path)
    cutter = budget.Cutter(chunk_size, chunk_bytes)
    pending: list[pa.Table] = []
    row = 1
    for batch in source.iter_batches(batch_size=chunk_size):
        sizes = _checked_sizes(pa, path, batch, row)
        row += batch.num_rows
        for start, stop, ends in cutter.pieces(sizes):
            pending.append(_plain_table(pa, batch.slice(start, stop - start), plain))
            if ends:
                yield pa.concat_tables(pending).combine_chunks()
                pending = []
    if pending:
        yield pa.concat_tables(pending).combine_chunks()


def conform(accepted: pa.Table, target: pa.Schema) -> pa.Table:
    """Accepted rows as contiguous arrays of exactly the output schema."""
    return accepted.select(target.names).cast(target).combine_chunks()


def encode_chunk(schema_id: str, table: pa.Table, first_line: int) -> tuple[pa.Table, list[Reject]]:
    """Enrich one chunk (runs in a worker process): the accepted rows (with ``features``) and the rejects."""
    return split_enriched(enrich_table(table, schema_id), first_line)


def rows_schema(schema_id: str) -> pa.Schema:
    """The Parquet output of JSONL rows: ``id`` (text: an integer id as its decimal digits) and
    ``features``, with the enrichment metadata."""
    pa = require_pyarrow()
    return pa.schema(
        [pa.field(ID_FIELD, pa.string()), pa.field(FEATURES_FIELD, features_type(schema_id))],
        metadata={METADATA_KEY.encode(): metadata_text(schema_id).encode("utf-8")},
    )


def results_table(schema_id: str, accepted: list[RowResult], target: pa.Schema) -> pa.Table:
    """Accepted JSONL rows as a table of ``target`` (:func:`rows_schema`)."""
    pa = require_pyarrow()
    width = registry.get(schema_id).width
    vectors = (np.stack([result.features for result in accepted if result.features is not None])
               if accepted else np.zeros((0, width), dtype=np.float32))
    ids = pa.array([str(result.id) for result in accepted], type=pa.string())
    features = pa.FixedSizeListArray.from_arrays(pa.array(vectors.reshape(-1), type=pa.float32()), width)
    return pa.Table.from_arrays([ids, features], schema=target)


def table_lines(schema_id: str, accepted: pa.Table) -> bytes:
    """Accepted Parquet rows as ``extract`` output lines (``{"id", "schema", "features"}``)."""
    width = registry.get(schema_id).width
    ids = accepted.column(ID_FIELD).to_pylist()
    column = accepted.column(FEATURES_FIELD).combine_chunks()
    vectors = np.asarray(column.flatten().to_numpy(zero_copy_only=False), dtype=np.float32).reshape(-1, width)
    return "".join(format_row(schema_id, RowResult(index, row_id, vector)) + "\n"
                   for index, (row_id, vector) in enumerate(zip(ids, vectors, strict=True))).encode("utf-8")


def write_part(path: Path, table: pa.Table) -> None:
    """Store a finished chunk as an Arrow IPC file, under a temporary name renamed on completion."""
    pa = require_pyarrow()
    staged = StagedFile(path)
    try:
        with pa.OSFile(str(staged.tmp), "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
            writer.write_table(table)
        sync_path(staged.tmp)
    except BaseException:
        staged.discard()
        raise
    staged.publish()


def read_part(path: Path) -> pa.Table:
    pa = require_pyarrow()
    with pa.OSFile(str(path), "rb") as source:
        return pa.ipc.open_file(source).read_all()


class ParquetOutput:
    """A Parquet file written row group by row group into a temporary sibling, renamed by :meth:`commit`."""

    def __init__(self, path: Path, schema: pa.Schema) -> None:
        self.path = path
        self.schema = schema
        self._staged = StagedFile(path)
        self._writer = _pq().ParquetWriter(str(self._staged.tmp), schema, **WRITE_OPTIONS)

    def write(self, table: pa.Table) -> None:
        """Append one chunk's accepted rows as one row group (an empty chunk writes nothing)."""
        if table.num_rows:
            self._writer.write_table(table, row_group_size=table.num_rows)

    def finish(self) -> StagedFile:
        """Close and fsync the temporary file; the caller publishes (renames) it."""
        try:
            self._writer.close()
            sync_path(self._staged.tmp)
        except BaseException:
            self._staged.discard()
            raise
        return self._staged

    def commit(self) -> None:
        self.finish().publish()

    def abandon(self) -> None:
        self._writer.close()
        self._staged.discard()


def write_enriched(
    enriched: Any, path: Path, schema_id: str, source: pa.Schema, *, chunk_size: int, chunk_bytes: int
) -> list[Reject]:
    """Write an already-enriched whole shard (``enrich_table`` output) exactly as the CLI would.

    ``enriched`` may be a pyarrow Table or a pandas DataFrame (a Dask partition); ``source`` is the
    shard's input Arrow schema. Row groups follow the same cut over *input* rows as the chunked path
    (``chunk_size`` rows, ``chunk_bytes`` decoded bytes), so the bytes are identical. Returns the
    rejects, with 1-based row numbers.
    """
    pa = require_pyarrow()
    target = output_schema(source, schema_id)
    if not isinstance(enriched, pa.Table):
        with_error = source.remove_metadata().append(pa.field(FEATURES_FIELD, features_type(schema_id)))
        with_error = with_error.append(pa.field(ERROR_FIELD, pa.string()))
        enriched = pa.Table.from_pandas(enriched, schema=with_error, preserve_index=False)
    output = ParquetOutput(path, target)
    rejects: list[Reject] = []
    sizes = budget.row_sizes(pa, enriched, list(source.names))
    try:
        start = 0
        for length in budget.chunk_lengths(sizes, chunk_size, chunk_bytes):
            accepted, chunk_rejects = split_enriched(enriched.slice(start, length), start + 1)
            output.write(conform(accepted, target))
            rejects.extend(chunk_rejects)
            start += length
    except BaseException:
        output.abandon()
        raise
    output.commit()
    return rejects
