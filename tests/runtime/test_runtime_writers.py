"""The builder, the staged writer and the scorer on paths the other tests do not take (issue 16).

Each case was a surviving mutant of ``builder``, ``stagedfile``, ``scoring`` or ``tensors``: every
assertion pins the whole outcome.
"""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from contract.core.refusal import Refusal
from contract.core.stagedfile import StagedFile, sync_path, write_atomic
from contract.model import builder
from contract.model.builder import PackageSpec, build_package
from contract.model.package import ModelPackage
from contract.model.scoring import Scorer, ScoringError
from contract.model.tensors import check_session


def spec(model: Path) -> PackageSpec:
    return PackageSpec(model=model, schema_id="kcp-13", role="position-value", engine_compatibility=">=0.12.0",
                       model_id="m")


# --- builder ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("taken", ["empty directory", "file", "dangling link"])
def test_a_destination_that_appears_during_validation_is_not_replaced(
        tmp_path: Path, graphs: dict[str, Path], monkeypatch: pytest.MonkeyPatch, taken: str) -> None:
    out = tmp_path / "pkg"
    real_validate = builder._validate

    def validate_then_take(*args: Any) -> Any:
        if taken == "empty directory":
            out.mkdir()  # rename(2) would silently replace an empty directory: the check before it must not
        elif taken == "file":
            out.write_text("theirs")
        else:
            out.symlink_to(tmp_path / "nowhere")
        return real_validate(*args)

    monkeypatch.setattr(builder, "_validate", validate_then_take)
    assert build_package(spec(graphs["value"]), out) == Refusal(f"refusing to overwrite {out}: it already exists",
                                                                "builder.destination.exists")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pkg"]
    assert out.is_symlink() or (out.is_dir() and not any(out.iterdir())) or out.read_text() == "theirs"


def test_a_filesystem_error_without_a_file_name_is_reported_by_its_reason(
        tmp_path: Path, graphs: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    def failing_sync(path: Path) -> None:
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(builder, "sync_path", failing_sync)
    out = tmp_path / "pkg"
    assert build_package(spec(graphs["value"]), out) == Refusal(f"refusing to publish {out}: Input/output error",
                                                                "builder.os.error")
    assert list(tmp_path.iterdir()) == []


def test_a_refused_package_is_kept_under_a_name_with_eight_hex_digits(tmp_path: Path,
                                                                     graphs: dict[str, Path]) -> None:
    out = tmp_path / "pkg"
    result = build_package(spec(graphs["static"]), out)
    assert isinstance(result, Refusal)
    (failed,) = tmp_path.iterdir()
    assert re.fullmatch(r"pkg\.failed-[0-9a-f]{8}", failed.name)
    assert (failed / "REFUSED.txt").read_text() == result.message.removeprefix(f"refusing to publish {out}: ") + "\n"


# --- the staged writer --------------------------------------------------------------------------------------


def test_a_staged_file_removed_by_someone_else_still_fails_with_the_original_error(tmp_path: Path) -> None:
    staged = StagedFile(tmp_path / "out.txt")
    with pytest.raises(RuntimeError, match=r"^the writer's own failure$"), staged as handle:
        handle.write(b"partial")
        staged.tmp.unlink()
        raise RuntimeError("the writer's own failure")
    assert list(tmp_path.iterdir()) == []


def test_sync_path_raises_a_real_failure_and_tolerates_an_unsupported_one(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "f"
    target.write_bytes(b"x")
    for code in (errno.EINVAL, errno.ENOTSUP):
        monkeypatch.setattr(os, "fsync", lambda fd, code=code: (_ for _ in ()).throw(OSError(code, "no")))
        sync_path(target)  # a filesystem that cannot sync: tolerated
    monkeypatch.setattr(os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(errno.EIO, "Input/output error")))
    with pytest.raises(OSError, match=r"^\[Errno 5\] Input/output error$"):
        sync_path(target)


@pytest.mark.parametrize("code", [errno.EACCES, errno.EISDIR, errno.EPERM])
def test_a_directory_the_platform_cannot_open_is_tolerated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           code: int) -> None:
    monkeypatch.setattr(os, "open", lambda *args, **kwargs: (_ for _ in ()).throw(OSError(code, "no")))
    sync_path(tmp_path)  # Windows cannot open a directory: tolerated
    (tmp_path / "f").write_bytes(b"x")
    with pytest.raises(OSError, match=r"no$"):
        sync_path(tmp_path / "f")  # the same error on a file is real


