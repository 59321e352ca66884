"""``dicechess-contract enrich-shards INPUT OUTPUT_DIR --schema ID``: raw training shards in, enriched shards out.

Parses the options, runs :func:`contract.enrichment.runs.shardrun.enrich_shards`, prints one line per shard
written (``name -> name (N rows)``), one per shard refused, each shard's ``shard_content_digest`` (the
training repository's identity of an enriched shard; with ``--json`` one object on stdout,
``schema/output-enrich-shards-1.schema.json``), and a total with rows per second, and maps
the outcome to an exit code: 0 every shard written (or kept by ``--resume``); 1 one or more shards
refused (the others written), or the run refused; 2 usage error; 130 interrupted (Ctrl-C or SIGTERM:
the finished shards are kept, nothing partial is left under a final name; rerun with ``--resume``).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

from contract.cli.dfen import DFEN_HELP
from contract.cli.extract import _positive
from contract.cli.jsonoutput import print_document
from contract.core.consoletext import console_text
from contract.core.exitcodes import EXIT_INTERRUPTED, EXIT_OK, EXIT_REFUSED, EXIT_USAGE
from contract.core.interrupts import terminate_as_interrupt
from contract.core.oserrors import os_error_text
from contract.core.registry import schema_ids
from contract.enrichment.engines import DEFAULT_ENGINE_VERSION
from contract.enrichment.identity import shard_content_digest
from contract.enrichment.parquet.parquetfile import input_rows
from contract.enrichment.rows import EnrichmentError, OptionError
from contract.enrichment.runs.shardrun import ShardOptions, ShardSummary, enrich_shards
from contract.features.extractors import UnknownSchemaError
from contract.model.training import TRAINING_SCHEMAS


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "enrich-shards",
        help="add feature columns to the training repository's raw Parquet shards",
        description="For every raw training shard (schema v0) in INPUT, write an enriched shard of the same"
                    " name into OUTPUT_DIR: the six base columns, then one float32 column per feature, with"
                    " the metadata the training reader checks. Each row's fen is a DFEN. " + DFEN_HELP,
    )
    parser.add_argument("input", metavar="INPUT", type=Path, help="a raw shard (.parquet) or a directory of them")
    parser.add_argument("output_dir", metavar="OUTPUT_DIR", type=Path,
                        help="where the enriched shards go (created if missing; never the input's directory)")
    parser.add_argument("--schema", required=True, metavar="ID", help="feature schema id, e.g. kcp-13")
    parser.add_argument("--engine-version", default=None, metavar="V",
                        help=f"the engine release the values stand for (default {DEFAULT_ENGINE_VERSION});"
                             " only one the kit's values are recorded against")
    parser.add_argument("--engine-recording", default=None, metavar="FILE", type=Path,
                        help="a recording of --engine-version V (the engine goldens format, as golden admit reads)"
                             " vouching for a release the kit does not carry: accepted when it agrees with the kit"
                             " bit for bit; the shards' metadata names it (dicechess.engine-recording)")
    parser.add_argument("--jobs", type=_positive, default=1, metavar="N",
                        help="worker processes (default 1: in this process)")
    parser.add_argument("--resume", action="store_true", default=False,
                        help="keep the finished shards of an interrupted run and write the others")
    parser.add_argument("--overwrite", action="store_true", default=False,
                        help="replace existing enriched shards")
    parser.add_argument("--quiet", action="store_true", default=False,
                        help="no progress bar and no per-shard lines (refused shards are still reported)")
    parser.add_argument("--task", type=_task, default=None, metavar="I/N",
                        help="write only the I-th of N disjoint parts of the shards (sorted by name, shard k from 0"
                             " in part (k mod N)+1), so N runs (a job array) fill one OUTPUT_DIR; I from 1 to N")
    parser.add_argument("--json", action="store_true", default=False,
                        help="print one JSON object on stdout (schema/output-enrich-shards-1.schema.json): each"
                             " shard's name, status, rows and shardContentDigest, and the refusals")
    parser.set_defaults(handler=run)


def _say(text: str) -> None:
    print(console_text(f"enrich-shards: {text}"), file=sys.stderr)


def _task(text: str) -> tuple[int, int]:
    """``I/N`` with 1 <= I <= N (argparse type: a usage error otherwise)."""
    match = re.fullmatch(r"([1-9][0-9]{0,8})/([1-9][0-9]{0,8})", text)
    if match is None or int(match[1]) > int(match[2]):
        raise argparse.ArgumentTypeError(f"{text!r} is not I/N with I from 1 to N (e.g. 3/8)")
    return int(match[1]), int(match[2])


def _refused_run(args: argparse.Namespace, message: str, code: int) -> int:
    _say(message)
    if getattr(args, "json", False):
        print_document({"ok": False, "message": message, "shards": [], "refused": []})
    return code


def _reader_warning(schema_id: str) -> str | None:
    """Why the training repository's reader will refuse the shards (None: it reads this schema). Its
    ``read_enriched_shard`` reads only a schema it has a contract module for (spec: training-shards.md)."""
    if schema_id in TRAINING_SCHEMAS or schema_id not in schema_ids():  # an unknown id is refused as usage
        return None
    accepted = ", ".join(TRAINING_SCHEMAS[:-1]) + f" and {TRAINING_SCHEMAS[-1]}"
    return (f"warning: the shards are written, but the training repository's reader (read_enriched_shard) accepts"
            f" only {accepted}: it will refuse these {schema_id} shards")


def run(args: argparse.Namespace) -> int:
    if (warning := _reader_warning(args.schema)) is not None:
        _say(warning)
    try:
        with terminate_as_interrupt():
            summary = enrich_shards(ShardOptions(
                schema_id=args.schema, input=args.input, output_dir=args.output_dir,
                engine_version=args.engine_version, engine_recording=args.engine_recording, jobs=args.jobs,
                resume=args.resume,
                overwrite=args.overwrite, quiet=args.quiet, task=args.task,
            ))
    except (OptionError, UnknownSchemaError) as exc:
        return _refused_run(args, str(exc), EXIT_USAGE)
    except EnrichmentError as exc:
        return _refused_run(args, str(exc), EXIT_REFUSED)
    except OSError as exc:
        return _refused_run(args, os_error_text(exc), EXIT_REFUSED)
    except KeyboardInterrupt:
        return _refused_run(args, f"interrupted; the finished shards in {args.output_dir} are kept and nothing"
                                  " partial was left: rerun with --resume to continue", EXIT_INTERRUPTED)
    # each shard read back and hashed: only where it is shown (a --quiet run without --json shows none)
    identities = _identities(args.output_dir, summary) if args.json or not args.quiet else []
    if not args.quiet:
        for name, rows in summary.written:
            _say(f"{name} -> {args.output_dir / name} ({rows} rows)")
        for name in summary.kept:
            _say(f"{name}: kept (finished before --resume)")
        for name in summary.stale:
            _say(f"{name}: written again (its input is not the one the existing output was made from)")
        for entry in identities:
            _say(f"{entry['name']}: shard_content_digest {entry['shardContentDigest']}")
    for message in summary.refused:
        _say(message)
    if not args.quiet or summary.refused:
        rate = summary.rows / summary.seconds if summary.seconds > 0 else 0.0
        _say(f"{len(summary.written)} shards written ({summary.rows} rows, {rate:,.0f} rows/s),"
             f" {len(summary.kept)} kept, {len(summary.refused)} refused")
    if args.json:
        print_document({"ok": not summary.refused, "message": None, "shards": identities,
                        "refused": list(summary.refused)})
    return EXIT_REFUSED if summary.refused else EXIT_OK


def _identities(output_dir: Path, summary: ShardSummary) -> list[dict[str, Any]]:
    """Each shard written or kept, in name order: name, status, rows, its ``shard_content_digest``."""
    status = {name: "written" for name, _ in summary.written}
    status.update({name: "rewritten" for name in summary.stale})
    status.update({name: "kept" for name in summary.kept})
    rows = dict(summary.written)
    entries: list[dict[str, Any]] = []
    for name in sorted(status):
        path = output_dir / name
        try:
            digest: str | None = shard_content_digest(path)
            count = rows.get(name)
            if count is None:
                count = input_rows(path)
        except (EnrichmentError, OSError, ValueError) as exc:  # gone or changed since: say so, keep the rest
            _say(str(exc))
            digest, count = None, rows.get(name)
        entries.append({"name": name, "status": status[name], "rows": count, "shardContentDigest": digest})
    return entries
