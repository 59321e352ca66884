"""Reading golden vector files (the kit's ``golden/vectors/*.json`` and the engine's recorded goldens).

A vector file is one schema's vectors for a list of probes (spec/features.md §12). :func:`read` parses
one strictly and refuses (``VectorFileError``, naming the file and the problem) a file that is not
valid JSON, lacks a field, has a vector of the wrong width, a non-numeric or non-float32-finite value,
or a duplicated probe id, or carries a ``formatVersion`` this kit does not read. The kit's own files
must carry one (``versioned``, the default); the engine's recordings are in its golden tool's format,
which has none, and are read with ``versioned=False``. Values are kept as float32 bit patterns, the
unit every comparison uses.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from contract.core import formatversion
from contract.core.errors import ContractError
from contract.core.strictjson import StrictJsonError
from contract.core.strictjson import parse as parse_json


class VectorFileError(ContractError, ValueError):
    """A vector file that cannot be read as one; the message names the file."""


@dataclass(frozen=True)
class ProbeVector:
    id: str
    fen: str
    side: str
    tags: tuple[str, ...]
    note: str
    features: tuple[float, ...]
    # the kit's files (golden-vectors 1.2.0): which engine rules the value follows and what records it
    # (contract.recordings.rulelabel); None in the engine's recordings and in older files
    rules: dict[str, Any] | None = None

    def bits(self) -> tuple[int, ...]:
        """The float32 bit pattern of every value (what 'bit for bit' compares)."""
        return tuple(int(b) for b in np.asarray(self.features, dtype=np.float32).view(np.uint32))


@dataclass(frozen=True)
class VectorFile:
    name: str
    schema: str
    columns: tuple[str, ...]
    engine_version: str
    probes: dict[str, ProbeVector]


def _field(obj: Any, key: str, kind: type, where: str) -> Any:
    if not isinstance(obj, dict) or key not in obj:
        raise VectorFileError(f"{where}: missing field '{key}'")
    value = obj[key]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise VectorFileError(f"{where}: field '{key}' must be a {kind.__name__}")
    return value


def float32_value(value: Any, where: str) -> float:
    """A JSON number read the golden way: as a double, then rounded to float32."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise VectorFileError(f"{where}: {value!r} is not a number")
    with np.errstate(over="ignore"):
        single = float(np.float32(value))
    if not math.isfinite(single):
        raise VectorFileError(f"{where}: {value!r} is not a finite float32")
    return single


def read(name: str, data: bytes, *, versioned: bool = True) -> VectorFile:
    try:
        doc = parse_json(data, max_bytes=64 * 1024 * 1024)
    except StrictJsonError as exc:
        raise VectorFileError(f"{name}: {exc}") from None
    if versioned or (isinstance(doc, dict) and formatversion.FIELD in doc):
        why = formatversion.problem(doc, "golden-vectors")
        if why is not None:
            raise VectorFileError(f"{name}: {why}")
    schema = _field(doc, "schema", str, name)
    columns = tuple(_field(doc, "columns", list, name))
    if not all(isinstance(c, str) for c in columns):
        raise VectorFileError(f"{name}: columns must be strings")
    engine_version = _field(doc, "engineVersion", str, name)
    probes: dict[str, ProbeVector] = {}
    for index, raw in enumerate(_field(doc, "probes", list, name)):
        where = f"{name}: probes[{index}]"
        probe_id = _field(raw, "id", str, where)
        where = f"{name}: probe {probe_id}"
        if probe_id in probes:
            raise VectorFileError(f"{where}: id appears twice")
        values = _field(raw, "features", list, where)
        if len(values) != len(columns):
            raise VectorFileError(f"{where}: {len(values)} features, the file has {len(columns)} columns")
        probes[probe_id] = ProbeVector(
            id=probe_id,
            fen=_field(raw, "fen", str, where),
            side=_field(raw, "side", str, where),
            tags=tuple(raw.get("tags", ())),
            note=str(raw.get("note", "")),
            features=tuple(float32_value(v, f"{where} column {columns[i]}") for i, v in enumerate(values)),
            rules=raw["rules"] if isinstance(raw.get("rules"), dict) else None,
        )
    return VectorFile(name, schema, columns, engine_version, probes)
