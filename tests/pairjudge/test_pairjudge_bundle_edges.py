"""Sharded weights and the embedded base of an adapter, one refusal or warning at a time, each
asserted in full: the texts are the table's (schema/pairjudge-check-table.json, ``detail.shards.*``,
``warning.shards.totalSize``, ``warning.base.*``) as spec/pairjudge.md §5 and §9 state them."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from pairjudge_support import FIRST, INDEX, SECOND, apply_ops, copy_bundle, shard_weights

from contract.pairjudge import verify_bundle

REHASH = {"op": "rehash"}
WEIGHTS = "incomplete trained weights: "
BASE = "adapter is not tied to an exact base model: "


def _index(bundle: Path, index: Any) -> None:
    (bundle / INDEX).write_text(json.dumps(index, indent=2))
    apply_ops(bundle, [REHASH])


@pytest.fixture
def sharded(tmp_path: Path) -> tuple[Path, dict[str, Any], list[str], int]:
    bundle = copy_bundle("full-run/merged", tmp_path)
    index, names, total = shard_weights(bundle)
    return bundle, index, names, total


def test_pairjudge_shard_index_not_an_object(sharded: tuple[Path, dict[str, Any], list[str], int]) -> None:
    bundle = sharded[0]
    _index(bundle, [])
    verdict = verify_bundle(bundle)
    assert (verdict.code, verdict.message) == ("weights.files", WEIGHTS + f"{INDEX} is not a JSON object")


@pytest.mark.parametrize("weight_map", [None, [], {"score.weight": 1}], ids=["absent", "list", "not-a-file-name"])
def test_pairjudge_shard_index_without_a_weight_map(
    sharded: tuple[Path, dict[str, Any], list[str], int], weight_map: Any
) -> None:
    bundle, index = sharded[0], sharded[1]
    _index(bundle, {"metadata": index["metadata"]} if weight_map is None else {**index, "weight_map": weight_map})
    verdict = verify_bundle(bundle)
    assert (verdict.code, verdict.message) == (
        "weights.files", WEIGHTS + f"{INDEX} has no weight_map object mapping tensor names to shard files"
    )


@pytest.mark.parametrize(
    ("shard", "shown"),
    [("", "''"), (".", "'.'"), ("sub/model.safetensors", "'sub/model.safetensors'"),
     ("../model.safetensors", "'../model.safetensors'")],
)
def test_pairjudge_unsafe_shard_names_in_full(
    sharded: tuple[Path, dict[str, Any], list[str], int], shard: str, shown: str
) -> None:
    bundle, index = sharded[0], sharded[1]
    _index(bundle, {**index, "weight_map": {**index["weight_map"], "score.weight": shard}})
    verdict = verify_bundle(bundle)
    assert (verdict.code, verdict.message) == ("weights.files", WEIGHTS + f"{INDEX} names the unsafe shard file {shown}")


def test_pairjudge_missing_shard_is_named(sharded: tuple[Path, dict[str, Any], list[str], int]) -> None:
    bundle, index = sharded[0], sharded[1]
    _index(bundle, {**index, "weight_map": {**index["weight_map"], "score.weight": "model-extra.safetensors"}})
    verdict = verify_bundle(bundle)
    assert (verdict.code, verdict.message) == ("weights.files", WEIGHTS + "model-extra.safetensors is missing")


def test_pairjudge_tensor_in_two_shards(sharded: tuple[Path, dict[str, Any], list[str], int]) -> None:
    """A copy of the first shard named after both: its first tensor is already held by FIRST."""
    bundle, index, names = sharded[0], sharded[1], sharded[2]
    shutil.copyfile(bundle / FIRST, bundle / "model-copy.safetensors")
    _index(bundle, {**index, "weight_map": {**index["weight_map"], "extra.weight": "model-copy.safetensors"}})
    verdict = verify_bundle(bundle)
    assert (verdict.code, verdict.message) == (
        "weights.files", WEIGHTS + f"tensor {names[0]!r} is in both {FIRST} and model-copy.safetensors"
    )


def test_pairjudge_index_names_the_wrong_shard(sharded: tuple[Path, dict[str, Any], list[str], int]) -> None:
    bundle, index, names = sharded[0], sharded[1], sharded[2]
    _index(bundle, {**index, "weight_map": {**index["weight_map"], names[0]: SECOND}})
    verdict = verify_bundle(bundle)
    assert (verdict.code, verdict.message) == (
        "weights.files", WEIGHTS + f"{INDEX} maps tensor {names[0]!r} to {SECOND}, which does not hold it, while "
        f"{FIRST} does"
    )


def test_pairjudge_shard_holds_an_unlisted_tensor(sharded: tuple[Path, dict[str, Any], list[str], int]) -> None:
    bundle, index, names = sharded[0], sharded[1], sharded[2]
    weight_map = {k: v for k, v in index["weight_map"].items() if k not in (names[1], names[-1])}
    _index(bundle, {**index, "weight_map": weight_map})
    verdict = verify_bundle(bundle)
    # Transformers loads only what the map names (recorded: fuzz-tuning-h, a full model then misses
    # them); the first stray in sorted order is named in a warning
    first = sorted([names[1], names[-1]])[0]
    holder = FIRST if first == names[1] else SECOND
    assert verdict.code == "weights.complete"
    assert f"'missing_keys': {{{', '.join(repr(n) for n in sorted([names[1], names[-1]]))}}}" in (verdict.message or "")
    assert f"shard {holder} holds tensor {first!r} (2 in all) that {INDEX} does not name: the reference does not " \
        "load it" in verdict.warnings


@pytest.mark.parametrize(("metadata", "declared"), [({"total_size": 1}, "1"), ("x", "None"), ({}, "None")])
def test_pairjudge_total_size_warning_in_full(
    sharded: tuple[Path, dict[str, Any], list[str], int], metadata: Any, declared: str
) -> None:
    bundle, index, total = sharded[0], sharded[1], sharded[3]
    _index(bundle, {**index, "metadata": metadata})
    verdict = verify_bundle(bundle)
    assert verdict.ok, verdict
    assert verdict.warnings == (f"{INDEX} metadata.total_size is {declared}; the shards hold {total} bytes",)


# -- the embedded base of an adapter (spec §5: base/ loaded, its digests recorded in source) -------


def _adapter(tmp_path: Path, ops: list[dict[str, Any]]) -> Any:
    bundle = copy_bundle("lora-run/adapter", tmp_path)
    apply_ops(bundle, [*ops, REHASH])
    return verify_bundle(bundle)


def test_pairjudge_base_config_not_an_object(tmp_path: Path) -> None:
    verdict = _adapter(tmp_path, [{"op": "write_text", "file": "base/config.json", "text": "[]"}])
    assert (verdict.code, verdict.message) == ("adapter.base", BASE + "base/config.json is not a JSON object")


def test_pairjudge_base_without_weights(tmp_path: Path) -> None:
    verdict = _adapter(tmp_path, [{"op": "remove_file", "file": "base/model.safetensors"},
                                  {"op": "delete", "path": "/files/base~1model.safetensors"}])
    assert (verdict.code, verdict.message) == (
        "adapter.base", BASE + "no weights: neither base/model.safetensors nor base/model.safetensors.index.json"
    )


def test_pairjudge_base_of_an_unknown_architecture(tmp_path: Path) -> None:
    verdict = _adapter(tmp_path, [{"op": "set", "file": "base/config.json", "path": "/model_type", "value": "qwen2"}])
    assert (verdict.code, verdict.message) == (
        "adapter.base", BASE + "base/config.json model_type 'qwen2' is not an architecture the kit knows (undecided)"
    )


def test_pairjudge_base_with_another_model_id_warns(tmp_path: Path) -> None:
    verdict = _adapter(tmp_path, [{"op": "set", "path": "/source/model_id", "value": "org/tiny"}])
    assert verdict.ok, verdict
    assert verdict.warnings == (
        "the adapter embeds base/ but source.model_id is 'org/tiny', not 'embedded-local-base'; the reference loads base/",
    )


def test_pairjudge_base_without_recorded_digests_warns(tmp_path: Path) -> None:
    verdict = _adapter(tmp_path, [{"op": "delete", "path": "/source/local_base_files"}])
    assert verdict.ok, verdict
    assert verdict.warnings[-1] == "the adapter embeds base/ but source.local_base_files does not record its digests"


def _canonical(local: dict[str, str]) -> str:
    """spec §5: sha256 of the canonical JSON (sorted keys, no spaces, UTF-8) of local_base_files,
    written out by hand here for two keys."""
    (k1, v1), (k2, v2) = sorted(local.items())
    text = '{"' + k1 + '":"' + v1 + '","' + k2 + '":"' + v2 + '"}'
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def test_pairjudge_base_digest_and_revision_warnings(tmp_path: Path) -> None:
    """A recorded digest that differs from files[...] warns for that file, and the revision (no
    longer the digest of local_base_files) warns too."""
    local = {"model.safetensors": "0" * 64, "config.json": "1" * 64}
    verdict = _adapter(tmp_path, [{"op": "set", "path": "/source/local_base_files", "value": local}])
    assert verdict.ok, verdict
    assert verdict.warnings == (
        "source.local_base_files['model.safetensors'] differs from files['base/model.safetensors']",
        "source.local_base_files['config.json'] differs from files['base/config.json']",
        "source.model_revision is not the sha256 of local_base_files' canonical JSON",
    )


def test_pairjudge_base_revision_is_the_canonical_digest(tmp_path: Path) -> None:
    """Keys out of sorted order, a non-ASCII name and a lone surrogate: the revision computed as the
    spec says matches (no revision warning), only the unlisted file's digest warns."""
    files = json.loads((copy_bundle("lora-run/adapter", tmp_path / "probe") / "pairjudge.json").read_text())["files"]
    odd = "é\ud800.json"
    local = {odd: "2" * 64, "model.safetensors": files["base/model.safetensors"]}
    assert list(local) != sorted(local)  # insertion order is not the canonical order
    revision = _canonical(local)
    verdict = _adapter(tmp_path, [{"op": "set", "path": "/source/local_base_files", "value": local},
                                  {"op": "set", "path": "/source/model_revision", "value": revision}])
    assert verdict.ok, verdict
    assert verdict.warnings == (f"source.local_base_files[{odd!r}] differs from files['base/{odd}']",)


