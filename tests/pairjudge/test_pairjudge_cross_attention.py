"""``add_cross_attention: true`` in a GPT-2 config adds a cross-attention block to every layer, whose weights
a full bundle must then hold with their shapes (docs/pairjudge.md "Derivations from files", recorded live as
fuzz-probes-b ``field-add_cross_attention-07``: without them the reference names the eight missing tensors).
The recorded full bundle: n_embd 16, one layer, float32. The shapes, written out from the docs: ``c_attn``
weight [n_embd, 2 n_embd] and bias [2 n_embd] (keys and values from the encoder states), ``q_attn`` and
``c_proj`` weight [n_embd, n_embd] and bias [n_embd], ``ln_cross_attn`` weight and bias [n_embd]."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pairjudge_support import verify_recipe

BLOCK = "transformer.h.0"
CROSS = {
    f"{BLOCK}.crossattention.c_attn.weight": [16, 32],
    f"{BLOCK}.crossattention.c_attn.bias": [32],
    f"{BLOCK}.crossattention.q_attn.weight": [16, 16],
    f"{BLOCK}.crossattention.q_attn.bias": [16],
    f"{BLOCK}.crossattention.c_proj.weight": [16, 16],
    f"{BLOCK}.crossattention.c_proj.bias": [16],
    f"{BLOCK}.ln_cross_attn.weight": [16],
    f"{BLOCK}.ln_cross_attn.bias": [16],
}
ON = {"op": "set", "file": "config.json", "path": "/add_cross_attention", "value": True}


def _with(shapes: dict[str, list[int]]) -> dict[str, Any]:
    return {"op": "edit_tensors", "file": "model.safetensors",
            "edits": [{"add": name, "dtype": "F32", "shape": shape} for name, shape in shapes.items()]}


def test_the_block_with_its_shapes_loads(tmp_path: Path) -> None:
    verdict = verify_recipe(tmp_path, [ON, _with(CROSS)], layer="full")
    assert (verdict.ok, verdict.message) == (True, None)


def test_without_the_block_the_eight_tensors_are_missing(tmp_path: Path) -> None:
    verdict = verify_recipe(tmp_path, [ON], layer="full")
    missing = ", ".join(repr(name) for name in sorted(CROSS))
    assert verdict.message == ("incomplete trained weights: {'missing_keys': {" + missing + "}, 'unexpected_keys': "
                               "set(), 'mismatched_keys': set(), 'error_msgs': []}")


@pytest.mark.parametrize(("name", "wrong"), [
    (f"{BLOCK}.crossattention.c_attn.weight", [16, 48]),  # the self-attention's three parts, not two
    (f"{BLOCK}.crossattention.c_attn.bias", [48]),
    (f"{BLOCK}.crossattention.c_attn.weight", [16, 16]),
    (f"{BLOCK}.crossattention.q_attn.weight", [16, 32]),
    (f"{BLOCK}.ln_cross_attn.bias", [32]),
])
def test_a_tensor_of_the_block_with_another_shape_is_mismatched(tmp_path: Path, name: str, wrong: list[int]) -> None:
    verdict = verify_recipe(tmp_path, [ON, _with({**CROSS, name: wrong})], layer="full")
    assert (verdict.ok, verdict.message) == (
        False, "incomplete trained weights: {'missing_keys': set(), 'unexpected_keys': set(), 'mismatched_keys': {"
        + repr(name) + "}, 'error_msgs': []}")
