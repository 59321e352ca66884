"""Interruptions and a closed stdout, handled once for every command.

* SIGTERM (a batch scheduler preempting the job, ``kill PID``) is raised as :class:`Terminated`, a
  :class:`KeyboardInterrupt`, so a run stops the same way on either: its ``finally`` blocks remove
  temporary siblings, finished work is kept, the console script prints one line and exits 130.
* A reader that goes away (``dicechess-contract --version | head -1``) is not an error of the command:
  stdout is pointed at the null device so the interpreter's last flush stays quiet.
"""

from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager


class Terminated(KeyboardInterrupt):
    """SIGTERM, handled as Ctrl-C is."""


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """While the block runs (in the main thread), SIGTERM raises :class:`Terminated`. Elsewhere (another
    thread: ``signal.signal`` refuses it there with ValueError) the block runs as it is; asking the
    interpreter this way, not :mod:`threading`, spares every command that import."""

    def raise_terminated(signum: int, frame: object) -> None:
        raise Terminated

    try:
        previous = signal.signal(signal.SIGTERM, raise_terminated)
    except ValueError:  # not the main thread of the main interpreter
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def silence_stdout() -> None:
    """After stdout failed: point it at the null device so the interpreter's final flush stays quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def flush_stdout() -> bool:
    """Flush stdout; ``False`` (and stdout silenced) if its reader has gone."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
        return False
    except (OSError, ValueError, AttributeError):
        return True  # not a pipe problem; nothing more to say on a stream that cannot be written
    return True


__all__ = ["Terminated", "flush_stdout", "silence_stdout", "terminate_as_interrupt"]
