"""Points the seventh session's full mutmut run of the pairjudge group found unguarded (docs/testing.md,
"Seventh session: mutmut"), each checked against what someone other than the kit recorded or defines.

- GPT-2 with ``add_cross_attention`` true: the reference's loading info for the recorded full bundle
  (``fuzz-probes-b`` case ``field-add_cross_attention-07``, pairjudge 0.3.0 on Transformers 5.24) lists the
  eight cross-attention tensors of the one layer missing and nothing unexpected; with those tensors present
  at the shapes GPT-2's cross-attention block defines (Transformers' ``GPT2Attention`` with
  ``is_cross_attention``: ``c_attn`` a Conv1D from ``n_embd`` to ``2 * n_embd``, ``q_attn`` and ``c_proj``
  from ``n_embd`` to ``n_embd``; a Conv1D's weight is stored ``(in, out)``, as the self-attention's
  ``c_attn`` is ``(n_embd, 3 * n_embd)``), nothing is missing or mismatched.
- tokenizer.json's ``padding.pad_token`` is a string in the tokenizers library's padding parameters: an
  object there is refused, not read for its ``content`` (only the two Python files take token objects).
- A tokenizer.json the tokenizers library refuses is refused with the reason (the check table's
  ``detail.tokenizerJson.*`` text), never an empty message.
- Legacy loading (no pairjudge.json): the packer is the ``packer_config`` given, so its ``max_length`` must fit
  the fixed overhead (spec section 3: BOS/EOS present plus final_instruction's tokens; for the recorded full bundle "judge
  q" is 2 tokens plus BOS, its EOS has no id: 3); the verdict warns that a legacy bundle has no digests,
  receipt or tokenizer metadata (spec section 7).
- An adapter's embedded base whose config no longer fits its weights (``n_positions`` 1: the reference fails,
  ``fuzz-heldout-b`` case ``s60601-0194``) is refused naming the tensor that does not fit: GPT-2's position
  embedding, ``(n_positions, n_embd)``, is the one tensor ``n_positions`` sizes.
- A refused ``model_config`` value is shown as its repr cut to 60 characters, as every config value in a
  message (``test_pairjudge_adapter_overrides``); an ``id2label`` entry (replaced afterwards: ``fuzz-probes-d``
  ``override-id2label-01``, 'x', loads) does not end the check of the entries after it (``override-n_layer-01``,
  'x', fails).
- Two recorded loads the reference accepts, replayed whole: an adapter whose pairjudge.json has no
  ``model_config`` (``fuzz-heldout-f`` ``s52361-0009``: the loader then applies nothing; spec section 5 said
  deleting it fails the load, the observation wins), and a full bundle whose weights were saved without the
  ``transformer.`` prefix (``fuzz-tuning-b`` ``s7919-0166``: matched with the prefix added).
- An adapter's embedded base saved without the ``transformer.`` prefix: the base is loaded by the same
  ``from_pretrained`` rule as a full bundle (the prefix added, ``fuzz-tuning-b`` ``s7919-0166`` for a full
  bundle; derived for a base, not recorded), so it is not "untrained": nothing is missing.
- An embedded base whose ``n_inner`` no longer fits its MLP (``fuzz-heldout-g`` ``s70913-0057``, ``n_inner``
  256: the reference fails) is refused, also when the base was saved without the prefix.
- LoRA on two modules (``target_modules`` ``c_attn`` and ``wpe``): each module's saved LoRA tensors are
  checked against their own parameters, not only the last module's. The embedding's LoRA shapes are the
  recorded ones (``fuzz-heldout-e`` ``s83117-0221``, ``[r, n_positions]`` and ``[n_embd, r]``, loads); a
  ``lora_embedding_A`` of the wrong width is a size mismatch, as ``fuzz-tuning-f`` ``s7207-0113`` recorded for
  ``wte``.
- An embedded GPT-2 base with cross-attention (``add_cross_attention`` true in base/config.json loads:
  ``fuzz-probes-c`` ``base-field-add_cross_attention-07``) has the cross-attention ``c_attn`` among PEFT's
  modules, so ``target_modules`` ``c_attn`` adapts it too: its saved LoRA tensors are checked against its width
  (``lora_B`` ``[2 * n_embd, r]``: the cross-attention ``c_attn`` projects to keys and values only).
- ``modules_to_save`` naming PEFT's own ``base_model.model`` is refused as undecided, as ``base_model`` is.
- ``packer.overhead`` with a tokenizer the kit counts only as a range: a ``max_length`` at or below the range's
  low end is still reported as undecided, with the range (``test_pairjudge_overhead_undecided``'s rule).
"""

