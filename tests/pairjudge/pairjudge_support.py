"""Helpers for the pairjudge tests: the recorded data, and the loader cases' ``ops`` as PROVENANCE.md
describes them (applied in order to a copy of the bundle, ``uppercase_digest`` last)."""

from __future__ import annotations

import json
import re
import shutil
import struct
from pathlib import Path
from typing import Any

from contract.core.resources import golden_dir
from generators.pairjudge_mutations import apply_ops, drop_tensors

__all__ = ["apply_ops", "drop_tensors"]

RECORDED = golden_dir() / "recorded" / "pairjudge"
BUNDLES = RECORDED / "bundles"
REFERENCE_BUNDLES = ("full-run/merged", "lora-run/merged", "lora-run/adapter")
LABEL_ORDER = ["tie", "a_wins", "b_wins"]  # the order the recorded bundles were trained with


def loader_cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads((RECORDED / "loader-cases.json").read_text())["cases"]
    return cases


def copy_bundle(name: str, destination: Path) -> Path:
    target = destination / "bundle"
    shutil.copytree(BUNDLES / name, target)
    for path in [target, *target.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    return target


def verify_recipe(tmp_path: Path, ops: list[dict[str, Any]], name: str = "full-run/merged", **kwargs: Any) -> Any:
    """``verify_bundle`` on a copy of the recorded bundle ``name`` after ``ops`` and a rehash (the
    manifest's digests rewritten, so the change itself is what is checked)."""
    from contract.pairjudge import verify_bundle

    bundle = copy_bundle(name, tmp_path)
    apply_ops(bundle, [*ops, {"op": "rehash"}])
    return verify_bundle(bundle, **kwargs)


def original_packer(name: str) -> dict[str, Any] | None:
    """The packer stored in the recorded bundle ``name`` before any op (None for the backbone)."""
    manifest = BUNDLES / name / "pairjudge.json"
    if not manifest.is_file():
        return None
    packer: dict[str, Any] = json.loads(manifest.read_text())["packer"]
    return packer


def load_arguments(case: dict[str, Any], bundle: Path, original: dict[str, Any] | None) -> dict[str, Any]:
    """``load_kwargs`` as verify_bundle arguments. ``packer_config``: ``"stored"`` = the bundle's
    stored packer, an object = the stored packer with those fields replaced, ``{}`` = defaults."""
    kwargs = case["load_kwargs"]
    out: dict[str, Any] = {"layer": "manifest" if case["layer"] == "read_manifest" else "full"}
    if "allow_legacy" in kwargs:
        out["allow_legacy"] = kwargs["allow_legacy"]
    if "label_order" in kwargs:
        out["label_order"] = kwargs["label_order"]
    if "packer_config" in kwargs:
        given = kwargs["packer_config"]
        stored = original if original is not None else {}
        if given == "stored":
            out["packer_config"] = dict(stored)
        elif given == {}:
            out["packer_config"] = {}
        else:
            out["packer_config"] = {**stored, **given}
    return out


INDEX = "model.safetensors.index.json"
FIRST = "model-00001-of-00002.safetensors"
SECOND = "model-00002-of-00002.safetensors"


def shard_weights(bundle: Path) -> tuple[dict[str, Any], list[str], int]:
    """Split model.safetensors into FIRST (its first 8 tensors) and SECOND (the rest) with an index,
    as Transformers names them; the index, the tensor names in file order and the data bytes."""
    data = (bundle / "model.safetensors").read_bytes()
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + length])
    buffer = data[8 + length :]
    names = [n for n in header if n != "__metadata__"]
    weight_map = {}
    for shard, part in ((FIRST, names[:8]), (SECOND, names[8:])):
        out, chunks, cursor = {"__metadata__": header["__metadata__"]}, [], 0
        for name in part:
            begin, end = header[name]["data_offsets"]
            out[name] = {**header[name], "data_offsets": [cursor, cursor + end - begin]}
            chunks.append(buffer[begin:end])
            cursor += end - begin
            weight_map[name] = shard
        text = json.dumps(out).encode()
        (bundle / shard).write_bytes(struct.pack("<Q", len(text)) + text + b"".join(chunks))
    (bundle / "model.safetensors").unlink()
    document = json.loads((bundle / "pairjudge.json").read_text())
    del document["files"]["model.safetensors"]
    for name in (FIRST, SECOND, INDEX):
        document["files"][name] = ""
    (bundle / "pairjudge.json").write_text(json.dumps(document, indent=2))
    return {"metadata": {"total_size": len(buffer)}, "weight_map": weight_map}, names, len(buffer)


# The kit refuses some bundles the reference loads, on purpose (docs/pairjudge.md, "Deliberate
# refusals"): the point cannot be decided without Transformers/PEFT, or a bound protects the user.
# Each entry: the refusal's check code (a regular expression), a fragment of its message, and the reason. A refusal of a
# bundle the reference loaded that matches none of them is a bug, as is any wrong accept.
SIDE_FILE_CHECKS = r"tokenizer\.files|config\.file|adapter\.config|adapter\.base"  # the checks reading side JSON
DELIBERATE_REFUSALS: tuple[tuple[str, str, str], ...] = (
    ("config.architecture", "undecided", "a model_type the kit has no tensor table for; a dtype name, attention "
     "implementation, rope_scaling or quantization_config it does not check"),
    ("packer.overhead", "undecided", "final_instruction's token count is not exact for this tokenizer"),
    ("tokenizer.files", "undecided", "a tokenizer component or parameter set the kit does not know"),
    (SIDE_FILE_CHECKS, "nested deeper", "deep nesting: where Transformers' recursion fails is not predictable"),
    (SIDE_FILE_CHECKS, "would take up to", "a side JSON file whose parsing could take more than the memory bound"),
    (SIDE_FILE_CHECKS, "is larger than", "a side JSON file over the byte bound (128 MiB: more would pass the memory bound)"),
    ("manifest.json", "nested deeper", "deep nesting beyond what Python's json reliably parses"),
    ("adapter.base", "undecided", "a base model that is not embedded, or not of a known architecture"),
    ("adapter.lora", "undecided", "an adapter type or option the kit does not check; modules_to_save wrapping a "
     "container, a LoRA layer or PEFT's own modules; two saved tensors of different shapes on one parameter"),
    ("tokenizer.metadata.key", "cannot derive", "a tokenizer attribute the kit does not derive from files"),
    ("adapter.untrained", "refused deliberately", "an embedded base without a tensor its config names, or an "
     "adapter without any LoRA tensor: the reference initialises them, so the judge is not the one trained"),
    (r"packer\.\w+\.template", "MemoryError", "a template width or precision that builds gigabytes of text"),
)


def deliberate(code: str | None, message: str | None) -> bool:
    return any(
        re.fullmatch(pattern, code or "") is not None and fragment in (message or "")
        for pattern, fragment, _ in DELIBERATE_REFUSALS
    )
