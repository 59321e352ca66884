"""contract/pairjudge/adapter.py's three questions asked directly, each on its own: ``base_problem``,
``untrained_problem`` and ``lora_problem`` each name a problem of the embedded base's ``config.json`` under
``base/`` (the file the reader has to open), whichever of them meets it first. Through ``verify_bundle``
``base_problem`` always meets it first (the ``adapter.base`` check runs before ``adapter.untrained`` and
``adapter.lora``), so the other two are asked here with a base configuration GPT-2 cannot build. The
texts are the ``detail.config.*`` / ``detail.untrained.*`` messages of schema/pairjudge-check-table.json,
written out; the configuration is the recorded adapter's own (golden/recorded/pairjudge)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pairjudge_support import BUNDLES, verify_recipe

from contract.pairjudge import adapter
from contract.pairjudge.safetensors import read_header

ADAPTER = BUNDLES / "lora-run" / "adapter"
BASE_CONFIG: dict[str, Any] = json.loads((ADAPTER / "base" / "config.json").read_text())
ADAPTER_CONFIG: dict[str, Any] = json.loads((ADAPTER / "adapter_config.json").read_text())


def _shapes(name: str) -> dict[str, tuple[int, ...]]:
    header = read_header(ADAPTER / name)
    assert not hasattr(header, "problem"), header
    return {n: t.shape for n, t in header.tensors.items()}  # type: ignore[union-attr]


BASE = _shapes("base/model.safetensors")
LORA = _shapes("adapter_model.safetensors")

BROKEN = [
    ({"n_head": 3}, "base/config.json n_embd 16 is not divisible by n_head 3"),
    ({"n_embd": -1}, "base/config.json n_embd is -1, not a non-negative integer"),
    ({"id2label": {"a": "x"}}, "base/config.json id2label has the key 'a', which is not an integer"),
]


def test_the_recorded_adapter_passes_all_three() -> None:
    assert BASE_CONFIG["n_embd"] == 16  # the texts below name it
    assert adapter.base_problem(BASE_CONFIG, BASE) is None
    assert adapter.untrained_problem(BASE_CONFIG, BASE, LORA) is None
    assert adapter.lora_problem(ADAPTER_CONFIG, BASE_CONFIG, LORA) is None


@pytest.mark.parametrize(("change", "problem"), BROKEN, ids=["heads", "width", "id2label"])
def test_base_problem_names_the_base_config(change: dict[str, Any], problem: str) -> None:
    assert adapter.base_problem({**BASE_CONFIG, **change}, BASE) == problem


@pytest.mark.parametrize(("change", "problem"), BROKEN[:2], ids=["heads", "width"])
def test_untrained_problem_names_the_base_config(change: dict[str, Any], problem: str) -> None:
    assert adapter.untrained_problem({**BASE_CONFIG, **change}, BASE, LORA) == problem


@pytest.mark.parametrize(("change", "problem"), BROKEN[:2], ids=["heads", "width"])
def test_lora_problem_names_the_base_config(change: dict[str, Any], problem: str) -> None:
    assert adapter.lora_problem(ADAPTER_CONFIG, {**BASE_CONFIG, **change}, LORA) == problem


def test_untrained_problem_names_each_refusal_in_its_order() -> None:
    assert adapter.untrained_problem(BASE_CONFIG, {}, LORA) == (
        "base/ holds no weight tensor (the reference would run a newly initialised, untrained base model; "
        "refused deliberately)")
    one_missing = {n: s for n, s in BASE.items() if n != "transformer.ln_f.bias"}
    assert adapter.untrained_problem(BASE_CONFIG, one_missing, LORA) == (
        "base/ lacks 1 tensor(s) its config.json names: 'transformer.ln_f.bias' (the reference would "
        "initialise them at random; refused deliberately)")
    layers = sorted(n for n in BASE if n.startswith("transformer.h.0."))
    four_missing = {n: s for n, s in BASE.items() if n not in layers[:4]}
    names = ", ".join(repr(n) for n in layers[:3])
    assert adapter.untrained_problem(BASE_CONFIG, four_missing, LORA) == (
        f"base/ lacks 4 tensor(s) its config.json names: {names} and 1 more (the reference would "
        "initialise them at random; refused deliberately)")
    three_missing = {n: s for n, s in BASE.items() if n not in layers[:3]}
    assert adapter.untrained_problem(BASE_CONFIG, three_missing, LORA) == (
        f"base/ lacks 3 tensor(s) its config.json names: {names} (the reference would "
        "initialise them at random; refused deliberately)")
    heads_only = {n: s for n, s in LORA.items() if "lora_" not in n}
    assert heads_only and heads_only != LORA
    no_lora = ("adapter_model.safetensors holds no LoRA tensor (the reference would leave every LoRA layer at its "
               "initialisation; refused deliberately)")
    assert adapter.untrained_problem(BASE_CONFIG, BASE, heads_only) == no_lora
    # a name part that merely contains "lora_" is no LoRA tensor; one that starts with it is
    renamed = {n.replace("lora_", "x_lora_"): s for n, s in LORA.items()}
    assert adapter.untrained_problem(BASE_CONFIG, BASE, renamed) == no_lora
    # a missing head is no missing base tensor: the reference adds the judge's head itself
    assert adapter.untrained_problem(BASE_CONFIG, {**BASE, "score.weight": (3, 16)}, LORA) is None


@pytest.mark.parametrize("count", [1, 2, 4])
def test_an_embedded_base_is_loaded_with_three_labels_whatever_its_config_names(tmp_path: Path, count: int) -> None:
    # spec §6: "The base is loaded with 3 labels" -- the base's own id2label (here 1, 2 or 4 classes) does not
    # size the judge's head, in any of the three questions
    labels = {str(i): f"LABEL_{i}" for i in range(count)}
    config = {**BASE_CONFIG, "id2label": labels, "label2id": {v: int(k) for k, v in labels.items()}}
    assert adapter.base_problem(config, BASE) is None
    assert adapter.untrained_problem(config, BASE, LORA) is None
    assert adapter.lora_problem(ADAPTER_CONFIG, config, LORA) is None
    ops = [{"op": "set", "file": "base/config.json", "path": "/id2label", "value": labels},
           {"op": "set", "file": "base/config.json", "path": "/label2id", "value": config["label2id"]}]
    verdict = verify_recipe(tmp_path, ops, name="lora-run/adapter", layer="full")
    assert (verdict.ok, verdict.code) == (True, None)


def test_lora_problem_sizes_the_head_by_the_judges_three_labels_not_the_bases_id2label() -> None:
    # the base's own id2label is base_problem's question (BROKEN above); lora_problem builds the PEFT model
    # with the judge's three labels in its place, so even an unreadable one does not enter it
    config = {**BASE_CONFIG, "id2label": {"a": "x"}}
    assert adapter.lora_problem(ADAPTER_CONFIG, config, LORA) is None
    assert adapter.untrained_problem(config, BASE, LORA) is None
