"""A bundle path that cannot name a file at all is refused as an argument, before any file is looked at
(schema/pairjudge-check-table.json ``arguments.unusablePath``: "the {argument} {path} cannot name a file:
{reason}"). The reasons are the kit's two (contract/core/arguments.py: a NUL character; a character the file
system's encoding cannot hold, a lone surrogate outside the range Linux's surrogateescape maps to bytes); the
path is printed with its control characters and surrogates shown as escapes (contract/core/consoletext.py).
A path such as ``bad\\udc80name`` can name a file (the byte 0x80), so it is not refused here but found
missing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from contract.pairjudge import verify_bundle

NUL = "it holds a NUL character"
SURROGATE = "it holds a character the file system's encoding cannot hold (a lone surrogate)"


@pytest.mark.parametrize(("path", "shown", "reason"), [
    ("bad\x00name", "bad\\x00name", NUL),
    (Path("bad\x00name"), "bad\\x00name", NUL),
    ("\x00", "\\x00", NUL),
    ("bad\ud800name", "bad\\ud800name", SURROGATE),
    (Path("dir") / "bad\udbffname", "dir/bad\\udbffname", SURROGATE),
], ids=["nul", "pathlike-nul", "only-nul", "high-surrogate", "pathlike-surrogate"])
def test_a_path_that_cannot_name_a_file_is_refused_as_an_argument(path: str | os.PathLike[str], shown: str,
                                                                   reason: str) -> None:
    for layer in ("manifest", "full"):
        verdict = verify_bundle(path, layer=layer)
        assert (verdict.ok, verdict.code, verdict.message) == (
            False, "arguments.unusablePath", f"the bundle {shown} cannot name a file: {reason}")


def test_a_path_whose_surrogate_names_a_byte_is_looked_for(tmp_path: Path) -> None:
    verdict = verify_bundle(str(tmp_path / "bad\udc80name"))
    assert (verdict.ok, verdict.code) == (False, "bundle.directory")
