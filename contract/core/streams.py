"""Console streams that never fail on text: a message quoting odd input must still reach the user.

A refusal message quotes what was refused, which may hold characters the console's encoding cannot
show (an ASCII-only terminal, a lone surrogate from a malformed manifest). Printing it must not end in
a traceback: such characters are written as backslash escapes instead.
"""

from __future__ import annotations

import io
import sys


def make_streams_safe() -> None:
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
