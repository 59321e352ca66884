"""More of the bundle table's refusals asserted in full (code and message): the texts are the
table's (schema/pairjudge-check-table.json), the details spelled out from its ``detail.*`` texts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pairjudge_support import apply_ops, copy_bundle

from contract.pairjudge import verify_bundle

REHASH = {"op": "rehash"}


def _verify(tmp_path: Path, name: str, ops: list[dict[str, Any]]) -> Any:
    bundle = copy_bundle(name, tmp_path)
    apply_ops(bundle, [*ops, REHASH])
    return verify_bundle(bundle)


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
    verdict = _verify(tmp_path, name, ops)
    assert (verdict.code, verdict.message) == (code, message)
