"""What a data file states about itself, and its rows read back in bounded chunks (for ``check-data``).

Three layouts, told apart by their contents, not their names:

* ``training`` — an enriched training shard (``enrich-shards``, or the training repository's own producer):
  schema metadata ``feature_schema`` and ``engine_version``; the feature columns are the columns after the six
  base columns; rows are named by game and ply;
* ``parquet`` — an ``extract`` Parquet output: metadata ``dicechess.enrichment`` (schema id and column names),
  a ``features`` column of ``fixed_size_list<float32>``; rows named by ``id``; no engine release stated;
* ``jsonl`` — an ``extract`` JSONL output: lines ``{id, schema, features}`` (and ``fen``, ``side`` where the
  user kept them), the column names in the sidecar ``FILE.meta.json`` when it is there; no release stated.

Reading goes through the enrichment readers' bounded paths: Parquet by
:func:`contract.enrichment.parquet.parquetfile.iter_table_chunks` (footer, page and cell limits, chunks cut by rows
and decoded bytes), JSONL by :func:`contract.enrichment.formats.jsonl.iter_lines` (a line over 1 MiB is refused
unread) and only the chosen lines are parsed. Refuses (:class:`DataProblem`, a finding of the ``data``
family): a file that cannot be read (corrupt Parquet, not JSONL text, a sidecar that is not JSON), a row
that cannot be read (named by its number).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from contract.core import strictjson
from contract.core.cappedread import read_capped
from contract.core.errors import ContractError
from contract.core.floattext import is_float32
from contract.core.oserrors import os_error_reason
from contract.core.regularfile import open_regular
from contract.datacheck.findings import Finding, finding
from contract.enrichment.formats import jsonl, training
from contract.enrichment.formats.metadata import METADATA_KEY, sidecar_path
from contract.enrichment.parquet import parquetfile, texts
from contract.enrichment.rows import EnrichmentError
from contract.enrichment.table import require_pyarrow
from contract.features.rows import BadRow

BASE_COLUMNS = training.BASE_COLUMNS  # the training shards' six base columns
FEATURES = "features"  # extract's column of vectors
RECORDING_KEY = b"dicechess.engine-recording"  # enrich-shards --engine-recording: the rule set it vouched for
CHUNK_ROWS = 2000
CHUNK_BYTES = 16 << 20
SIDECAR_LIMIT = 1 << 20
PARQUET = (".parquet", ".pq")
JSONL = (".jsonl", ".ndjson")


class DataProblem(ContractError, ValueError):
    """The file (or one row of it) cannot be checked; ``finding`` says why."""

    def __init__(self, found: Finding) -> None:
        super().__init__(found.message)
        self.finding = found


def _unreadable(reason: str) -> DataProblem:
    return DataProblem(finding("data.file.unreadable", reason=reason))


@dataclass(frozen=True)
class Header:
    """What the file states: its layout, schema, engine release, feature columns and their types."""

    kind: str
    schema_id: str | None
    schema_absent: str  # why no schema is stated (when ``schema_id`` is None)
    engine: str | None
    rule_set: str | None  # the rule set a recording vouched for (enrich-shards --engine-recording)
    columns: tuple[str, ...] | None  # None: the file names no columns (JSONL without its sidecar)
    types: tuple[str, ...]  # per feature column: its type as Arrow prints it
    width: int | None
    has_fen: bool
    rows: int
    stated: tuple[tuple[str, str | None], ...] = ()  # a shard's ruleset and perspective metadata, as read
    base: tuple[str, str] | None = None  # a shard's base column that is missing or of another type: (name, problem)
    not_text: str | None = None  # a shard's schema metadata key or value that is not UTF-8, described


@dataclass(frozen=True)
class Rows:
    """The chosen rows of one chunk: 0-based indices, identities, FEN and side cells, stored values (uint32 bits)."""

    indices: list[int]
    ids: list[str]
    fens: list[object]
    sides: list[object]
    bits: np.ndarray  # [n, width] uint32: the stored float32 values' bit patterns
    unreadable: dict[int, str]  # position in ``indices`` -> why that row cannot be read
    refused: list[tuple[int, str, str]] = field(default_factory=list)  # any row of the chunk the training
    # reader refuses: (0-based index in the file, identity, why)


Chooser = Callable[[int, int], list[int]]  # (start, stop) -> the chosen 0-based indices in [start, stop)


def kind_of(path: Path) -> str | None:
    suffix = path.suffix.lower()
    return "parquet" if suffix in PARQUET else "jsonl" if suffix in JSONL else None


def _text(metadata: dict[bytes, bytes], key: bytes) -> str | None:
    value = metadata.get(key)
    return None if value is None else value.decode("utf-8", "replace")


def _parquet_header(path: Path) -> Header:
    pa = require_pyarrow()
    try:
        schema = parquetfile.read_raw_schema(path)
        rows = parquetfile.input_rows(path)
    except EnrichmentError as exc:
        raise _unreadable(_without_path(str(exc), path)) from None
    except (pa.ArrowException, OSError) as exc:
        raise _unreadable(f"not a readable Parquet file ({exc})") from None
    metadata = dict(schema.metadata or {})
    names = list(schema.names)
    if b"feature_schema" in metadata or _text(metadata, b"dicechess_training_schema") == "v0-enriched":
        features = names[len(BASE_COLUMNS):]  # as the training reader reads them: whatever follows six columns
        engine = _text(metadata, b"engine_version")
        return Header("training", _text(metadata, b"feature_schema"), "no feature_schema metadata", engine,
                      _recorded_rule_set(metadata), tuple(features),
                      tuple(str(schema.field(name).type) for name in features), len(features), "fen" in names, rows,
                      tuple((key, _text(metadata, key.encode())) for key in ("ruleset", "perspective")),
                      _base_problem(schema), _not_text(metadata))
    stated = metadata.get(METADATA_KEY.encode())
    if stated is None:
        return Header("parquet", None, f"no feature_schema or {METADATA_KEY} metadata: not an enriched shard or an"
                      " extract output", None, None, None, (), None, "fen" in names, rows)
    doc = _json_object(stated, f"its {METADATA_KEY} metadata")
    columns = doc.get("columns")
    if FEATURES not in names:
        raise _unreadable(f"no '{FEATURES}' column (an extract output has one)")
    kind = schema.field(FEATURES).type
    width = kind.list_size if pa.types.is_fixed_size_list(kind) else None
    value_type = str(kind.value_type) if pa.types.is_list(kind) or pa.types.is_fixed_size_list(kind) \
        or pa.types.is_large_list(kind) else str(kind)
    named = tuple(str(name) for name in columns) if isinstance(columns, list) else None
    count = width if width is not None else (len(named) if named is not None else 0)
    return Header("parquet", _schema_text(doc), f"its {METADATA_KEY} metadata names none", None, None,
                  named, (value_type,) * count if width is not None else (str(kind),) * max(count, 1),
                  width, "fen" in names, rows)


def _not_text(metadata: dict[bytes, bytes]) -> str | None:
    """The first schema metadata key, or value of a key, that is not UTF-8 (``key b'producer\\xff'``)."""
    for key, value in metadata.items():
        for what, data in ((f"key {key!r}", key), (f"value of key {key.decode('utf-8', 'replace')!r}", value)):
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                return what
    return None


def _base_problem(schema: Any) -> tuple[str, str] | None:
    """A shard's first base column (``game_id`` ... ``result``, by name) that is missing or of another type."""
    for base in training.base_schema():
        index = schema.get_field_index(base.name)
        if index < 0:
            return base.name, "is missing" if base.name not in schema.names else "appears more than once"
        if schema.field(index).type != base.type:
            return base.name, f"has type {schema.field(index).type}, expected {base.type}"
    return None


