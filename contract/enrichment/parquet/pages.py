"""Parquet page headers, read without decoding any data: what Arrow will decompress, and how much.

Arrow reads a column chunk page by page: for each page it reads the page header (a Thrift struct in the
compact protocol), then decompresses the whole page into a buffer of the size the header states, and
decodes values from it. The Parquet footer only records totals per column chunk, which a writer (or an
attacker) sets freely and which dictionary, delta and run-length encodings make unrelated to the decoded
size. So :mod:`contract.enrichment.parquet.budget` plans every read from the page headers themselves, read
here the way Arrow reads them (:func:`column_pages`): from the chunk's first page, header after header,
until the data pages hold the number of values the footer records for the chunk.

For a repeated (list or map) column, the rows a page holds are not in its header (a version-1 data page
counts level entries, not rows): :func:`page_rows` decompresses the page (one at a time, each within
:data:`PAGE_LIMIT`) and counts the repetition levels that start a row.

Nothing here trusts a size it has not checked against the file: a header larger than
:data:`HEADER_LIMIT` (Arrow's own default), a page or a chunk reaching past the end of the file, a
negative size or count, an unknown compact-protocol type, or a page larger than :data:`PAGE_LIMIT`
is a :class:`PageError` (a page over the limit a :class:`PageTooLarge`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from contract.core.errors import ContractError

HEADER_LIMIT: Final = 16 << 20  # bytes in one page header (Arrow's default limit)
HEADER_READ: Final = 1 << 10  # first read of a header; grown (doubling) up to HEADER_LIMIT
PAGE_LIMIT: Final = 512 << 20  # compressed + decompressed bytes of one page; a larger page is refused

# parquet.thrift
DATA_PAGE: Final = 0
INDEX_PAGE: Final = 1
DICTIONARY_PAGE: Final = 2
DATA_PAGE_V2: Final = 3
ENCODINGS: Final = {0: "PLAIN", 2: "PLAIN_DICTIONARY", 3: "RLE", 4: "BIT_PACKED", 5: "DELTA_BINARY_PACKED",
                    6: "DELTA_LENGTH_BYTE_ARRAY", 7: "DELTA_BYTE_ARRAY", 8: "RLE_DICTIONARY",
                    9: "BYTE_STREAM_SPLIT"}
DICTIONARY_ENCODINGS: Final = frozenset({"PLAIN_DICTIONARY", "RLE_DICTIONARY"})
DELTA_TEXT_ENCODINGS: Final = frozenset({"DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY"})

# Thrift compact protocol types
_STOP, _TRUE, _FALSE, _BYTE, _I16, _I32, _I64, _DOUBLE, _BINARY, _LIST, _SET, _MAP, _STRUCT = range(13)
_MAX_DEPTH: Final = 32


class PageError(ContractError):
    """A page header that cannot be read (a corrupt or truncated file; the message says what)."""


class PageTooLarge(PageError):
    """A page over :data:`PAGE_LIMIT`: readable, but more than the kit lets Arrow decompress."""


class _Short(Exception):
    """The header continues past the bytes read so far (read more and parse again)."""


@dataclass(frozen=True)
class Page:
    """One page of a column chunk, as its header describes it."""

    kind: int  # DATA_PAGE, INDEX_PAGE, DICTIONARY_PAGE or DATA_PAGE_V2
    offset: int  # where the page's (compressed) bytes start in the file
    compressed: int
    uncompressed: int
    values: int  # level entries (data pages) or dictionary entries (0 for an index page)
    encoding: str  # of the values
    rows: int | None  # a version-2 data page's row count (None for version 1)
    level_encoding: str  # of the repetition levels (version 1)
    repetition_bytes: int  # a version-2 page's repetition-level bytes (stored uncompressed)
    compressed_v2: bool  # a version-2 page's is_compressed flag

    @property
    def is_data(self) -> bool:
        return self.kind in (DATA_PAGE, DATA_PAGE_V2)

    @property
    def held(self) -> int:
        """Bytes Arrow holds while decoding this page: the page as read plus it decompressed."""
        return self.compressed + self.uncompressed


class _Reader:
    """The compact protocol over a byte string (just what a page header needs)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def byte(self) -> int:
        if self.pos >= len(self.data):
            raise _Short
        value = self.data[self.pos]
        self.pos += 1
        return value

    def varint(self) -> int:
        shift = result = 0
        while True:
            value = self.byte()
            result |= (value & 0x7F) << shift
            if not value & 0x80:
                return result
            shift += 7
            if shift > 70:
                raise PageError("a varint in a page header is longer than 10 bytes")

    def zigzag(self) -> int:
        value = self.varint()
        return (value >> 1) ^ -(value & 1)

    def skip_bytes(self, count: int) -> None:
        if count < 0:
            raise PageError("a negative length in a page header")
        if self.pos + count > len(self.data):
            raise _Short
        self.pos += count

    def skip(self, kind: int, depth: int) -> None:
        if depth > _MAX_DEPTH:
            raise PageError(f"a page header nested deeper than {_MAX_DEPTH} levels")
        if kind in (_TRUE, _FALSE):
            return
        if kind == _BYTE:
            self.skip_bytes(1)
        elif kind in (_I16, _I32, _I64):
            self.varint()
        elif kind == _DOUBLE:
            self.skip_bytes(8)
        elif kind == _BINARY:
            self.skip_bytes(self.varint())
        elif kind in (_LIST, _SET):
            head = self.byte()
            size = head >> 4
            if size == 15:
                size = self.varint()
            element = head & 0x0F
            for _ in range(size):
                if element in (_TRUE, _FALSE):
                    self.skip_bytes(1)  # a bool in a container is a byte
                else:
                    self.skip(element, depth + 1)
        elif kind == _MAP:
            size = self.varint()
            if size:
                types = self.byte()
                for _ in range(size):
                    for element in (types >> 4, types & 0x0F):
                        if element in (_TRUE, _FALSE):
                            self.skip_bytes(1)
                        else:
                            self.skip(element, depth + 1)
        elif kind == _STRUCT:
            self.fields(lambda _field, element: self.skip(element, depth + 1))
        else:
            raise PageError(f"an unknown type {kind} in a page header")

    def fields(self, each: Any) -> None:
        """Call ``each(field_id, type)`` for every field of the struct at the current position; ``each``
        must consume the field's value."""
        last = 0
        while True:
            head = self.byte()
            kind = head & 0x0F
            if kind == _STOP:
                return
            delta = head >> 4
            field = last + delta if delta else self.zigzag()
            last = field
            each(field, kind)


