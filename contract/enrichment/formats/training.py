"""The training repository's shards: raw schema v0 in, enriched shards out (``enrich-shards``).

Format (observed live in fortemate/dicechess-training ``src/dicechess_training/schema.py``, described in
docs/enrichment.md): a raw shard has exactly the six base columns ``game_id`` (string), ``ply`` (int32),
``fen``, ``dice``, ``side`` (strings), ``result`` (float32) and the schema metadata
``dicechess_training_schema = v0``. An enriched shard has the same six columns unchanged, then one float32
column per feature, named and ordered as ``schema/feature-schemas.json`` names them, then nothing; its
metadata is the raw shard's, with the six keys the training reader checks set here (:func:`metadata`).

One format module (:mod:`contract.enrichment.format`), chosen by its command (``enrich-shards``), not by
a file name. A shard is checked before any row is read (:func:`check_raw_schema`: the version, every
column and its type); a chunk is decoded in a worker by checking the raw rules row by row (nulls, an
empty FEN, a negative ply, a side other than ``w``/``b``, a result outside {0, 0.5, 1}, dice that are not
three letters of ``PNBRQK``) and the side against the FEN's active colour, and the features are extracted
for the colour in ``side`` (a 4-field FEN read with clocks ``0 1``). A chunk with a bad row is encoded as
its one decisive reject: the first row breaking a raw rule, else the first FEN that does not parse, with a
message naming its game and ply; the shard run refuses the shard on it (the producer's rule: a shard is
written whole or not at all).
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import numpy as np

from contract.core.oserrors import os_error_reason
from contract.enrichment.engines import DEFAULT_ENGINE_VERSION
from contract.enrichment.format import Batch, Chunk, Companion, Encoded
from contract.enrichment.parquet import parquetfile, texts
from contract.enrichment.rows import EnrichmentError, RowBatch
from contract.enrichment.table import require_pyarrow
from contract.features.extractors import ResolvedSchema
from contract.features.rows import BadRow

if TYPE_CHECKING:
    from collections.abc import Iterator

NAME = "training"
EXTENSIONS: tuple[str, ...] = ()  # a raw shard is a .parquet file too: chosen by enrich-shards, not by a name
PART_SUFFIX = ".arrow"
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
READER_KEYS = (SCHEMA_KEY.encode(), b"feature_schema", b"engine_version", b"ruleset", b"perspective", b"columns")
INPUT_KEY = b"dicechess.enrichment.input-sha256"  # what identifies the raw shard an output was made from
_DIGEST_BLOCK = 1 << 20


class ShardError(EnrichmentError):
    """One shard cannot be enriched; the message starts with the shard's path. The other shards go on."""


def base_schema() -> Any:
    pa = require_pyarrow()
    return pa.schema([pa.field(name, getattr(pa, kind)()) for name, kind in BASE_TYPES])


def output_schema(schema: ResolvedSchema, raw_metadata: dict[bytes, bytes] | None, engine: str) -> Any:
    """The enriched shard's Arrow schema: base columns, a float32 column per feature, the metadata."""
    pa = require_pyarrow()
    fields = [*base_schema(), *(pa.field(name, pa.float32()) for name in schema.columns)]
    return pa.schema(fields, metadata=metadata(schema, raw_metadata, engine))


def metadata(schema: ResolvedSchema, raw_metadata: dict[bytes, bytes] | None, engine: str) -> dict[bytes, bytes]:
    """The raw shard's metadata (less a stale ``pandas`` entry) with the enriched shard's six keys."""
    kept = {key: value for key, value in (raw_metadata or {}).items() if key not in STALE_KEYS}
    kept.update({
        key: value for key, value in zip(READER_KEYS, (
            ENRICHED_VERSION.encode(), schema.id.encode(), engine.encode(), RULESET.encode(), PERSPECTIVE.encode(),
            ",".join(schema.columns).encode()), strict=True)
    })
    return kept


def input_digest(path: Path) -> str:
    """The SHA-256 of the raw shard's bytes (read in blocks), as an enriched shard records it (``INPUT_KEY``)."""
    hasher = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(_DIGEST_BLOCK):
            hasher.update(block)
    return hasher.hexdigest()


def _check_text_metadata(path: Path, metadata: dict[bytes, bytes]) -> None:
    """Refuse metadata whose key or value is not UTF-8: the training reader reads every entry as text."""
    for key, value in metadata.items():
        try:
            key.decode("utf-8")
        except UnicodeDecodeError:
            raise ShardError(f"{path}: schema metadata key {key!r} is not UTF-8"
                             " (the training reader reads the metadata as text)") from None
        try:
            value.decode("utf-8")
        except UnicodeDecodeError:
            raise ShardError(f"{path}: the schema metadata value of key {key.decode()!r} is not UTF-8"
                             " (the training reader reads the metadata as text)") from None