def _schema_text(doc: dict[str, Any]) -> str | None:
    schema = doc.get("schema")
    return schema if isinstance(schema, str) else None


def _recorded_rule_set(metadata: dict[bytes, bytes]) -> str | None:
    stamp = metadata.get(RECORDING_KEY)
    if stamp is None:
        return None
    try:
        doc = json.loads(stamp)
    except ValueError:
        return None
    return doc.get("ruleSet") if isinstance(doc, dict) and isinstance(doc.get("ruleSet"), str) else None


def _without_path(message: str, path: Path) -> str:
    prefix = f"{path}: "
    return message[len(prefix):] if message.startswith(prefix) else message


def _json_object(data: bytes, what: str) -> dict[str, Any]:
    try:
        doc = strictjson.parse(data)
    except strictjson.StrictJsonError as exc:
        raise _unreadable(f"{what} is not JSON ({exc})") from None
    if not isinstance(doc, dict):
        raise _unreadable(f"{what} holds no JSON object")
    return doc


def _jsonl_header(path: Path) -> Header:
    sidecar = sidecar_path(path)
    stated: dict[str, Any] | None = None
    try:
        if sidecar.exists():
            data = read_capped(sidecar, SIDECAR_LIMIT)
            if data is None:
                raise _unreadable(f"its sidecar {sidecar.name} is larger than {SIDECAR_LIMIT} bytes")
            stated = _json_object(data, f"its sidecar {sidecar.name}")
        first: object = None
        rows = 0
        with _open(path) as handle:
            head = handle.peek(8)[:8] if hasattr(handle, "peek") else b""
            what = jsonl.not_jsonl(head)
            if what is not None:
                raise _unreadable(f"not JSONL: {what.split(' (')[0]}")
            for _number, raw in jsonl.iter_lines(handle):
                if rows == 0:
                    first = jsonl.decode_line(raw)
                rows += 1
    except OSError as exc:
        raise _unreadable(os_error_reason(exc)) from None
    if isinstance(first, BadRow):
        raise _unreadable(f"not JSONL: line 1 holds no JSON object ({first.reason})")
    if rows and not isinstance(first, dict):
        raise _unreadable("not JSONL: line 1 holds no JSON object")
    line = first if isinstance(first, dict) else {}
    columns = stated.get("columns") if stated is not None else None
    named = tuple(str(name) for name in columns) if isinstance(columns, list) else None
    schema = _schema_text(stated) if stated is not None else None
    if schema is None and isinstance(line.get("schema"), str):
        schema = str(line["schema"])
    vector = line.get(FEATURES)
    width = len(vector) if isinstance(vector, list) else (len(named) if named is not None else None)
    dtype = stated.get("dtype") if stated is not None else "float32"
    count = len(named) if named is not None else (width or 0)
    return Header("jsonl", schema, f"no sidecar {sidecar.name} and no 'schema' in its first line", None, None,
                  named, (str(dtype),) * count, width, rows == 0 or "fen" in line, rows)


