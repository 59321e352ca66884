"""The file run: input file -> chunks -> workers -> finished parts -> output file, rejects, metadata.

``enrich_file(Options(...))`` is what ``python -m contract extract --input FILE --output FILE`` calls
(``contract.enrichment.runs.stream`` serves ``--fen`` and stdin/stdout with the same chunk step,
:mod:`contract.enrichment.runs.encoding`). Input and output are any of the file formats of the registry
(:mod:`contract.enrichment.formats.registry`: JSONL and Parquet), in any pairing; this module reaches them only
through the format interface (:mod:`contract.enrichment.format`), never by name. Memory is
bounded by about ``2 x jobs + 1`` chunks whatever the input size, and a chunk by ``chunk_size`` rows and
about ``chunk_bytes`` bytes; every finished chunk is on disk (``contract.enrichment.runs.parts``) so killing
the run loses at most the chunks in flight, and ``resume=True`` continues it to the same bytes an
uninterrupted run writes.

On completion the rejects file (``<output>.rejects.jsonl`` unless given; always written, empty when no
row failed), the output format's companions (JSONL's metadata sidecar ``<output>.meta.json``; Parquet
keeps the metadata in the file) and the output itself are each written completely under a temporary name
first; only then are they renamed into place, in that order, and ``<output>.parts/`` is removed. A failure
while writing them (disk full, …) leaves every previous file untouched and names the file.

Refused before any work (:mod:`contract.enrichment.targets`): as usage errors (:class:`OptionError`) an
unknown schema id, a format that cannot be told, a chunk size, byte budget or job count below 1; as
:class:`EnrichmentError` a missing or non-regular input, any target (output, rejects, sidecar, parts
directory) that is the input or another target, that exists and is not a regular file, that exists
without ``overwrite`` (or ``resume`` of its own parts), or whose directory is missing; an input its format
refuses as a whole (a JSONL input that is compressed or is a Parquet file, a Parquet input without an
``id`` or ``fen`` column, …). An input that turns out unreadable part-way (a corrupt Parquet page)
stops the run with its name and removes the parts, so a plain rerun is not refused.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, TextIO

from contract.core.stagedfile import StagedFile, write_atomic
from contract.enrichment.engines import DEFAULT_ENGINE_VERSION, rules_of
from contract.enrichment.format import Format, Reader
from contract.enrichment.formats import registry as formats
from contract.enrichment.rows import EnrichmentError, InputError, OptionError
from contract.enrichment.runs.encoding import encode, resolve_schema
from contract.enrichment.runs.parts import PartStore, parts_dir, run_state
from contract.enrichment.runs.pool import run_bounded
from contract.enrichment.runs.progress import Progress
from contract.enrichment.runs.rejects import default_path as rejects_default
from contract.enrichment.runs.rejects import rejects_text
from contract.enrichment.targets import Source, Target, check_targets, naming
from contract.features.extractors import ResolvedSchema
from contract.features.rules import RuleSet

FORMATS = formats.FILE_FORMATS
DEFAULT_CHUNK_SIZE = 1000
DEFAULT_CHUNK_BYTES = 16 << 20  # 16 MiB of input per chunk at most (about: one row may cross it)

__all__ = ["DEFAULT_CHUNK_BYTES", "DEFAULT_CHUNK_SIZE", "FORMATS", "ChunkResult", "ChunkTask", "Options", "Summary",
           "enrich_file", "rejects_default", "run_chunk", "run_state"]


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
    engine_version: str | None = None  # whose answer (``--engine-version``); None: the kit's default release


@dataclass(frozen=True)
class Summary:
    rows: int  # rows written to the output
    rejected: int  # rows written to the rejects file
    resumed: int  # input rows whose chunks were already done
    output: Path
    rejects: Path


@dataclass(frozen=True)
class ChunkTask:
    source: str  # the input's format
    sink: str  # the output's format
    schema: ResolvedSchema  # the run's, resolved once at its start (its rule set: the asked release's)
    index: int
    payload: Any  # what the input format's reader cut (numbered JSONL lines, an Arrow table, …)
    first_line: int
    rows_path: Path
    rejects_path: Path
    target: Any = None  # the output's layout, from the output format (an Arrow schema for Parquet)
    weight: float = 0.0  # share of the input this chunk stands for (progress only)


@dataclass(frozen=True)
class ChunkResult:
    index: int
    accepted: int
    rejected: int
    weight: float


def resolve_formats(options: Options) -> tuple[str, str]:
    """``(input format, output format)``: ``format`` for both when given, else each from its extension."""
    offered = formats.file_formats()
    if options.format is not None:
        if options.format not in offered:
            raise OptionError(f"unknown format {options.format!r}; use one of: {', '.join(offered)}")
        return options.format, options.format
    found = formats.of_path(options.input), formats.of_path(options.output)
    for path, name in zip((options.input, options.output), found, strict=True):
        if name is None:
            known = ", ".join(formats.extensions())
            raise OptionError(f"cannot tell the format of {path.name!r} from its extension ({known});"
                              f" rename it or pass --format {'|'.join(offered)}")
    return found[0] or formats.DEFAULT, found[1] or formats.DEFAULT


def _targets(options: Options, sink: Format, schema: ResolvedSchema) -> list[Target]:
    companions = sink.companions(options.output, schema)
    return [Target("output", options.output),
            Target("rejects file", options.rejects or rejects_default(options.output)),
            *(Target(companion.role, companion.path) for companion in companions)]


def _check(options: Options, rules: RuleSet | None) -> tuple[ResolvedSchema, str, str, Reader]:
    """Every refusal before any work; the input opened (and checked by its format) last."""
    schema = resolve_schema(options.schema_id, rules)
    for name, value in (("--jobs", options.jobs), ("--chunk-size", options.chunk_size),
                        ("the chunk byte budget", options.chunk_bytes)):
        if value < 1:
            raise OptionError(f"{name} must be at least 1, not {value}")
    source, sink = resolve_formats(options)
    if not options.input.is_file():
        if options.input.exists():  # a directory, a pipe, /dev/stdin: the file run reads a regular file
            raise EnrichmentError(f"{options.input}: not a regular file; to read a pipe or stdin use"
                                  " --input - (rows go to stdout, or to --output FILE)")
        raise EnrichmentError(f"{options.input}: no such input file")
    parts = parts_dir(options.output)
    resuming = options.resume and parts.is_dir()
    PartStore(options.output, "").check_free(options.resume)
    check_targets([Source("input", options.input)], _targets(options, formats.get(sink), schema),
                  replace=options.overwrite or resuming, parts=Target("parts directory", parts))
    return schema, source, sink, formats.get(source).open_reader(options.input, str(options.input))


def run_chunk(task: ChunkTask) -> ChunkResult:
    """Enrich one chunk and store its parts (rejects first, rows last). Runs in a worker."""
    encoded = encode(task.schema, task.source, task.sink, task.payload, first=task.first_line, target=task.target)
    if encoded.rejects:
        with naming(task.rejects_path):
            write_atomic(task.rejects_path, rejects_text(encoded.rejects))
    with naming(task.rows_path):
        formats.get(task.sink).store_part(task.rows_path, encoded.rows)
    return ChunkResult(task.index, encoded.accepted, len(encoded.rejects), task.weight)


def enrich_file(options: Options) -> Summary:
    """Run (or resume) one file enrichment; see the module docstring for what is written when."""
    rules = rules_of(options.engine_version)  # once per run, before any work (a usage error otherwise)
    schema, source, sink, reader = _check(options, rules)
    try:
        target = formats.get(sink).target(schema, reader.carried, None)
        store = PartStore(options.output, formats.get(sink).PART_SUFFIX)
        state = run_state(options.schema_id, chunk_size=options.chunk_size, chunk_bytes=options.chunk_bytes,
                          fmt=source, out_fmt=sink, source=options.input,
                          engine=options.engine_version or DEFAULT_ENGINE_VERSION)
        done = store.open(state, options.resume)
        try:
            return _run(options, (source, sink), reader, target=target, store=store, done=done, schema=schema)
        except InputError:
            store.remove()  # the input is broken: its chunks are worth nothing, and must not block a rerun
            raise
        finally:
            store.release()
    finally:
        reader.close()


def _run(options: Options, names: tuple[str, str], reader: Reader, *, target: Any, store: PartStore,
         done: set[int], schema: ResolvedSchema) -> Summary:
    source, sink = names
    progress = Progress(options.stderr or sys.stderr, quiet=options.quiet)
    fraction = 0.0
    chunk_count = 0

    def tasks() -> Iterator[ChunkTask]:
        nonlocal fraction, chunk_count
        for index, chunk in enumerate(reader.chunks(options.chunk_size, options.chunk_bytes)):
            chunk_count = index + 1
            if index in done:
                fraction += chunk.weight
                progress.add(chunk.rows, 0, fraction, resumed=True)
                continue
            yield ChunkTask(source, sink, schema, index, chunk.payload, chunk.first,
                            store.rows_path(index), store.rejects_path(index), target, chunk.weight)

    def finished(result: ChunkResult) -> None:
        nonlocal fraction
        fraction += result.weight
        progress.add(result.accepted + result.rejected, result.rejected, fraction)

    try:
        run_bounded(tasks(), run_chunk, options.jobs, finished)
    finally:
        progress.close()
    rejects_path = options.rejects or rejects_default(options.output)
    rows, rejected = _assemble(store, chunk_count, formats.get(sink), options, rejects_path=rejects_path,
                               target=target, schema=schema)
    store.remove()
    return Summary(rows, rejected, progress.resumed, options.output, rejects_path)


def _assemble(
    store: PartStore, chunk_count: int, sink: Format, options: Options, *, rejects_path: Path, target: Any,
    schema: ResolvedSchema
) -> tuple[int, int]:
    """Concatenate the parts into the rejects file, the format's companions (JSONL's metadata sidecar) and
    the output. All are written under temporary names first and renamed only when all are complete."""
    staged: list[StagedFile] = []  # complete temporary files, in rename order
    try:
        rejected = 0
        with _stage(rejects_path, staged) as handle:
            for index in range(chunk_count):
                path = store.rejects_path(index)
                if path.exists():
                    data = path.read_bytes()
                    rejected += data.count(b"\n")
                    handle.write(data)
        for companion in sink.companions(options.output, schema):
            with _stage(companion.path, staged) as handle:
                handle.write(companion.data)
        rows = 0
        with naming(options.output):
            writer = sink.open_writer(options.output, target)
            try:
                for index in range(chunk_count):
                    rows += writer.append_part(store.rows_path(index))
                staged.extend(writer.finish())
            except BaseException:
                writer.abandon()
                raise
        for complete in staged:
            with naming(complete.path):
                complete.publish()
    except BaseException:
        for complete in staged:
            complete.discard()
        raise
    return rows, rejected


@contextmanager
def _stage(path: Path, staged: list[StagedFile]) -> Iterator[IO[bytes]]:
    """Write ``path``'s temporary sibling completely; on success add it to ``staged`` for renaming."""
    file = StagedFile(path)
    with naming(path), file as handle:
        yield handle
    staged.append(file)