def test_a_temporary_sibling_is_hidden_beside_its_file_with_twelve_hex_digits(tmp_path: Path) -> None:
    import re

    from contract.core.stagedfile import temporary_sibling

    names = {temporary_sibling(tmp_path / "out.tsv") for _ in range(50)}
    assert len(names) == 50  # fresh each time
    assert all(n.parent == tmp_path and re.fullmatch(r"\.out\.tsv\.tmp-[0-9a-f]{12}", n.name) for n in names)


def test_a_staged_text_file_is_opened_with_the_callers_arguments(tmp_path: Path) -> None:
    target = tmp_path / "rows.txt"
    staged = StagedFile(target, "w", encoding="utf-16-le", newline="\r\n")
    with staged as handle:
        handle.write("é\n")
    staged.publish()
    assert target.read_bytes() == "é\r\n".encode("utf-16-le")


def test_a_write_that_fails_keeps_its_errno_and_names_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(errno.ENOSPC, "No space left on device")))
    target = tmp_path / "out.json"
    with pytest.raises(OSError) as caught:
        write_atomic(target, "{}")
    assert (caught.value.errno, caught.value.strerror, caught.value.filename) == (
        errno.ENOSPC, "No space left on device", str(target))
    assert list(tmp_path.iterdir()) == []


def test_a_failure_that_names_its_file_is_raised_as_it_is(tmp_path: Path) -> None:
    """The directory does not exist: the open of the temporary sibling fails and names it; write_atomic
    passes that error on rather than a copy naming the destination."""
    target = tmp_path / "missing" / "out.json"
    with pytest.raises(FileNotFoundError) as caught:
        write_atomic(target, "{}")
    named = Path(caught.value.filename)
    assert named.parent == target.parent and re.fullmatch(r"\.out\.json\.tmp-[0-9a-f]{12}", named.name)


def test_a_rename_that_fails_is_raised_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    """The destination is a directory with something in it: the rename fails, publish raises, the staged
    file is removed and the directory is as it was."""
    target = tmp_path / "out.json"
    target.mkdir()
    (target / "kept").write_text("x", encoding="utf-8")
    staged = StagedFile(target)
    with staged as handle:
        handle.write(b"{}")
    with pytest.raises(OSError) as caught:
        staged.publish()
    assert caught.value.errno in (errno.EISDIR, errno.ENOTEMPTY, errno.EEXIST)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]
    assert [p.name for p in target.iterdir()] == ["kept"]


def test_another_failure_to_open_a_directory_is_raised(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "open", lambda *args, **kwargs: (_ for _ in ()).throw(OSError(errno.EMFILE, "Too many "
                                                                                          "open files")))
    with pytest.raises(OSError, match=r"^\[Errno 24\] Too many open files$"):
        sync_path(tmp_path)


def test_write_atomic_writes_text_as_utf8_and_bytes_as_they_are(tmp_path: Path) -> None:
    write_atomic(tmp_path / "t", "é\n")
    write_atomic(tmp_path / "b", b"\xff")
    assert (tmp_path / "t").read_bytes() == b"\xc3\xa9\n" and (tmp_path / "b").read_bytes() == b"\xff"


# --- scoring on a session that misbehaves ---------------------------------------------------------------------


class _Outputs:
    def __init__(self, result: Any) -> None:
        self.result = result
        self.calls: list[Any] = []

    def run(self, names: Any, feeds: Any) -> Any:
        self.calls.append((names, feeds))
        if isinstance(self.result, Exception):
            raise self.result
        return [self.result]


def _scorer(package: ModelPackage, session: Any) -> Scorer:
    return Scorer(package, session)


