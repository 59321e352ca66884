"""The ``--json`` documents the commands print: camelCase keys, an ``outputVersion``, one schema each.

Each command's document is described by ``schema/output-<command>-<outputVersion>.schema.json``; a
change that is not purely additive bumps :data:`OUTPUT_VERSION` and adds a new schema file.
"""

from __future__ import annotations

from typing import Any, Final

from contract.core.consoletext import console_json
from contract.core.refusal import Refusal

OUTPUT_VERSION: Final = 1


def document(fields: dict[str, Any]) -> str:
    """One JSON object: ``outputVersion`` first, then ``fields``."""
    return console_json({"outputVersion": OUTPUT_VERSION, **fields})


def refusal_fields(refusal: Refusal) -> dict[str, Any]:
    """``ok``, ``message``, the refusal's ``code`` and its ``field`` (a JSON pointer, or null)."""
    return {"ok": False, "message": refusal.message, "code": refusal.code, "field": refusal.field}


def print_document(fields: dict[str, Any]) -> None:
    print(document(fields))


__all__ = ["OUTPUT_VERSION", "document", "print_document", "refusal_fields"]
