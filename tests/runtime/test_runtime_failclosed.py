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

from contract.core.checktable import CONTRACT_TABLE, _flatten, require_codes
from contract.core.errors import CheckTableError
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


def _too_large(size: int, limit: int) -> str:
    """The table's package.model.tooLarge message (as the 3 GiB tests below quote it from a whole run)."""
    return (f"model file is {size} bytes, more than {limit}: a graph that holds its own weights cannot be larger"
            " (protobuf's 2 GiB limit; external data is refused)")


class _Grown:
    """os.fstat for read_model's size look-up: the file as it was ``by`` bytes ago (it grew since)."""

    def __init__(self, by: int) -> None:
        self.by, self.real = by, package.os.fstat

    def __call__(self, fd: int) -> object:
        real = self.real(fd)
        values = list(real)
        values[6] -= self.by  # st_size
        return package.os.stat_result(values)


@pytest.mark.parametrize(("limit", "grown_by", "expected"), [
    (100, 8, "whole"),  # grown after the size was taken: the whole file is read, up to the limit
    (20, 8, "whole"),   # grown to exactly the limit: still one graph
    (19, 8, 20),        # grown past the limit: refused with what was read, one byte past the limit
    (15, 8, 16),
    (12, 8, 13),        # grown past a limit the first read already crossed
    (20, 0, "whole"),   # not grown, exactly the limit
])
def test_read_model_reads_a_file_grown_since_its_size_was_taken_only_up_to_the_limit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, limit: int, grown_by: int, expected: str | int) -> None:
    from contract.model.package import ModelTooLarge, read_model

    model = tmp_path / "model.onnx"
    content = bytes(range(65, 85))  # 20 bytes, each different: a short or shifted read shows
    model.write_bytes(content)
    monkeypatch.setattr(package, "MAX_MODEL_BYTES", limit)
    monkeypatch.setattr(package.os, "fstat", _Grown(grown_by))
    if expected == "whole":
        assert read_model(model) == content
        assert read_model(model, tmp_path) == content
        return
    for root in (None, tmp_path):
        with pytest.raises(ModelTooLarge) as raised:
            read_model(model, root)
        assert raised.value.size == expected
        assert str(raised.value) == _too_large(int(expected), limit)
        assert raised.value.refusal() == Refusal(_too_large(int(expected), limit), "package.model.tooLarge")


def test_read_model_refuses_above_the_limit_unread_and_reads_every_byte_up_to_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from contract.model.package import ModelTooLarge, read_model

    model = tmp_path / "model.onnx"
    content = bytes(range(65, 85))
    model.write_bytes(content)
    for limit in (20, 21, 1000):
        monkeypatch.setattr(package, "MAX_MODEL_BYTES", limit)
        assert read_model(model) == content
    monkeypatch.setattr(package, "MAX_MODEL_BYTES", 19)
    with pytest.raises(ModelTooLarge) as raised:
        read_model(model)
    assert (raised.value.size, str(raised.value)) == (20, _too_large(20, 19))
    (tmp_path / "empty.onnx").write_bytes(b"")
    assert read_model(tmp_path / "empty.onnx") == b""


def test_package_build_refuses_a_model_above_the_limit_unread_naming_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In process (the 3 GiB run below is a child process): the refusal names publication, the model and
    its size against the limit, and nothing is written."""
    from contract.model.builder import PackageSpec, build_package
    from contract.model.manifest import read_manifest
    from contract.model.tensors import check_graph

    model = EXAMPLE / "model.onnx"
    size = model.stat().st_size
    monkeypatch.setattr(package, "MAX_MODEL_BYTES", size - 1)
    out = tmp_path / "out"
    built = build_package(PackageSpec(model, "kcp-13", "position-value", ">=0.12.0 <1.0.0", "x"), out)
    assert built == Refusal(f"refusing to publish {out}: {model}: {_too_large(size, size - 1)}",
                            "package.model.tooLarge")
    assert not out.exists()
    manifest = read_manifest((EXAMPLE / "manifest.json").read_bytes(), "0.12.0").manifest
    assert manifest is not None
    assert check_graph(model, manifest) == Refusal(_too_large(size, size - 1), "package.model.tooLarge")


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
