"""``dicechess-contract vendor [--layout NAME|FILE.json] DIR`` / ``vendor --check [--json] DIR``.

Exit 0 written / matches, 1 refused / differs (each file named), 2 usage. See
:mod:`contract.vendoring`; every line printed is a text of ``schema/vendor-messages.json``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Final

from contract import __version__
from contract.cli.jsonoutput import print_document
from contract.core.exitcodes import EXIT_OK, EXIT_REFUSED, EXIT_USAGE
from contract.core.refusal import Refusal
from contract.vendoring.layout import KIT_LAYOUT, builtin_names
from contract.vendoring.messages import say
from contract.vendoring.vendored import LOCK_NAME, Checked, check, vendor

ADOPTED_SHOWN: Final = 10  # names on the adopted line; the count says how many in all


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "vendor",
        help="copy the schemas, grammar and shared corpus into another repository, or check such a copy",
        description=f"Write contract files into DIR with {LOCK_NAME} (kit version, contract versions, the "
                    "layout, each file's SHA-256), or with --check verify a copy: every file edited, missing "
                    "or differing from the installed kit's is named.",
    )
    parser.add_argument("directory", metavar="DIR", type=Path,
                        help="a new or empty directory, or an earlier vendored copy to update")
    parser.add_argument("--layout", metavar="NAME|FILE.json", default=None,
                        help=f"which files go where: a built-in layout ({', '.join(builtin_names())}; "
                             f"default: the layout DIR's lock records, else {KIT_LAYOUT}, the kit's own tree) "
                             "or a layout file (schema/vendor-layout-1.schema.json)")
    parser.add_argument("--check", action="store_true", help="verify DIR instead of writing it")
    parser.add_argument("--json", action="store_true", help="with --check: print one JSON object "
                        "(schema/output-vendor-check-1.schema.json)")
    parser.set_defaults(handler=run)


def _usage(text: str) -> int:
    print(f"usage error: {text}", file=sys.stderr)
    return EXIT_USAGE


def _check_json(directory: Path, found: Checked | Refusal) -> dict[str, Any]:
    refused = isinstance(found, Refusal)
    problems = [] if isinstance(found, Refusal) else found.problems
    return {"ok": not refused and not problems, "directory": str(directory),
            "message": found.message if isinstance(found, Refusal) else None,
            "layout": None if isinstance(found, Refusal) else found.layout,
            "installedKitVersion": __version__,
            "problems": [{"file": p.file, "path": str(directory / p.file), "kind": p.kind, "problem": p.message}
                         for p in problems]}


def _run_check(directory: Path, as_json: bool) -> int:
    found = check(directory)
    if as_json:
        document = _check_json(directory, found)
        print_document(document)
        return EXIT_OK if document["ok"] else EXIT_REFUSED
    if isinstance(found, Refusal):
        print(say("line.checkRefused", message=found.message))
        return EXIT_REFUSED
    for problem in found.problems:
        print(say("line.fail", path=directory / problem.file, problem=problem.message))
    if found.problems:
        print(say("line.summary", count=len(found.problems), directory=directory))
        return EXIT_REFUSED
    print(say("line.matches", directory=directory))
    return EXIT_OK


def run(args: argparse.Namespace) -> int:
    directory: Path = args.directory
    if args.check:
        if args.layout is not None:
            return _usage(say("usage.layoutWithCheck"))
        return _run_check(directory, args.json)
    if args.json:
        return _usage(say("usage.jsonWithoutCheck"))
    done = vendor(directory, args.layout)
    if isinstance(done, Refusal):
        print(say("line.vendorRefused", message=done.message))
        return EXIT_REFUSED
    for name in done.replaced:
        print(say("line.replaced", path=directory / name, lock=LOCK_NAME))
    if done.adopted:
        shown = ", ".join(done.adopted[:ADOPTED_SHOWN]) + (", …" if len(done.adopted) > ADOPTED_SHOWN else "")
        print(say("line.adopted", count=len(done.adopted), directory=directory, names=shown))
    if done.layout == KIT_LAYOUT:
        print(say("line.wrote", count=len(done.written), lock=LOCK_NAME, directory=directory))
    else:
        print(say("line.wroteLayout", count=len(done.written), lock=LOCK_NAME, directory=directory,
                  layout=done.layout))
    for name in done.removed:
        print(say("line.removed", path=directory / name))
    for name in done.kept:
        print(say("line.kept", path=directory / name, lock=LOCK_NAME))
    return EXIT_OK
