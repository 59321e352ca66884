"""The builder's refusals: which one comes first, and what each carries (code, field, the user's paths).

Each test pins one outcome exactly; several were written against surviving mutants (docs/testing.md).
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from contract.core.refusal import Refusal
from contract.model import builder
from contract.model.builder import PackageSpec, build_package
from contract.model.package import ModelPackage


def spec(model: Path) -> PackageSpec:
    return PackageSpec(model=model, schema_id="kcp-13", role="position-value",
                       engine_compatibility=">=0.12.0 <1.0.0", model_id="m-1")


@pytest.mark.parametrize("kind", ["directory", "file", "dangling link"])
def test_an_existing_destination_is_refused_before_the_model_is_looked_at(tmp_path: Path, kind: str) -> None:
    out = tmp_path / "pkg"
    if kind == "directory":
        out.mkdir()
    elif kind == "file":
        out.write_text("mine")
    else:
        out.symlink_to(tmp_path / "nowhere")
    result = build_package(spec(tmp_path / "no-such-model.onnx"), out)
    assert result == Refusal(f"refusing to overwrite {out}: it already exists", "builder.destination.exists")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pkg"]


def test_the_package_is_loaded_for_the_engine_version_given_not_the_witness(tmp_path: Path,
                                                                          graphs: dict[str, Path]) -> None:
    built = build_package(spec(graphs["value"]), tmp_path / "pkg", engine_version="0.13.5")
    assert isinstance(built, ModelPackage)
    assert built.engine_version == "0.13.5"
    witnessed = build_package(spec(graphs["value"]), tmp_path / "pkg2")
    assert isinstance(witnessed, ModelPackage)
    assert witnessed.engine_version == "0.12.0"  # the lowest version '>=0.12.0 <1.0.0' admits


def test_a_model_that_cannot_be_read_is_refused_with_the_reason_and_nothing_staged(
        tmp_path: Path, graphs: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    def failing_read(path: Path) -> bytes:
        raise OSError(errno.EIO, "Input/output error", str(path))

    monkeypatch.setattr(builder, "read_graph", failing_read)
    out = tmp_path / "pkg"
    result = build_package(spec(graphs["value"]), out)
    assert result == Refusal(f"refusing to publish {out}: cannot digest {graphs['value']}: Input/output error",
                             "package.model.digestError")
    assert list(tmp_path.iterdir()) == []


def test_a_refusal_found_after_staging_keeps_its_code_and_field(tmp_path: Path, graphs: dict[str, Path]) -> None:
    out = tmp_path / "pkg"
    result = build_package(spec(graphs["static"]), out)
    reason = (f"{graphs['static']}: input 'input' must have shape [batch,13] with a dynamic batch dimension; "
              "got [1,13]")
    assert result == Refusal(f"refusing to publish {out}: {reason}", "tensor.input.shape", "/featureCount")


def test_a_model_path_that_is_not_utf8_is_written_as_escapes_in_the_refusal_file(
        tmp_path: Path, graphs: dict[str, Path]) -> None:
    model = tmp_path / os.fsdecode(b"static-\xff.onnx")
    model.write_bytes(graphs["static"].read_bytes())
    out = tmp_path / "pkg"
    result = build_package(spec(model), out)
    assert isinstance(result, Refusal)
    (failed,) = [p for p in tmp_path.iterdir() if ".failed-" in p.name]
    expected = (str(tmp_path).encode() + b"/static-\\udcff.onnx: input 'input' must have shape [batch,13] with a "
                b"dynamic batch dimension; got [1,13]\n")
    assert (failed / "REFUSED.txt").read_bytes() == expected


@pytest.mark.parametrize("constraint", ["", "   "])
def test_a_blank_constraint_has_no_witness_and_says_so(constraint: str) -> None:
    assert builder.witness_version(constraint) == Refusal("engineCompatibility must not be blank",
                                                          "engineCompatibility.blank", "/engineCompatibility")


@pytest.mark.parametrize(("constraint", "witness"), [
    ("=1.2.3", "1.2.3"),
    (">0.0.2147483647", "0.1.0"),  # the successor of a patch at its maximum carries into the minor
    (">0.2147483647.2147483647", "1.0.0"),
    (">=0.3.0 >0.3.0 <9.0.0", "0.3.1"),
])
def test_the_witness_of_a_constraint(constraint: str, witness: str) -> None:
    assert builder.witness_version(constraint) == witness


@pytest.mark.parametrize("constraint", [">2147483647.2147483647.2147483647", ">=0.3.0 <=0.2.0", ">1.2.3 <1.2.4"])
def test_a_constraint_that_admits_nothing_has_no_witness(constraint: str) -> None:
    assert builder.witness_version(constraint) == Refusal(f"engineCompatibility '{constraint}' admits no engine "
                                                          "version", "builder.compatibility.empty",
                                                          "/engineCompatibility")


def test_a_parent_directory_created_meanwhile_by_someone_else_is_used(tmp_path: Path, graphs: dict[str, Path],
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "a" / "b" / "pkg"
    document = builder.manifest_document

    def concurrent(*args: object) -> object:
        out.parent.mkdir(parents=True)  # another builder publishing beside this one got there first
        return document(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(builder, "manifest_document", concurrent)
    assert isinstance(build_package(spec(graphs["value"]), out), ModelPackage)
    assert sorted(p.name for p in out.iterdir()) == ["manifest.json", "model-card.md", "model.onnx"]


def test_files_loaded_by_their_paths_are_held_to_the_expected_role(tmp_path: Path, graphs: dict[str, Path]) -> None:
    built = build_package(spec(graphs["value"]), tmp_path / "pkg")
    assert isinstance(built, ModelPackage)
    refused = ModelPackage.load_files(built.model_path, built.manifest_path, "0.12.0", "move-prerank")
    assert refused == Refusal(f"{built.manifest_path}: modelRole 'position-value' cannot serve as 'move-prerank'",
                              "manifest.modelRole.cannotServe", "/modelRole")
    assert isinstance(ModelPackage.load_files(built.model_path, built.manifest_path, "0.12.0", "position-value"),
                      ModelPackage)


def test_a_model_removed_between_open_and_the_identity_check_is_not_served(
        tmp_path: Path, graphs: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    from contract.model import package

    built = build_package(spec(graphs["value"]), tmp_path / "pkg")
    assert isinstance(built, ModelPackage)
    opener = package.open_regular

    def open_then_removed(path: Path) -> object:
        handle = opener(path)
        if path.name == "model.onnx":
            path.unlink()  # the descriptor still reads the old bytes; the name no longer leads to them
        return handle

    monkeypatch.setattr(package, "open_regular", open_then_removed)
    model = tmp_path / "pkg" / "model.onnx"
    assert ModelPackage.load(tmp_path / "pkg", "0.12.0") == Refusal(
        f"{model}: resolves outside the package directory (a package is self-contained)", "package.file.outside")