@pytest.fixture
def package(graphs: dict[str, Path], manifests: Path) -> ModelPackage:
    loaded = ModelPackage.load_files(graphs["value"], manifests / "synthetic_kcp13_value_manifest.json", "0.12.0")
    assert isinstance(loaded, ModelPackage)
    return loaded


def test_an_empty_batch_is_an_empty_float32_array(package: ModelPackage) -> None:
    scores = _scorer(package, _Outputs(None)).score(np.zeros((0, 13), np.float32))
    assert scores.dtype == np.float32 and scores.shape == (0,)


def test_the_runtime_is_asked_for_the_manifest_output_by_name(package: ModelPackage) -> None:
    session = _Outputs(np.ones((2, 1), np.float32))
    assert _scorer(package, session).score(np.zeros((2, 13), np.float32)).tolist() == [1.0, 1.0]
    ((names, feeds),) = session.calls
    assert names == ["output"] and list(feeds) == ["input"]


def test_a_runtime_failure_is_reported_with_its_first_line(package: ModelPackage) -> None:
    scorer = _scorer(package, _Outputs(RuntimeError("kernel failed\nstack trace")))
    with pytest.raises(ScoringError, match=r"^ONNX Runtime failed: kernel failed$"):
        scorer.score(np.zeros((1, 13), np.float32))


@pytest.mark.parametrize("result", [np.ones((2,), np.float32), np.ones((2, 2), np.float32), np.ones((1, 1))])
def test_an_output_of_the_wrong_shape_is_refused_in_full(package: ModelPackage, result: Any) -> None:
    scorer = _scorer(package, _Outputs(result))
    expected = f"ONNX output has shape {list(result.shape)}; expected [2, 1]"
    with pytest.raises(ScoringError, match=f"^{re.escape(expected)}$"):
        scorer.score(np.zeros((2, 13), np.float32))


def test_a_float64_output_is_refused(package: ModelPackage) -> None:
    with pytest.raises(ScoringError, match=r"^ONNX output contains a non-finite value$"):
        _scorer(package, _Outputs(np.ones((1, 1), np.float64))).score(np.zeros((1, 13), np.float32))


# --- tensor names the JVM would sort -----------------------------------------------------------------------


class _Node:
    def __init__(self, name: str) -> None:
        self.name, self.type, self.shape = name, "tensor(float)", ["batch", 13]


class _Session:
    def __init__(self, names: list[str]) -> None:
        self.names = names

    def get_inputs(self) -> list[_Node]:
        return [_Node(n) for n in self.names]

    def get_outputs(self) -> list[_Node]:
        return []


def test_names_with_a_lone_surrogate_are_listed_in_jvm_order_not_raised(package: ModelPackage) -> None:
    refusal = check_session(_Session(["\udcff", "\U0001f600", "\ue000", "a"]), package.manifest)
    assert refusal == Refusal("ONNX model must expose exactly one input named 'input';"
                              " found [a, \U0001f600, \udcff, \ue000]", "tensor.input.names", "/inputName")


# --- what the builder writes, in process (the CLI tests run it in a child the mutants never reach) ----------


def test_an_unknown_schema_and_an_unknown_role_are_refused_in_full(tmp_path: Path) -> None:
    from contract.core.registry import feature_schemas

    known = ", ".join(sorted(feature_schemas()))
    bad_schema = PackageSpec(tmp_path / "m.onnx", "kcp-99", "position-value", ">=0.12.0", "m")
    assert builder.manifest_document(bad_schema, "0" * 64, ("input", "output")) == Refusal(
        f"unknown featureSchema 'kcp-99'; known schemas: {known}", "manifest.featureSchema.unknown", "/featureSchema")
    bad_role = PackageSpec(tmp_path / "m.onnx", "kcp-13", "value", ">=0.12.0", "m")
    assert builder.manifest_document(bad_role, "0" * 64, ("input", "output")) == Refusal(
        "unknown modelRole 'value'; known roles: chance-collapse, move-prerank, position-value",
        "manifest.modelRole.unknown", "/modelRole")


