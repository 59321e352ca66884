"""An ONNX model read at the protobuf wire level: every tensor's storage and every metadata text, without ``onnx``.

Checking a graph before ONNX Runtime sees it needs two facts the runtime does not expose: whether any tensor keeps
its data in an external file (:mod:`contract.model.externaldata`), and which metadata texts (``metadata_props``,
``doc_string``) a graph carries. ``import onnx`` costs most of a second (its ``ml_dtypes`` extension alone), which
every ``validate`` paid; this module answers both from the serialized bytes in a few milliseconds.

It knows ONNX's messages by field number (:data:`MESSAGES`, the message-typed fields of ``onnx.proto`` from
``ModelProto`` down); every other field is skipped by its wire type. ``tests/runtime/test_runtime_onnxwire.py``
compares the table with the installed ``onnx``'s descriptors, so a field a later ONNX adds fails the suite instead
of going unwalked, and compares the scan with the protobuf reader's on mutated models.

Bytes this reader cannot take (truncated, a bad varint, a group, nesting deeper than :data:`MAX_DEPTH`) give
``None``: the caller then asks the protobuf reader itself for its verdict and its words, so a graph that cannot
be parsed is refused with the message it always had, and the slow import is paid only for such a graph.

>>> scan(b"\\x3a\\x00").external is None  # a model whose graph is empty
True
>>> scan(b"\\xff\\xff not a protobuf") is None
True
"""

from __future__ import annotations

from typing import Final

from contract.core.record import Record, attribute

MAX_DEPTH: Final = 100  # the protobuf reader's default recursion limit

# message -> {field number: (field name, message type)} for every message-typed field, as onnx.proto defines them
MESSAGES: Final[dict[str, dict[int, tuple[str, str]]]] = {
    "ModelProto": {8: ("opset_import", "OperatorSetIdProto"), 7: ("graph", "GraphProto"),
                   14: ("metadata_props", "StringStringEntryProto"), 20: ("training_info", "TrainingInfoProto"),
                   25: ("functions", "FunctionProto"), 26: ("configuration", "DeviceConfigurationProto")},
    "GraphProto": {1: ("node", "NodeProto"), 5: ("initializer", "TensorProto"),
                   15: ("sparse_initializer", "SparseTensorProto"), 11: ("input", "ValueInfoProto"),
                   12: ("output", "ValueInfoProto"), 13: ("value_info", "ValueInfoProto"),
                   14: ("quantization_annotation", "TensorAnnotation"),
                   16: ("metadata_props", "StringStringEntryProto")},
    "NodeProto": {5: ("attribute", "AttributeProto"), 9: ("metadata_props", "StringStringEntryProto"),
                  10: ("device_configurations", "NodeDeviceConfigurationProto")},
    "AttributeProto": {5: ("t", "TensorProto"), 6: ("g", "GraphProto"), 22: ("sparse_tensor", "SparseTensorProto"),
                       14: ("tp", "TypeProto"), 10: ("tensors", "TensorProto"), 11: ("graphs", "GraphProto"),
                       23: ("sparse_tensors", "SparseTensorProto"), 15: ("type_protos", "TypeProto")},
    "FunctionProto": {11: ("attribute_proto", "AttributeProto"), 7: ("node", "NodeProto"),
                      9: ("opset_import", "OperatorSetIdProto"), 12: ("value_info", "ValueInfoProto"),
                      14: ("metadata_props", "StringStringEntryProto")},
    "TensorProto": {3: ("segment", "TensorProto.Segment"), 13: ("external_data", "StringStringEntryProto"),
                    16: ("metadata_props", "StringStringEntryProto")},
    "SparseTensorProto": {1: ("values", "TensorProto"), 2: ("indices", "TensorProto")},
    "TrainingInfoProto": {1: ("initialization", "GraphProto"), 2: ("algorithm", "GraphProto"),
                          3: ("initialization_binding", "StringStringEntryProto"),
                          4: ("update_binding", "StringStringEntryProto")},
    "ValueInfoProto": {2: ("type", "TypeProto"), 4: ("metadata_props", "StringStringEntryProto")},
    "TypeProto": {1: ("tensor_type", "TypeProto.Tensor"), 4: ("sequence_type", "TypeProto.Sequence"),
                  5: ("map_type", "TypeProto.Map"), 9: ("optional_type", "TypeProto.Optional"),
                  8: ("sparse_tensor_type", "TypeProto.SparseTensor"), 7: ("opaque_type", "TypeProto.Opaque")},
    "TypeProto.Tensor": {2: ("shape", "TensorShapeProto")},
    "TypeProto.SparseTensor": {2: ("shape", "TensorShapeProto")},
    "TypeProto.Sequence": {1: ("elem_type", "TypeProto")},
    "TypeProto.Optional": {1: ("elem_type", "TypeProto")},
    "TypeProto.Map": {2: ("value_type", "TypeProto")},
    "TypeProto.Opaque": {},
    "TensorShapeProto": {1: ("dim", "TensorShapeProto.Dimension")},
    "TensorShapeProto.Dimension": {},
    "TensorAnnotation": {2: ("quant_parameter_tensor_names", "StringStringEntryProto")},
    "NodeDeviceConfigurationProto": {2: ("sharding_spec", "ShardingSpecProto")},
    "ShardingSpecProto": {3: ("index_to_device_group_map", "IntIntListEntryProto"),
                          4: ("sharded_dim", "ShardedDimProto")},
    "ShardedDimProto": {2: ("simple_sharding", "SimpleShardedDimProto")},
    "SimpleShardedDimProto": {},
    "IntIntListEntryProto": {},
    "DeviceConfigurationProto": {},
    "OperatorSetIdProto": {},
    "StringStringEntryProto": {},
    "TensorProto.Segment": {},
}

