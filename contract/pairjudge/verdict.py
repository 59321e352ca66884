"""The outcome of verifying a pairjudge bundle: a value, never an exception.

``ok`` with ``message`` None, or refused with the first failing check's ``code`` and ``message``;
``warnings`` either way (leniencies of the reference that the kit reports without changing its
verdict). ``stage`` says which table refused: ``arguments`` (the caller's options, a usage error
at the command line), ``manifest`` (``pairjudge.json``) or ``bundle`` (the files behind it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Stage = Literal["arguments", "manifest", "bundle"]


@dataclass(frozen=True)
class Verdict:
    ok: bool
    message: str | None
    warnings: tuple[str, ...] = ()
    code: str | None = None
    stage: Stage | None = None
    artifact_sha256: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` document: ``{"ok": bool, "message": str|null, "warnings": [...]}``."""
        return {"ok": self.ok, "message": self.message, "warnings": list(self.warnings)}
