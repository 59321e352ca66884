"""``dicechess-contract golden check | report | regenerate`` (also ``python -m contract.golden``): keep the
golden corpus and prove it.

* ``regenerate [--accept-drift REASON]`` runs every generator and writes each changed file atomically.
  If a vector of an existing probe would change it prints the drift table and writes nothing (exit 1),
  unless ``--accept-drift`` gives a reason, which is appended with the cells to
  ``golden/drift-log.json``.
* ``regenerate --from-engine VERSION`` first asks the live engine (adapters/jvm built against VERSION, or
  ``DICECHESS_CONFORMANCE_ENGINE``) for every probe's vector of every generated vector file and compares
  them bit for bit with the kit's; it writes only when every vector is identical (exit 1 otherwise, or
  when no live engine can be had, with the reason).
* ``check`` regenerates in memory and fails (exit 1) on any difference from the committed files, any
  stale generated file, any file breaking its JSON Schema, and any disagreement with a recorded corpus
  in ``golden/recorded/`` (float32 bits), printing what differs.
* ``report --output DIR`` writes ``DIR/index.html`` (``--output FILE.html``, a name ending in ``.html`` that is
  not an existing directory: the page itself, as ``conformance run --html FILE``): provenance, search and
  filters (state in the URL), boards, tags and vectors, drift and disagreement highlighted with a per-probe diff
  (:mod:`contract.golden.report`). An ``index.html`` that is a link, a FIFO, a device or another
  non-regular file, or that is a file of the corpus, is refused before any work
  (:mod:`contract.core.pagetargets`).

``--root DIR`` (before or after the subcommand) names the corpus: a directory holding ``golden/`` and
``generators/``. Without it: the current directory if it is a checkout, else the kit's own corpus (the
checkout of an editable install, or the copy an installed wheel ships under ``contract/_data/``, which
``check`` and ``report`` read and ``regenerate`` refuses to write). Exit codes:
:mod:`contract.core.exitcodes`. Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from contract.cli import PROG
from contract.core import progress, provenance
from contract.core.consoletext import console_text
from contract.core.errors import CorpusError
from contract.core.exitcodes import EXIT_OK, EXIT_REFUSED, EXIT_USAGE
from contract.core.oserrors import os_error_text
from contract.core.pagetargets import PageTargetError, check_page_target, files_under
from contract.core.resources import data_root, is_installed_data
from contract.core.stagedfile import write_atomic
from contract.golden import corpus, drift, recorded, report, validation
from contract.recordings.vectorfile import VectorFileError, read

EXIT_FAILED = EXIT_REFUSED
DIFF_LINES = 60
DIFF_LINE_WIDTH = 160
CORPUS_DIRS = ("golden", "generators", "schema")  # what a report reads, never what it writes


def _common_options(parser: argparse.ArgumentParser, default: object) -> None:
    parser.add_argument("--root", metavar="DIR", default=default,
                        help="the corpus to work on: a checkout holding golden/ and generators/ (default: the "
                             "current directory if it is one, else the installed kit's own corpus)")
    parser.add_argument("--quiet", action="store_true", default=default, help="no progress lines on stderr")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "golden",
        help="check, report or regenerate the golden corpus",
        description="Check the golden corpus against its generators, its schemas and the recorded corpora, "
                    "write an HTML report of it, or (in a checkout) regenerate it.",
    )
    _common_options(parser, None)
    # The same options after the subcommand (``golden check --root X``); SUPPRESS keeps an earlier value.
    late = argparse.ArgumentParser(add_help=False)
    _common_options(late, argparse.SUPPRESS)
    sub = parser.add_subparsers(dest="golden_command", metavar="COMMAND", required=True)
    regen = sub.add_parser("regenerate", parents=[late], help="rewrite the corpus of a checkout from its generators")
    regen.add_argument("--accept-drift", metavar="REASON",
                       help="accept changed vectors of existing probes; REASON goes into the drift log")
    regen.add_argument("--from-engine", metavar="VERSION",
                       help="check every generated vector against the live engine VERSION first; write only if"
                            " all are bit-identical")
    sub.add_parser("check", parents=[late],
                   help="fail if the corpus differs from its generators, its schemas or a recording")
    adm = sub.add_parser("admit", parents=[late],
                         help="compare a recording of an engine release with the kit's vectors for it, bit for bit")
    adm.add_argument("file", metavar="FILE", help="a recording in the engine goldens format (golden-engine-<v>.json)")
    adm.add_argument("--write", action="store_true",
                     help="in a checkout: store an agreeing recording verbatim under golden/recorded/admitted/")
    adm.add_argument("--recorded-by", metavar="TEXT", help="who recorded FILE, and how (required with --write)")
    rep = sub.add_parser("report", parents=[late], help="write a static HTML page of every probe")
    rep.add_argument("--output", metavar="DIR|FILE.html", required=True,
                     help="a directory to write index.html into, or a page file whose name ends in .html (as "
                          "`conformance run --html FILE`); an existing directory is always a directory")
    parser.set_defaults(handler=run, parser=parser)


def _say(text: str = "") -> None:
    print(text, flush=True)


def _text_diff(path: str, old: bytes, new: bytes) -> str:
    if b"\0" in old or b"\0" in new:
        return (f"  committed {len(old)} bytes sha256 {hashlib.sha256(old).hexdigest()}\n"
                f"  generated {len(new)} bytes sha256 {hashlib.sha256(new).hexdigest()}")
    lines = list(difflib.unified_diff(
        old.decode("utf-8", "replace").splitlines(), new.decode("utf-8", "replace").splitlines(),
        f"{path} (committed)", f"{path} (regenerated)", n=1, lineterm=""))
    shown = [line if len(line) <= DIFF_LINE_WIDTH else line[:DIFF_LINE_WIDTH] + " ..."
             for line in lines[:DIFF_LINES]]
    if len(lines) > DIFF_LINES:
        shown.append(f"... {len(lines) - DIFF_LINES} more diff lines")
    return "\n".join("  " + line for line in shown)


def _file_difference(path: str, old: bytes, new: bytes) -> str:
    """A readable account of one differing file: a cell table for vectors, else a unified diff."""
    if path.startswith(drift.VECTOR_PREFIX):
        try:
            cells = drift.compare(read(path + " (committed)", old), read(path, new))
        except VectorFileError as exc:
            return f"  {exc}\n" + _text_diff(path, old, new)
        if cells:
            table = drift.table(cells, ("schema", "probe", "column", "committed", "regenerated"))
            return "\n".join("  " + line for line in table.splitlines())
    return _text_diff(path, old, new)


def _load_schema(root: Path, generated: dict[str, bytes]) -> Callable[[str], bytes | None]:
    def load(path: str) -> bytes | None:
        if path in generated:
            return generated[path]
        target = root / path
        return corpus.read_file(target, path) if target.is_file() else None
    return load


def run_check(root: Path) -> int:
    generated = corpus.generate_all(root)
    committed = corpus.read_committed(root, list(generated))
    failures = 0
    for path, data in generated.items():
        old = committed[path]
        if old is None:
            failures += 1
            _say(f"FAIL {path}: missing (run: dicechess-contract golden regenerate)")
        elif old != data:
            failures += 1
            _say(f"FAIL {path}: the committed file differs from what the generators produce")
            _say(_file_difference(path, old, data))
    for path in corpus.stale_files(root, generated):
        failures += 1
        _say(f"FAIL {path}: no generator produces this file any more (delete it or restore its generator)")
    log_path = root / corpus.DRIFT_LOG
    if not log_path.is_file():
        failures += 1
        _say(f"FAIL {corpus.DRIFT_LOG}: missing (run: dicechess-contract golden regenerate)")
    progress.note("validating corpus files against schema/")
    files = validation.corpus_files(root, generated)
    validated, problems = validation.validate_files(files, _load_schema(root, generated))
    for problem in problems:
        failures += 1
        _say(f"FAIL schema: {problem}")
    progress.note("comparing with the recorded corpora")
    agreement = recorded.compare(root, generated)
    for problem in agreement.problems:
        failures += 1
        _say(f"FAIL recorded: {problem}")
    if agreement.cells:
        failures += 1
        _say(f"FAIL recorded: {len(agreement.cells)} cells disagree with a recorded corpus (float32 bits):")
        table = drift.table(agreement.cells, ("recorded corpus", "probe", "column", "recorded", "kit"))
        _say("\n".join("  " + line for line in table.splitlines()))
    _say(recorded.coverage_text(agreement))
    if failures:
        _say(f"golden check FAILED: {failures} problem(s) in {root}")
        return EXIT_FAILED
    _say(f"golden check passed: {len(generated)} generated files match; {validated} corpus files conform "
         f"to their schemas; {agreement.vectors} recorded vectors from {len(agreement.files)} corpora "
         "agree bit for bit")
    return EXIT_OK


def run_from_engine(generated: dict[str, bytes], version: str) -> int | None:
    """Compare every generated vector with the live engine's; ``None`` when all are identical."""
    from contract.conformance import differential, engine_build
    from contract.core import registry

    try:
        engine_build.check_version(version)
    except engine_build.EngineVersionError as exc:
        print(console_text(f"{PROG} golden regenerate: {exc}"), file=sys.stderr)
        return EXIT_USAGE
    command, source = differential.engine_command(None, version)
    if command is None:
        _say(f"refused: no live engine {version} ({source}); nothing was written.")
        return EXIT_FAILED
    schemas = registry.feature_schemas()
    items = []
    for path in sorted(p for p in generated if p.startswith(drift.VECTOR_PREFIX)):
        vectors = read(path, generated[path])
        for probe in vectors.probes.values():
            items.append(differential.Item(differential.Probe(f"{path} {probe.id}", probe.fen, probe.side),
                                           schemas[vectors.schema], list(probe.features)))
    progress.note(f"asking {source} for {len(items)} vectors")
    tally = differential.check(command, items, differential.DEFAULT_TIMEOUT)
    differential.report(tally)
    if not tally.ok or tally.unsupported:
        _say(f"refused: the kit's vectors are not all the engine's ({source}); nothing was written.")
        return EXIT_FAILED
    _say(f"all {tally.identical} generated vectors are bit-identical to {source}")
    return None


