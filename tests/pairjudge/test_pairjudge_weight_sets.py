"""Bundles with no weight tensors, or some missing, where the reference must load weights (issue 32).

Against recordings of the published pairjudge 0.3.0 made live for this (``fuzz-tuning-h``, seed
64019, the ``weight_sets`` kind only; ``fuzz-heldout-i``, seed 32032, all kinds): a full model, an
embedded ``base/`` and an adapter's tensors, single files and shards. Observed: an index whose
``weight_map`` maps nothing fails the reference (``IndexError``) for a full model and for an embedded
base alike, which the kit accepted for a base; a full model without a tensor is refused with the
reference's missing keys; a base without tensors, or an adapter without LoRA tensors, loads with
newly initialised weights, which the kit refuses deliberately (``adapter.untrained``). No torch needed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pairjudge_support import RECORDED, apply_ops, copy_bundle, deliberate

from contract.pairjudge import verify_bundle

BASE_TENSORS = [f"transformer.h.0.{n}" for n in ("attn.c_attn.bias", "attn.c_attn.weight", "attn.c_proj.bias",
                "attn.c_proj.weight", "ln_1.bias", "ln_1.weight", "ln_2.bias", "ln_2.weight", "mlp.c_fc.bias",
                "mlp.c_fc.weight", "mlp.c_proj.bias", "mlp.c_proj.weight")] + [
    "transformer.ln_f.bias", "transformer.ln_f.weight", "transformer.wpe.weight", "transformer.wte.weight"]
LORA = ["base_model.model.transformer.h.0.attn.c_attn.lora_A.weight",
        "base_model.model.transformer.h.0.attn.c_attn.lora_B.weight"]
EMPTY_INDEX = ("{index} maps no tensor to any shard (the reference's loader fails: IndexError: list index out of "
               "range)")
REHASH = {"op": "rehash"}


def _weight_set_cases() -> list[tuple[str, dict[str, Any]]]:
    out = []
    for name in ("tuning-h", "heldout-i"):
        document = json.loads((RECORDED / f"fuzz-{name}.json").read_text())
        out += [(name, case) for case in document["cases"] if "weight_sets" in case["kinds"]]
    return out


CASES = _weight_set_cases()


def _empty_index(file: str, parts: int = 2) -> list[dict[str, Any]]:
    folder = file[: -len("model.safetensors")]
    return [{"op": "shard", "file": file, "parts": parts},
            {"op": "set", "file": folder + "model.safetensors.index.json", "path": "/weight_map", "value": {}},
            REHASH]


def _verify(tmp_path: Path, bundle: str, ops: list[dict[str, Any]]) -> Any:
    target = copy_bundle(bundle, tmp_path)
    apply_ops(target, ops)
    return verify_bundle(target)


def test_the_recordings_cover_every_shape() -> None:
    """Full, adapter and embedded base; single files and shards; accepted and refused by the reference."""
    files = {op.get("file", "") for _, case in CASES for op in case["ops"]}
    assert {"model.safetensors", "base/model.safetensors", "adapter_model.safetensors"} <= files
    assert any(op["op"] == "shard" and op["file"] == "base/model.safetensors" for _, c in CASES for op in c["ops"])
    assert any(op["op"] == "shard" and op["file"] == "model.safetensors" for _, c in CASES for op in c["ops"])
    verdicts = {case["reference"]["from_pretrained"]["ok"] for _, case in CASES}
    assert verdicts == {True, False}
    assert len(CASES) >= 50


@pytest.mark.parametrize(("set_name", "case"), CASES, ids=[f"{n}-{c['id']}" for n, c in CASES])
def test_recorded_weight_sets_agree(set_name: str, case: dict[str, Any], tmp_path: Path) -> None:
    """No wrong accept at either layer; a loadable bundle refused only deliberately."""
    target = copy_bundle(case["bundle"], tmp_path)
    apply_ops(target, case["ops"])
    for reference_layer, layer in (("read_manifest", "manifest"), ("from_pretrained", "full")):
        expected = case["reference"][reference_layer]
        verdict = verify_bundle(target, layer=layer)  # type: ignore[arg-type]
        if expected["ok"]:
            assert verdict.ok or deliberate(verdict.code, verdict.message), (layer, verdict)
        else:
            assert not verdict.ok, (layer, "wrong accept", expected)
            if expected.get("exception") == "IndexError":
                assert verdict.code in ("weights.empty", "adapter.untrained"), verdict
                assert "maps no tensor to any shard" in (verdict.message or ""), verdict


@pytest.mark.parametrize("parts", [2, 3])
def test_an_embedded_base_whose_index_maps_nothing_is_refused(tmp_path: Path, parts: int) -> None:
    verdict = _verify(tmp_path, "lora-run/adapter", _empty_index("base/model.safetensors", parts))
    assert (verdict.code, verdict.message) == (
        "adapter.untrained", "adapter bundle lacks weights the reference must load: "
        + EMPTY_INDEX.format(index="base/model.safetensors.index.json"))


@pytest.mark.parametrize("bundle", ["full-run/merged", "lora-run/merged"])
def test_a_full_model_whose_index_maps_nothing_is_refused(tmp_path: Path, bundle: str) -> None:
    verdict = _verify(tmp_path, bundle, _empty_index("model.safetensors"))
    assert (verdict.code, verdict.message) == (
        "weights.empty", "no weight tensors for the reference to load: "
        + EMPTY_INDEX.format(index="model.safetensors.index.json"))


def test_a_full_model_without_tensors_is_refused_with_the_missing_keys(tmp_path: Path) -> None:
    ops = [{"op": "drop_tensors", "file": "model.safetensors", "names": ["score.weight", *BASE_TENSORS]}, REHASH]
    verdict = _verify(tmp_path, "full-run/merged", ops)
    assert verdict.code == "weights.complete"
    assert "'missing_keys': {'score.weight', 'transformer.h.0.attn.c_attn.bias'" in (verdict.message or "")


def test_a_sharded_full_model_whose_index_names_what_the_shards_lack(tmp_path: Path) -> None:
    """Recorded: the reference reports the tensor missing (fuzz-tuning-h); the kit said the shard
    did not hold it, and now reports the same missing keys."""
    ops = [{"op": "shard", "file": "model.safetensors", "parts": 2},
           {"op": "drop_tensors", "file": "model-00001-of-00002.safetensors", "names": ["score.weight"]}, REHASH]
    verdict = _verify(tmp_path, "full-run/merged", ops)
    assert (verdict.code, verdict.message) == (
        "weights.complete", "incomplete trained weights: {'missing_keys': {'score.weight'}, 'unexpected_keys': "
        "set(), 'mismatched_keys': set(), 'error_msgs': []}")


@pytest.mark.parametrize("sharded", [False, True])
def test_an_embedded_base_without_any_tensor_is_refused(tmp_path: Path, sharded: bool) -> None:
    ops: list[dict[str, Any]] = [{"op": "drop_tensors", "file": "base/model.safetensors", "names": BASE_TENSORS}]
    if sharded:
        ops = [{"op": "shard", "file": "base/model.safetensors", "parts": 2}] + [
            {"op": "drop_tensors", "file": f"base/model-0000{n}-of-00002.safetensors", "names": BASE_TENSORS}
            for n in (1, 2)]
    verdict = _verify(tmp_path, "lora-run/adapter", [*ops, REHASH])
    assert verdict.code == "adapter.untrained"
    assert verdict.message == ("adapter bundle lacks weights the reference must load: base/ holds no weight tensor "
                               "(the reference would run a newly initialised, untrained base model; refused "
                               "deliberately)")


@pytest.mark.parametrize("sharded", [False, True])
def test_an_embedded_base_without_a_tensor_its_config_names_is_refused(tmp_path: Path, sharded: bool) -> None:
    gone = ["transformer.wpe.weight", "transformer.wte.weight"]
    ops: list[dict[str, Any]] = [{"op": "drop_tensors", "file": "base/model.safetensors", "names": gone}]
    if sharded:
        ops = [{"op": "shard", "file": "base/model.safetensors", "parts": 2}] + [
            {"op": "drop_tensors", "file": f"base/model-0000{n}-of-00002.safetensors", "names": gone}
            for n in (1, 2)] + [{"op": "delete", "file": "base/model.safetensors.index.json",
                                 "path": f"/weight_map/{name}"} for name in gone]
    verdict = _verify(tmp_path, "lora-run/adapter", [*ops, REHASH])
    assert (verdict.code, verdict.message) == (
        "adapter.untrained", "adapter bundle lacks weights the reference must load: base/ lacks 2 tensor(s) its "
        "config.json names: 'transformer.wpe.weight', 'transformer.wte.weight' (the reference would initialise "
        "them at random; refused deliberately)")


def test_an_adapter_without_lora_tensors_is_refused(tmp_path: Path) -> None:
    verdict = _verify(tmp_path, "lora-run/adapter",
                      [{"op": "drop_tensors", "file": "adapter_model.safetensors", "names": LORA}, REHASH])
    assert (verdict.code, verdict.message) == (
        "adapter.untrained", "adapter bundle lacks weights the reference must load: adapter_model.safetensors "
        "holds no LoRA tensor (the reference would leave every LoRA layer at its initialisation; refused "
        "deliberately)")


def test_an_adapter_without_any_tensor_is_missing_its_head(tmp_path: Path) -> None:
    ops = [{"op": "drop_tensors", "file": "adapter_model.safetensors",
            "names": ["base_model.model.score.weight", *LORA]}, REHASH]
    verdict = _verify(tmp_path, "lora-run/adapter", ops)
    assert (verdict.code, verdict.message) == ("adapter.head", "adapter is missing its trained classifier head")


def test_the_untouched_bundles_still_verify(tmp_path: Path) -> None:
    for number, bundle in enumerate(("full-run/merged", "lora-run/merged", "lora-run/adapter")):
        verdict = _verify(tmp_path / str(number), bundle, [])
        assert verdict.ok, verdict
