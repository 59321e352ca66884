"""The bulk run: input file -> chunks -> workers -> finished parts -> output file, rejects, metadata.

``enrich_file(Options(...))`` is what ``python -m contract extract --input … --output …`` calls. Memory
is bounded by about ``chunk_size x (2 x jobs + 1)`` rows whatever the input size; every finished chunk is
on disk (``contract.enrichment.parts``) so killing the run loses at most the chunks in flight, and
``resume=True`` continues it to the same bytes an uninterrupted run writes.

On completion the rejects file (``<output>.rejects.jsonl`` unless given; always written, empty when no
row failed, so a stale one never survives), for JSONL the metadata sidecar ``<output>.meta.json``
(Parquet keeps it in the file) and the output itself are each written completely under a temporary
name first; only then are they renamed into place, in that order, and ``<output>.parts/`` is removed.
A failure while writing them (disk full, …) leaves every previous file untouched.

Refused before any work: as usage errors (:class:`OptionError`) an unknown schema id, input and
output of different formats, a format that is not ``jsonl``/``parquet``, a chunk size or job count
below 1; as :class:`EnrichmentError` a missing input, an output or rejects file that is the input,
a rejects file that is the output, an output or rejects path that is a directory, a missing output
or rejects directory, a JSONL input that is compressed or is a Parquet file.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, TextIO

from contract.core import registry
from contract.core.stagedfile import StagedFile, write_atomic
from contract.enrichment import jsonl, parquet
from contract.enrichment.metadata import metadata_text, sidecar_path
from contract.enrichment.parts import PartStore, run_state
from contract.enrichment.pool import run_bounded
from contract.enrichment.progress import Progress
from contract.enrichment.rows import EnrichmentError, OptionError

FORMATS = ("jsonl", "parquet")
EXTENSIONS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet", ".pq": "parquet"}
DEFAULT_CHUNK_SIZE = 1000
REJECTS_SUFFIX = ".rejects.jsonl"


@dataclass(frozen=True)
class Options:
    schema_id: str
    input: Path
    output: Path
    jobs: int = 1
    chunk_size: int = DEFAULT_CHUNK_SIZE
    resume: bool = False
    rejects: Path | None = None
    format: str | None = None  # None: inferred from the extensions
    quiet: bool = False
    stderr: TextIO | None = field(default=None, compare=False)  # None: sys.stderr at run time


@dataclass(frozen=True)
class Summary:
    rows: int  # rows written to the output
    rejected: int  # rows written to the rejects file
    resumed: int  # input rows whose chunks were already done
    output: Path
    rejects: Path


@dataclass(frozen=True)
class ChunkTask:
    fmt: str
    schema_id: str
    index: int
    payload: Any  # list of (line, bytes) for JSONL; a pyarrow Table for Parquet
    first_line: int
    rows_path: Path
    rejects_path: Path
    target: Any = None  # the output Arrow schema for Parquet
    weight: float = 0.0  # share of the input this chunk stands for (progress only)


@dataclass(frozen=True)
class ChunkResult:
    index: int
    accepted: int
    rejected: int
    weight: float


def rejects_default(output: Path) -> Path:
    return output.with_name(output.name + REJECTS_SUFFIX)


def infer_format(path: Path) -> str | None:
    return EXTENSIONS.get(path.suffix.lower())


def _resolve_format(options: Options) -> str:
    if options.format is not None:
        if options.format not in FORMATS:
            raise OptionError(f"unknown format {options.format!r}; use one of: {', '.join(FORMATS)}")
        return options.format
    found = {infer_format(options.input), infer_format(options.output)}
    if None in found or len(found) != 1:
        known = ", ".join(EXTENSIONS)
        raise OptionError(
            f"cannot tell the format from {options.input.name!r} and {options.output.name!r}: both must"
            f" end in the same kind of extension ({known}), or pass --format jsonl|parquet"
        )
    fmt = found.pop()
    assert fmt is not None
    return fmt


def _check(options: Options) -> str:
    if options.schema_id not in registry.feature_schemas():
        known = ", ".join(registry.schema_ids())
        raise OptionError(f"unknown feature schema {options.schema_id!r}; known: {known}")
    if options.jobs < 1:
        raise OptionError(f"--jobs must be at least 1, not {options.jobs}")
    if options.chunk_size < 1:
        raise OptionError(f"--chunk-size must be at least 1, not {options.chunk_size}")
    if not options.input.is_file():
        if options.input.exists():  # a directory, a pipe, /dev/stdin: the bulk path reads a regular file
            raise EnrichmentError(f"{options.input}: not a regular file; to read a pipe or stdin use"
                                  " --input - (rows go to stdout, or to --output FILE.jsonl)")
        raise EnrichmentError(f"{options.input}: no such input file")
    source = options.input.resolve()
    if options.output.resolve() == source:
        raise EnrichmentError(f"{options.output}: the output would overwrite the input")
    if options.rejects is not None and options.rejects.resolve() in (source, options.output.resolve()):
        raise EnrichmentError(f"{options.rejects}: the rejects file must differ from the input and the output")
    for role, path in (("output", options.output), ("rejects", options.rejects)):
        if path is None:
            continue
        if path.is_dir():
            raise EnrichmentError(f"{path}: is a directory; the {role} must be a file path")
        if not path.parent.is_dir():
            raise EnrichmentError(f"{path.parent}: the {role} directory does not exist")
    fmt = _resolve_format(options)
    if fmt == "jsonl":
        with open(options.input, "rb") as handle:
            kind = jsonl.not_jsonl(handle.read(8))
        if kind is not None:
            raise EnrichmentError(f"{options.input}: not JSONL text: this is {kind}")
    return fmt


def run_chunk(task: ChunkTask) -> ChunkResult:
    """Enrich one chunk and store its parts (rejects first, rows last). Runs in a worker."""
    if task.fmt == "jsonl":
        encoded = jsonl.encode_chunk(task.schema_id, task.payload)
        if encoded.rejected:
            write_atomic(task.rejects_path, encoded.rejects)
        write_atomic(task.rows_path, encoded.rows)
        return ChunkResult(task.index, encoded.accepted, encoded.rejected, task.weight)
    table, rejects = parquet.encode_chunk(task.schema_id, task.payload, task.first_line, task.target)
    if rejects:
        text = "".join(jsonl.reject_line(row_id, line, error) for row_id, line, error in rejects)
        write_atomic(task.rejects_path, text)
    parquet.write_part(task.rows_path, table)
    return ChunkResult(task.index, table.num_rows, len(rejects), task.weight)


def _chunks(options: Options, fmt: str) -> Iterator[tuple[Any, int, int, float]]:
    """``(payload, first_line, row_count, weight)`` per chunk, in input order."""
    if fmt == "jsonl":
        size = max(options.input.stat().st_size, 1)
        offset = 0
        for lines, reached in jsonl.iter_line_chunks(options.input, options.chunk_size):
            yield lines, lines[0][0], len(lines), (reached - offset) / size
            offset = reached
        return
    total = max(parquet.input_rows(options.input), 1)
    first = 1
    for table in parquet.iter_table_chunks(options.input, options.chunk_size):
        yield table, first, table.num_rows, table.num_rows / total
        first += table.num_rows


def enrich_file(options: Options) -> Summary:
    """Run (or resume) one bulk enrichment; see the module docstring for what is written when."""
    fmt = _check(options)
    target = None
    if fmt == "parquet":
        target = parquet.output_schema(parquet.input_schema(options.input), options.schema_id)
    store = PartStore(options.output, ".jsonl" if fmt == "jsonl" else ".arrow")
    done = store.open(run_state(options.schema_id, options.chunk_size, fmt, options.input), options.resume)
    progress = Progress(options.stderr or sys.stderr, quiet=options.quiet)
    fraction = 0.0
    chunk_count = 0

    def tasks() -> Iterator[ChunkTask]:
        nonlocal fraction, chunk_count
        for index, (payload, first_line, count, weight) in enumerate(_chunks(options, fmt)):
            chunk_count = index + 1
            if index in done:
                fraction += weight
                progress.add(count, 0, fraction, resumed=True)
                continue
            yield ChunkTask(fmt, options.schema_id, index, payload, first_line,
                            store.rows_path(index), store.rejects_path(index), target, weight)

    def finished(result: ChunkResult) -> None:
        nonlocal fraction
        fraction += result.weight
        progress.add(result.accepted + result.rejected, result.rejected, fraction)

    try:
        run_bounded(tasks(), run_chunk, options.jobs, finished)
    finally:
        progress.close()
    rejects_path = options.rejects or rejects_default(options.output)
    rows, rejected = _assemble(store, chunk_count, fmt, options, rejects_path=rejects_path, target=target)
    store.remove()
    return Summary(rows, rejected, progress.resumed, options.output, rejects_path)


def _assemble(
    store: PartStore, chunk_count: int, fmt: str, options: Options, *, rejects_path: Path, target: Any
) -> tuple[int, int]:
    """Concatenate the parts into the rejects file, the metadata sidecar and the output.

    All three are written under temporary names first and renamed only when all are complete."""
    staged: list[StagedFile] = []  # complete temporary files, in rename order
    try:
        rejected = 0
        with _stage(rejects_path, staged) as sink:
            for index in range(chunk_count):
                path = store.rejects_path(index)
                if path.exists():
                    data = path.read_bytes()
                    rejected += data.count(b"\n")
                    sink.write(data)
        rows = 0
        if fmt == "jsonl":
            with _stage(sidecar_path(options.output), staged) as sink:
                sink.write(metadata_text(options.schema_id).encode("utf-8"))
            with _stage(options.output, staged) as sink:
                for index in range(chunk_count):
                    with open(store.rows_path(index), "rb") as part:
                        rows += _copy_counting_lines(part, sink)
        else:
            output = parquet.ParquetOutput(options.output, target)
            try:
                for index in range(chunk_count):
                    table = parquet.read_part(store.rows_path(index))
                    rows += table.num_rows
                    output.write(table)
            except BaseException:
                output.abandon()
                raise
            staged.append(output.finish())
        for done in staged:
            done.publish()
    except BaseException:
        for done in staged:
            done.discard()
        raise
    return rows, rejected


def _copy_counting_lines(source: Any, sink: Any) -> int:
    lines = 0
    while block := source.read(1 << 20):
        lines += block.count(b"\n")
        sink.write(block)
    return lines


@contextmanager
def _stage(path: Path, staged: list[StagedFile]) -> Iterator[IO[bytes]]:
    """Write ``path``'s temporary sibling completely; on success add it to ``staged`` for renaming."""
    file = StagedFile(path)
    with file as handle:
        yield handle
    staged.append(file)
