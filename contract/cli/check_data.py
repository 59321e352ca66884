"""``dicechess-contract check-data PACKAGE DATA... [--recompute N|all] [--engine-version V] [--jobs N] [--json]``.

Parses the options, runs :func:`contract.datacheck.check_data` and prints its verdict: one line per file
that holds, then the first findings (capped at :data:`~contract.datacheck.findings.DIFFERENCES_SHOWN`, and
said so), each ``check-data: FILE: message``; with ``--json`` one object on stdout
(``schema/output-check-data-1.schema.json``). Exit 0 every file holds; 1 a file does not (or a worker died);
2 usage (bad arguments, a missing path, not a package, an engine release without known rules); 130
interrupted.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from contract.cli.extract import _positive
from contract.cli.jsonoutput import print_document
from contract.core.consoletext import console_text
from contract.core.exitcodes import EXIT_OK, EXIT_REFUSED, EXIT_USAGE
from contract.core.interrupts import terminate_as_interrupt
from contract.core.refusal import refusal
from contract.datacheck import DEFAULT_RECOMPUTE, DataVerdict, UsageProblem, check_data
from contract.enrichment.rows import EnrichmentError

PROG = "check-data"


def _recompute(text: str) -> int | None:
    """``all`` (every row: None) or a whole number of rows, 0 or more (argparse type)."""
    if text == "all":
        return None
    if not text.isdigit() or len(text) > 12:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of rows (0 or more) or 'all'")
    return int(text)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "check-data",
        help="check training data (enriched shards, extract outputs) against the package that will serve it",
        description="For every data file: its feature schema is the package's featureSchema, its engine release"
                    " one the package's engineCompatibility admits, its feature columns the schema's (in order,"
                    " float32, featureCount wide); then rows spread over the file are recomputed from their FEN"
                    " and side with the kit's extractors for that release and compared bit for bit."
                    " Exit 0 everything holds, 1 a difference (file, row, column, both bit patterns), 2 usage.",
    )
    parser.add_argument("package", metavar="PACKAGE", type=Path,
                        help="the model package directory (manifest.json and model.onnx, checked as validate does)")
    parser.add_argument("data", metavar="DATA", type=Path, nargs="+",
                        help="an enriched training shard, an extract output (.parquet, .pq, .jsonl, .ndjson), or a"
                             " directory of them (its data files by name; hidden files skipped)")
    parser.add_argument("--recompute", type=_recompute, default=DEFAULT_RECOMPUTE, metavar="N|all",
                        help=f"rows recomputed per file, spread evenly over it (default {DEFAULT_RECOMPUTE});"
                             " 'all' for every row, 0 to check the schema, release and columns only (an enriched"
                             " shard's rows are still all held to the training reader's row rules)")
    parser.add_argument("--engine-version", default=None, metavar="V",
                        help="the engine release that will serve the package: each file's release must equal it"
                             " (a file that names none, an extract output, is recomputed under V)")
    parser.add_argument("--jobs", type=_positive, default=1, metavar="N",
                        help="files checked at once, in worker processes (default 1: in this process)")
    parser.add_argument("--json", action="store_true", default=False,
                        help="print one JSON object on stdout (schema/output-check-data-1.schema.json) instead of"
                             " the lines")
    parser.set_defaults(handler=run)


def _say(text: str) -> None:
    print(console_text(f"{PROG}: {text}"), file=sys.stderr)


def _refused_run(args: argparse.Namespace, message: str, code: str | None, field: str | None, exit_code: int) -> int:
    _say(message)
    if args.json:
        print_document({"ok": False, "message": message, "code": code, "field": field, "files": []})
    return exit_code


def run(args: argparse.Namespace) -> int:
    try:
        with terminate_as_interrupt():
            verdict = check_data(args.package, args.data, recompute=args.recompute,
                                 engine_version=args.engine_version, jobs=args.jobs,
                                 progress=None if args.json else sys.stderr)
    except UsageProblem as problem:
        found = problem.refusal
        return _refused_run(args, found.message, found.code, found.field, EXIT_USAGE)
    except EnrichmentError as exc:  # a worker died
        return _refused_run(args, str(exc).split(";")[0], None, None, EXIT_REFUSED)
    if args.json:
        print_document(verdict.as_json())
    else:
        _print(verdict)
    return EXIT_OK if verdict.ok else EXIT_REFUSED


def _print(verdict: DataVerdict) -> None:
    if verdict.problem is not None:
        _say(verdict.problem.message)
    for item in verdict.files:
        if item.ok:
            stated = "" if item.engine_stated else ", none stated"
            _say(f"{item.path}: ok ({item.kind}, {item.feature_schema}, engine {item.engine_version}{stated};"
                 f" {item.recomputed} of {item.rows} rows recomputed bit for bit)")
    shown = verdict.first()
    for item, found in shown:
        _say(f"{item.path}: {found.message}")
    count = sum(item.count for item in verdict.files)
    if count > len(shown):
        _say(refusal("data.value.capped", shown=len(shown), found=count).message)
    if not verdict.ok:
        bad = sum(not item.ok for item in verdict.files)
        _say(f"{bad} of {len(verdict.files)} file(s) do not hold against {verdict.package}"
             if verdict.files else "nothing checked")
