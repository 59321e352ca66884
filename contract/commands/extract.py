"""``python -m contract extract --schema ID (--fen FEN [--side w|b] | --input FILE.jsonl) [--output FILE]``.

Input rows are JSON objects, one a line: ``id``, ``fen`` and optionally ``side`` (default: the FEN's side
to move). Each output line is ``{"id": …, "schema": …, "features": […]}`` with every feature printed as
the shortest text that reads back to the same float32 (``0.4212963``, ``78.0``), as the recorded goldens
print them. A bad row is reported on stderr with its line number and id, and the rows after it go on;
the exit code is 1 if any row was refused, 2 for a usage error (e.g. an unknown schema), else 0.

The row logic lives in :func:`contract.features.rows.extract_rows`, which bulk front ends reuse.
With ``--input FILE --output FILE`` the run goes through :mod:`contract.enrichment` (JSONL or Parquet,
``--jobs``, ``--resume``, a rejects file instead of stderr lines; see docs/enrichment.md).
"""

from __future__ import annotations

import argparse
import sys
from collections import deque
from collections.abc import Iterator
from contextlib import ExitStack
from typing import IO, Any

from contract.cli import EXIT_OK, EXIT_REFUSED, EXIT_USAGE
from contract.enrichment.command import add_bulk_arguments, bulk_misuse, run_bulk, wants_bulk
from contract.features.extractors import UnknownSchemaError, schema
from contract.features.rows import BadRow, extract_rows, format_row
from contract.strictjson import JsonRefusal, parse


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
    parser.add_argument("--id", dest="row_id", default="fen", metavar="ID", help="with --fen: the output id")
    parser.add_argument("--output", metavar="FILE", help="JSONL output (default: stdout)")
    add_bulk_arguments(parser)  # --jobs, --resume, --rejects, …: file to file via contract.enrichment


def _read_rows(stream: IO[str], lines: deque[int]) -> Iterator[Any]:
    for number, line in enumerate(stream, start=1):
        if not line.strip():
            continue
        lines.append(number)
        try:
            yield parse(line)
        except JsonRefusal as exc:
            yield BadRow(str(exc))


def run(args: argparse.Namespace) -> int:
    try:
        schema(args.schema)
    except UnknownSchemaError as exc:
        print(f"extract: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if args.side is not None and args.fen is None:
        print("extract: --side goes with --fen (rows carry their own 'side')", file=sys.stderr)
        return EXIT_USAGE
    if (misuse := bulk_misuse(args)) is not None:
        print(f"extract: {misuse}", file=sys.stderr)
        return EXIT_USAGE
    if wants_bulk(args):
        return run_bulk(args)
    refused = 0
    with ExitStack() as stack:
        out: IO[str] = sys.stdout
        if args.output:
            out = stack.enter_context(open(args.output, "w", encoding="utf-8", newline="\n"))
        lines: deque[int] = deque()
        if args.fen is not None:
            row: dict[str, Any] = {"id": args.row_id, "fen": args.fen}
            if args.side:
                row["side"] = args.side
            lines.append(0)
            rows: Iterator[Any] = iter([row])
        else:
            stream = sys.stdin if args.input == "-" else stack.enter_context(
                open(args.input, encoding="utf-8"))
            rows = _read_rows(stream, lines)
        for result in extract_rows(args.schema, rows):
            line = lines.popleft()
            if result.ok:
                out.write(format_row(args.schema, result) + "\n")
                continue
            refused += 1
            where = "--fen" if args.fen is not None else f"line {line}"
            print(f"extract: {where} (id {result.id!r}): {result.error}", file=sys.stderr)
    return EXIT_REFUSED if refused else EXIT_OK
