"""Self-containment of a graph: no tensor of ``model.onnx`` may keep its data in another file.

The manifest's one digest covers ``model.onnx`` alone. ONNX lets a tensor say "my bytes are in
``weights.bin``" (``data_location = EXTERNAL`` with a ``location`` entry); ONNX Runtime then reads that
file when the session opens — relative to the model's directory when given a path, and relative to
the *working directory* when given bytes (observed with onnxruntime 1.32). Either way a file the digest
never saw would be served, so such a graph is refused before ONNX Runtime sees it.

The walk covers every tensor the protobuf holds, wherever it sits (initializers, sparse initializers,
``Constant`` attributes, subgraphs, functions, training info). It runs on the wire
(:mod:`contract.model.onnxwire`, whose table of ONNX's message fields a test compares with the installed
``onnx``, so a place a later ONNX version adds fails the suite rather than going unwalked); bytes the wire
reader cannot take are handed to the protobuf reader (``onnx``, imported only then), whose generic walk
descends into every message field and whose words refuse a graph it cannot parse.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from contract.core.refusal import Refusal, refusal
from contract.model.onnxwire import scan

if TYPE_CHECKING:  # onnx is imported when a graph is checked: importing it costs ~1 s, and every command
    from onnx import ModelProto, TensorProto  # would pay it (the CLI imports each command's module)


def _tensors(root: ModelProto) -> Iterator[TensorProto]:
    from onnx import TensorProto

    pending: list[Any] = [root]  # protobuf messages
    while pending:
        current = pending.pop()
        if isinstance(current, TensorProto):
            yield current
            continue
        for descriptor, value in current.ListFields():
            if descriptor.message_type is None:
                continue
            if hasattr(value, "ListFields"):  # one message; otherwise a repeated field of them
                pending.append(value)
            else:
                pending.extend(value)


def external_data_refusal(graph: bytes) -> Refusal | None:
    """``None`` when every tensor of the serialized model holds its own data; otherwise why not.

    A model the protobuf reader cannot parse is refused here too (fail closed): nothing is handed to
    ONNX Runtime that was not inspected.
    """
    scanned = scan(graph)
    if scanned is not None:
        return None if scanned.external is None else refusal("tensor.graph.external", name=scanned.external)
    from onnx import ModelProto, TensorProto

    try:
        model = ModelProto.FromString(graph)
    except Exception as exc:  # protobuf's DecodeError (untyped), or a nesting too deep for the parser
        return refusal("tensor.graph.unreadable", reason=str(exc).strip() or exc.__class__.__name__)
    for tensor in _tensors(model):
        if tensor.data_location == TensorProto.EXTERNAL or len(tensor.external_data) > 0:
            return refusal("tensor.graph.external", name=tensor.name)
    return None