def _open(path: Path) -> Any:
    return open_regular(path)  # a regular file only: never waits on a FIFO


def read_header(path: Path) -> Header:
    """What ``path`` states (:class:`DataProblem` when it cannot be read)."""
    return _parquet_header(path) if kind_of(path) == "parquet" else _jsonl_header(path)


def label(kind: str, row: dict[str, Any]) -> str:
    """A row's identity as the file names it: ``game 'g1' ply 3``, or ``id 'r7'``."""
    if kind == "training":
        return f"game {row.get('game_id')!r} ply {row.get('ply')}"
    return f"id {row.get('id')!r}"


def parquet_rows(path: Path, header: Header, choose: Chooser, width: int) -> Iterator[Rows]:
    """The chosen rows of a Parquet file, chunk by chunk (the enrichment reader's bounded chunks); for an
    enriched shard, every row of every chunk is also held to the training reader's row rules."""
    pa = require_pyarrow()
    start = 0
    try:
        for table in parquetfile.iter_table_chunks(path, CHUNK_ROWS, CHUNK_BYTES):
            stop = start + table.num_rows
            chosen = choose(start, stop)
            refused = shard_rows(pa, header, table, start) if header.kind == "training" else []
            if chosen:
                rows = _parquet_chunk(pa, header, table.take([index - start for index in chosen]), chosen, width)
                yield Rows(rows.indices, rows.ids, rows.fens, rows.sides, rows.bits, rows.unreadable, refused)
            elif refused:
                yield Rows([], [], [], [], np.zeros((0, width), dtype=np.uint32), {}, refused)
            start = stop
    except EnrichmentError as exc:
        raise _unreadable(_without_path(str(exc).removesuffix("; nothing was written"), path)) from None


