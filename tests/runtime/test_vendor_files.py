"""Which files of a data root are vendored (contract_files walks the trees with os.walk since issue 35's third pass):
regular files and links to one; nothing hidden, nothing in __pycache__, no linked directory entered."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from contract.vendoring.files import contract_files


@pytest.mark.skipif(not hasattr(os, "symlink") or os.name == "nt", reason="needs symbolic links")
def test_the_vendored_files_of_a_root(tmp_path: Path) -> None:
    root = tmp_path / "root"
    for name in ["schema/a.json", "schema/.hidden.json", "schema/.git/b.json", "schema/__pycache__/c.pyc",
                 "schema/deep/er/d.json", "grammar/g.lark", "golden/vectors/v.json", "golden/probes.json",
                 "golden/recorded/not-vendored.json", "golden/fixtures/.cache/x.json", "outside/o.json"]:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("{}", encoding="utf-8")
    (root / "schema" / "linked-file.json").symlink_to(root / "outside" / "o.json")
    (root / "schema" / "linked-dir").symlink_to(root / "outside", target_is_directory=True)
    (root / "schema" / "broken.json").symlink_to(root / "nowhere.json")
    (root / "golden" / "conformance").mkdir()
    assert contract_files(root) == ["golden/probes.json", "golden/vectors/v.json", "grammar/g.lark", "schema/a.json",
                                    "schema/deep/er/d.json", "schema/linked-file.json"]


def test_the_kits_own_files_are_listed_once_sorted() -> None:
    files = contract_files()
    assert files == sorted(set(files)) and "schema/check-table.json" in files and "golden/probes.tsv" in files
    assert not [name for name in files if "__pycache__" in name or "/." in name or name.startswith(".")]
