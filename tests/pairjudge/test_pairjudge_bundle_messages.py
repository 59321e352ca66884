"""More of the bundle table's refusals asserted in full (code and message): the texts are the
table's (schema/pairjudge-check-table.json), the details spelled out from its ``detail.*`` texts."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import pytest
from pairjudge_support import INDEX, SECOND, apply_ops, copy_bundle, shard_weights, verify_recipe

from contract.pairjudge import verify_bundle
from contract.pairjudge.safetensors import HeaderRefusal, parse_header

REHASH = {"op": "rehash"}


@pytest.mark.parametrize(
    ("name", "ops", "code", "message"),
    [
        ("lora-run/adapter", [{"op": "write_text", "file": "adapter_config.json", "text": "[]"}],
         "adapter.config", "the adapter's adapter_config.json cannot be used: adapter_config.json is not a JSON object"),
        ("lora-run/adapter", [{"op": "remove_file", "file": "adapter_model.safetensors"},
                              {"op": "delete", "path": "/files/adapter_model.safetensors"}],
         "adapter.weights", "adapter weights cannot be used: adapter_model.safetensors is missing"),
        ("lora-run/adapter", [{"op": "set", "file": "adapter_config.json", "path": "/r", "value": 0}],
         "adapter.lora", "PEFT cannot load the adapter: adapter_config.json r is 0, not a positive integer"),
        # recorded fuzz s7919-0019: the reference refuses it (StrictDataclassFieldValidationError)
        ("lora-run/adapter", [{"op": "set", "path": "/model_config/use_cache", "value": "x"}],
         "adapter.lora", "PEFT cannot load the adapter: pairjudge.json model_config: use_cache is 'x', which "
         "GPT2Config's field type does not allow"),
        ("full-run/merged", [{"op": "set", "path": "/tokenizer", "value": 5}],
         "tokenizer.metadata", "the manifest's tokenizer must be an object, not a number"),
        ("full-run/merged", [{"op": "set", "path": "/tokenizer/foo", "value": 1}],
         "tokenizer.metadata.key", "saved tokenizer metadata names 'foo', which the kit cannot derive from tokenizer files"),
        ("full-run/merged", [{"op": "set", "path": "/packer/final_instruction", "value": "x\udfff"}],
         "packer.encodes", "the judge's packer cannot tokenise final_instruction: it holds a lone surrogate, which the "
         "tokenizers library cannot encode"),
    ],
    ids=["adapter-config", "adapter-weights", "lora-rank", "lora-override", "tokenizer-block", "tokenizer-key", "encode-surrogate"],
)
def test_pairjudge_bundle_refusal_in_full(
    tmp_path: Path, name: str, ops: list[dict[str, Any]], code: str, message: str
) -> None:
    verdict = verify_recipe(tmp_path, name=name, ops=ops)
    assert (verdict.code, verdict.message) == (code, message)


@pytest.mark.parametrize(("model_type", "shown"), [("qwen2", "'qwen2'"), ([1], "[1]"), (None, "None")])
def test_pairjudge_unknown_architecture_in_full(tmp_path: Path, model_type: Any, shown: str) -> None:
    """The kit has a tensor table for GPT-2 only (docs/pairjudge.md); anything else is undecided."""
    ops = [{"op": "set", "file": "config.json", "path": "/model_type", "value": model_type}]
    verdict = verify_recipe(tmp_path, name="full-run/merged", ops=ops)
    assert (verdict.code, verdict.message) == (
        "config.architecture",
        f"the full bundle's config.json cannot be used: model_type {shown} is not an architecture the kit knows "
        "(undecided: only gpt2 can be checked without Transformers)",
    )


def test_pairjudge_loaded_shard_not_listed_warns(tmp_path: Path) -> None:
    bundle = copy_bundle("full-run/merged", tmp_path)
    index = shard_weights(bundle)[0]
    (bundle / INDEX).write_text(json.dumps(index))
    apply_ops(bundle, [REHASH, {"op": "delete", "path": "/files/" + SECOND}])
    verdict = verify_bundle(bundle)
    assert verdict.ok, verdict
    assert verdict.warnings == (
        f"{SECOND} is loaded but not listed in pairjudge.json files, so its digest is not checked (the reference "
        "accepts this)",
    )


@pytest.mark.parametrize(("length", "shown"), [(58, "'" + "D" * 58 + "'"), (59, "'" + "D" * 56 + "...")])
def test_pairjudge_header_value_shown_up_to_60_characters(length: int, shown: str) -> None:
    """A header value in a refusal is its repr, cut to 57 characters and ``...`` past 60."""
    header = json.dumps({"x": {"dtype": "D" * length, "shape": [1], "data_offsets": [0, 1]}}).encode()
    result = parse_header(struct.pack("<Q", len(header)) + header + b"\0")
    assert result == HeaderRefusal(f"tensor 'x' has unknown dtype {shown}")


_CONFIG = "the full bundle's config.json cannot be used: config.json "


@pytest.mark.parametrize(
    ("ops", "message"),
    [
        ([{"op": "set", "file": "config.json", "path": "/n_layer", "value": "x"}],
         _CONFIG + "n_layer is 'x', which GPT2Config's field type does not allow"),
        ([{"op": "set", "file": "config.json", "path": "/use_cache", "value": 1}],
         _CONFIG + "use_cache is 1, which GPT2Config's field type does not allow"),
        ([{"op": "set", "file": "config.json", "path": "/use_return_dict", "value": True}],
         _CONFIG + "sets use_return_dict, a read-only property of the config class: the reference fails to set it "
         "(AttributeError)"),
        ([{"op": "set", "file": "config.json", "path": "/dtype", "value": "auto"}],
         _CONFIG + "dtype is 'auto' (undecided: the kit knows the reference loads float32, float16, bfloat16, "
         "float64, int8; 'auto' dtype and attention or quantization options it does not check were observed to fail)"),
        ([{"op": "set", "file": "config.json", "path": "/attn_implementation", "value": [1]}],
         _CONFIG + "attn_implementation is [1], which GPT2Config's field type does not allow"),
        ([{"op": "set", "file": "config.json", "path": "/rope_scaling", "value": "auto"}],
         _CONFIG + "rope_scaling is 'auto', which GPT2Config's field type does not allow"),
        ([{"op": "set", "file": "config.json", "path": "/problem_type", "value": "int8"},
          {"op": "set", "file": "config.json", "path": "/architectures", "value": "auto"},
          {"op": "set", "file": "config.json", "path": "/return_dict", "value": "float16"},
          {"op": "set", "file": "config.json", "path": "/quantization_config", "value": {}}],
         _CONFIG + "quantization_config is {} (undecided: the kit knows the reference loads none; 'auto' dtype and "
         "attention or quantization options it does not check were observed to fail)"),
        ([{"op": "set", "file": "config.json", "path": "/resid_pdrop", "value": 1.5}],
         _CONFIG + "resid_pdrop is 1.5: a dropout probability has to be between 0 and 1"),
        ([{"op": "set", "file": "config.json", "path": "/attn_pdrop", "value": -0.5}],
         _CONFIG + "attn_pdrop is -0.5: a dropout probability has to be between 0 and 1"),
        ([{"op": "set", "file": "config.json", "path": "/num_labels", "value": "3"}],
         _CONFIG + "num_labels is '3', not a class count"),
        ([{"op": "set", "file": "config.json", "path": "/num_labels", "value": True}],
         _CONFIG + "num_labels is True, not a class count"),
        ([{"op": "set", "file": "config.json", "path": "/id2label", "value": {"x": "tie", "1": "a_wins", "2": "b_wins"}}],
         _CONFIG + "id2label has the key 'x', which is not an integer"),
    ],
    ids=["int-field", "bool-field", "read-only", "dtype-auto", "attn-implementation", "rope-scaling",
         "unchecked-fields-then-quantization", "dropout-high", "dropout-negative", "num-labels-string",
         "num-labels-bool", "id2label-key"],
)
def test_pairjudge_config_types_in_full(tmp_path: Path, ops: list[dict[str, Any]], message: str) -> None:
    verdict = verify_recipe(tmp_path, name="full-run/merged", ops=ops)
    assert (verdict.code, verdict.message) == ("config.architecture", message)


@pytest.mark.parametrize(
    "ops",
    [[{"op": "set", "file": "config.json", "path": "/resid_pdrop", "value": 1}],
     [{"op": "set", "file": "config.json", "path": "/embd_pdrop", "value": 0}],
     [{"op": "delete", "file": "config.json", "path": "/attn_pdrop"}]],
    ids=["dropout-one", "dropout-zero", "dropout-absent"],
)
def test_pairjudge_config_dropout_bounds_accepted(tmp_path: Path, ops: list[dict[str, Any]]) -> None:
    verdict = verify_recipe(tmp_path, name="full-run/merged", ops=ops)
    assert verdict.ok, verdict


_MISMATCHED_HEAD = ("incomplete trained weights: {'missing_keys': set(), 'unexpected_keys': set(), "
                    "'mismatched_keys': {'score.weight'}, 'error_msgs': []}")


@pytest.mark.parametrize(
    ("count", "code", "message"),
    [
        (0, "weights.complete", _MISMATCHED_HEAD),
        (1_000_000, "weights.complete", _MISMATCHED_HEAD),
        (-1, "config.architecture", _CONFIG + "num_labels is -1, not a class count"),
        (1_000_001, "config.architecture", _CONFIG + "num_labels is 1000001, not a class count"),
    ],
)
def test_pairjudge_num_labels_bounds(tmp_path: Path, count: int, code: str, message: str) -> None:
    """num_labels from 0 to 1,000,000 sizes the head (docs/pairjudge.md), so the 3-row head mismatches;
    outside that range it is not a class count."""
    verdict = verify_recipe(tmp_path, name="full-run/merged", ops=[{"op": "set", "file": "config.json", "path": "/num_labels",
                                                    "value": count}])
    assert (verdict.code, verdict.message) == (code, message)
