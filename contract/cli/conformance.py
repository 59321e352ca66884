"""``dicechess-contract conformance run --impl NAME[=COMMAND] ... [--kinds K,...] [--json] [--html FILE]
[--engine-version V]`` (also ``python -m contract.conformance``), ``conformance engine-build``,
``conformance differential``, ``conformance diff OLD.json NEW.json [--json] [--html FILE]``.

``diff`` compares two ``run --json`` outputs (:mod:`contract.conformance.rundiff`): per implementation and
kind the cases that regressed, were fixed, changed answer, were added or removed, a feature vector's cells
by column with float32 text and bits; exit 1 when a case regressed, 0 otherwise, 2 for a missing file or
an unusable ``--html`` FILE (a file that is not such an output: 1, naming it).

``run --quiet`` prints only the sections that fail the run and one summary line (which names the corpus): a
PASS over every implementation is one line instead of a few hundred.

``run`` with no ``--impl`` runs the kit. It asks the corpus of the checkout it is run from (as ``golden
check`` does), else the installed kit's, says which on its first line (``corpus`` in ``--json``), and fails
when a checkout's corpus differs from the installed kit's (:mod:`contract.conformance.corpusroot`).

``--html FILE`` also writes the matrix as a page (:mod:`contract.conformance.matrixpage`), through a
temporary sibling; a FILE that is a link, a directory, a FIFO or a device, that is one of the run's
inputs (the known-divergences file, a corpus file, an adapter's script) or whose directory does not
exist is refused before any implementation is asked (:mod:`contract.core.pagetargets`).

``run --engine-version V`` builds the JVM adapter (``adapters/jvm``) against engine release ``V`` for the
``engine`` implementation when no ``DICECHESS_CONFORMANCE_ENGINE`` command is given, and replays the
recorded answers (labelled ``recorded``, with the reason) when it cannot be built. ``engine-build`` only
builds it and prints the command; ``differential`` compares the kit's extractors with the engine's.

Exit status (:mod:`contract.core.exitcodes`): 0 when every disagreement is listed in the known-divergences
file, no answer is an ``error`` and no entry is stale; 1 otherwise (or when a corpus cannot be read, or an
adapter dies: then one message names the implementation, the case and the last lines of its stderr); 2 for
a usage error.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

from contract.conformance import corpusroot, engine_build, matrixpage
from contract.conformance import divergences as divergence_file
from contract.conformance.corpus import KINDS, load_cases
from contract.conformance.report import as_json, as_text
from contract.conformance.runner import (
    DEFAULT_BUDGET,
    DEFAULT_TIMEOUT,
    LIVE,
    RECORDED,
    AdapterFailure,
    Implementation,
    UsageError,
    builtin_command,
    env_variable,
    js_problem,
    resolve,
    run,
    seconds_problem,
)
from contract.core.consoletext import console_json, console_text
from contract.core.errors import CorpusError
from contract.core.exitcodes import EXIT_OK, EXIT_REFUSED, EXIT_USAGE
from contract.core.oserrors import os_error_reason

EXIT_FAILED = EXIT_REFUSED


def _kinds(values: Sequence[str] | None) -> list[str]:
    if not values:
        return list(KINDS)
    chosen = [k.strip() for value in values for k in value.split(",") if k.strip()]
    unknown = [k for k in chosen if k not in KINDS]
    if unknown:
        raise UsageError(f"--kinds: unknown kind(s) {', '.join(unknown)}; known: {', '.join(KINDS)}")
    return [k for k in KINDS if k in chosen]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser("conformance", help="run the conformance matrix over implementations",
                                   description="Run the conformance matrix over adapters.")
    sub = parser.add_subparsers(dest="action", required=True, metavar="COMMAND")
    run_parser = sub.add_parser("run", help="ask every implementation every case and print the matrix")
    run_parser.add_argument("--impl", action="append", default=None, metavar="NAME[=COMMAND]",
                            help="kit, js, engine, training, service, or NAME=COMMAND; NAME=recorded"
                                 " replays a recording (repeatable; default: kit)")
    run_parser.add_argument("--kinds", action="append", metavar="KIND[,KIND]",
                            help=f"restrict to these kinds ({', '.join(KINDS)}); default all")
    run_parser.add_argument("--json", action="store_true", help="print the report as JSON")
    run_parser.add_argument("--quiet", action="store_true",
                            help="print only what fails the run and one summary line naming the corpus (no matrix,"
                                 " no listed divergences); --json is unchanged")
    run_parser.add_argument("--html", type=Path, default=None, metavar="FILE",
                            help="also write the matrix, every disagreement and its reason as an HTML page")
    run_parser.add_argument("--divergences", type=Path, default=None, metavar="FILE",
                            help="known-divergences file (default golden/divergences.json)")
    run_parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS",
                            help=f"per-answer timeout (default {DEFAULT_TIMEOUT:g})")
    run_parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET, metavar="SECONDS",
                            help=f"overall time for all live answers of the run (default {DEFAULT_BUDGET:g})")
    run_parser.add_argument("--engine-version", metavar="VERSION", default=None,
                            help="build adapters/jvm against this engine release for --impl engine"
                                 " (live where Java, Maven and the release are reachable, else recorded)")
    run_parser.set_defaults(handler=run_matrix)
    build_parser_ = sub.add_parser("engine-build", help="build adapters/jvm and print the adapter command")
    build_parser_.add_argument("--engine-version", metavar="VERSION", default=engine_build.DEFAULT_ENGINE_VERSION,
                               help=f"engine release (default {engine_build.DEFAULT_ENGINE_VERSION})")
    build_parser_.add_argument("--without-engine", action="store_true",
                               help="build the protocol layer alone (every request answered unsupported)")
    build_parser_.set_defaults(handler=lambda args: engine_build_main(args.engine_version, args.without_engine))
    diff_parser = sub.add_parser("diff", help="compare two `conformance run --json` outputs: which cases changed",
                                 description="Per implementation and kind, the cases whose verdict or answer changed"
                                             " between two `conformance run --json` outputs (regressed, fixed, changed"
                                             " answer, added, removed). Exit 1 when a case regressed.")
    diff_parser.add_argument("old", type=Path, metavar="OLD.json", help="the earlier run's --json output")
    diff_parser.add_argument("new", type=Path, metavar="NEW.json", help="the later run's --json output")
    diff_parser.add_argument("--json", action="store_true", help="print the diff as JSON")
    diff_parser.add_argument("--html", type=Path, default=None, metavar="FILE", help="also write the diff as a page")
    diff_parser.set_defaults(handler=diff_runs)
    from contract.conformance.differential import add_arguments

    differential = sub.add_parser("differential", help="the kit's extractors against a live engine, bit for bit")
    add_arguments(differential)
    differential.set_defaults(handler=_differential)


def _differential(args: argparse.Namespace) -> int:
    from contract.conformance.differential import main as differential_main

    return differential_main(args)


def live_engine(implementations: list[Implementation], spec: Sequence[str], version: str) -> list[Implementation]:
    """Replace a recorded ``engine`` by the adapter built for ``version``, or say why it stays recorded."""
    forced = any(s.replace(" ", "") == f"engine={RECORDED}" for s in spec)
    out = []
    for impl in implementations:
        chosen = impl
        if impl.name == "engine" and impl.mode == RECORDED and not forced:
            built = engine_build.build(version)
            if built.command is not None:
                print(console_text(f"engine: live, adapters/jvm built against"
                                   f" {engine_build.ENGINE_ARTIFACT}:{version}"), file=sys.stderr)
                chosen = Implementation("engine", LIVE, built.command)
            else:
                print(console_text(f"engine: recorded (no live engine {version}: {built.reason}; set"
                                   f" {env_variable('engine')} to an adapter command to run one)"), file=sys.stderr)
        out.append(chosen)
    return out


def engine_build_main(version: str, without_engine: bool) -> int:
    try:
        built = engine_build.build(version, without_engine=without_engine)
    except engine_build.EngineVersionError as exc:
        print(console_text(f"error: {exc}"), file=sys.stderr)
        return EXIT_USAGE
    if built.command is None:
        print(console_text(f"error: {built.reason}"), file=sys.stderr)
        return EXIT_FAILED
    print(shlex.join(built.command))
    return EXIT_OK


def run_matrix(args: argparse.Namespace) -> int:
    try:
        kinds = _kinds(args.kinds)
        args.impl = args.impl or ["kit"]
        implementations = [resolve(spec) for spec in args.impl]
        if args.engine_version is not None:
            engine_build.check_version(args.engine_version)
        for impl in implementations:  # the built-in js adapter needs a checkout's js/ and its npm packages
            js = js_problem() if impl.name == "js" and impl.command == builtin_command("js") else None
            if js is not None:
                raise UsageError(f"--impl js: {js}")
        for option, value in (("--timeout", args.timeout), ("--budget", args.budget)):
            if (problem := seconds_problem(option, value)) is not None:
                raise UsageError(problem)
    except (UsageError, engine_build.EngineVersionError) as exc:
        print(console_text(f"error: {exc}"), file=sys.stderr)
        return EXIT_USAGE
    choice = corpusroot.choose()  # the checkout's corpus when run from one, else the installed kit's
    corpusroot.use(choice.root)
    html_problem = None if args.html is None else matrixpage.target_problem(
        args.html, args.divergences or divergence_file.default_path(), implementations)
    if html_problem is not None:
        print(console_text(f"error: --html {args.html}: {html_problem}"), file=sys.stderr)
        return EXIT_USAGE
    if args.engine_version is not None:
        implementations = live_engine(implementations, args.impl, args.engine_version)
    names = [i.name for i in implementations]
    if len(set(names)) != len(names):
        print("error: an implementation is named twice", file=sys.stderr)
        return EXIT_USAGE
    try:
        cases = load_cases(kinds)
        known = divergence_file.load(args.divergences)
    except (CorpusError, divergence_file.DivergenceFileError) as exc:
        print(console_text(f"error: {exc} ({choice.line()})"), file=sys.stderr)
        return EXIT_FAILED
    try:
        outcome = run(implementations, cases, kinds, known, timeout=args.timeout, budget=args.budget)
        outcome.corpus = choice
    except AdapterFailure as exc:  # one message; each of its lines (the adapter's stderr too) escaped
        print("\n".join(console_text(line) for line in f"error: {exc}".split("\n")), file=sys.stderr)
        return EXIT_FAILED
    if args.html is not None:
        try:
            matrixpage.write(args.html, outcome, args.divergences or divergence_file.default_path())
        except OSError as exc:
            print(console_text(f"error: --html {args.html}: cannot write: {os_error_reason(exc)}"), file=sys.stderr)
            return EXIT_FAILED
    if args.json:
        sys.stdout.write(console_json(as_json(outcome), indent=2) + "\n")
    else:
        sys.stdout.write(as_text(outcome, quiet=args.quiet))
    return EXIT_OK if outcome.ok else EXIT_FAILED



def diff_runs(args: argparse.Namespace) -> int:
    """``conformance diff OLD.json NEW.json [--json] [--html FILE]``: 0 no regression, 1 regressed (or an
    input that is not a run's output), 2 usage (a missing file, an unusable FILE)."""
    from contract.cli.jsonoutput import document
    from contract.conformance import diffpage, rundiff

    if args.html is not None and (problem := diffpage.target_problem(args.html, args.old, args.new)) is not None:
        print(console_text(f"error: --html {args.html}: {problem}"), file=sys.stderr)
        return EXIT_USAGE
    try:
        diff = rundiff.compare(args.old, args.new)
    except rundiff.MissingRunFile as exc:
        print(console_text(f"error: {exc}"), file=sys.stderr)
        return EXIT_USAGE
    except rundiff.RunFileError as exc:
        print(console_text(f"error: {exc}"), file=sys.stderr)
        return EXIT_FAILED
    if args.html is not None:
        try:
            diffpage.write(args.html, diff)
        except OSError as exc:
            print(console_text(f"error: --html {args.html}: cannot write: {os_error_reason(exc)}"), file=sys.stderr)
            return EXIT_FAILED
    if args.json:
        print(document(rundiff.as_json(diff)))
    else:
        print("\n".join(console_text(line) for line in rundiff.as_text(diff)))
    return EXIT_FAILED if diff.regressed else EXIT_OK


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m contract.conformance ARGS`` is ``dicechess-contract conformance ARGS``."""
    from contract.cli import main as kit_main

    return kit_main(["conformance", *(sys.argv[1:] if argv is None else argv)])
