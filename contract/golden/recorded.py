"""Agreement with the recordings: every vector another implementation recorded, bit for bit.

Two kinds of recording are vendored (with provenance) under ``golden/recorded/``: the engine's goldens
(``*.json`` with a ``schema`` and a ``probes`` list carrying ``features``, recorded by the engine release
their ``engineVersion`` names) and the engine's live recording of every golden probe in every schema
(:mod:`contract.golden.enginelive`). Each recorded vector is compared, as float32 bit patterns, with the
kit's vector for the same FEN and side: taken from the regenerated ``golden/vectors/<schema>.json`` when
that file has the probe (same id, FEN and side), else extracted directly. A kit vector that some
recording records (same schema, id, FEN and side) is *engine-recorded* by it; one that none records is
*kit-only*. A recording that cannot be read is reported as a problem, never skipped.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import chess
import numpy as np

from contract import features
from contract.core.registry import feature_schemas
from contract.core.strictjson import StrictJsonError
from contract.core.strictjson import parse as parse_json
from contract.golden import enginelive
from contract.golden.drift import Cell
from contract.golden.vectors import VectorFile, VectorFileError, read

RECORDED_DIR = "golden/recorded"
KIT_VECTOR_DIR = "golden/vectors"


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


@dataclass(frozen=True)
class Agreement:
    """Every recording compared: files read, vectors compared, disagreeing cells, who recorded what."""

    files: tuple[str, ...]
    vectors: int
    cells: tuple[Cell, ...]
    problems: tuple[str, ...]
    # (schema, probe id) of every kit vector -> the recorders that recorded it (empty: kit-only)
    recorded_by: Mapping[tuple[str, str], tuple[str, ...]]

    @property
    def kit_only(self) -> tuple[tuple[str, str], ...]:
        return tuple(key for key, recorders in self.recorded_by.items() if not recorders)


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
        data = path.read_bytes()
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


def _kit_vector(kit: Mapping[str, VectorFile], record: Recording) -> tuple[float, ...]:
    corpus = kit.get(record.schema)
    probe = corpus.probes.get(record.probe) if corpus is not None else None
    if probe is not None and probe.fen == record.fen and probe.side == record.side:
        return probe.features
    color = chess.WHITE if record.side == "w" else chess.BLACK
    vector = features.extract(record.schema, features.parse_fen(record.fen), color)
    return tuple(float(v) for v in vector)


def compare(root: Path, generated: Mapping[str, bytes]) -> Agreement:
    """Compare every recorded vector with the kit's (``generated`` = the regenerated files)."""
    kit: dict[str, VectorFile] = {}
    for schema_id in feature_schemas():
        data = generated.get(f"{KIT_VECTOR_DIR}/{schema_id}.json")
        if data is not None:
            kit[schema_id] = read(f"{KIT_VECTOR_DIR}/{schema_id}.json", data)
    records, files, problems = recordings(root)
    cells: list[Cell] = []
    count = 0
    for record in records:
        try:
            mine = _kit_vector(kit, record)
        except features.FenError as exc:
            problems.append(f"{record.file}: probe {record.probe}: the kit refuses its FEN: {exc}")
            continue
        count += 1
        mine_bits = np.asarray(mine, dtype=np.float32).view(np.uint32)
        columns = feature_schemas()[record.schema].columns
        for index, column in enumerate(columns):
            if record.bits[index] != int(mine_bits[index]):
                cells.append(Cell(f"{record.schema} ({Path(record.file).name})", record.probe, column,
                                  record.value(index), float(np.float32(mine[index]))))
    recorded_by = {(corpus.schema, probe_id): tuple(dict.fromkeys(r.recorder for r in found))
                   for corpus in kit.values() for probe_id, found in recorders_of(records, corpus).items()}
    return Agreement(files, count, tuple(cells), tuple(problems), recorded_by)


def coverage_text(agreement: Agreement, listed: int = 20) -> str:
    """Which kit vectors are engine-recorded (and by what) and which kit-only, in a few lines."""
    total = len(agreement.recorded_by)
    counts: dict[str, int] = {}
    for recorders in agreement.recorded_by.values():
        for recorder in recorders:
            counts[recorder] = counts.get(recorder, 0) + 1
    by = "; ".join(f"{recorder}: {n}" for recorder, n in sorted(counts.items()))
    kit_only = agreement.kit_only
    lines = [f"recorded: {total - len(kit_only)} of {total} kit vectors (probe x schema) are engine-recorded"
             f"{f' ({by})' if by else ''}; {len(kit_only)} kit-only"]
    for schema, probe in kit_only[:listed]:
        lines.append(f"  kit-only: {schema} {probe} (no recording of this vector)")
    if len(kit_only) > listed:
        lines.append(f"  ... and {len(kit_only) - listed} more kit-only vectors")
    return "\n".join(lines)
