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
from typing import Any

from contract.core.stagedfile import write_atomic
from contract.enrichment import parquet
from contract.enrichment.encoding import rejects_text
from contract.enrichment.pipeline import DEFAULT_CHUNK_BYTES, rejects_default
from contract.enrichment.table import require_pyarrow


def read_shard(path: str | Path) -> Any:
    """A Parquet shard as a pandas DataFrame backed by Arrow types (so writing it back is exact)."""
    require_pyarrow()
    pd = importlib.import_module("pandas")  # by name: optional, and no pandas stubs needed
    parquet.input_schema(Path(path))  # refuses a shard without id/fen, or not Parquet
    return parquet.read_plain_table(Path(path)).to_pandas(types_mapper=pd.ArrowDtype)


def write_shard(enriched: Any, source: str | Path, output: str | Path, schema_id: str, chunk_size: int) -> int:
    """Write an enriched shard and its rejects file as the CLI would; return the number of rejects.

    Row groups are cut where the CLI cuts chunks: ``chunk_size`` rows, fewer for wide rows
    (:func:`contract.enrichment.parquet.rows_per_chunk` over the source file's metadata) and the
    decoded-byte budget (:mod:`contract.enrichment.budget`)."""
    source_path, output_path = Path(source), Path(output)
    rows = parquet.rows_per_chunk(source_path, chunk_size, DEFAULT_CHUNK_BYTES)
    rejects = parquet.write_enriched(enriched, output_path, schema_id, parquet.input_schema(source_path),
                                     chunk_size=rows, chunk_bytes=DEFAULT_CHUNK_BYTES)
    write_atomic(rejects_default(output_path), rejects_text(rejects))
    return len(rejects)
