"""Every option and argument of every subcommand of the console script has help text (issue #35, newcomer
item: ``package build`` options listed with no help). Walks the argparse parsers, so a new option without
help fails here."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from contract.cli import build_parser


def _without_help(parser: argparse.ArgumentParser, path: str) -> Iterator[str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _without_help(sub, f"{path} {name}")
        elif action.help is not argparse.SUPPRESS and not (action.help or "").strip():
            yield f"{path} {'/'.join(action.option_strings) or action.metavar or action.dest}"


def _parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _parsers(sub)


def test_every_option_of_every_subcommand_has_help() -> None:
    parser = build_parser()  # every command registered
    assert sum(1 for _ in _parsers(parser)) >= 20  # the walk reaches the nested subcommands
    assert list(_without_help(parser, "dicechess-contract")) == []

