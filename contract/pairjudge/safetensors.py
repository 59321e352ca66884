"""safetensors headers, read without torch: what tensors a weights file holds, or why it is broken.

A safetensors file is an 8-byte little-endian header length ``N``, ``N`` bytes of UTF-8 JSON, then
the data buffer. This reader looks at the header and the file size only (it never reads tensor
data) and refuses, with a message naming the problem, everything the safetensors 0.8.0 reader
refuses: a file shorter than 8 bytes, a header longer than 100,000,000 bytes or than the file,
a header that is not UTF-8 or not JSON, an unknown dtype, a non-string ``__metadata__`` value, a
shape or offset that is not a non-negative integer (a number token that is not plain digits, such
as ``-0``, ``0.0`` or ``1e0``, is a float to serde and refused as one), offsets that leave a gap or overlap, a byte
range that does not match shape x dtype size, and a buffer that the offsets do not cover exactly.
It also refuses duplicate tensor names (the format's README forbids them; serde would keep one).
``"__metadata__": null`` is no metadata, as safetensors reads it (an ``Option``).

:func:`parse_header` and :func:`read_header` never raise on bad input: they return a
:class:`HeaderRefusal` value.
"""

from __future__ import annotations

import json
import os
import re
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from contract.core import strictjson
from contract.core.checktable import PAIRJUDGE_TABLE as TABLE
from contract.core.oserrors import os_error_reason

MAX_HEADER_BYTES = 100_000_000
_USIZE_LIMIT = 2**64  # the reference reader does overflow-checked usize arithmetic

# Element size in bits per dtype, as safetensors 0.8.0 names them.
DTYPE_BITS: dict[str, int] = {
    "BOOL": 8,
    "F4": 4,
    "F6_E2M3": 6,
    "F6_E3M2": 6,
    "U8": 8,
    "I8": 8,
    "F8_E5M2": 8,
    "F8_E4M3": 8,
    "F8_E8M0": 8,
    "F8_E4M3FNUZ": 8,
    "F8_E5M2FNUZ": 8,
    "I16": 16,
    "U16": 16,
    "F16": 16,
    "BF16": 16,
    "I32": 32,
    "U32": 32,
    "F32": 32,
    "C64": 64,
    "F64": 64,
    "I64": 64,
    "U64": 64,
}

_TENSOR_FIELDS = ("dtype", "shape", "data_offsets")


@dataclass(frozen=True)
class TensorInfo:
    """One tensor's header entry: dtype, shape and its ``[begin, end)`` range in the data buffer."""

    name: str
    dtype: str
    shape: tuple[int, ...]
    begin: int
    end: int

    @property
    def nbytes(self) -> int:
        return self.end - self.begin


@dataclass(frozen=True)
class Header:
    """A well-formed header: tensors in file order, the metadata map, and where the data starts."""

    tensors: dict[str, TensorInfo]
    metadata: dict[str, str]
    header_length: int
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class HeaderRefusal:
    """Why a file is not a well-formed safetensors file (``problem`` reads after the file name)."""

    problem: str


HeaderResult = Header | HeaderRefusal


class NotPlainInteger(float):
    """A number token that Python's ``json`` reads as an int but serde reads as a float: ``-0``."""


# A ``-0`` integer token (it may also sit inside a string; the second parse then finds none).
_NEGATIVE_ZERO = re.compile(r"-0+(?![0-9.eE])")


def _integer_token(token: str) -> int | float:
    """serde reads ``-0`` as the float -0.0 (refused for a ``usize``); Python's ``int`` says 0."""
    return NotPlainInteger(-0.0) if token.startswith("-") and int(token) == 0 else int(token)


def _is_count(value: Any) -> bool:
    return type(value) is int and 0 <= value < _USIZE_LIMIT


