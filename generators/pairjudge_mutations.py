"""Mutation recipes for pairjudge bundles: ``ops`` applied in order to a copy of a recorded bundle.

One implementation for the three users: the recorded loader cases (``loader-cases.json``, whose op
vocabulary PROVENANCE.md describes), the differential fuzz (:mod:`generators.pairjudge_fuzz`),
and the test that replays the fuzz's recorded verdicts. A recipe is data (JSON), never a copy of a
bundle, so the recordings stay small. ``uppercase_digest`` is applied last, as recorded.

Ops (``file`` is relative to the bundle, default ``pairjudge.json``):

- ``set`` / ``delete``: JSON-pointer (RFC 6901) edit; ``value`` is the new value, or ``value_json``
  its JSON text (for ``NaN`` and friends, which a strict recording should not hold as numbers), or
  ``nest`` a nesting depth (that many arrays around ``0``). The file is rewritten with 2-space
  indent, as the recorded cases were.
- ``remove_file``, ``write_text`` (``text``), ``rename_file`` (``to``), ``remove_tree`` (a directory,
  with its ``files`` entries dropped from the manifest).
- ``pad_manifest_to`` / ``pad_file_to``: append spaces until the file is ``size`` bytes.
- ``drop_tensors``: rewrite a safetensors ``file`` without ``names``.
- ``edit_tensors``: rewrite a safetensors ``file`` with ``edits``: each ``{"name", "rename"?,
  "shape"?}`` (a new shape gets zero bytes of the right size) or ``{"add", "shape", "dtype"}``.
- ``rehash``: recompute the ``files`` digest of every listed file that exists.
- ``uppercase_digest``: uppercase the ``files`` digest of ``name``.
"""

from __future__ import annotations

import hashlib
import json
import math
import shutil
import struct
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

MANIFEST = "pairjudge.json"
_DTYPE_BYTES = {"F32": 4, "F16": 2, "BF16": 2, "F64": 8, "I64": 8, "I32": 4, "U8": 1, "BOOL": 1}


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def pointer_edit(document: Any, pointer: str, op: str, value: Any = None) -> Any:
    """``document`` with the JSON pointer ``pointer`` set to ``value`` or deleted."""
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


def _value(op: dict[str, Any]) -> Any:
    if "value_json" in op:
        return json.loads(op["value_json"])
    if "nest" in op:
        value: Any = 0
        for _ in range(int(op["nest"])):
            value = [value]
        return value
    return op.get("value")


def _deep(call: Callable[[], Any]) -> Any:
    # the indenting encoder is pure Python and the decoder recurses too: a recipe's deep nesting
    # (``nest``) needs a few frames a level, more than a deep caller (pytest) leaves under the
    # default limit
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        return call()
    finally:
        sys.setrecursionlimit(limit)


def _read_json(path: Path) -> Any:
    text = path.read_text()
    return _deep(lambda: json.loads(text))


def _write_json(path: Path, document: Any) -> None:
    path.write_text(_deep(lambda: json.dumps(document, indent=2)))


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _read_safetensors(path: Path) -> tuple[dict[str, Any], bytes]:
    data = path.read_bytes()
    (length,) = struct.unpack("<Q", data[:8])
    return json.loads(data[8 : 8 + length]), data[8 + length :]


