"""Write the JSON Schemas (draft 2020-12) of the golden corpus files under ``schema/``.

* ``probes.schema.json`` - ``golden/probes.json``;
* ``probes-tsv.schema.json`` - ``golden/probes.tsv`` as :func:`contract.core.probetable.read` gives it;
* ``golden-vectors.schema.json`` - ``golden/vectors/*.json`` and the engine's recorded goldens (one
  format); each schema id is tied to its exact column list and width;
* ``parity.schema.json`` - the engine-format parity file ``synthetic_kcp13_value_parity.json``;
* ``drift-log.schema.json`` - ``golden/drift-log.json``, the accepted drifts and their reasons;
* ``feature-schemas.schema.json`` - the registry ``schema/feature-schemas.json`` itself.

Widths and columns come from the registry (``schema/feature-schemas.json``), never typed twice.
Patterns use ASCII classes only (``[0-9]``, never ``\\d``) so Python ``jsonschema``, ``check-jsonschema``
and ajv read them alike. What JSON Schema cannot say (unique probe ids, twins matching their originals)
is checked by ``python -m contract.golden check`` and tests/golden.
"""

from __future__ import annotations

import json
from typing import Any

from contract.core import formatversion
from contract.core.registry import feature_schemas
from contract.core.registry import get as get_schema
from contract.features import rules

SCHEMA_BASE = "https://dicechess-contract.dev/schema/"
DRAFT = "https://json-schema.org/draft/2020-12/schema"
PARITY_SCHEMA_ID = "kcp-13"

