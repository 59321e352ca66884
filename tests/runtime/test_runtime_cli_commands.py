"""The console script registers only the command it is asked for: the same parser for that command, and
the module of every other command left unimported (start-up is part of every command's time)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import pytest

from contract.cli import COMMAND_MODULES, build_parser, command_module


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    return {name: child for action in parser._actions if isinstance(action, argparse._SubParsersAction)
            for name, child in action.choices.items()}


def _described(parser: argparse.ArgumentParser) -> list[str]:
    """Everything of a parser that parsing and help depend on, nested commands included."""
    out = [parser.format_help(), parser.format_usage()]
    for action in parser._actions:
        out.append(repr((action.option_strings, action.dest, action.nargs, action.default, action.choices
                         if not isinstance(action, argparse._SubParsersAction) else sorted(action.choices),
                         action.required, action.type)))
    for name, child in sorted(_commands(parser).items()):
        out += [name, *_described(child)]
    return out


ALL = _commands(build_parser())


def test_every_command_is_found_by_its_name_and_its_module_registers_it_alone() -> None:
    assert len(ALL) == len(COMMAND_MODULES)
    assert sorted(command_module([name]) or "" for name in ALL) == sorted(COMMAND_MODULES)
    for name, full in ALL.items():
        alone = _commands(build_parser([name, "--help"]))
        assert list(alone) == [name]
        assert _described(alone[name]) == _described(full), name


@pytest.mark.parametrize("argv", [[], ["--help"], ["--help", "--version"], ["extrct"], ["-h", "x"], ["enrich_shards"]])
def test_without_a_known_command_every_command_is_registered(argv: list[str]) -> None:
    assert list(_commands(build_parser(argv))) == list(ALL)


@pytest.mark.parametrize("argv", [["--version"], ["--version", "--help"], ["--version", "extrct"]])
def test_a_version_asked_before_any_help_registers_no_command(argv: list[str]) -> None:
    assert list(_commands(build_parser(argv))) == []


def test_extract_imports_no_other_command() -> None:
    script = ("import sys\nfrom contract.cli import main\n"
              "try:\n    main(['extract', '--help'])\nexcept SystemExit:\n    pass\n"
              "print(json.dumps(sorted(m for m in sys.modules if m.startswith('contract.cli.'))))\n")
    done = subprocess.run([sys.executable, "-c", "import json\n" + script], capture_output=True, text=True,
                          timeout=300, check=False)
    imported = json.loads(done.stdout.strip().splitlines()[-1])
    assert [m for m in imported if m in COMMAND_MODULES] == ["contract.cli.extract"], done.stderr
