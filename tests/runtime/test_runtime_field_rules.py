"""Which manifest version defines and requires which field (spec/contract.md §2.2), read from the data."""

from __future__ import annotations

import pytest

from contract.model.manifest_schema import FieldRule, manifest_versions


@pytest.mark.parametrize(("version", "field", "rule"), [
    ("1.0.0", "modelRole", FieldRule.UNDEFINED),  # 1.0.0 has no role, perspective or tensor-name fields
    ("1.0.0", "perspective", FieldRule.UNDEFINED),
    ("1.1.0", "modelRole", FieldRule.REQUIRED),  # 1.1.0 adds modelRole and perspective as required
    ("1.1.0", "perspective", FieldRule.REQUIRED),
    ("1.1.0", "inputName", FieldRule.OPTIONAL),  # and defines inputName/outputName as optional
    ("1.1.0", "outputName", FieldRule.OPTIONAL),
    ("1.0.0", "engineCompatibility", FieldRule.REQUIRED),
    ("1.1.0", "calibration", FieldRule.OPTIONAL),
    ("1.0.0", "trainedBy", FieldRule.OPTIONAL),  # unknown fields are ignored: allowed, never required
])
def test_a_versions_rule_for_a_field(version: str, field: str, rule: FieldRule) -> None:
    assert manifest_versions()[version].rule(field) is rule
