"""The graphs of the recorded training-admission run (``recorded/training-admission.json``), rebuilt.

The same onnx-helper recipes the live run used, so the kit's answer is compared on the same bytes
(the test checks each graph's SHA-256 against the recorded ``modelSha256``).
"""

from __future__ import annotations

import numpy as np
from onnx import TensorProto, helper, numpy_helper

STACK_TRACE = 'File "/home/builder/dicechess-training/src/model.py", line 40, in forward'


def value_graph(width: int, *, opset: int = 13, names: tuple[str, str] = ("input", "output"),
                stack_trace: str | None = None, ir: int = 8) -> bytes:
    """``output = input @ 0.25`` for ``width`` columns, optionally with a node's stack-trace metadata."""
    weights = numpy_helper.from_array(np.full((width, 1), 0.25, dtype=np.float32), name="weights")
    node = helper.make_node("MatMul", [names[0], "weights"], [names[1]], name="matmul")
    if stack_trace is not None:
        entry = node.metadata_props.add()
        entry.key, entry.value = "pkg.torch.onnx.stack_trace", stack_trace
    graph = helper.make_graph(
        [node], "g", [helper.make_tensor_value_info(names[0], TensorProto.FLOAT, ["batch", width])],
        [helper.make_tensor_value_info(names[1], TensorProto.FLOAT, ["batch", 1])], initializer=[weights])
    data: bytes = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)],
                                    ir_version=ir).SerializeToString()
    return data


def odd_graph(kind: str) -> bytes:
    """A 13-wide graph ONNX Runtime serves that the training admission refuses: ``ml-only`` imports no
    default-domain opset, ``wrong-value-info`` declares an intermediate shape the checker's inference
    contradicts, ``short-initializer`` holds an unused initializer with fewer values than its shape."""
    weights = numpy_helper.from_array(np.full((13, 1), 0.5, np.float32), name="weights")
    value_info, inits, opsets = [], [weights], [helper.make_opsetid("", 13)]
    if kind == "ml-only":
        nodes = [helper.make_node("LinearRegressor", ["input"], ["output"], domain="ai.onnx.ml",
                                  coefficients=[0.1] * 13, targets=1)]
        inits, opsets = [], [helper.make_opsetid("ai.onnx.ml", 3)]
    elif kind == "wrong-value-info":
        nodes = [helper.make_node("MatMul", ["input", "weights"], ["mid"]),
                 helper.make_node("Identity", ["mid"], ["output"])]
        value_info = [helper.make_tensor_value_info("mid", TensorProto.FLOAT, ["batch", 7])]
    else:
        junk = helper.make_tensor("junk", TensorProto.FLOAT, [2], [1.0, 2.0])
        del junk.float_data[1:]
        nodes, inits = [helper.make_node("MatMul", ["input", "weights"], ["output"])], [weights, junk]
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["batch", 13])],
        [helper.make_tensor_value_info("output", TensorProto.FLOAT, ["batch", 1])],
        initializer=inits, value_info=value_info)
    data: bytes = helper.make_model(graph, opset_imports=opsets, ir_version=8).SerializeToString()
    return data


RECIPES = {
    "kcp13-generated-card": lambda: value_graph(13),
    "kcp13-without-card": lambda: value_graph(13),
    "kcp13-given-card": lambda: value_graph(13),
    "kcp13-renamed-tensors-1.1.0": lambda: value_graph(13, names=("features", "value")),
    "kcp13-stack-trace-path": lambda: value_graph(13, stack_trace=STACK_TRACE),
    "kcp-mobility-27": lambda: value_graph(27),
    "rich9-prerank": lambda: value_graph(9),
    "material7-value": lambda: value_graph(7),
    "kcp13-opset-19": lambda: value_graph(13, opset=19, ir=9),
    "kcp13-opset-18": lambda: value_graph(13, opset=18, ir=8),
    "kcp13-no-default-opset": lambda: odd_graph("ml-only"),
    "kcp13-checker-shape": lambda: odd_graph("wrong-value-info"),
    "kcp13-checker-initializer": lambda: odd_graph("short-initializer"),
}
GIVEN_CARD = "# A card the producer wrote\n\nTrained on synthetic rows.\n"
