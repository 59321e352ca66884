"""The training repository's shards: raw schema v0 in, enriched shards out (``enrich-shards``).

Format (observed live in fortemate/dicechess-training ``src/dicechess_training/schema.py``, described in
docs/enrichment.md): a raw shard has exactly the six base columns ``game_id`` (string), ``ply`` (int32),
``fen``, ``dice``, ``side`` (strings), ``result`` (float32) and the schema metadata
``dicechess_training_schema = v0``. An enriched shard has the same six columns unchanged, then one float32
column per feature, named and ordered as ``schema/feature-schemas.json`` names them, then nothing; its
metadata is the raw shard's, with the six keys the training reader checks set here (:func:`metadata`).

A chunk of a raw shard is checked and enriched by :func:`enrich_chunk` (a pure function, run in a
worker): the raw rules row by row (nulls, an empty FEN, a negative ply, a side other than ``w``/``b``, a
result outside {0, 0.5, 1}, dice that are not three letters of ``PNBRQK``), then the side against the
FEN's active colour, then the features for the colour in ``side`` through
:func:`contract.features.rows.extract_rows` (a 4-field FEN read with clocks ``0 1``). The first bad row
fails the shard with a message naming its game and ply.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from contract.core import registry
from contract.enrichment.rows import EnrichmentError, results
from contract.enrichment.table import require_pyarrow

SCHEMA_KEY = "dicechess_training_schema"
RAW_VERSION = "v0"
ENRICHED_VERSION = "v0-enriched"
RULESET = "standard-dicechess-v1"
PERSPECTIVE = "side-to-move"
BASE_TYPES = (("game_id", "string"), ("ply", "int32"), ("fen", "string"), ("dice", "string"),
              ("side", "string"), ("result", "float32"))
BASE_COLUMNS = tuple(name for name, _ in BASE_TYPES)
SIDES = ("w", "b")
RESULTS = (0.0, 0.5, 1.0)
DICE = "PNBRQK"
DICE_COUNT = 3
STALE_KEYS = (b"pandas",)  # describes columns the enriched shard no longer has exactly


class ShardError(EnrichmentError):
    """One shard cannot be enriched; the message starts with the shard's path. The other shards go on."""


def base_schema() -> Any:
    pa = require_pyarrow()
    return pa.schema([pa.field(name, getattr(pa, kind)()) for name, kind in BASE_TYPES])


def output_schema(schema_id: str, raw_metadata: dict[bytes, bytes] | None, engine: str) -> Any:
    """The enriched shard's Arrow schema: base columns, a float32 column per feature, the metadata."""
    pa = require_pyarrow()
    names = registry.get(schema_id).columns
    fields = [*base_schema(), *(pa.field(name, pa.float32()) for name in names)]
    return pa.schema(fields, metadata=metadata(schema_id, raw_metadata, engine))


def metadata(schema_id: str, raw_metadata: dict[bytes, bytes] | None, engine: str) -> dict[bytes, bytes]:
    """The raw shard's metadata (less a stale ``pandas`` entry) with the enriched shard's six keys."""
    kept = {key: value for key, value in (raw_metadata or {}).items() if key not in STALE_KEYS}
    kept.update({
        SCHEMA_KEY.encode(): ENRICHED_VERSION.encode(),
        b"feature_schema": schema_id.encode(),
        b"engine_version": engine.encode(),
        b"ruleset": RULESET.encode(),
        b"perspective": PERSPECTIVE.encode(),
        b"columns": ",".join(registry.get(schema_id).columns).encode(),
    })
    return kept


def check_raw_schema(path: Path, schema: Any) -> None:
    """Refuse a shard whose version or columns are not schema v0 (message starts with the path)."""
    version = (schema.metadata or {}).get(SCHEMA_KEY.encode(), b"").decode("utf-8", "replace")
    if version != RAW_VERSION:
        raise ShardError(f"{path}: shard schema version {version!r} is not {RAW_VERSION!r}"
                         f" (schema metadata key {SCHEMA_KEY!r})")
    for field in base_schema():
        if schema.get_field_index(field.name) < 0:
            if field.name in schema.names:
                raise ShardError(f"{path}: column {field.name!r} appears more than once")
            raise ShardError(f"{path}: missing column {field.name!r} (a raw shard has {', '.join(BASE_COLUMNS)})")
        actual = schema.field(field.name).type
        if actual != field.type:
            raise ShardError(f"{path}: column {field.name!r} has type {actual}, expected {field.type}")


@dataclass(frozen=True)
class ChunkOutcome:
    """A chunk's enriched table (base columns then features), or the first bad row's message."""

    table: Any
    error: str | None


def _where(game: object, ply: object) -> str:
    return f"game {game!r} ply {ply}"


def _row_problem(row: tuple[Any, ...]) -> str | None:
    """The raw-schema rule ``row`` breaks, or ``None`` (the checks of the training reader, per row)."""
    _game, ply, fen, dice, side, result = row
    for name, value in zip(BASE_COLUMNS, row, strict=True):
        if value is None or (isinstance(value, float) and np.isnan(value)):
            return f"{name} is null"
    if not str(fen).strip():
        return "fen is empty"
    if ply < 0:
        return f"ply {ply} is negative"
    if side not in SIDES:
        return f"side {side!r} is not 'w' or 'b'"
    if result not in RESULTS:
        return f"result {result!r} is not 0.0, 0.5 or 1.0 (mover perspective)"
    letters = str(dice).upper()
    if len(letters) != DICE_COUNT or any(letter not in DICE for letter in letters):
        return f"dice {dice!r} are not {DICE_COUNT} letters from {DICE!r}"
    return None


def _fen_for_reading(fen: str) -> str:
    return f"{fen} 0 1" if len(fen.split()) == 4 else fen


def enrich_chunk(schema_id: str, chunk: Any) -> ChunkOutcome:
    """Check one chunk of a raw shard (the six base columns, as an Arrow table) and add its features."""
    pa = require_pyarrow()
    columns = [chunk.column(name).to_pylist() for name in BASE_COLUMNS]
    rows = list(zip(*columns, strict=True))
    for row in rows:
        problem = _row_problem(row)
        if problem is not None:
            return ChunkOutcome(None, f"{_where(row[0], row[1])}: {problem}")
        fields = row[2].split()
        if len(fields) >= 2 and fields[1] in SIDES and fields[1] != row[4]:
            return ChunkOutcome(None, f"side/FEN mismatch in {_where(row[0], row[1])}"
                                      f" (side {row[4]!r}, the FEN's active colour {fields[1]!r})")
    outcome = results(schema_id, [{"id": index, "fen": _fen_for_reading(row[2]), "side": row[4]}
                                  for index, row in enumerate(rows)])
    width = registry.get(schema_id).width
    vectors = np.zeros((len(rows), width), dtype=np.float32)
    for result, row in zip(outcome, rows, strict=True):
        if result.features is None:
            return ChunkOutcome(None, f"FEN error in {_where(row[0], row[1])}: {result.error}")
        vectors[result.index] = result.features
    names = registry.get(schema_id).columns
    features = [pa.array(np.ascontiguousarray(vectors[:, index]), pa.float32()) for index in range(width)]
    base = chunk.select(list(BASE_COLUMNS)).cast(base_schema()).combine_chunks()
    table = pa.Table.from_arrays([*base.columns, *features], names=[*BASE_COLUMNS, *names])
    return ChunkOutcome(table, None)
