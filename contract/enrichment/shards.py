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
from contract.enrichment import jsonl, parquet
from contract.enrichment.pipeline import rejects_default
from contract.enrichment.table import require_pyarrow


def read_shard(path: str | Path) -> Any:
    """A Parquet shard as a pandas DataFrame backed by Arrow types (so writing it back is exact)."""
    require_pyarrow()
    import pyarrow.parquet as pq

    pd = importlib.import_module("pandas")  # by name: optional, and no pandas stubs needed
    parquet.input_schema(Path(path))  # refuses a shard without id/fen, or not Parquet
    return pq.read_table(path).to_pandas(types_mapper=pd.ArrowDtype)


def write_shard(enriched: Any, source: str | Path, output: str | Path, schema_id: str, chunk_size: int) -> int:
    """Write an enriched shard and its rejects file as the CLI would; return the number of rejects."""
    source_path, output_path = Path(source), Path(output)
    rejects = parquet.write_enriched(
        enriched, output_path, schema_id, parquet.input_schema(source_path), chunk_size
    )
    text = "".join(jsonl.reject_line(row_id, line, error) for row_id, line, error in rejects)
    write_atomic(rejects_default(output_path), text)
    return len(rejects)
