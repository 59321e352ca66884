"""The exit codes of every command the kit installs: one table, read by every command and by ``--help``.

They are part of the stable interface (CI scripts branch on them), so a code is never reused for
another meaning.
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """What a command's exit status means."""

    OK = 0
    REFUSED = 1
    USAGE = 2
    INTERRUPTED = 130


MEANINGS: dict[ExitCode, str] = {
    ExitCode.OK: "accepted, served, published, matches",
    ExitCode.REFUSED: "refused, differs or failed a check (the output says why)",
    ExitCode.USAGE: "usage error: bad options or arguments; nothing was done",
    ExitCode.INTERRUPTED: "interrupted (Ctrl-C or SIGTERM); finished work is kept for --resume",
}


EXIT_OK = ExitCode.OK
EXIT_REFUSED = ExitCode.REFUSED
EXIT_USAGE = ExitCode.USAGE
EXIT_INTERRUPTED = ExitCode.INTERRUPTED


def exit_code_help() -> str:
    """The table as ``--help`` prints it (an argparse epilog)."""
    lines = ["exit codes:"]
    lines += [f"  {code.value:<4d}{MEANINGS[code]}" for code in ExitCode]
    return "\n".join(lines)


__all__ = ["EXIT_INTERRUPTED", "EXIT_OK", "EXIT_REFUSED", "EXIT_USAGE", "MEANINGS", "ExitCode", "exit_code_help"]
