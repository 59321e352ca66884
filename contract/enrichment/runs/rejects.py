"""The rejects file: one JSON line per refused row, ``{"id": …, "line": …, "error": …}``, in input order.

Whatever the output's format, refused rows go here (``OUTPUT.rejects.jsonl`` unless ``--rejects``): ``line``
is the 1-based line number of a JSONL input or the 1-based row number of a Parquet one, ``id`` is ``null``
when the row had no usable id. The file is always written, empty when nothing failed, so a stale one never
survives a later run.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from contract.enrichment.format import Reject

SUFFIX = ".rejects.jsonl"


def default_path(output: Path) -> Path:
    """Where an output's rejects go unless told: ``OUTPUT.rejects.jsonl``."""
    return output.with_name(output.name + SUFFIX)


def reject_line(row_id: object, line: int, error: str) -> str:
    """One line of a rejects file: ``{"id": …, "line": …, "error": …}`` (compact, UTF-8).

    Text that cannot be UTF-8 (a lone surrogate, from a ``\\ud800`` escape in the input) is written
    as a JSON escape instead, so the line is always valid UTF-8 JSON."""
    kept_id = row_id if isinstance(row_id, str | int) and not isinstance(row_id, bool) else None
    record = {"id": kept_id, "line": line, "error": error}
    text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(record, ensure_ascii=True, separators=(",", ":"))
    return text + "\n"


def rejects_text(rejects: Sequence[Reject]) -> str:
    return "".join(reject_line(row_id, line, error) for row_id, line, error in rejects)