def run_regenerate(root: Path, reason: str | None, engine_version: str | None = None) -> int:
    generated = corpus.generate_all(root)
    if engine_version is not None:
        refused = run_from_engine(generated, engine_version)
        if refused is not None:
            return refused
    committed = corpus.read_committed(root, list(generated))
    cells = drift.vector_drift(committed, generated)
    log_file = root / corpus.DRIFT_LOG
    log_data = corpus.read_file(log_file) if log_file.is_file() else None
    if cells and reason is None:
        _say(f"refused: {len(cells)} cell(s) of existing probes would change; nothing was written.")
        _say(drift.table(cells))
        _say('If the change is intended, run again with --accept-drift "REASON" (recorded in '
             f"{corpus.DRIFT_LOG}).")
        return EXIT_FAILED
    to_write = dict(generated)
    if cells and reason is not None:
        to_write[corpus.DRIFT_LOG] = drift.append_to_log(log_data, reason, cells)
    elif log_data is None:
        to_write[corpus.DRIFT_LOG] = drift.log_bytes(drift.empty_log())
    summary = corpus.write_files(root, to_write)
    for path in summary.written:
        _say(f"wrote {path}")
    if cells:
        _say(f"accepted drift of {len(cells)} cell(s): {reason}")
        _say(drift.table(cells))
    elif reason is not None:
        _say("no existing vector changed; --accept-drift recorded nothing")
    for path in corpus.stale_files(root, generated):
        _say(f"note: {path} is not produced by any generator (delete it if it is obsolete)")
    _say(f"regenerated {len(to_write)} files: {len(summary.written)} written, "
         f"{len(summary.unchanged)} unchanged")
    return EXIT_OK


