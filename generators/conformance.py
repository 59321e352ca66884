"""Write the conformance corpora under ``golden/conformance/``: what every implementation must answer.

* ``engine-compatibility.json``: the 62 recorded cases of
  ``golden/recorded/engine-compatibility-verdicts.json`` plus the kit's own, each with the
  canonical outcome and exact message;
* ``manifests.json``: manifest texts with an engine version and an expected role, the canonical verdict
  and message (at least one case per message of spec/contract.md §4.1 steps 3, 4 and 6), and what the
  engine, the training mirror and the service are recorded (by the spec) to answer;
* ``tensor-contract.json`` and the small graphs of ``graphs/``: the session-time checks of §5.1.

The expected values are **never** computed by the kit's runtime: outcomes come from the recorded
engine column or are written by hand below from the spec's rules, and messages are filled from the
spec's own texts (§3.3, §4.1, §5.1), typed here a second time on purpose, as a test oracle. Where the
spec is silent the case says so in ``source`` ("kit decision"). The generator refuses (``RuntimeError``)
a case table that names an unknown outcome or a duplicate id, rather than write a corpus that lies.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import onnx
from onnx import TensorProto, helper, numpy_helper

from contract.core import formatversion
from contract.core.checktable import TableEntry, table_family

ROOT: Final = Path(__file__).resolve().parent.parent
CORPUS_DIR: Final = "golden/conformance"
VERDICTS: Final = "golden/recorded/engine-compatibility-verdicts.json"
GRAPH_DIR: Final = f"{CORPUS_DIR}/graphs"
HOST: Final = "0.12.0"
OUTCOMES: Final = ("satisfied", "excluded", "blank", "invalid-constraint", "invalid-engine-version")
SPEC: Final = "spec/contract.md"

# ---------------------------------------------------------------------------------------------
# The spec's texts (§3.3 engine messages, §4.1, §5.1), as the oracle types them.

_ASCII_VERSION: Final = re.compile(r"[0-9]+\.[0-9]+\.[0-9]+", re.ASCII)
KNOWN_ROLES: Final = "chance-collapse, move-prerank, position-value"
KNOWN_SCHEMAS: Final = (
    "kcp-13, kcp-mobility-27-v1, kcp-mobility-pawns-31-v1, material-7-v1, raw-board-768-v1, rich-9-v1,"
    " rich-pdi-11-v1"
)


def host_version_message(version: str) -> str:
    """§3.3: the syntax text unless the version is three ASCII-digit parts (then a component is too big)."""
    if _ASCII_VERSION.fullmatch(version):
        return f"invalid engine version: invalid semantic version '{version}'; a component does not fit in an Int"
    return f"invalid engine version: invalid semantic version '{version}'; expected MAJOR.MINOR.PATCH"


def compatibility_message(outcome: str, constraint: str, version: str) -> str | None:
    if outcome == "satisfied":
        return None
    if outcome == "excluded":
        return f"engineCompatibility '{constraint}' does not include engine version '{version}'"
    if outcome == "blank":
        return "engineCompatibility must not be blank"
    if outcome == "invalid-constraint":
        return (f"invalid engineCompatibility '{constraint}'; expected space-separated comparators"
                " such as '>=0.12.0 <1.0.0'")
    if outcome == "invalid-engine-version":
        return host_version_message(version)
    raise RuntimeError(f"unknown outcome {outcome!r}")


# ---------------------------------------------------------------------------------------------
# engineCompatibility


def _recorded_compatibility_cases() -> list[dict[str, Any]]:
    verdicts = json.loads((ROOT / VERDICTS).read_text(encoding="utf-8"))
    cases = []
    for index, case in enumerate(verdicts["cases"]):
        outcome = case["engine"]  # canonical = the engine's strict reading (§3.1)
        cases.append({
            "id": f"engine-compatibility/recorded-{index:02d}",
            "constraint": case["constraint"],
            "engineVersion": case["engineVersion"],
            "outcome": outcome,
            "message": compatibility_message(outcome, case["constraint"], case["engineVersion"]),
            "source": f"recorded verdicts #{index} ({case['source']}); outcome = engine column",
            "verdictsIndex": index,
        })
    return _with_codes(cases)


def _with_codes(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for case in cases:
        if case["message"] is not None:
            case["code"] = expected_code(case["message"], ("engineCompatibility",))
    return cases


# (slug, constraint, host version, canonical outcome, why) — each derived from §3.1-3.3 by hand.
KIT_COMPATIBILITY: Final[tuple[tuple[str, str, str, str, str], ...]] = (
    ("op-le-equal", "<=0.12.0", HOST, "satisfied", "'<=' includes equality"),
    ("op-lt-patch", "<0.12.1", HOST, "satisfied", "numeric comparison on patch"),
    ("op-gt-minor", ">0.11.99", HOST, "satisfied", "minor 12 > 11 whatever the patch"),
    ("op-eq-excluded", "=0.12.1", HOST, "excluded", "'=' is equality"),
    ("numeric-not-lexical", ">=1.2.3", "1.10.0", "satisfied", "10 > 2 numerically"),
    ("numeric-not-lexical-lt", "<1.9.0", "1.10.0", "excluded", "10 > 9 numerically"),
    ("zero-lower-bound", "<0.0.0", "0.0.0", "excluded", "nothing is below 0.0.0"),
    ("bare-twice", "0.12.0 0.12.0", HOST, "satisfied", "AND of two equal comparators"),
    ("bare-conflict", "0.12.0 0.12.1", HOST, "excluded", "AND of two different equalities"),
    ("leading-zero-patch", "0.12.00", HOST, "satisfied", "leading zeros parse as their value"),
    ("leading-zero-host", ">=0.12.0", "00.012.000", "satisfied", "host components may have leading zeros"),
    ("int-max-components", "<=2147483647.2147483647.2147483647", HOST, "satisfied",
     "2147483647 fits in an Int"),
    ("int-max-host", ">=2147483647.0.0", "2147483647.0.0", "satisfied", "2147483647 fits in an Int"),
    ("component-2-pow-32", ">=4294967296.0.0", HOST, "invalid-constraint", "a component above 2147483647"),
    ("component-20-digits", "<99999999999999999999.0.0", HOST, "invalid-constraint",
     "a component above 2147483647"),
    ("host-minor-too-big", ">=0.0.0", "0.2147483648.0", "invalid-engine-version",
     "a host component above 2147483647"),
    ("every-token-parsed", ">=0.12.0 <1.0.0 bogus", HOST, "invalid-constraint",
     "every comparator is parsed before any is evaluated"),
    ("every-token-parsed-excluded-first", ">=1.0.0 ~1.2.0", HOST, "invalid-constraint",
     "an unsatisfied comparator does not hide a later invalid one"),
    ("vertical-tab-separator", ">=0.12.0\x0b<1.0.0", HOST, "satisfied", "\\x0B is Java \\s"),
    ("form-feed-separator", ">=0.12.0\x0c<1.0.0", HOST, "satisfied", "\\f is Java \\s"),
    ("crlf-separator", ">=0.12.0\r\n<1.0.0", HOST, "satisfied", "\\r and \\n are Java \\s"),
    ("newline-edges", "\n>=0.12.0\n", HOST, "satisfied", "edges are trimmed"),
    ("control-edge", "\x01>=0.12.0\x1f", HOST, "satisfied", "String.trim drops every char <= U+0020"),
    ("control-separator", ">=0.12.0\x01<1.0.0", HOST, "invalid-constraint",
     "\\x01 is trimmed at the edges but is not a separator"),
    ("file-separator-edge", "\x1c>=0.12.0", HOST, "satisfied", "\\x1c <= U+0020 is trimmed"),
    ("em-space-separator", ">=0.12.0\u2003<1.0.0", HOST, "invalid-constraint",
     "U+2003 is not ASCII whitespace"),
    ("nbsp-trailing", ">=0.12.0\u00a0", HOST, "invalid-constraint", "NBSP is above U+0020: not trimmed"),
    ("nbsp-alone", "\u00a0", HOST, "invalid-constraint",
     "NBSP alone is not blank to the engine (Python's strip would call it blank)"),
    ("tab-alone", "\t", HOST, "blank", "only characters <= U+0020"),
    ("nul-alone", "\x00", HOST, "blank", "U+0000 is trimmed"),
    ("newline-alone", "\n", HOST, "blank", "only characters <= U+0020"),
    ("space-after-op", "< 1.0.0", HOST, "invalid-constraint", "no space between operator and version"),
    ("op-alone", ">", HOST, "invalid-constraint", "an operator needs a version"),
    ("op-trailing", ">=0.12.0 <", HOST, "invalid-constraint", "an operator needs a version"),
    ("op-reversed", "=>0.12.0", HOST, "invalid-constraint", "'=>' is not an operator"),
    ("op-not-equal", "!=0.12.0", HOST, "invalid-constraint", "'!=' is not an operator"),
    ("op-tripled", ">==0.12.0", HOST, "invalid-constraint", "'>==' is not an operator"),
    ("letter-suffix", "1.2.3a", HOST, "invalid-constraint", "no suffix"),
    ("empty-component", "1..3", HOST, "invalid-constraint", "components are non-empty"),
    ("leading-dot", ".1.2.3", HOST, "invalid-constraint", "exactly three components"),
    ("x-range", "0.12.x", HOST, "invalid-constraint", "no wildcards"),
    ("many-comparators", " ".join(["0.12.0"] * 150_000), HOST, "satisfied",
     "every comparator holds, however many there are (150,000 fit in a 1 MiB manifest)"),
    ("hyphen-range", "0.4.0 - 0.12.0", HOST, "invalid-constraint", "no hyphen ranges"),
    ("plus-sign", "+0.12.0", HOST, "invalid-constraint", "'+' is not an operator"),
    ("surrounded-excluded", "  >=1.0.0  ", HOST, "excluded",
     "valid after trimming; the message quotes the field as written (kit decision: §3.3 quotes"
     " '<constraint>')"),
    ("blank-before-parse", "", "0.12.0", "blank", "blank is reported before parsing"),
    ("host-before-blank", "   ", "0.12", "invalid-engine-version",
     "the host version is checked before blankness"),
    ("host-before-syntax", "~>0.12.0", "v0.12.0", "invalid-engine-version",
     "the host version is checked before the constraint's syntax"),
    ("host-empty", ">=0.12.0", "", "invalid-engine-version", "empty host version"),
    ("host-four-parts", ">=0.12.0", "0.12.0.0", "invalid-engine-version", "exactly three parts"),
    ("host-trailing-space", ">=0.12.0", "0.12.0 ", "invalid-engine-version", "no surrounding whitespace"),
    ("host-trailing-cr", ">=0.12.0", "0.12.0\r", "invalid-engine-version", "no surrounding whitespace"),
    ("host-snapshot", ">=0.12.0", "0.12.0-SNAPSHOT", "invalid-engine-version",
     "the host strips -SNAPSHOT before asking; the evaluator does not"),
    ("host-plus-build", ">=0.12.0", "0.12.0+build.1", "invalid-engine-version", "no build suffix"),
    ("host-negative", ">=0.0.0", "0.-1.0", "invalid-engine-version", "digits only"),
    ("host-fullwidth", ">=0.0.0", "\uff10.12.0", "invalid-engine-version", "ASCII digits only"),
    ("host-superscript", ">=0.0.0", "\u00b2.0.0", "invalid-engine-version",
     "ASCII digits only (Python's \\d would not match superscripts either, but int() differs)"),
)


def kit_compatibility_cases() -> list[dict[str, Any]]:
    cases = []
    for slug, constraint, version, outcome, why in KIT_COMPATIBILITY:
        if outcome not in OUTCOMES:
            raise RuntimeError(f"{slug}: unknown outcome {outcome!r}")
        cases.append({
            "id": f"engine-compatibility/kit-{slug}",
            "constraint": constraint,
            "engineVersion": version,
            "outcome": outcome,
            "message": compatibility_message(outcome, constraint, version),
            "source": f"kit: derived from {SPEC} §3.1-3.3 ({why})",
        })
    return _with_codes(cases)


def compatibility_corpus() -> dict[str, Any]:
    return {
        "description": (
            "engineCompatibility conformance corpus. Canonical = the engine's strict reading and its exact"
            " texts (spec/contract.md §3.1-3.3), which the kit adopts. 'recorded-NN' cases are the 62 cases"
            " of golden/recorded/engine-compatibility-verdicts.json (outcome = its engine column); 'kit-*' cases are"
            " derived by hand from the spec. Generated by generators/conformance.py."
        ),
        "cases": _unique(_recorded_compatibility_cases() + kit_compatibility_cases()),
    }


# ---------------------------------------------------------------------------------------------
# Manifests

DIGEST: Final = "e078ff34038d02b504b1d9a68535f88d6860ef1ce464a9168bc3db5b7950d980"


def base_current(**changes: Any) -> dict[str, Any]:
    """A 1.1.0 manifest every reader of 1.1.0 accepts (evaluationProfile kept for the training mirror)."""
    manifest: dict[str, Any] = {
        "manifestVersion": "1.1.0",
        "modelId": "conformance-value",
        "modelSha256": DIGEST,
        "modelRole": "position-value",
        "featureSchema": "kcp-13",
        "featureCount": 13,
        "inputName": "input",
        "outputName": "output",
        "perspective": "side-to-move",
        "engineCompatibility": ">=0.12.0 <1.0.0",
        "evaluationProfile": "standard-kcp",
        "calibration": {"temperature": 1.0},
        "provenance": {"purpose": "conformance corpus"},
    }
    return _apply(manifest, changes)


def base_legacy(**changes: Any) -> dict[str, Any]:
    """A 1.0.0 manifest every reader accepts (the service's format)."""
    manifest: dict[str, Any] = {
        "manifestVersion": "1.0.0",
        "modelId": "conformance-legacy",
        "modelSha256": DIGEST,
        "featureSchema": "kcp-13",
        "featureCount": 13,
        "engineCompatibility": ">=0.12.0 <1.0.0",
        "evaluationProfile": "standard-kcp",
        "calibration": {"temperature": 1.0},
        "provenance": {"purpose": "conformance corpus"},
    }
    return _apply(manifest, changes)


_DELETE: Final = object()


def _apply(manifest: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    for key, value in changes.items():
        if value is _DELETE:
            manifest.pop(key, None)
        else:
            manifest[key] = value
    return manifest


def text(manifest: dict[str, Any]) -> str:
    return json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"


def _raw(manifest: dict[str, Any], field_name: str, literal: str) -> str:
    """Manifest text whose ``field_name`` value is the literal JSON ``literal`` (e.g. ``NaN``)."""
    placeholder = "__LITERAL__"
    rendered = text({**manifest, field_name: placeholder})
    return rendered.replace(json.dumps(placeholder), literal)


@dataclass(frozen=True)
class Verdict:
    verdict: str  # accepted | refused
    message: str | None = None  # None with refused = the recording names no exact text
    source: str = ""

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"verdict": self.verdict, "source": self.source}
        if self.message is not None:
            out["message"] = self.message
        return out


ACCEPTED: Final = Verdict("accepted")


@dataclass(frozen=True)
class ManifestCase:
    slug: str
    manifest: str
    expected: Verdict
    step: str
    source: str
    engine_version: str = HOST
    expected_role: str | None = None
    prefix: bool = False  # the message is compared as a prefix (JSON syntax details differ per parser)
    recorded: dict[str, Verdict] = field(default_factory=dict)
    code: str | None = None  # the check-table code, where the message alone does not say it


def refused(message: str) -> Verdict:
    return Verdict("refused", message)


def _string_msg(name: str) -> Verdict:
    return refused(f"field '{name}' must be a string")


def _missing(name: str) -> Verdict:
    return refused(f"missing required field '{name}'")


_NOT_JSON: Final = refused("not valid JSON: ")
_SERVICE_ONLY_1_0_0: Final = Verdict("refused", None, "§2.2: the service pins SupportedManifestVersion 1.0.0")
_SERVICE_LEGACY_OK: Final = Verdict("accepted", None, "§4.5: manifestVersion 1.0.0, kcp-13, standard-kcp")


def _engine(verdict: Verdict, source: str) -> dict[str, Verdict]:
    return {"engine": Verdict(verdict.verdict, verdict.message, source)}


def _reference_manifest(name: str) -> str:
    return (ROOT / "golden" / "recorded" / "manifests" / name).read_text(encoding="utf-8")


def manifest_cases() -> list[ManifestCase]:
    cur, leg = base_current, base_legacy
    deep: Any = "leaf"
    for _ in range(70):
        deep = {"k": deep}
    c: list[ManifestCase] = []

    def add(slug: str, manifest: str, expected: Verdict, step: str, source: str, **kw: Any) -> None:
        c.append(ManifestCase(slug, manifest, expected, step, source, **kw))

    # --- accepted baselines, and the recorded fixtures the JVM reader accepts (§8.1)
    add("accepted-current", text(cur()), ACCEPTED, "accepted", f"{SPEC} §2.1",
        recorded={"engine": Verdict("accepted", None, "§2.1"),
                  "training": Verdict("accepted", None, "§4.2: every kcp13 check passes"),
                  "service": _SERVICE_ONLY_1_0_0})
    add("accepted-legacy", text(leg()), ACCEPTED, "accepted", f"{SPEC} §2.1-2.2",
        recorded={"engine": Verdict("accepted", None, "§2.2"),
                  "training": Verdict("accepted", None, "§4.2"), "service": _SERVICE_LEGACY_OK})
    for name, role in (("synthetic_kcp13_value_manifest.json", None),
                       ("synthetic_kcp13_value_legacy_manifest.json", "position-value"),
                       ("synthetic_kcp13_collapse_manifest.json", "chance-collapse"),
                       ("synthetic_kcp13_prerank_manifest.json", "move-prerank"),
                       ("synthetic_kcp13_renamed_tensors_manifest.json", None),
                       ("synthetic_kcp13_static_batch_manifest.json", None)):
        legacy = "legacy" in name
        rec = {"engine": Verdict("accepted", None, "engine fixture (reference/manifests), ModelManifestSpec")}
        if legacy:
            rec["training"] = Verdict("accepted", None, "§4.2 / training test fixtures")
            rec["service"] = _SERVICE_LEGACY_OK
        else:
            rec["training"] = Verdict("refused", None, "§4.2: the engine's 1.1.0 fixtures have no"
                                      " evaluationProfile; test_the_engines_manifests_are_refused_only_for...")
            rec["service"] = _SERVICE_ONLY_1_0_0
        add(f"fixture-{name.removesuffix('_manifest.json').replace('_', '-')}", _reference_manifest(name),
            ACCEPTED, "accepted", f"reference/manifests/{name} (engine fixture)", expected_role=role,
            recorded=rec)

    # --- step 3: JSON level
    add("json-truncated", '{"manifestVersion": "1.1.0",', _NOT_JSON, "3-json", f"{SPEC} §2.4", prefix=True,
        code="json.syntax")
    add("json-empty-text", "", _NOT_JSON, "3-json", f"{SPEC} §2.4", prefix=True, code="json.syntax")
    add("json-not-object-array", "[1, 2]", refused("manifest must be a JSON object"), "3-json",
        f"{SPEC} §2.4 (engine test input [1, 2])",
        recorded=_engine(refused("manifest must be a JSON object"), "ModelManifestSpec, §2.4"))
    add("json-not-object-string", '"1.1.0"', refused("manifest must be a JSON object"), "3-json",
        f"{SPEC} §2.4")
    add("json-not-object-null", "null", refused("manifest must be a JSON object"), "3-json", f"{SPEC} §2.4")
    dup = text(cur()).replace('"modelId": "conformance-value",',
                              '"modelId": "conformance-value",\n  "modelId": "   ",')
    add("json-duplicate-key", dup, _NOT_JSON, "3-json",
        "kit decision (contract/core/strictjson.py): a duplicate key means different things to different"
        " readers (§2.4, §9.11), so it is refused", prefix=True, code="json.duplicateKey",
        recorded=_engine(ACCEPTED, "§2.4: the engine takes the first occurrence (derived)"))
    add("json-nan", _raw(cur(), "featureCount", "NaN"), _NOT_JSON, "3-json",
        "kit decision: NaN is not JSON (RFC 8259)", prefix=True, code="json.notANumber")
    add("json-infinity-overflow", _raw(cur(), "calibration", '{"temperature": 1e999}'), _NOT_JSON,
        "3-json", "kit decision: a number that does not fit a 64-bit float is refused", prefix=True,
        code="json.numberRange")
    add("json-leading-zero", _raw(cur(), "featureCount", "013"), _NOT_JSON, "3-json",
        "RFC 8259 forbids leading zeros", prefix=True, code="json.syntax",
        recorded=_engine(ACCEPTED, "§2.4: the engine's number parser accepts 013 (derived)"))
    add("json-too-deep", json.dumps(cur(provenance=deep)), _NOT_JSON, "3-json",
        f"{SPEC} §2.4: nesting deeper than 64 is refused", prefix=True, code="json.tooDeep",
        recorded=_engine(Verdict("refused", None, ""), "§2.4"))
    add("json-byte-order-mark", "\ufeff" + text(cur()), _NOT_JSON, "3-json",
        "kit decision: a UTF-8 byte-order mark is refused", prefix=True, code="json.byteOrderMark")

    # --- step 3: manifestVersion
    add("version-missing", text(cur(manifestVersion=_DELETE)), _missing("manifestVersion"), "3-field",
        f"{SPEC} §4.1 step 3")
    add("version-null", text(cur(manifestVersion=None)), _missing("manifestVersion"), "3-field",
        f"{SPEC} §2.2: null = absent")
    add("version-number", _raw(cur(), "manifestVersion", "1.1"), _string_msg("manifestVersion"), "3-field",
        f"{SPEC} §2.3")
    add("version-unsupported", text(cur(manifestVersion="2.0.0")),
        refused("unsupported manifestVersion '2.0.0'; expected one of 1.0.0, 1.1.0"), "3-field",
        f"{SPEC} §4.1 step 3",
        recorded={"training": refused("unsupported manifestVersion '2.0.0'; expected one of 1.0.0, 1.1.0")})
    add("version-two-parts", text(cur(manifestVersion="1.1")),
        refused("unsupported manifestVersion '1.1'; expected one of 1.0.0, 1.1.0"), "3-field",
        f"{SPEC} §2.1: exactly 1.0.0 or 1.1.0")
    add("version-trailing-newline", text(cur(manifestVersion="1.1.0\n")),
        refused("unsupported manifestVersion '1.1.0\n'; expected one of 1.0.0, 1.1.0"), "3-field",
        f"{SPEC} §2.1: exactly")
    for name in ("toString", "constructor", "__proto__"):  # names every JavaScript object inherits
        add(f"version-prototype-{name.strip('_').lower()}", text(cur(manifestVersion=name)),
            refused(f"unsupported manifestVersion '{name}'; expected one of 1.0.0, 1.1.0"), "3-field",
            f"{SPEC} §2.1: exactly 1.0.0 or 1.1.0, whatever a reader's own objects hold")
    raw = text(cur(modelId="id-\ud800"))  # the text itself holds a lone surrogate, not a JSON escape
    offset = len(raw[: raw.index("\ud800")].encode("utf-8"))
    add("json-raw-lone-surrogate", raw, refused(f"not valid JSON: not UTF-8 text (byte {offset})"), "3-json",
        "kit decision: a manifest is UTF-8 text, and no UTF-8 text holds a lone surrogate")

    # --- step 3: field types and the version rule, in the engine's field order
    add("engine-test-model-id-number", '{"manifestVersion": "1.0.0", "modelId": 7}', _string_msg("modelId"),
        "3-field", f"{SPEC} §2.3 (engine test)",
        recorded=_engine(_string_msg("modelId"), "§2.3: ModelManifestSpec"))
    add("model-id-number", text(leg(modelId=7)), _string_msg("modelId"), "3-field", f"{SPEC} §2.3, §9.7",
        recorded={"engine": Verdict("refused", _string_msg("modelId").message, "§2.3"),
                  "training": Verdict("accepted", None, "§2.3/§9.7: str(7) passes (derived)")})
    add("model-id-missing", text(cur(modelId=_DELETE)), _missing("modelId"), "3-field", f"{SPEC} §4.1",
        recorded={"training": Verdict("refused", "modelId must not be blank", "§4.2")})
    add("sha-missing", text(cur(modelSha256=_DELETE)), _missing("modelSha256"), "3-field", f"{SPEC} §4.1")
    add("sha-number", _raw(leg(), "modelSha256", "1" * 64), _string_msg("modelSha256"), "3-field",
        f"{SPEC} §2.3, §9.7",
        recorded={"training": Verdict("accepted", None, "§9.7: a 64-decimal-digit number passes str()")})
    add("legacy-defines-no-role", text(leg(modelRole="position-value")),
        refused("manifestVersion 1.0.0 does not define field 'modelRole'"), "3-field", f"{SPEC} §2.2",
        recorded={"engine": refused("manifestVersion 1.0.0 does not define field 'modelRole'"),
                  "training": refused("manifestVersion 1.0.0 does not define field 'modelRole'")})
    add("legacy-defines-no-perspective", text(leg(perspective="side-to-move")),
        refused("manifestVersion 1.0.0 does not define field 'perspective'"), "3-field", f"{SPEC} §2.2",
        recorded={"engine": refused("manifestVersion 1.0.0 does not define field 'perspective'"),
                  "training": refused("manifestVersion 1.0.0 does not define field 'perspective'")})
    add("legacy-defines-no-input-name", text(leg(inputName="input")),
        refused("manifestVersion 1.0.0 does not define field 'inputName'"), "3-field",
        f"kit decision after {SPEC} §2.2/§9.1 (the training mirror's rule: the service reads only input)",
        recorded={"engine": Verdict("accepted", None, "§2.2: the engine reads inputName at either version"),
                  "training": refused("manifestVersion 1.0.0 does not define field 'inputName'")})
    add("legacy-defines-no-output-name", text(leg(outputName="win_probability")),
        refused("manifestVersion 1.0.0 does not define field 'outputName'"), "3-field",
        f"kit decision after {SPEC} §2.2/§9.1",
        recorded={"engine": Verdict("accepted", None, "§2.2: the engine reads outputName at either version"),
                  "training": refused("manifestVersion 1.0.0 does not define field 'outputName'")})
    add("legacy-null-role-is-absent", text(leg(modelRole=None)), ACCEPTED, "accepted",
        f"{SPEC} §2.2 (test_an_explicit_null_reads_as_absent_exactly_as_the_engine_reads_it)",
        recorded={"engine": Verdict("accepted", None, "§2.2"), "training": Verdict("accepted", None, "§2.2")})
    add("legacy-null-input-name-is-absent", text(leg(inputName=None)), ACCEPTED, "accepted",
        f"{SPEC} §2.2: null = absent")
    add("current-requires-role", text(cur(modelRole=_DELETE)),
        refused("manifestVersion 1.1.0 requires field 'modelRole'"), "3-field", f"{SPEC} §2.2",
        recorded={"engine": refused("manifestVersion 1.1.0 requires field 'modelRole'")})
    add("current-null-role-is-missing", text(cur(modelRole=None)),
        refused("manifestVersion 1.1.0 requires field 'modelRole'"), "3-field",
        f"{SPEC} §2.2 (test_a_current_manifest_with_a_null_required_field_is_still_refused)",
        recorded={"engine": refused("manifestVersion 1.1.0 requires field 'modelRole'"),
                  "training": refused("manifestVersion 1.1.0 requires field 'modelRole'")})
    add("current-requires-perspective", text(cur(perspective=_DELETE)),
        refused("manifestVersion 1.1.0 requires field 'perspective'"), "3-field", f"{SPEC} §2.2",
        recorded={"training": refused("manifestVersion 1.1.0 requires field 'perspective'")})
    add("role-number", _raw(cur(), "modelRole", "1"), _string_msg("modelRole"), "3-field", f"{SPEC} §2.3")
    add("schema-missing", text(cur(featureSchema=_DELETE)), _missing("featureSchema"), "3-field",
        f"{SPEC} §4.1")
    add("schema-number", _raw(cur(), "featureSchema", "13"), _string_msg("featureSchema"), "3-field",
        f"{SPEC} §2.3")
    add("count-missing", text(cur(featureCount=_DELETE)), _missing("featureCount"), "3-field", f"{SPEC} §4.1")
    add("count-fraction", _raw(cur(), "featureCount", "12.5"),
        refused("field 'featureCount' must be a whole number"), "3-field", f"{SPEC} §2.3",
        recorded=_engine(refused("field 'featureCount' must be a whole number"), "§2.3"))
    add("count-string", text(cur(featureCount="13")), refused("field 'featureCount' must be a whole number"),
        "3-field", f"kit decision: {SPEC} §2.3 names only the whole-number text for featureCount")
    add("count-boolean", _raw(cur(), "featureCount", "true"),
        refused("field 'featureCount' must be a whole number"), "3-field", "kit decision, as count-string")
    add("count-beyond-int", _raw(cur(), "featureCount", "2147483648"),
        refused("field 'featureCount' must be a whole number"), "3-field",
        f"{SPEC} §2.3: a whole number that fits in a 32-bit Int")
    add("count-whole-float", _raw(cur(), "featureCount", "13.0"), ACCEPTED, "accepted",
        f"{SPEC} §2.3 (engine test: a width written as a whole float is the same width)",
        recorded={"engine": Verdict("accepted", None, "§2.3"), "training": Verdict("accepted", None, "§2.3")})
    add("count-exponent", _raw(cur(), "featureCount", "1.3e1"), ACCEPTED, "accepted", f"{SPEC} §2.3",
        recorded=_engine(ACCEPTED, "§2.3"))
    add("input-name-number", _raw(cur(), "inputName", "0"), _string_msg("inputName"), "3-field",
        f"{SPEC} §2.3",
        recorded={"training": Verdict("refused", "inputName must not be blank",
                                      "§4.2: 'inputName must not be blank' also for a non-string value")})
    add("output-name-boolean", _raw(cur(), "outputName", "false"), _string_msg("outputName"), "3-field",
        f"{SPEC} §2.3",
        recorded={"training": Verdict("refused", "outputName must not be blank",
                                      "§4.2: 'outputName must not be blank' also for a non-string value")})
    add("perspective-number", _raw(cur(), "perspective", "1"), _string_msg("perspective"), "3-field",
        f"{SPEC} §2.3")
    add("compat-missing", text(cur(engineCompatibility=_DELETE)), _missing("engineCompatibility"),
        "3-field", f"{SPEC} §3.3 (derived)",
        recorded={"training": refused("engineCompatibility must not be blank")})
    add("compat-null", text(cur(engineCompatibility=None)), _missing("engineCompatibility"), "3-field",
        f"{SPEC} §3.3 (derived)",
        recorded={"training": refused("invalid engineCompatibility 'None'; expected e.g. '>=0.4.0 <0.5.0'")})
    add("compat-number", _raw(cur(), "engineCompatibility", "12"), _string_msg("engineCompatibility"),
        "3-field", f"{SPEC} §2.3")
    add("profile-number", _raw(cur(), "evaluationProfile", "1"), _string_msg("evaluationProfile"),
        "3-field", f"{SPEC} §4.1 step 3")
    add("calibration-array", _raw(cur(), "calibration", "[1.0]"),
        refused("field 'calibration' must be an object"), "3-field", f"{SPEC} §4.1 step 3")
    add("calibration-temperature-string", text(cur(calibration={"temperature": "1.0"})),
        refused("field 'temperature' must be a number"), "3-field", f"{SPEC} §4.1 step 3 (no prefix)")
    add("calibration-brier-boolean", text(cur(calibration={"brierScore": True})),
        refused("field 'brierScore' must be a number"), "3-field", f"{SPEC} §4.1 step 3")
    add("calibration-log-loss-string", text(cur(calibration={"logLoss": "0.6"})),
        refused("field 'logLoss' must be a number"), "3-field", f"{SPEC} §4.1 step 3")
    add("calibration-calibrated-on-number", text(cur(calibration={"calibratedOn": 5})),
        refused("field 'calibratedOn' must be a string"), "3-field", f"{SPEC} §4.1 step 3",
        code="manifest.property.notString")
    add("calibration-other-keys-ignored", text(cur(calibration={"temperature": 2, "method": ["platt"]})),
        ACCEPTED, "accepted", f"{SPEC} §2.1: other keys inside calibration are ignored")
    add("calibration-null", text(cur(calibration=None)), ACCEPTED, "accepted", f"{SPEC} §2.2: null = absent")
    add("provenance-string", text(cur(provenance="abc")), refused("field 'provenance' must be an object"),
        "3-field", f"{SPEC} §4.1 step 3")
    add("provenance-nested-object", text(cur(provenance={"run": {"id": 1}})),
        refused("field 'provenance.run' must be a string, number or boolean"), "3-field", f"{SPEC} §2.1")
    add("provenance-null-value", text(cur(provenance={"run": None})),
        refused("field 'provenance.run' must be a string, number or boolean"), "3-field",
        f"{SPEC} §2.1: a null value inside provenance is refused")
    add("provenance-array-value", text(cur(provenance={"ok": "1", "epochs": [12]})),
        refused("field 'provenance.epochs' must be a string, number or boolean"), "3-field", f"{SPEC} §2.1")
    add("provenance-scalars", text(cur(provenance={"epochs": 12, "shuffled": True, "run": "abc",
                                                   "ratio": 0.25})),
        ACCEPTED, "accepted", f"{SPEC} §2.1 (engine test)", recorded=_engine(ACCEPTED, "§2.1"))
    add("unknown-field-ignored", text(cur(trainedBy="someone", extra={"nested": [1, 2]})), ACCEPTED,
        "accepted", f"{SPEC} §2.2: unknown fields are ignored",
        recorded={"engine": Verdict("accepted", None, "§2.2"), "training": Verdict("accepted", None, "§2.2")})
    add("current-without-profile", text(cur(evaluationProfile=_DELETE)), ACCEPTED, "accepted",
        f"{SPEC} §2.1/§9.2: optional to the engine",
        recorded={"engine": Verdict("accepted", None, "§9.2"),
                  "training": Verdict("refused", None, "§4.2/§9.2: evaluationProfile must be standard-kcp"),
                  "service": _SERVICE_ONLY_1_0_0})
    add("legacy-other-profile", text(leg(evaluationProfile="standard-kcp-mobility-27")), ACCEPTED,
        "accepted", f"{SPEC} §2.1: the engine records evaluationProfile and never reads it",
        recorded={"training": refused(
            "unsupported evaluationProfile 'standard-kcp-mobility-27'; expected 'standard-kcp'"),
            "service": Verdict("refused", None, "§4.5: standard-kcp is the only profile")})

    # --- step 3 order: fields are read in the engine's order, all of step 3 before step 4
    add("order-structural-before-value", text(cur(modelId=" ", featureCount=12.5)),
        refused("field 'featureCount' must be a whole number"), "3-order", f"{SPEC} §4.1: step 3 before 4")
    add("order-model-id-before-role-rule", text(leg(modelId=7, modelRole="position-value")),
        _string_msg("modelId"), "3-order", f"{SPEC} §4.1 step 3 field order")
    add("order-role-rule-before-schema", text(leg(modelRole="position-value", featureSchema=_DELETE)),
        refused("manifestVersion 1.0.0 does not define field 'modelRole'"), "3-order",
        f"{SPEC} §4.1 step 3 field order")
    add("order-legacy-input-name-before-width", text(leg(inputName="features", featureCount=27)),
        refused("manifestVersion 1.0.0 does not define field 'inputName'"), "3-order",
        f"{SPEC} §4.1: the version rule is structural (step 3), the width a value check (step 4)",
        recorded={"engine": Verdict("refused", "featureCount 27 does not match featureSchema 'kcp-13' (13 columns)",
                                    "§2.2: the engine reads inputName at 1.0.0, so the width decides"),
                  "training": Verdict("refused", "unsupported featureCount 27; expected 13",
                                      "§4.2 order: featureCount before the inputName version rule (derived)")})
    add("order-provenance-last", text(cur(provenance="x", calibration="y")),
        refused("field 'calibration' must be an object"), "3-order", f"{SPEC} §4.1 step 3 field order")

    # --- step 4: values, in the engine's order
    add("model-id-blank", text(cur(modelId="   ")), refused("modelId must not be blank"), "4",
        f"{SPEC} §4.1 step 4", recorded={"training": refused("modelId must not be blank")})
    add("model-id-empty", text(cur(modelId="")), refused("modelId must not be blank"), "4", f"{SPEC} §4.1")
    add("model-id-control", text(cur(modelId="\x01")), refused("modelId must not be blank"), "4",
        f"{SPEC} §2.1: trimming characters <= U+0020")
    add("model-id-nbsp", text(cur(modelId="\u00a0")), ACCEPTED, "accepted",
        f"{SPEC} §9.12: the engine trims only characters <= U+0020",
        recorded={"engine": Verdict("accepted", None, "§9.12 (derived)"),
                  "training": Verdict("refused", "modelId must not be blank", "§9.12: .strip() (derived)")})
    add("sha-short", text(cur(modelSha256=DIGEST[:63])),
        refused("modelSha256 must be exactly 64 hexadecimal characters"), "4", f"{SPEC} §4.1",
        recorded={"training": refused("modelSha256 must be exactly 64 hexadecimal characters")})
    add("sha-not-hex", text(cur(modelSha256="g" + DIGEST[1:])),
        refused("modelSha256 must be exactly 64 hexadecimal characters"), "4", f"{SPEC} §4.1")
    add("sha-uppercase", text(cur(modelSha256=DIGEST.upper())), ACCEPTED, "accepted",
        f"{SPEC} §2.3 (engine test: an upper-cased digest still verifies)",
        recorded={"engine": Verdict("accepted", None, "§2.3"), "training": Verdict("accepted", None, "§2.3")})
    add("sha-trailing-newline", text(cur(modelSha256=DIGEST + "\n")),
        refused("modelSha256 must be exactly 64 hexadecimal characters"), "4",
        f"{SPEC} §3.4 JVM facts: matches() refuses a trailing \\n",
        recorded={"engine": Verdict("refused", "modelSha256 must be exactly 64 hexadecimal characters",
                                    "§3.4 JVM facts"),
                  "training": Verdict("accepted", None, "§4.2: Python $ admits the newline (derived)")})
    add("role-unknown", text(cur(modelRole="Position-Value")),
        refused(f"unknown modelRole 'Position-Value'; known roles: {KNOWN_ROLES}"), "4", f"{SPEC} §4.1, §6",
        recorded={"training": refused(f"unknown modelRole 'Position-Value'; known roles: {KNOWN_ROLES}")})
    add("role-empty", text(cur(modelRole="")), refused(f"unknown modelRole ''; known roles: {KNOWN_ROLES}"),
        "4", f"{SPEC} §6: an unknown role always fails closed")
    add("schema-unknown", text(cur(featureSchema="kcp-14")),
        refused(f"unknown featureSchema 'kcp-14'; known schemas: {KNOWN_SCHEMAS}"), "4", f"{SPEC} §4.1",
        recorded={"training": refused("unsupported featureSchema 'kcp-14'; expected 'kcp-13'")})
    add("schema-case", text(cur(featureSchema="KCP-13")),
        refused(f"unknown featureSchema 'KCP-13'; known schemas: {KNOWN_SCHEMAS}"), "4", f"{SPEC} §4.1")
    add("schema-rich-9", text(cur(featureSchema="rich-9-v1", featureCount=9)), ACCEPTED, "accepted",
        f"{SPEC} §7", recorded={"service": Verdict("refused", None, "§9.4: the service accepts only kcp-13")})
    add("schema-raw-board", text(leg(featureSchema="raw-board-768-v1", featureCount=768)), ACCEPTED,
        "accepted", f"{SPEC} §7",
        recorded={"training": Verdict("refused", None, "§9.4: kcp13 accepts only kcp-13"),
                  "service": Verdict("refused", None, "§9.4: the service accepts only kcp-13")})
    add("count-mismatch", text(cur(featureCount=27)),
        refused("featureCount 27 does not match featureSchema 'kcp-13' (13 columns)"), "4",
        f"{SPEC} §4.1 (engine test)",
        recorded={"engine": refused("featureCount 27 does not match featureSchema 'kcp-13' (13 columns)"),
                  "training": refused("unsupported featureCount 27; expected 13")})
    add("count-mismatch-material", text(cur(featureSchema="material-7-v1")),
        refused("featureCount 13 does not match featureSchema 'material-7-v1' (7 columns)"), "4",
        f"{SPEC} §4.1, §7")
    add("input-name-empty", text(cur(inputName="")), refused("inputName must not be blank"), "4",
        f"{SPEC} §4.1", recorded={"training": refused("inputName must not be blank")})
    add("input-name-tab", text(cur(inputName="\t")), refused("inputName must not be blank"), "4",
        f"{SPEC} §4.1")
    add("output-name-space", text(cur(outputName=" ")), refused("outputName must not be blank"), "4",
        f"{SPEC} §4.1", recorded={"training": refused("outputName must not be blank")})
    add("perspective-unknown", text(cur(perspective="white")),
        refused("unsupported perspective 'white'; supported: side-to-move"), "4", f"{SPEC} §4.1",
        recorded={"training": refused("unsupported perspective 'white'; supported: 'side-to-move'")})
    add("perspective-case", text(cur(perspective="Side-To-Move")),
        refused("unsupported perspective 'Side-To-Move'; supported: side-to-move"), "4", f"{SPEC} §6")
    for slug, constraint, version, outcome in (
        ("compat-excluded", ">=0.13.0", HOST, "excluded"),
        ("compat-blank", "  ", HOST, "blank"),
        ("compat-empty", "", HOST, "blank"),
        ("compat-invalid", ">=0.12", HOST, "invalid-constraint"),
        ("compat-host-syntax", ">=0.12.0 <1.0.0", "0.12.1-SNAPSHOT", "invalid-engine-version"),
        ("compat-host-range", ">=0.12.0 <1.0.0", "99999999999.0.0", "invalid-engine-version"),
        ("compat-host-trailing-newline", ">=0.12.0 <1.0.0", "0.12.0\n", "invalid-engine-version"),
        ("compat-unicode-digit", ">=\u0663.0.0", HOST, "invalid-constraint"),
    ):
        message = compatibility_message(outcome, constraint, version)
        assert message is not None
        add(slug, text(cur(engineCompatibility=constraint)), refused(message), "4", f"{SPEC} §3.3",
            engine_version=version, recorded=_training_compat(outcome, constraint, version))

    # --- step 4 order
    add("order-model-id-before-sha", text(cur(modelId=" ", modelSha256="xyz")),
        refused("modelId must not be blank"), "4-order", f"{SPEC} §4.1 step 4 order")
    add("order-role-before-schema", text(cur(modelRole="critic", featureSchema="kcp-99")),
        refused(f"unknown modelRole 'critic'; known roles: {KNOWN_ROLES}"), "4-order",
        f"{SPEC} §4.1 step 4 order (Python checks the schema first, §4.2)",
        recorded={"training": refused("unsupported featureSchema 'kcp-99'; expected 'kcp-13'")})
    add("order-count-before-names", text(cur(featureCount=9, inputName="")),
        refused("featureCount 9 does not match featureSchema 'kcp-13' (13 columns)"), "4-order",
        f"{SPEC} §4.1 step 4 order")
    add("order-perspective-before-compat", text(cur(perspective="black", engineCompatibility=">=9.0.0")),
        refused("unsupported perspective 'black'; supported: side-to-move"), "4-order",
        f"{SPEC} §4.1 step 4 order")
    add("order-sha-before-host-version", text(cur(modelSha256="abc")),
        refused("modelSha256 must be exactly 64 hexadecimal characters"), "4-order",
        f"{SPEC} §4.1: engine compatibility (and so the host version) is the last value check",
        engine_version="not-a-version")

    # --- step 6: the expected-role gate
    add("gate-legacy-is-value", text(leg()), ACCEPTED, "accepted",
        f"{SPEC} §6 (engine test: a legacy manifest satisfies the value-model gate)",
        expected_role="position-value", recorded=_engine(ACCEPTED, "§6"))
    add("gate-legacy-not-collapse", text(leg()),
        refused("modelRole 'position-value' cannot serve as 'chance-collapse'"), "6", f"{SPEC} §4.1 step 6",
        expected_role="chance-collapse",
        recorded=_engine(refused("modelRole 'position-value' cannot serve as 'chance-collapse'"), "§6"))
    add("gate-collapse", text(cur(modelRole="chance-collapse")), ACCEPTED, "accepted", f"{SPEC} §6",
        expected_role="chance-collapse")
    add("gate-prerank-not-value", text(cur(modelRole="move-prerank")),
        refused("modelRole 'move-prerank' cannot serve as 'position-value'"), "6", f"{SPEC} §6",
        expected_role="position-value")
    add("gate-after-compat", text(cur(modelRole="move-prerank", engineCompatibility=">=2.0.0")),
        refused("engineCompatibility '>=2.0.0' does not include engine version '0.12.0'"), "6-order",
        f"{SPEC} §4.1: step 6 runs after step 4", expected_role="position-value")
    add("gate-without-expected-role", text(cur(modelRole="move-prerank")), ACCEPTED, "accepted",
        f"{SPEC} §6: without an expected role any known role loads")
    return c


def _training_compat(outcome: str, constraint: str, version: str) -> dict[str, Verdict]:
    """The training mirror's §3.3 texts for the compat cases of the manifest table."""
    if outcome == "invalid-engine-version":
        if version == "0.12.0\n":
            return {"training": Verdict("accepted", None, "§3.2: Python $ before a trailing newline")}
        if version == "99999999999.0.0":
            return {"training": refused(f"engineCompatibility '{constraint}' does not include engine"
                                        f" version '{version}'")}
        return {"training": refused(f"invalid semantic version '{version}'; expected MAJOR.MINOR.PATCH")}
    if outcome == "invalid-constraint":
        if constraint == ">=\u0663.0.0":
            return {"training": refused(f"engineCompatibility '{constraint}' does not include engine"
                                        f" version '{HOST}'")}
        return {"training": refused(f"invalid engineCompatibility '{constraint}'; expected e.g."
                                    " '>=0.4.0 <0.5.0'")}
    message = compatibility_message(outcome, constraint, version)
    return {"training": Verdict("refused", message, "§3.3")}


def manifest_corpus() -> dict[str, Any]:
    cases = []
    for case in manifest_cases():
        entry: dict[str, Any] = {
            "id": f"manifest/{case.slug}",
            "manifest": case.manifest,
            "engineVersion": case.engine_version,
            "expectedRole": case.expected_role,
            "verdict": case.expected.verdict,
            "message": case.expected.message,
            "messageMatch": "prefix" if case.prefix else "exact",
            "step": case.step,
            "source": case.source,
        }
        if case.expected.verdict == "refused":
            assert case.expected.message is not None
            entry["code"] = expected_code(case.expected.message, MANIFEST_FAMILIES, case.code)
        if case.recorded:
            entry["recorded"] = {
                impl: {**verdict.as_json(), "source": verdict.source or case.source}
                for impl, verdict in sorted(case.recorded.items())
            }
        cases.append(entry)
    return {
        "description": (
            "Manifest conformance corpus: the text of manifest.json, the host's engine version and the"
            " expected role (null = no gate); the kit's canonical verdict and message (spec/contract.md §4.1"
            " steps 3-6, no path prefix; messageMatch 'prefix' where JSON parsers word their details"
            " differently); and, under 'recorded', what the spec records the engine, the training mirror"
            " (kcp13.validate_manifest) and the service to answer (message omitted where no exact text is"
            " recorded). Generated by generators/conformance.py."
        ),
        "cases": _unique(cases),
    }


# ---------------------------------------------------------------------------------------------
# Tensor contract: small graphs, built so that onnxruntime infers exactly the declared shapes.

OPSET: Final = 13
IR_VERSION: Final = 8
F: Final = TensorProto.FLOAT
D: Final = TensorProto.DOUBLE


@dataclass(frozen=True)
class Tensor:
    name: str
    dtype: int
    shape: tuple[str | int | None, ...]


def _vi(t: Tensor) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(t.name, t.dtype, list(t.shape))


def _const(name: str, array: Any) -> onnx.TensorProto:
    return numpy_helper.from_array(array, name)


def build_graph(name: str, inputs: list[Tensor], outputs: list[Tensor], body: str,
                listed_initializers: bool = False) -> bytes:
    """One small graph with one input; ``body`` picks how the first output is computed from it."""
    import numpy as np

    nodes: list[onnx.NodeProto] = []
    inits: list[onnx.TensorProto] = []
    x = inputs[0] if inputs else None
    out = outputs[0]
    if body == "matmul":  # x [b,F] -> out [b,1]
        assert x is not None
        width = x.shape[-1]
        assert isinstance(width, int)
        np_dtype = np.float64 if x.dtype == D else np.float32
        inits.append(_const("weights", np.full((width, 1), 0.5, dtype=np_dtype)))
        target = out.name if out.dtype == x.dtype else "scores"
        nodes.append(helper.make_node("MatMul", [x.name, "weights"], [target]))
        if target != out.name:
            nodes.append(helper.make_node("Cast", [target], [out.name], to=out.dtype))
    elif body == "unsqueeze-last":  # x [b,F] -> [b,1] -> out [b,1,1]
        assert x is not None
        width = x.shape[-1]
        assert isinstance(width, int)
        inits += [_const("weights", np.full((width, 1), 0.5, dtype=np.float32)),
                  _const("axes", np.array([2], dtype=np.int64))]
        nodes += [helper.make_node("MatMul", [x.name, "weights"], ["scores"]),
                  helper.make_node("Unsqueeze", ["scores", "axes"], [out.name])]
    elif body == "reduce-last":  # x [..., F] -> sum over the last axis, dropped
        assert x is not None
        inits.append(_const("axes", np.array([len(x.shape) - 1], dtype=np.int64)))
        nodes.append(helper.make_node("ReduceSum", [x.name, "axes"], [out.name], keepdims=0))
    elif body == "unsqueeze-first-input":  # x [b] -> out [b,1]
        assert x is not None
        inits.append(_const("axes", np.array([1], dtype=np.int64)))
        nodes.append(helper.make_node("Unsqueeze", [x.name, "axes"], [out.name]))
    elif body == "constant":  # out: a fixed [4,1] tensor, the input unused
        nodes.append(helper.make_node("Constant", [], [out.name],
                                      value=_const("value", np.zeros((4, 1), dtype=np.float32))))
    else:
        raise RuntimeError(f"unknown graph body {body!r}")
    for extra in outputs[1:]:
        nodes.append(helper.make_node("Identity", [out.name], [extra.name]))
    graph_inputs = [_vi(t) for t in inputs]
    if listed_initializers:  # an older exporter's habit: initializers also listed as inputs
        graph_inputs += [helper.make_tensor_value_info(i.name, i.data_type, list(i.dims)) for i in inits]
    graph = helper.make_graph(nodes, name, graph_inputs, [_vi(t) for t in outputs], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=IR_VERSION)
    onnx.checker.check_model(model, full_check=True)
    data: bytes = model.SerializeToString()
    return data


B: Final = "batch"


@dataclass(frozen=True)
class GraphCase:
    slug: str
    graph: str  # path relative to golden/
    manifest: str
    expected: Verdict
    source: str
    recorded: dict[str, Verdict] = field(default_factory=dict)


# (file stem, inputs, outputs, body, listed initializers)
GRAPHS: Final[tuple[tuple[str, list[Tensor], list[Tensor], str, bool], ...]] = (
    ("value", [Tensor("input", F, (B, 13))], [Tensor("output", F, (B, 1))], "matmul", False),
    ("value-symbolic-n", [Tensor("input", F, ("N", 13))], [Tensor("output", F, ("N", 1))], "matmul", False),
    ("value-unnamed-dim", [Tensor("input", F, (None, 13))], [Tensor("output", F, (None, 1))], "matmul", False),
    ("initializers-listed", [Tensor("input", F, (B, 13))], [Tensor("output", F, (B, 1))], "matmul", True),
    ("input-named-features", [Tensor("features", F, (B, 13))], [Tensor("output", F, (B, 1))], "matmul", False),
    ("output-named-variable", [Tensor("input", F, (B, 13))], [Tensor("variable", F, (B, 1))], "matmul", False),
    ("two-outputs", [Tensor("input", F, (B, 13))],
     [Tensor("output", F, (B, 1)), Tensor("aux", F, (B, 1))], "matmul", False),
    ("input-double", [Tensor("input", D, (B, 13))], [Tensor("output", F, (B, 1))], "matmul", False),
    ("input-double-width-12", [Tensor("input", D, (B, 12))], [Tensor("output", F, (B, 1))], "matmul", False),
    ("input-fixed-batch-4", [Tensor("input", F, (4, 13))], [Tensor("output", F, (4, 1))], "matmul", False),
    ("input-fixed-batch-output-double", [Tensor("input", F, (1, 13))], [Tensor("output", D, (1, 1))],
     "matmul", False),
    ("input-width-12", [Tensor("input", F, (B, 12))], [Tensor("output", F, (B, 1))], "matmul", False),
    ("input-rank-1", [Tensor("input", F, (B,))], [Tensor("output", F, (B, 1))], "unsqueeze-first-input", False),
    ("input-rank-3", [Tensor("input", F, (B, 1, 13))], [Tensor("output", F, (B, 1))], "reduce-last", False),
    ("output-double", [Tensor("input", F, (B, 13))], [Tensor("output", D, (B, 1))], "matmul", False),
    ("output-rank-1", [Tensor("input", F, (B, 13))], [Tensor("output", F, (B,))], "reduce-last", False),
    ("output-rank-3", [Tensor("input", F, (B, 13))], [Tensor("output", F, (B, 1, 1))], "unsqueeze-last", False),
    ("output-fixed-4", [Tensor("input", F, (B, 13))], [Tensor("output", F, (4, 1))], "constant", False),
    ("width-9", [Tensor("input", F, (B, 9))], [Tensor("output", F, (B, 1))], "matmul", False),
)


def _two_input_graph() -> bytes:
    """Inputs ``input`` [b,13] and ``dice`` [b,2], both feeding ``output`` [b,1]."""
    import numpy as np

    inits = [_const("weights", np.full((13, 1), 0.5, dtype=np.float32)),
             _const("axes", np.array([1], dtype=np.int64))]
    nodes = [helper.make_node("MatMul", ["input", "weights"], ["scores"]),
             helper.make_node("ReduceSum", ["dice", "axes"], ["dice_sum"], keepdims=1),
             helper.make_node("Add", ["scores", "dice_sum"], ["output"])]
    graph = helper.make_graph(nodes, "dice-input",
                              [_vi(Tensor("input", F, (B, 13))), _vi(Tensor("dice", F, (B, 2)))],
                              [_vi(Tensor("output", F, (B, 1)))], initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=IR_VERSION)
    onnx.checker.check_model(model, full_check=True)
    data: bytes = model.SerializeToString()
    return data


def graph_files() -> dict[str, bytes]:
    files = {f"{GRAPH_DIR}/{stem}.onnx": build_graph(stem, inputs, outputs, body, listed)
             for stem, inputs, outputs, body, listed in GRAPHS}
    files[f"{GRAPH_DIR}/two-inputs-dice.onnx"] = _two_input_graph()
    return files


def _shape_msg(kind: str, name: str, width: int, got: str) -> Verdict:
    return refused(f"{kind} '{name}' must have shape [batch,{width}] with a dynamic batch dimension; got {got}")


def _names_msg(kind: str, expected: str, found: str) -> Verdict:
    return refused(f"ONNX model must expose exactly one {kind} named '{expected}'; found [{found}]")


def tensor_cases() -> list[GraphCase]:
    cur, leg = base_current, base_legacy
    g = "conformance/graphs/"
    fx = "fixtures/"
    eng = "§5.1 (engine OnnxModelContractSpec/SessionContractSpec)"
    return [
        GraphCase("value", g + "value.onnx", text(cur()), ACCEPTED, f"{SPEC} §5.1"),
        GraphCase("value-legacy", g + "value.onnx", text(leg()), ACCEPTED, f"{SPEC} §2.2: defaults input/output"),
        GraphCase("symbolic-batch-n", g + "value-symbolic-n.onnx", text(cur()), ACCEPTED,
                  f"{SPEC} §5.1: any symbolic dimension is dynamic"),
        GraphCase("unnamed-dynamic-batch", g + "value-unnamed-dim.onnx", text(cur()), ACCEPTED,
                  f"{SPEC} §5.1: a dimension with neither value nor name is dynamic"),
        GraphCase("initializers-listed-as-inputs", g + "initializers-listed.onnx", text(cur()), ACCEPTED,
                  "spec/tooling-notes.md: initializers listed among graph inputs are not inputs"),
        GraphCase("fixture-value", fx + "synthetic_kcp13_value_test_model.onnx",
                  _reference_manifest("synthetic_kcp13_value_manifest.json"), ACCEPTED, f"{SPEC} §8.1",
                  recorded={"engine": Verdict("accepted", None, "§8.2 Kcp13ParitySpec")}),
        GraphCase("fixture-renamed", fx + "synthetic_kcp13_renamed_tensors_test_model.onnx",
                  _reference_manifest("synthetic_kcp13_renamed_tensors_manifest.json"), ACCEPTED,
                  f"{SPEC} §8.2 item 6",
                  recorded={"engine": Verdict("accepted", None, "§8.2 item 6: the renamed package loads")}),
        GraphCase("fixture-static-batch", fx + "synthetic_kcp13_static_batch_test_model.onnx",
                  _reference_manifest("synthetic_kcp13_static_batch_manifest.json"),
                  _shape_msg("input", "input", 13, "[1,13]"), f"{SPEC} §5.1 (exact text)",
                  recorded={"engine": Verdict("refused", _shape_msg("input", "input", 13, "[1,13]").message, eng),
                            "training": Verdict("refused", "input 'input' must have shape [batch,13] with a"
                                                " dynamic batch; got [1, 13]", "§5.2 (derived)")}),
        GraphCase("renamed-graph-default-manifest", fx + "synthetic_kcp13_renamed_tensors_test_model.onnx",
                  text(cur()), _names_msg("input", "input", "features"), f"{SPEC} §5.1 rule: manifest and graph agree"),
        GraphCase("input-name-mismatch", g + "input-named-features.onnx", text(cur()),
                  _names_msg("input", "input", "features"), f"{SPEC} §5.1 step 1",
                  recorded={"training": refused("ONNX model must expose exactly one input named 'input';"
                                                " found ['features']")}),
        GraphCase("manifest-names-features", g + "value.onnx", text(cur(inputName="features")),
                  _names_msg("input", "features", "input"), f"{SPEC} §5.1 (engine test: found [input])",
                  recorded={"engine": Verdict("refused", _names_msg("input", "features", "input").message, eng)}),
        GraphCase("two-inputs-sorted", g + "two-inputs-dice.onnx", text(cur()),
                  _names_msg("input", "input", "dice, input"), f"{SPEC} §5.1 (engine test: found [dice, input])",
                  recorded={"engine": Verdict("refused", _names_msg("input", "input", "dice, input").message, eng),
                            "training": refused("ONNX model must expose exactly one input named 'input';"
                                                " found ['input', 'dice']")}),
        GraphCase("output-name-mismatch", g + "output-named-variable.onnx", text(cur()),
                  _names_msg("output", "output", "variable"), f"{SPEC} §5.1 (engine test: found [variable])",
                  recorded={"engine": Verdict("refused", _names_msg("output", "output", "variable").message, eng)}),
        GraphCase("output-variable-declared", g + "output-named-variable.onnx", text(cur(outputName="variable")),
                  ACCEPTED, f"{SPEC} §5.1: a graph declaring outputName 'variable' is served",
                  recorded={"engine": Verdict("accepted", None, eng)}),
        GraphCase("two-outputs", g + "two-outputs.onnx", text(cur()), _names_msg("output", "output", "aux, output"),
                  f"{SPEC} §5.1 step 2"),
        GraphCase("input-dtype", g + "input-double.onnx", text(cur()),
                  refused("input 'input' must have FLOAT dtype"), f"{SPEC} §5.1 step 3",
                  recorded={"training": refused("input 'input' must have FLOAT dtype")}),
        GraphCase("order-input-dtype-before-shape", g + "input-double-width-12.onnx", text(cur()),
                  refused("input 'input' must have FLOAT dtype"), f"{SPEC} §5.1 order"),
        GraphCase("input-fixed-batch-4", g + "input-fixed-batch-4.onnx", text(cur()),
                  _shape_msg("input", "input", 13, "[4,13]"), f"{SPEC} §5.1: a fixed batch is refused"),
        GraphCase("order-input-shape-before-output-dtype", g + "input-fixed-batch-output-double.onnx",
                  text(cur()), _shape_msg("input", "input", 13, "[1,13]"),
                  f"{SPEC} §5.1 order (Python checks both dtypes first, §9.9)",
                  recorded={"training": refused("output 'output' must have FLOAT dtype")}),
        GraphCase("input-width", g + "input-width-12.onnx", text(cur()),
                  _shape_msg("input", "input", 13, "[batch,12]"), f"{SPEC} §5.1 step 4"),
        GraphCase("input-width-follows-manifest", g + "width-9.onnx",
                  text(cur(featureSchema="rich-9-v1", featureCount=9)), ACCEPTED,
                  f"{SPEC} §5.1: the width is the manifest's featureCount"),
        GraphCase("input-width-9-for-kcp-13", g + "width-9.onnx", text(cur()),
                  _shape_msg("input", "input", 13, "[batch,9]"), f"{SPEC} §5.1 step 4"),
        GraphCase("input-rank-1", g + "input-rank-1.onnx", text(cur()),
                  _shape_msg("input", "input", 13, "[batch]"), f"{SPEC} §5.1 (rendering: got [batch])"),
        GraphCase("input-rank-3", g + "input-rank-3.onnx", text(cur()),
                  _shape_msg("input", "input", 13, "[batch,1,13]"), f"{SPEC} §5.1 step 4"),
        GraphCase("output-dtype", g + "output-double.onnx", text(cur()),
                  refused("output 'output' must have FLOAT dtype"), f"{SPEC} §5.1 step 5",
                  recorded={"training": refused("output 'output' must have FLOAT dtype")}),
        GraphCase("output-rank-1", g + "output-rank-1.onnx", text(cur()),
                  _shape_msg("output", "output", 1, "[batch]"), f"{SPEC} §5.1 (rendering: got [batch])",
                  recorded={"engine": Verdict("refused", _shape_msg("output", "output", 1, "[batch]").message,
                                              eng)}),
        GraphCase("output-rank-3", g + "output-rank-3.onnx", text(cur()),
                  _shape_msg("output", "output", 1, "[batch,1,1]"), f"{SPEC} §5.1 (rendering: got [batch,1,1])",
                  recorded={"engine": Verdict("refused",
                                              _shape_msg("output", "output", 1, "[batch,1,1]").message, eng)}),
        GraphCase("output-fixed-batch", g + "output-fixed-4.onnx", text(cur()),
                  _shape_msg("output", "output", 1, "[4,1]"), f"{SPEC} §5.1 (rendering: got [4,1])",
                  recorded={"engine": Verdict("refused", _shape_msg("output", "output", 1, "[4,1]").message, eng)}),
    ]


def tensor_corpus() -> dict[str, Any]:
    cases = []
    for case in tensor_cases():
        entry: dict[str, Any] = {
            "id": f"tensor-contract/{case.slug}",
            "graph": case.graph,
            "manifest": case.manifest,
            "engineVersion": HOST,
            "verdict": case.expected.verdict,
            "message": case.expected.message,
            "source": case.source,
        }
        if case.expected.message is not None:
            entry["code"] = expected_code(case.expected.message, ("tensor",))
        if case.recorded:
            entry["recorded"] = {impl: {**v.as_json(), "source": v.source or case.source}
                                 for impl, v in sorted(case.recorded.items())}
        cases.append(entry)
    return {
        "description": (
            "Tensor-contract conformance corpus (spec/contract.md §5.1): a graph (path relative to golden/),"
            " a manifest that passes the manifest checks, the canonical verdict and the engine's exact"
            " message (no path prefix), and what the spec records other implementations to answer."
            " Generated by generators/conformance.py."
        ),
        "cases": _unique(cases),
    }


# ---------------------------------------------------------------------------------------------


def _unique(cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    seen: set[str] = set()
    for case in cases:
        if case["id"] in seen:
            raise RuntimeError(f"duplicate conformance case id {case['id']!r}")
        seen.add(case["id"])
    return cases


def _literal_length(entry: TableEntry) -> int:
    return len(re.sub(r"\{[A-Za-z]+\}", "", entry.message))


def _template_pattern(entry: TableEntry) -> re.Pattern[str]:
    parts = re.split(r"\{[A-Za-z]+\}", entry.message)
    return re.compile("(.*)".join(re.escape(part) for part in parts), re.DOTALL)


def _flat(entries: tuple[TableEntry, ...]) -> list[TableEntry]:
    out: list[TableEntry] = []
    for entry in entries:
        out.extend(_flat(entry.checks) if entry.each is not None else [entry] if entry.message else [])
    return out


def expected_code(message: str, families: tuple[str, ...], explicit: str | None = None) -> str:
    """The check-table code whose template yields ``message``, or ``explicit``.

    The corpus's messages are written by hand from the spec; the code is read off the table, so the
    expected code never comes from the code under test. The most specific template wins (the most
    literal text), then the first in table order; where that is not the check that refuses (the
    engine words ``field 'calibratedOn' must be a string`` like a top-level field) the case names
    its code.
    """
    entries = [e for family in families for e in _flat(table_family(family))]
    if explicit is not None:
        if explicit not in {e.code for e in entries}:
            raise RuntimeError(f"check-table.json has no code {explicit!r}")
        return explicit
    matches = [e for e in entries if _template_pattern(e).fullmatch(message)]
    if not matches:
        raise RuntimeError(f"no check-table template yields {message!r}")
    best = max(_literal_length(e) for e in matches)
    return next(e.code for e in matches if _literal_length(e) == best)


MANIFEST_FAMILIES: Final = ("json", "manifest", "engineCompatibility")


def _dump(value: Any) -> bytes:
    text = json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    # A lone surrogate (a case's text may hold one on purpose) has no UTF-8 form: write it as an escape.
    return re.sub("[\ud800-\udfff]", lambda m: f"\\u{ord(m.group()):04x}", text).encode("utf-8")


def _versioned(name: str, corpus: dict[str, Any]) -> dict[str, Any]:
    """The corpus with the version of its file (docs/versioning.md)."""
    return {"formatVersion": formatversion.current(name), **corpus}


def generate() -> dict[str, bytes]:
    files = {
        f"{CORPUS_DIR}/engine-compatibility.json": _dump(_versioned("conformance-engine-compatibility",
                                                                    compatibility_corpus())),
        f"{CORPUS_DIR}/manifests.json": _dump(_versioned("conformance-manifests", manifest_corpus())),
        f"{CORPUS_DIR}/tensor-contract.json": _dump(_versioned("conformance-tensor-contract", tensor_corpus())),
    }
    files.update(graph_files())
    return files
