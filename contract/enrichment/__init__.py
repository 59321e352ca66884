"""Bulk enrichment of training data: rows with a FEN in, the same rows with a feature vector out.

* :func:`enrich_table` — the batch extractor as a plain function over a ``pyarrow.Table`` or
  ``pandas.DataFrame`` (``id``, ``fen``, optional ``side`` -> same rows + ``features`` + ``error``);
  it runs unchanged as a Dask ``map_partitions`` step (``examples/dask_enrich.py``).
* :func:`enrich_file` — the chunked, resumable, multi-process file run behind
  ``python -m contract extract --input FILE --output FILE`` (JSONL or Parquet either side, Parquet
  with the ``[parquet]`` extra). Rows that fail go to a rejects file with their line and error; none
  is dropped silently.
* :func:`contract.enrichment.runs.stream.enrich_stream` — ``--fen`` and stdin/stdout, through the same
  chunk step (:mod:`contract.enrichment.runs.encoding`).
* :func:`contract.enrichment.runs.shardrun.enrich_shards` — ``enrich-shards``: the training repository's raw
  shards in, its enriched shards out; :func:`shard_content_digest` — an enriched shard's identity as the
  training repository computes it (:mod:`contract.enrichment.identity`).

Each format is one module behind one interface (:mod:`contract.enrichment.format`; the registry
:mod:`contract.enrichment.formats.registry`): ``jsonl``, ``parquet``, ``training``; the runs are blind to them.

See ``docs/enrichment.md`` for the formats, the metadata and the resume rules.
"""

from contract.enrichment.identity import shard_content_digest
from contract.enrichment.rows import ERROR_FIELD, FEATURES_FIELD, EnrichmentError, InputError, OptionError
from contract.enrichment.runs.pipeline import (
    DEFAULT_CHUNK_BYTES,
    DEFAULT_CHUNK_SIZE,
    FORMATS,
    Options,
    Summary,
    enrich_file,
)
from contract.enrichment.table import enrich_table, enriched_meta

__all__ = [
    "DEFAULT_CHUNK_BYTES",
    "DEFAULT_CHUNK_SIZE",
    "ERROR_FIELD",
    "FEATURES_FIELD",
    "FORMATS",
    "EnrichmentError",
    "InputError",
    "OptionError",
    "Options",
    "Summary",
    "enrich_file",
    "enrich_table",
    "enriched_meta",
    "shard_content_digest",
]
