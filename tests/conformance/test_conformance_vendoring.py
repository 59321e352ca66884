"""What a repository vendoring schema/ would run: ``check-jsonschema`` over the real fixture manifests
and ``--check-metaschema`` over every schema. Runs the installed command-line tool, not the library."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from schema_cli import check_jsonschema

from contract.core.resources import data_root

ROOT = data_root()
SHARED_MANIFESTS = ROOT.parent / "shared" / "reference" / "manifests"
VENDORED_MANIFESTS = ROOT / "golden" / "recorded" / "manifests"


def _fixture_manifests() -> list[Path]:
    paths = sorted(VENDORED_MANIFESTS.glob("*_manifest.json"))
    paths += sorted((ROOT / "golden" / "fixtures").glob("*_manifest.json"))
    if SHARED_MANIFESTS.is_dir():
        paths += sorted(SHARED_MANIFESTS.glob("*_manifest.json"))
    return paths


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([check_jsonschema(), *args], capture_output=True, text=True, check=False)


def test_the_vendored_manifests_are_the_recorded_ones() -> None:
    if not SHARED_MANIFESTS.is_dir():
        pytest.skip(f"{SHARED_MANIFESTS} is not beside this checkout")
    for path in sorted(VENDORED_MANIFESTS.glob("*.json")):
        assert path.read_bytes() == (SHARED_MANIFESTS / path.name).read_bytes(), path.name


@pytest.mark.parametrize("version", ["1.0.0", "1.1.0"])
def test_every_fixture_manifest_validates_with_check_jsonschema(version: str) -> None:
    manifests = [p for p in _fixture_manifests()
                 if json.loads(p.read_text(encoding="utf-8"))["manifestVersion"] == version]
    assert manifests, f"no fixture manifest declares {version}"
    done = _run("--schemafile", str(ROOT / "schema" / f"manifest-{version}.schema.json"), *map(str, manifests))
    assert done.returncode == 0, done.stdout + done.stderr


def test_check_jsonschema_refuses_a_manifest_the_contract_refuses(tmp_path: Path) -> None:
    legacy = json.loads((VENDORED_MANIFESTS / "synthetic_kcp13_value_legacy_manifest.json").read_text())
    bad = []
    for field, value in (("modelRole", "position-value"), ("featureCount", 27), ("modelSha256", "ABC")):
        path = tmp_path / f"{field}.json"
        path.write_text(json.dumps({**legacy, field: value}), encoding="utf-8")
        bad.append(path)
    done = _run("--schemafile", str(ROOT / "schema" / "manifest-1.0.0.schema.json"), *map(str, bad))
    assert done.returncode == 1
    for path in bad:
        assert f"{path}::$.{path.stem}" in done.stdout, done.stdout


def test_every_schema_passes_its_metaschema() -> None:
    schemas = [p for p in sorted((ROOT / "schema").glob("*.json"))
               if "$schema" in json.loads(p.read_text(encoding="utf-8"))]
    names = {p.name for p in schemas}
    assert {"manifest-1.0.0.schema.json", "manifest-1.1.0.schema.json", "adapter-protocol.schema.json",
            "conformance-manifests.schema.json"} <= names
    done = _run("--check-metaschema", *map(str, schemas))
    assert done.returncode == 0, done.stdout + done.stderr
