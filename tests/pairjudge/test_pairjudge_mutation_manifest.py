"""pairjudge.json checks the mutation runs found unpinned (issue 27; the survivors of issue 16's full run:
``schema_warnings``' cap of 20 and its ``tooDeep`` warning, ``_readable``, ``_training_object``,
``_label_order``, ``_bundle_directory``), each asserted in full: code, message and warnings."""

from __future__ import annotations

import errno
import json
from pathlib import Path
from typing import Any, BinaryIO

import pytest
from pairjudge_support import BUNDLES, copy_bundle, verify_recipe

from contract.pairjudge import manifest, verify_bundle
from contract.pairjudge.manifest import MAX_SCHEMA_DEPTH, MAX_SCHEMA_WARNINGS, schema_warnings

SCHEMA = "pairjudge.json {} is not as pairjudge 0.3.0 writes it: {}"


def _recorded_manifest() -> dict[str, Any]:
    document: dict[str, Any] = json.loads((BUNDLES / "full-run" / "merged" / "pairjudge.json").read_text())
    return document


def _with_bad_digests(count: int) -> dict[str, Any]:
    """The recorded manifest with ``count`` more ``files`` entries whose digest is a number: one schema
    difference each, at /files/fNN (sorted by path, as the warnings are)."""
    document = _recorded_manifest()
    document["files"] = {**document["files"], **{f"f{i:02}": 1 for i in range(count)}}
    return document


def _differences(count: int) -> list[str]:
    return [SCHEMA.format(f"/files/f{i:02}", "1 is not of type 'string'") for i in range(count)]


def test_the_recorded_manifest_is_as_the_writer_writes_it() -> None:
    assert schema_warnings(_recorded_manifest()) == []


@pytest.mark.parametrize("count", [1, 19, 20])
def test_up_to_twenty_schema_differences_are_each_a_warning(count: int) -> None:
    assert MAX_SCHEMA_WARNINGS == 20
    assert schema_warnings(_with_bad_digests(count)) == _differences(count)


@pytest.mark.parametrize("count", [21, 22, 45])
def test_beyond_twenty_schema_differences_the_rest_are_counted(count: int) -> None:
    assert schema_warnings(_with_bad_digests(count)) == [
        *_differences(20), f"... and {count - 20} more differences from the writer's schema"]


def _nested(depth: int) -> list[Any]:
    outer: list[Any] = []
    inner = outer
    for _ in range(depth):
        inner.append([])
        inner = inner[0]
    return outer


@pytest.mark.parametrize("field", ["label_order", "files"])
def test_a_document_too_deep_for_the_schema_check_is_one_warning(field: str) -> None:
    """jsonschema recurses into label_order's items (uniqueItems) and files' values: a nesting deeper than
    Python's recursion limit is one warning, not a traceback and not a list of differences."""
    document = _recorded_manifest()
    document[field] = [_nested(5000), [_nested(5000)], 1] if field == "label_order" else {"k": _nested(5000)}
    assert schema_warnings(document) == ["pairjudge.json is nested too deeply to compare with the writer's schema"]


def test_a_bundle_that_is_no_directory_is_refused_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-bundle"
    verdict = verify_bundle(missing, layer="manifest")
    assert (verdict.ok, verdict.code, verdict.stage, verdict.message, verdict.warnings) == (
        False, "bundle.directory", "manifest", f"bundle directory not found (or not a directory): {missing}", ())
    a_file = tmp_path / "file"
    a_file.write_text("{}")
    verdict = verify_bundle(a_file, layer="manifest")
    assert (verdict.code, verdict.message) == ("bundle.directory", f"bundle directory not found (or not a directory): {a_file}")


