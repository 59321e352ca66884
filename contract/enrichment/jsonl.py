"""JSONL in, JSONL out, a chunk of lines at a time.

An input line is a JSON object with ``id``, ``fen`` and optionally ``side``; blank lines are skipped
(they are not rows). An output line is exactly what ``extract`` prints for that row
(``contract.features.rows.format_row``: ``{"id": …, "schema": …, "features": […]}``, each value the
shortest text that reads back as the same float32), in input order, so a file run and a run to stdout
agree line for line. Other input fields are not carried into JSONL output (join on ``id``; the
Parquet path keeps every column).

Refused per row, into the rejects file with the line number: a line that is not strict JSON (see
``contract.strictjson``: NaN, duplicate keys, …) and everything ``extract_rows`` refuses.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from contract import strictjson
from contract.enrichment.rows import results
from contract.features.rows import BadRow, format_row

Line = tuple[int, bytes]  # (1-based line number, raw bytes including the newline)


@dataclass(frozen=True)
class EncodedChunk:
    """A chunk turned into output bytes and rejects bytes (both JSONL)."""

    rows: bytes
    rejects: bytes
    accepted: int
    rejected: int


def reject_line(row_id: object, line: int, error: str) -> str:
    """One line of a rejects file: ``{"id": …, "line": …, "error": …}`` (compact, UTF-8)."""
    kept_id = row_id if isinstance(row_id, str | int) and not isinstance(row_id, bool) else None
    return json.dumps({"id": kept_id, "line": line, "error": error}, ensure_ascii=False,
                      separators=(",", ":")) + "\n"


def iter_line_chunks(path: Path, chunk_size: int) -> Iterator[tuple[list[Line], int]]:
    """Chunks of ``chunk_size`` non-blank lines, each with the input byte offset reached after it."""
    chunk: list[Line] = []
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            chunk.append((number, raw))
            if len(chunk) == chunk_size:
                yield chunk, handle.tell()
                chunk = []
        if chunk:
            yield chunk, handle.tell()


def _decode(raw: bytes) -> Any:
    try:
        return strictjson.parse(raw)
    except strictjson.JsonRefusal as exc:
        return BadRow(str(exc))


def encode_chunk(schema_id: str, lines: list[Line]) -> EncodedChunk:
    """Enrich one chunk of JSONL lines (runs in a worker process)."""
    rows: list[str] = []
    rejects: list[str] = []
    outcome = results(schema_id, [_decode(raw) for _, raw in lines])
    for (number, _), result in zip(lines, outcome, strict=True):
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
