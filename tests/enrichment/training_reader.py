"""A double of the training repository's enriched-shard reader and reproduction digest.

Written for these tests from what the real ``read_enriched_shard`` / ``shard_content_digest``
(fortemate/dicechess-training ``src/dicechess_training/schema.py`` @ 0fcf5d72, run live against
``enrich-shards`` output on 2026-12-01) were seen to check, and ``../shared/spec/training-shards.md``:
the metadata keys, the base columns with their exact types and raw rules, then exactly the schema's
feature columns, float32 and finite; the digest over the semantic metadata and the columns sorted by
(game_id, ply). Not the repository's code.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

BASE = {"game_id": pa.string(), "ply": pa.int32(), "fen": pa.string(), "dice": pa.string(),
        "side": pa.string(), "result": pa.float32()}
SEMANTIC_KEYS = ("dicechess_training_schema", "feature_schema", "engine_version", "ruleset", "perspective", "columns")


def read_enriched(path: Path, schema_id: str, columns: tuple[str, ...], engine: str | None) -> pa.Table:
    """The shard, or ``ValueError`` naming what the training reader would refuse."""
    table = pq.read_table(path)
    meta = {key.decode(): value.decode() for key, value in (table.schema.metadata or {}).items()}
    wanted = {"feature_schema": schema_id, "ruleset": "standard-dicechess-v1", "perspective": "side-to-move"}
    if engine is not None:
        wanted["engine_version"] = engine
    for key, value in wanted.items():
        if meta.get(key) != value:
            raise ValueError(f"{path}: {key} {meta.get(key)!r} != {value!r}")
    for name, kind in BASE.items():
        if table.schema.get_field_index(name) < 0 or table.schema.field(name).type != kind:
            raise ValueError(f"{path}: base column {name!r}")
        if table.column(name).null_count:
            raise ValueError(f"{path}: nulls in {name!r}")
    if tuple(table.schema.names[len(BASE):]) != columns:
        raise ValueError(f"{path}: feature layout {table.schema.names[len(BASE):]}")
    for name in columns:
        if table.schema.field(name).type != pa.float32():
            raise ValueError(f"{path}: {name!r} is not float32")
        if not np.isfinite(table.column(name).to_numpy()).all():
            raise ValueError(f"{path}: {name!r} has a non-finite value")
    if set(pc.unique(table.column("side")).to_pylist()) - {"w", "b"}:
        raise ValueError(f"{path}: side")
    return table


def content_digest(path: Path) -> str:
    table = pq.read_table(path)
    meta = table.schema.metadata or {}
    hasher = hashlib.sha256()
    for key in sorted(SEMANTIC_KEYS):
        value = meta.get(key.encode())
        hasher.update(key.encode())
        hasher.update(b"\x00" if value is None else value)
        hasher.update(b"\x1e")
    ordered = table.take(pc.sort_indices(table, sort_keys=[("game_id", "ascending"), ("ply", "ascending")]))
    for name in sorted(ordered.schema.names):
        hasher.update(name.encode())
        hasher.update(b"\x1f")
        for buffer in ordered.column(name).combine_chunks().buffers():
            hasher.update(b"\x00" if buffer is None else buffer)
        hasher.update(b"\x1e")
    return hasher.hexdigest()