from __future__ import annotations

import ast
import json
import struct
from pathlib import Path
from typing import Any

import pytest
from pairjudge_support import RECORDED, apply_ops, copy_bundle, verify_recipe

from contract.pairjudge import verify_bundle
from contract.pairjudge.tokenizer import TokenizerProblem, read_tokenizer

CROSS = {"op": "set", "file": "config.json", "path": "/add_cross_attention", "value": True}
PREFIX = "incomplete trained weights: "
OVERRIDE = "PEFT cannot load the adapter: pairjudge.json model_config: "


def _recorded_loading_info(case_id: str) -> dict[str, Any]:
    document = json.loads((RECORDED / "fuzz-probes-b.json").read_text())
    (case,) = [c for c in document["cases"] if c["id"] == case_id]
    assert case["ops"][0] == CROSS
    message: str = case["reference"]["from_pretrained"]["message"]
    assert message.startswith(PREFIX)
    info: dict[str, Any] = ast.literal_eval(message[len(PREFIX):])
    return info


def test_cross_attention_without_its_tensors_lists_what_the_reference_lists(tmp_path: Path) -> None:
    expected = _recorded_loading_info("field-add_cross_attention-07")
    verdict = verify_recipe(tmp_path, [CROSS])
    assert verdict.code == "weights.complete"
    assert verdict.message.startswith(PREFIX)
    assert ast.literal_eval(verdict.message[len(PREFIX):]) == expected
    assert len(expected["missing_keys"]) == 8 and expected["unexpected_keys"] == set()


def _cross_attention_shapes(embd: int) -> dict[str, tuple[int, ...]]:
    """GPT-2's cross-attention block of layer 0 (Transformers' definition, see the module docstring)."""
    block = "transformer.h.0"
    return {
        f"{block}.crossattention.c_attn.weight": (embd, 2 * embd),
        f"{block}.crossattention.c_attn.bias": (2 * embd,),
        f"{block}.crossattention.q_attn.weight": (embd, embd),
        f"{block}.crossattention.q_attn.bias": (embd,),
        f"{block}.crossattention.c_proj.weight": (embd, embd),
        f"{block}.crossattention.c_proj.bias": (embd,),
        f"{block}.ln_cross_attn.weight": (embd,),
        f"{block}.ln_cross_attn.bias": (embd,),
    }


def _add_float32_tensors(path: Path, shapes: dict[str, tuple[int, ...]]) -> None:
    """Append zero-filled F32 tensors to a safetensors file (header rewritten, earlier data kept)."""
    data = path.read_bytes()
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + length])
    buffer = bytearray(data[8 + length :])
    for name, shape in shapes.items():
        size = 4
        for dim in shape:
            size *= dim
        header[name] = {"dtype": "F32", "shape": list(shape), "data_offsets": [len(buffer), len(buffer) + size]}
        buffer += bytes(size)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    path.write_bytes(struct.pack("<Q", len(text)) + text + bytes(buffer))


def _verify_with_cross_tensors(tmp_path: Path, shapes: dict[str, tuple[int, ...]]) -> Any:
    bundle = copy_bundle("full-run/merged", tmp_path)
    _add_float32_tensors(bundle / "model.safetensors", shapes)
    apply_ops(bundle, [CROSS, {"op": "rehash"}])
    return verify_bundle(bundle)


def test_cross_attention_with_its_tensors_at_gpt2_shapes_is_complete(tmp_path: Path) -> None:
    embd = json.loads((RECORDED / "bundles" / "full-run" / "merged" / "config.json").read_text())["n_embd"]
    verdict = _verify_with_cross_tensors(tmp_path, _cross_attention_shapes(embd))
    assert (verdict.ok, verdict.code, verdict.message) == (True, None, None), verdict