def _write_safetensors(path: Path, header: dict[str, Any], tensors: list[tuple[str, dict[str, Any], bytes]]) -> None:
    out_header: dict[str, Any] = {}
    if "__metadata__" in header:
        out_header["__metadata__"] = header["__metadata__"]
    chunks: list[bytes] = []
    cursor = 0
    for name, info, chunk in tensors:
        out_header[name] = {**info, "data_offsets": [cursor, cursor + len(chunk)]}
        chunks.append(chunk)
        cursor += len(chunk)
    text = json.dumps(out_header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    path.write_bytes(struct.pack("<Q", len(text)) + text + b"".join(chunks))


def _tensors(header: dict[str, Any], buffer: bytes) -> list[tuple[str, dict[str, Any], bytes]]:
    out = []
    for name, info in header.items():
        if name == "__metadata__":
            continue
        begin, end = info["data_offsets"]
        out.append((name, {k: v for k, v in info.items() if k != "data_offsets"}, buffer[begin:end]))
    return out


def drop_tensors(path: Path, names: list[str]) -> None:
    """Rewrite a safetensors file without ``names``: offsets recomputed, compact header padded
    with spaces to a multiple of 8 (as PROVENANCE.md describes the recording)."""
    header, buffer = _read_safetensors(path)
    _write_safetensors(path, header, [t for t in _tensors(header, buffer) if t[0] not in names])


def edit_tensors(path: Path, edits: list[dict[str, Any]]) -> None:
    header, buffer = _read_safetensors(path)
    tensors = _tensors(header, buffer)
    for edit in edits:
        if "add" in edit:
            size = math.prod(edit["shape"]) * _DTYPE_BYTES[edit["dtype"]]
            tensors.append((edit["add"], {"dtype": edit["dtype"], "shape": list(edit["shape"])}, bytes(size)))
            continue
        for index, (name, info, chunk) in enumerate(tensors):
            if name != edit["name"]:
                continue
            new_info, new_chunk = info, chunk
            if "shape" in edit:
                new_info = {**info, "shape": list(edit["shape"])}
                new_chunk = bytes(math.prod(edit["shape"]) * _DTYPE_BYTES[info["dtype"]])
            tensors[index] = (edit.get("rename", name), new_info, new_chunk)
    _write_safetensors(path, header, tensors)


INDEX_NAME = "model.safetensors.index.json"


def shard(bundle: Path, op: dict[str, Any]) -> None:
    """Split ``op["file"]`` (a ``model.safetensors``) into ``parts`` shards named as Transformers
    names them, in tensor order, with ``model.safetensors.index.json`` beside them (unless
    ``index`` is false; ``total_size`` overrides the recorded sum). ``keep`` keeps the single file.
    The manifest's ``files`` lists the shards and the index (digests left for ``rehash``) unless
    ``list`` is false, and drops the single file's entry when it is removed."""
    path = bundle / op["file"]
    prefix = op["file"][: -len(path.name)]
    header, buffer = _read_safetensors(path)
    tensors = _tensors(header, buffer)
    parts = max(1, min(op.get("parts", 2), len(tensors)))
    weight_map: dict[str, str] = {}
    names = []
    for number in range(parts):
        name = f"model-{number + 1:05d}-of-{parts:05d}.safetensors"
        group = tensors[number::parts] if op.get("interleave") else tensors[
            number * len(tensors) // parts : (number + 1) * len(tensors) // parts]
        _write_safetensors(path.with_name(name), header, group)
        weight_map.update({tensor: name for tensor, _, _ in group})
        names.append(name)
    if op.get("index", True):
        total = op.get("total_size", sum(len(chunk) for _, _, chunk in tensors))
        _write_json(path.with_name(INDEX_NAME), {"metadata": {"total_size": total}, "weight_map": weight_map})
        names.append(INDEX_NAME)
    if not op.get("keep", False):
        path.unlink()
    manifest = bundle / MANIFEST
    document = _read_json(manifest)
    if not op.get("keep", False):
        document["files"].pop(op["file"], None)
    if op.get("list", True):
        for name in names:
            document["files"][prefix + name] = ""
    _write_json(manifest, document)


def _pad_to(path: Path, size: int) -> None:
    current = path.stat().st_size
    with path.open("ab") as handle:
        handle.write(b" " * (size - current))


def _rehash(bundle: Path) -> None:
    manifest = bundle / MANIFEST
    document = _read_json(manifest)
    files = document.get("files") if isinstance(document, dict) else None
    if not isinstance(files, dict):
        return
    for key in files:
        target = bundle / key
        if ".." not in Path(key).parts and not Path(key).is_absolute() and target.is_file():
            files[key] = _sha256(target)
    _write_json(manifest, document)


def _remove_tree(bundle: Path, directory: str) -> None:
    shutil.rmtree(bundle / directory)
    manifest = bundle / MANIFEST
    document = _read_json(manifest)
    document["files"] = {k: v for k, v in document["files"].items() if not k.startswith(directory + "/")}
    _write_json(manifest, document)


def apply_ops(bundle: Path, ops: list[dict[str, Any]]) -> None:
    """Apply ``ops`` in order to the bundle directory ``bundle`` (``uppercase_digest`` last)."""
    manifest = bundle / MANIFEST
    late = [op for op in ops if op["op"] == "uppercase_digest"]
    for op in [op for op in ops if op["op"] != "uppercase_digest"] + late:
        kind = op["op"]
        path = bundle / op.get("file", MANIFEST)
        if kind in ("set", "delete"):
            document = _read_json(path)
            _write_json(path, pointer_edit(document, op["path"], kind, _value(op)))
        elif kind == "remove_file":
            path.unlink()
        elif kind == "write_text":
            path.write_text(op["text"])
        elif kind == "rename_file":
            path.rename(bundle / op["to"])
        elif kind == "remove_tree":
            _remove_tree(bundle, op["file"])
        elif kind == "pad_manifest_to":
            _pad_to(manifest, op["size"])
        elif kind == "pad_file_to":
            _pad_to(path, op["size"])
        elif kind == "drop_tensors":
            drop_tensors(path, op["names"])
        elif kind == "edit_tensors":
            edit_tensors(path, op["edits"])
        elif kind == "shard":
            shard(bundle, op)
        elif kind == "rehash":
            _rehash(bundle)
        elif kind == "uppercase_digest":
            document = _read_json(manifest)
            document["files"][op["name"]] = document["files"][op["name"]].upper()
            _write_json(manifest, document)
        else:
            raise ValueError(f"unknown mutation op {kind!r}")