def check_raw_schema(path: Path, schema: Any) -> None:
    """Refuse a shard whose version or columns are not schema v0, or whose metadata is not text (message
    starts with the path)."""
    _check_text_metadata(path, dict(schema.metadata or {}))
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


def _row(index: int, row: tuple[Any, ...]) -> object:
    """What the row rules read for one raw row, or a :class:`BadRow` with the shard's message for it."""
    bad = texts.first_bad(row, BASE_COLUMNS)
    if bad is not None:  # a text cell that is not UTF-8: the row, and so the shard, cannot be read
        game, ply = (value.text if isinstance(value, texts.NotUtf8) else value for value in row[:2])
        return BadRow(f"{_where(game, ply)}: {bad[1].problem(bad[0])}", index)
    problem = _row_problem(row)
    if problem is not None:
        return BadRow(f"{_where(row[0], row[1])}: {problem}", index)
    fields = row[2].split()
    if len(fields) >= 2 and fields[1] in SIDES and fields[1] != row[4]:
        return BadRow(f"side/FEN mismatch in {_where(row[0], row[1])}"
                      f" (side {row[4]!r}, the FEN's active colour {fields[1]!r})", index)
    return {"id": index, "fen": _fen_for_reading(row[2]), "side": row[4]}


class _Reader:
    """A raw shard by path, checked as schema v0 before any row is read; chunks as the file layer cuts them."""

    label = "row"

    def __init__(self, path: Path) -> None:
        self.path = path
        carried = parquetfile.read_raw_schema(path)
        check_raw_schema(path, carried)
        parquetfile.check_cell_metadata(path)
        try:  # the input's identity travels with its metadata into the output (``--resume`` compares it)
            digest = input_digest(path)
        except OSError as exc:
            raise ShardError(f"{path}: cannot be read ({os_error_reason(exc)})") from None
        self.carried = carried.with_metadata({**(carried.metadata or {}), INPUT_KEY: digest.encode()})

    def chunks(self, rows: int, budget: int) -> Iterator[Chunk]:
        return parquetfile.chunks(self.path, rows, budget)  # the row cap as given (the shards' own cut)

    def close(self) -> None:
        return None


def open_reader(source: Path | IO[bytes], name: str) -> _Reader:
    if not isinstance(source, Path):
        raise EnrichmentError(f"{name}: a raw shard is read from a file, not from a stream")
    return _Reader(source)


_PLAIN = r"^[ -~]*$"  # printable ASCII and spaces: Python's str.split() and RE2's classes cut it alike
_SECOND = r"^ *[!-~]+ +(?P<field>[!-~]+)"  # a plain FEN's second field (its active colour)
_TOKEN = r"[!-~]+"
_NOT_BLANK = r"[0-9A-Za-z/]"  # a FEN holding one of these is not blank after str.strip()
_DICE_PLAIN = f"^[{DICE}]{{{DICE_COUNT}}}$"


def _suspects(payload: Any) -> Any:
    """A boolean array, true for each row the columnar checks cannot vouch for: every row that breaks a raw
    rule or whose side contradicts its FEN is among them (a superset; :func:`_row` judges each exactly)."""
    import pyarrow.compute as pc

    column = payload.column
    fen, side, result = column("fen"), column("side"), column("result")
    second = pc.struct_field(pc.extract_regex(fen, _SECOND), [0])
    sides = require_pyarrow().array(list(SIDES))
    parts = [pc.is_null(column(name)) for name in BASE_COLUMNS]
    parts += [
        pc.is_nan(result),
        pc.invert(pc.match_substring_regex(fen, _NOT_BLANK)),
        pc.less(column("ply"), 0),
        pc.invert(pc.is_in(side, value_set=sides)),
        pc.invert(pc.or_(pc.or_(pc.equal(result, 0.0), pc.equal(result, 0.5)), pc.equal(result, 1.0))),
        pc.invert(pc.match_substring_regex(column("dice"), _DICE_PLAIN)),
        pc.invert(pc.match_substring_regex(fen, _PLAIN)),
        pc.and_(pc.is_in(second, value_set=sides), pc.not_equal(second, side)),
    ]
    suspect = parts[0]
    for part in parts[1:]:
        suspect = pc.or_kleene(suspect, pc.fill_null(part, True))
    return pc.fill_null(suspect, True)


