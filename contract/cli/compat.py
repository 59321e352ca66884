"""``python -m contract compat "CONSTRAINT" --engine-version V``: does the constraint admit V?

Exit 0 satisfied, 1 otherwise (excluded, blank or invalid constraint), 2 usage — an engine version that is
not MAJOR.MINOR.PATCH included, as in every command that takes ``--engine-version`` (the verdict, outcome
``invalid-engine-version``, is still printed). A refusal prints the check table's message alone: compat judges
a constraint, it serves nothing. A constraint that starts with ``-`` goes after ``--``, options first:
``compat --engine-version 0.12.0 -- "-1.0.0"``.
"""

from __future__ import annotations

import argparse

from contract.cli.jsonoutput import print_document
from contract.core.checktable import CONTRACT_TABLE
from contract.core.consoletext import console_text
from contract.core.exitcodes import EXIT_OK, EXIT_REFUSED, EXIT_USAGE
from contract.model.compatibility import Outcome, evaluate


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "compat",
        help="evaluate an engineCompatibility constraint",
        description="Evaluate an engineCompatibility constraint against a host engine version.",
    )
    parser.add_argument("constraint", metavar="CONSTRAINT", help="e.g. '>=0.12.0 <1.0.0'")
    parser.add_argument("--engine-version", required=True, metavar="V", help="MAJOR.MINOR.PATCH")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    verdict = evaluate(args.constraint, args.engine_version)
    if args.json:
        fields = {
            "ok": verdict.ok,
            "message": verdict.message,
            "code": verdict.code,
            "outcome": str(verdict.outcome),
            "constraint": args.constraint,
            "engineVersion": args.engine_version,
        }
        print_document(fields)
    elif verdict.ok:
        print(console_text(CONTRACT_TABLE.text("compat.included", constraint=args.constraint,
                                               version=args.engine_version)))
    else:
        print(console_text(f"{verdict.message}"))
    if verdict.outcome is Outcome.INVALID_ENGINE_VERSION:
        return EXIT_USAGE
    return EXIT_OK if verdict.ok else EXIT_REFUSED