@pytest.mark.parametrize("name", ["crossattention.c_attn.weight", "crossattention.c_attn.bias"])
def test_a_cross_attention_tensor_shaped_as_self_attention_is_mismatched(tmp_path: Path, name: str) -> None:
    embd = json.loads((RECORDED / "bundles" / "full-run" / "merged" / "config.json").read_text())["n_embd"]
    shapes = _cross_attention_shapes(embd)
    wrong = f"transformer.h.0.{name}"
    shapes[wrong] = (embd, 3 * embd) if name.endswith("weight") else (3 * embd,)  # the self-attention c_attn
    verdict = _verify_with_cross_tensors(tmp_path, shapes)
    assert verdict.code == "weights.complete"
    info = ast.literal_eval(verdict.message[len(PREFIX):])
    assert (info["missing_keys"], info["mismatched_keys"]) == (set(), {wrong})


def test_an_object_as_tokenizer_json_padding_pad_token_is_refused(tmp_path: Path) -> None:
    padding = {"pad_token": {"content": "[PAD]"}, "strategy": "BatchLongest", "direction": "Right",
               "pad_to_multiple_of": None, "pad_id": 1, "pad_type_id": 0}
    verdict = verify_recipe(tmp_path, [
        {"op": "delete", "file": "tokenizer_config.json", "path": "/pad_token"},
        {"op": "set", "file": "tokenizer.json", "path": "/padding", "value": padding},
    ])
    assert verdict.code == "tokenizer.files"
    assert verdict.message.startswith("tokenizer.json padding.pad_token is an object")


@pytest.mark.parametrize(("key", "value", "problem"), [
    ("version", "2.0", "tokenizer.json version is '2.0', not '1.0'"),
    ("padding", [], "tokenizer.json padding is not an object or null"),
])
def test_a_tokenizer_json_the_library_refuses_gives_its_reason(tmp_path: Path, key: str, value: Any,
                                                                problem: str) -> None:
    bundle = copy_bundle("full-run/merged", tmp_path)
    apply_ops(bundle, [{"op": "set", "file": "tokenizer.json", "path": f"/{key}", "value": value}])
    assert read_tokenizer(bundle) == TokenizerProblem(problem)


@pytest.mark.parametrize(("max_length", "expected"), [
    (3, ("packer.overhead", "max_length=3 cannot even fit the fixed overhead (special tokens + final instruction = "
                            "3 tokens)")),
    (4, (None, None)),
])
def test_a_legacy_load_checks_the_given_packer_against_the_overhead(tmp_path: Path, max_length: int,
                                                                     expected: tuple[str | None, str | None]) -> None:
    bundle = copy_bundle("full-run/merged", tmp_path)
    packer = json.loads((bundle / "pairjudge.json").read_text())["packer"]
    apply_ops(bundle, [{"op": "remove_file", "file": "pairjudge.json"}])
    verdict = verify_bundle(bundle, allow_legacy=True, label_order=["tie", "a_wins", "b_wins"],
                            packer_config={**packer, "max_length": max_length})
    assert (verdict.code, verdict.message) == expected


def test_a_legacy_load_warns_what_it_cannot_check(tmp_path: Path) -> None:
    bundle = copy_bundle("full-run/merged", tmp_path)
    apply_ops(bundle, [{"op": "remove_file", "file": "pairjudge.json"}])
    verdict = verify_bundle(bundle, allow_legacy=True, label_order=["tie", "a_wins", "b_wins"], packer_config={})
    assert (verdict.ok, verdict.warnings) == (
        True, ("legacy bundle: no pairjudge.json, so no file digests, receipt or tokenizer metadata",))


def test_an_embedded_base_whose_config_does_not_fit_names_the_tensor(tmp_path: Path) -> None:
    document = json.loads((RECORDED / "fuzz-heldout-b.json").read_text())
    (case,) = [c for c in document["cases"] if c["id"] == "s60601-0194"]
    assert case["bundle"] == "lora-run/adapter" and not case["reference"]["from_pretrained"]["ok"]
    bundle = copy_bundle(case["bundle"], tmp_path)
    apply_ops(bundle, case["ops"])
    verdict = verify_bundle(bundle)
    head = "adapter is not tied to an exact base model: base/ weights do not fit base/config.json: "
    assert verdict.code == "adapter.base" and verdict.message.startswith(head)
    info = ast.literal_eval(verdict.message[len(head):])
    assert info["mismatched_keys"] == {"transformer.wpe.weight"}


