"""Finished chunks on disk, so an interrupted run loses nothing and ``--resume`` skips what is done.

While ``OUT`` is being produced, its chunks live in the sibling directory ``OUT.parts/``:

* ``state.json`` — what the chunks were made from (schema id, chunk size and byte budget, formats,
  kit version, the input's name, size and modification time) and the run id, a random tag;
* ``part-<run>-00000007.rows.<ext>`` — chunk 7's accepted rows (``.jsonl`` bytes, or an Arrow IPC file);
* ``part-<run>-00000007.rejects.jsonl`` — chunk 7's rejects, present only when it has some.

Each file is written under a temporary name and renamed when complete, and a chunk's rejects are
renamed *before* its rows: so a chunk counts as done exactly when its rows file exists. When every
chunk is done the output is assembled from the parts (again via a temporary name), then the
directory is removed.

Only parts tagged with the run id in ``state.json`` count: a resumed run keeps the id (it is the same
run, continued), a new run gets a new one, so a chunk written late by a process of another run (one
that was killed, then its directory deleted) is never adopted. The directory is created complete
(``state.json`` inside) under a temporary name and renamed into place, and it is locked
(``flock`` on the directory) for as long as the run holds it: a second run on the same output, with
or without ``--resume``, is refused while the first one is alive instead of deleting its
temporaries. The lock dies with the process, so a killed run never leaves a stale lock. (Platforms
without ``fcntl`` get no lock; see docs/enrichment.md.)

Refused: starting a run over an existing ``OUT.parts/`` without ``--resume`` (that would throw
finished work away), and resuming when the state differs (another schema, chunk size, kit version or
a changed input), naming what differs. A directory without ``state.json`` and without any part (left
by an earlier kit version killed while creating it) is removed and the run starts afresh.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import shutil
from pathlib import Path
from typing import Any

import contract
from contract.core import strictjson
from contract.core.cappedread import read_capped
from contract.core.stagedfile import temporary_sibling, write_atomic
from contract.enrichment.rows import EnrichmentError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no lock (documented)
    fcntl = None  # type: ignore[assignment]

STATE_FILE = "state.json"
PARTS_SUFFIX = ".parts"


def parts_dir(output: Path) -> Path:
    return output.with_name(output.name + PARTS_SUFFIX)


RUN_KEY = "run"


def run_state(schema_id: str, *, chunk_size: int, chunk_bytes: int, fmt: str, out_fmt: str,
              source: Path, engine: str) -> dict[str, Any]:
    stat = source.stat()
    return {
        "engineVersion": engine,
        "schema": schema_id,
        "chunkSize": chunk_size,
        "chunkBytes": chunk_bytes,
        "format": fmt,
        "outputFormat": out_fmt,
        "kitVersion": contract.__version__,
        "input": {"name": source.name, "size": stat.st_size, "mtimeNs": stat.st_mtime_ns},
    }


class PartsBusy(EnrichmentError):
    """Another live run holds ``OUT.parts/``."""


def _busy(directory: Path) -> PartsBusy:
    return PartsBusy(f"{directory} is in use by another extract run on the same output; wait for it to"
                     " finish (or stop it) and try again")


class PartStore:
    """The ``OUT.parts/`` directory of one run, locked while the run holds it."""

    def __init__(self, output: Path, rows_ext: str) -> None:
        self.dir = parts_dir(output)
        self.rows_ext = rows_ext
        self.run = ""
        self._lock_fd: int | None = None

    def open(self, state: dict[str, Any], resume: bool) -> set[int]:
        """Create (or lock and reopen) the directory; return the indices of chunks already done."""
        if self.dir.is_dir():
            self._lock(self.dir)
            try:
                return self._reopen(state, resume)
            except BaseException:
                self.release()
                raise
        self._create(state)
        return set()

    def _reopen(self, state: dict[str, Any], resume: bool) -> set[int]:
        if not (self.dir / STATE_FILE).exists() and self._unstarted():
            shutil.rmtree(self.dir)
            self.release()
            self._create(state)
            return set()
        if not resume:
            raise self.interrupted()
        self.run = self._check_state(state)
        for stale in self.dir.glob(".*.tmp-*"):  # a chunk being written when the run was killed
            stale.unlink()
        return self._finished()

    def interrupted(self) -> EnrichmentError:
        return EnrichmentError(
            f"{self.dir} holds the finished chunks of an interrupted run; rerun with --resume to"
            " continue it, or delete that directory to start over"
        )

    def check_free(self, resume: bool) -> None:
        """Before any work: refuse a directory that another live run holds, or (without ``resume``)
        one that holds an interrupted run's chunks. Nothing is changed."""
        if not self.dir.is_dir():
            return
        self._lock(self.dir)
        self.release()
        if not resume and ((self.dir / STATE_FILE).exists() or not self._unstarted()):
            raise self.interrupted()

    def _create(self, state: dict[str, Any]) -> None:
        """Make the directory complete under a temporary name, lock it, and rename it into place."""
        self.run = secrets.token_hex(8)
        staging = temporary_sibling(self.dir)
        staging.mkdir()
        try:
            self._lock(staging)
            write_atomic(staging / STATE_FILE, strictjson.dumps({**state, RUN_KEY: self.run}))
            os.rename(staging, self.dir)
        except OSError:
            shutil.rmtree(staging, ignore_errors=True)
            self.release()
            if self.dir.exists():  # another run created it in between
                raise _busy(self.dir) from None
            raise
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            self.release()
            raise

    def _lock(self, directory: Path) -> None:
        if fcntl is None:
            return
        fd = os.open(directory, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise _busy(self.dir) from None
        self._lock_fd = fd

    def release(self) -> None:
        if self._lock_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._lock_fd)
            self._lock_fd = None

    def _unstarted(self) -> bool:
        """A directory without ``state.json`` holding at most temporary files did no work."""
        return all(path.name.startswith(f".{STATE_FILE}.tmp-") for path in self.dir.iterdir())

    def _check_state(self, state: dict[str, Any]) -> str:
        """Compare the recorded state with this run's; return the recorded run id."""
        try:  # a regular file (a FIFO is refused, never waited on), read up to the strict reader's cap
            data = read_capped(self.dir / STATE_FILE, strictjson.MAX_BYTES)
            if data is None:
                raise OSError(f"larger than {strictjson.MAX_BYTES} bytes")
            recorded = strictjson.parse(data)
        except (OSError, strictjson.StrictJsonError) as exc:
            raise EnrichmentError(f"cannot resume: {self.dir / STATE_FILE} is unreadable ({exc})") from None
        if not isinstance(recorded, dict) or not isinstance(recorded.get(RUN_KEY), str):
            raise EnrichmentError(f"cannot resume: {self.dir / STATE_FILE} was not written by this kit version;"
                                  f" delete {self.dir} to start over")
        for key, value in state.items():
            if recorded.get(key) != value:
                raise EnrichmentError(
                    f"cannot resume: the interrupted run used {key} {recorded.get(key)!r}, this one"
                    f" {value!r}; rerun with the same options and input, or delete {self.dir}"
                )
        run: str = recorded[RUN_KEY]
        if not re.fullmatch(r"[0-9a-f]{16}", run):
            raise EnrichmentError(f"cannot resume: {self.dir / STATE_FILE} has a malformed run id")
        return run

    def _finished(self) -> set[int]:
        """Indices of this run's chunks whose rows file exists (the last file a chunk renames)."""
        pattern = re.compile(rf"part-{self.run}-([0-9]{{8,}})\.rows{re.escape(self.rows_ext)}")
        return {int(match[1]) for path in self.dir.iterdir() if (match := pattern.fullmatch(path.name))}

    def rows_path(self, index: int) -> Path:
        return self.dir / f"part-{self.run}-{index:08d}.rows{self.rows_ext}"

    def rejects_path(self, index: int) -> Path:
        return self.dir / f"part-{self.run}-{index:08d}.rejects.jsonl"

    def remove(self) -> None:
        """Delete the directory (the lock goes with it)."""
        try:
            shutil.rmtree(self.dir)
        finally:
            self.release()
