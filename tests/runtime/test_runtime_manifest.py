"""The manifest check table: every §4.1 message (steps 3-6) with its exact text, and the order.

Each case mutates one of the engine's own fixture manifests; expected texts are copied from
spec/contract.md §2-§4, never produced by the kit.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from contract.core.checktable import table_family
from contract.model.manifest import read_manifest
from contract.model.manifest_schema import manifest_fields

MANIFESTS = Path(__file__).resolve().parents[2] / "golden" / "recorded" / "manifests"

ABSENT = object()


def _base(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((MANIFESTS / f"synthetic_kcp13_{name}_manifest.json").read_text(encoding="utf-8"))
    return loaded


def _variant(name: str, **changes: Any) -> bytes:
    doc = _base(name)
    for key, value in changes.items():
        if value is ABSENT:
            doc.pop(key, None)
        else:
            doc[key] = value
    return json.dumps(doc).encode()


CURRENT = "value"          # 1.1.0 position-value
LEGACY = "value_legacy"    # 1.0.0

MESSAGE_CASES: list[tuple[str, bytes, str]] = [
    ("not an object", b"[1, 2]", "manifest must be a JSON object"),
    ("missing version", _variant(CURRENT, manifestVersion=ABSENT), "missing required field 'manifestVersion'"),
    ("version not a string", _variant(CURRENT, manifestVersion=1.1), "field 'manifestVersion' must be a string"),
    ("unsupported version", _variant(CURRENT, manifestVersion="1.2.0"),
     "unsupported manifestVersion '1.2.0'; expected one of 1.0.0, 1.1.0"),
    ("missing modelId", _variant(CURRENT, modelId=ABSENT), "missing required field 'modelId'"),
    ("numeric modelId", b'{"manifestVersion": "1.0.0", "modelId": 7}', "field 'modelId' must be a string"),
    ("1.0.0 with modelRole", _variant(LEGACY, modelRole="position-value"),
     "manifestVersion 1.0.0 does not define field 'modelRole'"),
    ("1.0.0 with perspective", _variant(LEGACY, perspective="side-to-move"),
     "manifestVersion 1.0.0 does not define field 'perspective'"),
    ("1.0.0 with inputName (kit stricter than engine)", _variant(LEGACY, inputName="features"),
     "manifestVersion 1.0.0 does not define field 'inputName'"),
    ("1.0.0 with outputName (kit stricter than engine)", _variant(LEGACY, outputName="score"),
     "manifestVersion 1.0.0 does not define field 'outputName'"),
    ("1.1.0 without modelRole", _variant(CURRENT, modelRole=ABSENT),
     "manifestVersion 1.1.0 requires field 'modelRole'"),
    ("1.1.0 with null modelRole", _variant(CURRENT, modelRole=None),
     "manifestVersion 1.1.0 requires field 'modelRole'"),
    ("1.1.0 without perspective", _variant(CURRENT, perspective=ABSENT),
     "manifestVersion 1.1.0 requires field 'perspective'"),
    ("featureCount fraction", _variant(CURRENT, featureCount=12.5), "field 'featureCount' must be a whole number"),
    ("featureCount string", _variant(CURRENT, featureCount="13"), "field 'featureCount' must be a whole number"),
    ("featureCount bool", _variant(CURRENT, featureCount=True), "field 'featureCount' must be a whole number"),
    ("missing engineCompatibility", _variant(CURRENT, engineCompatibility=ABSENT),
     "missing required field 'engineCompatibility'"),
    ("calibration not object", _variant(CURRENT, calibration=[1.0]), "field 'calibration' must be an object"),
    ("temperature not number", _variant(CURRENT, calibration={"temperature": "1.0"}),
     "field 'temperature' must be a number"),
    ("brierScore not number", _variant(CURRENT, calibration={"brierScore": True}),
     "field 'brierScore' must be a number"),
    ("logLoss not number", _variant(CURRENT, calibration={"logLoss": {}}), "field 'logLoss' must be a number"),
    ("calibratedOn not string", _variant(CURRENT, calibration={"calibratedOn": 3}),
     "field 'calibratedOn' must be a string"),
    ("provenance not object", _variant(CURRENT, provenance="x"), "field 'provenance' must be an object"),
    ("provenance nested", _variant(CURRENT, provenance={"run": {"a": 1}}),
     "field 'provenance.run' must be a string, number or boolean"),
    ("provenance null value", _variant(CURRENT, provenance={"run": None}),
     "field 'provenance.run' must be a string, number or boolean"),
    ("blank modelId", _variant(CURRENT, modelId=" \t\x01"), "modelId must not be blank"),
    ("short digest", _variant(CURRENT, modelSha256="ab" * 31), "modelSha256 must be exactly 64 hexadecimal characters"),
    ("digest with newline", _variant(CURRENT, modelSha256="ab" * 32 + "\n"),
     "modelSha256 must be exactly 64 hexadecimal characters"),
    ("digest with Unicode digits", _variant(CURRENT, modelSha256="\u0663" * 64),
     "modelSha256 must be exactly 64 hexadecimal characters"),
    ("unknown role", _variant(CURRENT, modelRole="Position-Value"),
     "unknown modelRole 'Position-Value'; known roles: chance-collapse, move-prerank, position-value"),
    ("unknown schema", _variant(CURRENT, featureSchema="kcp-14"),
     "unknown featureSchema 'kcp-14'; known schemas: kcp-13, kcp-mobility-27-v1, kcp-mobility-pawns-31-v1, "
     "material-7-v1, raw-board-768-v1, rich-9-v1, rich-pdi-11-v1"),
    ("width mismatch", _variant(CURRENT, featureCount=27),
     "featureCount 27 does not match featureSchema 'kcp-13' (13 columns)"),
    ("blank inputName", _variant(CURRENT, inputName=" "), "inputName must not be blank"),
    ("blank outputName", _variant(CURRENT, outputName=""), "outputName must not be blank"),
    ("unknown perspective", _variant(CURRENT, perspective="white"),
     "unsupported perspective 'white'; supported: side-to-move"),
    ("excluded engine", _variant(CURRENT, engineCompatibility=">=0.13.0"),
     "engineCompatibility '>=0.13.0' does not include engine version '0.12.0'"),
    ("blank constraint", _variant(CURRENT, engineCompatibility="  "), "engineCompatibility must not be blank"),
    ("invalid constraint", _variant(CURRENT, engineCompatibility="~>0.12.0"),
     "invalid engineCompatibility '~>0.12.0'; expected space-separated comparators such as '>=0.12.0 <1.0.0'"),
    ("duplicate keys", b'{"manifestVersion": "1.1.0", "manifestVersion": "1.0.0"}',
     "not valid JSON: duplicate key 'manifestVersion'"),
    ("NaN", b'{"manifestVersion": NaN}', "not valid JSON: NaN is not a JSON number"),
    ("Infinity", b'{"featureCount": -Infinity}', "not valid JSON: -Infinity is not a JSON number"),
]


@pytest.mark.parametrize(("name", "text", "message"), MESSAGE_CASES, ids=[c[0] for c in MESSAGE_CASES])
def test_each_refusal_has_its_exact_message(name: str, text: bytes, message: str) -> None:
    result = read_manifest(text, "0.12.0")
    assert not result.ok
    assert result.message == message


def test_invalid_engine_version_is_reported_with_the_engines_text() -> None:
    result = read_manifest(_variant(CURRENT), "0.12.1-SNAPSHOT")
    assert result.message == (
        "invalid engine version: invalid semantic version '0.12.1-SNAPSHOT'; expected MAJOR.MINOR.PATCH"
    )


def test_expected_role_gate() -> None:
    result = read_manifest(_variant("prerank"), "0.12.0", expected_role="position-value")
    assert result.message == "modelRole 'move-prerank' cannot serve as 'position-value'"


def test_legacy_manifest_reads_with_the_1_0_0_defaults_and_passes_the_value_gate() -> None:
    result = read_manifest(_variant(LEGACY), "0.12.0", expected_role="position-value")
    assert result.manifest is not None
    m = result.manifest
    assert (m.model_role, m.perspective, m.input_name, m.output_name) == (
        "position-value", "side-to-move", "input", "output")


def test_null_reads_as_absent_under_1_0_0() -> None:
    result = read_manifest(_variant(LEGACY, modelRole=None, inputName=None), "0.12.0")
    assert result.ok


def test_a_whole_float_width_is_the_same_width() -> None:
    for width in ("13.0", "1.3e1"):
        text = _variant(CURRENT).replace(b'"featureCount": 13', b'"featureCount": ' + width.encode())
        result = read_manifest(text, "0.12.0")
        assert result.manifest is not None and result.manifest.feature_count == 13


def test_provenance_scalars_become_text() -> None:
    result = read_manifest(_variant(CURRENT, provenance={"epochs": 12, "shuffled": True, "run": "abc",
                                                          "ratio": 0.25}), "0.12.0")
    assert result.manifest is not None
    assert result.manifest.provenance == {"epochs": "12", "shuffled": "true", "run": "abc", "ratio": "0.25"}
    result = read_manifest(_variant(CURRENT, provenance={"shuffled": False, "dropout": 0}), "0.12.0")
    assert result.manifest is not None
    assert result.manifest.provenance == {"shuffled": "false", "dropout": "0"}


def test_unknown_fields_are_ignored() -> None:
    assert read_manifest(_variant(CURRENT, trainedBy="someone", extra={"a": [1]}), "0.12.0").ok


def test_uppercase_digest_is_accepted() -> None:
    digest = _base(CURRENT)["modelSha256"].upper()
    assert read_manifest(_variant(CURRENT, modelSha256=digest), "0.12.0").ok


def test_first_failure_wins_in_the_engines_field_order() -> None:
    # Both modelId and featureSchema are wrong: modelId comes first in the structural order.
    text = _variant(CURRENT, modelId=5, featureSchema=7)
    assert read_manifest(text, "0.12.0").message == "field 'modelId' must be a string"
    # Structural reading of every field precedes value validation: a blank id loses to a bad calibration.
    text = _variant(CURRENT, modelId=" ", calibration=3)
    assert read_manifest(text, "0.12.0").message == "field 'calibration' must be an object"


def test_the_check_table_is_in_the_engines_order() -> None:
    # spec/contract.md §4.1 step 3 (structural field order) and step 4 (value order), then step 6.
    structural = ["manifestVersion", "modelId", "modelSha256", "modelRole", "featureSchema", "featureCount",
                  "inputName", "outputName", "perspective", "engineCompatibility", "evaluationProfile",
                  "calibration", "provenance"]
    assert [f.name for f in manifest_fields().fields] == structural
    entries = table_family("manifest")
    kinds = [e.each or e.kind for e in entries]
    assert kinds.index("supportedVersion") < kinds.index("field") < kinds.index("notBlank")
    values = [e.of for e in entries[kinds.index("field") + 1:]]
    assert values == ["modelId", "modelSha256", "modelRole", "featureSchema", "featureCount", "inputName",
                      "outputName", "perspective", "engineCompatibility", "modelRole"]
    assert entries[-1].code == "manifest.modelRole.cannotServe"


def test_nesting_and_size_limits() -> None:
    deep = b'{"a":' * 65 + b"1" + b"}" * 65
    assert read_manifest(deep, "0.12.0").message == "not valid JSON: nesting deeper than 64 levels at character 320"
    big = b'{"pad": "' + b"x" * (1024 * 1024) + b'"}'
    assert read_manifest(big, "0.12.0").message == f"larger than 1048576 bytes ({len(big)} bytes)"


@pytest.mark.parametrize("field", ["temperature", "brierScore", "logLoss"])
def test_an_integer_no_double_holds_is_refused_as_json(field: str) -> None:
    # 10**400 fits no 64-bit float (every reader holds numbers as doubles); it used to reach float().
    literal = "1" + "0" * 400
    text = _variant(CURRENT, calibration={field: "@"}).replace(b'"@"', literal.encode())
    assert read_manifest(text, "0.12.0").message == f"not valid JSON: number {literal} does not fit in a 64-bit float"


def test_an_integer_past_pythons_digit_limit_is_refused_with_the_same_message() -> None:
    literal = "9" * 5000
    text = _variant(CURRENT).replace(b'"featureCount": 13', b'"featureCount": ' + literal.encode())
    assert read_manifest(text, "0.12.0").message == f"not valid JSON: number {literal} does not fit in a 64-bit float"


def test_a_document_given_directly_with_such_numbers_is_refused_not_raised() -> None:
    from contract.model.manifest import check_document

    doc = _base(CURRENT)
    doc["calibration"] = {"temperature": 10**400}
    assert check_document(doc, "0.12.0").message == "field 'temperature' must be a number"
    doc["calibration"] = None
    doc["provenance"] = {"big": 10**5000}
    assert check_document(doc, "0.12.0").message == "field 'provenance.big' must be a string, number or boolean"


@pytest.mark.parametrize("number", [float("inf"), float("-inf"), float("nan")])
def test_a_document_given_directly_with_a_number_json_cannot_hold_is_refused(number: float) -> None:
    from contract.model.manifest import check_document

    doc = _base(CURRENT)
    doc["calibration"] = {"temperature": number}
    assert check_document(doc, "0.12.0").message == "field 'temperature' must be a number"
    doc["calibration"] = None
    doc["provenance"] = {"loss": number}
    assert check_document(doc, "0.12.0").message == "field 'provenance.loss' must be a string, number or boolean"


def test_calibration_is_read_with_its_defaults_and_other_keys_ignored() -> None:
    from contract.model.manifest import Calibration

    full = {"temperature": 2, "brierScore": 0.125, "logLoss": 0.5, "calibratedOn": "holdout-2026", "bins": [1]}
    read = read_manifest(_variant(CURRENT, calibration=full), "0.12.0").manifest
    assert read is not None and read.calibration == Calibration(2.0, 0.125, 0.5, "holdout-2026")
    assert isinstance(read.calibration.temperature, float)  # the double every reader holds
    read = read_manifest(_variant(CURRENT, calibration={}), "0.12.0").manifest
    assert read is not None and read.calibration == Calibration(1.0, None, None, None)  # §2.1's defaults
    read = read_manifest(_variant(CURRENT, calibration={"temperature": None, "logLoss": 0.25}), "0.12.0").manifest
    assert read is not None and read.calibration == Calibration(1.0, None, 0.25, None)
    read = read_manifest(_variant(CURRENT, calibration=ABSENT), "0.12.0").manifest
    assert read is not None and read.calibration is None


def test_the_reading_keeps_the_document_every_value_and_the_evaluation_profile() -> None:
    doc = _base(CURRENT)
    doc["evaluationProfile"] = "standard-kcp"
    read = read_manifest(json.dumps(doc), "0.12.0").manifest
    assert read is not None
    assert read.raw == doc
    assert read.evaluation_profile == "standard-kcp"
    assert read.values["modelId"] == "synthetic-kcp13-value" and read.values["featureCount"] == 13
    assert read.values["provenance"] == {"generator": "jvm/src/test/resources/generate_model_contract_fixtures.py",
                                         "purpose": "engine #78 model-contract test fixture", "trained": "false"}
    absent = read_manifest(_variant(CURRENT, evaluationProfile=ABSENT, provenance=ABSENT), "0.12.0").manifest
    assert absent is not None and absent.evaluation_profile is None and absent.provenance == {}
