"""A one-line progress bar on stderr: rows, rate, ETA, rejects; plain text, no dependency.

It draws only when its stream is a terminal and ``--quiet`` was not given, redraws at most five times
a second, and always fits the terminal's width (measured at each redraw, so a resized window is
followed): the bar shrinks first, then the line is cut, so a redraw never wraps onto a new line.
When the stream is not a terminal it writes nothing (the command prints its one summary line at the
end). Nothing it prints goes to stdout or into any output file.
"""

from __future__ import annotations

import os
import time
from typing import TextIO

BAR_WIDTH = 24
MIN_BAR_WIDTH = 6
REDRAW_SECONDS = 0.2


def columns(stream: TextIO) -> int:
    """The width of the terminal ``stream`` is on (``COLUMNS`` when set, as for ``ls``); 80 if unknown."""
    override = os.environ.get("COLUMNS", "")
    if override.isdigit() and int(override) > 0:
        return int(override)
    try:
        return os.get_terminal_size(stream.fileno()).columns
    except (OSError, ValueError, AttributeError):
        return 80


def _duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes:02d}:{seconds:02d}"


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
        self._resumed_fraction = 0.0
        self._start = time.monotonic()
        self._drawn_at = 0.0
        self._drawn = False

    def add(self, rows: int, rejected: int, fraction: float | None, *, resumed: bool = False) -> None:
        if resumed:
            self.resumed += rows
            self._resumed_fraction = fraction or 0.0
        else:
            self.rows += rows
        self.rejected += rejected
        self.fraction = fraction
        now = time.monotonic()
        if self.enabled and now - self._drawn_at >= REDRAW_SECONDS:
            self._draw(now)

    def _eta(self, elapsed: float) -> str | None:
        """Time left, from the rate of this run's own work (chunks skipped by ``--resume`` excluded)."""
        if self.fraction is None:
            return None
        done = self.fraction - self._resumed_fraction
        if done <= 0 or self.rows == 0:
            return None
        return _duration(elapsed * max(1.0 - self.fraction, 0.0) / done)

    def line(self, now: float, width: int = 80) -> str:
        """The status line, at most ``width - 1`` characters (the last column is left free: some
        terminals wrap when it is written)."""
        elapsed = max(now - self._start, 1e-9)
        words = [f"{self.rows + self.resumed:,} rows"]
        if self.resumed:
            words.append(f"({self.resumed:,} resumed)")
        words.append(f"{self.rows / elapsed:,.0f} rows/s")
        if (eta := self._eta(elapsed)) is not None:
            words.append(f"ETA {eta}")
        if self.rejected:
            words.append(f"{self.rejected:,} rejected")
        text = " ".join(words)
        room = width - 1
        if self.fraction is not None:
            percent = f"{100 * min(self.fraction, 1.0):5.1f}%"
            bar = min(BAR_WIDTH, room - len(self.label) - len(percent) - len(text) - 6)
            if bar >= MIN_BAR_WIDTH:
                filled = round(bar * min(self.fraction, 1.0))
                text = f"[{'#' * filled}{'.' * (bar - filled)}] {percent} {text}"
            else:
                text = f"{percent} {text}"
        line = f"{self.label}: {text}"
        return line if len(line) <= room else line[: max(room - 1, 0)] + "…"

    def _draw(self, now: float) -> None:
        self.stream.write("\r" + self.line(now, columns(self.stream)) + "\x1b[K")
        self.stream.flush()
        self._drawn_at = now
        self._drawn = True

    def close(self) -> None:
        if self.enabled:
            self._draw(time.monotonic())
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
