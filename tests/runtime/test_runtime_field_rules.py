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


def test_every_field_is_read_as_manifest_fields_json_writes_it() -> None:
    import json

    from contract.core.resources import schema_dir
    from contract.model.manifest_schema import manifest_fields

    raw = json.loads((schema_dir() / "manifest-fields.json").read_text(encoding="utf-8"))
    read = {f.name: f for f in manifest_fields().fields}
    assert list(read) == [f["name"] for f in raw["fields"]]
    for entry in raw["fields"]:
        field = read[entry["name"]]
        assert (field.type, field.default, field.not_blank, field.pattern, field.length, field.one_of, field.width_of,
                field.grammar, field.description) == (
            entry["type"], entry.get("default"), entry.get("notBlank", False), entry.get("pattern"),
            entry.get("length"), entry.get("oneOf"), entry.get("widthOf"), entry.get("grammar"),
            entry.get("description"))
        assert {v: r.value for v, r in field.rules.items()} == entry["rules"]
        assert [(p.name, p.type, p.default) for p in field.properties] == [
            (p["name"], p["type"], p.get("default")) for p in entry.get("properties", [])]


def test_a_fields_rule_follows_versions_in_semantic_not_text_order() -> None:
    from contract.model.manifest_schema import ManifestField

    field = ManifestField(name="x", type="string", rules={"1.9.0": FieldRule.OPTIONAL, "1.10.0": FieldRule.REQUIRED})
    assert field.rule("1.10.0") is FieldRule.REQUIRED  # "1.10.0" < "1.9.0" as text
    assert field.rule("1.9.5") is FieldRule.OPTIONAL
    assert field.rule("1.0.0") is FieldRule.UNDEFINED
