"""The JSONL format: rows ``{id, fen, side?}`` in, the lines ``extract`` prints out (one format module).

An input line is a JSON object with ``id``, ``fen`` and optionally ``side``; blank lines are skipped
(they are not rows). An output line is exactly what ``extract`` prints for that row
(``contract.features.rows.format_vectors``: ``{"id": …, "schema": …, "features": […]}``, each value the
shortest text that reads back as the same float32), in input order, so a file run and a run to stdout
agree line for line. Other input fields are not carried into JSONL output (join on ``id``; the
Parquet format keeps every column). A file run writes the enrichment metadata beside the output, in
``OUTPUT.meta.json`` (:func:`companions`).

Refused per row, into the rejects with the line number: a line that is not strict JSON (see
``contract.core.strictjson``: NaN, duplicate keys, a byte-order mark, bytes that are not UTF-8, …), a line
longer than ``strictjson.MAX_BYTES`` (never held in memory whole: the rest of it is skipped) and
everything ``extract_rows`` refuses. Lines end at ``\n`` only (a ``\r`` before it is whitespace),
the same for a file and for stdin, so line numbers agree between ``extract`` to stdout and the bulk
path. Refused as a whole: a file that starts like a compressed file or a Parquet file (:func:`not_jsonl`).

A regular file is read in chunks; a pipe or a terminal one line at a time, so each output line is
written as soon as its input line has arrived (``tail -f log | extract``).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import nullcontext
from pathlib import Path
from typing import IO, Any

from contract.core import strictjson
from contract.core.cappedread import read_capped
from contract.core.oserrors import os_error_reason
from contract.core.regularfile import open_regular
from contract.core.stagedfile import StagedFile, write_atomic
from contract.enrichment.format import Batch, Chunk, Companion, Encoded, Reject
from contract.enrichment.formats.metadata import metadata_text, sidecar_path
from contract.enrichment.rows import EnrichmentError, OptionError, RowBatch
from contract.enrichment.targets import naming
from contract.features.extractors import ResolvedSchema
from contract.features.rows import BadRow, format_vectors

NAME = "jsonl"
EXTENSIONS = (".jsonl", ".ndjson")
PART_SUFFIX = ".jsonl"

Line = tuple[int, bytes]  # (1-based line number, raw bytes including the newline)

MAX_LINE_BYTES = strictjson.MAX_BYTES  # a longer line is refused without being read into memory
_SKIP_BLOCK = 1 << 20


# Files that are not JSONL text but are often handed to a JSONL reader by mistake: refused as a
# whole (one message) instead of one "not UTF-8" reject per line.
_NOT_JSONL = (
    (b"\x1f\x8b", "gzip-compressed (decompress it first, e.g. zcat FILE | python -m contract extract --input - …)"),
    (b"\x28\xb5\x2f\xfd", "zstd-compressed (decompress it first, e.g. zstdcat FILE | …)"),
    (b"BZh", "bzip2-compressed (decompress it first, e.g. bzcat FILE | …)"),
    (b"\xfd7zXZ\x00", "xz-compressed (decompress it first, e.g. xzcat FILE | …)"),
    (b"PAR1", "a Parquet file (give it a .parquet name, or pass --format parquet with --output FILE)"),
)


def not_jsonl(head: bytes) -> str | None:
    """What a file starting with ``head`` is, when it is clearly not JSONL text; else ``None``."""
    for magic, description in _NOT_JSONL:
        if head.startswith(magic):
            return description
    return None


def iter_lines(handle: IO[bytes], counted: list[int] | None = None) -> Iterator[Line]:
    """``(line number, raw bytes)`` for every non-blank line of a binary stream; lines end at ``\n``.

    A line longer than :data:`MAX_LINE_BYTES` is yielded cut to ``MAX_LINE_BYTES + 1`` bytes (the rest
    is skipped unread), which :func:`decode_line` refuses: memory stays bounded whatever the input.
    ``counted[0]``, when given, is kept at the number of bytes read so far."""
    tally = counted if counted is not None else [0]
    number = 0
    while raw := handle.readline(MAX_LINE_BYTES + 1):
        number += 1
        tally[0] += len(raw)
        if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
            while (rest := handle.readline(_SKIP_BLOCK)) and not rest.endswith(b"\n"):
                tally[0] += len(rest)
            tally[0] += len(rest)
            yield number, raw
            continue
        if raw.strip():
            yield number, raw


def iter_line_chunks(handle: IO[bytes], chunk_size: int, chunk_bytes: int) -> Iterator[tuple[list[Line], int]]:
    """Chunks of non-blank lines, each with the number of input bytes read after it.

    A chunk ends after ``chunk_size`` lines or as soon as its lines reach ``chunk_bytes`` bytes,
    whichever comes first, so memory is bounded in bytes as well as in rows; the cut depends on the
    input alone, so a resumed run cuts where the first one did."""
    chunk: list[Line] = []
    held = 0
    counted = [0]
    for line in iter_lines(handle, counted):
        chunk.append(line)
        held += len(line[1])
        if len(chunk) >= chunk_size or held >= chunk_bytes:
            yield chunk, counted[0]
            chunk, held = [], 0
    if chunk:
        yield chunk, counted[0]


def decode_line(raw: bytes) -> Any:
    """One input line as a row: the parsed JSON value, or a :class:`BadRow` saying why it is not one."""
    if len(raw) > MAX_LINE_BYTES:
        return BadRow(f"line longer than {MAX_LINE_BYTES} bytes (not read)")
    try:
        return strictjson.parse_fast(raw)
    except strictjson.StrictJsonError as exc:
        return BadRow(str(exc))


def _is_stream(handle: IO[bytes]) -> bool:
    try:
        return not stat.S_ISREG(os.fstat(handle.fileno()).st_mode)
    except (OSError, ValueError, AttributeError):
        return True


class _Reader:
    """A JSONL input: a file by path (opened once, so a named pipe is read once) or an open stream."""

    label = "line"
    carried = None

    def __init__(self, source: Path | IO[bytes], name: str) -> None:
        self.path = source if isinstance(source, Path) else None
        self.name = name
        if isinstance(source, Path):
            with naming(source, "cannot be read"):
                self.handle: IO[bytes] = open(source, "rb")  # noqa: SIM115  (closed by close())
        else:
            self.handle = source
        try:
            peek = getattr(self.handle, "peek", None)
            kind = not_jsonl(peek(8)[:8]) if peek is not None else None
        except BaseException:
            self.close()
            raise
        if kind is not None:
            self.close()
            raise EnrichmentError(f"{name}: not JSONL text: this is {kind}")

    def chunks(self, rows: int, budget: int) -> Iterator[Chunk]:
        size = 0 if _is_stream(self.handle) else max(os.fstat(self.handle.fileno()).st_size, 1)
        offset = 0
        with naming(self.path, "cannot be read") if self.path is not None else nullcontext():
            for lines, reached in iter_line_chunks(self.handle, 1 if size == 0 else rows, budget):
                yield Chunk(lines, lines[0][0], len(lines), (reached - offset) / size if size else 0.0)
                offset = reached

    def close(self) -> None:
        if self.path is not None:
            self.handle.close()


def open_reader(source: Path | IO[bytes], name: str) -> _Reader:
    """The input, checked: refused as a whole when it is clearly not JSONL text (compressed, Parquet)."""
    return _Reader(source, name)


def decode(payload: list[Line], first: int) -> Batch:
    """Numbered lines as rows (a line that is not a JSON row is a :class:`BadRow` saying why)."""
    return Batch([decode_line(raw) for _, raw in payload], [number for number, _ in payload])


def target(schema: ResolvedSchema, carried: Any, engine: str | None) -> str:
    """A JSONL output line names its schema; nothing else shapes it (the input's columns are not carried)."""
    return schema.id


def stamped(target: str, extra: dict[bytes, bytes]) -> str:
    """A JSONL line carries no metadata: any additional key is refused (its sidecar is the kit's own)."""
    if extra:
        raise OptionError(f"JSONL output carries no additional metadata ({', '.join(key.decode() for key in extra)})")
    return target


def encode(schema: ResolvedSchema, batch: Batch, found: RowBatch, target: Any) -> Encoded:
    """The accepted rows as ``extract`` output lines; the others as rejects with their line numbers."""
    accepted = [index for index, error in enumerate(found.errors) if error is None]
    rejects: list[Reject] = [(found.ids[index], batch.numbers[index], error)
                             for index, error in enumerate(found.errors) if error is not None]
    return Encoded(lines(schema.id, [found.ids[index] for index in accepted], found.vectors[accepted]),
                   len(accepted), rejects)


def lines(schema_id: str, ids: list[Any], vectors: Any) -> bytes:
    """``extract`` output lines for rows with these ids and this float32 matrix (one row per id)."""
    return "".join(line + "\n" for line in format_vectors(schema_id, ids, vectors)).encode("utf-8")


class _Writer:
    """Lines to a file (a temporary sibling, renamed by the run) or to a stream (each chunk flushed)."""

    def __init__(self, output: Path | IO[bytes]) -> None:
        self.staged = StagedFile(output) if isinstance(output, Path) else None
        self.handle: Any = self.staged.__enter__() if self.staged is not None else output

    def write(self, rows: bytes) -> None:
        self.handle.write(rows)
        if self.staged is None:  # a stream: each chunk as soon as it is done
            self.handle.flush()

    def append_part(self, path: Path) -> int:
        with open(path, "rb") as part:
            return copy_counting_lines(part, self.handle)

    def finish(self) -> list[StagedFile]:
        if self.staged is None:
            self.handle.flush()
            return []
        self.staged.__exit__(None, None, None)  # flush, fsync, close (removed if that fails)
        return [self.staged]

    def abandon(self) -> None:
        if self.staged is not None:
            self.handle.close()
            self.staged.discard()


def copy_counting_lines(source: Any, sink: Any) -> int:
    count = 0
    while block := source.read(1 << 20):
        count += block.count(b"\n")
        sink.write(block)
    return count


def open_writer(output: Path | IO[bytes], target: Any) -> _Writer:
    return _Writer(output)


def companions(output: Path, schema: ResolvedSchema) -> list[Companion]:
    """The metadata sidecar ``OUTPUT.meta.json`` (a first line would break readers that expect rows)."""
    return [Companion("metadata sidecar", sidecar_path(output), metadata_text(schema).encode("utf-8"))]


def store_part(path: Path, rows: bytes) -> None:
    write_atomic(path, rows)


def input_rows(path: Path) -> int | None:
    return None  # only reading the lines would tell (blank lines are not rows)


def finished(path: Path, schema: ResolvedSchema, engine: str | None, rows: int,
             source: Path | None = None) -> str | None:
    """Why ``path`` is not a complete output of ``schema`` with ``rows`` lines, or ``None``."""
    sidecar = sidecar_path(path)
    wanted = metadata_text(schema).encode("utf-8")
    try:  # a regular file, read no further than this run's sidecar could be
        if read_capped(sidecar, len(wanted)) != wanted:
            return f"its metadata sidecar {sidecar.name} is not this run's"
        count = 0
        with open_regular(path) as handle:
            while block := handle.read(1 << 20):
                count += block.count(b"\n")
    except OSError as exc:
        return f"it cannot be read ({os_error_reason(exc)})"
    return None if count == rows else f"it has {count} lines, the input {rows}"
