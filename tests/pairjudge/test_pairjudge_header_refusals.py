"""Each way a safetensors header is refused, in full (``parse_header``; the texts are
schema/pairjudge-check-table.json's ``detail.header.*``), on headers made here rather than copied from a
recorded file, so that every field can be set on its own."""

from __future__ import annotations

import json
import struct
from typing import Any

import pytest

from contract.pairjudge.safetensors import Header, HeaderRefusal, TensorInfo, parse_header

T = {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}


def _file(header: Any, buffer: bytes = b"") -> bytes:
    text = header if isinstance(header, bytes) else json.dumps(header).encode()
    return struct.pack("<Q", len(text)) + text + buffer


def _parse(header: Any, buffer: bytes = b"") -> Any:
    data = _file(header, buffer)
    return parse_header(data, len(data))


@pytest.mark.parametrize(("header", "buffer", "problem"), [
    (b"[1]", b"", "the header is not a JSON object"),
    (b'{"t": "\xff"}', b"", "the header is not UTF-8 text (byte 7)"),
    ({"t": 5}, b"", "tensor 't' is described by 5, not an object"),
    ({"t": {"dtype": "F32", "shape": [2]}}, b"", "tensor 't' has no 'data_offsets'"),
    ({"t": {**T, "dtype": "F33"}}, b"\0" * 8, "tensor 't' has unknown dtype 'F33'"),
    ({"t": {**T, "shape": [-1]}}, b"\0" * 8, "tensor 't' has shape [-1], not a list of non-negative integers"),
    ({"t": {**T, "shape": "x"}}, b"\0" * 8, "tensor 't' has shape 'x', not a list of non-negative integers"),
    ({"t": {**T, "data_offsets": [0]}}, b"\0" * 8, "tensor 't' has data_offsets [0], not two non-negative integers"),
    ({"t": {**T, "data_offsets": [0, True]}}, b"\0" * 8,
     "tensor 't' has data_offsets [0, True], not two non-negative integers"),
    ({"t": {**T, "shape": [2**62, 8]}}, b"\0" * 8,
     "tensor 't' shape [4611686018427387904, 8] x F32 does not make a whole number of bytes that fits in 64 bits"),
    ({"t": {**T, "dtype": "F4", "shape": [3], "data_offsets": [0, 2]}}, b"\0" * 2,
     "tensor 't' shape [3] x F4 does not make a whole number of bytes that fits in 64 bits"),
    ({"t": {**T, "data_offsets": [0, 4]}}, b"\0" * 4, "tensor 't' covers 4 bytes but shape [2] x F32 needs 8"),
    ({"t": {**T, "data_offsets": [4, 12]}}, b"\0" * 12,
     "tensor 't' has data_offsets [4, 12] but the previous tensor ends at 0: the offsets leave a gap, overlap or "
     "run backwards"),
], ids=["not-object", "not-utf8", "entry-not-object", "no-offsets", "dtype", "shape-negative", "shape-text",
        "offsets-one", "offsets-bool", "overflow", "sub-byte", "size", "gap"])
def test_a_header_refused_in_full(header: Any, buffer: bytes, problem: str) -> None:
    assert _parse(header, buffer) == HeaderRefusal(problem)


@pytest.mark.parametrize(("buffer", "relation"), [(b"\0" * 4, "shorter"), (b"\0" * 12, "longer")])
def test_a_data_buffer_that_is_not_what_the_offsets_say(buffer: bytes, relation: str) -> None:
    size = len(_file({"t": T}, buffer))
    covered = len(_file({"t": T})) + 8
    assert _parse({"t": T}, buffer) == HeaderRefusal(
        f"the file is {size} bytes but the header and tensor offsets cover {covered}: the data buffer is 4 bytes "
        f"{relation} than the offsets say")


@pytest.mark.parametrize("size", [0, 7])
def test_a_file_shorter_than_the_length_field(size: int) -> None:
    assert parse_header(b"\1" * size, size) == HeaderRefusal(
        f"the file has {size} bytes, fewer than the 8-byte header length")


def test_an_eight_byte_file_has_an_empty_header() -> None:
    """Exactly the length field (0): not short, and the empty header is no JSON."""
    assert parse_header(struct.pack("<Q", 0), 8) == HeaderRefusal(
        "the header is not valid JSON: Expecting value at line 1 column 1")


def test_sub_byte_and_empty_tensors_that_fit_are_read() -> None:
    header = {"b": {**T, "dtype": "BOOL", "shape": [3], "data_offsets": [0, 3]},
              "e": {**T, "shape": [0], "data_offsets": [3, 3]}}
    parsed = _parse(header, b"\0" * 3)
    assert isinstance(parsed, Header)
    assert parsed.tensors == {"b": TensorInfo("b", "BOOL", (3,), 0, 3), "e": TensorInfo("e", "F32", (0,), 3, 3)}
