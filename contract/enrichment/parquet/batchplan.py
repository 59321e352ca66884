"""How many rows of a Parquet row group Arrow may decode at once, planned from the page headers.

Arrow decodes a Parquet file a batch of rows at a time, and for each column it holds, while it does, the
page it is decoding (read and decompressed whole), the column chunk's dictionary, and the values of the
batch's rows. The footer's sizes say nothing reliable about any of these (dictionary, delta and
run-length encodings, and compression, make a few bytes of file decode to gigabytes), so before a row
group is read its page headers are (:mod:`contract.enrichment.parquet.pages`) and every column's cost is bounded
from them:

* **held at once, whatever the batch** (:attr:`ColumnCost.fixed`): the largest page (as read plus
  decompressed) and the dictionary page with its decoded entries;
* **per batch** (:meth:`ColumnCost.window`): for a column that is not repeated, every row costs its
  value's width (an index for text read in dictionary form, an offset for text read plainly), plus the
  decoded text of every plain page the batch touches (at most the page's size) and, for the
  ``DELTA_BYTE_ARRAY`` encoding (whose values share prefixes), a page's size per row; for a repeated
  column (lists, maps) every level entry of every page the batch touches, with the rows of each page
  counted from its repetition levels (only when the chunk could cost more than the chunk budget:
  otherwise the whole chunk is counted as held).

The batch size of a row group (:func:`plan_row_group`) is the largest of at most ``rows`` for which no
batch of the row group costs more than the chunk budget beyond what one row must cost anyway; and a row
group that would make Arrow hold more than :data:`READ_LIMIT` bytes at once, even a row at a time, is
refused before any of it is decoded (:class:`ReadTooLarge`), naming the column. Text and binary columns
are read in dictionary form, so a value repeated by dictionary encoding is decoded once, except in a
column using a delta encoding, which Arrow cannot read that way.

:func:`open_parquet` opens an input for all this: a regular file only (never blocking on a FIFO),
opened once (the plan and Arrow read the same file), with its footer (the metadata Arrow reads whole)
at most :data:`FOOTER_LIMIT` bytes.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from contract.core.errors import ContractError
from contract.enrichment.parquet import budget, pages

READ_LIMIT: Final = pages.PAGE_LIMIT  # bytes Arrow may hold at once to decode a batch (pages, dictionaries, values)
FOOTER_LIMIT: Final = 64 << 20  # bytes of a Parquet footer (read and parsed whole by Arrow)
PAGE_COUNT_LIMIT: Final = 1 << 20  # pages in one row group (each header is parsed)
READ_BUFFER_BYTES: Final = 1 << 20

_FIXED_WIDTH: Final = {"BOOLEAN": 16, "INT32": 16, "INT64": 16, "INT96": 16, "FLOAT": 16, "DOUBLE": 16}
_CODECS: Final = {"SNAPPY": "snappy", "GZIP": "gzip", "BROTLI": "brotli", "ZSTD": "zstd", "LZ4_RAW": "lz4_raw"}

Array = npt.NDArray[np.int64]


class ReadTooLarge(ContractError):
    """A Parquet input Arrow cannot read within the limits (the message says which, without the path)."""


def _require() -> tuple[Any, Any]:
    from contract.enrichment.table import require_pyarrow

    pa = require_pyarrow()
    import pyarrow.parquet as pq

    return pa, pq


def _open_regular(path: Path) -> int:
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ReadTooLarge("not a regular file (a Parquet input is read from a file, never a pipe or device)")
        blocking = getattr(os, "set_blocking", None)
        if blocking is not None:
            blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def footer_problem(fd: int) -> str | None:
    """Why the file's footer is not read (larger than :data:`FOOTER_LIMIT`), or ``None``. A file that
    does not end like Parquet is left to Arrow, which says so in its own words."""
    size = os.fstat(fd).st_size
    if size < 12:
        return None
    tail = os.pread(fd, 8, size - 8)
    if tail[4:] not in (b"PAR1", b"PARE"):
        return None
    length = int.from_bytes(tail[:4], "little")
    if length > FOOTER_LIMIT:
        return (f"its footer (the file's metadata, which Arrow reads whole) is {length} bytes; the kit reads"
                f" a footer of at most {FOOTER_LIMIT} bytes")
    return None


@dataclass
class ParquetInput:
    """An open Parquet input: ``file`` (a ``pyarrow.parquet.ParquetFile``) reads through ``handle``."""

    path: Path
    handle: Any  # the open file object (its descriptor is what the plan reads page headers from)
    file: Any
    dictionary_columns: frozenset[int]  # leaf columns read in dictionary form

    @property
    def fd(self) -> int:
        return int(self.handle.fileno())

    def close(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.handle.close()

    def __enter__(self) -> ParquetInput:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def open_parquet(path: Path, *, dictionary: bool = False) -> ParquetInput:
    """Open ``path`` (see the module docstring); ``dictionary``: text and binary leaf columns in
    dictionary form, buffered column reads without pre-buffering (for reading data, not only metadata).
    Raises ``OSError`` for what cannot be opened, :class:`ReadTooLarge` for a non-regular file or an
    oversized footer, and Arrow's own errors for what is not Parquet."""
    pa, pq = _require()
    fd = _open_regular(path)
    try:
        problem = footer_problem(fd)
        if problem is not None:
            raise ReadTooLarge(problem)
        handle = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    try:
        source = pa.PythonFile(handle, mode="r")
        if not dictionary:
            return ParquetInput(path, handle, pq.ParquetFile(source), frozenset())
        metadata = pq.read_metadata(source)
        text = _dictionary_columns(pa, metadata)
        parquet_file = pq.ParquetFile(source, buffer_size=READ_BUFFER_BYTES, pre_buffer=False,
                                      read_dictionary=sorted(text), metadata=metadata)
        return ParquetInput(path, handle, parquet_file, frozenset(text))
    except BaseException:
        handle.close()
        raise


