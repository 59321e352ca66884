"""``enrich-shards``: a directory (or one file) of raw training shards in, enriched shards of the same names out.

The run is blind to the format: it asks the registry for ``training``
(:mod:`contract.enrichment.formats.registry`) and goes through the format interface
(:mod:`contract.enrichment.format`) only. Every shard is read in chunks (at most ``chunk_size`` rows and
about ``chunk_bytes`` decoded bytes, as ``extract`` reads Parquet: :mod:`contract.enrichment.parquet.budget`), each
chunk is decoded, checked and enriched by the shared chunk step (:func:`contract.enrichment.runs.encoding.encode`)
in one of ``jobs`` worker processes (at most ``2 x jobs`` chunks in flight, whatever the number and size of
the shards); a chunk that comes back with a reject refuses its shard. The main process writes
the chunks of a shard in order, one row group each, into a hidden temporary sibling of its output
(``.NAME.tmp-<hex>``), renamed onto ``OUTPUT_DIR/NAME`` when the shard is complete. So memory does not
grow with rows or shards, the bytes do not depend on ``jobs``, and nothing partial is ever visible
under a final name.

A shard that breaks a rule (see :mod:`contract.enrichment.formats.training`) is not published: its temporary
file is removed, its message names the file (and the game and ply of the first bad row), and the other
shards go on; the summary lists it and the command exits 1.

Refused before any work: an unknown schema or an engine version the kit cannot vouch for (usage
errors), a missing input, an input directory without ``*.parquet`` shards, an output directory that is
the input's directory, or whose parent does not exist, and an output that exists already, unless
``overwrite`` (replace it) or ``resume`` (keep it when it is a finished shard of the same schema and
engine, with the input's row count; one made from other input bytes is written again; otherwise
refused naming what differs). The output directory is locked (``flock``) while a run holds it; holding
the lock, a run first removes the temporary siblings (``.NAME.tmp-<hex>``) of its shards that a killed run
(SIGKILL, a power cut) left half-written. With ``task = (I, N)`` (``--task I/N``) the run takes only shard
k (from 0, by name) with k mod N = I - 1, holds the directory shared and its own
``.enrich-shards.task-I-of-N.lock`` exclusively: the N tasks of one array run side by side, a run without
a task and the same task twice refuse each other.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from contract.core.oserrors import os_error_reason
from contract.core.stagedfile import sync_path
from contract.enrichment.engines import Engine, resolve
from contract.enrichment.format import Encoded, Format, Writer
from contract.enrichment.formats import registry as formats
from contract.enrichment.rows import EnrichmentError, OptionError
from contract.enrichment.runs.encoding import encode, resolve_schema
from contract.enrichment.runs.pool import run_bounded
from contract.enrichment.runs.progress import Progress
from contract.enrichment.table import require_pyarrow
from contract.enrichment.targets import naming
from contract.features.extractors import ResolvedSchema, as_resolved

SHARD_FORMAT = "training"  # what enrich-shards reads and writes (the registry's name for it)
DEFAULT_SHARD_CHUNK_ROWS = 2000
DEFAULT_SHARD_CHUNK_BYTES = 16 << 20
SHARD_SUFFIX = ".parquet"
_TEMPORARY = re.compile(r"\.(?P<name>.+)\.tmp-[0-9a-f]{12}")  # contract.core.stagedfile.temporary_sibling


@dataclass(frozen=True)
class ShardOptions:
    schema_id: str
    input: Path  # a raw shard, or a directory of them (``*.parquet``, sorted by name)
    output_dir: Path
    engine_version: str | None = None  # None: engines.DEFAULT_ENGINE_VERSION
    engine_recording: Path | None = None  # a recording of engine_version vouching for it (--engine-recording)
    jobs: int = 1
    resume: bool = False
    overwrite: bool = False
    quiet: bool = False
    chunk_size: int = DEFAULT_SHARD_CHUNK_ROWS
    chunk_bytes: int = DEFAULT_SHARD_CHUNK_BYTES
    stderr: TextIO | None = field(default=None, compare=False)  # None: sys.stderr at run time
    lock: bool = True  # lock the output directory (a Dask task writing one shard of many does not)
    task: tuple[int, int] | None = None  # (I, N): only the I-th of N parts of the shards (``--task I/N``)


@dataclass(frozen=True)
class ShardSummary:
    written: list[tuple[str, int]]  # (name, rows) of every shard written by this run
    kept: list[str]  # finished shards left as they were (--resume)
    refused: list[str]  # one message per shard not published
    rows: int
    seconds: float
    stale: list[str] = field(default_factory=list)  # outputs --resume wrote again: their input had changed


def shard_paths(source: Path) -> list[Path]:
    """The raw shards of ``source``: the file itself, or the directory's ``*.parquet`` files by name. An
    entry named like a shard that is not a regular file (a directory of part files, a FIFO) is refused
    up front rather than skipped: its rows would silently be missing from the output."""
    if source.is_dir():
        found = sorted(path for path in source.iterdir()
                       if path.name.endswith(SHARD_SUFFIX) and not path.name.startswith("."))
        for path in found:
            if not path.is_file():
                raise EnrichmentError(
                    f"{path}: named like a shard but not a regular file (a directory of part files, as Spark"
                    " writes, is enriched by giving that directory as INPUT)")
        if not found:
            raise EnrichmentError(f"{source}: no *{SHARD_SUFFIX} shards in this directory")
        return found
    if source.is_file():
        return [source]
    if source.exists():
        raise EnrichmentError(f"{source}: not a regular file or a directory")
    raise EnrichmentError(f"{source}: no such input file or directory")


def task_shards(shards: list[Path], index: int, count: int) -> list[Path]:
    """Task ``index`` of ``count``'s part of the shards (sorted by name): shard k (from 0) belongs to task
    (k mod count) + 1. The parts are disjoint, cover every shard, and depend on the names only."""
    return [shard for number, shard in enumerate(shards) if number % count == index - 1]


def _check(options: ShardOptions) -> tuple[ResolvedSchema, Engine, list[Path]]:
    schema = resolve_schema(options.schema_id, None)  # the run's one look-up; an unknown id is a usage error
    engine = resolve(options.schema_id, options.engine_version, options.engine_recording)
    schema = as_resolved(schema, engine.rules)  # the asked release's rule set travels with it
    for name, value in (("--jobs", options.jobs), ("the chunk size", options.chunk_size),
                        ("the chunk byte budget", options.chunk_bytes)):
        if value < 1:
            raise OptionError(f"{name} must be at least 1, not {value}")
    if options.resume and options.overwrite:
        raise OptionError("--resume keeps finished shards and --overwrite replaces them: give one of them")
    shards = shard_paths(options.input)
    if options.task is not None:
        index, count = options.task
        if not 1 <= index <= count:
            raise OptionError(f"--task {index}/{count}: I must be from 1 to N")
        shards = task_shards(shards, index, count)
    out = options.output_dir
    home = options.input if options.input.is_dir() else options.input.parent
    if out.exists() or out.is_symlink():
        if not out.is_dir():
            raise EnrichmentError(f"{out}: the output directory exists and is not a directory")
        if os.path.samefile(out, home):
            raise EnrichmentError(f"{out}: the output directory is the input directory; the enriched shards would"
                                  " replace the raw ones of the same names: give another directory")
    elif not out.parent.is_dir():
        raise EnrichmentError(f"{out}: the directory it would be created in does not exist")
    return schema, engine, shards


def _plan(options: ShardOptions, shards: list[Path], engine: str, fmt: Format,
          schema: ResolvedSchema) -> tuple[list[Path], list[str], list[str]]:
    """The shards to write, the names kept (``--resume``) and those written again because their input
    changed since (``--resume``); other existing outputs refused up front."""
    todo: list[Path] = []
    kept: list[str] = []
    stale: list[str] = []
    for shard in shards:
        target = options.output_dir / shard.name
        if not (target.exists() or target.is_symlink()):
            todo.append(shard)
            continue
        if not target.is_file() or target.is_symlink():
            raise EnrichmentError(f"{target}: exists and is not a regular file; remove it first")
        if options.overwrite:
            todo.append(shard)
            continue
        if not options.resume:
            raise EnrichmentError(f"{target}: the output exists; pass --overwrite to replace it, or --resume to"
                                  " keep the finished shards and write the others")
        rows = _input_rows(fmt, shard)
        why = fmt.finished(target, schema, engine, rows)
        if why is not None:
            raise EnrichmentError(f"{target}: exists but is not this run's finished shard ({why});"
                                  " pass --overwrite to replace it")
        if fmt.finished(target, schema, engine, rows, source=shard) is not None:
            todo.append(shard)  # these settings, but made from other input bytes (or none recorded): redo it
            stale.append(shard.name)
            continue
        kept.append(shard.name)
    return todo, kept, stale


def _input_rows(fmt: Format, shard: Path) -> int:
    """The shard's rows as its format records them; -1 when they cannot be told without reading it."""
    pa = require_pyarrow()
    try:
        rows = fmt.input_rows(shard)
    except (OSError, pa.ArrowException):
        return -1
    return -1 if rows is None else rows


