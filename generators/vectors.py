"""Write ``golden/vectors/<schema>.json``: every probe's vector for every registered feature schema.

One file per schema of ``schema/feature-schemas.json``, in the engine goldens' format and layout
(spec/features.md §12: ``schema``, ``perspective``, ``engineVersion``, ``engineArtifact``,
``generator``, ``columns``, ``probes[{id, fen, side, tags, note, features}]``), so a reader of the
engine's goldens reads these unchanged. Vectors come from the kit's extractors (``contract.features``)
for the probe's side, mover perspective. The files stay loadable by the training repository's
``load_golden`` (which needs ``engineVersion`` and ``engineArtifact``); ``engineVersion`` names the engine
release whose behaviour they reproduce, and ``generator`` and ``provenance`` say that this kit, at its
version, computed them: the engine did not. ``recordedBy`` says which engine recordings under
``golden/recorded/`` hold the same vectors (same schema, probe id, FEN and side), each with how many of the
file's probes it records, so a reader sees that the mobility schemas were recorded by the released engine
at 0.9.3 (27 probes) and by the 0.12.0 rebuild (all of them); ``check`` compares the values bit for bit.
Each probe carries ``rules`` (:mod:`contract.recordings.rulelabel`): which named engine rule its value follows
when the rule sets disagree on it, which of those rules the table does not know for ``engineVersion``, the
other rule sets' values, and which recordings hold each value bit for bit (empty: the kit's word alone).
A probe whose FEN the extractors refuse stops generation with the probe named.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import chess

from contract import features
from contract.core import formatversion, progress
from contract.core.corpuslayout import render
from contract.core.registry import feature_schemas
from contract.features import rules
from contract.recordings import recorded, rulelabel
from contract.recordings.vectorfile import read
from generators import probes as probe_source

OUTPUT_DIR = "golden/vectors"
ENGINE_VERSION = "0.12.0"
ENGINE_ARTIFACT = f"com.fortemate:dicechess-engine_3:{ENGINE_VERSION}"
PROGRAM = "dicechess-contract"
SCRIPT = "generators/vectors.py"
ROOT = Path(__file__).resolve().parent.parent


def kit_version() -> str:
    """The kit version of this checkout, read from ``contract/_version.py`` as text (the one place it is
    written; ``pyproject.toml`` takes it from there), so an installed kit of another version does not answer
    for the checkout; in an installed wheel (no checkout around the generators), the kit's own."""
    source = ROOT / "contract" / "_version.py"
    if not source.is_file():  # an installed wheel: its generators sit beside no checkout, the kit is the one
        from contract import __version__

        return __version__
    tree = ast.parse(source.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["__version__"] \
                and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return node.value.value
    raise RuntimeError("contract/_version.py assigns no __version__ string")


def provenance(schema_id: str) -> dict[str, str]:
    """Who computed a vector file, and what ``engineVersion``/``engineArtifact`` mean in it."""
    return {
        "computedBy": PROGRAM,
        "computedByVersion": kit_version(),
        "program": f"python -m contract.golden regenerate ({SCRIPT}, the kit's extractors)",
        "engineVersion": ("the engine release whose extractor these values reproduce; the engine did not write "
                          "this file: recordedBy names the engine's own recordings of its vectors (under "
                          "golden/recorded/), and 'python -m contract.golden check' proves each equal bit for bit"),
    }


def output_path(schema_id: str) -> str:
    return f"{OUTPUT_DIR}/{schema_id}.json"


def recorded_by(corpus: dict[str, Any], records: list[recorded.Recording]) -> list[dict[str, Any]]:
    """Which recordings hold this corpus's vectors: recorder, file and how many of its probes each records."""
    vector_file = read(output_path(corpus["schema"]), render(corpus))
    counts: dict[tuple[str, str], int] = {}
    for found in recorded.recorders_of(records, vector_file).values():
        for key in dict.fromkeys((r.recorder, r.file) for r in found):
            counts[key] = counts.get(key, 0) + 1
    return [{"recorder": recorder, "file": file, "probes": n} for (recorder, file), n in counts.items()]


def vectors() -> dict[str, dict[str, Any]]:
    """schema id -> the corpus object of that schema."""
    probe_list = probe_source.probes()
    schemas = feature_schemas()
    rows: dict[str, list[dict[str, Any]]] = {schema_id: [] for schema_id in schemas}
    records, _, problems = recorded.recordings(ROOT)
    if problems:
        raise ValueError("the recordings cannot be read: " + "; ".join(problems))
    by_key = rulelabel.index(records)
    release = rules.release(ENGINE_VERSION)
    if release.version != rules.default_release():
        raise ValueError(f"{SCRIPT}: ENGINE_VERSION {ENGINE_VERSION} is not the kit's default release")
    for index, probe in enumerate(probe_list, start=1):
        try:
            position = features.parse_fen(probe["fen"])
        except features.FenError as exc:
            raise ValueError(f"probe {probe['id']}: {exc}") from None
        color = chess.WHITE if probe["side"] == "w" else chess.BLACK
        for schema_id in schemas:
            vector = features.extract(schema_id, position, color)  # the default release, ENGINE_VERSION
            rows[schema_id].append({
                "id": probe["id"], "fen": probe["fen"], "side": probe["side"], "tags": probe["tags"],
                "note": probe["note"], "features": [float(v) for v in vector],
                "rules": rulelabel.label(schema_id, position, probe["fen"], probe["side"], vector,
                                         release=release, by_key=by_key),
            })
        progress.step("vectors (probes x 7 schemas)", index, len(probe_list))
    corpora = {
        schema_id: {
            "formatVersion": formatversion.current("golden-vectors"),
            "schema": schema_id,
            "perspective": "side-to-move",
            "engineVersion": ENGINE_VERSION,
            "engineArtifact": ENGINE_ARTIFACT,
            "generator": f"{PROGRAM} {kit_version()} ({SCRIPT})",
            "provenance": provenance(schema_id),
            "recordedBy": [],
            "columns": list(schema.columns),
            "probes": rows[schema_id],
        }
        for schema_id, schema in schemas.items()
    }
    for corpus in corpora.values():
        corpus["recordedBy"] = recorded_by(corpus, records)
    return corpora


def generate() -> dict[str, bytes]:
    return {output_path(schema_id): render(corpus) for schema_id, corpus in vectors().items()}
