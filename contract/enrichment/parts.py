"""Finished chunks on disk, so an interrupted run loses nothing and ``--resume`` skips what is done.

While ``OUT`` is being produced, its chunks live in the sibling directory ``OUT.parts/``:

* ``state.json`` — what the chunks were made from (schema id, chunk size, format, kit version, and
  the input's name, size and modification time);
* ``part-00000007.rows.<ext>`` — chunk 7's accepted rows (``.jsonl`` bytes, or an Arrow IPC file);
* ``part-00000007.rejects.jsonl`` — chunk 7's rejects, present only when it has some.

Each file is written under a temporary name and renamed when complete, and a chunk's rejects are
renamed *before* its rows: so a chunk counts as done exactly when its rows file exists. When every
chunk is done the output is assembled from the parts (again via a temporary name), then the
directory is removed.

Refused: starting a run over an existing ``OUT.parts/`` without ``--resume`` (that would throw
finished work away), and resuming when the state differs (another schema, chunk size, kit version or
a changed input), naming what differs. A directory without ``state.json`` and without any part (a run
killed while it was being created) is removed and the run starts afresh.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import contract
from contract.core import strictjson
from contract.core.stagedfile import write_atomic
from contract.enrichment.rows import EnrichmentError

STATE_FILE = "state.json"
PARTS_SUFFIX = ".parts"


def parts_dir(output: Path) -> Path:
    return output.with_name(output.name + PARTS_SUFFIX)


def run_state(schema_id: str, chunk_size: int, fmt: str, source: Path) -> dict[str, Any]:
    stat = source.stat()
    return {
        "schema": schema_id,
        "chunkSize": chunk_size,
        "format": fmt,
        "kitVersion": contract.__version__,
        "input": {"name": source.name, "size": stat.st_size, "mtimeNs": stat.st_mtime_ns},
    }


class PartStore:
    """The ``OUT.parts/`` directory of one run."""

    def __init__(self, output: Path, rows_ext: str) -> None:
        self.dir = parts_dir(output)
        self.rows_ext = rows_ext

    def open(self, state: dict[str, Any], resume: bool) -> set[int]:
        """Create or reopen the directory; return the indices of chunks already done."""
        self._drop_if_unstarted()
        if self.dir.exists():
            if not resume:
                raise EnrichmentError(
                    f"{self.dir} holds the finished chunks of an interrupted run; rerun with --resume to"
                    " continue it, or delete that directory to start over"
                )
            self._check_state(state)
            for stale in self.dir.glob(".*.tmp-*"):  # a chunk being written when the run was killed
                stale.unlink()
            return self._finished()
        self.dir.mkdir()
        write_atomic(self.dir / STATE_FILE, strictjson.dumps(state))
        return set()

    def _drop_if_unstarted(self) -> None:
        """A run killed between creating the directory and renaming ``state.json`` into it did nothing:
        remove what it left (at most a temporary file) instead of refusing to start or to resume."""
        if not self.dir.is_dir() or (self.dir / STATE_FILE).exists():
            return
        leftovers = list(self.dir.iterdir())
        if all(path.name.startswith(f".{STATE_FILE}.tmp-") for path in leftovers):
            for path in leftovers:
                path.unlink()
            self.dir.rmdir()

    def _check_state(self, state: dict[str, Any]) -> None:
        try:
            recorded = strictjson.parse((self.dir / STATE_FILE).read_bytes())
        except (OSError, strictjson.JsonRefusal) as exc:
            raise EnrichmentError(f"cannot resume: {self.dir / STATE_FILE} is unreadable ({exc})") from None
        if not isinstance(recorded, dict):
            raise EnrichmentError(f"cannot resume: {self.dir / STATE_FILE} is not a JSON object")
        for key, value in state.items():
            if recorded.get(key) != value:
                raise EnrichmentError(
                    f"cannot resume: the interrupted run used {key} {recorded.get(key)!r}, this one"
                    f" {value!r}; rerun with the same options and input, or delete {self.dir}"
                )

    def _finished(self) -> set[int]:
        """Indices of the chunks whose rows file exists (the last file a chunk renames)."""
        pattern = re.compile(rf"part-([0-9]{{8,}})\.rows{re.escape(self.rows_ext)}")
        return {int(match[1]) for path in self.dir.iterdir() if (match := pattern.fullmatch(path.name))}

    def rows_path(self, index: int) -> Path:
        return self.dir / f"part-{index:08d}.rows{self.rows_ext}"

    def rejects_path(self, index: int) -> Path:
        return self.dir / f"part-{index:08d}.rejects.jsonl"

    def remove(self) -> None:
        shutil.rmtree(self.dir)