# the text fields read: message -> {field number: field name}
_NAME_FIELDS: Final = {"GraphProto": 2, "NodeProto": 3, "TensorProto": 8, "ValueInfoProto": 1, "FunctionProto": 1,
                       "AttributeProto": 1}
_DOC_STRING: Final = {"ModelProto": 6, "GraphProto": 10, "NodeProto": 6, "TensorProto": 12, "ValueInfoProto": 3,
                      "FunctionProto": 8, "AttributeProto": 13}
_TENSOR_DATA_LOCATION: Final = 14
_TENSOR_EXTERNAL_DATA: Final = 13
_EXTERNAL: Final = 1


class MetadataText(Record):
    """One metadata text of the graph: the message holding it (``NodeProto``, its name), where that message is
    (``graph 'main' node 'n1'``), the key (a ``metadata_props`` key, or ``doc_string``) and the text."""

    message: str
    name: str
    where: str
    key: str
    value: str
    offset: int  # where the holding message starts in the bytes: texts sort in document order


class WireScan(Record, frozen=False):
    """What the scan found: the first tensor keeping external data, and every metadata text."""

    external: str | None = None
    texts: list[MetadataText] = attribute(default_factory=list)


class _Malformed(Exception):
    pass


def _varint(data: bytes, at: int, end: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if at >= end or shift > 63:
            raise _Malformed
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7


def _fields(data: bytes, start: int, end: int) -> list[tuple[int, int, int, int]]:
    """(field number, wire type, value or payload start, payload end) for each field in ``data[start:end]``."""
    found: list[tuple[int, int, int, int]] = []
    at = start
    while at < end:
        key, at = _varint(data, at, end)
        number, wire = key >> 3, key & 7
        if number == 0:
            raise _Malformed
        if wire == 0:
            value, at = _varint(data, at, end)
            found.append((number, wire, value, at))
        elif wire in {1, 5}:
            width = 8 if wire == 1 else 4
            if at + width > end:
                raise _Malformed
            found.append((number, wire, at, at + width))
            at += width
        elif wire == 2:
            length, at = _varint(data, at, end)
            if at + length > end:
                raise _Malformed
            found.append((number, wire, at, at + length))
            at += length
        else:  # groups (3, 4) are not part of onnx.proto; 6 and 7 are no wire type
            raise _Malformed
    return found


def _text(data: bytes, start: int, end: int) -> str:
    return data[start:end].decode("utf-8", errors="replace")


def _entry(data: bytes, start: int, end: int) -> tuple[str, str]:
    key = value = ""
    for number, wire, first, last in _fields(data, start, end):
        if wire == 2 and number == 1:
            key = _text(data, first, last)
        elif wire == 2 and number == 2:
            value = _text(data, first, last)
    return key, value


def _walk(data: bytes, found: WireScan) -> None:
    """Every message from ``ModelProto`` down, in the order the protobuf walk of :mod:`externaldata` took: a stack,
    each message's fields pushed in field-number order, the last pushed visited first."""
    pending: list[tuple[str, int, int, str, int]] = [("ModelProto", 0, len(data), "", 0)]
    while pending:
        message, start, end, where, depth = pending.pop()
        if depth > MAX_DEPTH:
            raise _Malformed
        fields = sorted(_fields(data, start, end), key=lambda item: item[0])
        name = ""
        name_field = _NAME_FIELDS.get(message)
        if name_field is not None:
            for number, wire, first, last in fields:
                if number == name_field and wire == 2:
                    name = _text(data, first, last)
        label = message.removesuffix("Proto").lower()
        here = f"{where} {label} '{name}'".strip() if name_field is not None else (where or label)
        if message == "TensorProto" and found.external is None and any(
                (number == _TENSOR_DATA_LOCATION and wire == 0 and first == _EXTERNAL)
                or (number == _TENSOR_EXTERNAL_DATA and wire == 2) for number, wire, first, _ in fields):
            found.external = name
        doc_field = _DOC_STRING.get(message)
        children = MESSAGES[message]
        for number, wire, first, last in fields:
            if wire != 2:
                continue
            if number == doc_field:
                found.texts.append(MetadataText(message, name, here, "doc_string", _text(data, first, last), start))
                continue
            child = children.get(number)
            if child is None:
                continue
            field_name, child_type = child
            if child_type == "StringStringEntryProto":
                key, value = _entry(data, first, last)
                if field_name == "metadata_props":
                    found.texts.append(MetadataText(message, name, here, key, value, start))
                continue
            pending.append((child_type, first, last, "" if message == "ModelProto" else here, depth + 1))


def scan(graph: bytes) -> WireScan | None:
    """The external-data tensor and metadata texts of a serialized ``ModelProto``; ``None`` if this reader cannot
    take the bytes (the caller asks the protobuf reader)."""
    found = WireScan()
    try:
        _walk(graph, found)
    except (_Malformed, RecursionError):
        return None
    found.texts.sort(key=lambda text: text.offset)
    return found


__all__ = ["MAX_DEPTH", "MESSAGES", "MetadataText", "WireScan", "scan"]
