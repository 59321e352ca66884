"""Reading ``manifest.json``: one ordered table of checks, the engine's messages, first failure wins.

The order is the engine's (spec/contract.md §4.1 steps 3-6): structural reading field by field, then
value validation, then the expected-role gate. Messages carry no path; :mod:`contract.model.package` adds
``<manifestPath>: ``. Which fields a version requires, allows or does not define comes from the
manifest JSON Schemas (:mod:`contract.model.manifest_schema`); widths from the registry.

The kit is stricter than the engine in two recorded ways (docs/divergences in golden/divergences.json):
a 1.0.0 manifest naming ``inputName``/``outputName`` is refused (the service reads only
``input``/``output``), and the JSON text itself must be unambiguous (no duplicate keys, NaN,
Infinity, nesting deeper than 64, or more than 1 MiB).

>>> read_manifest(b'[1, 2]', "0.12.0").message
'manifest must be a JSON object'
>>> read_manifest(b'{"manifestVersion": "2.0.0"}', "0.12.0").message
"unsupported manifestVersion '2.0.0'; expected one of 1.0.0, 1.1.0"
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from contract.core import strictjson
from contract.core.refusal import Refusal
from contract.core.registry import FeatureSchema, feature_schemas
from contract.model.compatibility import EDGE_CHARACTERS, evaluate
from contract.model.manifest_schema import (
    FieldRule,
    ManifestVersion,
    known_perspectives,
    known_roles,
    manifest_versions,
)

INT_MIN: Final = -2_147_483_648
INT_MAX: Final = 2_147_483_647
SHA256_HEX: Final = re.compile(r"[0-9a-fA-F]{64}")

# Defaults every reader applies to a field the declared version leaves out (spec §2.2, §6).
DEFAULTS: Final[Mapping[str, str]] = {
    "modelRole": "position-value",
    "perspective": "side-to-move",
    "inputName": "input",
    "outputName": "output",
}
DEFAULT_TEMPERATURE: Final = 1.0


@dataclass(frozen=True)
class Calibration:
    temperature: float = DEFAULT_TEMPERATURE
    brier_score: float | None = None
    log_loss: float | None = None
    calibrated_on: str | None = None


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


@dataclass(frozen=True)
class ManifestResult:
    manifest: Manifest | None
    refusal: Refusal | None

    @property
    def ok(self) -> bool:
        return self.refusal is None

    @property
    def message(self) -> str | None:
        return None if self.refusal is None else self.refusal.message


class _Refused(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass
class _Reading:
    """State threaded through the check table."""

    raw: dict[str, Any]
    engine_version: str
    expected_role: str | None
    version: ManifestVersion | None = None
    values: dict[str, Any] = field(default_factory=dict)


# ----------------------------------------------------------------------------------------------
# Structural reading (engine step 3)


def _present(reading: _Reading, name: str) -> bool:
    return reading.raw.get(name) is not None  # null reads as absent


def _version_rule(reading: _Reading, name: str) -> bool:
    """Apply the declared version's rule to ``name``; True when the field is present to be read."""
    assert reading.version is not None
    rule = reading.version.rule(name)
    present = _present(reading, name)
    if rule is FieldRule.UNDEFINED and present:
        raise _Refused(f"manifestVersion {reading.version.version} does not define field '{name}'")
    if rule is FieldRule.REQUIRED and not present:
        if name in DEFAULTS:  # a field the version introduced: name the version that requires it
            raise _Refused(f"manifestVersion {reading.version.version} requires field '{name}'")
        raise _Refused(f"missing required field '{name}'")
    return present


def _read_string(name: str) -> Callable[[_Reading], None]:
    def check(reading: _Reading) -> None:
        if not _version_rule(reading, name):
            reading.values[name] = DEFAULTS.get(name)
            return
        value = reading.raw[name]
        if not isinstance(value, str):
            raise _Refused(f"field '{name}' must be a string")
        reading.values[name] = value

    return check


def _read_manifest_version(reading: _Reading) -> None:
    value = reading.raw.get("manifestVersion")
    if value is None:
        raise _Refused("missing required field 'manifestVersion'")
    if not isinstance(value, str):
        raise _Refused("field 'manifestVersion' must be a string")
    versions = manifest_versions()
    if value not in versions:
        raise _Refused(f"unsupported manifestVersion '{value}'; expected one of {', '.join(versions)}")
    reading.version = versions[value]
    reading.values["manifestVersion"] = value


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


def _read_feature_count(reading: _Reading) -> None:
    _version_rule(reading, "featureCount")
    number = _whole_number(reading.raw["featureCount"])
    if number is None:
        raise _Refused("field 'featureCount' must be a whole number")
    reading.values["featureCount"] = number


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


def _read_calibration(reading: _Reading) -> None:
    if not _version_rule(reading, "calibration"):
        reading.values["calibration"] = None
        return
    block = reading.raw["calibration"]
    if not isinstance(block, dict):
        raise _Refused("field 'calibration' must be an object")
    numbers: dict[str, float | None] = {}
    for sub in ("temperature", "brierScore", "logLoss"):
        value = block.get(sub)
        number = None if value is None else _as_double(value)
        if value is not None and number is None:
            raise _Refused(f"field '{sub}' must be a number")
        numbers[sub] = number
    calibrated_on = block.get("calibratedOn")
    if calibrated_on is not None and not isinstance(calibrated_on, str):
        raise _Refused("field 'calibratedOn' must be a string")
    temperature = numbers["temperature"]
    reading.values["calibration"] = Calibration(
        temperature=DEFAULT_TEMPERATURE if temperature is None else temperature,
        brier_score=numbers["brierScore"],
        log_loss=numbers["logLoss"],
        calibrated_on=calibrated_on,
    )


