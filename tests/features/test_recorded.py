"""The vendored recordings are byte-identical to the digests listed in golden/recorded/README.md."""

from __future__ import annotations

import hashlib
import re

from .conftest import RECORDED


def test_recorded_files_match_readme_digests() -> None:
    readme = (RECORDED / "README.md").read_text(encoding="utf-8")
    listed = re.findall(r"^([0-9a-f]{64})  (\S+)$", readme, flags=re.MULTILINE)
    assert listed
    for digest, name in listed:
        assert hashlib.sha256((RECORDED / name).read_bytes()).hexdigest() == digest, name