@dataclass(frozen=True)
class ChunkTask:
    schema: ResolvedSchema  # the run's, resolved once at its start (with the asked release's rule set)
    format: str
    shard: int
    index: int
    payload: Any
    first: int
    target: Any


def run_chunk(task: ChunkTask) -> tuple[int, int, Encoded]:
    """Decode, check and enrich one chunk (runs in a worker): ``(shard, index, encoded chunk)``."""
    return task.shard, task.index, encode(task.schema, task.format, task.format, task.payload,
                                          first=task.first, target=task.target)


class _Shard:
    """One output being written: chunks arrive in any order and are written in order."""

    def __init__(self, fmt: Format, source: Path, target: Path) -> None:
        self.fmt = fmt
        self.source = source
        self.target = target
        self.layout: Any = None  # the output format's layout, once the shard has been opened
        self.output: Writer | None = None
        self.waiting: dict[int, Any] = {}
        self.next = 0
        self.chunks: int | None = None  # known once the reader has read the whole shard
        self.rows = 0
        self.error: str | None = None

    def _writer(self) -> Writer:
        if self.output is None:
            with naming(self.target):
                self.output = self.fmt.open_writer(self.target, self.layout)
        return self.output

    def add(self, index: int, rows: Any, count: int) -> None:
        self.waiting[index] = (rows, count)
        while self.next in self.waiting:
            chunk, chunk_rows = self.waiting.pop(self.next)
            writer = self._writer()
            with naming(self.target):
                writer.write(chunk)
            self.rows += chunk_rows
            self.next += 1

    @property
    def complete(self) -> bool:
        return self.error is None and self.chunks is not None and self.next == self.chunks

    def publish(self) -> None:
        writer = self._writer()  # an empty shard: the layout only
        with naming(self.target):
            for complete in writer.finish():
                complete.publish()
            sync_path(self.target.parent)
        self.output = None

    def fail(self, message: str) -> None:
        self.error = message
        self.waiting.clear()
        self.abandon()

    def abandon(self) -> None:
        if self.output is not None:
            self.output.abandon()
            self.output = None


