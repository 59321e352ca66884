"""Agreement with the recorded corpora: every vector another implementation recorded, bit for bit.

``golden/recorded/*.json`` holds the engine's goldens (vendored with provenance). Every file there with a
``schema`` and a ``probes`` list carrying ``features`` is a vector corpus; each of its vectors is
compared, as float32 bit patterns, with the kit's vector for the same FEN and side: taken from the
regenerated ``golden/vectors/<schema>.json`` when that file has the probe (same id, FEN and side), else
extracted directly. A recorded file that cannot be read is reported as a problem, never skipped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import chess
import numpy as np

from contract import features
from contract.core.registry import feature_schemas
from contract.core.strictjson import StrictJsonError
from contract.core.strictjson import parse as parse_json
from contract.golden.drift import Cell
from contract.golden.vectors import VectorFile, VectorFileError, read

RECORDED_DIR = "golden/recorded"
KIT_VECTOR_DIR = "golden/vectors"


@dataclass(frozen=True)
class Agreement:
    """The result of comparing every recorded corpus: files read, vectors compared, disagreeing cells."""

    files: tuple[str, ...]
    vectors: int
    cells: tuple[Cell, ...]
    problems: tuple[str, ...]


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


def _kit_vector(kit: Mapping[str, VectorFile], schema: str, probe_id: str, fen: str,
                side: str) -> tuple[float, ...]:
    corpus = kit.get(schema)
    probe = corpus.probes.get(probe_id) if corpus is not None else None
    if probe is not None and probe.fen == fen and probe.side == side:
        return probe.features
    color = chess.WHITE if side == "w" else chess.BLACK
    vector = features.extract(schema, features.parse_fen(fen), color)
    return tuple(float(v) for v in vector)


def compare(root: Path, generated: Mapping[str, bytes]) -> Agreement:
    """Compare every recorded vector with the kit's (``generated`` = the regenerated files)."""
    kit: dict[str, VectorFile] = {}
    for schema_id in feature_schemas():
        data = generated.get(f"{KIT_VECTOR_DIR}/{schema_id}.json")
        if data is not None:
            kit[schema_id] = read(f"{KIT_VECTOR_DIR}/{schema_id}.json", data)
    corpora, problems = recorded_corpora(root)
    cells: list[Cell] = []
    count = 0
    for corpus in corpora:
        if corpus.schema not in feature_schemas():
            problems.append(f"{corpus.name}: schema '{corpus.schema}' is not registered")
            continue
        expected_columns = feature_schemas()[corpus.schema].columns
        if corpus.columns != expected_columns:
            problems.append(f"{corpus.name}: columns differ from the registry's {corpus.schema} columns")
            continue
        for probe in corpus.probes.values():
            try:
                mine = _kit_vector(kit, corpus.schema, probe.id, probe.fen, probe.side)
            except features.FenError as exc:
                problems.append(f"{corpus.name}: probe {probe.id}: the kit refuses its FEN: {exc}")
                continue
            count += 1
            theirs_bits = probe.bits()
            mine_bits = np.asarray(mine, dtype=np.float32).view(np.uint32)
            for index, column in enumerate(corpus.columns):
                if theirs_bits[index] != int(mine_bits[index]):
                    cells.append(Cell(f"{corpus.schema} ({Path(corpus.name).name})", probe.id, column,
                                      probe.features[index], float(np.float32(mine[index]))))
    return Agreement(tuple(c.name for c in corpora), count, tuple(cells), tuple(problems))
