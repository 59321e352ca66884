"""The adapter protocol (``schema/adapter-protocol.schema.json``): JSON lines in, JSON lines out.

:class:`LiveAdapter` runs an implementation's adapter command, sends one request line per case and
reads one response line back, in order. A response that is not JSON or does not match the schema is
turned into an ``error`` answer for that case (never a traceback). An adapter that cannot start, exits,
answers out of order, does not take a request or does not answer within the timeout, answers with a
line longer than :data:`MAX_LINE_BYTES`, or outlives the run's overall budget is *dead*:
:attr:`LiveAdapter.dead` then says why, with the last lines of its stderr, and the runner stops the run
there (one message, not one per remaining case).

Every exchange is bounded (docs/conformance.md "Limits"): a request is written by a writer thread, so a
write that does not complete within the timeout (an adapter that stopped reading stdin) is a dead
adapter, not a hung runner; answers are read as bytes by a reader thread into a queue of at most
:data:`QUEUED_LINES` lines of at most :data:`MAX_LINE_BYTES` each, so the runner's memory does not grow
with what the adapter prints; its stderr goes to a pipe drained by a third thread that keeps only the
last :data:`STDERR_KEEP_BYTES` bytes (the rest is counted and discarded, and the dead adapter's message
says so), so neither memory nor a temporary file grows with what it writes there; and the teardown is
bounded too: the adapter runs in its own process group,
which is killed once the adapter has exited or had its grace period, so a child left holding its stdout
cannot keep the run waiting.

The adapter starts in the caller's working directory (``cwd=None``), so a relative path in its
command means what it means in the caller's shell.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import signal
import subprocess
import threading
import time
from collections.abc import Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import Any, Final

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

from contract.core import formatversion, strictjson
from contract.core.resources import schema_dir

PROTOCOL_SCHEMA: Final = "adapter-protocol.schema.json"
# The protocol version every request carries; an adapter refuses a major it does not speak (docs/versioning.md).
PROTOCOL_VERSION: Final = formatversion.current("adapter-protocol")
STDERR_LINES: Final = 6  # the last lines of a dead adapter's stderr shown
STDERR_LINE_WIDTH: Final = 200
STDERR_KEEP_BYTES: Final = 64 * 1024  # the tail of an adapter's stderr kept; earlier bytes are discarded
MAX_LINE_BYTES: Final = 16 * 1024 * 1024  # an answer line longer than this is a dead adapter
QUEUED_LINES: Final = 4  # answers read ahead; the reader waits (and so does the adapter) beyond that
READ_CHUNK: Final = 64 * 1024
EXIT_GRACE: Final = 5.0  # seconds an adapter gets to exit once its stdin is closed
JOIN_GRACE: Final = 2.0  # seconds the teardown waits for the reader and writer threads


# The request definition of each kind (a request of a known kind is checked against its own, so that the
# problem names the field: "'expectedRole' is a required property", not "not valid under any of ...").
KIND_REQUESTS: Final = {"engine-compatibility": "engineCompatibilityRequest", "manifest": "manifestRequest",
                        "tensor-contract": "tensorContractRequest", "features": "featuresRequest"}


@cache
def _validator(definition: str) -> Draft202012Validator:
    document = json.loads((schema_dir() / PROTOCOL_SCHEMA).read_text(encoding="utf-8"))
    base = {"$schema": document["$schema"], "$defs": document["$defs"]}
    return Draft202012Validator({**base, "$ref": f"#/$defs/{definition}"})


def _validators() -> tuple[Draft202012Validator, Draft202012Validator]:
    return _validator("request"), _validator("response")


def request_problem(request: dict[str, Any]) -> str | None:
    """Why ``request`` is not a protocol request, or ``None``."""
    kind = request.get("kind") if isinstance(request, dict) else None
    definition = KIND_REQUESTS.get(kind) if isinstance(kind, str) else None
    error = next(iter(_validator(definition or "request").iter_errors(request)), None)
    return None if error is None else error.message


def response_problem(response: Any) -> str | None:
    """Why ``response`` is not a protocol response, or ``None``."""
    error = best_match(_validators()[1].iter_errors(response))
    return None if error is None else error.message


def error_answer(case_id: str, message: str) -> dict[str, Any]:
    return {"id": case_id, "status": "error", "message": message}


class _TooLong:
    """Put on the queue instead of a line that exceeds :data:`MAX_LINE_BYTES`."""


TOO_LONG: Final = _TooLong()
Line = bytes | _TooLong | None  # None: the adapter closed its stdout


def _pipe_chunks(fd: int) -> Iterator[bytes]:
    """What the pipe ``fd`` gives, :data:`READ_CHUNK` bytes at most at a time, until it ends (or fails)."""
    while True:
        try:
            chunk = os.read(fd, READ_CHUNK)
        except OSError:
            return
        if not chunk:
            return
        yield chunk


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """Kill the adapter and everything left in its process group (a lingering child too)."""
    killpg = getattr(os, "killpg", None)
    if killpg is not None:
        try:
            killpg(process.pid, getattr(signal, "SIGKILL", signal.SIGTERM))
            return
        except OSError:  # the group is gone already, or was never ours
            pass
    with contextlib.suppress(OSError):
        process.kill()


class LiveAdapter:
    """One running adapter process; use as a context manager.

    ``timeout`` bounds each exchange (writing the request and reading its answer); ``deadline`` (a
    :func:`time.monotonic` value) bounds them all: past it every exchange is refused as the run's budget.
    """

    def __init__(self, name: str, command: Sequence[str], timeout: float, cwd: Path | None = None, *,
                 deadline: float | None = None, budget_text: str = "", path_first: Path | None = None) -> None:
        self.name = name
        self.path_first = path_first  # put first on the adapter's PYTHONPATH (the kit's adapter: this kit's code)
        self.command = list(command)
        self.timeout = timeout
        self.cwd = cwd
        self.deadline = deadline
        self.budget_text = budget_text
        self._process: subprocess.Popen[bytes] | None = None
        self._stderr_kept = bytearray()  # the last STDERR_KEEP_BYTES bytes of the adapter's stderr
        self._stderr_dropped = 0  # bytes of stderr discarded before those
        self._stderr_lock = threading.Lock()
        self._stderr_done = threading.Event()
        self._lines: queue.Queue[Line] = queue.Queue(maxsize=QUEUED_LINES)
        self._requests: queue.Queue[bytes | None] = queue.Queue()
        self._written = threading.Semaphore(0)
        self._write_failed: str | None = None
        self._closing = threading.Event()
        self._dead: str | None = None
        self._threads: list[threading.Thread] = []

    def __enter__(self) -> LiveAdapter:
        env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
        if self.path_first is not None:
            env["PYTHONPATH"] = os.pathsep.join(p for p in (str(self.path_first), env.get("PYTHONPATH", "")) if p)
        try:
            self._process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                bufsize=0, cwd=self.cwd, env=env, start_new_session=hasattr(os, "killpg"),
            )
        except OSError as exc:
            self._dead = f"adapter command {self.command!r} could not start: {exc}"
            self._stderr_done.set()
            return self
        for target in (self._read, self._write, self._drain_stderr):
            thread = threading.Thread(target=target, daemon=True)
            thread.start()
            self._threads.append(thread)
        return self

    def _put(self, line: Line) -> bool:
        """Queue ``line``, waiting while the queue is full; False once the adapter is being torn down."""
        while not self._closing.is_set():
            try:
                self._lines.put(line, timeout=0.2)
                return True
            except queue.Full:
                continue
        return False

    def _read(self) -> None:
        """Split the adapter's stdout into lines of at most :data:`MAX_LINE_BYTES` (the reader thread).

        It reads the pipe's descriptor directly (no buffered reader whose lock a teardown would wait for)
        and owns it: it closes it when the adapter's stdout ends or the adapter is being torn down."""
        assert self._process is not None and self._process.stdout is not None
        pending = bytearray()
        try:
            for chunk in _pipe_chunks(self._process.stdout.fileno()):
                pending += chunk
                while (end := pending.find(b"\n")) >= 0:
                    if end > MAX_LINE_BYTES:
                        break
                    line = bytes(pending[:end])
                    del pending[:end + 1]
                    if not self._put(line):
                        return
                if len(pending) > MAX_LINE_BYTES:
                    self._put(TOO_LONG)
                    return
            self._put(None)
        finally:
            self._process.stdout.close()

    def _write(self) -> None:
        """Write each queued request to the adapter's stdin (the writer thread); a write that blocks
        blocks this thread only, and :meth:`ask` stops waiting for it at the timeout."""
        assert self._process is not None and self._process.stdin is not None
        stdin = self._process.stdin
        try:
            while (data := self._requests.get()) is not None:
                try:
                    view = memoryview(data)
                    while view:
                        done = stdin.write(view)
                        view = view[done or 0:]
                except (BrokenPipeError, OSError, ValueError) as exc:
                    self._write_failed = str(exc) or exc.__class__.__name__
                self._written.release()
                if self._write_failed is not None:
                    return
        finally:  # owned by this thread, closed however it ends (a failed write too)
            with contextlib.suppress(OSError):
                stdin.close()

    def _drain_stderr(self) -> None:
        """Read the adapter's stderr as it comes (the stderr thread), keeping the last
        :data:`STDERR_KEEP_BYTES` bytes and counting the rest; the adapter never blocks on a full pipe."""
        assert self._process is not None and self._process.stderr is not None
        try:
            for chunk in _pipe_chunks(self._process.stderr.fileno()):
                with self._stderr_lock:
                    self._stderr_kept += chunk
                    excess = len(self._stderr_kept) - STDERR_KEEP_BYTES
                    if excess > 0:
                        del self._stderr_kept[:excess]
                        self._stderr_dropped += excess
        finally:
            self._process.stderr.close()
            self._stderr_done.set()

    @property
    def dead(self) -> str | None:
        """Why the adapter can answer no more, or ``None`` while it is alive."""
        return self._dead

    def _stderr_tail(self) -> list[str]:
        """The last :data:`STDERR_LINES` lines of the adapter's stderr (waiting up to :data:`JOIN_GRACE`
        seconds for what a killed adapter wrote last), and a line saying how many bytes were discarded."""
        self._stderr_done.wait(timeout=JOIN_GRACE)
        with self._stderr_lock:
            text = self._stderr_kept.decode("utf-8", "replace")
            dropped = self._stderr_dropped
        lines = [line.rstrip() for line in text.splitlines() if line.strip()]
        tail = [line if len(line) <= STDERR_LINE_WIDTH else line[:STDERR_LINE_WIDTH] + "..."
                for line in lines[-STDERR_LINES:]]
        if dropped:
            tail.insert(0, f"({dropped} earlier bytes of its stderr were discarded: the runner keeps the last"
                           f" {STDERR_KEEP_BYTES // 1024} KiB)")
        return tail

    def _die(self, case_id: str, why: str) -> dict[str, Any]:
        if self._process is not None:
            _kill_group(self._process)
        tail = self._stderr_tail()
        self._dead = why + ("; its stderr ends with:\n" + "\n".join(f"    {line}" for line in tail)
                            if tail else "; its stderr is empty")
        return error_answer(case_id, self._dead)

    def _exit_status(self) -> int | None:
        assert self._process is not None
        try:
            return self._process.wait(timeout=EXIT_GRACE)
        except subprocess.TimeoutExpired:
            return None

    def _wait_time(self) -> tuple[float, bool]:
        """(seconds this exchange may still take, whether the run's budget is what limits it)."""
        if self.deadline is None:
            return self.timeout, False
        left = self.deadline - time.monotonic()
        return (left, True) if left < self.timeout else (self.timeout, False)

    def _limit_text(self, by_budget: bool) -> str:
        return self.budget_text if by_budget else f"within {self.timeout:g} s"

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        case_id = str(request["id"])
        if self._dead is not None:
            return error_answer(case_id, self._dead)
        wait, by_budget = self._wait_time()
        if wait <= 0:
            return self._die(case_id, f"the run's budget is spent ({self.budget_text})")
        started = time.monotonic()
        self._requests.put((json.dumps(request, ensure_ascii=True) + "\n").encode("ascii"))
        if not self._written.acquire(timeout=wait):
            return self._die(case_id, f"adapter did not take the request {self._limit_text(by_budget)}"
                                      " (it stopped reading its stdin)")
        if self._write_failed is not None:
            return self._die(case_id, f"adapter exited (status {self._exit_status()}) before answering")
        try:
            line = self._lines.get(timeout=max(0.0, wait - (time.monotonic() - started)))
        except queue.Empty:
            return self._die(case_id, f"no answer {self._limit_text(by_budget)}")
        if line is None:
            return self._die(case_id, f"adapter exited (status {self._exit_status()}) without answering")
        if isinstance(line, _TooLong):
            return self._die(case_id, f"answer line longer than {MAX_LINE_BYTES // (1024 * 1024)} MiB")
        try:
            response = strictjson.parse(line.decode("utf-8", "replace"), max_bytes=MAX_LINE_BYTES)
        except strictjson.StrictJsonError as exc:
            shown = line[:200].decode("utf-8", "replace")
            return error_answer(case_id, f"answer is not JSON ({exc}): {shown!r}")
        problem = response_problem(response)
        if problem is not None:
            return error_answer(case_id, f"answer does not follow the protocol: {problem}")
        if response["id"] != case_id:
            return self._die(case_id, f"answer names case {response['id']!r}, expected {case_id!r} (out of order)")
        return dict(response)

    def __exit__(self, *_exc: object) -> None:
        """Close stdin, give the adapter :data:`EXIT_GRACE` seconds to exit, then kill its process group;
        never waits longer than that for the adapter, its children or the pipe threads."""
        process = self._process
        if process is not None:
            self._requests.put(None)
            if self._dead is None:
                self._exit_status()
            _kill_group(process)
            with contextlib.suppress(subprocess.TimeoutExpired):  # SIGKILL not delivered: do not wait on
                process.wait(timeout=EXIT_GRACE)
            self._closing.set()
            for thread in self._threads:
                thread.join(timeout=JOIN_GRACE)
