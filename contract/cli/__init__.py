"""``dicechess-contract`` (also ``python -m contract``): one console script, one subcommand module per job.

Every module listed in :data:`COMMAND_MODULES` defines ``register(subparsers)``; the parser it adds sets
``handler`` (args -> exit code). Exit codes come from one table, :mod:`contract.core.exitcodes`, which
``--help`` prints.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import sys
from collections.abc import Sequence

from contract import __version__
from contract.cli.parser import ContractParser
from contract.core.consoletext import console_text
from contract.core.errors import CheckTableError
from contract.core.exitcodes import EXIT_INTERRUPTED, EXIT_OK, EXIT_REFUSED, EXIT_USAGE, exit_code_help
from contract.core.interrupts import flush_stdout, silence_stdout, terminate_as_interrupt
from contract.core.streams import make_streams_safe

PROG = "dicechess-contract"

COMMAND_MODULES: tuple[str, ...] = (
    "contract.cli.validate",
    "contract.cli.compat",
    "contract.cli.package",
    "contract.cli.extract",
    "contract.cli.enrich_shards",
    "contract.cli.check_data",
    "contract.cli.bench",
    "contract.cli.pairjudge",
    "contract.cli.golden",
    "contract.cli.conformance",
    "contract.cli.vendor",
    "contract.cli.example",
)


class VersionAction(argparse.Action):
    """``--version``: the kit's version and the contract versions it reads; computed only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from contract.cli.versions import version_text

        try:
            print(version_text(), flush=True)
        except BrokenPipeError:  # ``--version | head -1``: the reader had what it wanted
            silence_stdout()
        parser.exit(EXIT_OK)


def command_module(argv: Sequence[str]) -> str | None:
    """The module of the command ``argv`` names — its first word that is not an option, ``extract`` ->
    ``contract.cli.extract``, ``enrich-shards`` -> ``contract.cli.enrich_shards`` — when that is one of
    :data:`COMMAND_MODULES`; else ``None`` (no command, a mistyped one, the top level's ``--help``)."""
    by_name = {module.rsplit(".", 1)[1].replace("_", "-"): module for module in COMMAND_MODULES}
    for word in argv:
        if not word.startswith("-"):
            return by_name.get(word)
    return None


def _asks_only_for_the_version(argv: Sequence[str]) -> bool:
    """``--version`` comes before any ``--help`` (argparse acts on options in their order, and the first of
    the two to act exits): registering the commands would only be paid for, never used."""
    for word in argv:
        if word in ("-h", "--help"):
            return False
        if word == "--version":
            return True
    return False


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The console script's parser. Given the arguments, only the command they name is registered (when
    they name one): each command module imports what its command needs, and importing all of them costs
    every command about 0.3 s of CPU (``extract --jobs`` pays it in the process that reads the input);
    what the named command parses, prints and refuses is the same either way."""
    parser = ContractParser(
        prog=PROG,
        description="The dice-chess model-serving contract: validate, build and feed model packages, "
                    "check the golden corpus, run the conformance matrix, vendor the contract files.",
        epilog=exit_code_help() + f"\n\n'{PROG} COMMAND --help' describes each command.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=VersionAction,
                        help="print the kit version and the contract versions it reads, then exit")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    only = command_module(argv) if argv is not None else None
    if only is None and argv is not None and _asks_only_for_the_version(argv):
        return parser  # ``--version`` exits while parsing, before a command is needed: none is imported
    for name in COMMAND_MODULES if only is None else (only,):
        importlib.import_module(name).register(subparsers)
    return parser


def _say_interrupted() -> None:
    with contextlib.suppress(OSError, ValueError):
        print(f"{PROG}: interrupted", file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; its exit code. Usage errors, ``--help`` and ``--version`` raise :class:`SystemExit`
    as argparse does. Ctrl-C or SIGTERM anywhere: one line on stderr and 130 (each command's own cleanup
    has run by then). A reader that closes stdout early: quiet; the command's own code if it had finished,
    else 1."""
    make_streams_safe()
    try:
        with terminate_as_interrupt():
            try:
                args = build_parser(sys.argv[1:] if argv is None else argv).parse_args(argv)
                code: int = args.handler(args)
            except SystemExit:
                flush_stdout()
                raise
    except KeyboardInterrupt:
        _say_interrupted()
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        silence_stdout()
        return EXIT_REFUSED
    except CheckTableError as broken:  # an edited or stale table: nothing is checked without it
        print(console_text(f"{PROG}: {broken}"), file=sys.stderr)
        return EXIT_REFUSED
    flush_stdout()
    return code


__all__ = ["EXIT_OK", "EXIT_REFUSED", "EXIT_USAGE", "PROG", "__version__", "build_parser", "main"]

if __name__ == "__main__":
    sys.exit(main())
