"""Reading ``manifest.json``: the check table's manifest family, in its order, first failure wins.

The order, codes, fields and message templates are data: the ``manifest`` family of
``schema/check-table.json`` (spec/contract.md §4.1 steps 3-6: structural reading field by field,
then value validation, then the expected-role gate). Which fields a version requires, allows or does
not define, their types, defaults and allowed values are data too (``schema/manifest-fields.json``,
read by :mod:`contract.model.manifest_schema`); widths come from the registry. This module holds only
what each kind of check tests. Messages carry no path; :mod:`contract.model.package` adds
``<manifestPath>: ``.

The kit is stricter than the engine in two recorded ways (golden/divergences.json): a 1.0.0 manifest
naming ``inputName``/``outputName`` is refused (the service reads only ``input``/``output``), and the
JSON text itself must be unambiguous (no duplicate keys, NaN, Infinity, nesting deeper than 64, or
more than 1 MiB).

>>> read_manifest(b'[1, 2]', "0.12.0").message
'manifest must be a JSON object'
>>> refused = read_manifest(b'{"manifestVersion": "2.0.0"}', "0.12.0").refusal
>>> refused.message
"unsupported manifestVersion '2.0.0'; expected one of 1.0.0, 1.1.0"
>>> refused.code, refused.field
('manifest.manifestVersion.unsupported', '/manifestVersion')
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final

from contract.core import strictjson
from contract.core.arguments import TEXT_OR_BYTES, not_a_string, wrong_type
from contract.core.checktable import (
    CONTRACT_TABLE,
    PASS,
    Check,
    Entry,
    Fields,
    ForEach,
    TableEntry,
    Within,
    first_failure,
    require_codes,
    table_family,
)
from contract.core.record import Record
from contract.core.refusal import Refusal
from contract.core.registry import FeatureSchema, feature_schemas
from contract.model import compatibility
from contract.model.compatibility import EDGE_CHARACTERS
from contract.model.manifest_schema import (
    VERSION_FIELD,
    FieldRule,
    ManifestField,
    manifest_fields,
)

INT_MIN: Final = -2_147_483_648
INT_MAX: Final = 2_147_483_647
SHA256_HEX: Final = re.compile(r"[0-9a-fA-F]{64}")

DEFAULT_TEMPERATURE: Final = manifest_fields().field("calibration").properties[0].default


class Calibration(Record):
    temperature: float = DEFAULT_TEMPERATURE
    brier_score: float | None = None
    log_loss: float | None = None
    calibrated_on: str | None = None


# A dataclass still, not a Record: callers derive one manifest from another with dataclasses.replace.
@dataclass(frozen=True)
class Manifest:
    """A manifest that passed every check, with the version's defaults filled in."""

    manifest_version: str
    model_id: str
    model_sha256: str
    model_role: str
    feature_schema: FeatureSchema
    feature_count: int
    input_name: str
    output_name: str
    perspective: str
    engine_compatibility: str
    evaluation_profile: str | None
    calibration: Calibration | None
    provenance: dict[str, str]
    raw: dict[str, Any] = field(repr=False, compare=False)
    values: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)  # every field, as read


class ManifestResult(Record):
    manifest: Manifest | None
    refusal: Refusal | None

    @property
    def ok(self) -> bool:
        return self.refusal is None

    @property
    def message(self) -> str | None:
        return None if self.refusal is None else self.refusal.message


class _Reading(Record, frozen=False):
    """State threaded through the check table."""

    raw: Any
    engine_version: Any
    expected_role: str | None
    version: str | None = None


class _At(Record):
    """One field of the reading (None for the checks on the whole document)."""

    reading: _Reading
    spec: ManifestField | None

    @property
    def name(self) -> str:
        assert self.spec is not None
        return self.spec.name

    @property
    def present(self) -> bool:
        return self.reading.raw.get(self.name) is not None  # null reads as absent

    @property
    def rule(self) -> FieldRule:
        assert self.spec is not None
        version = self.reading.version
        return FieldRule.REQUIRED if version is None else self.spec.rule(version)

    @property
    def block(self) -> dict[str, Any]:
        value: dict[str, Any] = self.reading.raw[self.name] if self.present else {}
        return value

    def value(self, name: str | None = None) -> Any:
        """A field's value as read, or its default when the declared version leaves it out."""
        spec = self.spec if name is None else manifest_fields().field(name)
        assert spec is not None
        return _value(spec, self.reading.raw.get(spec.name))


