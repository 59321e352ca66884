"""A header of exactly the length limit read from a file (spec §9: ``N`` <= 100,000,000), and one byte over.

``read_header`` reads the header only when its length is within the limit, so the boundary is also one of the
read, not only of ``parse_header`` (test_pairjudge_header_boundaries.py). At the real limit the header is
100 MB of JSON (``{}`` and spaces): parsing it takes seconds, so that case is ``slow``; the same boundary is
held fast with the module's limit lowered to 16 bytes."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from contract.pairjudge import safetensors
from contract.pairjudge.safetensors import Header, HeaderRefusal, read_header

LIMIT = 100_000_000


def _write(path: Path, length: int) -> Path:
    with open(path, "wb") as handle:
        handle.write(struct.pack("<Q", length))
        handle.write(b"{}")
        handle.write(b" " * (length - 2))
    return path


@pytest.mark.parametrize("limit", [16, 64])
def test_a_header_of_exactly_the_limit_is_read_and_one_byte_more_is_refused(tmp_path: Path,
                                                                              monkeypatch: pytest.MonkeyPatch,
                                                                              limit: int) -> None:
    monkeypatch.setattr(safetensors, "MAX_HEADER_BYTES", limit)
    assert read_header(_write(tmp_path / "at.safetensors", limit)) == Header({}, {}, limit)
    assert read_header(_write(tmp_path / "over.safetensors", limit + 1)) == HeaderRefusal(
        f"the header length {limit + 1} exceeds the {limit}-byte limit")


@pytest.mark.slow
def test_a_header_of_exactly_one_hundred_million_bytes_is_read(tmp_path: Path) -> None:
    path = _write(tmp_path / "at.safetensors", LIMIT)
    try:
        assert read_header(path) == Header({}, {}, LIMIT)
    finally:
        path.unlink()
