"""The wire-level ONNX reader (:mod:`contract.model.onnxwire`) against the protobuf reader it stands in for.

The field table must be ``onnx.proto``'s (read from the installed ``onnx``'s descriptors, so a message field a
later ONNX adds fails here instead of going unwalked), and on real and mutated models the scan must name the same
externally stored tensor as the protobuf walk, find every metadata text, and give way (``None``) wherever it
cannot read the bytes, so the protobuf reader decides. And the point of it: ``validate`` and ``compat`` of
ordinary input import neither ``onnx`` nor ``lark`` nor ``jsonschema`` (issue 35's start-up)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from google.protobuf.message import DecodeError
from onnx import ModelProto, TensorProto, helper, numpy_helper

from contract.core.resources import golden_dir
from contract.model.onnxwire import MESSAGES, scan

REPO = Path(__file__).resolve().parents[2]


def _short(full_name: str) -> str:
    return full_name.removeprefix("onnx.")


def test_the_field_table_is_the_installed_onnx_proto() -> None:
    seen: dict[str, dict[int, tuple[str, str]]] = {}
    pending = [ModelProto.DESCRIPTOR]
    while pending:
        descriptor = pending.pop()
        name = _short(descriptor.full_name)
        if name in seen:
            continue
        seen[name] = {f.number: (f.name, _short(f.message_type.full_name))
                      for f in descriptor.fields if f.message_type is not None}
        pending.extend(f.message_type for f in descriptor.fields if f.message_type is not None)
    assert seen == MESSAGES, f"onnx {onnx.__version__} changed its messages: update contract/model/onnxwire.py"


def _first_external(model: ModelProto) -> str | bytes | None:
    """The protobuf walk of contract.model.externaldata before the wire reader: the same order, generic."""
    pending: list[Any] = [model]
    while pending:
        current = pending.pop()
        if isinstance(current, TensorProto):
            if current.data_location == TensorProto.EXTERNAL or len(current.external_data) > 0:
                return current.name
            continue
        for descriptor, value in current.ListFields():
            if descriptor.message_type is None:
                continue
            if hasattr(value, "ListFields"):
                pending.append(value)
            else:
                pending.extend(value)
    return None


def _tensor(name: str, external: bool) -> TensorProto:
    tensor = numpy_helper.from_array(np.ones((13, 1), np.float32), name=name)
    if external:
        tensor.ClearField("raw_data")
        tensor.data_location = TensorProto.EXTERNAL
        tensor.external_data.add(key="location", value=f"{name}.bin")
    return tensor


def _model(externals: set[str]) -> ModelProto:
    """Tensors everywhere a tensor can sit: initializers, a sparse initializer, a Constant, an If's subgraphs,
    a function, training info; those named in ``externals`` keep their data elsewhere."""
    x = helper.make_tensor_value_info("input", TensorProto.FLOAT, ["batch", 13])
    y = helper.make_tensor_value_info("output", TensorProto.FLOAT, ["batch", 1])
    branch = helper.make_graph([helper.make_node("Constant", [], ["b"], value=_tensor("W_then", "W_then" in externals))],
                               "then", [], [helper.make_tensor_value_info("b", TensorProto.FLOAT, [13, 1])])
    other = helper.make_graph([helper.make_node("Constant", [], ["b"], value=_tensor("W_else", "W_else" in externals))],
                              "else", [], [helper.make_tensor_value_info("b", TensorProto.FLOAT, [13, 1])])
    nodes = [helper.make_node("MatMul", ["input", "W"], ["output"], name="matmul", doc_string="multiply"),
             helper.make_node("Constant", [], ["c"], value=_tensor("W_const", "W_const" in externals)),
             helper.make_node("If", ["cond"], ["unused"], then_branch=branch, else_branch=other)]
    sparse = helper.make_sparse_tensor(_tensor("S_values", "S_values" in externals),
                                       numpy_helper.from_array(np.array([0], np.int64), name="S_indices"), [13])
    graph = helper.make_graph(nodes, "main", [x], [y], initializer=[_tensor("W", "W" in externals)],
                              sparse_initializer=[sparse], doc_string="the graph")
    model = helper.make_model(graph, producer_name="test", doc_string="the model")
    helper.set_model_props(model, {"built_at": "/home/me/build", "owner": "team"})
    model.graph.metadata_props.add(key="source", value="/tmp/x.py")
    model.graph.node[0].metadata_props.add(key="origin", value="here")
    function = helper.make_function("custom", "f", ["a"], ["b"],
                                    [helper.make_node("Constant", [], ["b"], value=_tensor("W_fn", "W_fn" in externals))],
                                    [helper.make_opsetid("", 17)])
    model.functions.append(function)
    info = model.training_info.add()
    info.initialization.CopyFrom(helper.make_graph(
        [helper.make_node("Constant", [], ["t"], value=_tensor("W_train", "W_train" in externals))], "init", [], []))
    return model


PLACES = ["W", "W_const", "W_then", "W_else", "S_values", "W_fn", "W_train"]


@pytest.mark.parametrize("externals", [set(), *({p} for p in PLACES), set(PLACES), {"W", "W_fn"}, {"W_then", "W_train"}])
def test_the_scan_names_the_tensor_the_protobuf_walk_names(externals: set[str]) -> None:
    model = _model(externals)
    scanned = scan(model.SerializeToString())
    assert scanned is not None
    assert scanned.external == _first_external(model)
    assert (scanned.external is None) == (not externals)


def test_every_metadata_text_is_found_with_where_it_is() -> None:
    scanned = scan(_model(set()).SerializeToString())
    assert scanned is not None
    found = {(text.where, text.key, text.value) for text in scanned.texts}
    assert {("model", "built_at", "/home/me/build"), ("model", "owner", "team"),
            ("model", "doc_string", "the model"), ("graph 'main'", "doc_string", "the graph"),
            ("graph 'main'", "source", "/tmp/x.py"),
            ("graph 'main' node 'matmul'", "doc_string", "multiply"),
            ("graph 'main' node 'matmul'", "origin", "here")} <= found
    assert [text.offset for text in scanned.texts] == sorted(text.offset for text in scanned.texts)
    assert scanned.texts[0].message == "ModelProto"


def test_the_bundled_example_scans_as_self_contained() -> None:
    scanned = scan((golden_dir() / "example-package" / "model.onnx").read_bytes())
    assert scanned is not None and scanned.external is None


def test_on_mutated_models_the_scan_agrees_with_the_protobuf_reader_or_gives_way() -> None:
    rng = random.Random(20261204)
    originals = [_model(set()).SerializeToString(), _model({"W_then"}).SerializeToString(),
                 (golden_dir() / "example-package" / "model.onnx").read_bytes()]
    agreed = gave_way = 0
    for _ in range(3000):
        data = bytearray(rng.choice(originals))
        for _ in range(rng.randint(1, 4)):
            kind = rng.random()
            at = rng.randrange(len(data))
            if kind < 0.5:
                data[at] = rng.randrange(256)
            elif kind < 0.75:
                del data[at:at + rng.randint(1, 8)]
            else:
                data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4)))
        scanned = scan(bytes(data))
        try:
            model = ModelProto.FromString(bytes(data))
        except (DecodeError, RecursionError):
            model = None
        if scanned is None:
            gave_way += 1
            continue
        assert model is not None, "the scan read bytes the protobuf reader refuses"
        expected = _first_external(model)
        if isinstance(expected, bytes):  # a proto2 string that is not UTF-8: protobuf hands back its bytes
            expected = expected.decode("utf-8", errors="replace")
        assert scanned.external == expected
        agreed += 1
    assert agreed > 100 and gave_way > 100  # both paths exercised


def _field(number: int, payload: bytes) -> bytes:
    """One length-delimited protobuf field, written by hand (protobuf itself will not nest this deep)."""
    key, length, encoded = (number << 3) | 2, len(payload), bytearray()
    encoded.append(key)
    while True:
        encoded.append((length & 0x7F) | (0x80 if length > 0x7F else 0))
        length >>= 7
        if not length:
            return bytes(encoded) + payload


def _nested(levels: int) -> bytes:
    graph = b""
    for _ in range(levels):  # graph.node (1) -> node.attribute (5) -> attribute.g (6) -> graph
        graph = _field(1, _field(5, _field(6, graph)))
    return _field(7, graph)


def test_deep_nesting_gives_way_to_the_protobuf_reader() -> None:
    assert scan(_nested(30)) is not None
    assert scan(_nested(40)) is None  # 121 messages deep: past the protobuf reader's own limit of 100
    with pytest.raises(DecodeError):
        ModelProto.FromString(_nested(40))


@pytest.mark.parametrize("argv", [
    ["validate", str(golden_dir() / "example-package"), "--engine-version", "0.12.0"],
    ["compat", ">=0.12.0 <1.0.0", "--engine-version", "0.12.0"],
])
def test_ordinary_commands_import_neither_onnx_nor_lark_nor_jsonschema(argv: list[str]) -> None:
    code = ("import sys\nfrom contract.cli import main\ncode = main(sys.argv[1:])\n"
            "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'onnx', 'lark', 'jsonschema'})\n"
            "print('HEAVY', heavy)\nsys.exit(code)")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, check=False,
                          timeout=120, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "HEAVY []" in done.stdout, done.stdout
