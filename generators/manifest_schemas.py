"""Write ``schema/manifest-<version>.schema.json`` from the feature-schema registry.

The registry (``schema/feature-schemas.json``) is the one place widths live, so the manifest schemas'
``featureSchema`` enum and the ``featureCount`` tie are generated from it, never typed twice. The
field table below states, per manifest version, which fields are required, optional or not defined
(spec/contract.md §2). A field the declared version does not define may only be absent or ``null``
(``null`` reads as absent); unknown fields are accepted. Patterns use ASCII classes only (``[0-9]``,
never ``\\d``) and bound lengths where Python's ``$`` would otherwise admit a trailing newline, so
Python ``jsonschema`` and ajv read them alike.
"""

from __future__ import annotations

import json
from typing import Any

from contract.core.registry import feature_schemas

SCHEMA_BASE = "https://dicechess-contract.dev/schema/"
VERSIONS = ("1.0.0", "1.1.0")
ROLES = ("chance-collapse", "move-prerank", "position-value")
PERSPECTIVES = ("side-to-move",)

# Comparator syntax of grammar/engine_compatibility.lark, as one regular expression (the component
# bound 2147483647 included). tests/runtime check that it and the grammar agree on every corpus string.
_COMPONENT = (
    "0*(?:[0-9]{1,9}|1[0-9]{9}|20[0-9]{8}|21[0-3][0-9]{7}|214[0-6][0-9]{6}|2147[0-3][0-9]{5}"
    "|21474[0-7][0-9]{4}|214748[0-2][0-9]{3}|2147483[0-5][0-9]{2}|21474836[0-3][0-9]|214748364[0-7])"
)
_COMPARATOR = f"(?:>=|<=|>|<|=)?{_COMPONENT}\\.{_COMPONENT}\\.{_COMPONENT}"
ENGINE_COMPATIBILITY_PATTERN = (
    f"^[\\x00-\\x20]*{_COMPARATOR}(?:[\\t\\n\\x0b\\x0c\\r ]+{_COMPARATOR})*[\\x00-\\x20]*$"
)
NOT_BLANK_PATTERN = "[^\\x00-\\x20]"  # something left after trimming characters <= U+0020

# field -> (1.0.0 rule, 1.1.0 rule); rules: "required", "optional", "undefined".
FIELD_RULES: dict[str, tuple[str, str]] = {
    "manifestVersion": ("required", "required"),
    "modelId": ("required", "required"),
    "modelSha256": ("required", "required"),
    "modelRole": ("undefined", "required"),
    "featureSchema": ("required", "required"),
    "featureCount": ("required", "required"),
    "inputName": ("undefined", "optional"),
    "outputName": ("undefined", "optional"),
    "perspective": ("undefined", "required"),
    "engineCompatibility": ("required", "required"),
    "evaluationProfile": ("optional", "optional"),
    "calibration": ("optional", "optional"),
    "provenance": ("optional", "optional"),
}


def _field_types(version: str) -> dict[str, dict[str, Any]]:
    schema_ids = list(feature_schemas())
    return {
        "manifestVersion": {"const": version},
        "modelId": {"type": "string", "pattern": NOT_BLANK_PATTERN,
                    "description": "Not blank after trimming characters <= U+0020."},
        "modelSha256": {"type": "string", "minLength": 64, "maxLength": 64,
                        "pattern": "^[0-9a-fA-F]{64}$",
                        "description": "SHA-256 of model.onnx; compared ignoring case. Writers emit lowercase."},
        "modelRole": {"enum": list(ROLES)},
        "featureSchema": {"enum": schema_ids,
                          "description": "A registered feature schema id (feature-schemas.json)."},
        "featureCount": {"type": "integer", "minimum": -2147483648, "maximum": 2147483647,
                         "description": "Must equal the width of featureSchema; 13.0 reads as 13."},
        "inputName": {"type": "string", "pattern": NOT_BLANK_PATTERN},
        "outputName": {"type": "string", "pattern": NOT_BLANK_PATTERN},
        "perspective": {"enum": list(PERSPECTIVES)},
        "engineCompatibility": {"type": "string", "pattern": ENGINE_COMPATIBILITY_PATTERN,
                                "description": "Space-separated comparators, e.g. '>=0.12.0 <1.0.0' "
                                               "(grammar/engine_compatibility.lark)."},
        "evaluationProfile": {"type": "string",
                              "description": "Recorded by the engine, never read; the service requires "
                                             "'standard-kcp'."},
        "calibration": {
            "type": "object",
            "properties": {
                "temperature": {"type": ["number", "null"]},
                "brierScore": {"type": ["number", "null"]},
                "logLoss": {"type": ["number", "null"]},
                "calibratedOn": {"type": ["string", "null"]},
            },
            "description": "Advisory only; the engine never applies it. Other keys are ignored.",
        },
        "provenance": {
            "type": "object",
            "additionalProperties": {"type": ["string", "number", "boolean"]},
            "description": "Free-form producer metadata; values are scalars.",
        },
    }


def manifest_schema(version: str) -> dict[str, Any]:
    index = VERSIONS.index(version)
    types = _field_types(version)
    properties: dict[str, Any] = {}
    required: list[str] = []
    for field, rules in FIELD_RULES.items():
        rule = rules[index]
        if rule == "required":
            required.append(field)
            properties[field] = types[field]
        elif rule == "optional":
            properties[field] = {"anyOf": [types[field], {"type": "null"}]}
        else:
            properties[field] = {
                "type": "null",
                "description": f"Not defined by manifestVersion {version}: absent or null only.",
            }
    ties = [
        {
            "if": {"properties": {"featureSchema": {"const": s.id}}, "required": ["featureSchema"]},
            "then": {"properties": {"featureCount": {"const": s.width}}},
        }
        for s in feature_schemas().values()
    ]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"{SCHEMA_BASE}manifest-{version}.schema.json",
        "title": f"dice-chess model manifest {version}",
        "description": (
            "manifest.json of a dice-chess model package (model.onnx + manifest.json). Generated by "
            "generators/manifest_schemas.py from schema/feature-schemas.json; do not edit by hand. "
            "Unknown fields are accepted; a field this version does not define is refused; null reads "
            "as absent."
        ),
        "type": "object",
        "required": required,
        "properties": properties,
        "allOf": ties,
    }


def render(version: str) -> bytes:
    return (json.dumps(manifest_schema(version), indent=2, ensure_ascii=True) + "\n").encode("utf-8")


def generate() -> dict[str, bytes]:
    return {f"schema/manifest-{v}.schema.json": render(v) for v in VERSIONS}
