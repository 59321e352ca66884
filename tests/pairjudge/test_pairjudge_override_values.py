"""An adapter's ``model_config`` override that GPT2Config cannot take is refused by ``adapter.lora`` with the
value shown as its repr's first 60 characters (as the config checks show theirs: test_pairjudge_loader_problems.py),
one case per branch of the override rule (docs/pairjudge.md, "model_config"): a typed GPT2Config field, a
``num_labels`` that is no integer, a dtype list, a ``model_type`` list, a truthy ``rope_scaling`` that is no
object, a ``quantization_config`` that is neither null nor an object. The texts are schema/pairjudge-check-table.json's
``adapter.lora`` ("PEFT cannot load the adapter: {problem}") around ``detail.adapter.override`` ("pairjudge.json
model_config: {problem}") around the ``detail.config.*`` text without its "config.json " opening, written out.
The manifest layer does not load the model, so it passes them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pairjudge_support import verify_recipe

OPENING = "PEFT cannot load the adapter: pairjudge.json model_config: "
FIELD_TYPE = ", which GPT2Config's field type does not allow"
LONG = "x" * 100
SIXTY = "'" + "x" * 59  # repr(LONG)[:60]: the opening quote and 59 letters


@pytest.mark.parametrize(("key", "value", "text"), [
    ("use_cache", LONG, f"use_cache is {SIXTY}{FIELD_TYPE}"),
    ("num_labels", LONG, f"num_labels is {SIXTY}, not a class count"),
    ("dtype", ["float32"] * 20,
     "dtype is ['float32', 'float32', 'float32', 'float32', 'float32', 'flo: the reference fails reading a list as "
     "a dtype (IndexError)"),
    ("model_type", [LONG], f"model_type is [{SIXTY[:59]}{FIELD_TYPE}"),
    ("rope_scaling", LONG, f"rope_scaling is {SIXTY}{FIELD_TYPE}"),
    ("quantization_config", LONG, f"quantization_config is {SIXTY}{FIELD_TYPE}"),
    # at the cut: a repr of exactly 60 characters is shown whole, one of 61 loses its closing quote
    ("rope_scaling", "x" * 58, "rope_scaling is '" + "x" * 58 + "'" + FIELD_TYPE),
    ("rope_scaling", "x" * 59, "rope_scaling is '" + "x" * 59 + FIELD_TYPE),
], ids=["field-type", "num-labels", "dtype-list", "model-type", "rope-scaling", "quantization", "sixty", "sixty-one"])
def test_an_override_the_config_cannot_take_is_shown_cut_to_sixty_characters(tmp_path: Path, key: str, value: Any,
                                                                              text: str) -> None:
    ops = [{"op": "set", "path": f"/model_config/{key}", "value": value}]
    verdict = verify_recipe(tmp_path / "full", ops, name="lora-run/adapter", layer="full")
    assert (verdict.ok, verdict.code, verdict.message) == (False, "adapter.lora", OPENING + text)
    assert verify_recipe(tmp_path / "manifest", ops, name="lora-run/adapter", layer="manifest").ok
