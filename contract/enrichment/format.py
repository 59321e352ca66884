"""The one interface every enrichment format implements, and what travels through it.

A format is a module (``jsonl``, ``parquet``, ``training``) that the runs reach only through this
protocol and the registry (:mod:`contract.enrichment.formats.registry`), never by name: so ``extract``'s file
run (:mod:`~contract.enrichment.runs.pipeline`), its streaming run (:mod:`~contract.enrichment.runs.stream`) and
``enrich-shards`` (:mod:`~contract.enrichment.runs.shardrun`) hold no branch on a format, and a new format is
one new module plus one registry entry.

The life of a chunk, whatever the formats:

1. the input format's :class:`Reader` (opened with ``open_reader``, which checks the input up front)
   yields :class:`Chunk` objects, each within a row cap and a byte budget;
2. in a worker, the input format's ``decode`` turns the chunk's payload into a :class:`Batch`: the rows
   the kit's row rules read (``{id, fen, side?}`` or a :class:`~contract.features.rows.BadRow` saying
   why a row is not one), their line or row numbers, and the columns an output may carry;
3. :func:`contract.enrichment.runs.encoding.enrich_batch` extracts the whole batch at once (a float32 matrix
   and one error or ``None`` per row), format-blind;
4. the output format's ``encode`` turns the batch and that matrix into an :class:`Encoded` chunk (its
   accepted rows in the output's form, and the rejects);
5. the output format's :class:`Writer` (``open_writer``) writes the chunks in order; ``finish`` leaves
   complete temporary files that the run renames into place (``publish``), ``abandon`` removes them.

A file run also keeps finished chunks on disk (``store_part``, read back by :meth:`Writer.append_part`)
and writes the format's ``companions`` (JSONL's metadata sidecar) beside the output; a shard run asks
``finished`` whether an existing output is one it may keep on ``--resume``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Protocol

from contract.core.stagedfile import StagedFile
from contract.enrichment.rows import RowBatch
from contract.features.extractors import ResolvedSchema

Reject = tuple[Any, int, str]  # (id, 1-based line or row number, error)


@dataclass(frozen=True)
class Chunk:
    """A piece of the input as a reader cut it: a picklable ``payload`` for a worker's ``decode``."""

    payload: Any
    first: int  # 1-based line or row number of its first row
    rows: int  # input rows (or lines) it stands for
    weight: float  # its share of the whole input (for progress; 0 when unknown)


@dataclass(frozen=True)
class Batch:
    """A decoded chunk: what the row rules read, where each row was, and what an output may carry."""

    rows: Sequence[object]  # ``{"id", "fen", "side"?}`` mappings, or BadRow
    numbers: Sequence[int]  # each row's 1-based line or row number in its input
    carried: Any = None  # the input's own columns (an Arrow table), or None


@dataclass(frozen=True)
class Encoded:
    """A chunk's accepted rows in the output's form (``bytes``, an Arrow table, …) and its rejects."""

    rows: Any
    accepted: int
    rejects: list[Reject]


@dataclass(frozen=True)
class Companion:
    """A file a run writes beside its output (JSONL's metadata sidecar): its role in messages, path, bytes."""

    role: str
    path: Path
    data: bytes


class Reader(Protocol):
    """An opened input: checked already; read as chunks of at most ``rows`` rows and about ``budget`` bytes."""

    label: str  # what one position of this input is called in messages: "line", "row"
    carried: Any  # the Arrow schema of the columns an output may carry, or None

    def chunks(self, rows: int, budget: int) -> Iterator[Chunk]: ...

    def close(self) -> None:
        """Let go of what the reader holds open (a JSONL file)."""
        ...


class Writer(Protocol):
    """An output being written: chunks in order, then complete temporary files for the run to publish."""

    def write(self, rows: Any) -> None: ...

    def append_part(self, path: Path) -> int:
        """Write a finished chunk stored by ``store_part``; return its row count."""
        ...

    def finish(self) -> list[StagedFile]:
        """Complete the output: the temporary files to rename, in order (none for a stream)."""
        ...

    def abandon(self) -> None: ...


class Format(Protocol):
    """A format module (see the module docstring for the order in which a run calls these)."""

    NAME: str
    EXTENSIONS: tuple[str, ...]  # file name endings that mean this format; () = chosen by its command only
    PART_SUFFIX: str  # file name ending of a stored chunk

    # reading
    def open_reader(self, source: Path | IO[bytes], name: str) -> Reader:
        """The input (a file, or a stream where the format allows one), checked before any row is read."""
        ...

    def decode(self, payload: Any, first: int) -> Batch:
        """A chunk's payload as rows (in a worker)."""
        ...

    def input_rows(self, path: Path) -> int | None:
        """The rows an input file holds when the format records it (no data read); ``None`` otherwise."""
        ...

    # writing
    def target(self, schema: ResolvedSchema, carried: Any, engine: str | None) -> Any:
        """The output's layout (picklable: it goes to the workers), from the input's carried columns and the
        run's resolved schema."""
        ...

    def stamped(self, target: Any, extra: dict[bytes, bytes]) -> Any:
        """The layout ``target`` with the additional metadata keys ``extra`` (what vouched for the engine
        version, ``enrich-shards --engine-recording``); a format that carries no such keys refuses any."""
        ...

    def encode(self, schema: ResolvedSchema, batch: Batch, found: RowBatch, target: Any) -> Encoded:
        """A batch and its extracted matrix as output rows and rejects (in a worker)."""
        ...

    def open_writer(self, output: Path | IO[bytes], target: Any) -> Writer: ...

    def companions(self, output: Path, schema: ResolvedSchema) -> list[Companion]:
        """Files a file run writes beside ``output`` (checked as targets before any work)."""
        ...

    def store_part(self, path: Path, rows: Any) -> None:
        """Keep a finished chunk's rows on disk (a file run), for :meth:`Writer.append_part`."""
        ...

    def finished(self, path: Path, schema: ResolvedSchema, engine: str | None, rows: int,
                 source: Path | None = None) -> str | None:
        """Why ``path`` is not a complete output of these settings with ``rows`` rows (and, where the format
        records it and ``source`` is given, made from that input's bytes), or ``None`` when it is (a shard
        run keeps such an output on ``--resume``)."""
        ...
