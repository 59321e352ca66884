"""Agreement with the recordings: every vector another implementation recorded, bit for bit.

The recordings under ``golden/recorded/`` (the engine's goldens and its live recording, read by
:mod:`contract.recordings.recorded`) are each compared, as float32 bit patterns, with the kit's vector for
the same FEN and side: taken from the regenerated ``golden/vectors/<schema>.json`` when
that file has the probe (same id, FEN and side), else extracted directly. A kit vector whose value some
recording holds bit for bit (same schema, FEN and side, under whatever rules the recorder follows) is
*engine-recorded* by it; one that none holds is *kit-only*, and its ``rules`` label
(:mod:`contract.recordings.rulelabel`) says why: a twin of a recorded probe, or a value that follows a rule
the kit does not know for its release. Each label's ``recordedBy`` is checked against the recordings here: a
label naming other recorders than the recordings show is a problem. A recording that cannot be read is
reported as a problem, never skipped.
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
from contract.recordings import rulelabel
from contract.recordings.recorded import Recording, recordings
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
    # (schema, probe id) -> its rules label (golden-vectors 1.2.0), where the kit file carries one
    labels: Mapping[tuple[str, str], Mapping[str, object]] = field(default_factory=dict)
    # probe id -> the probe it is the twin of (probes.json's twinOf)
    twins: Mapping[str, str] = field(default_factory=dict)
    release: str = ""  # the kit files' engineVersion
    # (rule set id, recording file) -> positions of that file compared under that rule set
    positions: Mapping[tuple[str, str], int] = field(default_factory=dict)

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
    by_source: dict[tuple[str, str], set[tuple[str, str, str]]] = {}  # (rule set, file) -> positions compared
    for record in records:
        try:
            mine = _kit_vector(kit, record)
        except features.FenError as exc:
            problems.append(f"{record.file}: probe {record.probe}: the kit refuses its FEN: {exc}")
            continue
        count += 1
        rule_set = rules.for_engine(record.engine_version)
        by_rules[rule_set.id] = by_rules.get(rule_set.id, 0) + 1
        by_source.setdefault((rule_set.id, record.file), set()).add((record.probe, record.fen, record.side))
        mine_bits = np.asarray(mine, dtype=np.float32).view(np.uint32)
        columns = feature_schemas()[record.schema].columns
        for index, column in enumerate(columns):
            if record.bits[index] != int(mine_bits[index]):
                where = Path(record.file).name + ("" if record.engine_version is None else f"; rules {rule_set.id}")
                cells.append(Cell(f"{record.schema} ({where})", record.probe, column,
                                  record.value(index), float(np.float32(mine[index]))))
    by_key = rulelabel.index(records)
    recorded_by: dict[tuple[str, str], tuple[str, ...]] = {}
    labels: dict[tuple[str, str], Mapping[str, object]] = {}
    for corpus in kit.values():
        for probe in corpus.probes.values():
            found = tuple(rulelabel.recorders(by_key, (corpus.schema, probe.fen, probe.side), probe.bits()))
            recorded_by[(corpus.schema, probe.id)] = found
            if probe.rules is None:
                continue
            labels[(corpus.schema, probe.id)] = probe.rules
            if tuple(probe.rules.get("recordedBy", ())) != found:
                problems.append(f"{KIT_VECTOR_DIR}/{corpus.schema}.json: probe {probe.id}: its rules label names"
                                f" recorders {list(probe.rules.get('recordedBy', ()))}, the recordings hold its"
                                f" value in {list(found)}")
    release = next((c.engine_version for c in kit.values()), "")
    return Agreement(files, count, tuple(cells), tuple(problems), recorded_by, MappingProxyType(by_rules),
                     MappingProxyType(labels), MappingProxyType(_twins(generated)), release,
                     MappingProxyType({key: len(found) for key, found in by_source.items()}))


def _twins(generated: Mapping[str, bytes]) -> dict[str, str]:
    """probe id -> twinOf, from the regenerated ``golden/probes.json`` (empty when it is not there)."""
    from contract.core.strictjson import StrictJsonError
    from contract.core.strictjson import parse as parse_json

    data = generated.get("golden/probes.json")
    try:
        doc = parse_json(data) if data is not None else None
    except StrictJsonError:
        return {}
    entries = doc.get("probes") if isinstance(doc, dict) else None
    return {str(p["id"]): str(p["twinOf"]) for p in entries or () if isinstance(p, dict) and "twinOf" in p}


def label_text(agreement: Agreement, schema: str, probe: str) -> str:
    """The sentence saying which rule ``schema``'s vector of ``probe`` follows and what backs it."""
    found = agreement.labels.get((schema, probe))
    twin_of = agreement.twins.get(probe)
    if found is None:
        backed = agreement.recorded_by.get((schema, probe), ())
        return ("recorded by " + ", ".join(backed)) if backed else "no recording of this vector"
    # what the recordings show now, even where a hand-edited file's label says otherwise (that is a problem)
    shown = {**found, "recordedBy": list(agreement.recorded_by.get((schema, probe), ()))}
    return rulelabel.text(shown, agreement.release, twin_of)


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
    for probe, schemas in _grouped(kit_only)[:listed]:
        lines.append(f"  kit-only: {_schemas(schemas)} {probe} ({label_text(agreement, schemas[0], probe)})")
    if len(_grouped(kit_only)) > listed:
        lines.append(f"  ... and {len(_grouped(kit_only)) - listed} more kit-only probes")
    lines.extend(rules_text(agreement))
    return "\n".join(lines)


def _grouped(keys: tuple[tuple[str, str], ...] | list[tuple[str, str]]) -> list[tuple[str, list[str]]]:
    """(schema, probe) pairs as (probe, its schemas), in first-seen probe order."""
    by_probe: dict[str, list[str]] = {}
    for schema, probe in keys:
        by_probe.setdefault(probe, []).append(schema)
    return list(by_probe.items())


def _schemas(schemas: list[str]) -> str:
    return f"all {len(schemas)} schemas" if len(schemas) == len(feature_schemas()) else " ".join(schemas)


def dependent(agreement: Agreement) -> list[tuple[str, str]]:
    """Every kit vector (schema, probe) whose value depends on a named rule (its label's ``dependsOn``)."""
    return [key for key, found in agreement.labels.items() if found.get("dependsOn")]


def rules_text(agreement: Agreement) -> list[str]:
    """Which rule set each compared value follows, and what the default release's rules leave unknown."""
    lines = []
    for set_id, n in sorted(agreement.by_rules.items()):
        files = "; ".join(f"{name.removeprefix('golden/recorded/')} {count} positions" for (rule_set, name), count
                          in sorted(agreement.positions.items()) if rule_set == set_id)
        lines.append(f"rules: {n} recorded vectors compared under rule set {set_id}"
                     f" ({rules.rule_set(set_id).describe()}){f': {files}' if files else ''}")
    release = rules.release(None)
    for rule in release.unknown:
        lines.append(f"rules: engine {release.version}: {rule} is not known (no real recording covers it); the kit's"
                     f" {release.version} vectors follow {rule} {release.rules.value(rule)} (the pre-split sources)")
    labelled = len(agreement.labels)
    if labelled:
        depending = _grouped(dependent(agreement))
        lines.append(f"rules: {labelled - sum(len(s) for _, s in depending)} of {labelled} kit vectors are the same"
                     f" under every rule set; {sum(len(s) for _, s in depending)} ({len(depending)} probes) follow a"
                     " named rule:")
        for probe, schemas in depending:
            lines.append(f"  rule: {probe} ({_schemas(schemas)}): {label_text(agreement, schemas[0], probe)}")
    return lines