def _dictionary_columns(pa: Any, metadata: Any) -> set[int]:
    """Leaf columns of text or binary that Arrow can read in dictionary form: byte arrays whose Arrow
    type is text or binary, in no row group written with a delta encoding (Arrow cannot accumulate a
    dictionary from those)."""
    arrow = metadata.schema.to_arrow_schema()
    leaves = _arrow_leaves(pa, arrow)
    chosen = set()
    for index in range(metadata.num_columns):
        column = metadata.schema.column(index)
        if column.physical_type != "BYTE_ARRAY" or index >= len(leaves):
            continue
        if not budget.is_binary_like(pa, leaves[index]):
            continue
        if any(set(metadata.row_group(group).column(index).encodings) & pages.DELTA_TEXT_ENCODINGS
               for group in range(metadata.num_row_groups)):
            continue
        chosen.add(index)
    return chosen


def _arrow_leaves(pa: Any, schema: Any) -> list[Any]:
    """The Arrow types of the leaves, in Parquet column order."""
    leaves: list[Any] = []

    def walk(kind: Any) -> None:
        types = pa.types
        if types.is_struct(kind):
            for index in range(kind.num_fields):
                walk(kind.field(index).type)
        elif types.is_map(kind):
            walk(kind.key_type)
            walk(kind.item_type)
        elif types.is_dictionary(kind) or any(getattr(types, test, lambda _: False)(kind) for test in (
                "is_list", "is_large_list", "is_fixed_size_list", "is_list_view", "is_large_list_view")):
            walk(kind.value_type)
        else:
            leaves.append(kind)

    for field in schema:
        walk(field.type)
    return leaves


@dataclass(frozen=True)
class ColumnCost:
    """What decoding one column chunk costs Arrow, from its pages (see the module docstring)."""

    name: str
    fixed: int  # held whatever the batch
    starts: Array  # first row of each data page (a row continued from the page before counts)
    stops: Array  # one past its last row
    once: Array  # bytes per page touched by a batch
    per_row: Array  # bytes per row of a batch in each page (a column that is not repeated)
    repeated: bool

    def window(self, first: Array, stop: Array) -> Array:
        """The cost of the batches of rows [first, stop) beyond :attr:`fixed`."""
        if not len(self.starts):
            return np.zeros(len(first), dtype=np.int64)
        touched_from = np.searchsorted(self.stops, first, "right")
        touched_to = np.searchsorted(self.starts, stop, "left")
        touched_to = np.maximum(touched_to, touched_from)
        once = np.concatenate([[0], np.cumsum(self.once)])
        cost: Array = once[touched_to] - once[touched_from]
        if not self.repeated:
            cost = cost + self._rows_cost(stop) - self._rows_cost(first)
        return cost

    def _rows_cost(self, row: Array) -> Array:
        rows = self.stops - self.starts
        before = np.concatenate([[0], np.cumsum(rows * self.per_row)])
        page = np.searchsorted(self.starts, row, "right") - 1
        inside = page >= 0
        clipped = np.where(inside, page, 0)
        within = np.minimum(row - self.starts[clipped], rows[clipped])
        return np.where(inside, before[clipped] + within * self.per_row[clipped], 0)

    @property
    def row_floor(self) -> int:
        """The most one row of this column can cost beyond :attr:`fixed` (page by page)."""
        if not len(self.once):
            return 0
        return int(np.max(self.once + (0 if self.repeated else self.per_row)))


