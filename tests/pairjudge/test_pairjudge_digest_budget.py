"""The digests' byte budget at its boundary (docs/pairjudge.md; the ``files.budget`` check of
schema/pairjudge-check-table.json): each distinct file is hashed once, and the files together may take
exactly the budget; one byte less stops at the file that would pass it, named with the budget."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pairjudge_support import copy_bundle

from contract.pairjudge import manifest, verify_bundle


def _sizes(bundle: Path) -> list[tuple[str, int]]:
    """(key, size) of each files entry in manifest order."""
    files = json.loads((bundle / "pairjudge.json").read_text())["files"]
    return [(key, (bundle / key).stat().st_size) for key in files]


@pytest.mark.parametrize("short", [0, 1])
def test_the_files_may_take_exactly_the_budget_and_not_one_byte_more(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                     short: int) -> None:
    bundle = copy_bundle("full-run/merged", tmp_path)
    sizes = _sizes(bundle)
    total = sum(size for _, size in sizes)
    monkeypatch.setattr(manifest, "MAX_HASHED_BYTES", total - short)
    verdict = verify_bundle(bundle, layer="manifest")
    if not short:
        assert (verdict.ok, verdict.code) == (True, None)
        return
    last = sizes[-1][0]
    assert (verdict.ok, verdict.code, verdict.message) == (
        False, "files.budget", f"files entry {last} would take the digests past {total - 1} bytes in all (each "
        "distinct file is hashed once); the kit stops there to bound the time a verification takes")


def test_a_file_listed_twice_counts_once_against_the_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bundle = copy_bundle("full-run/merged", tmp_path)
    document = json.loads((bundle / "pairjudge.json").read_text())
    document["files"]["./config.json"] = document["files"]["config.json"]  # the same file again
    (bundle / "pairjudge.json").write_text(json.dumps(document))
    total = sum(size for key, size in _sizes(bundle) if key != "./config.json")
    monkeypatch.setattr(manifest, "MAX_HASHED_BYTES", total)
    verdict = verify_bundle(bundle, layer="manifest")
    assert (verdict.ok, verdict.code) == (True, None)
