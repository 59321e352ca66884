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
# the training repository's prerank probe pairs (tests/fixtures/prerank/), compared under the rules of the
# release their engineVersion names, not the kit's default release's
PRERANK_SUBDIR = "prerank"


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
    # the engine version (contract.features.rules) whose rules the recorder follows; None = the kit's default
    engine_version: str | None = None

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
    # the engine's goldens, the training repository's prerank probe pairs, then releases admitted by their
    # recording (golden admit --write)
    for path in [*sorted(directory.glob("*.json")), *sorted(directory.glob(f"{PRERANK_SUBDIR}/*.json")),
                 *sorted(directory.glob("admitted/*/*.engine-*.json"))]:
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


NEWEST_DIR = "golden/recorded/engine-newest"
NEWEST_VECTORS = f"{NEWEST_DIR}/engine-vectors-default-seed20261130.jsonl.gz"
NEWEST_EDGES = f"{NEWEST_DIR}/edge-cases.jsonl"
NEWEST_PAIRS = f"{NEWEST_DIR}/probe-pairs-vectors.jsonl"
NEWEST_RECORDER = "engine-newest (newest public sources, rebuilt; not a release)"
NEWEST_RULES = "newest-sources"
REFUSED_PREFIX = "PARSE-ERROR:"


def _newest(root: Path, problems: list[str]) -> tuple[list[Recording], list[str], list[tuple[str, str, str]]]:
    """engine-newest's vectors (all 2,114 positions and the edge positions, under the newest sources' rules),
    and the edge positions it refused (file, label, FEN)."""
    found: list[Recording] = []
    files: list[str] = []
    refused: list[tuple[str, str, str]] = []
    for name, gzipped, field in ((NEWEST_VECTORS, True, "vectors"), (NEWEST_EDGES, False, "newest"),
                                 (NEWEST_PAIRS, False, "vectors")):
        try:
            positions, refusals = enginelive.read_any(root / name, name, gzipped=gzipped, field=field)
        except enginelive.LiveRecordingError as exc:
            problems.append(str(exc))
            continue
        files.append(name)
        refused.extend((name, label, fen) for label, fen in refusals)
        for position in positions:
            for schema, bits in position.bits.items():
                if schema not in feature_schemas() or len(bits) != feature_schemas()[schema].width:
                    problems.append(f"{name}: {position.label}: {schema}: not a registered schema's vector")
                    continue
                found.append(Recording(NEWEST_RECORDER, name, schema, position.probe_id or position.label,
                                       position.fen, position.side, bits, NEWEST_RULES))
    return found, files, refused


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
        admitted = "/admitted/" in corpus.name
        follows = corpus.engine_version if f"/{PRERANK_SUBDIR}/" in corpus.name else None
        if admitted:  # compared under the rule set its admission recorded (golden admit --write)
            follows = _admitted_rules(root, corpus, problems)
            if follows is None:
                continue
        found.extend(Recording(f"engine {corpus.engine_version}{' (admitted)' if admitted else ''}", corpus.name,
                               corpus.schema, p.id, p.fen, p.side, p.bits(), follows)
                     for p in corpus.probes.values())
    newest, newest_files, refused = _newest(root, problems)
    found.extend(newest)
    files.extend(newest_files)
    for name, label, fen in refused:
        problems.extend(_refused_agrees(name, label, fen))
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


def _admitted_rules(root: Path, corpus: VectorFile, problems: list[str]) -> str | None:
    """A table version following the rule set admitted release ``corpus.engine_version`` showed."""
    from contract.features import admitted, rules

    doc = admitted.provenance(corpus.engine_version, root / "golden")
    rule_set = doc.get("ruleSet") if doc is not None else None
    if not isinstance(rule_set, str):
        problems.append(f"{corpus.name}: no readable {admitted.PROVENANCE} naming its engine version and rule set")
        return None
    try:
        return rules.version_following(rule_set)
    except rules.UnknownEngineError as exc:
        problems.append(f"{corpus.name}: {exc}")
        return None


def _refused_agrees(name: str, label: str, fen: str) -> list[str]:
    """A problem when the kit reads a FEN the recording's engine refused (both must refuse)."""
    from contract.features import FenError, parse_fen

    try:
        parse_fen(fen)
    except FenError:
        return []
    return [f"{name}: {label}: the engine refused {fen!r}, the kit reads it"]


def recorders_of(records: Iterable[Recording], corpus: VectorFile) -> dict[str, tuple[Recording, ...]]:
    """For each probe of the kit's ``corpus``: the recordings of exactly that vector (schema, id, FEN, side)."""
    by_probe: dict[str, list[Recording]] = {probe_id: [] for probe_id in corpus.probes}
    for record in records:
        probe = corpus.probes.get(record.probe)
        if record.engine_version is not None:
            continue  # recorded under another release's rules (golden check compares it under those)
        if record.schema == corpus.schema and probe is not None and (probe.fen, probe.side) == (record.fen,
                                                                                                record.side):
            by_probe[record.probe].append(record)
    return {probe_id: tuple(found) for probe_id, found in by_probe.items()}
