"""``dicechess-contract vendor DIR`` / ``vendor --check DIR``: the contract files, vendored and checked.

Exit 0 written / matches, 1 refused / differs (each file named), 2 usage. See
:mod:`contract.core.vendoring`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from contract.core.exitcodes import EXIT_OK, EXIT_REFUSED
from contract.core.oserrors import os_error_text
from contract.core.refusal import Refusal
from contract.core.vendoring import LOCK_NAME, check, vendor


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "vendor",
        help="copy the schemas, grammar and shared corpus into another repository, or check such a copy",
        description=f"Write the language-neutral contract files into DIR with {LOCK_NAME} (kit version, "
                    "contract versions, each file's SHA-256), or with --check verify a copy: every file "
                    "edited, missing or differing from the installed kit's is named.",
    )
    parser.add_argument("directory", metavar="DIR", type=Path,
                        help="a new or empty directory, or an earlier vendored copy to update")
    parser.add_argument("--check", action="store_true", help="verify DIR instead of writing it")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    directory: Path = args.directory
    try:
        if args.check:
            problems = check(directory)
            if isinstance(problems, Refusal):
                print(f"vendor --check: {problems.message}")
                return EXIT_REFUSED
            for name, problem in problems:
                print(f"FAIL {directory / name}: {problem}")
            if problems:
                print(f"vendor --check: {len(problems)} problem(s) in {directory}")
                return EXIT_REFUSED
            print(f"vendor --check: {directory} matches the installed kit")
            return EXIT_OK
        done = vendor(directory)
    except OSError as exc:
        print(f"vendor: {os_error_text(exc)}")
        return EXIT_REFUSED
    if isinstance(done, Refusal):
        print(f"vendor: {done.message}")
        return EXIT_REFUSED
    print(f"vendor: wrote {len(done.written)} files and {LOCK_NAME} into {directory}")
    for name in done.removed:
        print(f"vendor: removed {directory / name} (no longer part of the contract)")
    return EXIT_OK
