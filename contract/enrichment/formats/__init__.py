"""The enrichment formats (JSONL, Parquet, the training shards), their metadata, and the registry naming them.

Each format reads chunks and encodes output for one kind of file; the Parquet ones read through
:mod:`contract.enrichment.parquet`. Never imports from ``runs`` (tests/enrichment/test_enrichment_layout.py).
"""
