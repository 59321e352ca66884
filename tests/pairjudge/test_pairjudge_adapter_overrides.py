"""An adapter's ``pairjudge.json`` ``model_config`` entries, set on the built model's config (docs/pairjudge.md),
against the published loader: ``fuzz-probes-d`` recorded 20 values for each of 49 keys on the LoRA bundle.
Each key's first accepted value and its first two refused ones of every kind of failure are replayed
here; the refused ones with the kit's whole message, which the reference's exception decides:
a field type check (``StrictDataclassFieldValidationError``, an unhashable ``model_type``, a
``rope_scaling`` or ``quantization_config`` Transformers cannot use) is ``fieldType``, a property without
a setter ``readOnly``, a list read as a dtype (``IndexError``) ``dtypeList``, a ``num_labels`` that is not
an integer ``numLabels`` (schema/pairjudge-check-table.json). The whole recording is replayed by the
slow fuzz test."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pairjudge_support import RECORDED, apply_ops, copy_bundle

from contract.pairjudge import verify_bundle

OVERRIDE = "PEFT cannot load the adapter: pairjudge.json model_config: "


def _sample() -> list[dict[str, Any]]:
    document = json.loads((RECORDED / "fuzz-probes-d.json").read_text())
    assert document["versions"]["transformers"] == "5.24.0" and document["versions"]["pairjudge"] == "0.3.0"
    taken: dict[tuple[str, str | None], int] = {}
    sample = []
    for case in document["cases"]:
        (op, *_) = case["ops"]
        if case["bundle"] != "lora-run/adapter" or not op["path"].startswith("/model_config/"):
            continue
        reference = case["reference"]["from_pretrained"]
        slot = (op["path"], reference.get("exception"))
        if taken.get(slot, 0) < (1 if reference["ok"] else 2):
            taken[slot] = taken.get(slot, 0) + 1
            sample.append(case)
    return sample


CASES = _sample()


def expected_message(key: str, value: Any, reference: dict[str, Any]) -> str:
    shown = repr(value)[:60]
    if reference["exception"] == "AttributeError" and "has no setter" in reference["message"]:
        problem = f"sets {key}, a read-only property of the config class: the reference fails to set it (AttributeError)"
    elif reference["exception"] == "IndexError":
        problem = f"{key} is {shown}: the reference fails reading a list as a dtype (IndexError)"
    elif key == "num_labels":
        problem = f"num_labels is {shown}, not a class count"
    else:
        problem = f"{key} is {shown}, which GPT2Config's field type does not allow"
    return OVERRIDE + problem


def test_the_sample_holds_every_kind_of_failure() -> None:
    failures = {case["reference"]["from_pretrained"].get("exception") for case in CASES}
    assert {None, "StrictDataclassFieldValidationError", "AttributeError", "IndexError", "TypeError"} <= failures
    assert len({case["ops"][0]["path"] for case in CASES}) >= 45  # the recording's 49 keys, less a few never refused


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_a_model_config_entry_agrees_with_the_loader_in_full(case: dict[str, Any], tmp_path: Path) -> None:
    bundle = copy_bundle(case["bundle"], tmp_path)
    apply_ops(bundle, case["ops"])
    verdict = verify_bundle(bundle, layer="full")
    reference = case["reference"]["from_pretrained"]
    op = case["ops"][0]
    key = op["path"].rpartition("/")[2]
    value = json.loads((bundle / "pairjudge.json").read_text())["model_config"][key]
    if reference["ok"]:
        assert (verdict.ok, verdict.code) == (True, None), verdict
    elif reference["exception"] == "ValueError":  # the pad id, checked by the bundle table
        assert (verdict.ok, verdict.code, verdict.message) == (False, "model.pad", reference["message"])
    else:
        assert (verdict.ok, verdict.code, verdict.stage, verdict.message) == (
            False, "adapter.lora", "bundle", expected_message(key, value, reference))
