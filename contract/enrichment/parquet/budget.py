"""Memory bounded in bytes for Parquet input: the size of a row as decoded, the cap on a cell, the cut.

A Parquet file's metadata can say a row group is small while its rows decode to gigabytes: dictionary
encoding stores a repeated 10 MiB text once, so 300 rows of it are a 1.6 KB file and 3 GB in memory.
So the reader never trusts the metadata for memory. It reads text and binary columns in dictionary
form (a repeated value is held once), measures every row's decoded size from the value lengths
(:func:`row_sizes`, without expanding anything), refuses a cell larger than :data:`CELL_LIMIT` (the
JSONL line limit, 1 MiB) naming the row and the column, and cuts chunks by decoded bytes as well as by
rows (:class:`Cutter`); only a chunk that is within budget is ever decoded to plain arrays.

The cut is a function of the input alone (the rows' decoded sizes, the row cap, the byte budget), so a
resumed run cuts where the first one did and the Dask writer, which sees the same rows, cuts the same
row groups (:func:`chunk_lengths`).

Sizes counted per row: the byte length of each text/binary value (a null counts 0), the byte width of
each fixed-width value, and for a nested column (lists, maps, structs, at any depth) the sum over the
values it holds, each list element adding its 4-byte offset (:func:`cell_sizes`); a nested cell is
capped at :data:`CELL_LIMIT` like a text cell. What Arrow holds while it decodes a batch (pages,
dictionaries) is bounded before the batch is decoded, from the page headers
(:mod:`contract.enrichment.parquet.batchplan`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

from contract.core import strictjson
from contract.core.errors import ContractError

CELL_LIMIT = strictjson.MAX_BYTES  # bytes in one text or binary cell, as for one JSONL line


class CellTooLarge(ContractError):
    """A cell decodes to more than :data:`CELL_LIMIT` bytes (``row`` is 0-based in the batch given)."""

    def __init__(self, column: str, row: int, size: int) -> None:
        super().__init__(column, row, size)
        self.column = column
        self.row = row
        self.size = size


def is_binary_like(pa: Any, kind: Any) -> bool:
    """Text or binary of any width or view, or a dictionary of one: a column whose cells vary in size."""
    if pa.types.is_dictionary(kind):
        kind = kind.value_type
    tests = ("is_string", "is_large_string", "is_binary", "is_large_binary", "is_string_view", "is_binary_view")
    return any(getattr(pa.types, test, lambda _: False)(kind) for test in tests)


def _value_lengths(pa: Any, column: Any) -> npt.NDArray[np.int64]:
    import pyarrow.compute as pc

    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks != 1 else column.chunk(0)
    if pa.types.is_dictionary(column.type):
        lengths = pc.binary_length(column.dictionary).take(column.indices)
    else:
        lengths = pc.binary_length(column)
    return np.asarray(lengths.fill_null(0).to_numpy(zero_copy_only=False), dtype=np.int64)


def _byte_width(kind: Any) -> int:
    try:
        bits = int(kind.bit_width)
    except (ValueError, AttributeError):  # not a fixed-width type
        return 0
    return max(1, bits // 8) if bits > 0 else 0  # a boolean counts a byte


def _list_like(pa: Any, kind: Any) -> bool:
    tests = ("is_list", "is_large_list", "is_fixed_size_list", "is_list_view", "is_large_list_view", "is_map")
    return any(getattr(pa.types, test, lambda _: False)(kind) for test in tests)


def cell_sizes(pa: Any, column: Any) -> npt.NDArray[np.int64]:
    """The decoded bytes of each cell of an array or chunked array, of any type (nested included),
    without expanding dictionary values."""
    import pyarrow.compute as pc

    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks() if column.num_chunks != 1 else column.chunk(0)
    kind = column.type
    if is_binary_like(pa, kind):
        return _value_lengths(pa, column)
    if pa.types.is_dictionary(kind):  # of fixed-width values (text and binary are measured above)
        return np.full(len(column), _byte_width(kind.value_type), dtype=np.int64)
    if (width := _byte_width(kind)) > 0 or pa.types.is_null(kind):
        return np.full(len(column), width, dtype=np.int64)
    if pa.types.is_struct(kind):
        sizes = np.zeros(len(column), dtype=np.int64)
        for child in column.flatten():
            sizes += cell_sizes(pa, child)
        return sizes
    if _list_like(pa, kind):
        if pa.types.is_map(kind):
            column = column.view(pa.list_(pa.field("entries", column.values.type, nullable=False)))
        children = cell_sizes(pa, pc.list_flatten(column)) + 4  # each element's offset
        parents = np.asarray(pc.list_parent_indices(column).to_numpy(zero_copy_only=False), dtype=np.int64)
        return np.bincount(parents, weights=children, minlength=len(column)).astype(np.int64)
    # anything else (a union, an extension type): its buffers shared evenly, rounded up
    total = int(column.get_total_buffer_size()) if len(column) else 0
    return np.full(len(column), -(-total // max(1, len(column))), dtype=np.int64)


def row_sizes(pa: Any, table: Any, names: list[str] | None = None) -> npt.NDArray[np.int64]:
    """Each row's decoded bytes over ``names`` (default every column) of a table or record batch;
    :class:`CellTooLarge` for a text, binary or nested cell over :data:`CELL_LIMIT`. Dictionary columns
    are not expanded."""
    sizes = np.zeros(table.num_rows, dtype=np.int64)
    for name in names if names is not None else table.schema.names:
        kind = table.schema.field(name).type
        if not pa.types.is_dictionary(kind) and (width := _byte_width(kind)) > 0:
            sizes += width
            continue
        lengths = cell_sizes(pa, table.column(name))
        if lengths.size and int(lengths.max()) > CELL_LIMIT:
            row = int(np.argmax(lengths > CELL_LIMIT))
            raise CellTooLarge(name, row, int(lengths[row]))
        sizes += lengths
    return sizes


class Cutter:
    """Cuts a stream of rows into chunks of at most ``rows`` rows, a chunk ending early after the row
    that brings it to ``budget`` bytes (so a chunk is at most budget + one row, and a row is at most
    the cell limit per text column)."""

    def __init__(self, rows: int, budget: int) -> None:
        self.rows = rows
        self.budget = budget
        self.held_rows = 0
        self.held_bytes = 0

    def pieces(self, sizes: npt.NDArray[np.int64]) -> Iterator[tuple[int, int, bool]]:
        """``(start, stop, ends_chunk)`` over a batch whose rows have ``sizes``, in order."""
        start = 0
        total = len(sizes)
        while start < total:
            room = self.rows - self.held_rows
            reach = np.cumsum(sizes[start:start + room]) + self.held_bytes
            over = np.flatnonzero(reach >= self.budget)
            stop = start + (int(over[0]) + 1 if over.size else len(reach))
            self.held_rows += stop - start
            self.held_bytes = int(reach[stop - start - 1])
            ends = self.held_rows >= self.rows or self.held_bytes >= self.budget
            if ends:
                self.held_rows = self.held_bytes = 0
            yield start, stop, ends
            start = stop


def chunk_lengths(sizes: npt.NDArray[np.int64], rows: int, budget: int) -> list[int]:
    """The chunk lengths :class:`Cutter` gives for rows of ``sizes`` read in one go."""
    lengths: list[int] = []
    current = 0
    for start, stop, ends in Cutter(rows, budget).pieces(sizes):
        current += stop - start
        if ends:
            lengths.append(current)
            current = 0
    if current:
        lengths.append(current)
    return lengths
