"""The session-time tensor contract (spec/contract.md §5.1): every message, the order, the rendering."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from runtime_graphs import DOUBLE, build

from contract.model.manifest import Manifest, read_manifest
from contract.model.tensors import check_graph, render_shape

MANIFESTS = Path(__file__).resolve().parents[2] / "golden" / "recorded" / "manifests"


def _manifest(**changes: Any) -> Manifest:
    doc = json.loads((MANIFESTS / "synthetic_kcp13_value_manifest.json").read_text(encoding="utf-8"))
    doc.update(changes)
    result = read_manifest(json.dumps(doc).encode(), "0.12.0")
    assert result.manifest is not None
    return result.manifest


CASES: list[tuple[str, dict[str, Any], dict[str, Any], str | None]] = [
    ("served", {}, {}, None),
    ("a declared output name that is not 'output' is served", {"output_name": "variable"},
     {"outputName": "variable"}, None),
    ("initializers listed as inputs are not inputs", {"initializer_as_input": True}, {}, None),
    ("extra input", {"extra_inputs": ["dice"]}, {},
     "ONNX model must expose exactly one input named 'input'; found [dice, input]"),
    ("renamed input", {"input_name": "input"}, {"inputName": "features"},
     "ONNX model must expose exactly one input named 'features'; found [input]"),
    ("wrong output name", {"output_name": "variable"}, {},
     "ONNX model must expose exactly one output named 'output'; found [variable]"),
    ("two outputs", {"extra_outputs": ["aux"]}, {},
     "ONNX model must expose exactly one output named 'output'; found [aux, output]"),
    ("input dtype", {"input_type": DOUBLE, "output_type": DOUBLE}, {}, "input 'input' must have FLOAT dtype"),
    ("input fixed batch of 1", {"input_shape": [1, 13]}, {},
     "input 'input' must have shape [batch,13] with a dynamic batch dimension; got [1,13]"),
    ("input width", {"input_shape": ["batch", 27]}, {},
     "input 'input' must have shape [batch,13] with a dynamic batch dimension; got [batch,27]"),
    ("input unknown batch is dynamic", {"input_shape": [None, 13]}, {}, None),
    ("output dtype", {"output_type": DOUBLE}, {}, "output 'output' must have FLOAT dtype"),
    ("output rank 1", {"output_rank": 1}, {},
     "output 'output' must have shape [batch,1] with a dynamic batch dimension; got [batch]"),
    ("output rank 3", {"output_rank": 3}, {},
     "output 'output' must have shape [batch,1] with a dynamic batch dimension; got [batch,1,1]"),
    ("output fixed batch", {"input_shape": [4, 13]}, {},
     "input 'input' must have shape [batch,13] with a dynamic batch dimension; got [4,13]"),
    ("non-tensor input", {"sequence_input": True}, {}, "input 'input' must be a tensor; got seq(tensor(float))"),
]


@pytest.mark.parametrize(("name", "graph", "manifest", "message"), CASES, ids=[c[0] for c in CASES])
def test_tensor_contract(tmp_path: Path, name: str, graph: dict[str, Any], manifest: dict[str, Any],
                         message: str | None) -> None:
    path = tmp_path / "model.onnx"
    path.write_bytes(build(**graph))
    refusal = check_graph(path, _manifest(**manifest))
    assert (None if refusal is None else refusal.message) == message


def test_output_shape_with_a_fixed_batch_renders_its_value(tmp_path: Path) -> None:
    # A fixed-batch output behind a dynamic input: shape [4,1] (the engine's test rendering).
    class Node:
        def __init__(self, name: str, shape: list[Any]) -> None:
            self.name, self.type, self.shape = name, "tensor(float)", shape

    class Session:
        def get_inputs(self) -> list[Node]:
            return [Node("input", ["batch", 13])]

        def get_outputs(self) -> list[Node]:
            return [Node("output", [4, 1])]

    from contract.model.tensors import check_session

    refusal = check_session(Session(), _manifest())
    assert refusal is not None
    assert refusal.message == "output 'output' must have shape [batch,1] with a dynamic batch dimension; got [4,1]"


def test_input_order_is_checked_before_output_dtype_and_shape(tmp_path: Path) -> None:
    path = tmp_path / "model.onnx"
    path.write_bytes(build(input_shape=[1, 13], output_type=DOUBLE))
    refusal = check_graph(path, _manifest())
    assert refusal is not None and refusal.message.startswith("input 'input' must have shape")


def test_an_unreadable_graph_is_refused_with_a_message(tmp_path: Path) -> None:
    path = tmp_path / "model.onnx"
    path.write_bytes(b"not a graph")
    refusal = check_graph(path, _manifest())
    assert refusal is not None and refusal.message.startswith("cannot read the ONNX graph: ")


@pytest.mark.parametrize(("shape", "text"), [(["batch", 13], "[batch,13]"), ([1, 13], "[1,13]"),
                                             ([None], "[batch]"), ([-1, 1, 1], "[batch,1,1]")])
def test_shape_rendering(shape: list[Any], text: str) -> None:
    assert render_shape(shape) == text


def test_found_names_sort_as_the_jvm_sorts_strings() -> None:
    # String.compareTo compares UTF-16 code units: U+10000 (a surrogate pair, 0xD800...) sorts before
    # U+FFFF, although its code point is larger. Python's default order is by code point.
    from contract.model.tensors import check_session

    class Node:
        def __init__(self, name: str) -> None:
            self.name, self.type, self.shape = name, "tensor(float)", ["batch", 13]

    class Session:
        def get_inputs(self) -> list[Node]:
            return [Node("\uffff"), Node("\U00010000"), Node("a")]

        def get_outputs(self) -> list[Node]:
            return [Node("output")]

    refusal = check_session(Session(), _manifest())
    assert refusal is not None
    assert refusal.message == "ONNX model must expose exactly one input named 'input'; found [a, \U00010000, \uffff]"


def test_a_graph_under_a_path_that_is_not_utf8_opens(tmp_path: Path) -> None:
    import os

    directory = tmp_path / os.fsdecode(b"pkg-\xff")  # undecodable bytes, as a command line passes them
    directory.mkdir()
    path = directory / "model.onnx"
    path.write_bytes(build())
    assert check_graph(path, _manifest()) is None


def _graph(inputs: list[Any], outputs: list[Any], nodes: list[Any], inits: list[Any]) -> bytes:
    import onnx

    graph = onnx.helper.make_graph(nodes, "unusual", inputs, outputs, initializer=inits)
    model = onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", 13)], ir_version=8)
    data: bytes = model.SerializeToString()
    return data


def _unusual(kind: str) -> bytes:
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    weights = numpy_helper.from_array(np.ones((13, 1), np.float32), "w")
    const = numpy_helper.from_array(np.ones((1, 1), np.float32), "c")
    out = helper.make_tensor_value_info("output", TensorProto.FLOAT, ["batch", 1])
    matmul = helper.make_node("MatMul", ["input", "w"], ["output"])
    if kind == "zero inputs":
        return _graph([], [out], [helper.make_node("Identity", ["c"], ["output"])], [const])
    if kind == "string tensors":
        text = helper.make_tensor_value_info("input", TensorProto.STRING, ["batch", 13])
        return _graph([text], [helper.make_tensor_value_info("output", TensorProto.STRING, ["batch", 13])],
                      [helper.make_node("Identity", ["input"], ["output"])], [])
    shapes: dict[str, list[str | int | None] | None] = {
        "dim_value 0 batch": [0, 13], "symbolic width": ["batch", "F"], "unknown rank": None,
        "unnamed dims": [None, 13]}
    shape = shapes[kind]
    return _graph([helper.make_tensor_value_info("input", TensorProto.FLOAT, shape)], [out], [matmul], [weights])


@pytest.mark.parametrize(("kind", "message"), [
    ("zero inputs", "ONNX model must expose exactly one input named 'input'; found []"),
    ("string tensors", "input 'input' must have FLOAT dtype"),
    # The engine's rule: only a negative (symbolic or unknown) dimension is dynamic; 0 is a fixed 0.
    ("dim_value 0 batch", "input 'input' must have shape [batch,13] with a dynamic batch dimension; got [0,13]"),
    ("symbolic width", "input 'input' must have shape [batch,13] with a dynamic batch dimension; got [batch,batch]"),
    ("unknown rank", "input 'input' must have shape [batch,13] with a dynamic batch dimension; got []"),
    ("unnamed dims", None),
])
def test_graphs_with_unusual_metadata(tmp_path: Path, kind: str, message: str | None) -> None:
    path = tmp_path / "model.onnx"
    path.write_bytes(_unusual(kind))
    refusal = check_graph(path, _manifest())
    assert (None if refusal is None else refusal.message) == message
