"""The streaming run: ``--fen``, or rows from stdin or a file, to stdout or to one output file.

Served by the same chunk step as the file run (:func:`contract.enrichment.runs.encoding.encode`), so a row
gets the same vector or the same refusal whichever way ``extract`` is asked. What differs is where
things go: output rows to stdout as soon as their chunk is done (or into ``--output``, written under a
temporary name and renamed when complete), and each refused row as one line on the error stream,
``extract: line 7 (id 'g7'): <why>`` (``row 7`` for Parquet input, ``--fen`` for ``--fen``; no
``(id …)`` part when the row has no usable id), instead of a rejects file. No parts directory, no
resume: a stream cannot be re-read.

Input from a pipe or a terminal is taken one line at a time (each output line is written as soon as
its input line has arrived); a regular file is taken in chunks, as in the file run.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, TextIO

from contract.core.consoletext import console_text
from contract.enrichment.engines import rules_of
from contract.enrichment.format import Batch, Encoded, Format, Reader, Writer
from contract.enrichment.formats import registry as formats
from contract.enrichment.rows import EnrichmentError
from contract.enrichment.runs.encoding import encode, enrich_batch
from contract.enrichment.runs.pipeline import DEFAULT_CHUNK_BYTES, DEFAULT_CHUNK_SIZE
from contract.enrichment.targets import Source, Target, check_targets, naming
from contract.features.dfen import quote
from contract.features.extractors import ResolvedSchema, as_resolved, resolve


@dataclass(frozen=True)
class StreamOptions:
    schema_id: str
    input: Path | None = None  # None: stdin (unless fen is given)
    output: Path | None = None  # None: stdout (JSONL)
    fen: str | None = None
    side: str | None = None  # with fen
    row_id: str | None = None  # with fen; default "fen"
    overwrite: bool = False
    stdin: IO[bytes] | None = field(default=None, compare=False)  # None: sys.stdin.buffer
    stdout: IO[bytes] | None = field(default=None, compare=False)  # None: sys.stdout.buffer
    errors: TextIO | None = field(default=None, compare=False)  # None: sys.stderr
    engine_version: str | None = None  # whose answer (``--engine-version``); None: the kit's default release


@dataclass(frozen=True)
class StreamSummary:
    rows: int
    rejected: int


def _stdin(options: StreamOptions) -> IO[bytes]:
    if options.stdin is not None:
        return options.stdin
    buffer: IO[bytes] | None = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # started with stdin closed (``<&-``)
        raise EnrichmentError("stdin is closed: nothing to read for --input -")
    return buffer


class _TextOut:
    """Bytes to a text stream that has no binary buffer (an ``io.StringIO`` standing in for stdout)."""

    def __init__(self, text: TextIO) -> None:
        self.text = text

    def write(self, data: bytes) -> int:
        return self.text.write(data.decode("utf-8"))

    def flush(self) -> None:
        self.text.flush()


def _stdout(options: StreamOptions) -> Any:
    if options.stdout is not None:
        return options.stdout
    if sys.stdout is None:  # started with stdout closed (``>&-``)
        raise EnrichmentError("stdout is closed: give --output FILE")
    buffer: IO[bytes] | None = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        return _TextOut(sys.stdout)
    sys.stdout.flush()  # anything printed as text goes first
    return buffer


def _format(path: Path | None) -> str:
    """A path's format by its extension; JSONL for a stream and for a name no format claims."""
    return (formats.of_path(path) if path is not None else None) or formats.DEFAULT


def enrich_stream(options: StreamOptions) -> StreamSummary:
    """Run one streaming extraction; rejected rows are reported on ``options.errors`` as they come."""
    schema = resolve(options.schema_id)  # once per run; an unknown id refuses before anything is read or created
    schema = as_resolved(schema, rules_of(options.engine_version))  # so does an engine version without known rules
    source, sink = _format(options.input), _format(options.output)
    errors = options.errors or sys.stderr
    with ExitStack() as stack:
        reader = _open_reader(options, source)
        if reader is not None:
            stack.callback(reader.close)
        if options.output is not None:
            sources = [Source("input", options.input)] if options.input is not None else []
            if reader is not None and options.input is None:
                sources.append(Source("input", None, fd=_fileno(_stdin(options))))
            check_targets(sources, [Target("output", options.output)], replace=options.overwrite)
        target = formats.get(sink).target(schema, reader.carried if reader is not None else None, None)
        name = "stdout" if options.output is None else str(options.output)
        with naming(Path(name)):
            writer = formats.get(sink).open_writer(options.output or _stdout(options), target)
        finished = False

        def abandon() -> None:
            if not finished:
                writer.abandon()

        stack.callback(abandon)
        rows = rejected = 0
        for encoded, label in _encoded(options, (source, sink), reader, target, schema):
            with naming(Path(name)):
                writer.write(encoded.rows)
            rows += encoded.accepted
            rejected += len(encoded.rejects)
            for row_id, line, error in encoded.rejects:
                where = "--fen" if options.fen is not None else f"{label} {line}"
                ident = "" if row_id is None else f" (id {quote(row_id)})"  # never "id None"
                errors.write(console_text(f"extract: {where}{ident}: {error}") + "\n")
        _finish(writer, Path(name))
        finished = True
    return StreamSummary(rows, rejected)


def _finish(writer: Writer, name: Path) -> None:
    with naming(name):
        for complete in writer.finish():
            complete.publish()


def _fileno(handle: IO[bytes]) -> int | None:
    try:
        return handle.fileno()
    except (OSError, ValueError, AttributeError):
        return None


def _open_reader(options: StreamOptions, source: str) -> Reader | None:
    """The input, opened and checked by its format; ``None`` for ``--fen``."""
    if options.fen is not None:
        return None
    if options.input is None:
        return formats.get(source).open_reader(_stdin(options), "stdin")
    if options.input.is_dir():
        raise EnrichmentError(f"{options.input}: is a directory, not an input file")
    if not options.input.exists():
        raise EnrichmentError(f"{options.input}: no such input file")
    return formats.get(source).open_reader(options.input, str(options.input))


def _encoded(
    options: StreamOptions, names: tuple[str, str], reader: Reader | None, target: Any, schema: ResolvedSchema
) -> Iterator[tuple[Encoded, str]]:
    source, sink = names
    output: Format = formats.get(sink)
    if reader is None:  # --fen: one row, built here
        row: dict[str, Any] = {"id": "fen" if options.row_id is None else options.row_id, "fen": options.fen}
        if options.side:
            row["side"] = options.side
        yield enrich_batch(schema, Batch([row], [0]), output, target), "--fen"
        return
    for chunk in reader.chunks(DEFAULT_CHUNK_SIZE, DEFAULT_CHUNK_BYTES):
        yield (encode(schema, source, sink, chunk.payload, first=chunk.first, target=target), reader.label)
