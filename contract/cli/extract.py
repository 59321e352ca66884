"""``python -m contract extract``: parse the options, run :mod:`contract.enrichment`, map the outcome
to an exit code. Nothing else happens here: the runs, their checks and their messages are the library's.

* ``--fen FEN`` or ``--input FILE|-`` without ``--output FILE`` (or with ``--input -``): the streaming run
  (:func:`contract.enrichment.runs.stream.enrich_stream`): rows to stdout (or ``--output``), a refused row as
  one ``extract: line N (id …): why`` line on stderr.
* ``--input FILE --output FILE``: the file run (:func:`contract.enrichment.enrich_file`): JSONL or
  Parquet either side, ``--jobs``, ``--resume``, a rejects file (docs/enrichment.md).

Exit codes: 0 every row written; 1 a row was rejected (the output is complete for the others), or the
run was refused (one ``extract:`` line on stderr, never a traceback); 2 usage error; 130 interrupted
(Ctrl-C, or SIGTERM, handled the same way; a file run keeps its finished chunks for ``--resume``).
A closed stdout (``extract … | head``) ends the run quietly with 1.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from contract.cli.dfen import DFEN_HELP
from contract.core.consoletext import console_text
from contract.core.exitcodes import EXIT_INTERRUPTED, EXIT_OK, EXIT_REFUSED, EXIT_USAGE
from contract.core.interrupts import silence_stdout, terminate_as_interrupt
from contract.core.oserrors import os_error_text
from contract.enrichment import DEFAULT_CHUNK_SIZE, FORMATS, EnrichmentError, Options, enrich_file
from contract.enrichment.rows import OptionError
from contract.enrichment.runs.parts import parts_dir
from contract.enrichment.runs.stream import StreamOptions, enrich_stream
from contract.features import backend
from contract.features.extractors import UnknownSchemaError

FILE_ONLY = ("jobs", "resume", "rejects", "format", "chunk_size")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "extract",
        help="compute feature vectors for FENs",
        description="Compute a feature schema's float32 vectors for one FEN, or for rows in JSONL or Parquet. "
                    + DFEN_HELP,
    )
    add_arguments(parser)
    parser.set_defaults(handler=run)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--schema", required=True, metavar="ID", help="feature schema id, e.g. kcp-13")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--fen", metavar="FEN", help="one DFEN position")
    source.add_argument("--input", metavar="FILE",
                        help="rows {id, fen, side?}: JSONL, or Parquet (.parquet); '-' for JSONL on stdin")
    parser.add_argument("--engine-version", default=None, metavar="V",
                        help="the engine release whose answer is wanted (default: the kit's default release);"
                             " its rules per schema/engine-rules.json, an admitted release's, or newest-sources")
    parser.add_argument("--side", choices=("w", "b"), help="with --fen: perspective (default: side to move)")
    parser.add_argument("--id", dest="row_id", default=None, metavar="ID",
                        help="with --fen: the output id (default: fen)")
    parser.add_argument("--output", metavar="FILE",
                        help="JSONL or Parquet (.parquet) output (default: JSONL on stdout)")
    parser.add_argument("--overwrite", action="store_true", default=False,
                        help="replace an existing --output (and its rejects and metadata files)")
    files = parser.add_argument_group(
        "file to file (--input FILE --output FILE, JSONL or Parquet)")
    files.add_argument("--jobs", type=_positive, default=None, metavar="N",
                       help="worker processes (default 1: in this process)")
    files.add_argument("--chunk-size", type=_positive, default=None, metavar="ROWS",
                       help=f"rows per chunk and per Parquet row group, at most (default {DEFAULT_CHUNK_SIZE})")
    files.add_argument("--resume", action="store_true", default=False,
                       help="continue an interrupted run from OUTPUT.parts/, skipping finished chunks")
    files.add_argument("--rejects", type=Path, default=None, metavar="FILE",
                       help="where failed rows go (default OUTPUT.rejects.jsonl)")
    files.add_argument("--format", choices=FORMATS, default=None,
                       help="jsonl or parquet for both files (default: each from its extension)")
    files.add_argument("--quiet", action="store_true", default=False,
                       help="no progress bar and no summary line")


def is_file_run(args: argparse.Namespace) -> bool:
    """``--input FILE`` (not stdin) and ``--output FILE``: the file run."""
    return args.input not in (None, "-") and args.output is not None


def _misuse(args: argparse.Namespace) -> str | None:
    if args.side is not None and args.fen is None:
        return "--side goes with --fen (rows carry their own 'side')"
    if args.row_id is not None and args.fen is None:
        return "--id goes with --fen (rows carry their own 'id')"
    if is_file_run(args):
        return None
    used = [name for name in FILE_ONLY if getattr(args, name) not in (None, False)]
    if used:
        flags = ", ".join("--" + name.replace("_", "-") for name in used)
        return f"{flags} need both --input FILE (not stdin) and --output FILE"
    return None


def _say(text: str) -> None:
    """One ``extract:`` line on stderr, control characters from the input shown, not obeyed."""
    print(console_text(f"extract: {text}"), file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    if args.output == "-":  # the usual spelling of stdout
        args.output = None
    if (misuse := _misuse(args)) is not None:
        _say(misuse)
        return EXIT_USAGE
    file_run = is_file_run(args)
    try:
        features_backend = backend.active()
    except backend.BackendError as exc:
        _say(str(exc))
        return EXIT_USAGE
    try:
        with terminate_as_interrupt():
            return _file_run(args, features_backend) if file_run else _stream_run(args)
    except (OptionError, UnknownSchemaError) as exc:
        _say(str(exc))
        return EXIT_USAGE
    except EnrichmentError as exc:
        if args.output is None:
            silence_stdout()
        _say(str(exc))
        return EXIT_REFUSED
    except BrokenPipeError:
        silence_stdout()
        return EXIT_REFUSED
    except OSError as exc:
        _say(os_error_text(exc))
        return EXIT_REFUSED
    except KeyboardInterrupt:
        if file_run:
            _say(f"interrupted; finished chunks are kept in {parts_dir(Path(args.output))}:"
                 " rerun with --resume to continue")
        else:
            unwritten = f"; {args.output} was not written" if args.output else ""
            _say(f"interrupted{unwritten}")
        return EXIT_INTERRUPTED


def _stream_run(args: argparse.Namespace) -> int:
    summary = enrich_stream(StreamOptions(
        schema_id=args.schema,
        input=None if args.input in (None, "-") else Path(args.input),
        output=None if args.output is None else Path(args.output),
        fen=args.fen,
        side=args.side,
        row_id=args.row_id,
        overwrite=args.overwrite,
        engine_version=args.engine_version,
    ))
    return EXIT_REFUSED if summary.rejected else EXIT_OK


def _file_run(args: argparse.Namespace, features_backend: backend.Backend) -> int:
    summary = enrich_file(Options(
        schema_id=args.schema,
        input=Path(args.input),
        output=Path(args.output),
        jobs=args.jobs or 1,
        chunk_size=args.chunk_size or DEFAULT_CHUNK_SIZE,
        resume=args.resume,
        rejects=args.rejects,
        format=args.format,
        quiet=args.quiet,
        overwrite=args.overwrite,
        engine_version=args.engine_version,
    ))
    if summary.rejected or not args.quiet:
        resumed = f" ({summary.resumed} input rows were done before --resume)" if summary.resumed else ""
        rejected = f"{summary.rejected} rejected (see {summary.rejects})" if summary.rejected else "none rejected"
        _say(f"wrote {summary.rows} rows to {summary.output} ({features_backend.name} backend){resumed}; {rejected}")
    return EXIT_REFUSED if summary.rejected else EXIT_OK
