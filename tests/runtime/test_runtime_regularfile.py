"""sha256_and_match (vendor --check compares each copy with the kit's bytes while hashing it, issue 35): the digest
is hashlib's, and the bytes match exactly when they are the expected ones, wherever a difference falls."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from contract.core.regularfile import DIGEST_BUFFER, sha256_and_match, sha256_file

DATA = bytes(range(256)) * (3 * DIGEST_BUFFER // 256 + 7)  # three buffers and a bit


@pytest.mark.parametrize(("written", "expected", "same"), [
    (DATA, DATA, True),
    (b"", b"", True),
    (DATA, DATA[:-1], False),  # the file is longer
    (DATA[:-1], DATA, False),  # the file is shorter
    (DATA[:DIGEST_BUFFER], DATA, False),  # ends at a buffer's end
    (DATA, DATA[:DIGEST_BUFFER] + b"x" + DATA[DIGEST_BUFFER + 1:], False),  # first byte of the second buffer
    (DATA, DATA[:-1] + b"x", False),  # last byte
    (DATA, None, False),  # nothing to compare with
])
def test_the_digest_is_hashlibs_and_the_match_is_byte_for_byte(tmp_path: Path, written: bytes,
                                                              expected: bytes | None, same: bool) -> None:
    path = tmp_path / "f"
    path.write_bytes(written)
    assert sha256_and_match(path, expected) == (hashlib.sha256(written).hexdigest(), same)
    assert sha256_file(path) == hashlib.sha256(written).hexdigest()


def test_what_is_not_a_regular_file_raises(tmp_path: Path) -> None:
    with pytest.raises(OSError):
        sha256_and_match(tmp_path, DATA)