def run_report(root: Path, output: str) -> int:
    target = Path(output)
    # A name ending in .html is the page itself (as `conformance run --html FILE`), unless it is already a
    # directory (how such a name was read before): then, as any other name, a directory for index.html.
    page_file = target if target.suffix.lower() == ".html" and not target.is_dir() else target / "index.html"
    if page_file != target and target.exists() and not target.is_dir():
        raise CorpusError(f"{target}: exists and is not a directory (a page file's name ends in .html)")
    try:
        check_page_target(page_file, "report page",
                          (("corpus file", p) for p in files_under(*(root / d for d in CORPUS_DIRS))),
                          read_directories=[(f"corpus's {d}/ directory", root / d) for d in CORPUS_DIRS],
                          parent_may_be_missing=True)
    except PageTargetError as exc:
        raise CorpusError(str(exc)) from None
    generated = corpus.generate_all(root)
    committed = corpus.read_committed(root, list(generated))
    cells = drift.vector_drift(committed, generated)
    progress.note("comparing with the recorded corpora")
    agreement = recorded.compare(root, generated)
    progress.note("drawing boards")
    page = report.render(generated, cells, agreement, provenance.collect(root))
    page_file.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(page_file, page)
    _say(f"wrote {page_file} ({len(cells)} drifted, {len(agreement.cells)} disagreeing cells)")
    return EXIT_OK


