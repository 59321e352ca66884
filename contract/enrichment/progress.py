"""A one-line progress bar with rows/s on stderr, in plain text (no dependency).

It draws only when its stream is a terminal and ``--quiet`` was not given, and redraws at most five
times a second. Nothing it prints goes to stdout or into any output file.
"""

from __future__ import annotations

import time
from typing import TextIO

BAR_WIDTH = 24
REDRAW_SECONDS = 0.2


class Progress:
    """Rows done, rows per second, rows rejected and (when known) the fraction of the input read."""

    def __init__(self, stream: TextIO, *, quiet: bool, label: str = "extract") -> None:
        self.stream = stream
        self.enabled = not quiet and stream.isatty()
        self.label = label
        self.rows = 0
        self.resumed = 0
        self.rejected = 0
        self.fraction: float | None = None
        self._start = time.monotonic()
        self._drawn_at = 0.0
        self._drawn = False

    def add(self, rows: int, rejected: int, fraction: float | None, *, resumed: bool = False) -> None:
        if resumed:
            self.resumed += rows
        else:
            self.rows += rows
        self.rejected += rejected
        self.fraction = fraction
        now = time.monotonic()
        if self.enabled and now - self._drawn_at >= REDRAW_SECONDS:
            self._draw(now)

    def line(self, now: float) -> str:
        elapsed = max(now - self._start, 1e-9)
        parts = [f"{self.label}:"]
        if self.fraction is not None:
            filled = round(BAR_WIDTH * min(self.fraction, 1.0))
            parts.append(f"[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {100 * self.fraction:5.1f}%")
        parts.append(f"{self.rows + self.resumed:,} rows")
        if self.resumed:
            parts.append(f"({self.resumed:,} resumed)")
        parts.append(f"{self.rows / elapsed:,.0f} rows/s")
        if self.rejected:
            parts.append(f"{self.rejected:,} rejected")
        return " ".join(parts)

    def _draw(self, now: float) -> None:
        self.stream.write("\r" + self.line(now) + "\x1b[K")
        self.stream.flush()
        self._drawn_at = now
        self._drawn = True

    def close(self) -> None:
        if self.enabled:
            self._draw(time.monotonic())
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
