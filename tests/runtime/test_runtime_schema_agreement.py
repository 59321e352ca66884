"""The manifest JSON Schemas and the loader give the same verdict on every manifest (property test).

Manifests are the six reference manifests with random fields replaced, added or removed. The schema's
verdict (``Draft202012Validator`` for the declared version; an undeclared or unknown version is
refused) must equal the loader's *structural* verdict: accepted, or refused only because the range
excludes the host — the one value check a host-independent schema cannot encode (documented in
docs/runtime.md). Everything else the loader checks, the schema encodes: types, the version rule,
null-as-absent, blankness, the digest pattern, the role, schema and perspective lists, the width tie
and the constraint syntax.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from budget import share
from hypothesis import given, settings
from hypothesis import strategies as st

from contract.core.registry import feature_schemas
from contract.model.manifest import read_manifest
from contract.model.manifest_schema import manifest_versions, validator

MANIFESTS = Path(__file__).resolve().parents[2] / "golden" / "recorded" / "manifests"
BASES: list[dict[str, Any]] = [json.loads(p.read_text(encoding="utf-8"))
                                for p in sorted(MANIFESTS.glob("synthetic_kcp13_*_manifest.json"))]
HOST = "0.12.0"
FIELDS = sorted({key for base in BASES for key in base}
                | {"inputName", "outputName", "evaluationProfile", "calibration", "provenance", "trainedBy"})
DIGEST = "e078ff34038d02b504b1d9a68535f88d6860ef1ce464a9168bc3db5b7950d980"

# Values near every boundary the loader or the schema draws, per field, plus a shared pool.
TEXT_EDGES: list[Any] = ["", " ", "\t\x01", "\x20\x00", "\u00a0", "\u3000", "m", " m ", "\ud800", None, 7, True]
WIDTHS: list[Any] = [s.width for s in feature_schemas().values()]
BOUNDARIES: dict[str, list[Any]] = {
    "manifestVersion": ["1.0.0", "1.1.0", "1.2.0", " 1.0.0", "1.0.0\n", 1.1, None],
    "modelId": TEXT_EDGES,
    "modelSha256": [DIGEST, DIGEST.upper(), DIGEST + "\n", "\n" + DIGEST, DIGEST[:63], "\u0663" * 64,
                    "g" * 64, 64, None],
    "modelRole": ["position-value", "chance-collapse", "move-prerank", "Position-Value", "", None, 1],
    "perspective": ["side-to-move", "Side-To-Move", "white", "", None, 0],
    "featureSchema": [*feature_schemas(), "kcp-14", "KCP-13", "", None, 13],
    "featureCount": [*WIDTHS, 13.0, 1.3e1, 0, -0.0, 12.5, 13.000000000000002, 2**31 - 1, 2**31, -(2**31),
                     -(2**31) - 1, 1e300, "13", True, None],
    "inputName": TEXT_EDGES,
    "outputName": TEXT_EDGES,
    "evaluationProfile": ["standard-kcp", "", " ", None, 1, {}],
    "calibration": [{}, {"temperature": 1.0}, {"temperature": "1"}, {"temperature": None}, {"brierScore": True},
                    {"logLoss": []}, {"calibratedOn": 3}, {"calibratedOn": None}, {"other": [1]}, [], None, 1],
    "provenance": [{}, {"run": "a"}, {"n": 12, "b": True, "r": 0.25}, {"x": None}, {"x": {}}, {"x": []}, [],
                   None, "run"],
}
NEAR_MISSES = st.sampled_from([value for values in BOUNDARIES.values() for value in values])
COMPONENTS = st.sampled_from(["0", "1", "12", "0012", "2147483647", "2147483648", "99999999999", "\u0663", "x", ""])
OPERATORS = st.sampled_from(["", "=", ">", ">=", "<", "<=", "==", "~>", "^", "v"])
SEPARATORS = st.sampled_from([" ", "  ", "\t", "\n", "\x0b", "\x0c", "\r", "\u00a0", ",", "\x01", ""])
EDGES = st.sampled_from(["", " ", "\x01", "\x00 ", "\n", "\u00a0"])
COMPARATOR = st.builds(lambda op, a, b, c: f"{op}{a}.{b}.{c}", OPERATORS, COMPONENTS, COMPONENTS, COMPONENTS)
CONSTRAINTS = st.builds(
    lambda lead, first, rest, trail: lead + first + "".join(sep + comp for sep, comp in rest) + trail,
    EDGES, COMPARATOR, st.lists(st.tuples(SEPARATORS, COMPARATOR), max_size=2), EDGES,
)
SCALARS = (NEAR_MISSES | CONSTRAINTS | st.text(max_size=6) | st.integers(-(2**40), 2**40)
           | st.floats(allow_nan=False, allow_infinity=False))
SUB_KEYS = st.sampled_from(["temperature", "brierScore", "logLoss", "calibratedOn", "run", ""]) | st.text(max_size=3)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(SUB_KEYS, inner, max_size=3),
                      max_leaves=6)


def _change(name: str) -> st.SearchStrategy[tuple[str, Any]]:
    near = BOUNDARIES.get(name)
    if name == "engineCompatibility":
        values = CONSTRAINTS | CONSTRAINTS | VALUES
    elif near is None:
        values = VALUES
    else:
        values = st.sampled_from(near) | st.sampled_from(near) | VALUES
    return st.tuples(st.just(name), values)


CHANGES = st.lists(st.sampled_from(FIELDS).flatmap(_change), max_size=3).map(dict)


def schema_accepts(doc: dict[str, Any]) -> bool:
    version = doc.get("manifestVersion")
    if not isinstance(version, str) or version not in manifest_versions():
        return False
    return bool(validator(version).is_valid(doc))


def loader_accepts_structurally(doc: dict[str, Any]) -> bool:
    result = read_manifest(json.dumps(doc).encode(), HOST)
    if result.ok:
        return True
    excluded = f"engineCompatibility '{doc.get('engineCompatibility')}' does not include engine version '{HOST}'"
    return result.message == excluded


@pytest.mark.slow
@settings(share(15))
@given(st.sampled_from(BASES), CHANGES, st.sets(st.sampled_from(FIELDS), max_size=2))
def test_schema_and_loader_agree_on_mutated_reference_manifests(base: dict[str, Any], changes: dict[str, Any],
                                                                removed: set[str]) -> None:
    doc = {key: value for key, value in base.items() if key not in removed}
    doc.update(changes)
    assert schema_accepts(doc) == loader_accepts_structurally(doc), read_manifest(json.dumps(doc), HOST).message


def test_the_reference_manifests_are_accepted_by_both() -> None:
    assert len(BASES) >= 6  # the six synthetic manifests of golden/fixtures, and any added since
    for base in BASES:
        assert schema_accepts(base) and loader_accepts_structurally(base)


def test_the_one_host_dependent_check_is_outside_the_schema() -> None:
    # A range that excludes the host: the schema accepts (it cannot know the host), the loader refuses.
    doc = dict(BASES[0], engineCompatibility=">=0.13.0")
    assert schema_accepts(doc)
    assert read_manifest(json.dumps(doc), HOST).message == (
        "engineCompatibility '>=0.13.0' does not include engine version '0.12.0'")
