"""The file run: input file -> chunks -> workers -> finished parts -> output file, rejects, metadata.

``enrich_file(Options(...))`` is what ``python -m contract extract --input FILE --output FILE`` calls
(``contract.enrichment.stream`` serves ``--fen`` and stdin/stdout with the same chunk step,
:mod:`contract.enrichment.encoding`). Input and output are JSONL or Parquet, in any pairing. Memory is
bounded by about ``2 x jobs + 1`` chunks whatever the input size, and a chunk by ``chunk_size`` rows and
about ``chunk_bytes`` bytes; every finished chunk is on disk (``contract.enrichment.parts``) so killing
the run loses at most the chunks in flight, and ``resume=True`` continues it to the same bytes an
uninterrupted run writes.

On completion the rejects file (``<output>.rejects.jsonl`` unless given; always written, empty when no
row failed), for JSONL output the metadata sidecar ``<output>.meta.json`` (Parquet keeps it in the file)
and the output itself are each written completely under a temporary name first; only then are they
renamed into place, in that order, and ``<output>.parts/`` is removed. A failure while writing them
(disk full, …) leaves every previous file untouched and names the file.

Refused before any work (:mod:`contract.enrichment.targets`): as usage errors (:class:`OptionError`) an
unknown schema id, a format that cannot be told, a chunk size, byte budget or job count below 1; as
:class:`EnrichmentError` a missing or non-regular input, any target (output, rejects, sidecar, parts
directory) that is the input or another target, that exists and is not a regular file, that exists
without ``overwrite`` (or ``resume`` of its own parts), or whose directory is missing; a JSONL input that
is compressed or is a Parquet file. An input that turns out unreadable part-way (a corrupt Parquet page)
stops the run with its name and removes the parts, so a plain rerun is not refused.
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
from contract.enrichment.encoding import encode, rejects_text
from contract.enrichment.metadata import metadata_text, sidecar_path
from contract.enrichment.parts import PartStore, parts_dir, run_state
from contract.enrichment.pool import run_bounded
from contract.enrichment.progress import Progress
from contract.enrichment.rows import EnrichmentError, InputError, OptionError
from contract.enrichment.targets import Source, Target, check_targets, naming

FORMATS = ("jsonl", "parquet")
EXTENSIONS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".parquet": "parquet", ".pq": "parquet"}
DEFAULT_CHUNK_SIZE = 1000
DEFAULT_CHUNK_BYTES = 16 << 20  # 16 MiB of input per chunk at most (about: one row may cross it)
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
    format: str | None = None  # None: each file's from its extension
    quiet: bool = False
    stderr: TextIO | None = field(default=None, compare=False)  # None: sys.stderr at run time
    overwrite: bool = False  # replace an existing output, rejects file or sidecar
    chunk_bytes: int = DEFAULT_CHUNK_BYTES


@dataclass(frozen=True)
class Summary:
    rows: int  # rows written to the output
    rejected: int  # rows written to the rejects file
    resumed: int  # input rows whose chunks were already done
    output: Path
    rejects: Path


@dataclass(frozen=True)
class ChunkTask:
    in_fmt: str
    out_fmt: str
    schema_id: str
    index: int
    payload: Any  # list of (line, bytes) for JSONL; a pyarrow Table for Parquet
    first_line: int
    rows_path: Path
    rejects_path: Path
    target: Any = None  # the output Arrow schema for Parquet output
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


def resolve_formats(options: Options) -> tuple[str, str]:
    """``(input format, output format)``: ``format`` for both when given, else each from its extension."""
    if options.format is not None:
        if options.format not in FORMATS:
            raise OptionError(f"unknown format {options.format!r}; use one of: {', '.join(FORMATS)}")
        return options.format, options.format
    found = infer_format(options.input), infer_format(options.output)
    for path, fmt in zip((options.input, options.output), found, strict=True):
        if fmt is None:
            known = ", ".join(EXTENSIONS)
            raise OptionError(f"cannot tell the format of {path.name!r} from its extension ({known});"
                              " rename it or pass --format jsonl|parquet")
    return found[0] or "jsonl", found[1] or "jsonl"


def _targets(options: Options, out_fmt: str) -> list[Target]:
    targets = [Target("output", options.output),
               Target("rejects file", options.rejects or rejects_default(options.output))]
    if out_fmt == "jsonl":
        targets.append(Target("metadata sidecar", sidecar_path(options.output)))
    return targets


def _check(options: Options) -> tuple[str, str]:
    if options.schema_id not in registry.feature_schemas():
        known = ", ".join(registry.schema_ids())
        raise OptionError(f"unknown feature schema {options.schema_id!r}; known: {known}")
    for name, value in (("--jobs", options.jobs), ("--chunk-size", options.chunk_size),
                        ("the chunk byte budget", options.chunk_bytes)):
        if value < 1:
            raise OptionError(f"{name} must be at least 1, not {value}")
    in_fmt, out_fmt = resolve_formats(options)
    if not options.input.is_file():
        if options.input.exists():  # a directory, a pipe, /dev/stdin: the file run reads a regular file
            raise EnrichmentError(f"{options.input}: not a regular file; to read a pipe or stdin use"
                                  " --input - (rows go to stdout, or to --output FILE)")
        raise EnrichmentError(f"{options.input}: no such input file")
    parts = parts_dir(options.output)
    resuming = options.resume and parts.is_dir()
    PartStore(options.output, "").check_free(options.resume)
    check_targets([Source("input", options.input)], _targets(options, out_fmt),
                  replace=options.overwrite or resuming, parts=Target("parts directory", parts))
    if in_fmt == "jsonl":
        with naming(options.input, "cannot be read"), open(options.input, "rb") as handle:
            kind = jsonl.not_jsonl(handle.read(8))
        if kind is not None:
            raise EnrichmentError(f"{options.input}: not JSONL text: this is {kind}")
    return in_fmt, out_fmt


def run_chunk(task: ChunkTask) -> ChunkResult:
    """Enrich one chunk and store its parts (rejects first, rows last). Runs in a worker."""
    encoded = encode(task.schema_id, task.in_fmt, task.out_fmt, task.payload, first_line=task.first_line,
                     target=task.target)
    if encoded.rejects:
        with naming(task.rejects_path):
            write_atomic(task.rejects_path, rejects_text(encoded.rejects))
    with naming(task.rows_path):
        if task.out_fmt == "jsonl":
            write_atomic(task.rows_path, encoded.rows)
        else:
            parquet.write_part(task.rows_path, encoded.rows)
    return ChunkResult(task.index, encoded.accepted, len(encoded.rejects), task.weight)


def _chunks(options: Options, fmt: str) -> Iterator[tuple[Any, int, int, float]]:
    """``(payload, first_line, row_count, weight)`` per chunk, in input order."""
    if fmt == "jsonl":
        size = max(options.input.stat().st_size, 1)
        offset = 0
        with naming(options.input, "cannot be read"), open(options.input, "rb") as handle:
            for lines, reached in jsonl.iter_line_chunks(handle, options.chunk_size, options.chunk_bytes):
                yield lines, lines[0][0], len(lines), (reached - offset) / size
                offset = reached
        return
    total = max(parquet.input_rows(options.input), 1)
    rows = parquet.rows_per_chunk(options.input, options.chunk_size, options.chunk_bytes)
    first = 1
    for table in parquet.iter_table_chunks(options.input, rows, options.chunk_bytes):
        yield table, first, table.num_rows, table.num_rows / total
        first += table.num_rows


def output_target(in_fmt: str, out_fmt: str, source: Path, schema_id: str) -> Any:
    """The output Arrow schema (Parquet output only)."""
    if out_fmt != "parquet":
        return None
    if in_fmt == "parquet":
        return parquet.output_schema(parquet.input_schema(source), schema_id)
    return parquet.rows_schema(schema_id)


def enrich_file(options: Options) -> Summary:
    """Run (or resume) one file enrichment; see the module docstring for what is written when."""
    in_fmt, out_fmt = _check(options)
    target = output_target(in_fmt, out_fmt, options.input, options.schema_id)
    store = PartStore(options.output, ".jsonl" if out_fmt == "jsonl" else ".arrow")
    state = run_state(options.schema_id, chunk_size=options.chunk_size, chunk_bytes=options.chunk_bytes,
                      fmt=in_fmt, out_fmt=out_fmt, source=options.input)
    done = store.open(state, options.resume)
    try:
        return _run(options, (in_fmt, out_fmt), target, store, done)
    except InputError:
        store.remove()  # the input is broken: its chunks are worth nothing, and must not block a rerun
        raise
    finally:
        store.release()


def _run(options: Options, formats: tuple[str, str], target: Any, store: PartStore, done: set[int]) -> Summary:
    in_fmt, out_fmt = formats
    progress = Progress(options.stderr or sys.stderr, quiet=options.quiet)
    fraction = 0.0
    chunk_count = 0

    def tasks() -> Iterator[ChunkTask]:
        nonlocal fraction, chunk_count
        for index, (payload, first_line, count, weight) in enumerate(_chunks(options, in_fmt)):
            chunk_count = index + 1
            if index in done:
                fraction += weight
                progress.add(count, 0, fraction, resumed=True)
                continue
            yield ChunkTask(in_fmt, out_fmt, options.schema_id, index, payload, first_line,
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
    rows, rejected = _assemble(store, chunk_count, out_fmt, options, rejects_path=rejects_path, target=target)
    store.remove()
    return Summary(rows, rejected, progress.resumed, options.output, rejects_path)


def _assemble(
    store: PartStore, chunk_count: int, out_fmt: str, options: Options, *, rejects_path: Path, target: Any
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
        if out_fmt == "jsonl":
            with _stage(sidecar_path(options.output), staged) as sink:
                sink.write(metadata_text(options.schema_id).encode("utf-8"))
            with _stage(options.output, staged) as sink:
                for index in range(chunk_count):
                    with open(store.rows_path(index), "rb") as part:
                        rows += _copy_counting_lines(part, sink)
        else:
            with naming(options.output):
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
            with naming(done.path):
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
    with naming(path), file as handle:
        yield handle
    staged.append(file)
