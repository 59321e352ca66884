"""An adapter's saved tensor names against what PEFT looks up, replayed from live recordings.

``fuzz-tuning-e`` (seed 5077), ``fuzz-tuning-f`` (seed 7207, the fuzzer's ``adapter_names``
kind) and the hand-written ``fuzz-probes-a`` hold recipes that rename or add tensors of ``adapter_model.safetensors`` (the head saved
under PEFT's in-memory name, other head names, LoRA tensors with their adapter name, base layers,
wrapper parts), change ``modules_to_save``, ``target_modules``, ``lora_bias`` and trainable tokens,
with the verdict the published pairjudge 0.3.0 (PEFT 0.21.2) gave. The kit must agree without
torch: no wrong accept, a refusal of a loadable bundle only where it is deliberate, and where the
reference failed on a name (a ``KeyError`` for a module to save, a ``size mismatch`` in
``load_state_dict``) the kit's message names the same tensor. The rule the kit follows is in
``contract/pairjudge/peftmodel.py``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from pairjudge_support import RECORDED, apply_ops, copy_bundle, deliberate

from contract.pairjudge import verify_bundle

NAME_KINDS = frozenset({"adapter", "adapter_names"})


def _cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    for name in ("tuning-e", "tuning-f", "probes-a"):
        document = json.loads((RECORDED / f"fuzz-{name}.json").read_text())
        assert document["versions"]["peft"] == "0.21.2" and document["versions"]["pairjudge"] == "0.3.0"
        cases += [case for case in document["cases"] if NAME_KINDS & set(case["kinds"])]
    return cases


CASES = _cases()


def test_the_recordings_hold_every_way_a_name_fails() -> None:
    failures = {case["reference"]["from_pretrained"].get("exception") for case in CASES}
    assert {"KeyError", "RuntimeError", "NoMatchingPeftModuleError", "ValueError"} <= failures
    assert any(case["reference"]["from_pretrained"]["ok"] for case in CASES)
    assert len(CASES) >= 120


def _named(reference: dict[str, Any]) -> str | None:
    """The tensor the reference's failure names: the KeyError's key, or the first size mismatch."""
    message = reference.get("message") or ""
    if reference.get("exception") == "KeyError":
        return message.strip("'")
    found = re.search(r"size mismatch for (\S+): copying a param", message)
    return found.group(1) if found else None


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_adapter_tensor_names_agree_with_peft(case: dict[str, Any], tmp_path: Path) -> None:
    bundle = copy_bundle(case["bundle"], tmp_path)
    apply_ops(bundle, case["ops"])
    expected = case["reference"]["from_pretrained"]
    verdict = verify_bundle(bundle, layer="full")
    if expected["ok"]:
        assert verdict.ok or deliberate(verdict.code, verdict.message), verdict
        return
    assert not verdict.ok, ("wrong accept", expected)
    named = _named(expected)
    if named is not None and verdict.code == "adapter.lora" and "undecided" not in (verdict.message or ""):
        # the same tensor: by its model name (size mismatch) or its saved name (KeyError)
        assert named in (verdict.message or ""), (named, verdict.message)
