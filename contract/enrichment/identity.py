"""An enriched shard's identity as the training repository computes it: :func:`shard_content_digest`.

The training repository (fortemate/dicechess-training ``src/dicechess_training/schema.py``; the facts in
``../shared/spec/training-shards.md`` and docs/enrichment.md) identifies an enriched shard by a SHA-256
that does not depend on the Parquet writer's layout: first, for each of the six semantic metadata keys in
sorted order, the key, its value (one zero byte when the key is absent) and a record separator
(``0x1e``); then the table's rows ordered by (``game_id``, ``ply``) ascending and, for each column in
sorted name order, the name, a unit separator (``0x1f``), every Arrow buffer of the column made one chunk
(one zero byte for a buffer that is absent) and a record separator. Its dataset bundles hash these digests.

Arrow buffers are what is hashed, so the digest is pyarrow's view of the rows: it agrees with the training
function under the same pyarrow (checked live, docs/enrichment.md). The whole table is read (the ordering
needs every row), as the training function reads it. Refused (:class:`EnrichmentError`, one message
starting with the path): a file that is not readable Parquet, without ``game_id``/``ply`` columns, or
with a column name twice.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from contract.enrichment.rows import EnrichmentError
from contract.enrichment.table import require_pyarrow

SEMANTIC_KEYS = ("dicechess_training_schema", "feature_schema", "engine_version", "ruleset", "perspective",
                 "columns")
ORDER = (("game_id", "ascending"), ("ply", "ascending"))
_ABSENT = b"\x00"
_RECORD = b"\x1e"
_UNIT = b"\x1f"


def shard_content_digest(path: Path | str) -> str:
    """The training repository's ``shard_content_digest`` of the enriched shard at ``path`` (64 hex)."""
    pa = require_pyarrow()
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(str(path))
    except (OSError, pa.ArrowException) as exc:
        raise EnrichmentError(f"{path}: not a readable Parquet file ({exc})") from None
    names = table.schema.names
    for name, _ in ORDER:
        if name not in names:
            raise EnrichmentError(f"{path}: no {name!r} column, so no shard_content_digest (rows are ordered by it)")
    if len(set(names)) != len(names):
        raise EnrichmentError(f"{path}: a column name appears more than once; not an enriched shard")
    stored = table.schema.metadata or {}
    hasher = hashlib.sha256()
    for key in sorted(SEMANTIC_KEYS):
        encoded = key.encode()
        hasher.update(encoded + stored.get(encoded, _ABSENT) + _RECORD)
    ordered = table.take(pc.sort_indices(table, sort_keys=list(ORDER)))
    for name in sorted(names):
        hasher.update(name.encode() + _UNIT)
        for buffer in ordered.column(name).combine_chunks().buffers():
            hasher.update(_ABSENT if buffer is None else buffer)
        hasher.update(_RECORD)
    return hasher.hexdigest()


__all__ = ["SEMANTIC_KEYS", "shard_content_digest"]
