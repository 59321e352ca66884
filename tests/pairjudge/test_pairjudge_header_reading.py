"""Reading a safetensors header from disk (``read_header``), a header warning as the bundle reports it,
and the class mapping a config without ``id2label`` gets, in full."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

from pairjudge_support import BUNDLES, apply_ops, copy_bundle

from contract.pairjudge import verify_bundle
from contract.pairjudge.architecture import id2label
from contract.pairjudge.safetensors import Header, HeaderRefusal, read_header

SOURCE = BUNDLES / "full-run/merged/model.safetensors"


def test_a_header_that_ends_the_file_exactly_is_read(tmp_path: Path) -> None:
    path = tmp_path / "empty.safetensors"
    path.write_bytes(struct.pack("<Q", 2) + b"{}")  # 8 + length == size: no tensor data at all
    header = read_header(path)
    assert header == Header({}, {}, 2)


def test_the_length_is_unsigned(tmp_path: Path) -> None:
    path = tmp_path / "huge.safetensors"
    path.write_bytes(b"\xff" * 8 + b"{}")
    assert read_header(path) == HeaderRefusal(
        "the header length 18446744073709551615 exceeds the 100000000-byte limit")


def test_a_header_past_the_end_is_refused_with_both_sizes(tmp_path: Path) -> None:
    path = tmp_path / "short.safetensors"
    path.write_bytes(struct.pack("<Q", 5) + b"{}")
    assert read_header(path) == HeaderRefusal("the header length 5 runs past the end of the 10-byte file")


def test_a_file_that_cannot_be_opened_names_the_reason(tmp_path: Path) -> None:
    assert read_header(tmp_path) == HeaderRefusal("cannot be read (Is a directory)")


def test_a_header_warning_is_reported_with_the_file_name(tmp_path: Path) -> None:
    data = SOURCE.read_bytes()
    (length,) = struct.unpack("<Q", data[:8])
    document: dict[str, Any] = json.loads(data[8 : 8 + length])
    name = next(key for key in document if key != "__metadata__")
    document[name]["extra"] = 1
    header = json.dumps(document, separators=(",", ":")).encode()
    bundle = copy_bundle("full-run/merged", tmp_path)
    (bundle / "model.safetensors").write_bytes(struct.pack("<Q", len(header)) + header + data[8 + length:])
    apply_ops(bundle, [{"op": "rehash"}])
    verdict = verify_bundle(bundle)
    assert verdict.ok, verdict
    assert f"model.safetensors: tensor {name!r} has unknown fields ['extra']" in verdict.warnings


def test_without_id2label_there_are_two_classes_or_num_labels_of_them() -> None:
    assert id2label({}) == {0: "LABEL_0", 1: "LABEL_1"}
    assert id2label({"num_labels": 3}) == {0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"}
    assert id2label({"id2label": [1, 2]}) == "config.json id2label is not an object"