PROBE_ID = {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$", "maxLength": 200}
_PIECES = "pnbrqkPNBRQK"
FEN = {
    "type": "string",
    "pattern": (
        f"^[1-8{_PIECES}/]+ [wb] (-|[KQkq]{{1,4}}) (-|([a-h][1-8])+)"
        f"( [0-9]+( [0-9]+( (-|[{_PIECES}]{{1,3}}))?)?)?$"
    ),
    "description": "DFEN (spec/domain.md §2): 4 to 7 fields; the extractors ignore clocks and dice.",
}
SIDE = {"enum": ["w", "b"], "description": "The extraction colour: the FEN's side to move."}
TAGS = {"type": "array", "items": {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$"}}
SHA256 = {"type": "string", "pattern": "^[0-9a-f]{64}$"}
SEMVER = {"type": "string", "pattern": "^[0-9]+\\.[0-9]+\\.[0-9]+$"}


def _document(name: str, title: str, description: str, body: dict[str, Any]) -> dict[str, Any]:
    return {"$schema": DRAFT, "$id": f"{SCHEMA_BASE}{name}.schema.json", "title": title,
            "description": description, **body}


def _format_version(name: str) -> dict[str, Any]:
    """The ``formatVersion`` property of file ``name``: every version with the kit's major (docs/versioning.md)."""
    return {"type": "string", "pattern": formatversion.pattern(name),
            "description": "The version of this file (docs/versioning.md): a reader reads every minor and patch "
                           "of the major it knows and refuses any other major."}


def _vector(width: int) -> dict[str, Any]:
    return {"type": "array", "items": {"type": "number"}, "minItems": width, "maxItems": width}


def probes_schema() -> dict[str, Any]:
    probe = {
        "type": "object",
        "required": ["id", "fen", "side", "tags", "note", "origin"],
        "additionalProperties": False,
        "properties": {
            "id": PROBE_ID,
            "fen": FEN,
            "side": SIDE,
            "tags": TAGS,
            "note": {"type": "string"},
            "origin": {"type": "string", "minLength": 1,
                       "description": "Who wrote the probe: a recorded corpus, or the kit."},
            "twinOf": {**PROBE_ID, "description": "For a '-twin' probe: the id of the probe it mirrors."},
        },
    }
    return _document(
        "probes", "dicechess-contract golden probes",
        "golden/probes.json: the probe positions of the golden corpus (generators/probes.py).",
        {"type": "object", "required": ["formatVersion", "description", "probes"], "additionalProperties": False,
         "properties": {"formatVersion": _format_version("probes"), "description": {"type": "string"},
                        "probes": {"type": "array", "minItems": 1, "items": probe}}},
    )


def _rules_label() -> dict[str, Any]:
    """A kit vector's ``rules`` label (golden-vectors 1.2.0; contract.recordings.rulelabel)."""
    names = list(rules.RULES)
    recorders = {"type": "array", "items": {"type": "string", "minLength": 1}, "uniqueItems": True}
    return {
        "type": "object",
        "required": ["dependsOn", "recordedBy"],
        "additionalProperties": False,
        "description": "In a file the kit computed (format 1.2.0): dependsOn, the named rules of "
                       "schema/engine-rules.json whose value changes this vector (empty: every rule set gives "
                       "it); follows, the value of each the file's engineVersion follows; unknown, those the kit "
                       "does not know for that release; recordedBy, every recorder under golden/recorded/ holding "
                       "exactly this value (same schema, FEN and side; empty: the kit's word alone); "
                       "otherRuleSets, each other rule set's differing value and its recorders.",
        "properties": {
            "dependsOn": {"type": "array", "items": {"enum": names}, "uniqueItems": True},
            "follows": {"type": "object", "propertyNames": {"enum": names},
                        "additionalProperties": {"type": "string"}},
            "unknown": {"type": "array", "items": {"enum": names}, "uniqueItems": True},
            "recordedBy": recorders,
            "otherRuleSets": {"type": "array", "items": {
                "type": "object", "required": ["ruleSet", "features", "recordedBy"], "additionalProperties": False,
                "properties": {"ruleSet": {"type": "string", "minLength": 1},
                               "features": {"type": "array", "items": {"type": "number"}},
                               "recordedBy": recorders}}},
        },
    }


def golden_vectors_schema() -> dict[str, Any]:
    schemas = feature_schemas()
    ties = [
        {
            "if": {"properties": {"schema": {"const": s.id}}, "required": ["schema"]},
            "then": {"properties": {"columns": {"const": list(s.columns)},
                                    "probes": {"items": {"properties": {"features": _vector(s.width)}}}}},
        }
        for s in schemas.values()
    ]
    probe = {
        "type": "object",
        "required": ["id", "fen", "side", "tags", "note", "features"],
        "properties": {
            "id": {"type": "string", "minLength": 1},
            "fen": FEN,
            "side": SIDE,
            "tags": {"type": "array", "items": {"type": "string"}},
            "note": {"type": "string"},
            "features": {"type": "array", "items": {"type": "number"},
                         "description": "float32 values, shortest round-trip text; compare as float32."},
            "rules": _rules_label(),
        },
    }
    return _document(
        "golden-vectors", "dice-chess golden feature vectors",
        "One feature schema's vectors for a list of probes, mover perspective: the engine goldens' format "
        "(spec/features.md §12), shared by golden/vectors/*.json and the recorded goldens. The kit's own files "
        "carry formatVersion; the engine's recordings (its golden tool's format) carry none, and the kit reads "
        "them as they were recorded.",
        {"type": "object",
         "required": ["schema", "perspective", "engineVersion", "columns", "probes"],
         "properties": {
             "formatVersion": _format_version("golden-vectors"),
             "schema": {"enum": list(schemas)},
             "perspective": {"const": "side-to-move"},
             "engineVersion": SEMVER,
             "engineArtifact": {"type": "string"},
             "generator": {"type": "string"},
             "provenance": {
                 "type": "object",
                 "required": ["computedBy", "computedByVersion", "program"],
                 "additionalProperties": {"type": "string"},
                 "description": "In a file the kit computed: the program and version that wrote it, and what "
                                "engineVersion means there. The engine's own recordings carry none.",
             },
             "recordedBy": {
                 "type": "array",
                 "description": "In a file the kit computed: each engine recording under golden/recorded/ that "
                                "holds some of its vectors (same schema, probe id, FEN and side), with what "
                                "recorded it and how many of the file's probes it records.",
                 "items": {"type": "object", "required": ["recorder", "file", "probes"],
                           "additionalProperties": False,
                           "properties": {"recorder": {"type": "string", "minLength": 1},
                                          "file": {"type": "string", "pattern": "^golden/recorded/"},
                                          "probes": {"type": "integer", "minimum": 1}}},
             },
             "columns": {"type": "array", "items": {"type": "string"}},
             "probes": {"type": "array", "items": probe},
         },
         "allOf": ties},
    )


def parity_schema() -> dict[str, Any]:
    schema = get_schema(PARITY_SCHEMA_ID)
    probe = {
        "type": "object",
        "required": ["id", "fen", "side", "features", "output"],
        "additionalProperties": False,
        "properties": {
            "id": {"type": "string", "minLength": 1},
            "fen": FEN,
            "side": SIDE,
            "features": _vector(schema.width),
            "output": {"type": "number", "minimum": 0, "maximum": 1,
                       "description": "The model's float32 output, written as the double it widens to."},
        },
    }
    measurement = {
        "type": "object",
        "required": ["runtime", "comparedWith", "maxAbsoluteDifference"],
        "additionalProperties": False,
        "properties": {
            "runtime": {"type": "string", "minLength": 1,
                        "description": "The runtime that scored the file's feature rows."},
            "comparedWith": {"type": "string", "minLength": 1,
                             "description": "Whose recorded outputs its scores were compared with."},
            "maxAbsoluteDifference": {"type": "number", "minimum": 0,
                                      "description": "The largest absolute difference observed over the probes."},
        },
    }
    output_tolerance = {
        "type": "object",
        "required": ["absolute", "reason", "measuredOn"],
        "additionalProperties": False,
        "properties": {
            "absolute": {"type": "number", "minimum": 0,
                         "description": "A reader's output for a probe agrees when |output - recorded| <= this."},
            "reason": {"type": "string", "minLength": 1},
            "measuredOn": {"type": "array", "minItems": 1, "items": measurement},
        },
    }
    fields = ["schema", "perspective", "model", "modelSha256", "generator", "runtime", "featureSource",
              "columns", "probes"]
    return _document(
        "parity", "dice-chess model parity fixture",
        "The engine's synthetic_kcp13_value_parity.json format (spec/contract.md §8.1): feature rows and "
        "the onnxruntime outputs a reader must reproduce. Format 1.1 adds formatVersion and the tolerance the "
        "outputs are compared with; a file without them (the engine's, format 1.0) is read as before.",
        {"type": "object", "required": fields, "additionalProperties": False,
         "properties": {
             "formatVersion": {**_format_version("parity"),
                               "description": "The version of this file (docs/versioning.md); absent in the "
                                              "engine's own files, which are format 1.0.0."},
             "tolerance": {"type": "object", "required": ["output"], "additionalProperties": False,
                           "description": "Per compared value of a probe (its output): the absolute tolerance, "
                                          "why, and the runtimes it was measured on (docs/golden.md).",
                           "properties": {"output": output_tolerance}},
             "schema": {"const": schema.id},
             "perspective": {"const": "side-to-move"},
             "model": {"type": "string", "pattern": "^[A-Za-z0-9_.-]+\\.onnx$"},
             "modelSha256": SHA256,
             "generator": {"type": "string"},
             "runtime": {"type": "string"},
             "featureSource": {"type": "string"},
             "columns": {"const": list(schema.columns)},
             "probes": {"type": "array", "minItems": 1, "items": probe},
         }},
    )


def drift_log_schema() -> dict[str, Any]:
    change = {
        "type": "object",
        "required": ["schema", "probe", "column", "old", "new"],
        "additionalProperties": False,
        "properties": {
            "schema": {"enum": list(feature_schemas())},
            "probe": {"type": "string", "minLength": 1},
            "column": {"type": "string", "minLength": 1},
            "old": {"type": ["number", "null"], "description": "null: the cell did not exist."},
            "new": {"type": ["number", "null"], "description": "null: the cell no longer exists."},
        },
    }
    entry = {
        "type": "object",
        "required": ["reason", "changes"],
        "additionalProperties": False,
        "properties": {
            "reason": {"type": "string", "pattern": "[^\\x00-\\x20]"},
            "changes": {"type": "array", "minItems": 1, "items": change},
        },
    }
    return _document(
        "drift-log", "dicechess-contract accepted vector drift",
        "golden/drift-log.json: every change to an existing probe's vector that "
        "'python -m contract.golden regenerate --accept-drift REASON' accepted, with its reason.",
        {"type": "object", "required": ["formatVersion", "description", "entries"], "additionalProperties": False,
         "properties": {"formatVersion": _format_version("drift-log"), "description": {"type": "string"},
                        "entries": {"type": "array", "items": entry}}},
    )


def feature_schemas_schema() -> dict[str, Any]:
    entry = {
        "type": "object",
        "required": ["id", "width", "engineExtractor", "description", "columns"],
        "properties": {
            "id": {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$",
                   "description": "The id manifests name in featureSchema."},
            "width": {"type": "integer", "minimum": 1, "description": "The number of columns."},
            "engineExtractor": {"type": "string", "description": "The engine class that defines the schema."},
            "builtOn": {"type": "string", "description": "The narrower schema whose vector is this one's prefix."},
            "description": {"type": "string"},
            "columns": {"type": "array", "minItems": 1, "uniqueItems": True,
                        "items": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"},
                        "description": "Column names in vector order; as many as width."},
        },
    }
    return _document(
        "feature-schemas", "dicechess-contract feature-schema registry",
        "schema/feature-schemas.json: every feature schema a reader accepts, with its width and ordered "
        "column names (the one place they are defined). That width equals the number of columns, and that "
        "builtOn names a registered schema whose columns are this one's prefix, is checked by the kit.",
        {"type": "object", "required": ["formatVersion", "description", "schemas"],
         "properties": {"formatVersion": _format_version("feature-schemas"), "description": {"type": "string"},
                        "schemas": {"type": "array", "minItems": 1, "items": entry}}},
    )


def probes_tsv_schema() -> dict[str, Any]:
    row = {
        "type": "object",
        "required": ["id", "fen", "tags", "note"],
        "additionalProperties": False,
        "properties": {"id": PROBE_ID, "fen": FEN, "tags": TAGS, "note": {"type": "string"}},
    }
    return _document(
        "probes-tsv", "dicechess-contract golden probe table",
        "golden/probes.tsv, the probe list in the training golden tool's format (header id, fen, tags, note; "
        "tab-separated; tags space-separated), as contract.core.probetable.read gives it: the header's "
        "columns and one object per line. The line structure itself (UTF-8, LF, a final newline, four fields "
        "per line) is checked by that reader. The table carries no version of its own: its one consumer requires "
        "line 1 to be exactly the header and every other line to be a probe, so a version line would break it; "
        "it is generated from golden/probes.json, whose formatVersion is its version (docs/versioning.md).",
        {"type": "object", "required": ["columns", "rows"], "additionalProperties": False,
         "properties": {"columns": {"const": ["id", "fen", "tags", "note"]},
                        "rows": {"type": "array", "minItems": 1, "items": row}}},
    )


SCHEMAS = {
    "feature-schemas": feature_schemas_schema,
    "probes": probes_schema,
    "probes-tsv": probes_tsv_schema,
    "golden-vectors": golden_vectors_schema,
    "parity": parity_schema,
    "drift-log": drift_log_schema,
}


def generate() -> dict[str, bytes]:
    return {
        f"schema/{name}.schema.json": (json.dumps(build(), indent=2, ensure_ascii=True) + "\n").encode("utf-8")
        for name, build in SCHEMAS.items()
    }
