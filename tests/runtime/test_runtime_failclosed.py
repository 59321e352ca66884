"""Fail closed where the review of 7f9a987 found the kit open: an edited check table (L5) and a model
too large to be a graph (H1)."""

from __future__ import annotations

import json
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from contract.core.checktable import CONTRACT_TABLE, CheckTableError, _flatten, require_codes
from contract.core.refusal import Refusal
from contract.core.resources import data_root, golden_dir
from contract.model import compatibility, manifest, package
from contract.model.package import MAX_MODEL_BYTES, ModelPackage

EXAMPLE = golden_dir() / "example-package"


@pytest.mark.parametrize(("family", "implemented"), [("manifest", manifest.IMPLEMENTED),
                                                     ("engineCompatibility", compatibility.IMPLEMENTED)])
def test_each_family_interpreted_by_kind_states_exactly_the_checks_its_interpreter_implements(
        family: str, implemented: tuple[str, ...]) -> None:
    assert sorted(entry.code for entry in _flatten(CONTRACT_TABLE.family(family))) == sorted(implemented)


def test_a_missing_code_is_refused_naming_it() -> None:
    with pytest.raises(CheckTableError) as caught:
        require_codes(CONTRACT_TABLE, "manifest", (*manifest.IMPLEMENTED, "manifest.notThere"))
    assert str(caught.value) == ("schema/check-table.json: the manifest family lacks the check 'manifest.notThere' "
                                 "(1 missing): the table is edited or stale, and nothing is served without it")


def _kit_with_table(tmp_path: Path, family: str, drop: set[str]) -> Path:
    """A scratch copy of the kit (code and data) whose check table lacks the ``drop`` codes of ``family``."""
    kit = tmp_path / "kit"
    for name in ("contract", "schema", "grammar", "golden"):
        shutil.copytree(data_root() / name, kit / name, ignore=shutil.ignore_patterns("__pycache__"))
    table = kit / "schema" / "check-table.json"
    document = json.loads(table.read_text(encoding="utf-8"))
    checks = document["families"][family]["checks"]
    document["families"][family]["checks"] = [entry for entry in checks if entry.get("code") not in drop]
    assert len(document["families"][family]["checks"]) == len(checks) - len(drop)
    table.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return kit


@pytest.mark.parametrize(("family", "drop"), [
    ("manifest", {"manifest.modelRole.cannotServe", "manifest.engineCompatibility"}),  # reproducer 25
    ("engineCompatibility", {"engineCompatibility.excluded"}),
])
def test_a_table_without_a_check_serves_nothing(tmp_path: Path, family: str, drop: set[str]) -> None:
    kit = _kit_with_table(tmp_path, family, drop)
    done = subprocess.run([sys.executable, "-m", "contract", "validate", str(kit / "golden" / "example-package"),
                           "--engine-version", "0.1.0", "--role", "chance-collapse"],
                          cwd=kit, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(kit)},
                          capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 1 and "serving" not in done.stdout, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith(f"dicechess-contract: schema/check-table.json: the {family} family lacks the check ")


def test_the_limit_is_protobufs_and_the_boundary_is_exact(monkeypatch: pytest.MonkeyPatch) -> None:
    assert MAX_MODEL_BYTES == 2**31 - 1
    size = (EXAMPLE / "model.onnx").stat().st_size
    monkeypatch.setattr(package, "MAX_MODEL_BYTES", size)
    assert isinstance(ModelPackage.load(EXAMPLE, "0.12.0"), ModelPackage)
    monkeypatch.setattr(package, "MAX_MODEL_BYTES", size - 1)
    refused = ModelPackage.load(EXAMPLE, "0.12.0")
    assert isinstance(refused, Refusal) and refused.code == "package.model.tooLarge"
    assert refused.message.startswith(f"{EXAMPLE / 'model.onnx'}: model file is {size} bytes, more than {size - 1}:")


def _limit_address_space() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))


def test_a_3_gib_model_is_refused_unread_under_a_2_gib_address_space(tmp_path: Path) -> None:
    """Reproducer 11: the model was read whole (a MemoryError traceback under this limit)."""
    pkg = tmp_path / "pkg"
    shutil.copytree(EXAMPLE, pkg)
    with open(pkg / "model.onnx", "r+b") as model:
        model.truncate(3 * 1024**3)  # sparse
    done = subprocess.run([sys.executable, "-m", "contract", "validate", str(pkg), "--engine-version", "0.12.0"],
                          capture_output=True, text=True, check=False, timeout=300, preexec_fn=_limit_address_space)
    assert done.returncode == 1 and done.stderr == "", done.stderr
    assert done.stdout == (f"refusing to serve: {pkg / 'model.onnx'}: model file is 3221225472 bytes, more than "
                           "2147483647: a graph that holds its own weights cannot be larger (protobuf's 2 GiB "
                           "limit; external data is refused)\n")


def test_package_build_and_a_graph_path_refuse_a_3_gib_model_unread(tmp_path: Path) -> None:
    """Issue 22 audit: `package build --model` (and check_graph given a path, as the conformance adapter
    gives one) read the model whole before any limit: 3.2 GB resident, a MemoryError traceback under this
    limit. Now refused unread, as validate refuses it."""
    big = tmp_path / "big.onnx"
    with open(big, "wb") as model:
        model.truncate(3 * 1024**3)  # sparse
    done = subprocess.run([sys.executable, "-m", "contract", "package", "build", "--model", str(big), "--schema",
                           "kcp-13", "--role", "position-value", "--engine-compatibility", ">=0.12.0 <1.0.0",
                           "--model-id", "x", "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, check=False, timeout=300, preexec_fn=_limit_address_space)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr[-800:]
    assert done.stdout + done.stderr == (
        f"refusing to publish {tmp_path / 'out'}: {big}: model file is {3 * 1024**3} bytes, more than"
        f" {MAX_MODEL_BYTES}: a graph that holds its own weights cannot be larger (protobuf's 2 GiB limit;"
        " external data is refused)\n")
    from contract.model.manifest import read_manifest
    from contract.model.tensors import check_graph

    manifest = read_manifest((EXAMPLE / "manifest.json").read_bytes(), "0.12.0").manifest
    assert manifest is not None
    refused = check_graph(big, manifest)
    assert refused is not None and refused.code == "package.model.tooLarge"
