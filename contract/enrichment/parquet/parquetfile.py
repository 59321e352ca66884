"""Parquet files read in chunks within a byte budget, and written row group by row group (pyarrow).

The file layer under the two Parquet formats (:mod:`~contract.enrichment.formats.parquet`, extract's rows, and
:mod:`~contract.enrichment.formats.training`, the training repository's shards): what they share is how a file is
read without letting memory follow its size, and how an output is written so that its bytes are a
function of the rows alone.

Reading: the file opened once, a regular file only, its footer within a limit, and every row group read
in batches whose cost to Arrow (pages, dictionaries, values) is bounded from its page headers before it
is decoded (:mod:`~contract.enrichment.parquet.batchplan`); text and binary leaf columns in dictionary form (a
repeated value is decoded once), buffered column reads without pre-buffering (otherwise Arrow reads whole
row groups ahead), every row's decoded size measured from the value lengths (nested columns too), a cell
over :data:`~contract.enrichment.parquet.budget.CELL_LIMIT` refused naming its row and column, chunks cut by rows
and decoded bytes (:class:`~contract.enrichment.parquet.budget.Cutter`),
view types made plain (:mod:`~contract.enrichment.parquet.views`). Data that turns out unreadable part-way (a
corrupt page) is an :class:`~contract.enrichment.rows.InputError` naming the file.

Writing: one row group per chunk, the fixed options of :data:`WRITE_OPTIONS`, into a hidden temporary
sibling renamed only when complete (:class:`ParquetOutput`); finished chunks of a file run are Arrow IPC
files (:func:`write_part`). pyarrow is the optional ``[parquet]`` extra: without it every entry point
refuses with the command that installs it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from contract.core.stagedfile import StagedFile, sync_path
from contract.enrichment.format import Chunk
from contract.enrichment.parquet import batchplan, budget, pages
from contract.enrichment.parquet.views import plain_schema, plain_table
from contract.enrichment.rows import EnrichmentError, InputError
from contract.enrichment.table import require_pyarrow

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


def _pq() -> Any:
    require_pyarrow()
    import pyarrow.parquet as pq

    return pq


def read_raw_schema(path: Path) -> pa.Schema:
    """The Arrow schema a Parquet file stores, as it is (no view type made plain, nothing checked); a
    file that is not regular, or whose footer is over the footer limit, is refused (:mod:`batchplan`)."""
    pa = require_pyarrow()
    try:
        with batchplan.open_parquet(path) as source:
            return source.file.schema.to_arrow_schema()
    except batchplan.ReadTooLarge as exc:
        raise EnrichmentError(f"{path}: {exc}") from None
    except (pa.ArrowException, OSError) as exc:
        raise EnrichmentError(f"{path}: not a readable Parquet file ({exc})") from None


def read_metadata(path: Path) -> Any:
    """The file's Parquet metadata (its footer, within the footer limit); Arrow's errors and OSError pass."""
    try:
        with batchplan.open_parquet(path) as source:
            return source.file.metadata
    except batchplan.ReadTooLarge as exc:
        raise EnrichmentError(f"{path}: {exc}") from None


def check_cell_metadata(path: Path) -> None:
    """Refuse, before reading any data, a column chunk whose recorded uncompressed size shows a cell over
    the cell limit (its values average more than the limit): such a page would have to be decoded whole."""
    metadata = read_metadata(path)
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
    return int(read_metadata(path).num_rows)


def rows_per_chunk(path: Path, chunk_size: int, chunk_bytes: int) -> int:
    """Rows per chunk for this file: ``chunk_size``, or fewer so that a chunk of the widest row group's
    rows stays within ``chunk_bytes`` (uncompressed, as the Parquet metadata records it); at least 1."""
    metadata = read_metadata(path)
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
        with source:
            pieces = []
            row = 1
            for batch in batchplan.batches(source, READ_BATCH_ROWS, READ_BATCH_BYTES):
                _checked_sizes(pa, path, batch, row)
                row += batch.num_rows
                pieces.append(plain_table(pa, batch, plain))
        return pa.concat_tables(pieces).combine_chunks() if pieces else plain.empty_table()
    except batchplan.ReadTooLarge as exc:
        raise InputError(f"{path}: {exc}; nothing was written") from None
    except (pa.ArrowException, OSError, pages.PageError) as exc:
        raise InputError(f"{path}: the Parquet data cannot be read ({exc}); nothing was written") from None


def chunks(path: Path, chunk_size: int, chunk_bytes: int) -> Iterator[Chunk]:
    """:func:`iter_table_chunks` as a reader's chunks: each table with its first row number (1-based)
    and its share of the file's rows."""
    total = max(input_rows(path), 1)
    first = 1
    for table in iter_table_chunks(path, chunk_size, chunk_bytes):
        yield Chunk(table, first, table.num_rows, table.num_rows / total)
        first += table.num_rows


