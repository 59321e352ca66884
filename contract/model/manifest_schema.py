"""What the manifest JSON Schemas say, read once: versions, per-version field rules, roles, perspectives.

``schema/manifest-<version>.schema.json`` are the vendored source; the loader takes its lists from
them rather than from a second table in Python. A property whose schema is ``{"type": "null"}`` is a
field the version does not define (absent or null only).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator

from contract.core.resources import schema_dir


class FieldRule(StrEnum):
    REQUIRED = "required"
    OPTIONAL = "optional"
    UNDEFINED = "undefined"


@dataclass(frozen=True)
class ManifestVersion:
    version: str
    rules: dict[str, FieldRule]
    document: dict[str, Any]

    def rule(self, field: str) -> FieldRule:
        return self.rules.get(field, FieldRule.OPTIONAL)


def _load(path_version: str) -> ManifestVersion:
    path = schema_dir() / f"manifest-{path_version}.schema.json"
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    required = set(document["required"])
    rules: dict[str, FieldRule] = {}
    for field, spec in document["properties"].items():
        if field in required:
            rules[field] = FieldRule.REQUIRED
        elif spec.get("type") == "null":
            rules[field] = FieldRule.UNDEFINED
        else:
            rules[field] = FieldRule.OPTIONAL
    return ManifestVersion(path_version, rules, document)


@cache
def manifest_versions() -> dict[str, ManifestVersion]:
    """Every manifest version with a schema file, in version order."""
    names = sorted(
        p.name[len("manifest-"):-len(".schema.json")]
        for p in schema_dir().glob("manifest-*.schema.json")
    )
    names.sort(key=lambda v: tuple(int(x) for x in v.split(".")))
    return {v: _load(v) for v in names}


def _enum(field: str) -> tuple[str, ...]:
    for mv in manifest_versions().values():
        spec = mv.document["properties"].get(field, {})
        if "enum" in spec:
            return tuple(sorted(spec["enum"]))
    raise RuntimeError(f"no manifest schema enumerates {field!r}")


@cache
def known_roles() -> tuple[str, ...]:
    return _enum("modelRole")


@cache
def known_perspectives() -> tuple[str, ...]:
    return _enum("perspective")


@cache
def validator(version: str) -> Draft202012Validator:
    """A reusable JSON Schema validator for one manifest version (built once)."""
    return Draft202012Validator(manifest_versions()[version].document)