def test_a_long_refused_model_config_value_is_cut_to_60_characters(tmp_path: Path) -> None:
    value = "n" * 80
    verdict = verify_recipe(tmp_path, [{"op": "set", "file": "pairjudge.json", "path": "/model_config/num_labels",
                                        "value": value}], name="lora-run/adapter")
    assert (verdict.code, verdict.message) == (
        "adapter.lora", f"{OVERRIDE}num_labels is {repr(value)[:60]}, not a class count")



@pytest.mark.parametrize(("key", "value"), [("n_layer", "n" * 80), ("model_type", ["m" * 80])])
def test_a_long_value_of_a_typed_field_is_cut_to_60_characters(tmp_path: Path, key: str, value: Any) -> None:
    verdict = verify_recipe(tmp_path, [{"op": "set", "file": "pairjudge.json", "path": f"/model_config/{key}",
                                        "value": value}], name="lora-run/adapter")
    assert (verdict.code, verdict.message) == (
        "adapter.lora", f"{OVERRIDE}{key} is {repr(value)[:60]}, which GPT2Config's field type does not allow")


def test_an_id2label_entry_does_not_end_the_check_of_later_entries(tmp_path: Path) -> None:
    verdict = verify_recipe(tmp_path, [
        {"op": "set", "file": "pairjudge.json", "path": "/model_config/id2label", "value": "x"},
        {"op": "set", "file": "pairjudge.json", "path": "/model_config/n_layer", "value": "x"},
    ], name="lora-run/adapter")
    assert (verdict.code, verdict.message) == (
        "adapter.lora", f"{OVERRIDE}n_layer is 'x', which GPT2Config's field type does not allow")


def test_a_max_length_below_the_range_is_undecided_not_counted(tmp_path: Path) -> None:
    bert = {"op": "set", "file": "tokenizer.json", "path": "/pre_tokenizer", "value": {"type": "BertPreTokenizer"}}
    verdict = verify_recipe(tmp_path, [bert, {"op": "set", "path": "/packer/max_length", "value": 1}])
    assert (verdict.code, verdict.message) == (
        "packer.overhead", "max_length=1 against the fixed overhead is undecided: the kit cannot count the tokens of "
                           "final_instruction for this tokenizer exactly (between 1 and 17)")


@pytest.mark.parametrize(("recording", "case_id"), [("fuzz-heldout-f", "s52361-0009"), ("fuzz-tuning-b", "s7919-0166")])
def test_a_recorded_load_the_reference_accepts_is_accepted(tmp_path: Path, recording: str, case_id: str) -> None:
    document = json.loads((RECORDED / f"{recording}.json").read_text())
    (case,) = [c for c in document["cases"] if c["id"] == case_id]
    assert case["reference"]["from_pretrained"] == {"ok": True}
    bundle = copy_bundle(case["bundle"], tmp_path)
    apply_ops(bundle, case["ops"])
    verdict = verify_bundle(bundle)
    assert (verdict.ok, verdict.code, verdict.message) == (True, None, None), verdict


def _two_lora_modules(width: int) -> list[dict[str, Any]]:
    wpe = "base_model.model.transformer.wpe"
    return [
        {"op": "set", "file": "adapter_config.json", "path": "/target_modules", "value": ["c_attn", "wpe"]},
        {"op": "edit_tensors", "file": "adapter_model.safetensors", "edits": [
            {"add": f"{wpe}.lora_embedding_A", "shape": [2, width], "dtype": "F32"},
            {"add": f"{wpe}.lora_embedding_B", "shape": [16, 2], "dtype": "F32"}]},
    ]


def test_lora_on_two_modules_checks_the_first_modules_tensors_too(tmp_path: Path) -> None:
    assert verify_recipe(tmp_path / "right", _two_lora_modules(128), name="lora-run/adapter").ok
    verdict = verify_recipe(tmp_path / "wrong", _two_lora_modules(64), name="lora-run/adapter")
    assert verdict.code == "adapter.lora"
    assert "'base_model.model.transformer.wpe.lora_embedding_A' has shape [2, 64]" in verdict.message
    assert verdict.message.endswith("of shape [2, 128] (size mismatch)")


CROSS_BLOCK = "transformer.h.0.crossattention"


