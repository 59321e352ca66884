"""A fourth enrichment format, for the tests only: tab-separated ``id<TAB>fen[<TAB>side]`` lines in, and
``id<TAB>v1,v2,…`` lines out (values as ``repr`` of the float32's Python float).

It exists to show that a format is one module behind ``contract.enrichment.format.Format``: registered
in ``contract.enrichment.formats.registry`` (by the test, with ``monkeypatch``), it is read and written by the
file run and the streaming run without a line of theirs changing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from contract.core.stagedfile import StagedFile, write_atomic
from contract.enrichment.format import Batch, Chunk, Companion, Encoded, Reject
from contract.enrichment.rows import RowBatch
from contract.features.extractors import ResolvedSchema
from contract.features.rows import BadRow

NAME = "tsv"
EXTENSIONS = (".tsv",)
PART_SUFFIX = ".tsv"


class _Reader:
    label = "line"
    carried = None

    def __init__(self, source: Path | IO[bytes]) -> None:
        self.handle: IO[bytes] = open(source, "rb") if isinstance(source, Path) else source  # noqa: SIM115
        self.owned = isinstance(source, Path)

    def chunks(self, rows: int, budget: int) -> Iterator[Chunk]:
        chunk: list[tuple[int, bytes]] = []
        for number, raw in enumerate(self.handle, start=1):
            chunk.append((number, raw))
            if len(chunk) == rows:
                yield Chunk(chunk, chunk[0][0], len(chunk), 0.0)
                chunk = []
        if chunk:
            yield Chunk(chunk, chunk[0][0], len(chunk), 0.0)

    def close(self) -> None:
        if self.owned:
            self.handle.close()


def open_reader(source: Path | IO[bytes], name: str) -> _Reader:
    return _Reader(source)


def _row(raw: bytes) -> object:
    fields = raw.decode("utf-8").rstrip("\n").split("\t")
    if len(fields) not in (2, 3):
        return BadRow(f"expected 2 or 3 tab-separated fields, got {len(fields)}")
    return dict(zip(("id", "fen", "side"), fields, strict=False))


def decode(payload: list[tuple[int, bytes]], first: int) -> Batch:
    return Batch([_row(raw) for _, raw in payload], [number for number, _ in payload])


def input_rows(path: Path) -> int | None:
    return None


def target(schema: ResolvedSchema, carried: Any, engine: str | None) -> None:
    return None


def encode(schema: ResolvedSchema, batch: Batch, found: RowBatch, target: Any) -> Encoded:
    lines: list[str] = []
    rejects: list[Reject] = []
    for index, error in enumerate(found.errors):
        if error is None:
            values = ",".join(repr(value) for value in found.vectors[index].tolist())
            lines.append(f"{found.ids[index]}\t{values}\n")
        else:
            rejects.append((found.ids[index], batch.numbers[index], error))
    return Encoded("".join(lines).encode("utf-8"), len(lines), rejects)


class _Writer:
    def __init__(self, output: Path | IO[bytes]) -> None:
        self.staged = StagedFile(output) if isinstance(output, Path) else None
        self.handle: Any = self.staged.__enter__() if self.staged is not None else output

    def write(self, rows: bytes) -> None:
        self.handle.write(rows)

    def append_part(self, path: Path) -> int:
        data = path.read_bytes()
        self.handle.write(data)
        return data.count(b"\n")

    def finish(self) -> list[StagedFile]:
        if self.staged is None:
            self.handle.flush()
            return []
        self.staged.__exit__(None, None, None)
        return [self.staged]

    def abandon(self) -> None:
        if self.staged is not None:
            self.handle.close()
            self.staged.discard()


def open_writer(output: Path | IO[bytes], target: Any) -> _Writer:
    return _Writer(output)


def companions(output: Path, schema: ResolvedSchema) -> list[Companion]:
    return []


def store_part(path: Path, rows: bytes) -> None:
    write_atomic(path, rows)


def finished(path: Path, schema: ResolvedSchema, engine: str | None, rows: int) -> str | None:
    return "a tsv output is never kept"
