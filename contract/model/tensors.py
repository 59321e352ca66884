"""The session-time tensor contract (spec/contract.md §5.1): the graph and its manifest must agree.

Checked on the ONNX Runtime session's own metadata, in the engine's order, first failure wins:
exactly one input named ``inputName`` → exactly one output named ``outputName`` → input dtype FLOAT →
input shape ``[batch,F]`` → output dtype FLOAT → output shape ``[batch,1]``. The batch dimension must
be dynamic: a fixed batch, even 1, is refused (the search scores whole chance nodes in one call).
Initializers that an older exporter also listed as graph inputs are not inputs (the runtime does not
report them). Shapes render as the engine renders them: ``[batch,13]``, ``[1,13]``, ``[batch]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final, Protocol

from contract.core.oserrors import os_error_reason
from contract.core.refusal import Refusal, refusal
from contract.model.externaldata import external_data_refusal
from contract.model.manifest import Manifest
from contract.model.package import ModelTooLarge, read_model

FLOAT_TENSOR: Final = "tensor(float)"
DYNAMIC: Final = "batch"


class NodeInfo(Protocol):
    """The part of ``onnxruntime.NodeArg`` the contract reads."""

    @property
    def name(self) -> str: ...

    @property
    def type(self) -> str: ...

    @property
    def shape(self) -> Any: ...


class SessionLike(Protocol):
    def get_inputs(self) -> Sequence[NodeInfo]: ...

    def get_outputs(self) -> Sequence[NodeInfo]: ...


def _is_dynamic(dim: object) -> bool:
    return dim is None or isinstance(dim, str) or (isinstance(dim, int) and dim < 0)


def render_shape(shape: Sequence[object] | None) -> str:
    dims = shape or []
    return "[" + ",".join(DYNAMIC if _is_dynamic(d) else str(d) for d in dims) + "]"


def _jvm_order(name: str) -> bytes:
    """Sort key of the JVM's ``String.compareTo``: UTF-16 code units, not code points.

    The two differ only for characters above U+FFFF, which sort before U+E000-U+FFFF on the JVM.
    """
    return name.encode("utf-16-be", "surrogatepass")


def _single(kind: str, nodes: Sequence[NodeInfo], expected: str) -> NodeInfo | Refusal:
    names = [n.name for n in nodes]
    if len(nodes) != 1 or names[0] != expected:
        found = ", ".join(sorted(names, key=_jvm_order))
        return refusal(f"tensor.{kind}.names", expected=expected, found=found)
    return nodes[0]


def _dtype(kind: str, node: NodeInfo) -> Refusal | None:
    if not node.type.startswith("tensor("):
        return refusal(f"tensor.{kind}.notTensor", name=node.name, type=node.type)
    if node.type != FLOAT_TENSOR:
        return refusal(f"tensor.{kind}.dtype", name=node.name)
    return None


def _shape(kind: str, node: NodeInfo, width: int) -> Refusal | None:
    shape = list(node.shape or [])
    if len(shape) == 2 and _is_dynamic(shape[0]) and shape[1] == width:
        return None
    return refusal(f"tensor.{kind}.shape", name=node.name, width=width, shape=render_shape(shape))


def check_session(session: SessionLike, manifest: Manifest) -> Refusal | None:
    """The contract on an open session; ``None`` when the graph serves the manifest."""
    try:
        inputs, outputs = list(session.get_inputs()), list(session.get_outputs())
    except Exception as exc:  # the runtime's own failure, reported rather than raised
        return refusal("tensor.graph.unreadable", reason=exc)
    source = _single("input", inputs, manifest.input_name)
    if isinstance(source, Refusal):
        return source
    sink = _single("output", outputs, manifest.output_name)
    if isinstance(sink, Refusal):
        return sink
    return (
        _dtype("input", source)
        or _shape("input", source, manifest.feature_count)
        or _dtype("output", sink)
        or _shape("output", sink, 1)
    )


def read_graph(model_path: Path) -> bytes:
    """The graph's bytes, read once from a regular file of at most protobuf's 2 GiB (raises OSError, or
    :class:`~contract.model.package.ModelTooLarge` unread beyond it; never blocks on a FIFO)."""
    return read_model(model_path)


def open_session(graph: bytes) -> Any | Refusal:
    """An ONNX Runtime CPU session built from ``graph``'s bytes, or why none is opened.

    Always from bytes, never by path: the bytes inspected (and digested, for a package) are the bytes
    served, and a path's file could change in between. A graph that keeps tensor data in another file
    is refused before ONNX Runtime sees it (:mod:`contract.model.externaldata`): given bytes, ONNX
    Runtime would resolve such a file against the working directory.
    """
    problem = external_data_refusal(graph)
    if problem is not None:
        return problem
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.log_severity_level = 3
    try:
        return onnxruntime.InferenceSession(graph, sess_options=options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own exception types for bad graphs
        return refusal("tensor.graph.unreadable", reason=runtime_message(exc))


def check_graph(model: Path | bytes, manifest: Manifest) -> Refusal | None:
    """Open the graph (a path, read once, or its bytes) and run the contract; ``None`` when it serves."""
    if isinstance(model, bytes):
        graph = model
    else:
        try:
            graph = read_graph(model)
        except ModelTooLarge as exc:
            return exc.refusal()
        except OSError as exc:
            return refusal("tensor.graph.unreadable", reason=os_error_reason(exc))
    session = open_session(graph)
    if isinstance(session, Refusal):
        return session
    try:
        return check_session(session, manifest)
    finally:
        del session


def runtime_message(exc: BaseException) -> str:
    text = str(exc).strip() or exc.__class__.__name__
    return text.splitlines()[0]
