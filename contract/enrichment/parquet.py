"""Parquet in, Parquet out, a chunk of rows at a time (pyarrow is the optional ``[parquet]`` extra).

The output keeps every input column and its type and adds ``features`` as
``fixed_size_list<float32>[width]``. The Arrow schema metadata carries the enrichment metadata under
``dicechess.enrichment`` (the input's own metadata is kept, except a stale ``pandas`` entry).

The bytes are a function of the input rows, the schema id and the chunk size only: one row group per
input chunk (rejected rows removed), fixed writer options, contiguous arrays. That is what lets the
single-process path, a resumed run and the Dask example (``write_enriched``) agree byte for byte.

Refused: a file that is not Parquet, an input without ``id``/``fen`` columns, with a duplicate column
name, with columns of the wrong type, or that already has ``features``/``error`` columns (see
``table.check_schema``), a missing pyarrow (with the command that installs it).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from contract.core.stagedfile import StagedFile, sync_path
from contract.enrichment.metadata import METADATA_KEY, metadata_text
from contract.enrichment.rows import ERROR_FIELD, FEATURES_FIELD, EnrichmentError
from contract.enrichment.table import (
    check_schema,
    enrich_table,
    features_type,
    require_pyarrow,
    split_enriched,
)

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


def input_schema(path: Path) -> pa.Schema:
    """The Arrow schema of a Parquet input, checked for ``id``/``fen`` and free output names."""
    pq = _pq()
    pa = require_pyarrow()
    try:
        schema = pq.read_schema(path)
    except (pa.ArrowException, OSError) as exc:
        raise EnrichmentError(f"{path}: not a readable Parquet file ({exc})") from None
    check_schema(schema)
    return schema


def input_rows(path: Path) -> int:
    return int(_pq().ParquetFile(path).metadata.num_rows)


def output_schema(source: pa.Schema, schema_id: str) -> pa.Schema:
    """The input schema plus ``features``, with the enrichment metadata (and no stale pandas entry)."""
    metadata = {key: value for key, value in (source.metadata or {}).items() if key != b"pandas"}
    metadata[METADATA_KEY.encode()] = metadata_text(schema_id).encode("utf-8")
    return source.remove_metadata().append(
        require_pyarrow().field(FEATURES_FIELD, features_type(schema_id))
    ).with_metadata(metadata)


def iter_table_chunks(path: Path, chunk_size: int) -> Iterator[pa.Table]:
    """Tables of exactly ``chunk_size`` rows (the last may be shorter), whatever the row groups."""
    pa = require_pyarrow()
    source = _pq().ParquetFile(path)
    pending: list[Any] = []
    held = 0
    for batch in source.iter_batches(batch_size=chunk_size):
        pending.append(batch)
        held += batch.num_rows
        while held >= chunk_size:
            table = pa.Table.from_batches(pending, schema=source.schema_arrow)
            yield table.slice(0, chunk_size).combine_chunks()
            rest = table.slice(chunk_size)
            pending = rest.to_batches()
            held = rest.num_rows
    if held:
        yield pa.Table.from_batches(pending, schema=source.schema_arrow).combine_chunks()


def conform(accepted: pa.Table, target: pa.Schema) -> pa.Table:
    """Accepted rows as contiguous arrays of exactly the output schema."""
    return accepted.select(target.names).cast(target).combine_chunks()


def encode_chunk(schema_id: str, table: pa.Table, first_line: int, target: pa.Schema) -> tuple[pa.Table, list[Reject]]:
    """Enrich one chunk (runs in a worker process): the rows to write and the rejects."""
    accepted, rejects = split_enriched(enrich_table(table, schema_id), first_line)
    return conform(accepted, target), rejects


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
    enriched: Any, path: Path, schema_id: str, source: pa.Schema, chunk_size: int
) -> list[Reject]:
    """Write an already-enriched whole shard (``enrich_table`` output) exactly as the CLI would.

    ``enriched`` may be a pyarrow Table or a pandas DataFrame (a Dask partition); ``source`` is the
    shard's input Arrow schema. Row groups follow the same ``chunk_size`` windows over *input* rows as
    the chunked path, so the bytes are identical. Returns the rejects, with 1-based row numbers.
    """
    pa = require_pyarrow()
    target = output_schema(source, schema_id)
    if not isinstance(enriched, pa.Table):
        with_error = source.remove_metadata().append(pa.field(FEATURES_FIELD, features_type(schema_id)))
        with_error = with_error.append(pa.field(ERROR_FIELD, pa.string()))
        enriched = pa.Table.from_pandas(enriched, schema=with_error, preserve_index=False)
    output = ParquetOutput(path, target)
    rejects: list[Reject] = []
    try:
        for start in range(0, enriched.num_rows, chunk_size):
            accepted, chunk_rejects = split_enriched(enriched.slice(start, chunk_size), start + 1)
            output.write(conform(accepted, target))
            rejects.extend(chunk_rejects)
    except BaseException:
        output.abandon()
        raise
    output.commit()
    return rejects