def test_pairjudge_adapter_model_config_pad_differs(tmp_path: Path) -> None:
    """spec §5 (observed by the differential fuzz): model_config.pad_token_id is applied after the
    tokenizer's pad id, so a different one fails M5."""
    verdict = _adapter(tmp_path, [{"op": "set", "path": "/model_config/pad_token_id", "value": 0}])
    assert (verdict.code, verdict.message) == ("model.pad", "model and saved tokenizer padding token differ")


def test_pairjudge_adapter_model_config_without_pad_takes_the_tokenizers(tmp_path: Path) -> None:
    verdict = _adapter(tmp_path, [{"op": "delete", "path": "/model_config/pad_token_id"}])
    assert verdict.ok, verdict
    assert verdict.warnings == ()


def test_pairjudge_adapter_head_without_three_rows(tmp_path: Path) -> None:
    edit = {"op": "edit_tensors", "file": "adapter_model.safetensors",
            "edits": [{"name": "base_model.model.score.weight", "shape": [16, 2]}]}
    verdict = _adapter(tmp_path, [edit])
    assert (verdict.code, verdict.message) == (
        "adapter.head_rows",
        "adapter classifier head 'base_model.model.score.weight' has shape [16, 2], not 3 rows for the judge's "
        "three classes",
    )


