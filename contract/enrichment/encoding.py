"""One chunk in, its output rows and its rejects out: the step every ``extract`` mode shares.

A chunk comes from JSONL (numbered lines, or rows already built, as ``--fen`` builds its one row)
or from Parquet (an Arrow table); its accepted rows go out as JSONL bytes (the lines ``extract``
prints) or as an Arrow table (a Parquet row group). All four pairs go through here, so
``--fen``, stdin to stdout, file to file, ``--jobs N`` and a resumed run apply the same row rules
(:func:`contract.features.rows.extract_rows`, through :mod:`contract.enrichment.rows`) and write the
same bytes for the same rows; the Dask example applies the same rules through ``enrich_table``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from contract.enrichment import jsonl, parquet
from contract.features.rows import RowResult

Reject = tuple[Any, int, str]  # (id, 1-based line or row number, error)


@dataclass(frozen=True)
class Encoded:
    """A chunk's accepted rows (``bytes`` for JSONL output, a ``pyarrow.Table`` for Parquet) and rejects."""

    rows: Any
    accepted: int
    rejects: list[Reject]


def encode_rows(schema_id: str, numbered_rows: list[tuple[int, Any]], out_fmt: str, target: Any) -> Encoded:
    """Rows (dicts, or :class:`~contract.features.rows.BadRow`) with their line numbers."""
    numbered = jsonl.numbered_results(schema_id, numbered_rows)
    if out_fmt != "jsonl":  # a Parquet string column holds UTF-8 only; JSONL output escapes the id instead
        numbered = [(number, _unicode_id(result)) for number, result in numbered]
    rejects = [(result.id, number, result.error) for number, result in numbered if result.error is not None]
    accepted = [(number, result) for number, result in numbered if result.error is None]
    if out_fmt == "jsonl":
        return Encoded(jsonl.encode_results(schema_id, accepted).rows, len(accepted), rejects)
    table = parquet.results_table(schema_id, [result for _, result in accepted], target)
    return Encoded(table, len(accepted), rejects)


NOT_UNICODE_ID = "id is not valid Unicode (it holds a lone surrogate, e.g. from a \\ud800 escape)"


def _unicode_id(result: RowResult) -> RowResult:
    """``result``, or a refusal when its id is text that has no UTF-8 form (a lone surrogate)."""
    if result.error is None and isinstance(result.id, str):
        try:
            result.id.encode("utf-8")
        except UnicodeEncodeError:
            return RowResult(result.index, result.id, None, NOT_UNICODE_ID)
    return result


def encode(schema_id: str, in_fmt: str, out_fmt: str, payload: Any, *, first_line: int, target: Any) -> Encoded:
    """Enrich one chunk: ``payload`` is a list of numbered JSONL lines, or an Arrow table whose first
    row is row ``first_line`` of its file."""
    if in_fmt == "jsonl":
        return encode_rows(schema_id, jsonl.decode_chunk(payload), out_fmt, target)
    accepted, rejects = parquet.encode_chunk(schema_id, payload, first_line)
    if out_fmt == "jsonl":
        return Encoded(parquet.table_lines(schema_id, accepted), accepted.num_rows, rejects)
    return Encoded(parquet.conform(accepted, target), accepted.num_rows, rejects)


def rejects_text(rejects: list[Reject]) -> str:
    return "".join(jsonl.reject_line(row_id, line, error) for row_id, line, error in rejects)