def _int(reader: _Reader, kind: int) -> int:
    if kind not in (_I16, _I32, _I64):
        raise PageError("a page header field has the wrong type")
    return reader.zigzag()


def _parse(data: bytes) -> tuple[dict[str, Any], int]:
    """(fields, header length) of the page header at the start of ``data``; :class:`_Short` if cut."""
    reader = _Reader(data)
    found: dict[str, Any] = {}

    def sub(names: dict[int, str], bools: dict[int, str] | None = None) -> Any:
        def each(field: int, kind: int) -> None:
            if field in names:
                found[names[field]] = _int(reader, kind)
            elif bools is not None and field in bools and kind in (_TRUE, _FALSE):
                found[bools[field]] = kind == _TRUE
            else:
                reader.skip(kind, 1)
        return each

    def top(field: int, kind: int) -> None:
        simple = {1: "type", 2: "uncompressed", 3: "compressed"}
        if field in simple:
            found[simple[field]] = _int(reader, kind)
        elif field == 5 and kind == _STRUCT:
            reader.fields(sub({1: "values", 2: "encoding", 4: "level_encoding"}))
        elif field == 7 and kind == _STRUCT:
            reader.fields(sub({1: "values", 2: "encoding"}))
        elif field == 8 and kind == _STRUCT:
            reader.fields(sub({1: "values", 3: "rows", 4: "encoding", 6: "repetition_bytes"},
                              {7: "compressed_v2"}))
        else:
            reader.skip(kind, 0)

    reader.fields(top)
    return found, reader.pos


def _read_at(fd: int, offset: int, size: int) -> bytes:
    data = os.pread(fd, size, offset)
    return data


def _header(fd: int, offset: int, end: int) -> tuple[dict[str, Any], int]:
    size = HEADER_READ
    while True:
        data = _read_at(fd, offset, min(size, end - offset))
        try:
            return _parse(data)
        except _Short:
            if len(data) < min(size, end - offset) or offset + len(data) >= end:
                raise PageError("a page header is cut off by the end of its column chunk") from None
            if size >= HEADER_LIMIT:
                raise PageError(f"a page header is larger than {HEADER_LIMIT} bytes") from None
            size = min(size * 2, HEADER_LIMIT)


def _name(code: Any) -> str:
    return ENCODINGS.get(code, f"encoding {code}") if isinstance(code, int) else "PLAIN"


