"""The Parquet format: rows with ``id``, ``fen`` (and optionally ``side``) in; every input column plus
``features`` out (one format module; pyarrow is the optional ``[parquet]`` extra).

The output keeps every input column and its type and adds ``features`` as
``fixed_size_list<float32>[width]``; rows without columns of their own (from JSONL, or ``--fen``) are
written as ``id`` (text: an integer id as its decimal digits) and ``features``. The Arrow schema metadata
carries the enrichment metadata under ``dicechess.enrichment`` (the input's own metadata is kept, except
a stale ``pandas`` entry).

The bytes are a function of the input rows, the schema id and the chunk size only: one row group per
input chunk (rejected rows removed), fixed writer options (:mod:`~contract.enrichment.parquet.parquetfile`),
contiguous arrays. That is what lets the single-process run, ``--jobs N``, a resumed run and the Dask
example (:func:`contract.enrichment.runs.shards.write_shard`) agree byte for byte.

A chunk holds at most ``chunk_size`` rows, fewer when rows are wide:
:func:`~contract.enrichment.parquet.parquetfile.rows_per_chunk` derives one row count per file from the Parquet
metadata so that a chunk stays within the byte budget; the CLI, a resumed run and the Dask writer use the
same count, so their row groups, and bytes, agree.

Refused for the whole file, before any output: a file that is not Parquet, an input without
``id``/``fen`` columns, with a duplicate column name, with columns of the wrong type, or that already has
``features``/``error`` columns (``table.check_schema``), a column chunk whose recorded size shows a cell
over the cell limit; a missing pyarrow (with the command that installs it). Refused per row: what
``extract_rows`` refuses, an ``id``, ``fen`` or ``side`` cell whose bytes are not UTF-8
(:mod:`~contract.enrichment.parquet.texts`), and (for rows without columns of their own) an id with no UTF-8 form.
"""

from __future__ import annotations

from pathlib import Path
from typing import IO, TYPE_CHECKING

import numpy as np

from contract.enrichment.format import Batch, Chunk, Companion, Encoded, Reject
from contract.enrichment.formats.metadata import METADATA_KEY, metadata_text
from contract.enrichment.parquet import parquetfile, texts
from contract.enrichment.parquet.views import plain_schema
from contract.enrichment.rows import (
    FEATURES_FIELD,
    FEN_FIELD,
    ID_FIELD,
    SIDE_FIELD,
    EnrichmentError,
    RowBatch,
    cell_row,
)
from contract.enrichment.table import check_schema, features_type, require_pyarrow
from contract.features.extractors import ResolvedSchema
from contract.features.rows import BadRow

if TYPE_CHECKING:
    from collections.abc import Iterator

    import pyarrow as pa

NAME = "parquet"
EXTENSIONS = (".parquet", ".pq")
PART_SUFFIX = ".arrow"  # a finished chunk is an Arrow IPC file
NOT_UNICODE_ID = "id is not valid Unicode (it holds a lone surrogate, e.g. from a \\ud800 escape)"


def input_schema(path: Path) -> pa.Schema:
    """The Arrow schema of a Parquet input (view types made plain), checked for ``id``/``fen`` and free
    output names, and for a cell over the cell limit that the file's metadata already shows."""
    schema = plain_schema(parquetfile.read_raw_schema(path))
    check_schema(schema)
    parquetfile.check_cell_metadata(path)
    return schema


def output_schema(source: pa.Schema, schema: ResolvedSchema) -> pa.Schema:
    """The input schema plus ``features``, with the enrichment metadata (and no stale pandas entry)."""
    metadata = {key: value for key, value in (source.metadata or {}).items() if key != b"pandas"}
    metadata[METADATA_KEY.encode()] = metadata_text(schema).encode("utf-8")
    return source.remove_metadata().append(
        require_pyarrow().field(FEATURES_FIELD, features_type(schema))
    ).with_metadata(metadata)


def rows_schema(schema: ResolvedSchema) -> pa.Schema:
    """The output of rows without columns of their own: ``id`` (text) and ``features``, with the metadata."""
    pa = require_pyarrow()
    return pa.schema(
        [pa.field(ID_FIELD, pa.string()), pa.field(FEATURES_FIELD, features_type(schema))],
        metadata={METADATA_KEY.encode(): metadata_text(schema).encode("utf-8")},
    )


def conform(accepted: pa.Table, target: pa.Schema) -> pa.Table:
    """Accepted rows as contiguous arrays of exactly the output schema."""
    return accepted.select(target.names).cast(target).combine_chunks()