def shard_rows(pa: Any, header: Header, table: Any, start: int) -> list[tuple[int, str, str]]:
    """Every row of an enriched shard's chunk that the training reader refuses: a null, an empty FEN, a
    negative ply, a side other than ``w``/``b``, a result outside {0, 0.5, 1}, dice that are not three
    letters of ``PNBRQK`` (any case), a feature value that is null or not finite. Vectorised over the
    chunk; the rules' values are the training format's (:mod:`contract.enrichment.formats.training`)."""
    import pyarrow.compute as pc

    if header.base is not None:
        return []  # the file is refused as a whole
    games, plies = _cells(table, "game_id"), table.column("ply").to_pylist()
    bad, table = _utf8_rows(pa, table)
    tests: list[tuple[str, Any]] = [(f"{name} is null", column.is_null()) for name, column in
                                    ((name, table.column(name)) for name in BASE_COLUMNS)]
    fen, side, result, dice = (table.column(name) for name in ("fen", "side", "result", "dice"))
    letters = f"^[{training.DICE}]{{{training.DICE_COUNT}}}$"
    tests += [
        ("fen is empty", pc.equal(pc.utf8_trim_whitespace(fen), "")),
        ("ply is negative", pc.less(table.column("ply"), 0)),
        (f"side is not one of {training.SIDES}", pc.invert(pc.is_in(side, value_set=pa.array(training.SIDES)))),
        (f"result is not one of {training.RESULTS}",
         pc.invert(pc.is_in(result, value_set=pa.array(training.RESULTS, pa.float32())))),
        (f"dice are not {training.DICE_COUNT} letters from {training.DICE!r}",
         pc.invert(pc.match_substring_regex(pc.utf8_upper(dice), letters))),
    ]
    for name in header.columns or ():
        if pa.types.is_floating(table.schema.field(name).type):
            values = table.column(name)
            broken = pc.or_kleene(values.is_null(), pc.invert(pc.is_finite(values)))
            tests.append((f"{name} is null or not finite", broken))
    for reason, mask in tests:
        flags = np.asarray(mask.to_numpy(zero_copy_only=False) if hasattr(mask, "to_numpy") else mask)
        for position in np.flatnonzero(flags == True):  # noqa: E712 (a null mask cell is no violation)
            bad.setdefault(int(position), reason)
    return [(start + position, label("training", {"game_id": games[position], "ply": plies[position]}), reason)
            for position, reason in sorted(bad.items())]


def _utf8_rows(pa: Any, table: Any) -> tuple[dict[int, str], Any]:
    """The rows of a shard's chunk with a text cell that is not UTF-8 (Parquet does not check; the training
    reader cannot read such a shard), and the chunk with those cells made null for the other rules."""
    import pyarrow.compute as pc

    bad: dict[int, str] = {}
    for name in ("fen", "dice", "side"):  # seen live: the reader reads these cells, and reads game_id unchecked
        column = table.column(name)
        try:
            column.validate(full=True)
            continue
        except pa.ArrowInvalid:
            values = texts.cells(column)
        broken = [isinstance(value, texts.NotUtf8) for value in values]
        for position, value in enumerate(values):
            if isinstance(value, texts.NotUtf8):
                bad.setdefault(position, value.problem(name))
        raw = pc.if_else(pa.array(broken), pa.scalar(None, pa.binary()), column.cast(pa.binary()))
        index = table.schema.get_field_index(name)
        table = table.set_column(index, table.schema.field(index), raw.cast(pa.string()))
    return bad, table


def _cells(table: Any, name: str) -> list[Any]:
    """A text column's values, a cell that is not UTF-8 shown with ``\\xNN`` for its bad bytes."""
    return [value.text if isinstance(value, texts.NotUtf8) else value for value in texts.cells(table.column(name))]