def _describe(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _tensor(name: str, entry: Any) -> TensorInfo | HeaderRefusal:
    if not isinstance(entry, dict):
        return HeaderRefusal(TABLE.text("detail.header.tensorNotObject", name=repr(name), value=_describe(entry)))
    for field in _TENSOR_FIELDS:
        if field not in entry:
            return HeaderRefusal(TABLE.text("detail.header.tensorField", name=repr(name), field=repr(field)))
    dtype = entry["dtype"]
    if not isinstance(dtype, str) or dtype not in DTYPE_BITS:
        return HeaderRefusal(TABLE.text("detail.header.dtype", name=repr(name), value=_describe(dtype)))
    shape = entry["shape"]
    if not isinstance(shape, list) or not all(_is_count(dim) for dim in shape):
        return HeaderRefusal(TABLE.text("detail.header.shape", name=repr(name), value=_describe(shape)))
    offsets = entry["data_offsets"]
    if not (isinstance(offsets, list) and len(offsets) == 2 and all(_is_count(o) for o in offsets)):
        return HeaderRefusal(TABLE.text("detail.header.offsets", name=repr(name), value=_describe(offsets)))
    return TensorInfo(name, dtype, tuple(shape), offsets[0], offsets[1])


def _expected_nbytes(info: TensorInfo) -> int | None:
    """Bytes that shape x dtype need, or None when the count overflows or ends mid-byte."""
    elements = 1
    for dim in info.shape:
        elements *= dim
        if elements >= _USIZE_LIMIT:
            return None
    bits = elements * DTYPE_BITS[info.dtype]
    if bits >= _USIZE_LIMIT or bits % 8:
        return None
    return bits // 8


def parse_header(data: bytes, file_size: int | None = None) -> HeaderResult:
    """Check the header at the start of ``data``; ``file_size`` defaults to ``len(data)``.

    ``data`` must hold at least the 8 length bytes and the header itself; the data buffer may be
    omitted when ``file_size`` is given.
    """
    size = len(data) if file_size is None else file_size
    if size < 8 or len(data) < 8:
        return HeaderRefusal(TABLE.text("detail.header.short", size=size))
    (length,) = struct.unpack("<Q", data[:8])
    if length > MAX_HEADER_BYTES:
        return HeaderRefusal(TABLE.text("detail.header.lengthLimit", length=length, limit=MAX_HEADER_BYTES))
    if 8 + length > size or 8 + length > len(data):
        return HeaderRefusal(TABLE.text("detail.header.lengthPastEnd", length=length, size=size))
    raw = data[8 : 8 + length]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return HeaderRefusal(TABLE.text("detail.header.notUtf8", offset=exc.start))
    try:
        document = strictjson.parse(text, max_bytes=MAX_HEADER_BYTES)
    except strictjson.StrictJsonError as exc:
        return HeaderRefusal(TABLE.text("detail.header.json", problem=exc))
    if _NEGATIVE_ZERO.search(text):  # rare: parse again (the text is known good) keeping -0 a float
        document = json.loads(text, parse_int=_integer_token)
    if not isinstance(document, dict):
        return HeaderRefusal(TABLE.text("detail.file.notObject", name="the header"))
    metadata: dict[str, str] = {}
    tensors: dict[str, TensorInfo] = {}
    warnings: list[str] = []
    for name, entry in document.items():
        if name == "__metadata__":
            if entry is None:  # serde's Option: null is no metadata
                continue
            if not isinstance(entry, dict) or not all(isinstance(v, str) for v in entry.values()):
                return HeaderRefusal(TABLE.text("detail.header.metadata"))
            metadata = entry
            continue
        info = _tensor(name, entry)
        if isinstance(info, HeaderRefusal):
            return info
        extra = sorted(set(entry) - set(_TENSOR_FIELDS))
        if extra:
            warnings.append(TABLE.text("warning.header.unknownFields", name=repr(name), fields=extra))
        tensors[name] = info
    cursor = 0
    for info in sorted(tensors.values(), key=lambda t: (t.begin, t.end)):
        if info.begin != cursor or info.end < info.begin:
            return HeaderRefusal(TABLE.text("detail.header.contiguous", name=repr(info.name), begin=info.begin,
                                            end=info.end, cursor=cursor))
        expected = _expected_nbytes(info)
        if expected is None:
            return HeaderRefusal(TABLE.text("detail.header.overflow", name=repr(info.name), shape=list(info.shape),
                                            dtype=info.dtype))
        if expected != info.nbytes:
            return HeaderRefusal(TABLE.text("detail.header.size", name=repr(info.name), covers=info.nbytes,
                                            shape=list(info.shape), dtype=info.dtype, expected=expected))
        cursor = info.end
    covered = 8 + length + cursor
    if covered != size:
        relation = TABLE.text("detail.header.relationShorter" if size < covered else "detail.header.relationLonger")
        return HeaderRefusal(TABLE.text("detail.header.fileSize", size=size, covered=covered,
                                        difference=abs(size - covered), relation=relation))
    return Header(tensors, metadata, length, tuple(warnings))


def read_header(path: Path) -> HeaderResult:
    """Read and check ``path``'s header without reading tensor data; never raises."""
    try:
        with open(path, "rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            prefix = handle.read(8)
            if len(prefix) == 8:
                (length,) = struct.unpack("<Q", prefix)
                if length <= MAX_HEADER_BYTES and 8 + length <= size:
                    prefix += handle.read(length)
    except OSError as exc:
        return HeaderRefusal(TABLE.text("detail.header.unreadable", reason=os_error_reason(exc)))
    return parse_header(prefix, size)