def _value_bytes(column: Any, page: pages.Page, dictionary: bool, dictionary_bytes: int) -> tuple[int, int]:
    """(bytes per level entry, bytes once for the page) Arrow holds for a data page's values."""
    levels = 1 + (2 if column.max_definition_level else 0) + (10 if column.max_repetition_level else 0)
    physical = column.physical_type
    if physical == "FIXED_LEN_BYTE_ARRAY":
        return levels + max(int(column.length or 0), 32), 0
    if physical != "BYTE_ARRAY":
        return levels + _FIXED_WIDTH.get(physical, 16), 0
    if page.encoding in pages.DICTIONARY_ENCODINGS:
        return levels + (4 if dictionary else 8 + dictionary_bytes), 0
    if page.encoding in ("PLAIN", "DELTA_LENGTH_BYTE_ARRAY"):
        return levels + 8, page.uncompressed
    return levels + 8 + page.uncompressed, 0  # DELTA_BYTE_ARRAY (shared prefixes) or anything else


def _codec(pa: Any, name: str) -> tuple[bool, Any]:
    """(whether the pages can be decompressed here, the codec or None for uncompressed)."""
    if name == "UNCOMPRESSED":
        return True, None
    if name in _CODECS:
        return True, pa.Codec(_CODECS[name])
    return False, None


def column_cost(pa: Any, source: ParquetInput, group: int, index: int, *, budget_bytes: int,
                file_size: int) -> ColumnCost:
    """The cost of column chunk ``index`` of row group ``group`` (raises :class:`pages.PageError`)."""
    metadata = source.file.metadata
    column = metadata.schema.column(index)
    chunk = metadata.row_group(group).column(index)
    start = chunk.data_page_offset
    if chunk.has_dictionary_page and 0 < chunk.dictionary_page_offset < start:
        start = chunk.dictionary_page_offset
    found = pages.column_pages(source.fd, file_size, start, chunk.total_compressed_size, chunk.num_values)
    dictionary = index in source.dictionary_columns
    dictionaries = [page for page in found if page.kind == pages.DICTIONARY_PAGE]
    data = [page for page in found if page.is_data]
    dictionary_bytes = max((page.uncompressed for page in dictionaries), default=0)
    fixed = sum(page.held + page.uncompressed + 8 * page.values for page in dictionaries)
    fixed += max((page.held for page in data), default=0)
    costs = [_value_bytes(column, page, dictionary, dictionary_bytes) for page in data]
    per_entry = np.array([cost[0] for cost in costs], dtype=np.int64)
    once = np.array([cost[1] for cost in costs], dtype=np.int64)
    values = np.array([page.values for page in data], dtype=np.int64)
    name = column.path
    if not column.max_repetition_level:
        starts = np.concatenate([[0], np.cumsum(values)])[:-1]
        return ColumnCost(name, fixed, starts, starts + values, once, per_entry, False)
    whole = once + values * per_entry
    readable, codec = _codec(pa, chunk.compression)
    if int(whole.sum()) <= budget_bytes or not readable:
        return ColumnCost(name, fixed + int(whole.sum()), *(np.zeros(0, dtype=np.int64),) * 4, True)
    zeros = np.zeros(len(data), dtype=np.int64)
    continued = np.zeros(len(data), dtype=np.int64)
    for number, page in enumerate(data):
        if page.kind == pages.DATA_PAGE_V2 and page.rows is not None:
            zeros[number] = page.rows
        else:
            zeros[number], carried = pages.page_rows(source.fd, page, codec, column.max_repetition_level)
            continued[number] = int(carried)
    before = np.concatenate([[0], np.cumsum(zeros)])[:-1]
    return ColumnCost(name, fixed, before - continued, before + zeros, whole, np.zeros(len(data), np.int64), True)


