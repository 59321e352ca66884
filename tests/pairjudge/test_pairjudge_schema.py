"""schema/pairjudge-1.schema.json: a draft 2020-12 schema with the kit's $id that the reference
bundles' pairjudge.json satisfy (jsonschema and the check-jsonschema CLI), and that turns a writer
deviation into a warning while the verdict stays the reference's."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from pairjudge_support import BUNDLES, REFERENCE_BUNDLES, apply_ops, copy_bundle
from schema_cli import check_jsonschema

from contract.core.resources import schema_dir
from contract.pairjudge import verify_bundle

SCHEMA = schema_dir() / "pairjudge-1.schema.json"
MANIFESTS = [BUNDLES / name / "pairjudge.json" for name in REFERENCE_BUNDLES]


def test_pairjudge_schema_is_draft_2020_12_with_the_kits_id_and_ascii_classes() -> None:
    text = SCHEMA.read_text(encoding="utf-8")
    schema = json.loads(text)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == "https://dicechess-contract.dev/schema/pairjudge-1.schema.json"
    assert "\\\\d" not in text


@pytest.mark.parametrize("manifest", MANIFESTS, ids=REFERENCE_BUNDLES)
def test_pairjudge_reference_manifests_validate_with_jsonschema(manifest: Path) -> None:
    validator = Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8")))
    assert [e.message for e in validator.iter_errors(json.loads(manifest.read_text()))] == []


def test_pairjudge_schema_passes_check_jsonschema_metaschema() -> None:
    result = subprocess.run([check_jsonschema(), "--check-metaschema", str(SCHEMA)],
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_pairjudge_reference_manifests_validate_withcheck_jsonschema() -> None:
    result = subprocess.run([check_jsonschema(), "--schemafile", str(SCHEMA), *map(str, MANIFESTS)],
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_pairjudge_check_jsonschema_rejects_an_uppercase_digest(tmp_path: Path) -> None:
    document = json.loads(MANIFESTS[0].read_text())
    document["files"]["config.json"] = document["files"]["config.json"].upper()
    bad = tmp_path / "pairjudge.json"
    bad.write_text(json.dumps(document))
    result = subprocess.run([check_jsonschema(), "--schemafile", str(SCHEMA), str(bad)],
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 1, result.stdout + result.stderr


def test_pairjudge_schema_deviation_is_a_warning_not_a_refusal(tmp_path: Path) -> None:
    """Spec §3: a missing packer field takes its default upstream (``{"max_length": 100}`` passes);
    the writer always writes all 13, so the kit warns."""
    bundle = copy_bundle("full-run/merged", tmp_path)
    apply_ops(bundle, [{"op": "set", "path": "/packer", "value": {"max_length": 100}}])
    verdict = verify_bundle(bundle, layer="manifest")
    assert verdict.ok, verdict
    assert any("packer lacks" in w for w in verdict.warnings)
    assert any("pairjudge.json /packer is not as pairjudge 0.3.0 writes it" in w for w in verdict.warnings)