def column_pages(fd: int, file_size: int, start: int, length: int, values: int) -> list[Page]:
    """The pages of the column chunk whose first page is at ``start`` (its dictionary page if it has one,
    else its first data page), ``length`` bytes long in all, holding ``values`` level entries."""
    if values <= 0:
        return []  # Arrow reads no page of a chunk without values
    if start < 4 or length < 0 or start + length > file_size:
        raise PageError(f"a column chunk at byte {start} of {length} bytes lies outside the file")
    end = start + length
    pages: list[Page] = []
    seen = 0
    offset = start
    while seen < values:
        if offset >= end:
            raise PageError(f"the column chunk at byte {start} ends after {seen} of its {values} values")
        found, header_length = _header(fd, offset, end)
        for key in ("type", "uncompressed", "compressed"):
            if key not in found:
                raise PageError(f"a page header at byte {offset} has no {key} field")
        kind, compressed, uncompressed = found["type"], found["compressed"], found["uncompressed"]
        count = found.get("values", 0)
        if compressed < 0 or uncompressed < 0 or count < 0:
            raise PageError(f"a page header at byte {offset} states a negative size or count")
        body = offset + header_length
        if body + compressed > end:
            raise PageError(f"the page at byte {offset} reaches past the end of its column chunk")
        page = Page(kind, body, compressed, uncompressed, count, _name(found.get("encoding")),
                    found.get("rows"), _name(found.get("level_encoding")), found.get("repetition_bytes", 0),
                    found.get("compressed_v2", True))
        if page.held > PAGE_LIMIT:
            raise PageTooLarge(f"a page at byte {offset} is {compressed} bytes compressed and {uncompressed}"
                            f" decompressed; a page may take at most {PAGE_LIMIT} bytes in all")
        pages.append(page)
        if page.is_data:
            seen += count
        offset = body + compressed
    return pages


def _unpack(data: bytes, width: int, count: int, big_endian: bool = False) -> Any:
    """``count`` bit-packed values of ``width`` bits (least significant bit first, or most significant
    first for the legacy BIT_PACKED level encoding)."""
    unpacked = np.unpackbits(np.frombuffer(data, dtype=np.uint8), bitorder="big" if big_endian else "little")
    if len(unpacked) < count * width:
        raise PageError("the repetition levels of a page end early")
    bits = unpacked[:count * width].reshape(count, width).astype(np.int64)
    weights = (1 << np.arange(width, dtype=np.int64))
    return bits @ (weights[::-1] if big_endian else weights)


def _hybrid_levels(data: bytes, width: int, count: int) -> tuple[int, int]:
    """(levels equal to 0, the first level) of ``count`` levels in the RLE / bit-packed hybrid."""
    reader = _Reader(data)
    byte_width = (width + 7) // 8
    zeros = seen = 0
    first = -1
    try:
        while seen < count:
            header = reader.varint()
            if not header & 1:  # a run of one repeated value
                run = min(header >> 1, count - seen)
                start = reader.pos
                reader.skip_bytes(byte_width)
                value = int.from_bytes(data[start:start + byte_width], "little")
                if run and first < 0:
                    first = value
                zeros += run if value == 0 else 0
                seen += run
            else:  # groups of 8 bit-packed values
                groups = header >> 1
                start = reader.pos
                reader.skip_bytes(groups * width)
                take = min(groups * 8, count - seen)
                if take:
                    values = _unpack(data[start:start + groups * width], width, take)
                    if first < 0:
                        first = int(values[0])
                    zeros += int(np.count_nonzero(values == 0))
                seen += take
    except _Short:
        raise PageError("the repetition levels of a page end early") from None
    return zeros, first


def level_width(max_level: int) -> int:
    return max(1, int(max_level).bit_length())


def page_rows(fd: int, page: Page, codec: Any, max_repetition: int) -> tuple[int, bool]:
    """(rows that start in this data page, whether its first entry continues the previous page's row),
    from its repetition levels. ``codec`` is a ``pyarrow.Codec`` or ``None`` (uncompressed)."""
    if page.kind == DATA_PAGE_V2:
        raw = _read_at(fd, page.offset, page.repetition_bytes)
        levels = raw
    else:
        raw = _read_at(fd, page.offset, page.compressed)
        levels = raw if codec is None else codec.decompress(raw, decompressed_size=page.uncompressed).to_pybytes()
    width = level_width(max_repetition)
    if page.kind == DATA_PAGE_V2:
        zeros, first = _hybrid_levels(levels, width, page.values)
    elif page.level_encoding == "RLE":
        if len(levels) < 4:
            raise PageError("a data page is too short for its repetition levels")
        size = int.from_bytes(levels[:4], "little")
        zeros, first = _hybrid_levels(levels[4:4 + size], width, page.values)
    elif page.level_encoding == "BIT_PACKED":
        needed = (page.values * width + 7) // 8
        values = _unpack(levels[:needed], width, page.values, big_endian=True)
        zeros, first = int(np.count_nonzero(values == 0)), int(values[0]) if page.values else -1
    else:
        raise PageError(f"repetition levels in the {page.level_encoding} encoding")
    return zeros, first > 0
