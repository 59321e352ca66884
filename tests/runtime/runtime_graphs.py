"""Small ONNX graphs for tensor-contract tests: one knob per way a graph can disagree with a manifest."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

FLOAT = TensorProto.FLOAT
DOUBLE = TensorProto.DOUBLE

Dim = int | str | None


def build(
    *,
    input_name: str = "input",
    input_type: int = FLOAT,
    input_shape: Sequence[Dim] = ("batch", 13),
    output_name: str = "output",
    output_type: int = FLOAT,
    output_rank: int = 2,
    extra_inputs: Sequence[str] = (),
    extra_outputs: Sequence[str] = (),
    initializer_as_input: bool = False,
    sequence_input: bool = False,
) -> bytes:
    """``output = cast(input @ w)`` reshaped to ``output_rank``; every knob is one contract violation."""
    width = input_shape[-1] if isinstance(input_shape[-1], int) else 13
    np_in = helper.tensor_dtype_to_np_dtype(input_type)
    weights = numpy_helper.from_array(np.full((width, 1), 0.5, dtype=np_in), name="weights")
    axes = numpy_helper.from_array(np.array([1], dtype=np.int64), name="axes")
    inits = [weights, axes]
    nodes = [helper.make_node("MatMul", [input_name, "weights"], ["weighted"])]
    last = "weighted"
    if output_type != input_type:
        nodes.append(helper.make_node("Cast", [last], ["cast"], to=output_type))
        last = "cast"
    if output_rank == 1:
        nodes.append(helper.make_node("Squeeze", [last, "axes"], [output_name]))
    elif output_rank == 3:
        nodes.append(helper.make_node("Unsqueeze", [last, "axes"], [output_name]))
    else:
        nodes.append(helper.make_node("Identity", [last], [output_name]))
    for extra in extra_outputs:
        nodes.append(helper.make_node("Identity", [last], [extra]))
    if sequence_input:
        seq_type = helper.make_sequence_type_proto(helper.make_tensor_type_proto(FLOAT, [13]))
        inputs = [helper.make_value_info(input_name, seq_type)]
        nodes = [helper.make_node("Identity", ["weights"], [output_name])]
    else:
        inputs = [helper.make_tensor_value_info(input_name, input_type, list(input_shape))]
    inputs += [helper.make_tensor_value_info(name, FLOAT, ["batch", 3]) for name in extra_inputs]
    if initializer_as_input:
        inputs.append(helper.make_tensor_value_info("weights", input_type, [width, 1]))
    outputs = [helper.make_tensor_value_info(output_name, output_type, None)]
    outputs += [helper.make_tensor_value_info(name, output_type, None) for name in extra_outputs]
    graph = helper.make_graph(nodes, "contract-test", inputs, outputs, initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
    data: bytes = model.SerializeToString()
    return data


def inferred(data: bytes) -> bytes:
    """The same graph with output shapes filled in by ONNX shape inference."""
    inferred_data: bytes = onnx.shape_inference.infer_shapes(onnx.load_from_string(data)).SerializeToString()
    return inferred_data
