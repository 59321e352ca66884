"""The manifest layer's checks the recorded loader cases and test_pairjudge_mutation_manifest.py leave
open, each with its full outcome (code, stage, message, warnings): spec §4 R1-R11
(/work/shared/spec/pairjudge.md) for the reference's rules and messages, docs/pairjudge.md ("Where the
reference is too lenient") for the kit's warnings, and schema/pairjudge-check-table.json for the kit's
own check ``manifest.regular_file``."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from pairjudge_support import apply_ops, copy_bundle, verify_recipe

from contract.pairjudge import manifest, verify_bundle

HEAD = "artifact does not identify an updated, trained classification head"
UNSAFE = "unsafe artifact file path"
PERMUTATION = "label_order must be a permutation of ('a_wins', 'b_wins', 'tie')"
LENIENT = "format_version is {0}, not the integer 1; the reference accepts it only because Python compares {0} == 1 as true"


def _outcome(verdict: Any) -> tuple[Any, ...]:
    return verdict.ok, verdict.code, verdict.stage, verdict.message


def _refused(code: str, message: str) -> tuple[Any, ...]:
    return False, code, "manifest", message


def test_a_manifest_that_is_a_directory_is_not_a_regular_file(tmp_path: Path) -> None:
    bundle = copy_bundle("full-run/merged", tmp_path)
    (bundle / "pairjudge.json").unlink()
    (bundle / "pairjudge.json").mkdir()
    assert _outcome(verify_bundle(bundle, layer="manifest")) == _refused(
        "manifest.regular_file", "pairjudge.json is not a regular file")


def _padded_to(bundle: Path, size: int) -> None:
    """pairjudge.json grown to ``size`` bytes by whitespace inside the object (its last byte stays ``}``)."""
    text = (bundle / "pairjudge.json").read_text()
    assert text.startswith("{")
    (bundle / "pairjudge.json").write_text("{" + " " * (size - len(text.encode())) + text[1:])
    assert (bundle / "pairjudge.json").stat().st_size == size


def test_a_manifest_of_exactly_one_mib_passes_and_one_byte_more_does_not(tmp_path: Path) -> None:
    # spec §4 R2: exactly 1 MiB passes (observed), one byte more is refused
    bundle = copy_bundle("full-run/merged", tmp_path / "exact")
    _padded_to(bundle, 1024 * 1024)
    verdict = verify_bundle(bundle, layer="manifest")
    assert (verdict.ok, verdict.code, verdict.message) == (True, None, None)
    bundle = copy_bundle("full-run/merged", tmp_path / "over")
    _padded_to(bundle, 1024 * 1024 + 1)
    assert _outcome(verify_bundle(bundle, layer="manifest")) == _refused(
        "manifest.size", "artifact manifest exceeds 1 MiB")


@pytest.mark.parametrize("document", [[], "x", {"label_order": [], "packer": {}, "tokenizer": {}, "training": {}}],
                         ids=["array", "string", "no-files"])
def test_a_manifest_without_the_required_keys_is_refused(tmp_path: Path, document: Any) -> None:
    verdict = verify_recipe(tmp_path, [{"op": "set", "path": "", "value": document}], layer="manifest")
    assert _outcome(verdict) == _refused("manifest.required", "artifact manifest is missing required metadata")


@pytest.mark.parametrize(("value", "shown"), [(1.0, "1.0"), (True, "true")])
def test_a_format_version_python_compares_equal_to_1_passes_with_a_warning(tmp_path: Path, value: Any,
                                                                            shown: str) -> None:
    verdict = verify_recipe(tmp_path, [{"op": "set", "path": "/format_version", "value": value}], layer="manifest")
    assert (verdict.ok, verdict.code) == (True, None)
    assert verdict.warnings[0] == LENIENT.format(shown)


@pytest.mark.parametrize("op", [{"op": "set", "path": "/format_version", "value": 2},
                                {"op": "set", "path": "/format_version", "value": 0.5},
                                {"op": "set", "path": "/format_version", "value": None},
                                {"op": "set", "path": "/format_version", "value": [1]},
                                {"op": "delete", "path": "/format_version"}],
                         ids=["two", "half", "null", "array", "absent"])
def test_a_format_version_other_than_1_is_unsupported(tmp_path: Path, op: dict[str, Any]) -> None:
    verdict = verify_recipe(tmp_path, [op], layer="manifest")
    assert _outcome(verdict) == _refused("manifest.format_version", "unsupported PairJudge artifact format")


@pytest.mark.parametrize("op", [{"op": "delete", "path": "/artifact_type"},
                                {"op": "set", "path": "/artifact_type", "value": "Full"}], ids=["absent", "case"])
def test_an_artifact_type_other_than_full_or_adapter_is_unsupported(tmp_path: Path, op: dict[str, Any]) -> None:
    verdict = verify_recipe(tmp_path, [op], layer="manifest")
    assert _outcome(verdict) == _refused("manifest.artifact_type", "unsupported artifact_type")


@pytest.mark.parametrize("value", [None, {"a_wins": 0, "b_wins": 1}, {"a_wins": 0, "b_wins": 1, "tie": 2, "x": 3}],
                         ids=["null", "object-of-two", "object-of-four"])
def test_a_label_order_that_is_not_a_permutation_is_refused(tmp_path: Path, value: Any) -> None:
    verdict = verify_recipe(tmp_path, [{"op": "set", "path": "/label_order", "value": value}], layer="manifest")
    assert _outcome(verdict) == _refused("manifest.label_order", PERMUTATION)


@pytest.mark.parametrize(("steps", "changed"), [(0, True), (-1, True), (0.0, True), (1, "true"), (1, None)],
                         ids=["zero", "negative", "zero-float", "changed-string", "changed-null"])
def test_a_receipt_without_updates_or_a_changed_head_is_refused(tmp_path: Path, steps: Any, changed: Any) -> None:
    ops = [{"op": "set", "path": "/training/optimizer_steps", "value": steps},
           {"op": "set", "path": "/training/head_changed", "value": changed}]
    verdict = verify_recipe(tmp_path, ops, layer="manifest")
    assert _outcome(verdict) == _refused("training.head", HEAD)


def test_a_nan_step_count_passes_as_the_reference_tests_it(tmp_path: Path) -> None:
    # spec §5: the reference accepts optimizer_steps NaN (it tests ``<= 0``)
    bundle = copy_bundle("full-run/merged", tmp_path)
    document = json.loads((bundle / "pairjudge.json").read_text())
    document["training"]["optimizer_steps"] = math.nan
    (bundle / "pairjudge.json").write_text(json.dumps(document))
    verdict = verify_bundle(bundle, layer="manifest")
    assert (verdict.ok, verdict.code) == (True, None)


@pytest.mark.parametrize("files", [{}, None, 0, "", {"config.json": "0" * 64}],
                         ids=["empty", "null", "zero", "empty-string", "no-safetensors"])
def test_files_without_a_safetensors_entry_are_refused(tmp_path: Path, files: Any) -> None:
    verdict = verify_recipe(tmp_path, [{"op": "set", "path": "/files", "value": files}], layer="manifest")
    assert _outcome(verdict) == _refused("files.safetensors", "artifact requires safetensors weights and file hashes")


@pytest.mark.parametrize("key", ["/abs.safetensors", "a/../model.safetensors", "..", "a:b", "a\\b"])
def test_an_unsafe_files_key_is_refused(tmp_path: Path, key: str) -> None:
    pointer = "/files/" + key.replace("~", "~0").replace("/", "~1")
    verdict = verify_recipe(tmp_path, [{"op": "set", "path": pointer, "value": "0" * 64}], layer="manifest")
    assert _outcome(verdict) == _refused("files.path", UNSAFE)


@pytest.mark.parametrize("key", ["..x", "x..", "sub/", "missing.bin"])
def test_a_safe_key_without_a_matching_file_is_a_hash_mismatch(tmp_path: Path, key: str) -> None:
    pointer = "/files/" + key.replace("/", "~1")
    verdict = verify_recipe(tmp_path, [{"op": "set", "path": pointer, "value": "0" * 64}], layer="manifest")
    assert _outcome(verdict) == _refused("files.digest", f"artifact file hash mismatch: {key}")


def test_a_files_entry_naming_a_directory_is_a_hash_mismatch(tmp_path: Path) -> None:
    bundle = copy_bundle("full-run/merged", tmp_path)
    (bundle / "sub").mkdir()
    apply_ops(bundle, [{"op": "set", "path": "/files/sub", "value": "0" * 64}])
    assert _outcome(verify_bundle(bundle, layer="manifest")) == _refused("files.digest",
                                                                         "artifact file hash mismatch: sub")


def test_the_same_file_listed_twice_is_hashed_once_and_both_entries_pass(tmp_path: Path) -> None:
    bundle = copy_bundle("full-run/merged", tmp_path)
    apply_ops(bundle, [{"op": "set", "path": "/files/.~1config.json", "value": ""}, {"op": "rehash"}])
    subject = manifest.ManifestSubject(bundle)
    from contract.core.checktable import first_failure

    assert first_failure(manifest.MANIFEST_CHECKS, subject) is None
    sizes = {path.name: path.stat().st_size for path in bundle.iterdir() if path.name != "pairjudge.json"}
    # config.json twice (``./config.json`` is the same file): counted once
    assert subject.hashed_bytes == sum(sizes.values())
    assert len(subject.digests) == len(sizes)


def test_a_manifest_that_grows_after_its_size_is_taken_is_judged_by_the_bytes_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The size check and the parse see the same bytes, read with a cap: a pairjudge.json whose stat still says
    it is small (it grew past 1 MiB after its size was taken: whitespace appended after the object, so its first
    1 MiB + 1 bytes parse) is refused as too large, never parsed from a prefix of a file read whole."""
    bundle = copy_bundle("full-run/merged", tmp_path)
    path = bundle / "pairjudge.json"
    small = path.stat()
    with path.open("ab") as grown:
        grown.write(b" " * (1024 * 1024))
    real_stat = Path.stat

    def stale_stat(self: Path, **kwargs: Any) -> Any:
        return small if self == path else real_stat(self, **kwargs)

    monkeypatch.setattr(Path, "stat", stale_stat)
    assert _outcome(verify_bundle(bundle, layer="manifest")) == _refused(
        "manifest.size", "artifact manifest exceeds 1 MiB")
