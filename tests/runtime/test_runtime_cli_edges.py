"""The console script's edges, for every command registered (the parser is walked, nested commands
included): the exit-code table in every ``--help``, an unknown option named by the command it was given
to, a usage error for a host version that is not one, a reader that closes the pipe, Ctrl-C and SIGTERM."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from contract.cli import build_parser, main
from contract.cli.parser import ContractParser
from contract.core.exitcodes import MEANINGS, ExitCode
from contract.core.resources import golden_dir

EXAMPLE = str(golden_dir() / "example-package")


def _walk(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...],
                                                                                    argparse.ArgumentParser]]:
    found = [(path, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                found += _walk(child, (*path, name))
    return found


PARSERS = _walk(build_parser())
LEAVES = [(path, parser) for path, parser in PARSERS
          if not any(isinstance(action, argparse._SubParsersAction) for action in parser._actions)]


def _long_option(parser: argparse.ArgumentParser) -> str:
    options = [o for action in parser._actions for o in action.option_strings if o.startswith("--") and o != "--help"]
    return max(options, key=len) if options else "--help"


def _typo(option: str) -> str:
    """Two neighbouring letters swapped in the middle of the name (``--engine-version`` → ``--engine-verison``)."""
    word = option[2:]
    at = len(word) // 2
    if word[at - 1] == word[at]:
        at += 1
    return "--" + word[:at - 1] + word[at] + word[at - 1] + word[at + 1:]


def _cli(*args: str, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "contract", *args], capture_output=True, text=True,
                          check=False, timeout=120, **kwargs)  # type: ignore[call-overload]


def test_the_walk_finds_the_nested_commands() -> None:
    paths = {" ".join(path) for path, _ in LEAVES}
    assert {"validate", "package build", "golden check", "golden report", "golden regenerate", "pairjudge verify",
            "pairjudge declare-legacy", "conformance run", "vendor"} <= paths


@pytest.mark.parametrize(("path", "parser"), PARSERS, ids=[" ".join(p) or "top" for p, _ in PARSERS])
def test_every_help_ends_with_the_exit_code_table(path: tuple[str, ...], parser: argparse.ArgumentParser) -> None:
    text = parser.format_help()
    table = text[text.index("exit codes:"):]
    for code in ExitCode:
        assert f"  {code.value:<4d}{MEANINGS[code]}" in table, (path, text)


@pytest.mark.parametrize(("path", "parser"), LEAVES, ids=[" ".join(p) for p, _ in LEAVES])
def test_an_unknown_option_is_named_by_its_command_with_the_close_spelling(
        path: tuple[str, ...], parser: argparse.ArgumentParser, capsys: pytest.CaptureFixture[str]) -> None:
    option = _long_option(parser)
    typo = _typo(option)
    with pytest.raises(SystemExit) as exit_info:
        main([*path, typo])
    captured = capsys.readouterr()
    assert exit_info.value.code == 2 and captured.out == ""
    assert captured.err.startswith(f"usage: {parser.prog} "), captured.err
    assert f"{typo}" in captured.err and "did you mean --" in captured.err, captured.err
    assert "Traceback" not in captured.err


def test_the_engine_verison_typo_is_named_although_a_required_option_is_missing(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["validate", EXAMPLE, "--engine-verison", "0.12.0"])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2
    assert err.startswith("usage: dicechess-contract validate ")
    assert err.endswith("error: the following arguments are required: --engine-version; unrecognized "
                        "--engine-verison (did you mean --engine-version?)\n")


def test_an_unknown_option_before_a_nested_command_is_named_by_the_middle_command(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["golden", "--rot", "x", "check"])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2
    assert err.startswith("usage: dicechess-contract golden ") and "--rot (did you mean --root?)" in err


@pytest.mark.parametrize("version", ["0.12", "0.12.0\n", "v0.12.0", "0.12.99999999999", ""])
@pytest.mark.parametrize("command", [["validate", EXAMPLE], ["package", "build"]])
def test_a_host_version_that_is_not_one_is_a_usage_error(command: list[str], version: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([*command, "--engine-version", version])
    captured = capsys.readouterr()
    assert exit_info.value.code == 2 and captured.out == ""
    assert "argument --engine-version: invalid semantic version" in captured.err
    assert "manifest.json" not in captured.err


def _into_a_closed_pipe(*args: str) -> subprocess.CompletedProcess[bytes]:
    """Run the command with stdout a pipe whose reader has already gone (``… | head -0``)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([sys.executable, "-m", "contract", *args], stdout=write_end, stderr=subprocess.PIPE,
                              check=False, timeout=120)
    finally:
        os.close(write_end)


@pytest.mark.parametrize("args", [["--version"], ["--help"], ["validate", EXAMPLE, "--engine-version", "0.12.0"],
                                  ["validate", EXAMPLE, "--engine-version", "0.12.0", "--json"],
                                  ["compat", ">=0.12.0", "--engine-version", "0.12.0"],
                                  ["extract", "--schema", "kcp-13", "--fen", "4k3/8/8/8/8/8/4r3/4K3 w - -"]])
def test_a_reader_that_goes_away_is_no_traceback(args: list[str]) -> None:
    done = _into_a_closed_pipe(*args)
    assert done.stderr == b"", done.stderr.decode()
    assert done.returncode in (0, 1)
    if args == ["--version"]:
        assert done.returncode == 0  # ``--version | head -1`` under ``set -o pipefail`` stays green


@pytest.mark.slow  # one interpreter per command
@pytest.mark.parametrize(("path", "parser"), PARSERS, ids=[" ".join(p) or "top" for p, _ in PARSERS])
def test_every_help_into_a_closed_pipe_is_quiet(path: tuple[str, ...], parser: argparse.ArgumentParser) -> None:
    done = _into_a_closed_pipe(*path, "--help")
    assert done.returncode == 0 and done.stderr == b"", done.stderr.decode()


def test_an_interrupt_in_a_command_handler_is_one_line_and_130(monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    def interrupted(args: argparse.Namespace) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(ContractParser, "parse_args",
                        lambda self, argv=None, namespace=None: argparse.Namespace(handler=interrupted))
    assert main(["vendor", "x"]) == 130
    assert capsys.readouterr().err == "dicechess-contract: interrupted\n"


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_during_a_real_run_exits_130_without_a_traceback(tmp_path: Path, signum: int) -> None:
    process = subprocess.Popen([sys.executable, "-m", "contract", "bench", "--repeat", "100000"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(3)  # past the imports: the signal lands in the command's own work
    process.send_signal(signum)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, (out, err)
    assert "Traceback" not in err and err.endswith("interrupted\n"), err
