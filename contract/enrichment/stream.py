"""The streaming run: ``--fen``, or rows from stdin or a file, to stdout or to one output file.

Served by the same chunk step as the file run (:func:`contract.enrichment.encoding.encode`), so a row
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

import os
import stat
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, TextIO

from contract.core.consoletext import console_text
from contract.core.stagedfile import StagedFile
from contract.enrichment import jsonl, parquet
from contract.enrichment.encoding import Encoded, encode, encode_rows
from contract.enrichment.pipeline import DEFAULT_CHUNK_BYTES, DEFAULT_CHUNK_SIZE, infer_format, output_target
from contract.enrichment.rows import EnrichmentError
from contract.enrichment.targets import Source, Target, check_targets, naming
from contract.features.dfen import quote
from contract.features.extractors import schema


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


def _is_stream(handle: IO[bytes]) -> bool:
    try:
        return not stat.S_ISREG(os.fstat(handle.fileno()).st_mode)
    except (OSError, ValueError, AttributeError):
        return True


def _formats(options: StreamOptions) -> tuple[str, str]:
    in_fmt = "jsonl"
    if options.input is not None and infer_format(options.input) == "parquet":
        in_fmt = "parquet"
    out_fmt = "jsonl"
    if options.output is not None and infer_format(options.output) == "parquet":
        out_fmt = "parquet"
    return in_fmt, out_fmt


class _Sink:
    """Where encoded rows go: ``write`` each chunk, ``finish`` after the last, ``abandon`` on failure."""

    def __init__(self, name: str, out_fmt: str, handle: IO[bytes] | None = None, writer: Any = None,
                 staged: StagedFile | None = None) -> None:
        self.name = Path(name)
        self.out_fmt = out_fmt
        self.handle = handle
        self.writer = writer
        self.staged = staged
        self.done = False

    def write(self, encoded: Encoded) -> None:
        with naming(self.name):
            if self.writer is not None:
                self.writer.write(encoded.rows)
                return
            assert self.handle is not None
            self.handle.write(encoded.rows)
            if self.staged is None:  # stdout: each chunk as soon as it is done
                self.handle.flush()

    def finish(self) -> None:
        with naming(self.name):
            if self.writer is not None:
                self.writer.commit()
            elif self.staged is not None:
                self.staged.__exit__(None, None, None)  # flush, fsync, close
                self.staged.publish()
            elif self.handle is not None:
                self.handle.flush()
        self.done = True

    def abandon(self) -> None:
        if self.done:
            return
        if self.writer is not None:
            self.writer.abandon()
        elif self.staged is not None and self.handle is not None:
            self.handle.close()
            self.staged.discard()


def enrich_stream(options: StreamOptions) -> StreamSummary:
    """Run one streaming extraction; rejected rows are reported on ``options.errors`` as they come."""
    schema(options.schema_id)  # an unknown id refuses before anything is read or created
    in_fmt, out_fmt = _formats(options)
    errors = options.errors or sys.stderr
    with ExitStack() as stack:
        source = _open_source(options, in_fmt, stack)
        if options.output is not None:
            sources = [Source("input", options.input)] if options.input is not None else []
            if source is not None and options.input is None:
                sources.append(Source("input", None, fd=_fileno(source)))
            check_targets(sources, [Target("output", options.output)], replace=options.overwrite)
        target = output_target(in_fmt, out_fmt, options.input or Path(), options.schema_id)
        sink = _open_sink(options, out_fmt, target)
        stack.callback(sink.abandon)  # a no-op once finished
        rows = rejected = 0
        for encoded, label in _encoded(options, in_fmt, out_fmt, source, target):
            sink.write(encoded)
            rows += encoded.accepted
            rejected += len(encoded.rejects)
            for row_id, line, error in encoded.rejects:
                where = "--fen" if options.fen is not None else f"{label} {line}"
                ident = "" if row_id is None else f" (id {quote(row_id)})"  # never "id None"
                errors.write(console_text(f"extract: {where}{ident}: {error}") + "\n")
        sink.finish()
    return StreamSummary(rows, rejected)


def _fileno(handle: IO[bytes]) -> int | None:
    try:
        return handle.fileno()
    except (OSError, ValueError, AttributeError):
        return None


def _open_source(options: StreamOptions, in_fmt: str, stack: ExitStack) -> IO[bytes] | None:
    """The input stream (JSONL), or ``None`` for ``--fen`` and for Parquet (read by path)."""
    if options.fen is not None:
        return None
    if options.input is None:
        handle = _stdin(options)
        name = "stdin"
    else:
        if options.input.is_dir():
            raise EnrichmentError(f"{options.input}: is a directory, not an input file")
        if not options.input.exists():
            raise EnrichmentError(f"{options.input}: no such input file")
        if in_fmt == "parquet":
            parquet.input_schema(options.input)  # refuses a bad file before any output
            return None
        with naming(options.input, "cannot be read"):
            handle = stack.enter_context(open(options.input, "rb"))  # noqa: SIM115
        name = str(options.input)
    peek = getattr(handle, "peek", None)
    kind = jsonl.not_jsonl(peek(8)[:8]) if peek is not None else None
    if kind is not None:
        raise EnrichmentError(f"{name}: not JSONL text: this is {kind}")
    return handle


def _open_sink(options: StreamOptions, out_fmt: str, target: Any) -> _Sink:
    if options.output is None:
        return _Sink("stdout", "jsonl", handle=_stdout(options))
    path = options.output
    with naming(path):
        if out_fmt == "parquet":
            return _Sink(str(path), out_fmt, writer=parquet.ParquetOutput(path, target))
        staged = StagedFile(path)
        return _Sink(str(path), out_fmt, handle=staged.__enter__(), staged=staged)


def _encoded(
    options: StreamOptions, in_fmt: str, out_fmt: str, source: IO[bytes] | None, target: Any
) -> Iterator[tuple[Encoded, str]]:
    if options.fen is not None:
        row: dict[str, Any] = {"id": "fen" if options.row_id is None else options.row_id, "fen": options.fen}
        if options.side:
            row["side"] = options.side
        yield encode_rows(options.schema_id, [(0, row)], out_fmt, target), "--fen"
        return
    if in_fmt == "parquet":
        assert options.input is not None
        rows = parquet.rows_per_chunk(options.input, DEFAULT_CHUNK_SIZE, DEFAULT_CHUNK_BYTES)
        first = 1
        for table in parquet.iter_table_chunks(options.input, rows, DEFAULT_CHUNK_BYTES):
            yield encode(options.schema_id, in_fmt, out_fmt, table, first_line=first, target=target), "row"
            first += table.num_rows
        return
    assert source is not None
    size = 1 if _is_stream(source) else DEFAULT_CHUNK_SIZE
    for lines, _ in jsonl.iter_line_chunks(source, size, DEFAULT_CHUNK_BYTES):
        yield encode(options.schema_id, in_fmt, out_fmt, lines, first_line=lines[0][0], target=target), "line"
