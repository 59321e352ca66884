"""The argument parser every command of the console script is built with (its subcommands inherit it).

Three things plain :class:`argparse.ArgumentParser` does not do:

- an option the parser does not know is reported by the parser it was given to — the subcommand's usage,
  not the top level's — and named, with the closest known spelling (``--engine-verison`` → ``did you
  mean --engine-version?``), also when another error (a missing required option) is reported first;
- every ``--help`` ends with the exit-code table of :mod:`contract.core.exitcodes`, whatever the
  command's own epilog says;
- usage errors exit with :data:`~contract.core.exitcodes.EXIT_USAGE`.

And one thing it does not pay for: registering an option does not ask for the terminal's width (see
:meth:`ContractParser._get_formatter`; start-up, issue 35).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator, Sequence
from typing import Any, NoReturn

from contract.core.exitcodes import EXIT_USAGE, exit_code_help

EXIT_TABLE_TITLE = "exit codes:"
_REGISTERING_WIDTH = 80  # the width of the formatters argparse builds only to check a metavar while registering


class ContractParser(argparse.ArgumentParser):
    """An :class:`argparse.ArgumentParser` that names unknown options where they were given."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._given: list[str] = []

    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None) -> tuple[argparse.Namespace, list[str]]:
        self._given = [str(arg) for arg in (sys.argv[1:] if args is None else args)]
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:  # reported here, by the (sub)command they were given to, not by the top level
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras

    def error(self, message: str) -> NoReturn:
        unknown = self._unknown_options()
        if unknown and "unrecognized arguments" not in message:
            message += "; unrecognized " + ", ".join(unknown)
        guesses = [(option, self._closest(option)) for option in unknown]
        named = [f"{guess} for {option}" for option, guess in guesses if guess is not None]
        if named:
            said = guesses[0][1] if len(unknown) == 1 else ", ".join(named)
            message += f" (did you mean {said}?)"
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        with self._building():
            return super().add_argument(*args, **kwargs)

    def add_subparsers(self, **kwargs: Any) -> Any:  # typeshed overloads it on parser_class
        with self._building():
            return super().add_subparsers(**kwargs)

    @contextlib.contextmanager
    def _building(self) -> Iterator[None]:
        self._measuring = False
        try:
            yield
        finally:
            self._measuring = True

    def _get_formatter(self) -> argparse.HelpFormatter:
        """While a command is registered, argparse builds a formatter for each option only to check its metavar
        (and the subcommands' prog): a fixed width then, where the terminal's width, which imports
        :mod:`shutil` (with ``bz2``, ``lzma``, ``fnmatch``: ~3 ms a run), matters only to the text printed."""
        if getattr(self, "_measuring", True):
            return super()._get_formatter()
        return self.formatter_class(prog=self.prog, width=_REGISTERING_WIDTH)  # type: ignore[call-arg]

    def format_help(self) -> str:
        text = super().format_help()
        if EXIT_TABLE_TITLE in text:
            return text
        return text.rstrip("\n") + "\n\n" + exit_code_help() + "\n"

    def _known_options(self) -> list[str]:
        return [option for action in self._actions for option in action.option_strings]

    def _subcommands(self) -> set[str]:
        return {name for action in self._actions if isinstance(action, argparse._SubParsersAction)
                for name in action.choices}

    def _unknown_options(self) -> list[str]:
        """The option-like words given to this parser (up to its subcommand's name) that it does not know."""
        known = set(self._known_options())
        subcommands = self._subcommands()
        unknown: list[str] = []
        for word in self._given:
            if word == "--" or word in subcommands:
                break
            name = word.split("=", 1)[0]
            if len(name) > 1 and name.startswith("-") and not _is_number(name) and not self._known_prefix(name, known):
                unknown.append(name)
        return unknown

    def _known_prefix(self, name: str, known: set[str]) -> bool:
        if name in known:
            return True
        if not name.startswith("--"):
            return any(name.startswith(option) for option in known if len(option) == 2)  # -j4
        return self.allow_abbrev and any(option.startswith(name) for option in known)

    def _closest(self, option: str) -> str | None:
        import difflib  # only a mistyped option needs it

        close = difflib.get_close_matches(option, self._known_options(), n=1, cutoff=0.6)
        return close[0] if close else None


def engine_version(text: str) -> str:
    """The ``type=`` of every ``--engine-version`` that names a host version: a version that is not
    MAJOR.MINOR.PATCH is a usage error of the command (exit 2), not a refusal of what it reads."""
    from contract.model.compatibility import engine_version_problem  # the table is read when a command runs

    problem = engine_version_problem(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem.removeprefix("invalid engine version: "))
    return text


def _is_number(word: str) -> bool:
    try:
        float(word)
    except ValueError:
        return False
    return True


__all__ = ["EXIT_TABLE_TITLE", "ContractParser", "engine_version"]
