"""``dicechess-contract example --path`` / ``--corpus``: where the bundled example package and golden
corpus are, in a checkout or an installed wheel (whose copies live inside the install).

Prints one absolute path and exits 0; nothing is written. The README's examples that name
``golden/...`` paths work from any directory as ``"$(dicechess-contract example --corpus)"/...``.
"""

from __future__ import annotations

import argparse

from contract.core.exitcodes import EXIT_OK
from contract.core.resources import golden_dir

EXAMPLE_PACKAGE = "example-package"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "example",
        help="print where the bundled example package (or the golden corpus) is",
        description="Print the absolute path of the example package the kit ships (a position-value "
                    "kcp-13 model with its manifest), or with --corpus of the golden corpus directory, "
                    "so that a wheel user can run e.g. "
                    "dicechess-contract validate \"$(dicechess-contract example --path)\" --engine-version 0.12.0",
    )
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--path", action="store_true", help="the example package directory (the default)")
    what.add_argument("--corpus", action="store_true", help="the golden corpus directory (golden/ of a checkout)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    corpus = golden_dir().resolve()
    print(corpus if args.corpus else corpus / EXAMPLE_PACKAGE)
    return EXIT_OK


__all__ = ["EXAMPLE_PACKAGE", "register", "run"]
