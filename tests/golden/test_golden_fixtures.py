"""The model-contract fixtures of spec/contract.md §8.1: byte-identical graphs, manifests, parity, example."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from golden_testkit import ENGINE_FIXTURES, ROOT

from contract.core.refusal import Refusal
from contract.model.package import ModelPackage
from contract.model.scoring import Scorer
from contract.recordings.vectorfile import read
from generators import fixtures

FIXTURES = ROOT / "golden" / "fixtures"
EXAMPLE = ROOT / "golden" / "example-package"
# The digests the engine's fixture generator produced (spec/contract.md §8.1, issue 4).
ENGINE_DIGESTS = {
    "synthetic_kcp13_value_test_model.onnx":
        "e078ff34038d02b504b1d9a68535f88d6860ef1ce464a9168bc3db5b7950d980",
    "synthetic_kcp13_renamed_tensors_test_model.onnx":
        "b368eec5dc8c72330566a75f444de4edaf231650204a53afa934679c40a539da",
    "synthetic_kcp13_static_batch_test_model.onnx":
        "b53ff062f3ca32568ecb9e61fa81d6038aae5e37ec78987e2852b9c70f879b9e",
}
SPEC_WEIGHTS = [0.5, 0.3, 0.3, 0.2, 0.15, 0.1, 0.005, 0.02, 0.0002, 2.0, -2.0, 0.5, -0.5]
PARITY = "synthetic_kcp13_value_parity.json"
OWN_FIELDS = ("generator", "runtime", "featureSource")  # the only parity fields that name who made it
ADDED_FIELDS = ("formatVersion", "tolerance")  # what parity format 1.1 adds to the engine's format (1.0)


def _json(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


@pytest.mark.parametrize("name", sorted(ENGINE_DIGESTS))
def test_committed_graphs_reproduce_the_engine_digests(name: str) -> None:
    data = (FIXTURES / name).read_bytes()
    assert hashlib.sha256(data).hexdigest() == ENGINE_DIGESTS[name]
    graph = next(g for g in fixtures.GRAPHS if g.file == name)
    assert fixtures.build_graph(graph) == data


@pytest.mark.parametrize("name", sorted(ENGINE_DIGESTS))
def test_graphs_are_the_described_matmul_add_sigmoid(name: str) -> None:
    model = onnx.load_from_string((FIXTURES / name).read_bytes())
    onnx.checker.check_model(model, full_check=True)
    assert model.ir_version == 8
    assert [(o.domain, o.version) for o in model.opset_import] == [("", 13)]
    assert [n.op_type for n in model.graph.node] == ["MatMul", "Add", "Sigmoid"]
    assert [n.output[0] for n in model.graph.node][:2] == ["weighted", "logit"]
    inits = {t.name: onnx.numpy_helper.to_array(t) for t in model.graph.initializer}
    assert inits["weights"].reshape(-1).tolist() == np.asarray(SPEC_WEIGHTS, dtype=np.float32).tolist()
    assert inits["bias"].tolist() == [np.float32(-0.1)]


def test_a_different_weight_changes_the_digest_and_generation_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fixtures, "WEIGHTS", (*fixtures.WEIGHTS[:8], 0.02, *fixtures.WEIGHTS[9:]))
    with pytest.raises(RuntimeError, match="7ea07fe31a1a5442c12e97f9738492b780132b10c76614da4a6a345ff9249614"):
        fixtures.build_graph(fixtures.VALUE)  # §8.1: the older 0.02 weights give the older digest


@pytest.mark.parametrize("name", [m.file for m in fixtures.MANIFESTS])
def test_manifests_equal_the_engines_but_for_the_generator_name(name: str) -> None:
    ours = (FIXTURES / name).read_text(encoding="utf-8").splitlines()
    theirs = (ENGINE_FIXTURES / name).read_text(encoding="utf-8").splitlines()
    assert len(ours) == len(theirs)
    differing = [(a, b) for a, b in zip(ours, theirs, strict=True) if a != b]
    assert differing == [('    "generator": "generators/fixtures.py (dicechess-contract)",',
                          '    "generator": "jvm/src/test/resources/generate_model_contract_fixtures.py",')]


def test_parity_file_has_the_engines_layout_and_values() -> None:
    ours = (FIXTURES / PARITY).read_text(encoding="utf-8")
    theirs = (ENGINE_FIXTURES / PARITY).read_text(encoding="utf-8")
    ours_doc, theirs_doc = json.loads(ours), json.loads(theirs)
    assert ours_doc["formatVersion"] == "1.1.0" and "formatVersion" not in theirs_doc
    for field in ADDED_FIELDS:  # fields the engine's reader (fields read by name) ignores
        ours_doc.pop(field)
    assert list(ours_doc) == list(theirs_doc)
    for field in OWN_FIELDS:
        ours_doc.pop(field)
        theirs_doc.pop(field)
    assert ours_doc == theirs_doc  # ids, FENs, sides, every feature and every output
    columns_on = ours.splitlines()[ours.splitlines().index('  "columns": ['):]
    assert columns_on == theirs.splitlines()[theirs.splitlines().index('  "columns": ['):]
    assert ours.endswith("}\n")


def test_parity_file_declares_its_tolerance_and_every_measurement_is_within_it() -> None:
    declared = _json(FIXTURES / PARITY)["tolerance"]["output"]
    assert declared["absolute"] == 1e-6  # the engine's Kcp13ParitySpec tolerance (spec/contract.md §8.2)
    assert "Kcp13ParitySpec" in declared["reason"]
    assert declared["measuredOn"] and all(0 <= m["maxAbsoluteDifference"] <= declared["absolute"]
                                          for m in declared["measuredOn"])


def test_the_engines_recorded_outputs_are_reproduced_within_the_declared_tolerance() -> None:
    # the engine's recording (onnxruntime 1.29.0), scored by the installed runtime, under this file's tolerance
    engine = _json(ROOT / "golden" / "recorded" / "manifests" / PARITY)
    assert "tolerance" not in engine  # a format 1.0 file: it declares none
    features = np.asarray([p["features"] for p in engine["probes"]], dtype=np.float32)
    outputs = np.asarray([p["output"] for p in engine["probes"]], dtype=np.float64)
    session = ort.InferenceSession(str(FIXTURES / "synthetic_kcp13_value_test_model.onnx"),
                                   providers=["CPUExecutionProvider"])
    (scores,) = session.run(["output"], {"input": features})
    assert np.max(np.abs(scores.reshape(-1).astype(np.float64) - outputs)) <= _tolerance()


def test_parity_features_are_the_corpus_vectors() -> None:
    parity = _json(FIXTURES / PARITY)
    corpus = read("kcp-13", (ROOT / "golden" / "vectors" / "kcp-13.json").read_bytes())
    recorded = read("recorded", (ROOT / "golden" / "recorded" / "kcp-13.engine-0.12.0.json").read_bytes(),
                    versioned=False)
    for probe in parity["probes"]:
        mine = np.asarray(probe["features"], dtype=np.float32)
        for source in (corpus, recorded):
            assert source.probes[probe["id"]].fen == probe["fen"]
            assert np.array_equal(mine.view(np.uint32),
                                  np.asarray(source.probes[probe["id"]].features, np.float32).view(np.uint32))


def _tolerance() -> float:
    """The absolute tolerance the kit's parity file declares for its outputs (format 1.1)."""
    return float(_json(FIXTURES / PARITY)["tolerance"]["output"]["absolute"])