def _cross_attention_base(lora_b_rows: int) -> list[dict[str, Any]]:
    shapes = _cross_attention_shapes(16)  # the recorded LoRA run's base: n_embd 16, one layer, rank 2
    return [
        {"op": "set", "file": "base/config.json", "path": "/add_cross_attention", "value": True},
        {"op": "edit_tensors", "file": "base/model.safetensors",
         "edits": [{"add": name, "shape": list(shape), "dtype": "F32"} for name, shape in shapes.items()]},
        {"op": "edit_tensors", "file": "adapter_model.safetensors", "edits": [
            {"add": f"base_model.model.{CROSS_BLOCK}.c_attn.lora_A.weight", "shape": [2, 16], "dtype": "F32"},
            {"add": f"base_model.model.{CROSS_BLOCK}.c_attn.lora_B.weight", "shape": [lora_b_rows, 2], "dtype": "F32"},
        ]},
    ]


def test_a_cross_attention_base_gives_lora_its_cross_attention_layer(tmp_path: Path) -> None:
    document = json.loads((RECORDED / "fuzz-probes-c.json").read_text())
    (case,) = [c for c in document["cases"] if c["id"] == "base-field-add_cross_attention-07"]
    assert case["reference"]["from_pretrained"] == {"ok": True}
    assert verify_recipe(tmp_path / "right", _cross_attention_base(32), name="lora-run/adapter").ok
    verdict = verify_recipe(tmp_path / "wrong", _cross_attention_base(48), name="lora-run/adapter")
    assert verdict.code == "adapter.lora"
    assert f"'base_model.model.{CROSS_BLOCK}.c_attn.lora_B.weight' has shape [48, 2]" in verdict.message
    assert verdict.message.endswith("of shape [32, 2] (size mismatch)")


def test_modules_to_save_naming_peft_s_own_model_is_undecided(tmp_path: Path) -> None:
    verdict = verify_recipe(tmp_path, [{"op": "set", "file": "adapter_config.json", "path": "/modules_to_save",
                                        "value": ["base_model.model"]}], name="lora-run/adapter")
    assert (verdict.code, verdict.message) == (
        "adapter.lora", "PEFT cannot load the adapter: adapter_config.json modules_to_save wraps base_model.model, "
                        "PEFT's own module (undecided: the kit decides the saving of plain layers only)")


def test_an_embedded_base_saved_without_the_prefix_is_complete(tmp_path: Path) -> None:
    source = copy_bundle("lora-run/adapter", tmp_path / "source") / "base" / "model.safetensors"
    data = source.read_bytes()
    (length,) = struct.unpack("<Q", data[:8])
    names = [name for name in json.loads(data[8 : 8 + length]) if name != "__metadata__"]
    assert names and all(name.startswith("transformer.") for name in names)
    edits = [{"name": name, "rename": name.removeprefix("transformer.")} for name in names]
    verdict = verify_recipe(tmp_path / "renamed", [{"op": "edit_tensors", "file": "base/model.safetensors",
                                                    "edits": edits}], name="lora-run/adapter")
    assert (verdict.ok, verdict.code, verdict.message) == (True, None, None), verdict


def _strip_prefix_op(bundle: Path) -> dict[str, Any]:
    data = (bundle / "base" / "model.safetensors").read_bytes()
    (length,) = struct.unpack("<Q", data[:8])
    names = [name for name in json.loads(data[8 : 8 + length]) if name != "__metadata__"]
    return {"op": "edit_tensors", "file": "base/model.safetensors",
            "edits": [{"name": name, "rename": name.removeprefix("transformer.")} for name in names]}


@pytest.mark.parametrize("unprefixed", [False, True])
def test_an_embedded_base_whose_n_inner_does_not_fit_is_refused(tmp_path: Path, unprefixed: bool) -> None:
    document = json.loads((RECORDED / "fuzz-heldout-g.json").read_text())
    (case,) = [c for c in document["cases"] if c["id"] == "s70913-0057"]
    assert not case["reference"]["from_pretrained"]["ok"]
    bundle = copy_bundle(case["bundle"], tmp_path)
    ops = [_strip_prefix_op(bundle)] if unprefixed else []
    apply_ops(bundle, [*ops, *case["ops"]])
    verdict = verify_bundle(bundle)
    assert verdict.code == "adapter.base"
    assert "'transformer.h.0.mlp.c_fc.weight'" in verdict.message