def _root(args: argparse.Namespace) -> Path:
    if args.root is not None:
        return corpus.find_root(args.root)
    here = Path.cwd()
    if corpus.is_root(here):
        return here.resolve()
    kit = data_root()
    if corpus.is_root(kit):
        return kit
    return corpus.find_root(None)  # refused, naming the current directory


def run_admit(file: str, root: Path, write: bool, recorded_by: str | None) -> int:
    """``golden admit FILE``: 0 every value agrees, 1 naming each difference, 2 for no such recording."""
    from contract.golden import admission

    if write and (recorded_by is None or not recorded_by.strip()):
        print(console_text(f"{PROG} golden admit: --write needs --recorded-by TEXT (who recorded FILE, and how)"),
              file=sys.stderr)
        return EXIT_USAGE
    if write and is_installed_data(root):
        print(console_text(f"{PROG} golden admit --write: {root} is the installed kit's corpus, which is read-only;"
                           " --write runs in a dicechess-contract checkout"), file=sys.stderr)
        return EXIT_USAGE

    try:
        verdict = admission.admit(Path(file))
    except admission.AdmissionError as exc:
        print(console_text(f"{PROG} golden admit: {exc}"), file=sys.stderr)
        return EXIT_USAGE
    recording = verdict.recording
    under = (f"engine {recording.engine_version}'s rules" if verdict.known_release
             else f"rule set {verdict.rule_set.id} (engine {recording.engine_version} is not in the kit's table)")
    _say(f"{file}: {recording.schema}, engine {recording.engine_version}, {len(recording.probes)} probes,"
         f" compared under {under}")
    _say(f"rules: {verdict.rules_text()}")
    if verdict.differences:
        for difference in verdict.differences:
            _say(f"DRIFT {recording.schema}: {difference.text()}")
        _say(f"golden admit: {len(verdict.differences)} value(s) differ from the kit's; engine"
             f" {recording.engine_version} is not admitted")
        return EXIT_FAILED
    _say(f"golden admit: all {len(recording.probes) * len(recording.columns)} values agree bit for bit")
    if write:
        import datetime

        when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        try:
            stored = admission.store(Path(file), verdict, root, str(recorded_by), when)
        except (admission.AdmissionError, OSError) as exc:
            print(console_text(f"{PROG} golden admit --write: {exc}"), file=sys.stderr)
            return EXIT_FAILED
        _say(f"golden admit: stored {stored} with provenance; the kit vouches for engine {recording.engine_version}"
             f" {recording.schema} from now on")
    return EXIT_OK


def run(args: argparse.Namespace) -> int:
    command = args.golden_command
    if command == "admit":
        try:
            admit_root = _root(args)
        except CorpusError as exc:
            print(console_text(f"{PROG} golden: {exc}"), file=sys.stderr)
            return EXIT_USAGE
        return run_admit(args.file, admit_root, args.write, args.recorded_by)
    if command == "regenerate" and args.accept_drift is not None and not args.accept_drift.strip():
        args.parser.error("--accept-drift needs a non-blank REASON")
    try:
        root = _root(args)
    except CorpusError as exc:
        print(console_text(f"{PROG} golden: {exc}"), file=sys.stderr)
        return EXIT_USAGE
    if command == "regenerate" and is_installed_data(root):
        print(console_text(f"{PROG} golden regenerate: {root} is the installed kit's corpus, which is read-only; "
                           "regenerate runs in a dicechess-contract checkout (cd into it or pass --root DIR)"),
              file=sys.stderr)
        return EXIT_USAGE
    progress.enable(not args.quiet)
    try:
        if command == "regenerate":
            return run_regenerate(root, args.accept_drift, args.from_engine)
        if command == "check":
            return run_check(root)
        return run_report(root, args.output)
    except (CorpusError, VectorFileError, OSError) as exc:
        text = os_error_text(exc) if isinstance(exc, OSError) else str(exc)
        print(console_text(f"{PROG} golden {command}: {text}"), file=sys.stderr)
        return EXIT_FAILED
    finally:
        progress.enable(False)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m contract.golden ARGS`` is ``dicechess-contract golden ARGS``."""
    from contract.cli import main as kit_main

    return kit_main(["golden", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