def _parquet_chunk(pa: Any, header: Header, table: Any, chosen: list[int], width: int) -> Rows:
    names = table.schema.names
    cells = {name: texts.cells(table.column(name)) for name in ("game_id", "ply", "id", "fen", "side") if name in names}
    count = table.num_rows
    unreadable: dict[int, str] = {}
    for name, texts_read in cells.items():
        for position, value in enumerate(texts_read):
            if isinstance(value, texts.NotUtf8) and name in ("game_id", "id"):
                texts_read[position] = value.text  # an identity only: shown with \\xNN for its bad bytes
            elif isinstance(value, texts.NotUtf8):
                unreadable.setdefault(position, value.problem(name))
                texts_read[position] = None
    bits = np.zeros((count, width), dtype=np.uint32)
    if header.kind == "training":
        assert header.columns is not None
        for index, name in enumerate(header.columns):
            column = table.column(name).combine_chunks()
            for null_at in np.flatnonzero(column.is_null().to_numpy(zero_copy_only=False)):
                unreadable.setdefault(int(null_at), f"column '{name}' is null")
            values = column.to_numpy(zero_copy_only=False).astype(np.float32, copy=False)
            bits[:, index] = values.view(np.uint32)
    else:
        column = table.column(FEATURES).combine_chunks()
        for null_at in np.flatnonzero(column.is_null().to_numpy(zero_copy_only=False)):
            unreadable.setdefault(int(null_at), f"'{FEATURES}' is null")
        flat = column.values.slice(column.offset * width, count * width)
        values = np.nan_to_num(flat.to_numpy(zero_copy_only=False).astype(np.float32, copy=False), nan=0.0) \
            if flat.null_count else flat.to_numpy(zero_copy_only=False).astype(np.float32, copy=False)
        bits[:, :] = values.view(np.uint32).reshape(count, width)
    rows = [{name: cells[name][k] for name in cells} for k in range(count)]
    return Rows(chosen, [label(header.kind, row) for row in rows], [row.get("fen") for row in rows],
                [row.get("side") for row in rows], bits, unreadable)


def _float32_bits(value: object) -> int | None:
    """The bit pattern of the float32 a JSON number denotes (read as a double, rounded to float32, as the
    goldens and extract's shortest texts are read), or ``None`` for what is no number or beyond float32."""
    if not is_float32(value) or not isinstance(value, int | float):
        return None
    return int(np.array([float(value)], dtype=np.float64).astype(np.float32).view(np.uint32)[0])


def jsonl_rows(path: Path, header: Header, choose: Chooser, width: int) -> Iterator[Rows]:
    """The chosen lines of a JSONL file (only they are parsed), a chunk at a time."""
    start = 0
    try:
        with _open(path) as handle:
            lines = jsonl.iter_lines(handle)
            while True:
                block = [raw for _, (_, raw) in zip(range(CHUNK_ROWS), lines, strict=False)]
                if not block:
                    return
                stop = start + len(block)
                chosen = choose(start, stop)
                if chosen:
                    yield _jsonl_chunk([block[index - start] for index in chosen], chosen, width)
                start = stop
    except OSError as exc:
        raise _unreadable(os_error_reason(exc)) from None


def _jsonl_chunk(raws: list[bytes], chosen: list[int], width: int) -> Rows:
    ids: list[str] = []
    fens: list[object] = []
    sides: list[object] = []
    unreadable: dict[int, str] = {}
    bits = np.zeros((len(raws), width), dtype=np.uint32)
    for position, raw in enumerate(raws):
        row = jsonl.decode_line(raw)
        if isinstance(row, BadRow) or not isinstance(row, dict):
            reason = row.reason if isinstance(row, BadRow) else "no JSON object"
            unreadable[position] = f"not a JSONL row ({reason})"
            row = {}
        ids.append(label("jsonl", row))
        fens.append(row.get("fen"))
        sides.append(row.get("side"))
        vector = row.get(FEATURES)
        if position in unreadable:
            continue
        if not isinstance(vector, list) or len(vector) != width:
            unreadable[position] = f"'{FEATURES}' is not a list of {width} numbers"
            continue
        for index, value in enumerate(vector):
            found = _float32_bits(value)
            if found is None:
                unreadable[position] = f"'{FEATURES}'[{index}] = {value!r} is not a number within float32's range"
                break
            bits[position, index] = found
    return Rows(chosen, ids, fens, sides, bits, unreadable)
