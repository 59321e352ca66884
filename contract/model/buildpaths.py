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
A graph the wire reader (:mod:`contract.model.onnxwire`) cannot take gives no warning here: the reader's own
checks refuse a graph that cannot be parsed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from contract.core.checktable import CONTRACT_TABLE
from contract.core.consoletext import console_text
from contract.core.record import Record
from contract.model.onnxwire import scan

ABSOLUTE_PATH: Final = re.compile(
    r"""(?:^|(?<=[\s"'(\[=,]))(/[^\s/"':]+|[A-Za-z]:[\\/][^\s"']*|\\\\[^\s\\"']+\\)[^\s"',)\]]*"""
)
SHOWN: Final = 120  # characters of a path shown in the warning


class BuildPath(Record):
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


# the messages whose texts are looked at, and how a place is named (node texts count together, as "node")
_PLACES: Final[dict[str, Callable[[str], str]]] = {
    "ModelProto": lambda name: "model", "GraphProto": lambda name: f"graph '{name}'",
    "NodeProto": lambda name: "node", "FunctionProto": lambda name: f"function '{name}'",
}


def build_paths(graph: bytes) -> list[BuildPath]:
    """Every (place, key) of the serialized model whose text holds an absolute path, in first-seen order.

    The texts are read at the wire level (:mod:`contract.model.onnxwire`, no ``onnx`` import). Bytes the wire
    reader gives way on give no warning: they are left to the self-containment check and ONNX Runtime, which
    refuse a graph they cannot parse.
    """
    scanned = scan(graph)
    found: dict[tuple[str, str], BuildPath] = {}
    for message, name, key, text in ((t.message, t.name, t.key, t.value) for t in (scanned.texts if scanned else [])):
        naming = _PLACES.get(message)
        match = None if naming is None else ABSOLUTE_PATH.search(text)
        if naming is None or match is None:
            continue
        place = naming(name)
        seen = found.get((place, key))
        found[(place, key)] = (BuildPath(place, key, 1, match.group(0)) if seen is None
                               else BuildPath(place, key, seen.count + 1, seen.example))
    return list(found.values())


def build_path_warnings(graph: bytes) -> list[str]:
    """The warnings :func:`build_paths` gives, as text (without the ``WARNING: `` prefix)."""
    return [found.warning() for found in build_paths(graph)]


__all__ = ["ABSOLUTE_PATH", "BuildPath", "build_path_warnings", "build_paths"]
