"""pairjudge.json fields the manifest layer reads, refused or warned about in full
(schema/pairjudge-check-table.json: ``training.optimizer_steps``, ``files.object``, ``warning.*``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from pairjudge_support import apply_ops, copy_bundle, verify_recipe

from contract.pairjudge import verify_bundle

SCHEMA = "pairjudge.json {} is not as pairjudge 0.3.0 writes it: {}"


@pytest.mark.parametrize(("value", "shown", "schema"), [(2.5, "2.5", "2.5"), (True, "true", "True")])
def test_optimizer_steps_that_is_a_number_but_not_an_integer_is_a_warning(tmp_path: Path, value: Any, shown: str,
                                                                          schema: str) -> None:
    verdict = verify_recipe(tmp_path, [{"op": "set", "path": "/training/optimizer_steps", "value": value}],
                            layer="manifest")
    assert verdict.ok
    assert verdict.warnings == (
        f"training.optimizer_steps is {shown}, not an integer count of updates",
        SCHEMA.format("/training/optimizer_steps", f"{schema} is not of type 'integer'"))


@pytest.mark.parametrize(("path", "value", "code", "message"), [
    ("/training/optimizer_steps", "3", "training.optimizer_steps",
     "training.optimizer_steps must be a number, not a string"),
    ("/files", [1], "files.object", "files must be an object mapping bundle paths to sha256 digests, not an array"),
    ("/files", "x", "files.object", "files must be an object mapping bundle paths to sha256 digests, not a string"),
    ("/files", [], "files.safetensors", "artifact requires safetensors weights and file hashes"),
], ids=["steps-string", "files-array", "files-string", "files-empty-array"])
def test_a_field_of_the_wrong_kind_is_refused_in_full(tmp_path: Path, path: str, value: Any, code: str,
                                                      message: str) -> None:
    verdict = verify_recipe(tmp_path, [{"op": "set", "path": path, "value": value}], layer="manifest")
    assert (verdict.code, verdict.message) == (code, message)


def test_a_files_entry_that_is_a_symbolic_link_is_followed_with_a_warning(tmp_path: Path) -> None:
    bundle = copy_bundle("full-run/merged", tmp_path)
    os.rename(bundle / "config.json", bundle / "real-config.json")
    os.symlink("real-config.json", bundle / "config.json")
    apply_ops(bundle, [{"op": "rehash"}])
    verdict = verify_bundle(bundle, layer="manifest")
    assert verdict.ok
    assert verdict.warnings == ("files entry 'config.json' is a symbolic link; the reference follows it",)


def test_a_long_schema_difference_is_cut_at_160_characters(tmp_path: Path) -> None:
    verdict = verify_recipe(tmp_path, [{"op": "set", "path": f"/x{i}", "value": i} for i in range(25)],
                            layer="manifest")
    assert verdict.ok
    (warning,) = verdict.warnings
    assert len(warning) == 160 and warning.endswith("...")
    assert warning.startswith(SCHEMA.format("/", "Additional properties are not allowed ('x0', 'x1', 'x10', "))
