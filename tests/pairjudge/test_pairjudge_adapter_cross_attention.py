"""An adapter on a base with ``add_cross_attention: true``: PEFT builds its model from the base's modules
(docs/pairjudge.md, adapter tensor names), and such a base has a cross-attention block in every layer
(``crossattention.c_attn`` a Conv1D of [n_embd, 2 n_embd]), which ``target_modules: ["c_attn"]`` (a module-name
suffix) adapts too. So a LoRA tensor saved for it lands on that block's LoRA layer and must have its shape;
on a base without the block the same name is no parameter of the model and is ignored, as upstream.

The recorded adapter (golden/recorded/pairjudge: r 2, n_embd 16, target_modules ["c_attn"]); the texts are
schema/pairjudge-check-table.json's ``detail.adapter.tensorShape``, written out."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pairjudge_support import BUNDLES

from contract.pairjudge import adapter
from contract.pairjudge.safetensors import read_header

ADAPTER = BUNDLES / "lora-run" / "adapter"
BASE: dict[str, Any] = json.loads((ADAPTER / "base" / "config.json").read_text())
CONFIG: dict[str, Any] = json.loads((ADAPTER / "adapter_config.json").read_text())
CROSS_BASE = {**BASE, "add_cross_attention": True}
SAVED = "base_model.model.transformer.h.0.crossattention.c_attn."


def _lora(b_shape: tuple[int, ...]) -> dict[str, tuple[int, ...]]:
    header = read_header(ADAPTER / "adapter_model.safetensors")
    assert not hasattr(header, "problem"), header
    shapes = {n: t.shape for n, t in header.tensors.items()}  # type: ignore[union-attr]
    return {**shapes, SAVED + "lora_A.weight": (2, 16), SAVED + "lora_B.weight": b_shape}


def test_the_recorded_configuration_names_c_attn_at_rank_two() -> None:
    assert (CONFIG["target_modules"], CONFIG["r"], BASE["n_embd"]) == (["c_attn"], 2, 16)
    assert "add_cross_attention" not in BASE or BASE["add_cross_attention"] is not True


@pytest.mark.parametrize(("base", "b_shape", "problem"), [
    (CROSS_BASE, (32, 2), None),  # [2 n_embd, r]: lands
    (CROSS_BASE, (48, 2),
     f"adapter tensor '{SAVED}lora_B.weight' has shape [48, 2], but it loads into {SAVED}lora_B.default.weight, "
     "of shape [32, 2] (size mismatch)"),
    (BASE, (48, 2), None),  # no cross-attention block: not a parameter, ignored
], ids=["cross-fits", "cross-mismatch", "no-cross-ignored"])
def test_a_lora_tensor_of_the_cross_attention_block(base: dict[str, Any], b_shape: tuple[int, ...],
                                                    problem: str | None) -> None:
    assert adapter.lora_problem(CONFIG, base, _lora(b_shape)) == problem
