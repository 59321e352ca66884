"""The adapter protocol (``schema/adapter-protocol.schema.json``): JSON lines in, JSON lines out.

:class:`LiveAdapter` runs an implementation's adapter command, sends one request line per case and
reads one response line back, in order. A response that is not JSON or does not match the schema is
turned into an ``error`` answer for that case (never a traceback). An adapter that cannot start, exits,
answers out of order or does not answer within the timeout is *dead*: :attr:`LiveAdapter.dead` then
says why, with the last lines of its stderr, and the runner stops the run there (one message, not one
per remaining case).

The adapter starts in the caller's working directory (``cwd=None``), so a relative path in its
command means what it means in the caller's shell.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import tempfile
import threading
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import IO, Any, Final

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from contract.core import formatversion
from contract.core.resources import schema_dir

PROTOCOL_SCHEMA: Final = "adapter-protocol.schema.json"
# The protocol version every request carries; an adapter refuses a major it does not speak (docs/versioning.md).
PROTOCOL_VERSION: Final = formatversion.current("adapter-protocol")
STDERR_LINES: Final = 6  # the last lines of a dead adapter's stderr shown
STDERR_LINE_WIDTH: Final = 200


@cache
def _validators() -> tuple[Draft202012Validator, Draft202012Validator]:
    document = json.loads((schema_dir() / PROTOCOL_SCHEMA).read_text(encoding="utf-8"))
    base = {"$schema": document["$schema"], "$defs": document["$defs"]}
    request = Draft202012Validator({**base, "$ref": "#/$defs/request"})
    response = Draft202012Validator({**base, "$ref": "#/$defs/response"})
    return request, response


def request_problem(request: dict[str, Any]) -> str | None:
    """Why ``request`` is not a protocol request, or ``None``."""
    error = next(iter(_validators()[0].iter_errors(request)), None)
    return None if error is None else error.message


def response_problem(response: Any) -> str | None:
    """Why ``response`` is not a protocol response, or ``None``."""
    error = best_match(_validators()[1].iter_errors(response))
    return None if error is None else error.message


def error_answer(case_id: str, message: str) -> dict[str, Any]:
    return {"id": case_id, "status": "error", "message": message}


class LiveAdapter:
    """One running adapter process; use as a context manager."""

    def __init__(self, name: str, command: Sequence[str], timeout: float, cwd: Path | None = None) -> None:
        self.name = name
        self.command = list(command)
        self.timeout = timeout
        self.cwd = cwd
        self._process: subprocess.Popen[str] | None = None
        self._stderr: IO[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._dead: str | None = None
        self._pump_thread: threading.Thread | None = None

    def __enter__(self) -> LiveAdapter:
        self._stderr = tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace")
        env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
        try:
            self._process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
                text=True, encoding="utf-8", errors="replace", bufsize=1, cwd=self.cwd, env=env,
            )
        except OSError as exc:
            self._dead = f"adapter command {self.command!r} could not start: {exc}"
            return self
        self._pump_thread = threading.Thread(target=self._pump, daemon=True)
        self._pump_thread.start()
        return self

    def _pump(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        for line in self._process.stdout:
            self._lines.put(line)
        self._lines.put(None)

    @property
    def dead(self) -> str | None:
        """Why the adapter can answer no more, or ``None`` while it is alive."""
        return self._dead

    def _stderr_tail(self) -> list[str]:
        if self._stderr is None:
            return []
        self._stderr.flush()
        self._stderr.seek(0)
        lines = [line.rstrip() for line in self._stderr.read().splitlines() if line.strip()]
        return [line if len(line) <= STDERR_LINE_WIDTH else line[:STDERR_LINE_WIDTH] + "..."
                for line in lines[-STDERR_LINES:]]

    def _die(self, why: str) -> None:
        tail = self._stderr_tail()
        self._dead = why + ("; its stderr ends with:\n" + "\n".join(f"    {line}" for line in tail)
                            if tail else "; its stderr is empty")

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        case_id = str(request["id"])
        if self._dead is not None:
            return error_answer(case_id, self._dead)
        process = self._process
        assert process is not None and process.stdin is not None
        try:
            process.stdin.write(json.dumps(request, ensure_ascii=True) + "\n")
            process.stdin.flush()
        except (BrokenPipeError, OSError):
            try:
                process.wait(timeout=self.timeout)
            except subprocess.TimeoutExpired:
                process.kill()
            self._die(f"adapter exited (status {process.poll()}) before answering")
            return error_answer(case_id, self._dead or "")
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            self._die(f"no answer within {self.timeout:g} s")
            process.kill()
            return error_answer(case_id, self._dead or "")
        if line is None:
            process.wait(timeout=self.timeout)
            self._die(f"adapter exited (status {process.returncode}) without answering")
            return error_answer(case_id, self._dead or "")
        try:
            response = json.loads(line)
        except ValueError:
            return error_answer(case_id, f"answer is not JSON: {line[:200]!r}")
        problem = response_problem(response)
        if problem is not None:
            return error_answer(case_id, f"answer does not follow the protocol: {problem}")
        if response["id"] != case_id:
            self._die(f"answer names case {response['id']!r}, expected {case_id!r} (out of order)")
            return error_answer(case_id, self._dead or "")
        return dict(response)

    def __exit__(self, *_exc: object) -> None:
        process = self._process
        if process is not None:
            try:
                if process.stdin is not None:
                    process.stdin.close()
                process.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                process.kill()
                process.wait()
            if self._pump_thread is not None:
                self._pump_thread.join(timeout=10)
            if process.stdout is not None:
                process.stdout.close()
        if self._stderr is not None:
            self._stderr.close()
