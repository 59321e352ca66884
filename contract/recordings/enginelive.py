"""The engine's live vector recording (``golden/recorded/engine-live/``), read as float32 bit patterns.

The file is gzip-compressed JSON Lines, one position a line: ``label`` (``probe <id>`` or ``random <n>
(seed S, game G, turn T)``), ``fen``, ``side`` and ``vectors`` (schema id -> the vector). A vector is each
value's IEEE-754 float32 bit pattern as 8 lowercase hex digits, concatenated; ``raw-board-768-v1`` may be
written ``bits:`` followed by one ``0``/``1`` per value (0.0 or 1.0). :func:`read` refuses
(:class:`LiveRecordingError`, naming the file and line) a file that is not gzip, is larger than
:data:`MAX_BYTES` uncompressed, or has a line that is not such a position; nothing is skipped silently.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from contract.core.errors import ContractError
from contract.core.jsonlines import parse_object, read_capped

VECTORS_FILE = "golden/recorded/engine-live/engine-vectors-default-seed20261130.jsonl.gz"
# What recorded it (golden/recorded/engine-live/README.md): a rebuild of engine 0.12.0 that reproduces
# every recording the released engines made.
RECORDER = "engine 0.12.0 (rebuild, recorded live 2026-12-01)"
MAX_BYTES = 64 * 1024 * 1024
PROBE_PREFIX = "probe "
ONE_BITS = 0x3F800000  # float32 1.0
_HEX = re.compile(r"(?:[0-9a-f]{8})*")
_BITS = re.compile(r"bits:[01]*")


class LiveRecordingError(ContractError, ValueError):
    """A live recording that cannot be read; the message names the file and the line."""


@dataclass(frozen=True)
class LivePosition:
    """One recorded position: its label, FEN, side and each schema's vector as float32 bit patterns."""

    label: str
    fen: str
    side: str
    bits: Mapping[str, tuple[int, ...]]

    @property
    def probe_id(self) -> str | None:
        """The golden probe's id when the label is ``probe <id>``, else ``None``."""
        return self.label[len(PROBE_PREFIX):] if self.label.startswith(PROBE_PREFIX) else None


def decode(text: str, where: str) -> tuple[int, ...]:
    """A recorded vector's float32 bit patterns."""
    if _BITS.fullmatch(text):
        return tuple(ONE_BITS if c == "1" else 0 for c in text[len("bits:"):])
    if _HEX.fullmatch(text):
        return tuple(int(text[i:i + 8], 16) for i in range(0, len(text), 8))
    raise LiveRecordingError(f"{where}: not a vector of 8-hex-digit float32 bit patterns or 'bits:' 0/1 text")


def _text(doc: Mapping[str, object], key: str, where: str) -> str:
    value = doc.get(key)
    if not isinstance(value, str):
        raise LiveRecordingError(f"{where}: field '{key}' must be a string")
    return value


def _position(line: bytes, where: str, probes_only: bool) -> LivePosition | None:
    doc = parse_object(line, where, MAX_BYTES, LiveRecordingError)
    label = _text(doc, "label", where)
    if probes_only and not label.startswith(PROBE_PREFIX):
        return None
    vectors = doc.get("vectors")
    if not isinstance(vectors, dict) or not vectors:
        raise LiveRecordingError(f"{where}: field 'vectors' must be a non-empty object")
    bits = {}
    for schema, text in vectors.items():
        if not isinstance(text, str):
            raise LiveRecordingError(f"{where}: vector {schema} must be a string")
        bits[schema] = decode(text, f"{where}: vector {schema}")
    side = _text(doc, "side", where)
    if side not in ("w", "b"):
        raise LiveRecordingError(f"{where}: side {side!r} is not 'w' or 'b'")
    return LivePosition(label, _text(doc, "fen", where), side, bits)


def read_any(path: Path, name: str, *, gzipped: bool, field: str = "vectors"
             ) -> tuple[tuple[LivePosition, ...], list[tuple[str, str]]]:
    """Every position of a recording whose vectors are under ``field`` (engine-newest's ``edge-cases.jsonl``
    keeps them under ``newest``, plain JSON Lines), and the (label, FEN) of each position whose every value is
    a refusal text (``PARSE-ERROR:…``) rather than a vector."""
    if gzipped:
        data = read_capped(path, name, MAX_BYTES, LiveRecordingError)
    else:
        try:
            with path.open("rb") as handle:
                data = handle.read(MAX_BYTES + 1)
        except OSError as exc:
            raise LiveRecordingError(f"{name}: cannot be read: {exc.strerror or exc}") from None
        if len(data) > MAX_BYTES:
            raise LiveRecordingError(f"{name}: larger than {MAX_BYTES} bytes")
    positions: list[LivePosition] = []
    refused: list[tuple[str, str]] = []
    for number, line in enumerate(data.split(b"\n"), start=1):
        if not line.strip():
            continue
        where = f"{name}: line {number}"
        doc = parse_object(line, where, MAX_BYTES, LiveRecordingError)
        vectors = doc.get(field)
        if isinstance(vectors, dict) and vectors and all(isinstance(v, str) and v.startswith("PARSE-ERROR:")
                                                         for v in vectors.values()):
            refused.append((_text(doc, "label", where), _text(doc, "fen", where)))
            continue
        position = _position(line if field == "vectors" else _renamed(doc, field), where, False)
        if position is not None:
            positions.append(position)
    if not positions:
        raise LiveRecordingError(f"{name}: no position recorded")
    return tuple(positions), refused


def _renamed(doc: Mapping[str, object], field: str) -> bytes:
    import json

    return json.dumps({**doc, "vectors": doc.get(field)}).encode()


def read(path: Path, name: str = VECTORS_FILE, *, probes_only: bool = False) -> tuple[LivePosition, ...]:
    """Every position of the recording at ``path`` (``name`` is how messages call it); only the golden
    probes' (``probe <id>`` labels) with ``probes_only``."""
    data = read_capped(path, name, MAX_BYTES, LiveRecordingError)
    positions = []
    for number, line in enumerate(data.split(b"\n"), start=1):
        position = _position(line, f"{name}: line {number}", probes_only) if line.strip() else None
        if position is not None:
            positions.append(position)
    if not positions:
        raise LiveRecordingError(f"{name}: no position recorded")
    return tuple(positions)
