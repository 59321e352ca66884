"""``golden/probes.tsv``: the probe list in the format the training repository's golden tool reads.

fortemate/dicechess-training keeps ``tests/fixtures/kcp13/probes.tsv`` next to its
``golden-engine-<version>.json`` files: a header line ``id<TAB>fen<TAB>tags<TAB>note``, then one probe
per line, tags separated by single spaces (none: an empty field), LF line endings and a final newline.
Its engine golden tool computes the vectors of exactly those probes, and its tests tie the newest golden
to that list. The kit writes the same file for every probe it ships (:func:`render`), so the kit's
corpus can stand in for that fixtures directory.

:func:`read` turns the text back into rows (``{"id", "fen", "tags": [...], "note"}``) for the corpus
schema ``schema/probes-tsv.schema.json``; what a JSON Schema cannot see (the line structure) it refuses
itself with :class:`ProbeTableError`, naming the line. A field that would need a tab, a newline or a
carriage return cannot be written (``ValueError``): the format has no escapes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from contract.core.errors import ContractError

COLUMNS: Final = ("id", "fen", "tags", "note")
HEADER: Final = "\t".join(COLUMNS)
_FORBIDDEN: Final = ("\t", "\n", "\r")


class ProbeTableError(ContractError, ValueError):
    """The text is not a probe table; the message names the line."""


def _field(probe_id: str, name: str, value: str) -> str:
    if any(character in value for character in _FORBIDDEN):
        raise ValueError(f"probe {probe_id}: its {name} holds a tab or a line break, which probes.tsv cannot hold")
    return value


def render(probes: Iterable[Mapping[str, Any]]) -> bytes:
    """The table of ``probes`` (each with ``id``, ``fen``, ``tags``, ``note``), in the given order."""
    lines = [HEADER]
    for probe in probes:
        probe_id = str(probe["id"])
        tags: Sequence[str] = probe["tags"]
        if any(" " in tag or not tag for tag in tags):
            raise ValueError(f"probe {probe_id}: a tag is empty or holds a space")
        fields = (probe_id, str(probe["fen"]), " ".join(tags), str(probe["note"]))
        lines.append("\t".join(_field(probe_id, name, value) for name, value in zip(COLUMNS, fields, strict=True)))
    return ("\n".join(lines) + "\n").encode("utf-8")


def read(data: bytes) -> dict[str, Any]:
    """``{"columns": [...], "rows": [...]}`` for the corpus schema, or :class:`ProbeTableError`."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProbeTableError(f"not UTF-8 text: {exc}") from None
    if "\r" in text:
        raise ProbeTableError("holds a carriage return: lines end with LF only")
    if not text.endswith("\n"):
        raise ProbeTableError("does not end with a newline")
    lines = text[:-1].split("\n")
    columns = lines[0].split("\t")
    rows = []
    for number, line in enumerate(lines[1:], start=2):
        fields = line.split("\t")
        if len(fields) != len(columns):
            raise ProbeTableError(f"line {number}: {len(fields)} tab-separated fields, the header has {len(columns)}")
        row: dict[str, Any] = dict(zip(columns, fields, strict=True))
        if "tags" in row:
            row["tags"] = row["tags"].split(" ") if row["tags"] else []
        rows.append(row)
    return {"columns": columns, "rows": rows}