def enrich_shards(options: ShardOptions) -> ShardSummary:
    """Run ``enrich-shards`` (see the module docstring)."""
    started = time.monotonic()
    schema, engine, shards = _check(options)
    options.output_dir.mkdir(exist_ok=True)
    locks = _locks(options.output_dir, options.task) if options.lock else []
    try:
        if locks:  # no other run writes these shards: what an interrupted run left half-written can go
            _remove_stale_temporaries(options.output_dir, [shard.name for shard in shards])
        fmt = formats.get(SHARD_FORMAT)
        todo, kept, stale = _plan(options, shards, engine.version, fmt, schema)
        summary = _run(options, (schema, engine), fmt, todo=todo, kept=kept, started=started)
        summary.stale.extend(stale)
        return summary
    finally:
        for lock in locks:
            os.close(lock)


def enrich_one_shard(schema_id: str, shard: str, output_dir: str, engine: str | None = None) -> list[str]:
    """One raw shard as a distributed task (Dask): the same run on that one file, without the directory
    lock (other tasks write the other shards); a finished output is kept, as with ``--resume``, a stale one
    refused. Returns the messages of a refused shard (empty when written or kept). Lives in the kit so
    that workers only need ``contract`` importable."""
    try:
        summary = enrich_shards(ShardOptions(schema_id, Path(shard), Path(output_dir), engine_version=engine,
                                             quiet=True, lock=False, resume=True))
    except EnrichmentError as exc:
        return [str(exc)]
    return summary.refused


def _remove_stale_temporaries(directory: Path, names: list[str]) -> None:
    """Remove the temporary siblings (``.NAME.tmp-<12 hex>``, regular files only) that a run killed while
    writing shard NAME left behind; the directory lock guarantees no live run is writing them."""
    wanted = set(names)
    for path in directory.iterdir():
        match = _TEMPORARY.fullmatch(path.name)
        if match is None or match["name"] not in wanted:
            continue
        try:
            if stat.S_ISREG(path.lstat().st_mode):
                path.unlink()
        except OSError:  # gone already, or not ours to remove: the run does not depend on it
            pass


