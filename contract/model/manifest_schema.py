"""The manifest's fields as data, read once from ``schema/manifest-fields.json``.

That one hand-written file says which manifest versions exist, which fields each defines, requires or
leaves out, each field's type, value constraint and default, and the roles and perspectives. The
manifest reader (:mod:`contract.model.manifest`), the JSON Schemas (``generators/manifest_schemas.py``
writes ``schema/manifest-<version>.schema.json`` from it) and the Node implementation all take their
lists from it. A field's rule applies from the version it is listed at until the next listed version;
a field with no rule at or before a version is not defined by that version.

>>> manifest_versions()["1.0.0"].rule("modelRole")
<FieldRule.UNDEFINED: 'undefined'>
>>> manifest_versions()["1.1.0"].rule("modelRole")
<FieldRule.REQUIRED: 'required'>
>>> known_roles()
('chance-collapse', 'move-prerank', 'position-value')
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from enum import StrEnum
from functools import cache
from typing import TYPE_CHECKING, Any, Final

from contract.core import formatversion
from contract.core.record import Record
from contract.core.registry import feature_schemas
from contract.core.resources import schema_dir

if TYPE_CHECKING:  # jsonschema is imported by validator() alone: every validate would pay ~80 ms for it
    from jsonschema import Draft202012Validator

FIELDS_FILE: Final = "manifest-fields.json"
VERSION_FIELD: Final = "manifestVersion"


class FieldRule(StrEnum):
    REQUIRED = "required"
    OPTIONAL = "optional"
    UNDEFINED = "undefined"


def version_key(version: str) -> tuple[int, ...]:
    """A ``MAJOR.MINOR.PATCH`` text as a sortable tuple."""
    return tuple(int(part) for part in version.split("."))


class PropertySpec(Record):
    """A property of an object-typed field (``calibration.temperature``)."""

    name: str
    type: str
    default: Any = None


class ManifestField(Record):
    """One field of ``manifest-fields.json``."""

    name: str
    type: str
    rules: Mapping[str, FieldRule]
    default: Any = None
    not_blank: bool = False
    pattern: str | None = None
    length: int | None = None
    one_of: str | None = None
    width_of: str | None = None
    grammar: str | None = None
    properties: tuple[PropertySpec, ...] = ()
    description: str | None = None

    def rule(self, version: str) -> FieldRule:
        """The rule the latest version listed at or before ``version`` states; UNDEFINED if none."""
        listed = [v for v in self.rules if version_key(v) <= version_key(version)]
        if not listed:
            return FieldRule.UNDEFINED
        return self.rules[max(listed, key=version_key)]

    def introduced_after(self, version: str) -> bool:
        """True when a version before ``version`` does not define this field."""
        return any(self.rule(v) is FieldRule.UNDEFINED
                   for v in manifest_fields().versions if version_key(v) < version_key(version))


class ManifestFields(Record):
    version: str
    versions: tuple[str, ...]
    lists: Mapping[str, tuple[str, ...]]
    fields: tuple[ManifestField, ...]

    def field(self, name: str) -> ManifestField:
        for spec in self.fields:
            if spec.name == name:
                return spec
        raise KeyError(f"manifest-fields.json defines no field {name!r}")

    def choices(self, list_name: str) -> tuple[str, ...]:
        """A named list of allowed values, sorted; ``featureSchemas`` is the registry's ids."""
        if list_name == "featureSchemas":
            return tuple(sorted(feature_schemas()))
        return tuple(sorted(self.lists[list_name]))


def _field(raw: Mapping[str, Any]) -> ManifestField:
    return ManifestField(
        name=raw["name"],
        type=raw["type"],
        rules={v: FieldRule(rule) for v, rule in raw["rules"].items()},
        default=raw.get("default"),
        not_blank=bool(raw.get("notBlank", False)),
        pattern=raw.get("pattern"),
        length=raw.get("length"),
        one_of=raw.get("oneOf"),
        width_of=raw.get("widthOf"),
        grammar=raw.get("grammar"),
        properties=tuple(PropertySpec(p["name"], p["type"], p.get("default")) for p in raw.get("properties", ())),
        description=raw.get("description"),
    )


@cache
def manifest_fields() -> ManifestFields:
    """``schema/manifest-fields.json``, read once."""
    raw: dict[str, Any] = json.loads((schema_dir() / FIELDS_FILE).read_text(encoding="utf-8"))
    return ManifestFields(
        version=formatversion.check(f"schema/{FIELDS_FILE}", raw, "manifest-fields"),
        versions=tuple(sorted(raw["manifestVersions"], key=version_key)),
        lists={name: tuple(values) for name, values in raw["lists"].items()},
        fields=tuple(_field(f) for f in raw["fields"]),
    )


class ManifestVersion(Record):
    version: str
    rules: dict[str, FieldRule]

    def rule(self, field: str) -> FieldRule:
        return self.rules.get(field, FieldRule.OPTIONAL)

    @property
    def document(self) -> dict[str, Any]:
        """The generated JSON Schema of this version (``schema/manifest-<version>.schema.json``)."""
        return _schema_document(self.version)


@cache
def manifest_versions() -> dict[str, ManifestVersion]:
    """Every manifest version, in version order."""
    data = manifest_fields()
    return {v: ManifestVersion(v, {f.name: f.rule(v) for f in data.fields}) for v in data.versions}


@cache
def known_roles() -> tuple[str, ...]:
    return manifest_fields().choices("roles")


def default_of(name: str) -> Any:
    """The value every reader gives ``name`` when the declared version leaves it out."""
    return manifest_fields().field(name).default


@cache
def _schema_document(version: str) -> dict[str, Any]:
    path = schema_dir() / f"manifest-{version}.schema.json"
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return document


@cache
def validator(version: str) -> Draft202012Validator:
    """A reusable JSON Schema validator for one manifest version (built once)."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(_schema_document(version))