def _scalar_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _read_provenance(reading: _Reading) -> None:
    if not _version_rule(reading, "provenance"):
        reading.values["provenance"] = {}
        return
    block = reading.raw["provenance"]
    if not isinstance(block, dict):
        raise _Refused("field 'provenance' must be an object")
    text: dict[str, str] = {}
    for key, value in block.items():
        scalar = isinstance(value, str | bool) or _as_double(value) is not None
        if not scalar:
            raise _Refused(f"field 'provenance.{key}' must be a string, number or boolean")
        text[key] = _scalar_text(value)
    reading.values["provenance"] = text


# ----------------------------------------------------------------------------------------------
# Value validation (engine step 4) and the role gate (step 6)


def _blank(text: str) -> bool:
    return text.strip(EDGE_CHARACTERS) == ""


def _validate_model_id(reading: _Reading) -> None:
    if _blank(reading.values["modelId"]):
        raise _Refused("modelId must not be blank")


def _validate_digest(reading: _Reading) -> None:
    if SHA256_HEX.fullmatch(reading.values["modelSha256"]) is None:
        raise _Refused("modelSha256 must be exactly 64 hexadecimal characters")


def _validate_role(reading: _Reading) -> None:
    role = reading.values["modelRole"]
    if role not in known_roles():
        raise _Refused(f"unknown modelRole '{role}'; known roles: {', '.join(known_roles())}")


def _validate_schema(reading: _Reading) -> None:
    schema_id = reading.values["featureSchema"]
    schemas = feature_schemas()
    if schema_id not in schemas:
        raise _Refused(f"unknown featureSchema '{schema_id}'; known schemas: {', '.join(sorted(schemas))}")


def _validate_width(reading: _Reading) -> None:
    schema = feature_schemas()[reading.values["featureSchema"]]
    count = reading.values["featureCount"]
    if count != schema.width:
        raise _Refused(
            f"featureCount {count} does not match featureSchema '{schema.id}' ({schema.width} columns)"
        )


def _validate_not_blank(name: str) -> Callable[[_Reading], None]:
    def check(reading: _Reading) -> None:
        if _blank(reading.values[name]):
            raise _Refused(f"{name} must not be blank")

    return check


def _validate_perspective(reading: _Reading) -> None:
    perspective = reading.values["perspective"]
    if perspective not in known_perspectives():
        raise _Refused(
            f"unsupported perspective '{perspective}'; supported: {', '.join(known_perspectives())}"
        )


def _validate_engine_compatibility(reading: _Reading) -> None:
    verdict = evaluate(reading.values["engineCompatibility"], reading.engine_version)
    if verdict.message is not None:
        raise _Refused(verdict.message)


def _gate_expected_role(reading: _Reading) -> None:
    expected = reading.expected_role
    declared = reading.values["modelRole"]
    if expected is not None and declared != expected:
        raise _Refused(f"modelRole '{declared}' cannot serve as '{expected}'")


# The one ordered table. Each entry: (stable code, check). First failure wins.
CHECKS: Final[tuple[tuple[str, Callable[[_Reading], None]], ...]] = (
    ("manifestVersion", _read_manifest_version),
    ("modelId", _read_string("modelId")),
    ("modelSha256", _read_string("modelSha256")),
    ("modelRole", _read_string("modelRole")),
    ("featureSchema", _read_string("featureSchema")),
    ("featureCount", _read_feature_count),
    ("inputName", _read_string("inputName")),
    ("outputName", _read_string("outputName")),
    ("perspective", _read_string("perspective")),
    ("engineCompatibility", _read_string("engineCompatibility")),
    ("evaluationProfile", _read_string("evaluationProfile")),
    ("calibration", _read_calibration),
    ("provenance", _read_provenance),
    ("modelId.notBlank", _validate_model_id),
    ("modelSha256.pattern", _validate_digest),
    ("modelRole.known", _validate_role),
    ("featureSchema.known", _validate_schema),
    ("featureCount.width", _validate_width),
    ("inputName.notBlank", _validate_not_blank("inputName")),
    ("outputName.notBlank", _validate_not_blank("outputName")),
    ("perspective.supported", _validate_perspective),
    ("engineCompatibility.includes", _validate_engine_compatibility),
    ("expectedRole", _gate_expected_role),
)


def _manifest(reading: _Reading) -> Manifest:
    v = reading.values
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
        calibration=v["calibration"],
        provenance=v["provenance"],
        raw=reading.raw,
    )


def check_document(raw: Any, engine_version: str, expected_role: str | None = None) -> ManifestResult:
    """Run the check table over an already-parsed JSON value."""
    if not isinstance(raw, dict):
        return ManifestResult(None, Refusal("manifest must be a JSON object"))
    if not isinstance(engine_version, str):
        return ManifestResult(None, Refusal("engine version must be a string"))
    reading = _Reading(raw, engine_version, expected_role)
    try:
        for _code, check in CHECKS:
            check(reading)
    except _Refused as refused:
        return ManifestResult(None, Refusal(refused.message))
    return ManifestResult(_manifest(reading), None)


def read_manifest(data: bytes | str, engine_version: str, expected_role: str | None = None) -> ManifestResult:
    """Parse manifest text strictly, then run the check table. Never raises for bad input."""
    try:
        raw = strictjson.parse(data)
    except strictjson.JsonRefusal as refusal:
        return ManifestResult(None, Refusal(str(refusal)))
    return check_document(raw, engine_version, expected_role)
