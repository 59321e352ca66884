"""A refusal as a value: what every contract check returns instead of raising on a bad artifact.

A refusal names the check that failed by its stable ``code`` (``schema/check-table.json``) and, where
the check concerns one field of a contract file, that field as a JSON pointer.

>>> r = refusal("manifest.field.notString", name="modelId")
>>> (r.message, r.code, r.field)
("field 'modelId' must be a string", 'manifest.field.notString', '/modelId')
>>> r.prefixed("pkg/manifest.json").message
"pkg/manifest.json: field 'modelId' must be a string"
"""

from __future__ import annotations

from contract.core.checktable import render, render_pointer, table_entry
from contract.core.record import Record


class Refusal(Record):
    """Why something was not accepted. ``message`` is the exact text a user sees."""

    message: str
    code: str | None = None
    field: str | None = None

    @property
    def ok(self) -> bool:
        return False

    def prefixed(self, prefix: str) -> Refusal:
        return Refusal(f"{prefix}: {self.message}", self.code, self.field)

    def as_json(self) -> dict[str, str | None]:
        """The refusal as a JSON object: message, code and field."""
        return {"message": self.message, "code": self.code, "field": self.field}


def refusal(code: str, /, **fields: object) -> Refusal:
    """The refusal of the table's check ``code``, its message and field filled in from ``fields``."""
    entry = table_entry(code)
    pointer = None if entry.field is None else render_pointer(entry.field, fields)
    return Refusal(render(entry.message, fields), code, pointer)