class _Reader:
    """A Parquet input by path, re-cut into chunks of one row count per file (see the module docstring)."""

    label = "row"

    def __init__(self, path: Path) -> None:
        self.path = path
        self.carried = input_schema(path)

    def chunks(self, rows: int, budget: int) -> Iterator[Chunk]:
        return parquetfile.chunks(self.path, parquetfile.rows_per_chunk(self.path, rows, budget), budget)

    def close(self) -> None:
        return None


def open_reader(source: Path | IO[bytes], name: str) -> _Reader:
    if not isinstance(source, Path):
        raise EnrichmentError(f"{name}: Parquet is read from a file, not from a stream")
    return _Reader(source)


def decode(payload: pa.Table, first: int) -> Batch:
    """A chunk's ``id``/``fen``/``side`` cells as rows (a null cell is an absent field); the chunk is carried."""
    sides = (texts.cells(payload.column(SIDE_FIELD)) if SIDE_FIELD in payload.column_names
             else [None] * payload.num_rows)
    cells = zip(texts.cells(payload.column(ID_FIELD)), texts.cells(payload.column(FEN_FIELD)), sides, strict=True)
    return Batch([_row(*cell) for cell in cells], range(first, first + payload.num_rows), payload)


def _row(row_id: object, fen: object, side: object) -> object:
    """The row the cells stand for, or a :class:`BadRow` naming a text cell that is not UTF-8 (its id, when
    that is the bad cell, written with ``\\xNN`` for the bytes that are not UTF-8)."""
    bad = texts.first_bad((row_id, fen, side), (ID_FIELD, FEN_FIELD, SIDE_FIELD))
    if bad is None:
        return cell_row(row_id, fen, side)
    shown_id = row_id.text if isinstance(row_id, texts.NotUtf8) else row_id
    return BadRow(bad[1].problem(bad[0]), shown_id)


def target(schema: ResolvedSchema, carried: pa.Schema | None, engine: str | None) -> pa.Schema:
    """The output's Arrow schema: the carried columns plus ``features``, or ``id`` and ``features``."""
    return rows_schema(schema) if carried is None else output_schema(carried, schema)


def stamped(target: pa.Schema, extra: dict[bytes, bytes]) -> pa.Schema:
    """``target`` with the additional metadata keys ``extra`` (never replacing the kit's own key)."""
    if not extra:
        return target
    if set(extra) & set(target.metadata or {}):
        raise RuntimeError(f"additional metadata would replace the keys {sorted(set(extra) & set(target.metadata))}")
    return target.with_metadata({**(target.metadata or {}), **extra})


def _utf8(row_id: object) -> bool:
    if isinstance(row_id, str):
        try:
            row_id.encode("utf-8")
        except UnicodeEncodeError:
            return False
    return True


def encode(schema: ResolvedSchema, batch: Batch, found: RowBatch, target: pa.Schema) -> Encoded:
    """The accepted rows as a table of ``target``, one row group's worth; the rest as rejects."""
    pa = require_pyarrow()
    kept: list[int] = []
    rejects: list[Reject] = []
    for index, (row_id, found_error) in enumerate(zip(found.ids, found.errors, strict=True)):
        error = found_error
        if error is None and batch.carried is None and not _utf8(row_id):
            error = NOT_UNICODE_ID  # a Parquet string holds UTF-8 only; JSONL output escapes the id instead
        if error is None:
            kept.append(index)
        else:
            rejects.append((row_id, batch.numbers[index], error))
    width = schema.width
    vectors = np.ascontiguousarray(found.vectors[kept]).reshape(-1)
    features = pa.FixedSizeListArray.from_arrays(pa.array(vectors, type=pa.float32()), width)
    if batch.carried is None:
        ids = pa.array([str(found.ids[index]) for index in kept], type=pa.string())
        return Encoded(pa.Table.from_arrays([ids, features], schema=target), len(kept), rejects)
    accepted = batch.carried.filter(pa.array([error is None for error in found.errors], type=pa.bool_()))
    return Encoded(conform(accepted.append_column(FEATURES_FIELD, features), target), len(kept), rejects)


def open_writer(output: Path | IO[bytes], target: pa.Schema) -> parquetfile.ParquetOutput:
    if not isinstance(output, Path):
        raise EnrichmentError("Parquet is written to a file, not to a stream: give --output FILE.parquet")
    return parquetfile.ParquetOutput(output, target)


def companions(output: Path, schema: ResolvedSchema) -> list[Companion]:
    return []  # the metadata is in the file


def store_part(path: Path, rows: pa.Table) -> None:
    parquetfile.write_part(path, rows)


def input_rows(path: Path) -> int | None:
    return parquetfile.input_rows(path)


def finished(path: Path, schema: ResolvedSchema, engine: str | None, rows: int,
             source: Path | None = None) -> str | None:
    return parquetfile.finished(path, {METADATA_KEY.encode(): metadata_text(schema).encode("utf-8")}, rows)
