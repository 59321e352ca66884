"""Hostile packages (issue 10 items 1, 2, 6, 10, 11-build, 14): each test failed on the code before its fix.

- a graph whose tensors live in another file (ONNX external data) is refused by every reader and by the
  builder; ONNX Runtime is never handed such a graph;
- the bytes digested are the bytes served: a model replaced after loading is not what gets scored;
- a package name that resolves outside the directory is refused without a word about its target;
- text from a manifest reaches the console with its control characters escaped;
- a build that cannot write names the file it was writing.
"""

from __future__ import annotations

import hashlib
import json
import os
import resource
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from contract.core.refusal import Refusal
from contract.model import package as package_module
from contract.model.builder import PackageSpec, build_package
from contract.model.manifest import read_manifest
from contract.model.package import ModelPackage
from contract.model.scoring import Scorer
from contract.model.tensors import check_graph, open_session

ENGINE = "0.12.0"
OUTSIDE = "resolves outside the package directory (a package is self-contained)"


def _weights(value: float) -> TensorProto:
    return numpy_helper.from_array(np.full((13, 1), value, dtype=np.float32), name="W")


def _external(location: str) -> TensorProto:
    """The weights tensor with its bytes declared to be in ``location`` (nothing of them in the graph)."""
    tensor = _weights(1.0)
    tensor.ClearField("raw_data")
    tensor.data_location = TensorProto.EXTERNAL
    entry = tensor.external_data.add()
    entry.key, entry.value = "location", location
    return tensor


def graph(weights: TensorProto | None = None, *, constant: TensorProto | None = None) -> bytes:
    """``output = input @ W`` with ``W`` an initializer, or the output of a ``Constant`` node."""
    nodes = [helper.make_node("MatMul", ["input", "W"], ["output"])]
    inits = [weights if weights is not None else _weights(1.0)]
    if constant is not None:
        nodes.insert(0, helper.make_node("Constant", [], ["W"], value=constant))
        inits = []
    body = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["batch", 13])],
                             [helper.make_tensor_value_info("output", TensorProto.FLOAT, ["batch", 1])], inits)
    data: bytes = helper.make_model(body, opset_imports=[helper.make_opsetid("", 17)], ir_version=8).SerializeToString()
    return data


def write_package(directory: Path, data: bytes, model_id: str = "hostile") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "model.onnx").write_bytes(data)
    (directory / "manifest.json").write_text(json.dumps({
        "manifestVersion": "1.1.0", "modelId": model_id, "modelSha256": hashlib.sha256(data).hexdigest(),
        "modelRole": "position-value", "featureSchema": "kcp-13", "featureCount": 13,
        "perspective": "side-to-move", "engineCompatibility": ">=0.12.0"}))
    return directory


def cli(*args: str, **options: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "contract", *args], capture_output=True, text=True, check=False,
                          **options)


def _manifest() -> Any:
    manifest = read_manifest(json.dumps({
        "manifestVersion": "1.1.0", "modelId": "m", "modelSha256": "0" * 64, "modelRole": "position-value",
        "featureSchema": "kcp-13", "featureCount": 13, "perspective": "side-to-move",
        "engineCompatibility": ">=0.12.0"}), ENGINE).manifest
    assert manifest is not None
    return manifest


def _score(scorer: Scorer | Refusal) -> float:
    assert isinstance(scorer, Scorer), scorer
    return float(scorer.score(np.ones((1, 13), np.float32))[0])


NOT_SELF_CONTAINED = ("the ONNX graph is not self-contained: tensor 'W' keeps its data in an external file"
                      " (the manifest's digest covers model.onnx alone)")


# --- 1. external data --------------------------------------------------------------------------------


def test_a_scorer_is_refused_for_a_package_whose_graph_the_session_cannot_take(tmp_path: Path) -> None:
    """In process (the test below also runs the CLI): the package loads, its digest holds, and
    ``Scorer.from_package`` gives the session's refusal rather than a scorer."""
    pkg = write_package(tmp_path / "pkg", graph(_external("weights.bin")))
    loaded = ModelPackage.load(pkg, ENGINE)
    assert isinstance(loaded, ModelPackage) and loaded.ok is True
    assert Scorer.from_package(loaded) == Refusal(NOT_SELF_CONTAINED, "tensor.graph.external")


