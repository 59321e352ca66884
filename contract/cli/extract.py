"""``python -m contract extract --schema ID (--fen FEN [--side w|b] | --input FILE.jsonl) [--output FILE]``.

Input rows are JSON objects, one a line: ``id``, ``fen`` and optionally ``side`` (default: the FEN's side
to move). Each output line is ``{"id": …, "schema": …, "features": […]}`` with every feature printed as
the shortest text that reads back to the same float32 (``0.4212963``, ``78.0``), as the recorded goldens
print them. A bad row is reported on stderr with its line number and id, and the rows after it go on;
the exit code is 1 if any row was refused, 2 for a usage error (e.g. an unknown schema), else 0.

The row logic lives in :func:`contract.features.rows.extract_rows`, which bulk front ends reuse, and
input lines are read as the bulk path reads them (:mod:`contract.enrichment.jsonl`: bytes split at
``\n``, strict JSON, over-long lines refused unread), so both report the same line numbers and messages.
With ``--input FILE --output FILE`` the run goes through :mod:`contract.enrichment` (JSONL or Parquet,
``--jobs``, ``--resume``, a rejects file instead of stderr lines; see docs/enrichment.md).

Refused with one ``extract:`` line on stderr, never a traceback: a missing or unreadable input (exit
1, before any output is created), an ``--output`` that is a directory or in a missing directory (1).
``--output`` (with ``--fen`` or ``--input -``) is written under a temporary name and renamed when
complete, so an interrupted run leaves a previous file untouched. Ctrl-C (or SIGTERM) exits 130; a closed stdout
(``extract … | head``) ends the run quietly with exit 1.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import deque
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import IO, Any

from contract.cli import EXIT_OK, EXIT_REFUSED, EXIT_USAGE
from contract.core.consoletext import console_text
from contract.core.stagedfile import StagedFile
from contract.enrichment.command import (
    EXIT_INTERRUPTED,
    add_bulk_arguments,
    bulk_misuse,
    describe_os_error,
    run_bulk,
    terminate_as_interrupt,
    wants_bulk,
)
from contract.enrichment.jsonl import decode_line, iter_lines, not_jsonl
from contract.enrichment.pipeline import infer_format
from contract.features.dfen import quote
from contract.features.extractors import UnknownSchemaError, schema
from contract.features.rows import extract_rows, format_row


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "extract",
        help="compute feature vectors for FENs",
        description="Compute a feature schema's float32 vectors for one FEN or a JSONL file of rows.",
    )
    add_arguments(parser)
    parser.set_defaults(handler=run)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--schema", required=True, metavar="ID", help="feature schema id, e.g. kcp-13")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--fen", metavar="FEN", help="one DFEN position")
    source.add_argument("--input", metavar="FILE", help="JSONL rows {id, fen, side?}; '-' for stdin")
    parser.add_argument("--side", choices=("w", "b"), help="with --fen: perspective (default: side to move)")
    parser.add_argument("--id", dest="row_id", default=None, metavar="ID",
                        help="with --fen: the output id (default: fen)")
    parser.add_argument("--output", metavar="FILE", help="JSONL output (default: stdout)")
    add_bulk_arguments(parser)  # --jobs, --resume, --rejects, …: file to file via contract.enrichment


class _Refused(Exception):
    """A run refused before any row is read (the message is printed after ``extract:``)."""


def _read_rows(stream: IO[bytes], lines: deque[int]) -> Iterator[Any]:
    for number, raw in iter_lines(stream):
        lines.append(number)
        yield decode_line(raw)


class _AtomicText:
    """A UTF-8 text file written under a temporary sibling and renamed onto ``path`` on a clean exit."""

    def __init__(self, path: Path) -> None:
        if path.is_dir():
            raise _Refused(f"{path}: is a directory; --output must be a file path")
        if not path.parent.is_dir():
            raise _Refused(f"{path.parent}: the output directory does not exist")
        self.path = path
        self.staged = StagedFile(path, "w", encoding="utf-8", newline="\n")

    def __enter__(self) -> IO[str]:
        try:
            return self.staged.__enter__()
        except OSError as exc:  # name the output, not the temporary file
            raise _Refused(f"{self.path}: cannot be written ({exc.strerror or exc})") from None

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self.staged.__exit__(exc_type, exc, tb)
        if exc_type is None:
            self.staged.publish()


def _open_input(name: str) -> IO[bytes]:
    if os.path.isdir(name):
        raise _Refused(f"{name}: is a directory, not a JSONL file")
    return open(name, "rb")


def _stdin() -> IO[bytes]:
    buffer: IO[bytes] | None = getattr(sys.stdin, "buffer", None)
    if buffer is None:  # started with stdin closed (``<&-``)
        raise _Refused("stdin is closed: nothing to read for --input -")
    return buffer


def _silence_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so the interpreter's final flush stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def run(args: argparse.Namespace) -> int:
    try:
        schema(args.schema)
    except UnknownSchemaError as exc:
        print(console_text(f"extract: {exc}"), file=sys.stderr)
        return EXIT_USAGE
    if args.side is not None and args.fen is None:
        print("extract: --side goes with --fen (rows carry their own 'side')", file=sys.stderr)
        return EXIT_USAGE
    if args.row_id is not None and args.fen is None:
        print("extract: --id goes with --fen (rows carry their own 'id')", file=sys.stderr)
        return EXIT_USAGE
    if args.output == "-":  # the usual spelling of stdout
        args.output = None
    if (misuse := bulk_misuse(args) or _stream_misuse(args)) is not None:
        print(console_text(f"extract: {misuse}"), file=sys.stderr)
        return EXIT_USAGE
    if wants_bulk(args):
        return run_bulk(args)
    try:
        with terminate_as_interrupt():
            return _stream(args)
    except _Refused as exc:
        print(console_text(f"extract: {exc}"), file=sys.stderr)
        return EXIT_REFUSED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_REFUSED
    except OSError as exc:
        print(console_text(f"extract: {describe_os_error(exc)}"), file=sys.stderr)
        return EXIT_REFUSED
    except KeyboardInterrupt:
        unwritten = f"; {args.output} was not written" if args.output else ""
        print(console_text(f"extract: interrupted{unwritten}"), file=sys.stderr)
        return EXIT_INTERRUPTED


def _stream_misuse(args: argparse.Namespace) -> str | None:
    """Parquet where only JSONL can go: stdin, stdout and ``--fen`` are JSONL (Parquet is file to file)."""
    if wants_bulk(args):
        return None
    if args.input not in (None, "-") and infer_format(Path(args.input)) == "parquet":
        return f"{args.input} is Parquet: give --output FILE.parquet (stdout is JSONL)"
    if args.output and infer_format(Path(args.output)) == "parquet":
        source = "--fen" if args.fen is not None else "stdin"
        return f"{source} rows are written as JSONL, not to {args.output}: Parquet needs --input FILE.parquet"
    return None


def _refuse_non_jsonl(stream: IO[bytes], name: str) -> None:
    peek = getattr(stream, "peek", None)
    kind = not_jsonl(peek(8)[:8]) if peek is not None else None
    if kind is not None:
        raise _Refused(f"{name}: not JSONL text: this is {kind}")


def _stream(args: argparse.Namespace) -> int:
    """``--fen`` or ``--input FILE|-`` to stdout or to ``--output FILE`` (written atomically)."""
    refused = 0
    with ExitStack() as stack:
        lines: deque[int] = deque()
        if args.fen is not None:
            row: dict[str, Any] = {"id": "fen" if args.row_id is None else args.row_id, "fen": args.fen}
            if args.side:
                row["side"] = args.side
            lines.append(0)
            rows: Iterator[Any] = iter([row])
        else:  # the input is opened first: a missing input never creates or replaces an output
            stream = _stdin() if args.input == "-" else stack.enter_context(_open_input(args.input))
            _refuse_non_jsonl(stream, "stdin" if args.input == "-" else args.input)
            rows = _read_rows(stream, lines)
        out: IO[str] = sys.stdout
        if args.output:
            out = stack.enter_context(_AtomicText(Path(args.output)))
        for result in extract_rows(args.schema, rows):
            line = lines.popleft()
            if result.ok:
                out.write(format_row(args.schema, result) + "\n")
                continue
            refused += 1
            where = "--fen" if args.fen is not None else f"line {line}"
            print(console_text(f"extract: {where} (id {quote(result.id)}): {result.error}"), file=sys.stderr)
        out.flush()
    return EXIT_REFUSED if refused else EXIT_OK
