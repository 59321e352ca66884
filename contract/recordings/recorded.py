"""Every vector recorded by another implementation under ``golden/recorded/``, as float32 bit patterns.

Two kinds of recording are vendored (with provenance): the engine's goldens (``*.json`` with a ``schema``
and a ``probes`` list carrying ``features``, recorded by the engine release their ``engineVersion`` names)
and the engine's live recording of every golden probe in every schema (:mod:`contract.recordings.enginelive`).
:func:`recordings` reads them all, reporting a recording that cannot be read as a problem, never skipping it;
:func:`recorders_of` says which of them record each vector of a kit vector file (same schema, probe id, FEN and
side). Comparing them with the kit is :mod:`contract.golden.recorded`'s work.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from contract.core.cappedread import read_capped
from contract.core.oserrors import os_error_reason
from contract.core.registry import feature_schemas
from contract.core.strictjson import StrictJsonError
from contract.core.strictjson import parse as parse_json
from contract.recordings import enginelive
from contract.recordings.vectorfile import VectorFile, VectorFileError, read

RECORDED_DIR = "golden/recorded"
FILE_LIMIT = 64 * 1024 * 1024  # bytes of one recording read (the largest is about 0.2 MB)


@dataclass(frozen=True)
class Recording:
    """One recorded vector: what recorded it, the file it is in, and the position's id, FEN and side."""

    recorder: str
    file: str
    schema: str
    probe: str
    fen: str
    side: str
    bits: tuple[int, ...]

    def value(self, index: int) -> float:
        return float(np.uint32(self.bits[index]).view(np.float32))


def _is_vector_corpus(data: bytes) -> bool:
    try:
        doc = parse_json(data, max_bytes=64 * 1024 * 1024)
    except StrictJsonError:
        return True  # let read() report it
    probes = doc.get("probes") if isinstance(doc, dict) else None
    return (isinstance(doc, dict) and "schema" in doc and isinstance(probes, list)
            and any(isinstance(p, dict) and "features" in p for p in probes))


def recorded_corpora(root: Path) -> tuple[list[VectorFile], list[str]]:
    corpora: list[VectorFile] = []
    problems: list[str] = []
    directory = root / RECORDED_DIR
    if not directory.is_dir():
        return corpora, [f"{RECORDED_DIR}: missing"]
    for path in sorted(directory.glob("*.json")):
        name = path.relative_to(root).as_posix()
        try:  # a regular file (a FIFO is a problem, never waited on), read up to a cap
            data = read_capped(path, FILE_LIMIT)
        except OSError as exc:
            problems.append(f"{name}: {os_error_reason(exc)}")
            continue
        if data is None:
            problems.append(f"{name}: larger than {FILE_LIMIT} bytes (a recording is read whole)")
            continue
        if not _is_vector_corpus(data):
            continue
        try:
            corpora.append(read(name, data, versioned=False))
        except VectorFileError as exc:
            problems.append(str(exc))
    return corpora, problems


def recordings(root: Path) -> tuple[list[Recording], tuple[str, ...], list[str]]:
    """Every recorded golden vector under ``root``, the files they came from, and the problems met."""
    corpora, problems = recorded_corpora(root)
    found: list[Recording] = []
    files = [c.name for c in corpora]
    for corpus in corpora:
        if corpus.schema not in feature_schemas():
            problems.append(f"{corpus.name}: schema '{corpus.schema}' is not registered")
            continue
        if corpus.columns != feature_schemas()[corpus.schema].columns:
            problems.append(f"{corpus.name}: columns differ from the registry's {corpus.schema} columns")
            continue
        found.extend(Recording(f"engine {corpus.engine_version}", corpus.name, corpus.schema, p.id, p.fen,
                               p.side, p.bits()) for p in corpus.probes.values())
    try:
        live = enginelive.read(root / enginelive.VECTORS_FILE, probes_only=True)
    except enginelive.LiveRecordingError as exc:
        return found, tuple(files), [*problems, str(exc)]
    files.append(enginelive.VECTORS_FILE)
    for position in live:
        for schema, bits in position.bits.items():
            where = f"{enginelive.VECTORS_FILE}: {position.label}: {schema}"
            if schema not in feature_schemas():
                problems.append(f"{where}: schema is not registered")
            elif len(bits) != feature_schemas()[schema].width:
                problems.append(f"{where}: {len(bits)} values, the schema has {feature_schemas()[schema].width}")
            else:
                found.append(Recording(enginelive.RECORDER, enginelive.VECTORS_FILE, schema,
                                       str(position.probe_id), position.fen, position.side, bits))
    return found, tuple(files), problems


def recorders_of(records: Iterable[Recording], corpus: VectorFile) -> dict[str, tuple[Recording, ...]]:
    """For each probe of the kit's ``corpus``: the recordings of exactly that vector (schema, id, FEN, side)."""
    by_probe: dict[str, list[Recording]] = {probe_id: [] for probe_id in corpus.probes}
    for record in records:
        probe = corpus.probes.get(record.probe)
        if record.schema == corpus.schema and probe is not None and (probe.fen, probe.side) == (record.fen,
                                                                                                record.side):
            by_probe[record.probe].append(record)
    return {probe_id: tuple(found) for probe_id, found in by_probe.items()}
