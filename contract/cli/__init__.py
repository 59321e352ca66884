"""``python -m contract``: one entry point, one subcommand module per job.

Exit codes are part of the stable interface: 0 accepted/served, 1 refused, 2 usage error.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from contract.core.streams import make_streams_safe

EXIT_OK = 0
EXIT_REFUSED = 1
EXIT_USAGE = 2

# Each module defines ``register(subparsers)``; the parser it adds sets ``handler`` (args -> exit code).
COMMAND_MODULES: tuple[str, ...] = (
    "contract.cli.validate",
    "contract.cli.compat",
    "contract.cli.package",
    "contract.cli.extract",
    "contract.cli.bench",
    "contract.cli.pairjudge",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m contract",
        description="Validate, build and feed dice-chess model packages.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    make_streams_safe()
    parser = build_parser()
    args = parser.parse_args(argv)
    code: int = args.handler(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
