"""``schema/manifest.schema.json`` (one schema for every manifest version) in a tool other than the kit:
check-jsonschema, run as a user runs it, agrees with the kit on every manifest case of the corpus.

Agreement is the structural one of test_runtime_schema_agreement: a schema cannot know the host engine
version nor the role the caller wires, nor see below parsed JSON (duplicate keys, NaN, depth, size).
So a case the kit refuses only for one of those is one the schema must accept (the host-dependent
codes below), a case whose text Python's ``json`` cannot read or that the kit refuses at the JSON level
is not a manifest for the schema, and every other case gets the same verdict from both.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from contract.core.resources import golden_dir, schema_dir
from contract.model.manifest import read_manifest
from contract.model.manifest_schema import manifest_versions

CASES: list[dict[str, Any]] = json.loads((golden_dir() / "conformance" / "manifests.json").read_text("utf-8"))["cases"]
DISPATCH = schema_dir() / "manifest.schema.json"
# What a host-independent schema cannot see: the host's version, its range check, the caller's role.
HOST_DEPENDENT = ("engineCompatibility.excluded", "engineCompatibility.engineVersion.",
                  "manifest.engineVersion.notString", "manifest.modelRole.cannotServe")


def _kit_accepts_structurally(case: dict[str, Any]) -> bool | None:
    """The kit's verdict as a schema can state it; None when the case is below the schema (JSON level)."""
    result = read_manifest(case["manifest"], case["engineVersion"], case["expectedRole"])
    if result.ok:
        return True
    code = result.refusal.code if result.refusal is not None else None
    assert code is not None
    if code.startswith("json."):
        return None
    return code.startswith(HOST_DEPENDENT)


def _check_jsonschema() -> list[str]:
    found = shutil.which("check-jsonschema", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.fail("check-jsonschema is a test dependency (pyproject's test extra) and is not installed")
    return [found]


def test_check_jsonschema_agrees_with_the_kit_on_every_manifest_case(tmp_path: Path) -> None:
    expected: dict[str, bool] = {}
    for number, case in enumerate(CASES):
        if not isinstance(case.get("manifest"), str):
            continue
        verdict = _kit_accepts_structurally(case)
        try:
            json.loads(case["manifest"])
            case["manifest"].encode("utf-8")
        except ValueError:  # not JSON to Python, or a lone surrogate no UTF-8 file can hold
            verdict = None
        if verdict is None:
            continue
        name = f"case-{number:03d}.json"
        (tmp_path / name).write_text(case["manifest"], encoding="utf-8")
        expected[name] = verdict
    assert len(expected) >= 60 and True in expected.values() and False in expected.values()
    done = subprocess.run([*_check_jsonschema(), "--schemafile", str(DISPATCH), "-o", "json", *sorted(expected)],
                          cwd=tmp_path, capture_output=True, text=True, check=False, timeout=300)
    report = json.loads(done.stdout)
    assert report.get("parse_errors", []) == [], report
    refused = {Path(error["filename"]).name for error in report["errors"]}
    disagreements = {name: ("kit accepts" if ok else "kit refuses") for name, ok in expected.items()
                     if ok == (name in refused)}
    assert disagreements == {}, {n: (v, CASES[int(n[5:8])]["id"]) for n, v in disagreements.items()}
    assert done.returncode == (1 if refused else 0)


@pytest.mark.parametrize("version", manifest_versions())
def test_a_manifest_is_checked_by_the_schema_of_the_version_it_declares(tmp_path: Path, version: str) -> None:
    """The issue's case: a 1.0.0 manifest (no modelRole) against the 1.1.0 schema failed; dispatched, it passes."""
    accepted = [case for case in CASES if isinstance(case.get("manifest"), str)
                and read_manifest(case["manifest"], case["engineVersion"], case["expectedRole"]).ok
                and json.loads(case["manifest"]).get("manifestVersion") == version]
    assert accepted, version
    path = tmp_path / "manifest.json"
    path.write_text(accepted[0]["manifest"], encoding="utf-8")
    done = subprocess.run([*_check_jsonschema(), "--schemafile", str(DISPATCH), str(path)],
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    other = json.loads(accepted[0]["manifest"])
    other["manifestVersion"] = "9.9.9"
    path.write_text(json.dumps(other), encoding="utf-8")
    done = subprocess.run([*_check_jsonschema(), "--schemafile", str(DISPATCH), str(path)],
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 1 and "manifest.json" in done.stdout + done.stderr
