"""Row-level extraction: ``{id, fen, side?}`` in, one result per row out, refusals kept beside the rows.

:func:`extract_rows` is the single place the CLI (and bulk tools built on it) turn input rows into
feature vectors, so every front end refuses the same rows with the same messages. A bad row never stops
the rows after it: it comes back as a :class:`RowResult` with ``error`` set — and so does a row on which
an extractor raises something other than :class:`FenError` (a bug, reported as ``extraction failed:
<type>: <message>`` rather than ending the run). Values quoted in messages are shortened past
:data:`contract.features.dfen.QUOTE_LIMIT` characters.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from json.encoder import encode_basestring_ascii
from typing import Any, cast

import numpy as np

from contract.core.floattext import float32_text_rows
from contract.features import backend
from contract.features.dfen import FenError, parse_fen, quote, side_from_text
from contract.features.extractors import ResolvedSchema, extract_under
from contract.features.extractors import as_resolved as _resolved
from contract.features.rules import RuleSet

_REASON_LIMIT = 200  # characters of an unexpected exception's text kept in its row's error
CHUNK_ROWS = 1024  # rows per native call in extract_rows (a chunk is read before its first result)


@dataclass(frozen=True)
class BadRow:
    """An input row that could not even be read (e.g. a JSONL line that is not JSON)."""

    reason: str
    id: Any = None


@dataclass(frozen=True)
class RowResult:
    index: int  # 0-based position of the row in the input
    id: Any
    features: np.ndarray | None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def _row_error(row: object) -> tuple[Any, str | None, str | None, str | None]:
    """(id, fen, side, error) of one input row."""
    if type(row) is dict:  # the usual row, read from JSON: a plain one is answered with look-ups only
        row_id, fen, side = row.get("id"), row.get("fen"), row.get("side")
        if ((type(row_id) is str or type(row_id) is int) and type(fen) is str
                and (side is None or (type(side) is str and side in ("w", "b")))):
            return row_id, fen, side, None
    if isinstance(row, BadRow):
        return row.id, None, None, row.reason
    if not isinstance(row, Mapping):
        return None, None, None, f"row is not an object: {quote(row)}"
    row_id = row.get("id")
    if "id" not in row or row_id is None:
        return None, None, None, "row has no 'id'"
    if not isinstance(row_id, (str, int)) or isinstance(row_id, bool):
        return row_id, None, None, f"'id' must be a string or an integer, not {quote(row_id)}"
    fen = row.get("fen")
    if fen is None:
        return row_id, None, None, "row has no 'fen' string"
    if not isinstance(fen, str):
        return row_id, None, None, f"'fen' must be a string, not {quote(fen)}"
    side = row.get("side")
    if side is not None and (not isinstance(side, str) or side not in ("w", "b")):
        return row_id, None, None, f"bad side {quote(side)}: expected 'w' or 'b'"
    return row_id, fen, side, None


def _python_row(schema: str | ResolvedSchema, index: int, row_id: Any, fen: str, side: str | None, *,
                rules: RuleSet | None = None) -> RowResult:
    """One checked row through the Python reference (every refusal message comes from here)."""
    try:
        position = parse_fen(fen)
        color = position.turn if side is None else side_from_text(side)
        vector = extract_under(schema, position, color, rules)
    except FenError as exc:
        return RowResult(index, row_id, None, str(exc))
    except Exception as exc:  # an extractor bug must not take the rows after it down
        reason = str(exc) if len(str(exc)) <= _REASON_LIMIT else str(exc)[:_REASON_LIMIT] + "…"
        return RowResult(index, row_id, None, f"extraction failed: {type(exc).__name__}: {reason}")
    if not np.all(np.isfinite(vector)):  # cannot happen for a parsed FEN; refuse rather than emit
        return RowResult(index, row_id, None, "extractor produced a non-finite value")
    return RowResult(index, row_id, vector)


Checked = tuple[Any, str | None, str | None, str | None]  # (id, fen, side, error) of a row: _row_error


def _native_call(accelerator: backend.Backend, code: int, width: int,
                 checked: Sequence[Checked]) -> tuple[np.ndarray, list[int]]:
    """One native call for the checked rows that have a FEN: their ``[n, width]`` matrix and, per row, 1
    where the accelerator leaves the row to the reference (all of them on an accelerator fault)."""
    wanted = [(fen, side) for _id, fen, side, error in checked if error is None and fen is not None]
    try:
        matrix, status = backend.fens(accelerator, code, [fen for fen, _side in wanted],
                                      bytes([ord(side or "-") for _fen, side in wanted]))
        return matrix, status.tolist()
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException:  # an accelerator fault (a Rust panic is a BaseException): the reference takes the rows
        return np.zeros((len(wanted), width), dtype=np.float32), [1] * len(wanted)


def _native_chunk(resolved: ResolvedSchema, accelerator: backend.Backend, code: int,
                  chunk: list[tuple[int, object]]) -> Iterator[RowResult]:
    """The rows of one chunk: the checked ones parsed and extracted in one native call; a row the
    accelerator leaves (a FEN it does not parse, which the reference then refuses with its message,
    or a text that is not ASCII) goes through :func:`_python_row`."""
    checked = [_row_error(row) for _index, row in chunk]
    matrix, leave = _native_call(accelerator, code, resolved.width, checked)
    row = 0  # the next row of matrix: wanted rows come in chunk order
    for (index, _row), (row_id, fen, side, error) in zip(chunk, checked, strict=True):
        if error is not None or fen is None:
            yield RowResult(index, row_id, None, error)
            continue
        yield (_python_row(resolved, index, row_id, fen, side) if leave[row]
               else RowResult(index, row_id, matrix[row]))
        row += 1


def _native_code(accelerator: backend.Backend, schema_id: str, rules: RuleSet | None) -> int | None:
    """The accelerator's code for ``schema_id``, or ``None`` when the rows go row by row through the Python
    path: the accelerator lacks the schema, or ``rules`` are not the set it implements (then each row is
    extracted by :func:`~contract.features.extractors.extract_under`, which still hands the accelerator a
    position whose vector the rules do not change)."""
    if rules is not None and not rules.native:
        return None
    return accelerator.code(schema_id)


def extract_matrix(schema_id: str | ResolvedSchema, rows: Sequence[object], *,
                   rules: RuleSet | None = None) -> tuple[np.ndarray, list[str | None], list[Any]]:
    """:func:`extract_rows` over ``rows`` as one float32 ``[n, width]`` matrix (the rows of refused entries are
    zero), the error of each row (``None`` when it was accepted) and the id each row's checks read: the same
    values and messages, without a result object per row (the bulk paths' form). ``rules``: the rule set
    of the engine release whose answer is wanted (``None``: the kit's default release). ``schema_id`` may be a
    :class:`~contract.features.extractors.ResolvedSchema` (the run's, resolved once; then ``rules`` default to
    its own)."""
    resolved = _resolved(schema_id, rules)
    schema_id, width, rules = resolved.id, resolved.width, resolved.rules
    accelerator = backend.active()
    code = _native_code(accelerator, schema_id, rules)
    vectors = np.zeros((len(rows), width), dtype=np.float32)
    if code is None:
        errors: list[str | None] = []
        ids: list[Any] = []
        for result in extract_rows(resolved, rows):
            if result.features is not None:
                vectors[result.index] = result.features
            errors.append(result.error)
            ids.append(result.id)
        return vectors, errors, ids
    checked = [_row_error(row) for row in rows]
    errors = [error for _id, _fen, _side, error in checked]
    ids = [row_id for row_id, _fen, _side, _error in checked]
    for start in range(0, len(checked), CHUNK_ROWS):
        part = checked[start:start + CHUNK_ROWS]
        matrix, leave = _native_call(accelerator, code, width, part)
        placed = [start + k for k, (_id, fen, _side, error) in enumerate(part) if error is None and fen is not None]
        vectors[placed] = matrix
        for row, index in enumerate(placed):
            if leave[row]:
                row_id, fen, side, _error = checked[index]
                result = _python_row(resolved, index, row_id, cast(str, fen), side)
                vectors[index] = 0.0 if result.features is None else result.features
                errors[index] = result.error
    return vectors, errors, ids


def extract_rows(schema_id: str | ResolvedSchema, rows: Iterable[object], *,
                 rules: RuleSet | None = None) -> Iterator[RowResult]:
    """Extract ``schema_id`` for each row (``{"id", "fen", "side"?}``); side defaults to the FEN's.

    An unknown schema raises at once (before any row is read); a bad row yields a result with
    ``error`` set (its message names the FEN field and text for a malformed FEN). With the native
    accelerator the rows are read in chunks of :data:`CHUNK_ROWS` and each chunk is one native call
    (results still come one per row, in order); the values and every message are the same as the
    Python reference's. ``schema_id`` may be the run's :class:`~contract.features.extractors.ResolvedSchema`."""
    resolved = _resolved(schema_id, rules)  # an unknown schema raises here, before the generator starts
    return _extracted(resolved, rows)


def _extracted(resolved: ResolvedSchema, rows: Iterable[object]) -> Iterator[RowResult]:
    schema_id, rules = resolved.id, resolved.rules
    accelerator = backend.active()
    code = _native_code(accelerator, schema_id, rules)
    if code is None:
        for index, row in enumerate(rows):
            row_id, fen, side, error = _row_error(row)
            if error is not None or fen is None:
                yield RowResult(index, row_id, None, error)
            else:
                yield _python_row(resolved, index, row_id, fen, side, rules=rules)
        return
    numbered = enumerate(rows)
    while chunk := list(itertools.islice(numbered, CHUNK_ROWS)):
        yield from _native_chunk(resolved, accelerator, code, chunk)


def _id_text(row_id: Any) -> str:
    """``json.dumps(row_id)``, without its per-call set-up for the usual ids (a string or an integer)."""
    if type(row_id) is str:
        return encode_basestring_ascii(row_id)
    if type(row_id) is int:
        return int.__repr__(row_id)
    return json.dumps(row_id)


def format_vectors(schema_id: str, ids: Sequence[Any], vectors: np.ndarray) -> list[str]:
    """The output JSONL lines (no newlines) of rows with these ids and the rows of this float32 ``[n, width]``
    matrix: ``{"id": …, "schema": …, "features": [0.4212963, 78.0, …]}``, each value its
    :func:`~contract.core.floattext.float32_text` (written once per distinct value of the batch:
    :func:`~contract.core.floattext.float32_text_rows`), the id as ``json.dumps`` writes it."""
    numbers = float32_text_rows(vectors)
    if len(numbers) != len(ids):
        raise ValueError(f"{len(ids)} ids for {len(numbers)} vectors")
    tail = f', "schema": {json.dumps(schema_id)}, "features": ['
    return [f'{{"id": {_id_text(row_id)}{tail}{text}]}}' for row_id, text in zip(ids, numbers, strict=True)]


def format_rows(schema_id: str, results: Sequence[RowResult]) -> list[str]:
    """:func:`format_vectors` of accepted results (a result without features is a ``ValueError``)."""
    for result in results:
        if result.features is None:
            raise ValueError(f"row {result.id!r} has no features: {result.error}")
    if not results:
        return []
    vectors = np.stack([np.asarray(r.features, dtype=np.float32).reshape(-1) for r in results])
    return format_vectors(schema_id, [result.id for result in results], vectors)


def format_row(schema_id: str, result: RowResult) -> str:
    """One output JSONL line (no newline): ``{"id": …, "schema": …, "features": [0.4212963, 78.0, …]}``."""
    return format_rows(schema_id, [result])[0]
