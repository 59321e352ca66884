"""The enrichment runs: the file run, the stream run, ``enrich-shards``, the Dask helpers, and what they share.

The worker pool, finished parts on disk, the progress line, the rejects file and the per-chunk encoding step. The top
layer: imports formats, the Parquet internals and the base modules; nothing below imports from here.
"""