_NO_BASE = "the adapter has no base/ directory and "
_COMMIT = "0123456789abcdef0123456789abcdef01234567"


@pytest.mark.parametrize(
    ("source", "problem"),
    [
        ({"model_id": "embedded-local-base", "model_revision": "8363c88c"},
         _NO_BASE + "source.model_id names no Hub backbone"),
        ({"model_id": "", "model_revision": _COMMIT}, _NO_BASE + "source.model_id names no Hub backbone"),
        ({"model_id": 7, "model_revision": _COMMIT}, _NO_BASE + "source.model_id names no Hub backbone"),
        ({"model_id": "org/tiny", "model_revision": "main"},
         _NO_BASE + "source.model_revision 'main' is not an exact 40-character commit"),
        ({"model_id": "org/tiny"}, _NO_BASE + "source.model_revision None is not an exact 40-character commit"),
        ({"model_id": "org/tiny", "model_revision": _COMMIT},
         f"the base model org/tiny@{_COMMIT} is not embedded (undecided: the reference must fetch it, and "
         "offline it fails; the kit cannot check it without it)"),
    ],
)
def test_pairjudge_adapter_without_base_in_full(tmp_path: Path, source: dict[str, Any], problem: str) -> None:
    ops: list[dict[str, Any]] = [{"op": "remove_tree", "file": "base"}, {"op": "set", "path": "/source", "value": source}]
    bundle = copy_bundle("lora-run/adapter", tmp_path)
    apply_ops(bundle, ops)
    document = json.loads((bundle / "pairjudge.json").read_text())
    document["files"] = {k: v for k, v in document["files"].items() if not k.startswith("base/")}
    (bundle / "pairjudge.json").write_text(json.dumps(document, indent=2))
    verdict = verify_bundle(bundle)
    assert (verdict.code, verdict.message) == ("adapter.base", BASE + problem)