@pytest.mark.slow
def test_a_package_whose_weights_live_beside_the_graph_is_not_served(tmp_path: Path) -> None:
    pkg = write_package(tmp_path / "pkg", graph(_external("weights.bin")))
    np.full((13, 1), 2.0, np.float32).tofile(pkg / "weights.bin")
    loaded = ModelPackage.load(pkg, ENGINE)
    assert isinstance(loaded, ModelPackage)  # the digest of model.onnx holds; the graph is still not served
    assert Scorer.from_package(loaded) == Refusal(NOT_SELF_CONTAINED, "tensor.graph.external")
    done = cli("validate", str(pkg), "--engine-version", ENGINE)
    assert (done.returncode, done.stdout) == (1, f"refusing to serve: {pkg}/model.onnx: {NOT_SELF_CONTAINED}\n")


def test_the_builder_publishes_no_package_whose_weights_live_elsewhere(tmp_path: Path) -> None:
    source = tmp_path / "src" / "model.onnx"
    source.parent.mkdir()
    source.write_bytes(graph(_external("weights.bin")))
    np.full((13, 1), 2.0, np.float32).tofile(source.parent / "weights.bin")
    out = tmp_path / "out"
    result = build_package(PackageSpec(source, "kcp-13", "position-value", ">=0.12.0", "m"), out)
    assert result == Refusal(f"refusing to publish {out}: {source}: {NOT_SELF_CONTAINED}",
                             "tensor.graph.external")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["src"]


