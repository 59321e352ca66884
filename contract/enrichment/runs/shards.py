"""Whole-shard helpers for distributed runs (Dask): read a Parquet shard, write it enriched.

The Dask example (``examples/dask_enrich.py``) maps :func:`read_shard` over the shard files, runs
``enrich_table`` as a ``map_partitions`` step, and hands each enriched partition to
:func:`write_shard`. These functions live in the kit (not in the example) so that Dask workers only
need ``contract`` importable, and so that the bytes come from the same writer as
``python -m contract extract``: for every shard, ``write_shard`` produces exactly the output file and
rejects file that the single-process command writes with the same ``--chunk-size``.

A shard is held in memory whole (that is Dask's unit of work); use the CLI's chunked path for files
larger than a worker's memory.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from contract.core.stagedfile import write_atomic
from contract.enrichment.format import Reject
from contract.enrichment.formats import parquet
from contract.enrichment.parquet import budget, parquetfile
from contract.enrichment.rows import ERROR_FIELD, FEATURES_FIELD
from contract.enrichment.runs.pipeline import DEFAULT_CHUNK_BYTES
from contract.enrichment.runs.rejects import default_path, rejects_text
from contract.enrichment.table import features_type, require_pyarrow, split_enriched
from contract.features.extractors import ResolvedSchema, as_resolved

if TYPE_CHECKING:
    import pyarrow as pa


def read_shard(path: str | Path) -> Any:
    """A Parquet shard as a pandas DataFrame backed by Arrow types (so writing it back is exact)."""
    require_pyarrow()
    pd = importlib.import_module("pandas")  # by name: optional, and no pandas stubs needed
    parquet.input_schema(Path(path))  # refuses a shard without id/fen, or not Parquet
    return parquetfile.read_plain_table(Path(path)).to_pandas(types_mapper=pd.ArrowDtype)


def write_shard(enriched: Any, source: str | Path, output: str | Path, schema_id: str | ResolvedSchema,
                chunk_size: int) -> int:
    """Write an enriched shard and its rejects file as the CLI would; return the number of rejects.

    Row groups are cut where the CLI cuts chunks: ``chunk_size`` rows, fewer for wide rows
    (:func:`contract.enrichment.parquet.parquetfile.rows_per_chunk` over the source file's metadata) and the
    decoded-byte budget (:mod:`contract.enrichment.parquet.budget`)."""
    source_path, output_path = Path(source), Path(output)
    rows = parquetfile.rows_per_chunk(source_path, chunk_size, DEFAULT_CHUNK_BYTES)
    rejects = write_enriched(enriched, output_path, as_resolved(schema_id), parquet.input_schema(source_path),
                             chunk_size=rows, chunk_bytes=DEFAULT_CHUNK_BYTES)
    write_atomic(default_path(output_path), rejects_text(rejects))
    return len(rejects)


def write_enriched(
    enriched: Any, path: Path, schema_id: str | ResolvedSchema, source: pa.Schema, *, chunk_size: int,
    chunk_bytes: int
) -> list[Reject]:
    """Write an already-enriched whole shard (``enrich_table`` output) exactly as the CLI would.

    ``enriched`` may be a pyarrow Table or a pandas DataFrame (a Dask partition); ``source`` is the
    shard's input Arrow schema. Row groups follow the same cut over *input* rows as the chunked path
    (``chunk_size`` rows, ``chunk_bytes`` decoded bytes), so the bytes are identical. Returns the
    rejects, with 1-based row numbers. ``schema_id``: an id (looked up once) or a resolved schema (none).
    """
    pa = require_pyarrow()
    schema = as_resolved(schema_id)
    target = parquet.output_schema(source, schema)
    if not isinstance(enriched, pa.Table):
        with_error = source.remove_metadata().append(pa.field(FEATURES_FIELD, features_type(schema)))
        with_error = with_error.append(pa.field(ERROR_FIELD, pa.string()))
        enriched = pa.Table.from_pandas(enriched, schema=with_error, preserve_index=False)
    output = parquetfile.ParquetOutput(path, target)
    rejects: list[Reject] = []
    sizes = budget.row_sizes(pa, enriched, list(source.names))
    try:
        start = 0
        for length in budget.chunk_lengths(sizes, chunk_size, chunk_bytes):
            accepted, chunk_rejects = split_enriched(enriched.slice(start, length), start + 1)
            output.write(parquet.conform(accepted, target))
            rejects.extend(chunk_rejects)
            start += length
    except BaseException:
        output.abandon()
        raise
    for complete in output.finish():
        complete.publish()
    return rejects
