"""JSONL in, JSONL out, a chunk of lines at a time.

An input line is a JSON object with ``id``, ``fen`` and optionally ``side``; blank lines are skipped
(they are not rows). An output line is exactly what ``extract`` prints for that row
(``contract.features.rows.format_row``: ``{"id": …, "schema": …, "features": […]}``, each value the
shortest text that reads back as the same float32), in input order, so a file run and a run to stdout
agree line for line. Other input fields are not carried into JSONL output (join on ``id``; the
Parquet path keeps every column).

Refused per row, into the rejects file with the line number: a line that is not strict JSON (see
``contract.core.strictjson``: NaN, duplicate keys, a byte-order mark, bytes that are not UTF-8, …), a line
longer than ``strictjson.MAX_BYTES`` (never held in memory whole: the rest of it is skipped) and
everything ``extract_rows`` refuses. Lines end at ``\n`` only (a ``\r`` before it is whitespace),
the same for a file and for stdin, so line numbers agree between ``extract`` to stdout and the bulk
path.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

from contract.core import strictjson
from contract.enrichment.rows import results
from contract.features.rows import BadRow, RowResult, format_row

Line = tuple[int, bytes]  # (1-based line number, raw bytes including the newline)


@dataclass(frozen=True)
class EncodedChunk:
    """A chunk turned into output bytes and rejects bytes (both JSONL)."""

    rows: bytes
    rejects: bytes
    accepted: int
    rejected: int


MAX_LINE_BYTES = strictjson.MAX_BYTES  # a longer line is refused without being read into memory
_SKIP_BLOCK = 1 << 20


def reject_line(row_id: object, line: int, error: str) -> str:
    """One line of a rejects file: ``{"id": …, "line": …, "error": …}`` (compact, UTF-8).

    Text that cannot be UTF-8 (a lone surrogate, from a ``\\ud800`` escape in the input) is written
    as a JSON escape instead, so the line is always valid UTF-8 JSON."""
    kept_id = row_id if isinstance(row_id, str | int) and not isinstance(row_id, bool) else None
    record = {"id": kept_id, "line": line, "error": error}
    text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(record, ensure_ascii=True, separators=(",", ":"))
    return text + "\n"


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
        return strictjson.parse(raw)
    except strictjson.StrictJsonError as exc:
        return BadRow(str(exc))


def encode_results(schema_id: str, numbered: list[tuple[int, RowResult]]) -> EncodedChunk:
    """Output lines for the accepted rows and rejects lines (with their line numbers) for the others."""
    rows: list[str] = []
    rejects: list[str] = []
    for number, result in numbered:
        if result.error is None:
            rows.append(format_row(schema_id, result) + "\n")
        else:
            rejects.append(reject_line(result.id, number, result.error))
    return EncodedChunk(
        rows="".join(rows).encode("utf-8"),
        rejects="".join(rejects).encode("utf-8"),
        accepted=len(rows),
        rejected=len(rejects),
    )


def numbered_results(schema_id: str, numbered_rows: list[tuple[int, Any]]) -> list[tuple[int, RowResult]]:
    """``results`` over rows that carry their line numbers (a row may be a :class:`BadRow`)."""
    outcome = results(schema_id, [row for _, row in numbered_rows])
    return [(number, result) for (number, _), result in zip(numbered_rows, outcome, strict=True)]


def decode_chunk(lines: list[Line]) -> list[tuple[int, Any]]:
    return [(number, decode_line(raw)) for number, raw in lines]


def encode_chunk(schema_id: str, lines: list[Line]) -> EncodedChunk:
    """Enrich one chunk of JSONL lines into JSONL (runs in a worker process)."""
    return encode_results(schema_id, numbered_results(schema_id, decode_chunk(lines)))