def _plain_rows(payload: Any) -> list[object] | None:
    """The rows of a chunk no row of which breaks a rule, built column-wise (a 4-field FEN read with clocks
    ``0 1``); ``None`` when some text is not UTF-8 or some row is a suspect: then each row is judged alone."""
    pa = require_pyarrow()
    import pyarrow.compute as pc

    try:
        for name in ("game_id", "fen", "dice", "side"):
            payload.column(name).validate(full=True)  # UTF-8 of every text cell
    except pa.ArrowInvalid:
        return None
    if pc.any(_suspects(payload)).as_py():
        return None
    fen = payload.column("fen")
    four = pc.equal(pc.count_substring_regex(fen, _TOKEN), 4)
    fen = pc.if_else(four, pc.binary_join_element_wise(fen, " 0 1", ""), fen)
    return [{"id": index, "fen": text, "side": colour}
            for index, (text, colour) in enumerate(zip(fen.to_pylist(), payload.column("side").to_pylist(),
                                                       strict=True))]


def decode(payload: Any, first: int) -> Batch:
    """A chunk of a raw shard: its rows checked by the raw rules; the six base columns carried. A chunk the
    columnar checks vouch for is built column-wise; any other is judged row by row (same rows, same messages)."""
    rows = _plain_rows(payload)
    if rows is None:
        columns = [texts.cells(payload.column(name)) for name in BASE_COLUMNS]
        rows = [_row(index, row) for index, row in enumerate(zip(*columns, strict=True))]
    base = payload.select(list(BASE_COLUMNS)).cast(base_schema()).combine_chunks()
    return Batch(rows, range(first, first + payload.num_rows), base)


def target(schema: ResolvedSchema, carried: Any, engine: str | None) -> Any:
    """The enriched shard's Arrow schema, from the raw shard's (its metadata is kept)."""
    return output_schema(schema, carried.metadata, engine or DEFAULT_ENGINE_VERSION)


def stamped(target: Any, extra: dict[bytes, bytes]) -> Any:
    """``target`` with the keys of ``extra`` added to its metadata (never one of the six keys the reader checks)."""
    if not extra:
        return target
    clash = set(extra) & set(READER_KEYS)
    if clash:
        raise RuntimeError(f"additional metadata would replace the reader's keys {sorted(clash)}")
    return target.with_metadata({**(target.metadata or {}), **extra})


def encode(schema: ResolvedSchema, batch: Batch, found: RowBatch, target: Any) -> Encoded:
    """The chunk as base columns then one float32 column per feature; or, when a row is bad, no rows and
    the one reject that refuses the shard (the first raw-rule breach, else the first FEN error)."""
    for index, row in enumerate(batch.rows):
        if isinstance(row, BadRow):
            return Encoded(None, 0, [(row.id, batch.numbers[index], row.reason)])
    for index, error in enumerate(found.errors):
        if error is not None:
            game, ply = (batch.carried.column(name)[index].as_py() for name in ("game_id", "ply"))
            return Encoded(None, 0, [(index, batch.numbers[index], f"FEN error in {_where(game, ply)}: {error}")])
    pa = require_pyarrow()
    features = [pa.array(np.ascontiguousarray(found.vectors[:, index]), pa.float32())
                for index in range(found.vectors.shape[1])]
    names = [*BASE_COLUMNS, *schema.columns]
    return Encoded(pa.Table.from_arrays([*batch.carried.columns, *features], names=names), len(batch.rows), [])


def open_writer(output: Path | IO[bytes], target: Any) -> parquetfile.ParquetOutput:
    if not isinstance(output, Path):
        raise EnrichmentError("an enriched shard is written to a file, not to a stream")
    return parquetfile.ParquetOutput(output, target)


def companions(output: Path, schema: ResolvedSchema) -> list[Companion]:
    return []  # the metadata is in the shard


def store_part(path: Path, rows: Any) -> None:
    parquetfile.write_part(path, rows)


def input_rows(path: Path) -> int | None:
    return parquetfile.input_rows(path)


def finished(path: Path, schema: ResolvedSchema, engine: str | None, rows: int,
             source: Path | None = None) -> str | None:
    """Why ``path`` is not a finished shard of these settings (version, schema, engine; the input's row
    count; with ``source``, also the SHA-256 of that raw shard's bytes), or ``None`` when ``--resume`` may
    keep it."""
    stamp = {SCHEMA_KEY.encode(): ENRICHED_VERSION.encode(), b"feature_schema": schema.id.encode(),
             b"engine_version": (engine or DEFAULT_ENGINE_VERSION).encode()}
    if source is not None:
        try:
            stamp[INPUT_KEY] = input_digest(source).encode()
        except OSError as exc:
            return f"its input cannot be read ({os_error_reason(exc)})"
    return parquetfile.finished(path, stamp, rows)