def iter_table_chunks(path: Path, chunk_size: int, chunk_bytes: int) -> Iterator[pa.Table]:
    """Tables of at most ``chunk_size`` rows and about ``chunk_bytes`` decoded bytes (cut by
    :class:`~contract.enrichment.parquet.budget.Cutter`), whatever the row groups, view types made plain. Data
    that cannot be read, or a cell over the cell limit, is an :class:`InputError` naming the file."""
    pa = require_pyarrow()
    try:
        yield from _table_chunks(pa, path, chunk_size, chunk_bytes)
    except batchplan.ReadTooLarge as exc:
        raise InputError(f"{path}: {exc}; nothing was written") from None
    except (pa.ArrowException, OSError, pages.PageError) as exc:
        raise InputError(f"{path}: the Parquet data cannot be read ({exc}); nothing was written") from None


READ_BATCH_ROWS = 1000  # a whole-file read (a Dask shard) decodes batches of at most this many rows
READ_BATCH_BYTES = 16 << 20  # and of about this many bytes


def _open(path: Path) -> tuple[batchplan.ParquetInput, pa.Schema]:
    # Buffered column reads, no pre-buffering: otherwise Arrow reads whole row groups ahead, and memory
    # follows the file's size (1 GB of 1 MB rows: 1.1 GiB in Arrow's pool, against 160 MiB buffered).
    # Text and binary leaf columns in dictionary form: a repeated value is decoded once, never per row;
    # each row group read in batches planned from its page headers (contract.enrichment.parquet.batchplan).
    source = batchplan.open_parquet(path, dictionary=True)
    return source, plain_schema(source.file.schema.to_arrow_schema())


def _checked_sizes(pa: Any, path: Path, table: Any, first_row: int) -> Any:
    try:
        return budget.row_sizes(pa, table)
    except budget.CellTooLarge as big:
        raise InputError(
            f"{path}: row {first_row + big.row} column {big.column!r} holds {big.size} bytes; a cell may hold"
            f" at most {budget.CELL_LIMIT} bytes (as a JSONL line); nothing was written"
        ) from None


def _table_chunks(pa: Any, path: Path, chunk_size: int, chunk_bytes: int) -> Iterator[pa.Table]:
    source, plain = _open(path)
    with source:
        cutter = budget.Cutter(chunk_size, chunk_bytes)
        pending: list[pa.Table] = []
        row = 1
        for batch in batchplan.batches(source, chunk_size, chunk_bytes):
            sizes = _checked_sizes(pa, path, batch, row)
            row += batch.num_rows
            for start, stop, ends in cutter.pieces(sizes):
                pending.append(plain_table(pa, batch.slice(start, stop - start), plain))
                if ends:
                    yield pa.concat_tables(pending).combine_chunks()
                    pending = []
        if pending:
            yield pa.concat_tables(pending).combine_chunks()


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
    """A Parquet file written row group by row group into a temporary sibling (a :class:`Writer
    <contract.enrichment.format.Writer>`: the run renames the finished sibling into place)."""

    def __init__(self, path: Path, schema: pa.Schema) -> None:
        self.path = path
        self.schema = schema
        self._staged = StagedFile(path)
        self._writer = _pq().ParquetWriter(str(self._staged.tmp), schema, **WRITE_OPTIONS)

    def write(self, rows: pa.Table) -> None:
        """Append one chunk's accepted rows as one row group (an empty chunk writes nothing)."""
        if rows.num_rows:
            self._writer.write_table(rows, row_group_size=rows.num_rows)

    def append_part(self, path: Path) -> int:
        table = read_part(path)
        self.write(table)
        return int(table.num_rows)

    def finish(self) -> list[StagedFile]:
        """Close and fsync the temporary file; the caller publishes (renames) it."""
        try:
            self._writer.close()
            sync_path(self._staged.tmp)
        except BaseException:
            self._staged.discard()
            raise
        return [self._staged]

    def abandon(self) -> None:
        self._writer.close()
        self._staged.discard()


def finished(path: Path, stamp: dict[bytes, bytes], rows: int) -> str | None:
    """Why ``path`` is not a finished output whose schema metadata holds ``stamp`` and which has ``rows``
    rows, or ``None`` when it is (``--resume`` keeps such an output)."""
    pa = require_pyarrow()
    try:
        meta = read_metadata(path)
        found = meta.metadata or {}
    except (OSError, pa.ArrowException, EnrichmentError) as exc:
        return f"it is not a readable Parquet file ({exc})"
    for key, wanted in stamp.items():
        if found.get(key) != wanted:
            shown = None if key not in found else found[key].decode("utf-8", "replace")
            return f"its {key.decode('utf-8', 'replace')} is {shown!r}, not {wanted.decode('utf-8', 'replace')!r}"
    if meta.num_rows != rows:
        return f"it has {meta.num_rows} rows, the input {rows}"
    return None
