"""Progress lines for the long steps of ``python -m contract.golden`` (on stderr, never on stdout).

Silent unless the command line turns it on, so library use and tests print nothing. A generator calls
:func:`step` as it goes; nothing here can fail the step it reports on.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

INTERVAL_SECONDS = 1.0


@dataclass
class _State:
    enabled: bool = False
    last: float = 0.0


_STATE = _State()


def enable(on: bool = True) -> None:
    _STATE.enabled = on


def step(label: str, done: int, total: int) -> None:
    """Report ``done`` of ``total`` for ``label`` at most once a second, and always the last one."""
    if not _STATE.enabled:
        return
    now = time.monotonic()
    if done < total and now - _STATE.last < INTERVAL_SECONDS:
        return
    _STATE.last = now
    print(f"  {label}: {done}/{total}", file=sys.stderr, flush=True)


def note(message: str) -> None:
    if _STATE.enabled:
        print(message, file=sys.stderr, flush=True)
