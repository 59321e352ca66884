"""Helpers for the pairjudge tests: the recorded data, and the loader cases' ``ops`` as PROVENANCE.md
describes them (applied in order to a copy of the bundle, ``uppercase_digest`` last)."""

from __future__ import annotations

import hashlib
import json
import shutil
import struct
from pathlib import Path
from typing import Any

from contract.core.resources import golden_dir

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


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def _pointer_edit(document: Any, pointer: str, op: str, value: Any = None) -> Any:
    if pointer == "":
        return value
    tokens = [_unescape(t) for t in pointer.split("/")[1:]]
    parent = document
    for token in tokens[:-1]:
        parent = parent[int(token)] if isinstance(parent, list) else parent[token]
    last = tokens[-1]
    if isinstance(parent, list):
        index = len(parent) if last == "-" else int(last)
        if op == "delete":
            del parent[index]
        elif index == len(parent):
            parent.append(value)
        else:
            parent[index] = value
    elif op == "delete":
        del parent[last]
    else:
        parent[last] = value
    return document


def _write_json(path: Path, document: Any) -> None:
    path.write_text(json.dumps(document, indent=2))


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def drop_tensors(path: Path, names: list[str]) -> None:
    """Rewrite a safetensors file without ``names``: offsets recomputed, compact header padded
    with spaces to a multiple of 8 (as PROVENANCE.md describes the recording)."""
    data = path.read_bytes()
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8 : 8 + length])
    buffer = data[8 + length :]
    out_header: dict[str, Any] = {}
    chunks: list[bytes] = []
    cursor = 0
    for name, info in header.items():
        if name == "__metadata__":
            out_header[name] = info
            continue
        if name in names:
            continue
        begin, end = info["data_offsets"]
        chunk = buffer[begin:end]
        out_header[name] = {**info, "data_offsets": [cursor, cursor + len(chunk)]}
        chunks.append(chunk)
        cursor += len(chunk)
    text = json.dumps(out_header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    path.write_bytes(struct.pack("<Q", len(text)) + text + b"".join(chunks))


def apply_ops(bundle: Path, ops: list[dict[str, Any]]) -> None:
    manifest = bundle / "pairjudge.json"
    late = [op for op in ops if op["op"] == "uppercase_digest"]
    for op in [op for op in ops if op["op"] != "uppercase_digest"] + late:
        kind = op["op"]
        if kind in ("set", "delete"):
            path = bundle / op.get("file", "pairjudge.json")
            document = json.loads(path.read_text())
            _write_json(path, _pointer_edit(document, op["path"], kind, op.get("value")))
        elif kind == "remove_file":
            (bundle / op["file"]).unlink()
        elif kind == "write_text":
            (bundle / op["file"]).write_text(op["text"])
        elif kind == "pad_manifest_to":
            size = manifest.stat().st_size
            with manifest.open("ab") as handle:
                handle.write(b" " * (op["size"] - size))
        elif kind == "drop_tensors":
            drop_tensors(bundle / op["file"], op["names"])
        elif kind == "rehash":
            document = json.loads(manifest.read_text())
            for key in document["files"]:
                target = bundle / key
                if ".." not in Path(key).parts and not Path(key).is_absolute() and target.is_file():
                    document["files"][key] = _sha256(target)
            _write_json(manifest, document)
        elif kind == "uppercase_digest":
            document = json.loads(manifest.read_text())
            document["files"][op["name"]] = document["files"][op["name"]].upper()
            _write_json(manifest, document)
        else:
            raise AssertionError(f"unknown recorded op {kind!r}")


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