@pytest.mark.parametrize(("role", "names", "version"), [
    ("position-value", ("input", "output"), "1.0.0"),
    ("position-value", ("features", "output"), "1.1.0"),
    ("chance-collapse", ("input", "output"), "1.1.0"),
])
def test_the_manifest_version_follows_role_and_names(tmp_path: Path, role: str, names: tuple[str, str],
                                                     version: str) -> None:
    spec_ = PackageSpec(tmp_path / "m.onnx", "kcp-13", role, ">=0.12.0", "m", provenance={"run": "abc"},
                        allow_service_unmountable=True)
    doc = builder.manifest_document(spec_, "ab" * 32, names)
    expected: dict[str, Any] = {"manifestVersion": version, "modelId": "m", "modelSha256": "ab" * 32,
                                "featureSchema": "kcp-13", "featureCount": 13, "engineCompatibility": ">=0.12.0",
                                "evaluationProfile": "standard-kcp", "provenance": {"run": "abc"}}
    if version == "1.1.0":
        expected.update(modelRole=role, perspective="side-to-move", inputName=names[0], outputName=names[1])
    assert doc == expected


def test_a_renamed_value_graph_is_refused_unless_the_caller_opts_in(tmp_path: Path) -> None:
    spec_ = PackageSpec(tmp_path / "m.onnx", "kcp-13", "position-value", ">=0.12.0", "m")
    assert builder.manifest_document(spec_, "ab" * 32, ("features", "output")) == Refusal(
        "a position-value artifact cannot rename its tensors: 1.0.0 has no field for it and the evaluation"
        " service reads no other version; the graph's tensors are 'features'/'output' (rename them"
        " input/output, or opt in to a package the service cannot mount)", "builder.tensors.renamedValue")


def test_the_evaluation_profile_is_the_services_default_only_for_kcp13(tmp_path: Path) -> None:
    from contract.core.registry import feature_schemas

    other = next(s for s in sorted(feature_schemas()) if s != "kcp-13")
    doc = builder.manifest_document(PackageSpec(tmp_path / "m", other, "chance-collapse", ">=0", "m"), "0" * 64,
                                    ("input", "output"))
    assert isinstance(doc, dict) and "evaluationProfile" not in doc and "provenance" not in doc
    doc = builder.manifest_document(PackageSpec(tmp_path / "m", other, "chance-collapse", ">=0", "m",
                                                evaluation_profile="mine"), "0" * 64, ("input", "output"))
    assert isinstance(doc, dict) and doc["evaluationProfile"] == "mine"


def test_a_graph_with_several_inputs_or_outputs_is_named_with_the_defaults(tmp_path: Path) -> None:
    from runtime_graphs import build

    graph = build(input_name="features", extra_inputs=["more"], output_name="score", extra_outputs=["also"])
    assert builder._graph_tensor_names(tmp_path / "m.onnx", graph) == ("input", "output")
    assert builder._graph_tensor_names(tmp_path / "m.onnx", build(input_name="features", output_name="score")) == (
        "features", "score")


def test_refusals_before_staging_in_process(tmp_path: Path, graphs: dict[str, Path]) -> None:
    out = tmp_path / "pkg"
    out.symlink_to(tmp_path / "nowhere")
    assert build_package(spec(graphs["value"]), out) == Refusal(f"refusing to overwrite {out}: it already exists",
                                                                "builder.destination.exists")
    out.unlink()
    folder = tmp_path / "folder.onnx"
    folder.mkdir()
    assert build_package(spec(folder), out) == Refusal(
        f"refusing to publish {out}: {folder}: model file not readable", "package.model.unreadable")
    none = PackageSpec(graphs["value"], "kcp-13", "position-value", ">=1.0.0 <0.5.0", "m")
    assert build_package(none, out) == Refusal(
        f"refusing to publish {out}: engineCompatibility '>=1.0.0 <0.5.0' admits no engine version",
        "builder.compatibility.empty", "/engineCompatibility")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder.onnx"]


