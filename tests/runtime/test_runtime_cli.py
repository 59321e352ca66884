"""The stable CLI: ``validate`` and ``compat`` exit codes, human and JSON output."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "contract", *args], capture_output=True, text=True, check=False)


@pytest.fixture
def package(tmp_path: Path, graphs: dict[str, Path], manifests: Path) -> Path:
    shutil.copy(graphs["value"], tmp_path / "model.onnx")
    shutil.copy(manifests / "synthetic_kcp13_value_manifest.json", tmp_path / "manifest.json")
    return tmp_path


def test_validate_serves_a_good_package(package: Path) -> None:
    done = run("validate", str(package), "--engine-version", "0.12.0", "--role", "position-value")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("serving synthetic-kcp13-value:")


def test_validate_json_on_refusal(package: Path) -> None:
    done = run("validate", str(package), "--engine-version", "1.0.0", "--json")
    assert done.returncode == 1
    document = json.loads(done.stdout)
    assert document == {
        "outputVersion": 1,
        "ok": False,
        "message": f"{package / 'manifest.json'}: engineCompatibility '>=0.12.0 <1.0.0' "
                   "does not include engine version '1.0.0'",
        "code": "engineCompatibility.excluded",
        "field": "/engineCompatibility",
    }


def test_validate_by_files_runs_the_tensor_contract(tmp_path: Path, graphs: dict[str, Path], manifests: Path) -> None:
    done = run("validate", "--model", str(graphs["static"]),
               "--manifest", str(manifests / "synthetic_kcp13_static_batch_manifest.json"), "--engine-version", "0.12.0")
    assert done.returncode == 1
    assert done.stdout == (f"refusing to serve: {graphs['static']}: input 'input' must have shape [batch,13] "
                           "with a dynamic batch dimension; got [1,13]\n")


def test_validate_role_gate(package: Path) -> None:
    done = run("validate", str(package), "--engine-version", "0.12.0", "--role", "move-prerank")
    assert done.returncode == 1
    assert done.stdout.endswith("modelRole 'position-value' cannot serve as 'move-prerank'\n")


@pytest.mark.parametrize("args", [
    ["validate", "--engine-version", "0.12.0"],
    ["validate", "x", "--model", "m", "--manifest", "f", "--engine-version", "0.12.0"],
    ["validate", "--model", "m", "--engine-version", "0.12.0"],
    ["validate", "x", "--engine-version", "0.12.0", "--role", "leaf"],
    ["compat", ">=0.12.0"],
    ["nonsense"],
])
def test_usage_errors_exit_2(args: list[str]) -> None:
    assert run(*args).returncode == 2


def test_compat_json() -> None:
    done = run("compat", ">=0.12.0 <1.0.0", "--engine-version", "0.12.0", "--json")
    assert done.returncode == 0
    assert json.loads(done.stdout) == {"outputVersion": 1, "ok": True, "message": None, "code": None, "outcome": "satisfied",
                                       "constraint": ">=0.12.0 <1.0.0", "engineVersion": "0.12.0"}


@pytest.mark.parametrize(("constraint", "version", "outcome"), [
    (">=0.12.0 <1.0.0", "1.0.0", "excluded"), ("  ", "0.12.0", "blank"), (">=0.12", "0.12.0", "invalid-constraint"),
    (">=0.12.0", "0.12.0\n", "invalid-engine-version"),
])
def test_compat_refusals(constraint: str, version: str, outcome: str) -> None:
    done = run("compat", "--engine-version", version, "--json", "--", constraint)
    assert done.returncode == (2 if outcome == "invalid-engine-version" else 1)  # as validate's usage error
    assert json.loads(done.stdout)["outcome"] == outcome


def test_compat_human_refusal() -> None:
    done = run("compat", "~>0.12.0", "--engine-version", "0.12.0")
    assert done.stdout == ("invalid engineCompatibility '~>0.12.0'; expected space-separated "
                           "comparators such as '>=0.12.0 <1.0.0'\n")
    invalid = run("compat", ">=0.12.0", "--engine-version", "1.x")
    assert (invalid.returncode, invalid.stdout) == (2, "invalid engine version: invalid semantic version '1.x'; "
                                                       "expected MAJOR.MINOR.PATCH\n")


def test_a_console_that_cannot_show_the_input_gets_escapes_not_a_traceback() -> None:
    import os

    done = subprocess.run([sys.executable, "-m", "contract", "compat", "\u22650.12.0", "--engine-version", "0.12.0"],
                          capture_output=True, text=True, check=False, env={**os.environ, "PYTHONIOENCODING": "ascii"})
    assert done.returncode == 1
    assert done.stderr == ""
    assert done.stdout.startswith("invalid engineCompatibility '\\u22650.12.0'")


def test_a_version_component_of_thousands_of_digits_is_a_usage_error_not_a_traceback(package: Path) -> None:
    version = "1" * 5000 + ".0.0"
    done = run("validate", str(package), "--engine-version", version)
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.endswith(f"error: argument --engine-version: invalid semantic version '{version}'; "
                                "a component does not fit in an Int\n")


def test_lone_surrogates_in_a_manifest_are_shown_not_a_traceback(package: Path) -> None:
    text = (package / "manifest.json").read_text(encoding="utf-8")
    doc = json.loads(text)
    doc["modelId"] = "\ud800id"            # valid JSON (an escape), not valid Unicode
    doc["provenance"]["\udcff"] = "key"   # also in a key
    (package / "manifest.json").write_text(json.dumps(doc), encoding="utf-8")  # ensure_ascii: escapes
    done = run("validate", str(package), "--engine-version", "0.12.0", "--json")
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout)["modelId"] == "\ud800id"
    human = run("validate", str(package), "--engine-version", "0.12.0")
    assert human.returncode == 0 and human.stdout.startswith("serving \\ud800id:")
