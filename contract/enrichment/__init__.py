"""Bulk enrichment of training data: rows with a FEN in, the same rows with a feature vector out.

* :func:`enrich_table` — the batch extractor as a plain function over a ``pyarrow.Table`` or
  ``pandas.DataFrame`` (``id``, ``fen``, optional ``side`` -> same rows + ``features`` + ``error``);
  it runs unchanged as a Dask ``map_partitions`` step (``examples/dask_enrich.py``).
* :func:`enrich_file` — the streaming, chunked, resumable, multi-process file run behind
  ``python -m contract extract --input … --output …`` (JSONL, or Parquet with the ``[parquet]``
  extra). Rows that fail go to a rejects file with their line and error; none is dropped silently.

See ``docs/enrichment.md`` for the formats, the metadata and the resume rules.
"""

from contract.enrichment.pipeline import DEFAULT_CHUNK_SIZE, FORMATS, Options, Summary, enrich_file
from contract.enrichment.rows import ERROR_FIELD, FEATURES_FIELD, EnrichmentError
from contract.enrichment.table import enrich_table, enriched_meta

__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "ERROR_FIELD",
    "FEATURES_FIELD",
    "FORMATS",
    "EnrichmentError",
    "Options",
    "Summary",
    "enrich_file",
    "enrich_table",
    "enriched_meta",
]