def test_the_stage_is_a_hidden_sibling_with_twelve_hex_digits(tmp_path: Path, graphs: dict[str, Path],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Path] = []
    real_validate = builder._validate

    def spy(staged: Path, *args: Any) -> Any:
        seen.append(staged)
        return real_validate(staged, *args)

    monkeypatch.setattr(builder, "_validate", spy)
    assert isinstance(build_package(spec(graphs["value"]), tmp_path / "pkg"), ModelPackage)
    assert seen[0].parent == tmp_path and re.fullmatch(r"\.pkg\.tmp-[0-9a-f]{12}", seen[0].name)


def test_a_failure_after_the_stage_vanished_is_reported_as_itself(tmp_path: Path, graphs: dict[str, Path],
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    def vanish_then_fail(staged: Path, *args: Any) -> Any:
        shutil.rmtree(staged)
        raise OSError(errno.EIO, os.strerror(errno.EIO))

    monkeypatch.setattr(builder, "_validate", vanish_then_fail)
    out = tmp_path / "pkg"
    assert build_package(spec(graphs["value"]), out) == Refusal(f"refusing to publish {out}: Input/output error",
                                                                "builder.os.error")
    assert list(tmp_path.iterdir()) == []


def test_a_graph_path_that_cannot_be_read_is_refused_with_the_os_reason(tmp_path: Path,
                                                                      package: ModelPackage) -> None:
    from contract.model.tensors import check_graph

    assert check_graph(tmp_path / "missing.onnx", package.manifest) == Refusal(
        "cannot read the ONNX graph: No such file or directory", "tensor.graph.unreadable")
    (tmp_path / "dir.onnx").mkdir()
    assert check_graph(tmp_path / "dir.onnx", package.manifest) == Refusal(
        "cannot read the ONNX graph: not a regular file", "tensor.graph.unreadable")


def test_a_package_made_directly_renders_its_paths_as_the_engine_does(package: ModelPackage) -> None:
    made = ModelPackage(Path("pkg//v3/model.onnx"), Path("pkg/manifest.json/"), package.manifest, "0.12.0")
    assert (made.model_text, made.manifest_text) == ("pkg/v3/model.onnx", "pkg/manifest.json")
    given = ModelPackage(Path("a"), Path("b"), package.manifest, "0.12.0", "./a", "./b")
    assert (given.model_text, given.manifest_text) == ("./a", "./b")


def test_every_tensor_is_inspected_not_only_the_first(tmp_path: Path) -> None:
    import onnx
    from onnx import TensorProto, numpy_helper
    from runtime_graphs import build

    from contract.model.tensors import open_session

    model = onnx.load_from_string(build())
    late = numpy_helper.from_array(np.zeros(3, np.float32), name="late")
    late.ClearField("raw_data")
    late.data_location = TensorProto.EXTERNAL
    entry = late.external_data.add()
    entry.key, entry.value = "location", "w.bin"
    model.graph.initializer.append(late)
    refusal = ("the ONNX graph is not self-contained: tensor 'late' keeps its data in an external file"
               " (the manifest's digest covers model.onnx alone)")
    assert open_session(model.SerializeToString()) == Refusal(refusal, "tensor.graph.external")
    late.data_location = TensorProto.DEFAULT  # one external_data entry is enough to be refused
    model.graph.initializer[-1].CopyFrom(late)
    assert open_session(model.SerializeToString()) == Refusal(refusal, "tensor.graph.external")


def test_a_graph_onnx_runtime_refuses_is_refused_with_its_first_line() -> None:
    from contract.model.tensors import open_session

    assert open_session(b"") == Refusal("cannot read the ONNX graph: [ONNXRuntimeError] : 2 : INVALID_ARGUMENT :"
                                        " No graph was found in the protobuf.", "tensor.graph.unreadable")


def test_the_root_directory_resolves_its_names_as_the_engine_does() -> None:
    assert ModelPackage.load("/", "0.12.0") == Refusal("/model.onnx: model file not readable",
                                                       "package.model.unreadable")


def test_open_regular_refuses_a_fifo_with_einval_naming_the_path(tmp_path: Path) -> None:
    from contract.core.regularfile import open_regular

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OSError) as caught:
        open_regular(fifo)
    assert (caught.value.errno, caught.value.strerror, caught.value.filename) == (
        errno.EINVAL, "not a regular file", str(fifo))