def _locks(directory: Path, task: tuple[int, int] | None) -> list[int]:
    """The run's locks (``flock``), held until it ends: a whole run holds the output directory exclusively;
    a task holds it shared (the other tasks run beside it, a whole run does not) and its own lock file
    ``.enrich-shards.task-I-of-N.lock`` exclusively (the same task twice is refused). None on a system
    without ``flock`` (Windows): do not start two runs on one output directory there."""
    try:
        import fcntl
    except ImportError:
        return []
    busy = f"{directory}: in use by another enrich-shards run; wait for it to finish"
    fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        fcntl.flock(fd, (fcntl.LOCK_EX if task is None else fcntl.LOCK_SH) | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise EnrichmentError(busy if task is None else f"{busy} (a run without --task holds it)") from None
    if task is None:
        return [fd]
    name = directory / f".enrich-shards.task-{task[0]}-of-{task[1]}.lock"
    try:
        own = os.open(name, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except OSError as exc:
        os.close(fd)
        raise EnrichmentError(f"{name}: the task's lock cannot be opened ({os_error_reason(exc)})") from None
    try:
        fcntl.flock(own, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(own)
        os.close(fd)
        raise EnrichmentError(f"{directory}: task {task[0]}/{task[1]} is in use by another enrich-shards run;"
                              " wait for it to finish") from None
    return [fd, own]


def _run(options: ShardOptions, run: tuple[ResolvedSchema, Engine], fmt: Format, *, todo: list[Path],
         kept: list[str], started: float) -> ShardSummary:
    pa = require_pyarrow()
    schema, engine = run
    progress = Progress(options.stderr or sys.stderr, quiet=options.quiet, label="enrich-shards")
    total = max(sum(max(_input_rows(fmt, shard), 0) for shard in todo), 1)
    states: list[_Shard] = []
    written: list[tuple[str, int]] = []
    refused: list[str] = []
    done_rows = 0

    def settle(state: _Shard) -> None:
        if state.complete:
            state.publish()
            written.append((state.target.name, state.rows))
            state.chunks = -1  # published: nothing more to do

    def tasks() -> Iterator[ChunkTask]:
        for number, source in enumerate(todo):
            state = _Shard(fmt, source, options.output_dir / source.name)
            states.append(state)
            try:
                reader = fmt.open_reader(source, str(source))
                try:
                    state.layout = fmt.stamped(fmt.target(schema, reader.carried, engine.version),
                                               engine.vouched_by)
                    count = 0
                    for count, chunk in enumerate(reader.chunks(options.chunk_size, options.chunk_bytes), start=1):
                        if state.error is not None:
                            break
                        yield ChunkTask(schema, SHARD_FORMAT, number, count - 1, chunk.payload,
                                        chunk.first, state.layout)
                finally:
                    reader.close()
                if state.error is None:
                    state.chunks = count
                    settle(state)
            except EnrichmentError as exc:  # a message naming the output (cannot be written) keeps that name
                named = str(exc).startswith((str(source), str(state.target)))
                state.fail(str(exc) if named else f"{source}: {exc}")
            except (OSError, pa.ArrowException) as exc:
                state.fail(f"{source}: cannot be read ({exc})")

    def finished(result: tuple[int, int, Encoded]) -> None:
        nonlocal done_rows
        number, index, encoded = result
        state = states[number]
        if state.error is not None:
            return
        if encoded.rejects:  # the producer's rule: a shard is written whole or not at all
            state.fail(f"{state.source}: {encoded.rejects[0][2]}")
            return
        try:
            state.add(index, encoded.rows, encoded.accepted)
            settle(state)
        except EnrichmentError as exc:  # cannot be written (a full disk): that shard is refused, the rest go on
            state.fail(str(exc))
            return
        done_rows += encoded.accepted
        progress.add(encoded.accepted, 0, done_rows / total)

    try:
        run_bounded(tasks(), run_chunk, options.jobs, finished)
    except BaseException:
        for state in states:
            state.abandon()
        raise
    finally:
        progress.close()
    for state in states:
        if state.error is not None:
            refused.append(state.error + "; that shard was not written")
    rows = sum(count for _, count in written)
    return ShardSummary(written, kept, refused, rows, time.monotonic() - started)