def _parity_rows() -> tuple[np.ndarray, np.ndarray]:
    parity = _json(FIXTURES / PARITY)
    features = np.asarray([p["features"] for p in parity["probes"]], dtype=np.float32)
    outputs = np.asarray([p["output"] for p in parity["probes"]], dtype=np.float64)
    return features, outputs


def test_parity_outputs_match_onnxruntime() -> None:
    features, outputs = _parity_rows()
    session = ort.InferenceSession(str(FIXTURES / "synthetic_kcp13_value_test_model.onnx"),
                                   providers=["CPUExecutionProvider"])
    (scores,) = session.run(["output"], {"input": features})
    assert scores.shape == (len(outputs), 1)
    assert np.max(np.abs(scores.reshape(-1).astype(np.float64) - outputs)) <= _tolerance()


@pytest.mark.parametrize(("model", "manifest"), [
    ("synthetic_kcp13_value_test_model.onnx", "synthetic_kcp13_value_manifest.json"),
    ("synthetic_kcp13_value_test_model.onnx", "synthetic_kcp13_value_legacy_manifest.json"),
    ("synthetic_kcp13_renamed_tensors_test_model.onnx", "synthetic_kcp13_renamed_tensors_manifest.json"),
])
def test_the_kits_scorer_reproduces_the_parity_outputs(model: str, manifest: str) -> None:
    package = ModelPackage.load_files(FIXTURES / model, FIXTURES / manifest, "0.12.0")
    assert isinstance(package, ModelPackage), package
    scorer = Scorer.from_package(package)
    assert isinstance(scorer, Scorer), scorer
    features, outputs = _parity_rows()
    scores = scorer.score(features).astype(np.float64)
    assert np.max(np.abs(scores - outputs)) <= _tolerance()
    # spec §8.2 item 5/6: the engine's integer score (x 10000, truncated) agrees for every probe
    assert [int(s * 10000) for s in scores] == [int(o * 10000) for o in outputs]


def test_the_static_batch_graph_is_refused_by_the_tensor_contract() -> None:
    package = ModelPackage.load_files(FIXTURES / "synthetic_kcp13_static_batch_test_model.onnx",
                                      FIXTURES / "synthetic_kcp13_static_batch_manifest.json", "0.12.0")
    assert isinstance(package, ModelPackage), package
    assert isinstance(Scorer.from_package(package), Refusal)


def test_the_example_package_passes_the_readme_command() -> None:
    assert (EXAMPLE / "model.onnx").read_bytes() == (FIXTURES / "synthetic_kcp13_value_test_model.onnx").read_bytes()
    result = subprocess.run(
        [sys.executable, "-m", "contract", "validate", "golden/example-package", "--engine-version", "0.12.0"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    manifest = _json(EXAMPLE / "manifest.json")
    assert manifest["manifestVersion"] == "1.0.0"
    assert manifest["evaluationProfile"] == "standard-kcp"  # the one profile the service and Python accept