@dataclass(frozen=True)
class RowGroupPlan:
    group: int
    rows: int  # rows per batch


def _worst(costs: list[ColumnCost], rows: int, batch: int) -> tuple[int, int]:
    """(the largest cost of a batch of ``batch`` rows beyond the fixed costs, its first row)."""
    first = np.arange(0, rows, batch, dtype=np.int64)
    stop = np.minimum(first + batch, rows)
    total = np.zeros(len(first), dtype=np.int64)
    for cost in costs:
        total += cost.window(first, stop)
    at = int(np.argmax(total)) if len(total) else 0
    return (int(total[at]), int(first[at])) if len(total) else (0, 0)


def plan_row_group(source: ParquetInput, group: int, most_rows: int, budget_bytes: int) -> RowGroupPlan:
    """The batch size for row group ``group`` (see the module docstring); :class:`ReadTooLarge` when even
    one row would make Arrow hold more than :data:`READ_LIMIT` bytes."""
    pa, _ = _require()
    metadata = source.file.metadata
    rows = metadata.row_group(group).num_rows
    file_size = os.fstat(source.fd).st_size
    costs: list[ColumnCost] = []
    try:
        for index in range(metadata.num_columns):
            costs.append(column_cost(pa, source, group, index, budget_bytes=budget_bytes, file_size=file_size))
            if sum(len(cost.starts) for cost in costs) > PAGE_COUNT_LIMIT:
                raise ReadTooLarge(f"row group {group} has more than {PAGE_COUNT_LIMIT} pages")
    except pages.PageTooLarge as exc:
        where = metadata.schema.column(len(costs)).path
        raise ReadTooLarge(f"column {where!r} of row group {group}: {exc}") from None
    except pages.PageError as exc:  # a corrupt file: said as Arrow's own errors are
        where = metadata.schema.column(len(costs)).path
        raise pages.PageError(f"column {where!r} of row group {group}: {exc}") from None
    fixed = sum(cost.fixed for cost in costs)
    if fixed > READ_LIMIT:
        widest = max(costs, key=lambda cost: cost.fixed)
        raise ReadTooLarge(
            f"row group {group} needs {fixed} bytes of pages and dictionaries held at once (column"
            f" {widest.name!r} alone {widest.fixed}); the kit lets Arrow hold at most {READ_LIMIT} bytes at once")
    if rows <= 0:
        return RowGroupPlan(group, max(1, most_rows))
    # beyond the budget, what the heaviest row costs anyway: a page of a repeated column, or two pages
    # of a column that is not (a batch may straddle a page boundary)
    target = budget_bytes + sum(cost.row_floor * (1 if cost.repeated else 2) for cost in costs)
    batch = max(1, min(most_rows, rows))
    worst, _ = _worst(costs, rows, batch)
    if worst > target:
        low, high = 1, batch - 1
        batch = 1
        while low <= high:
            middle = (low + high) // 2
            if _worst(costs, rows, middle)[0] <= target:
                batch, low = middle, middle + 1
            else:
                high = middle - 1
        worst, _ = _worst(costs, rows, batch)
    if fixed + worst > READ_LIMIT:
        _, first = _worst(costs, rows, batch)
        heaviest = max(costs, key=lambda cost: int(cost.window(np.array([first]), np.array([first + batch]))[0]))
        raise ReadTooLarge(
            f"rows {first + 1}-{min(first + batch, rows)} of row group {group} need up to {fixed + worst} bytes"
            f" decoded at once (most of it column {heaviest.name!r}); the kit lets Arrow hold at most"
            f" {READ_LIMIT} bytes at once")
    return RowGroupPlan(group, batch)


def batches(source: ParquetInput, most_rows: int, budget_bytes: int) -> Iterator[Any]:
    """Every row of ``source`` as record batches, row group by row group, each batch within the plan."""
    for group in range(source.file.metadata.num_row_groups):
        plan = plan_row_group(source, group, most_rows, budget_bytes)
        yield from source.file.iter_batches(batch_size=plan.rows, row_groups=[group])