def _whole_number(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        number = value
    elif isinstance(value, float) and math.isfinite(value) and value.is_integer():
        number = int(value)
    else:
        return None
    return number if INT_MIN <= number <= INT_MAX else None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _as_double(value: Any) -> float | None:
    """A JSON number as the double every reader holds; None when it is not one (or no double fits it).

    :func:`read_manifest` never yields such an int (strict JSON refuses it); a document handed to
    :func:`check_document` directly may.
    """
    if not _is_number(value):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def _scalar_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _is_scalar(value: Any) -> bool:
    return isinstance(value, str | bool) or _as_double(value) is not None


def _value(spec: ManifestField, raw: Any) -> Any:
    """A field's value once the structural checks passed; its default when absent (null is absent)."""
    if raw is None:
        if spec.type == "object":
            return None
        if spec.type == "scalarMap":
            return {}
        return spec.default
    if spec.type == "wholeNumber":
        return _whole_number(raw)
    if spec.type == "object":
        return {p.name: p.default if raw.get(p.name) is None
                else (_as_double(raw[p.name]) if p.type == "number" else raw[p.name])
                for p in spec.properties}
    if spec.type == "scalarMap":
        return {key: _scalar_text(item) for key, item in raw.items()}
    return raw


_TYPE_TESTS: Final[dict[str, Callable[[Any], bool]]] = {
    "manifestVersion": lambda v: isinstance(v, str),
    "string": lambda v: isinstance(v, str),
    "number": lambda v: _as_double(v) is not None,
    "wholeNumber": lambda v: _whole_number(v) is not None,
    "object": lambda v: isinstance(v, dict),
    "scalarMap": lambda v: isinstance(v, dict),
}


def _blank(text: str) -> bool:
    return text.strip(EDGE_CHARACTERS) == ""


# ----------------------------------------------------------------------------------------------
# What each kind of check tests. A test returns the template's fields when the check fails.

Test = Callable[[_At], Fields | None]


def _document(entry: TableEntry) -> Test:
    return lambda at: {} if not isinstance(at.reading.raw, dict) else PASS


def _host_type(entry: TableEntry) -> Test:
    return lambda at: {} if not isinstance(at.reading.engine_version, str) else PASS


def _supported_version(entry: TableEntry) -> Test:
    def test(at: _At) -> Fields | None:
        versions = manifest_fields().versions
        value = at.reading.raw[VERSION_FIELD]
        if value not in versions:
            return {"value": value, "versions": ", ".join(versions)}
        at.reading.version = value
        return PASS

    return test


def _not_defined(entry: TableEntry) -> Test:
    def test(at: _At) -> Fields | None:
        if at.rule is FieldRule.UNDEFINED and at.present:
            return {"version": at.reading.version, "name": at.name}
        return PASS

    return test


def _required_by_version(entry: TableEntry) -> Test:
    def test(at: _At) -> Fields | None:
        assert at.spec is not None and at.reading.version is not None
        if at.rule is FieldRule.REQUIRED and not at.present and at.spec.introduced_after(at.reading.version):
            return {"version": at.reading.version, "name": at.name}
        return PASS

    return test


def _required(entry: TableEntry) -> Test:
    return lambda at: {"name": at.name} if at.rule is FieldRule.REQUIRED and not at.present else PASS


def _applies(entry: TableEntry, at: _At) -> bool:
    assert at.spec is not None
    return at.present and (entry.applies_to is None or at.spec.type in entry.applies_to)


def _type(entry: TableEntry) -> Test:
    def test(at: _At) -> Fields | None:
        assert at.spec is not None
        if _applies(entry, at) and not _TYPE_TESTS[at.spec.type](at.reading.raw[at.name]):
            return {"name": at.name}
        return PASS

    return test


def _property_type(entry: TableEntry) -> Test:
    wanted = entry.data["propertyType"]

    def test(at: _At) -> Fields | None:
        assert at.spec is not None
        if not _applies(entry, at):
            return PASS
        for prop in at.spec.properties:
            item = at.block.get(prop.name)
            if prop.type == wanted and item is not None and not _TYPE_TESTS[wanted](item):
                return {"name": at.name, "property": prop.name}
        return PASS

    return test


def _entry_type(entry: TableEntry) -> Test:
    def test(at: _At) -> Fields | None:
        if not _applies(entry, at):
            return PASS
        for key, item in at.block.items():
            if not _is_scalar(item):
                return {"name": at.name, "key": key}
        return PASS

    return test


def _not_blank(entry: TableEntry) -> Test:
    return lambda at: {} if _blank(at.value()) else PASS


def _pattern(entry: TableEntry) -> Test:
    def test(at: _At) -> Fields | None:
        assert at.spec is not None and at.spec.pattern is not None
        return {} if re.fullmatch(at.spec.pattern, at.value()) is None else PASS

    return test


def _one_of(entry: TableEntry) -> Test:
    def test(at: _At) -> Fields | None:
        assert at.spec is not None and at.spec.one_of is not None
        known = manifest_fields().choices(at.spec.one_of)
        value = at.value()
        return {"value": value, "known": ", ".join(known)} if value not in known else PASS

    return test


def _width(entry: TableEntry) -> Test:
    def test(at: _At) -> Fields | None:
        assert at.spec is not None and at.spec.width_of is not None
        schema = feature_schemas()[at.value(at.spec.width_of)]
        count = at.value()
        return {"value": count, "schema": schema.id, "width": schema.width} if count != schema.width else PASS

    return test


def _expected_role(entry: TableEntry) -> Test:
    def test(at: _At) -> Fields | None:
        expected, declared = at.reading.expected_role, at.value()
        return {"value": declared, "expected": expected} if expected is not None and declared != expected else PASS

    return test


_KINDS: Final[dict[str, Callable[[TableEntry], Test]]] = {
    "document": _document,
    "hostType": _host_type,
    "supportedVersion": _supported_version,
    "notDefined": _not_defined,
    "requiredByVersion": _required_by_version,
    "required": _required,
    "type": _type,
    "propertyType": _property_type,
    "entryType": _entry_type,
    "notBlank": _not_blank,
    "pattern": _pattern,
    "oneOf": _one_of,
    "width": _width,
    "expectedRole": _expected_role,
}


def _question(at: _At) -> compatibility.Question:
    return compatibility.Question(at.value(), at.reading.engine_version)


def _at(of: str | None) -> Callable[[_Reading], _At]:
    return lambda reading: _At(reading, None if of is None else manifest_fields().field(of))


def _each_field(reading: _Reading) -> list[_At]:
    return [_At(reading, spec) for spec in manifest_fields().fields if spec.name != VERSION_FIELD]


def _interpret(entry: TableEntry, in_group: bool = False) -> Entry[Any]:
    if entry.each == "field":
        return ForEach(_each_field, [_interpret(sub, in_group=True) for sub in entry.checks])
    if entry.kind == "compatibility":
        return Within(lambda reading: _question(_at(entry.of)(reading)), compatibility.CHECKS)
    check = Check(entry.code, _KINDS[entry.kind](entry), entry.message, entry.field)
    return check if in_group else Within(_at(entry.of), [check])


# The checks this interpreter implements (kinds bind them; the table orders and words them). A table
# without one of them is refused at import (contract.core.checktable.require_codes): fail closed.
IMPLEMENTED: Final = (
    "manifest.notObject", "manifest.engineVersion.notString", "manifest.manifestVersion.missing",
    "manifest.manifestVersion.notString", "manifest.manifestVersion.unsupported",
    "manifest.field.notDefined", "manifest.field.requiredByVersion", "manifest.field.missing",
    "manifest.field.notString", "manifest.field.notWholeNumber", "manifest.field.notObject",
    "manifest.property.notNumber", "manifest.property.notString", "manifest.entry.notScalar",
    "manifest.modelId.blank", "manifest.modelSha256.pattern", "manifest.modelRole.unknown",
    "manifest.featureSchema.unknown", "manifest.featureCount.mismatch", "manifest.inputName.blank",
    "manifest.outputName.blank", "manifest.perspective.unsupported", "manifest.engineCompatibility",
    "manifest.modelRole.cannotServe",
)
require_codes(CONTRACT_TABLE, "manifest", IMPLEMENTED)


@cache
def checks() -> Sequence[Entry[_Reading]]:
    """The manifest family of the check table, each entry bound to what its kind tests."""
    return tuple(_interpret(entry) for entry in table_family("manifest"))


def _manifest(reading: _Reading) -> Manifest:
    at = _At(reading, None)
    v = {spec.name: at.value(spec.name) for spec in manifest_fields().fields}
    block = v["calibration"]
    calibration = None if block is None else Calibration(
        temperature=block["temperature"],
        brier_score=block["brierScore"],
        log_loss=block["logLoss"],
        calibrated_on=block["calibratedOn"],
    )
    return Manifest(
        manifest_version=v["manifestVersion"],
        model_id=v["modelId"],
        model_sha256=v["modelSha256"],
        model_role=v["modelRole"],
        feature_schema=feature_schemas()[v["featureSchema"]],
        feature_count=v["featureCount"],
        input_name=v["inputName"],
        output_name=v["outputName"],
        perspective=v["perspective"],
        engine_compatibility=v["engineCompatibility"],
        evaluation_profile=v["evaluationProfile"],
        calibration=calibration,
        provenance=v["provenance"],
        raw=reading.raw,
        values=v,
    )


def check_document(raw: Any, engine_version: str, expected_role: str | None = None) -> ManifestResult:
    """Run the check table over an already-parsed JSON value."""
    wrong = not_a_string("expected_role", expected_role, optional=True)
    if wrong is not None:
        return ManifestResult(None, wrong)
    reading = _Reading(raw, engine_version, expected_role)
    failure = first_failure(checks(), reading)
    if failure is not None:
        return ManifestResult(None, Refusal(failure.message, failure.code, failure.field))
    return ManifestResult(_manifest(reading), None)


def read_manifest(data: bytes | str, engine_version: str, expected_role: str | None = None) -> ManifestResult:
    """Parse manifest text strictly, then run the check table. Never raises, whatever the arguments
    (``data`` may be any bytes-like object)."""
    if isinstance(data, (bytearray, memoryview)):
        data = bytes(data)
    if not isinstance(data, (str, bytes)):
        return ManifestResult(None, wrong_type("data", TEXT_OR_BYTES, data))
    try:
        raw = strictjson.parse(data)
    except strictjson.StrictJsonError as refused:
        return ManifestResult(None, refused.refusal)
    return check_document(raw, engine_version, expected_role)