@pytest.mark.parametrize("location", ["../../../../etc/passwd", "/etc/passwd", "weights.bin"])
def test_onnx_runtime_is_never_handed_a_graph_with_external_data(tmp_path: Path, location: str,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """From bytes, onnxruntime 1.32 resolves ``weights.bin`` against the working directory and reads it."""
    import onnxruntime

    monkeypatch.chdir(tmp_path)
    np.full((13, 1), 3.0, np.float32).tofile(tmp_path / "weights.bin")
    data = graph(_external(location))

    def no_session(*args: object, **kwargs: object) -> None:
        raise AssertionError("onnxruntime was asked to open a graph with external data")

    monkeypatch.setattr(onnxruntime, "InferenceSession", no_session)
    assert open_session(data) == Refusal(NOT_SELF_CONTAINED, "tensor.graph.external")
    assert check_graph(data, _manifest()) == Refusal(NOT_SELF_CONTAINED, "tensor.graph.external")


def test_external_data_is_found_wherever_a_tensor_sits(tmp_path: Path) -> None:
    in_constant = graph(constant=_external("weights.bin"))
    assert open_session(in_constant) == Refusal(NOT_SELF_CONTAINED, "tensor.graph.external")
    # inside a subgraph: an If whose branches each produce W
    model = onnx.load_from_string(graph(constant=_weights(1.0)))
    branch = helper.make_graph([helper.make_node("Constant", [], ["W_then"], value=_external("w.bin"))], "then",
                               [], [helper.make_tensor_value_info("W_then", TensorProto.FLOAT, [13, 1])])
    other = helper.make_graph([helper.make_node("Constant", [], ["W_else"], value=_weights(2.0))], "else",
                              [], [helper.make_tensor_value_info("W_else", TensorProto.FLOAT, [13, 1])])
    model.graph.node.append(helper.make_node("If", ["cond"], ["unused"], then_branch=branch, else_branch=other))
    assert open_session(model.SerializeToString()) == Refusal(NOT_SELF_CONTAINED, "tensor.graph.external")


def test_every_tensor_is_inspected_however_many_hold_their_own_data(tmp_path: Path) -> None:
    model = onnx.load_from_string(graph(_external("weights.bin")))
    for index in range(3):  # self-contained tensors after (and, in traversal order, before) the external one
        model.graph.initializer.append(numpy_helper.from_array(np.zeros((1,), np.float32), name=f"B{index}"))
    assert open_session(model.SerializeToString()) == Refusal(NOT_SELF_CONTAINED, "tensor.graph.external")


def test_a_graph_the_protobuf_reader_cannot_parse_never_reaches_onnx_runtime() -> None:
    refusal = open_session(b"\xff\xff not a protobuf")
    assert isinstance(refusal, Refusal)
    assert refusal.message == ("cannot read the ONNX graph: Error parsing message with type 'onnx.ModelProto':"
                               " Wire format was corrupt")


def test_a_self_contained_graph_still_serves(tmp_path: Path) -> None:
    loaded = ModelPackage.load(write_package(tmp_path / "pkg", graph(_weights(2.0))), ENGINE)
    assert isinstance(loaded, ModelPackage)
    assert _score(Scorer.from_package(loaded)) == 26.0


# --- 2. read once -------------------------------------------------------------------------------------


def test_the_scorer_serves_the_bytes_that_were_digested(tmp_path: Path) -> None:
    pkg = write_package(tmp_path / "pkg", graph(_weights(2.0)))
    loaded = ModelPackage.load(pkg, ENGINE)
    assert isinstance(loaded, ModelPackage)
    (pkg / "model.onnx").write_bytes(graph(_weights(-5000.0)))  # a deploy writes the next model in place
    assert _score(Scorer.from_package(loaded)) == 26.0


def test_validate_checks_the_tensors_of_the_bytes_it_digested(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    from runtime_graphs import build

    from contract.cli import main

    pkg = write_package(tmp_path / "pkg", graph(_weights(2.0)))
    real_load = ModelPackage.load

    def load_then_replace(*args: Any) -> Any:
        loaded = real_load(*args)
        (pkg / "model.onnx").write_bytes(build(input_shape=(1, 13)))  # a fixed batch: the contract refuses it
        return loaded

    monkeypatch.setattr(ModelPackage, "load", load_then_replace)
    assert main(["validate", str(pkg), "--engine-version", ENGINE]) == 0
    assert capsys.readouterr().out.startswith("serving hostile: position-value, kcp-13 (13 features)")


def test_the_builder_stages_the_bytes_it_inspected_and_digested(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from contract.model import builder

    source = tmp_path / "model.onnx"
    source.write_bytes(graph(_weights(2.0)))
    real_names = builder._graph_tensor_names

    def names_then_replace(*args: Any) -> Any:
        names = real_names(*args)
        source.write_bytes(graph(_weights(-5000.0)))
        return names

    monkeypatch.setattr(builder, "_graph_tensor_names", names_then_replace)
    built = build_package(PackageSpec(source, "kcp-13", "position-value", ">=0.12.0", "m"), tmp_path / "out")
    assert isinstance(built, ModelPackage)
    assert (tmp_path / "out" / "model.onnx").read_bytes() == graph(_weights(2.0))
    assert _score(Scorer.from_package(built)) == 26.0


# --- 6. links leave the package -------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["model.onnx", "manifest.json"])
@pytest.mark.parametrize("target", ["secret", "missing"])
def test_a_link_out_of_the_package_is_refused_and_names_only_the_link(tmp_path: Path, name: str,
                                                                      target: str) -> None:
    secret = tmp_path / "secret"
    secret.write_bytes(b"outside the package")
    pkg = write_package(tmp_path / "pkg", graph())
    (pkg / name).unlink()
    (pkg / name).symlink_to(tmp_path / target)
    assert ModelPackage.load(pkg, ENGINE) == Refusal(f"{pkg}/{name}: {OUTSIDE}", "package.file.outside")
    done = cli("validate", str(pkg), "--engine-version", ENGINE, "--json")
    assert done.returncode == 1
    assert json.loads(done.stdout) == {"outputVersion": 1, "ok": False, "message": f"{pkg}/{name}: {OUTSIDE}",
                                       "code": "package.file.outside", "field": None}
    assert hashlib.sha256(b"outside the package").hexdigest() not in done.stdout


def test_a_link_that_stays_inside_the_package_is_followed(tmp_path: Path) -> None:
    pkg = write_package(tmp_path / "pkg", graph(_weights(2.0)))
    (pkg / "v3").mkdir()
    (pkg / "model.onnx").rename(pkg / "v3" / "model.onnx")
    (pkg / "model.onnx").symlink_to("v3/model.onnx")
    assert _score(Scorer.from_package(ModelPackage.load(pkg, ENGINE))) == 26.0  # type: ignore[arg-type]


def test_a_package_directory_reached_through_a_link_is_still_a_package(tmp_path: Path) -> None:
    write_package(tmp_path / "releases" / "v3", graph())
    (tmp_path / "current").symlink_to("releases/v3")
    assert isinstance(ModelPackage.load(tmp_path / "current", ENGINE), ModelPackage)


@pytest.mark.parametrize("name", ["model.onnx", "manifest.json"])
def test_a_link_swapped_in_after_the_check_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      name: str) -> None:
    pkg = write_package(tmp_path / "pkg", graph())
    secret = tmp_path / "secret"
    secret.write_bytes((pkg / name).read_bytes() if name == "manifest.json" else graph(_weights(9.0)))
    real_open = package_module.open_regular

    def swap_then_open(path: Path) -> Any:
        if path.name == name:
            path.unlink()
            path.symlink_to(secret)
        return real_open(path)

    monkeypatch.setattr(package_module, "open_regular", swap_then_open)
    assert ModelPackage.load(pkg, ENGINE) == Refusal(f"{pkg}/{name}: {OUTSIDE}", "package.file.outside")


def test_load_files_follows_the_paths_the_caller_gave(tmp_path: Path) -> None:
    pkg = write_package(tmp_path / "pkg", graph())
    (tmp_path / "model-link.onnx").symlink_to(pkg / "model.onnx")
    assert isinstance(ModelPackage.load_files(tmp_path / "model-link.onnx", pkg / "manifest.json", ENGINE),
                      ModelPackage)


# --- 10. console text ------------------------------------------------------------------------------------


FAKE = "m\x1b[2K\rrefusing to serve: tampered\u202e\x9b"


def test_validate_prints_control_characters_of_a_model_id_escaped(tmp_path: Path) -> None:
    pkg = write_package(tmp_path / "pkg", graph(), model_id=FAKE)
    done = cli("validate", str(pkg), "--engine-version", ENGINE)
    assert done.returncode == 0
    assert done.stdout == (r"serving m\x1b[2K\rrefusing to serve: tampered\u202e\x9b: position-value, kcp-13"
                           " (13 features), input 'input' -> output 'output', engine 0.12.0\n")
    as_json = cli("validate", str(pkg), "--engine-version", ENGINE, "--json").stdout
    assert as_json.isascii() and json.loads(as_json)["modelId"] == FAKE


def test_a_refusal_quoting_the_manifest_is_escaped(tmp_path: Path) -> None:
    pkg = write_package(tmp_path / "pkg", graph())
    text = json.loads((pkg / "manifest.json").read_text())
    text["perspective"] = "white\rrefusing"
    (pkg / "manifest.json").write_text(json.dumps(text))
    done = cli("validate", str(pkg), "--engine-version", ENGINE)
    assert done.stdout == (f"refusing to serve: {pkg}/manifest.json: unsupported perspective"
                           " 'white\\rrefusing'; supported: side-to-move\n")
    done = cli("compat", ">=1.0.0\x1b[2K", "--engine-version", ENGINE)
    assert done.stdout == ("invalid engineCompatibility '>=1.0.0\\x1b[2K'; expected"
                           " space-separated comparators such as '>=0.12.0 <1.0.0'\n")


def test_the_builder_prints_its_refusal_escaped(tmp_path: Path) -> None:
    source = tmp_path / "model.onnx"
    source.write_bytes(graph())
    done = cli("package", "build", "--model", str(source), "--schema", "kcp-13", "--role", "position-value",
               "--engine-compatibility", ">=0.12.0", "--model-id", "m", "--out", str(tmp_path / "out\x1b]0;x\x07"))
    assert done.returncode == 0
    assert done.stdout == f"published {tmp_path}/out\\x1b]0;x\\x07: manifest 1.0.0, position-value, kcp-13\n"


# --- 11 (build). a full disk names the file being written ---------------------------------------------


def _file_size_limit() -> None:  # a write past 64 KiB fails with EFBIG, as a full disk fails with ENOSPC
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (65536, 65536))


def test_a_build_that_cannot_write_names_the_staged_file_not_the_source(tmp_path: Path) -> None:
    source = tmp_path / "source-model.onnx"
    source.write_bytes(graph(numpy_helper.from_array(np.zeros((13, 1), np.float32), name="W"))
                       + b"")  # small graph; padded below with a large unused initializer
    model = onnx.load_from_string(source.read_bytes())
    model.graph.initializer.append(numpy_helper.from_array(np.zeros(50_000, np.float32), name="padding"))
    source.write_bytes(model.SerializeToString())
    out = tmp_path / "out"
    done = cli("package", "build", "--model", str(source), "--schema", "kcp-13", "--role", "position-value",
               "--engine-compatibility", ">=0.12.0", "--model-id", "m", "--out", str(out),
               preexec_fn=_file_size_limit, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.startswith(f"refusing to publish {out}: {tmp_path}/.out.tmp-"), done.stdout
    assert done.stdout.endswith("/model.onnx: File too large\n")
    assert str(source) not in done.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["source-model.onnx"]