def test_a_manifest_that_cannot_be_read_is_refused_with_the_reason(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Running as root, a permission bit does not stop a read: the read itself fails here (EIO)."""
    bundle = copy_bundle("full-run/merged", tmp_path)
    real = manifest.open_regular

    def failing(path: Path) -> BinaryIO:
        if path.name == "pairjudge.json":
            raise OSError(errno.EIO, "Input/output error", str(path))
        return real(path)

    monkeypatch.setattr(manifest, "open_regular", failing)  # the one read of pairjudge.json (capped)
    verdict = verify_bundle(bundle, layer="manifest")
    assert (verdict.ok, verdict.code, verdict.stage, verdict.message) == (
        False, "manifest.readable", "manifest", "pairjudge.json cannot be read: Input/output error")


def test_a_manifest_of_exactly_one_mebibyte_is_read_whole(tmp_path: Path) -> None:
    """The read keeps the limit's bytes and one more: a manifest of exactly 1 MiB (padded with spaces, which
    JSON ignores) is parsed whole and verifies."""
    bundle = copy_bundle("full-run/merged", tmp_path)
    text = (bundle / "pairjudge.json").read_bytes().rstrip()
    (bundle / "pairjudge.json").write_bytes(text + b" " * (1024 * 1024 - len(text)))
    verdict = verify_bundle(bundle, layer="manifest")
    assert (verdict.ok, verdict.message) == (True, None)


@pytest.mark.parametrize(("value", "kind"), [([], "an array"), ("run", "a string"), (3, "a number"),
                                             (None, "null"), (True, "a boolean")])
def test_a_training_receipt_that_is_no_object_is_refused_naming_its_kind(tmp_path: Path, value: Any,
                                                                          kind: str) -> None:
    verdict = verify_recipe(tmp_path, [{"op": "set", "path": "/training", "value": value}], layer="manifest")
    assert (verdict.ok, verdict.code, verdict.message) == (
        False, "training.object", f"training must be an object (the training receipt), not {kind}")


def test_a_label_order_given_as_an_object_passes_with_a_warning(tmp_path: Path) -> None:
    order = {"tie": 0, "a_wins": 1, "b_wins": 2}  # the recorded bundle's order, as keys
    verdict = verify_recipe(tmp_path, [{"op": "set", "path": "/label_order", "value": order}], layer="manifest")
    assert verdict.ok
    assert verdict.warnings == (
        "label_order is an object; the reference accepts it and reads its keys as the order",
        SCHEMA.format("/label_order", f"{order!r} is not of type 'array'"))


@pytest.mark.parametrize("order", [["tie", "a_wins"], ["tie", "a_wins", "b_wins", "tie"], "tie a_wins b_wins",
                                   ["tie", "a_wins", "a_wins"], ["tie", "a_wins", 3], 7])
def test_a_label_order_that_is_no_permutation_is_refused(tmp_path: Path, order: Any) -> None:
    verdict = verify_recipe(tmp_path, [{"op": "set", "path": "/label_order", "value": order}], layer="manifest")
    assert (verdict.ok, verdict.code, verdict.message) == (
        False, "manifest.label_order", "label_order must be a permutation of ('a_wins', 'b_wins', 'tie')")


@pytest.mark.parametrize("field", ["label_order", "files"])
@pytest.mark.parametrize("depth", [MAX_SCHEMA_DEPTH - 3, MAX_SCHEMA_DEPTH - 2])
def test_the_schema_check_goes_as_deep_as_its_limit_and_no_deeper(field: str, depth: int) -> None:
    """Whether a deep document met Python's recursion limit inside jsonschema depended on the interpreter
    (files nested 5,000 deep: 'too deeply' on 3.11, a difference with a long repr on 3.13), so the depth is
    bounded before jsonschema runs. The document is level 1, the field's list or object level 2, the
    outer list of ``_nested(depth)`` level 3 and its innermost list level depth + 3."""
    document = _recorded_manifest()
    document[field] = [_nested(depth)] if field == "label_order" else {"k": _nested(depth)}
    total = depth + 3
    warnings = schema_warnings(document)
    if total > MAX_SCHEMA_DEPTH:
        assert warnings == ["pairjudge.json is nested too deeply to compare with the writer's schema"]
    else:
        assert len(warnings) >= 1 and all("is not as pairjudge 0.3.0 writes it" in w for w in warnings), warnings
