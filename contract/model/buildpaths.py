"""Build-path metadata in a graph: text that makes a model's digest depend on where it was built.

An exporter may write the machine's paths into a graph: PyTorch's ``torch.onnx.export(dynamo=True)``
writes the traced ``forward``'s absolute source path and line on every node
(``pkg.torch.onnx.stack_trace``). The graph computes the same thing wherever it was built, but its bytes,
and so ``modelSha256``, do not. The training repository strips that key after export so that a package's
digest is a function of the model alone (fortemate/dicechess-training ``prerank/export.py``
``ENVIRONMENT_METADATA``; ``tests/test_export_determinism.py`` asserts the artifact holds no path of the
machine that built it).

The kit does not rewrite a graph (its digest is the producer's), so this is a warning, never a refusal:
``validate`` and ``package build`` name every metadata key whose value holds an absolute path — model,
graph and node ``metadata_props`` (subgraphs and functions included) and their ``doc_string`` — with the
place, the number of nodes and the first path seen (check-table code ``tensor.graph.absolutePath``). An
absolute path is a POSIX ``/name...`` or a Windows ``C:\\`` / ``C:/`` / ``\\\\server`` path starting the
text or after a space, quote, bracket, ``=`` or ``,`` (so a URL's ``//host`` and ``a/b`` are not).
A graph the protobuf reader cannot parse gives no warning here: the reader's own checks refuse it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from contract.core.checktable import CONTRACT_TABLE
from contract.core.consoletext import console_text

ABSOLUTE_PATH: Final = re.compile(
    r"""(?:^|(?<=[\s"'(\[=,]))(/[^\s/"':]+|[A-Za-z]:[\\/][^\s"']*|\\\\[^\s\\"']+\\)[^\s"',)\]]*"""
)
SHOWN: Final = 120  # characters of a path shown in the warning


@dataclass(frozen=True)
class BuildPath:
    """One metadata key holding an absolute path: where, which key, how many places, the first path."""

    place: str  # "model", "graph 'main'", "node", "function 'f'"
    key: str
    count: int
    example: str

    def warning(self) -> str:
        example = self.example if len(self.example) <= SHOWN else self.example[:SHOWN] + "..."
        where = self.place if self.count == 1 else f"{self.place} ({self.count} of them)"
        return CONTRACT_TABLE.text("tensor.graph.absolutePath", where=where, key=console_text(self.key),
                                   path=console_text(example))


def _texts(holder: Any) -> Iterator[tuple[str, str]]:
    """(key, text) of a message's ``metadata_props`` entries and its ``doc_string``."""
    for entry in getattr(holder, "metadata_props", ()):
        yield entry.key, entry.value
    doc = getattr(holder, "doc_string", "")
    if doc:
        yield "doc_string", doc


def _graphs(graph: Any, label: str) -> Iterator[tuple[str, Any]]:
    """(place, message) of a graph, its nodes, and every subgraph below them."""
    yield label, graph
    for node in graph.node:
        yield "node", node
        for attribute in node.attribute:
            if attribute.HasField("g"):
                yield from _graphs(attribute.g, f"graph '{attribute.g.name}'")
            for sub in attribute.graphs:
                yield from _graphs(sub, f"graph '{sub.name}'")


def _places(model: Any) -> Iterator[tuple[str, Any]]:
    yield "model", model
    yield from _graphs(model.graph, f"graph '{model.graph.name}'")
    for function in model.functions:
        yield f"function '{function.name}'", function
        for node in function.node:
            yield "node", node


def build_paths(graph: bytes) -> list[BuildPath]:
    """Every (place, key) of the serialized model whose text holds an absolute path, in first-seen order."""
    from onnx import ModelProto

    try:
        model = ModelProto.FromString(graph)
    except Exception:  # protobuf's DecodeError (untyped): the reader's checks refuse such a graph
        return []
    found: dict[tuple[str, str], BuildPath] = {}
    for place, holder in _places(model):
        for key, text in _texts(holder):
            match = ABSOLUTE_PATH.search(text)
            if match is None:
                continue
            seen = found.get((place, key))
            found[(place, key)] = (BuildPath(place, key, 1, match.group(0)) if seen is None
                                   else BuildPath(place, key, seen.count + 1, seen.example))
    return list(found.values())


def build_path_warnings(graph: bytes) -> list[str]:
    """The warnings :func:`build_paths` gives, as text (without the ``WARNING: `` prefix)."""
    return [found.warning() for found in build_paths(graph)]


__all__ = ["ABSOLUTE_PATH", "BuildPath", "build_path_warnings", "build_paths"]
