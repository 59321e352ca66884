"""The bulk options of ``python -m contract extract`` and the handler they route to.

``contract/cli/extract.py`` owns the command (``--schema``, ``--fen``/``--side``, ``--input``,
``--output``); this module adds ``--jobs``, ``--resume``, ``--rejects``, ``--format``,
``--chunk-size`` and ``--quiet``, and runs :func:`contract.enrichment.enrich_file` whenever both
``--input`` and ``--output`` are given (so a file-to-file run has one behaviour, whatever its size).

Exit codes, as for the rest of ``extract``: 0 when every row was written; 1 when a row was rejected
(the output is still complete for the other rows, the rejected ones are in the rejects file) or the
run was refused (unreadable input, a resume that does not match, a worker killed); 2 for a usage error
(bad option values, bulk options without ``--input``/``--output``, formats that cannot be told
apart); 130 when interrupted (Ctrl-C, or SIGTERM, handled the same way), with the finished chunks kept
for ``--resume``.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from contract.core.consoletext import console_text
from contract.enrichment.parts import parts_dir
from contract.enrichment.pipeline import DEFAULT_CHUNK_SIZE, FORMATS, Options, enrich_file
from contract.enrichment.rows import EnrichmentError, OptionError

EXIT_OK, EXIT_REFUSED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
BULK_ONLY = ("jobs", "resume", "rejects", "format", "chunk_size")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def add_bulk_arguments(parser: argparse.ArgumentParser) -> None:
    bulk = parser.add_argument_group(
        "bulk enrichment (--input FILE --output FILE, JSONL or Parquet; see docs/enrichment.md)")
    bulk.add_argument("--jobs", type=_positive, default=None, metavar="N",
                      help="worker processes (default 1: in this process)")
    bulk.add_argument("--chunk-size", type=_positive, default=None, metavar="ROWS",
                      help=f"rows per chunk and per Parquet row group (default {DEFAULT_CHUNK_SIZE})")
    bulk.add_argument("--resume", action="store_true", default=False,
                      help="continue an interrupted run from OUTPUT.parts/, skipping finished chunks")
    bulk.add_argument("--rejects", type=Path, default=None, metavar="FILE",
                      help="where failed rows go (default OUTPUT.rejects.jsonl)")
    bulk.add_argument("--format", choices=FORMATS, default=None,
                      help="jsonl or parquet (default: from the file extensions)")
    bulk.add_argument("--quiet", action="store_true", default=False,
                      help="no progress bar and no summary line")


def wants_bulk(args: argparse.Namespace) -> bool:
    """True when the file-to-file path applies: ``--input FILE`` (not stdin) and ``--output FILE``."""
    source = getattr(args, "input", None)
    return source not in (None, "-") and getattr(args, "output", None) is not None


def bulk_misuse(args: argparse.Namespace) -> str | None:
    """The usage message when a bulk-only option is given without ``--input`` and ``--output``."""
    if wants_bulk(args):
        return None
    used = [name for name in BULK_ONLY if getattr(args, name, None) not in (None, False)]
    if used:
        flags = ", ".join("--" + name.replace("_", "-") for name in used)
        return f"{flags} need both --input FILE (not stdin) and --output FILE"
    return None


class Terminated(KeyboardInterrupt):
    """SIGTERM (a batch scheduler preempting the job, ``kill PID``), handled as Ctrl-C is."""


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """While the block runs, SIGTERM raises :class:`Terminated` (a ``KeyboardInterrupt``), so the run
    stops as on Ctrl-C: finished chunks kept, temporary files removed, one message, exit 130. The
    default would end the process on the spot, leaving a hidden temporary file beside the output."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def raise_terminated(signum: int, frame: object) -> None:
        raise Terminated

    previous = signal.signal(signal.SIGTERM, raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def describe_os_error(exc: OSError) -> str:
    """``PATH: reason`` (``PATH -> OTHER: reason`` for a rename) rather than Python's ``[Errno N] …`` text."""
    reason = exc.strerror or str(exc)
    if exc.filename is None:
        return reason
    if exc.filename2 is not None:
        return f"{exc.filename} -> {exc.filename2}: {reason}"
    return f"{exc.filename}: {reason}"


def run_bulk(args: argparse.Namespace) -> int:
    """Handle a file-to-file ``extract``; messages go to stderr, prefixed ``extract:``."""
    options = Options(
        schema_id=args.schema,
        input=Path(args.input),
        output=Path(args.output),
        jobs=args.jobs or 1,
        chunk_size=args.chunk_size or DEFAULT_CHUNK_SIZE,
        resume=args.resume,
        rejects=args.rejects,
        format=args.format,
        quiet=args.quiet,
    )
    try:
        with terminate_as_interrupt():
            summary = enrich_file(options)
    except OptionError as exc:
        print(console_text(f"extract: {exc}"), file=sys.stderr)
        return EXIT_USAGE
    except EnrichmentError as exc:
        print(console_text(f"extract: {exc}"), file=sys.stderr)
        return EXIT_REFUSED
    except OSError as exc:  # unwritable output, disk full, …
        print(console_text(f"extract: {describe_os_error(exc)}"), file=sys.stderr)
        return EXIT_REFUSED
    except KeyboardInterrupt:
        print(console_text(f"extract: interrupted; finished chunks are kept in {parts_dir(options.output)}:"
                           " rerun with --resume to continue"), file=sys.stderr)
        return EXIT_INTERRUPTED
    if summary.rejected or not options.quiet:
        resumed = f" ({summary.resumed} input rows were done before --resume)" if summary.resumed else ""
        print(console_text(f"extract: wrote {summary.rows} rows to {summary.output}{resumed}; {summary.rejected}"
                           f" rejected (see {summary.rejects})"), file=sys.stderr)
    return EXIT_REFUSED if summary.rejected else EXIT_OK
