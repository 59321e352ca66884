"""The Parquet reader's internals: page headers, batch plans and byte budgets, view types, text columns.

Reads Parquet within a byte budget and writes it row group by row group; knows no format and no run. Imports only the
enrichment package's base modules (``rows``, ``table``, ``format``); never ``formats`` or ``runs``
(tests/enrichment/test_enrichment_layout.py holds the direction).
"""
