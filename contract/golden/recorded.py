"""Agreement with the recordings: every vector another implementation recorded, bit for bit.

The recordings under ``golden/recorded/`` (the engine's goldens and its live recording, read by
:mod:`contract.recordings.recorded`) are each compared, as float32 bit patterns, with the kit's vector for
the same FEN and side: taken from the regenerated ``golden/vectors/<schema>.json`` when
that file has the probe (same id, FEN and side), else extracted directly. A kit vector that some
recording records (same schema, id, FEN and side) is *engine-recorded* by it; one that none records is
*kit-only*. A recording that cannot be read is reported as a problem, never skipped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

import chess
import numpy as np

from contract import features
from contract.core.registry import feature_schemas
from contract.features import rules
from contract.golden.drift import Cell
from contract.recordings.recorded import Recording, recorders_of, recordings
from contract.recordings.vectorfile import VectorFile, read

KIT_VECTOR_DIR = "golden/vectors"


@dataclass(frozen=True)
class Agreement:
    """Every recording compared: files read, vectors compared, disagreeing cells, who recorded what."""

    files: tuple[str, ...]
    vectors: int
    cells: tuple[Cell, ...]
    problems: tuple[str, ...]
    # (schema, probe id) of every kit vector -> the recorders that recorded it (empty: kit-only)
    recorded_by: Mapping[tuple[str, str], tuple[str, ...]]
    # rule set id (schema/engine-rules.json) -> recorded vectors compared under it
    by_rules: Mapping[str, int] = field(default_factory=dict)

    @property
    def kit_only(self) -> tuple[tuple[str, str], ...]:
        return tuple(key for key, recorders in self.recorded_by.items() if not recorders)


def _kit_vector(kit: Mapping[str, VectorFile], record: Recording) -> tuple[float, ...]:
    """The kit's vector under the rules of the recording's engine (:mod:`contract.features.rules`)."""
    corpus = kit.get(record.schema) if record.engine_version is None else None
    probe = corpus.probes.get(record.probe) if corpus is not None else None
    if probe is not None and probe.fen == record.fen and probe.side == record.side:
        return probe.features
    color = chess.WHITE if record.side == "w" else chess.BLACK
    position = features.parse_fen(record.fen)
    if record.engine_version is None:
        vector = features.extract(record.schema, position, color)
    else:
        vector = features.extract(record.schema, position, color, engine_version=record.engine_version)
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
    by_rules: dict[str, int] = {}
    for record in records:
        try:
            mine = _kit_vector(kit, record)
        except features.FenError as exc:
            problems.append(f"{record.file}: probe {record.probe}: the kit refuses its FEN: {exc}")
            continue
        count += 1
        rule_set = rules.for_engine(record.engine_version)
        by_rules[rule_set.id] = by_rules.get(rule_set.id, 0) + 1
        mine_bits = np.asarray(mine, dtype=np.float32).view(np.uint32)
        columns = feature_schemas()[record.schema].columns
        for index, column in enumerate(columns):
            if record.bits[index] != int(mine_bits[index]):
                where = Path(record.file).name + ("" if record.engine_version is None else f"; rules {rule_set.id}")
                cells.append(Cell(f"{record.schema} ({where})", record.probe, column,
                                  record.value(index), float(np.float32(mine[index]))))
    recorded_by = {(corpus.schema, probe_id): tuple(dict.fromkeys(r.recorder for r in found))
                   for corpus in kit.values() for probe_id, found in recorders_of(records, corpus).items()}
    return Agreement(files, count, tuple(cells), tuple(problems), recorded_by, MappingProxyType(by_rules))


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
    lines.extend(rules_text(agreement))
    return "\n".join(lines)


def rules_text(agreement: Agreement) -> list[str]:
    """Which rule set each compared value follows, and what the default release's rules leave unknown."""
    lines = [f"rules: {n} recorded vectors compared under rule set {set_id} ({rules.rule_set(set_id).describe()})"
             for set_id, n in sorted(agreement.by_rules.items())]
    release = rules.release(None)
    for rule in release.unknown:
        lines.append(f"rules: engine {release.version}: {rule} is not known (no real recording covers it); the kit's"
                     f" {release.version} vectors follow {rule} {_rule_value(release.rules, rule)} (the pre-split"
                     " sources, engine-live)")
    return lines


def _rule_value(rule_set: rules.RuleSet, rule: str) -> str:
    return rule_set.castling if rule == "castling" else rule_set.en_passant
