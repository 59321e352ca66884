"""Every corpus file validates against its JSON Schema, with ``jsonschema`` and with ``check-jsonschema``."""

from __future__ import annotations

import copy
import json
import subprocess
from collections import defaultdict
from pathlib import Path

import pytest
from golden_testkit import ENGINE_FIXTURES, ROOT
from jsonschema import Draft202012Validator
from schema_cli import check_jsonschema

from contract.golden.validation import CORPUS_SCHEMAS, SCHEMA_DATA, schema_name, schema_path

# Every schema the kit ships (manifests, corpus files, registry, protocol, pairjudge): one standard for all.
CORPUS_SCHEMA_FILES = tuple(sorted(p.name[: -len(".schema.json")] for p in (ROOT / "schema").glob("*.schema.json")))


def _load(path: Path) -> object:
    return json.loads(path.read_text(encoding="utf-8"))


def _corpus_files() -> dict[str, list[str]]:
    """schema path -> the committed corpus files it describes (from the one table)."""
    groups: dict[str, list[str]] = defaultdict(list)
    for pattern, _ in CORPUS_SCHEMAS:
        matched = sorted(ROOT.glob(pattern))
        assert matched, f"{pattern} matches no committed file"
    for path in [*(ROOT / data for data in SCHEMA_DATA), *sorted((ROOT / "golden").rglob("*.json"))]:
        relative = path.relative_to(ROOT).as_posix()
        name = schema_name(relative, _load(path))
        if name is not None:
            groups[schema_path(name)].append(relative)
    return groups


@pytest.mark.parametrize("name", CORPUS_SCHEMA_FILES)
def test_corpus_schemas_are_draft_2020_12_with_the_kits_id_and_ascii_classes(name: str) -> None:
    text = (ROOT / "schema" / f"{name}.schema.json").read_text(encoding="utf-8")
    schema = json.loads(text)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"https://dicechess-contract.dev/schema/{name}.schema.json"
    assert "\\\\d" not in text


def test_every_corpus_file_validates_with_jsonschema() -> None:
    groups = _corpus_files()
    described = {"probes", "golden-vectors", "parity", "drift-log", "feature-schemas", "manifest-1.0.0",
                 "manifest-1.1.0", "conformance-engine-compatibility", "conformance-manifests",
                 "conformance-tensor-contract", "conformance-divergences", "check-table", "manifest-fields"}
    assert set(groups) >= {f"schema/{n}.schema.json" for n in described}
    for schema_file, files in groups.items():
        validator = Draft202012Validator(_load(ROOT / schema_file))
        for file in files:
            errors = [e.message for e in validator.iter_errors(_load(ROOT / file))]
            assert errors == [], f"{file} against {schema_file}: {errors[:3]}"


def test_the_engines_parity_file_validates_against_the_parity_schema() -> None:
    validator = Draft202012Validator(_load(ROOT / "schema" / "parity.schema.json"))
    assert list(validator.iter_errors(_load(ENGINE_FIXTURES / "synthetic_kcp13_value_parity.json"))) == []


@pytest.mark.slow
def test_every_corpus_file_validates_with_the_check_jsonschema_cli() -> None:
    tool = check_jsonschema()
    for schema_file, files in _corpus_files().items():
        result = subprocess.run([tool, "--schemafile", schema_file, *files], cwd=ROOT, capture_output=True,
                                text=True, timeout=300, check=False)
        assert result.returncode == 0, f"{schema_file}: {result.stdout}{result.stderr}"


def test_check_jsonschema_rejects_a_vector_of_the_wrong_width(tmp_path: Path) -> None:
    corpus = _load(ROOT / "golden" / "vectors" / "kcp-13.json")
    assert isinstance(corpus, dict)
    broken = copy.deepcopy(corpus)
    broken["probes"][0]["features"].append(0.0)
    target = tmp_path / "kcp-13.json"
    target.write_text(json.dumps(broken), encoding="utf-8")
    result = subprocess.run([check_jsonschema(), "--schemafile", "schema/golden-vectors.schema.json",
                             str(target)], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 1
    assert "is too long" in result.stdout
    validator = Draft202012Validator(_load(ROOT / "schema" / "golden-vectors.schema.json"))
    assert [e.message for e in validator.iter_errors(broken)] != []
    wrong_columns = copy.deepcopy(corpus)
    wrong_columns["columns"][0] = "pawn_diff"
    assert [e.message for e in validator.iter_errors(wrong_columns)] != []
