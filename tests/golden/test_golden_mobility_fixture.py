"""The engine's two mobility test graphs, ``golden/fixtures/synthetic_kcp_mobility_27_test_model.onnx`` and
``synthetic_kcp_mobility_pawns_31_test_model.onnx``.

The engine's specs read them (``KcpMobilityOnnxSpec`` both; the 27-wide one as its "legacy named" model in
``OnnxModelContractSpec`` and ``ModelPackageSpec``); the expectations below are theirs (engine test sources
@3aef1e4 / f538cbb): output 10000 * (0.1 + 0.6 own_pdi + 0.2 opp_pdi [+ 0.5 own_passed_pawns]) truncated to an
integer, within 1 of the spec's numbers, batch = single, a narrower input refused with "Got: N Expected: W" naming
``input``, and the output named ``variable`` refused by name. The digests are the ones the engine's own generator
script writes (docs/golden.md, "Model-contract fixtures").
"""

from __future__ import annotations

import dataclasses
import hashlib
import shutil
from dataclasses import dataclass
from pathlib import Path

import chess
import numpy as np
import onnx
import onnxruntime as ort
import pytest
from golden_testkit import ROOT

from contract import features
from contract.core.refusal import Refusal
from contract.core.registry import get as get_schema
from contract.model.manifest import read_manifest
from contract.model.package import MANIFEST_FILE_NAME, MODEL_FILE_NAME, ModelPackage
from contract.model.tensors import check_graph
from generators import fixtures

FIXTURES = ROOT / "golden" / "fixtures"
INITIAL = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KINGS = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"


@dataclass(frozen=True)
class Spec:
    """One graph and what KcpMobilityOnnxSpec asserts of it."""

    graph: fixtures.Graph
    digest: str
    size: int
    weights: dict[str, float]  # column name -> weight (every other column 0.0)
    positions: tuple[str, ...]
    expected: dict[chess.Color, tuple[int, ...]]
    refused_widths: tuple[int, ...]  # narrower extractors the spec feeds it


SPECS = (
    Spec(fixtures.MOBILITY_27, "d0ec7f2134789dd2e71da46ff3b87bd178dcc2218feff5605888150f3ac1671c", 301,
         {"own_pdi": 0.6, "opp_pdi": 0.2}, (INITIAL, "4k3/pp6/8/8/3Q4/8/PP6/R3K3 b - - 0 1", KINGS),
         {chess.WHITE: (9000, 5000, 1000), chess.BLACK: (9000, 3400, 1000)}, (13,)),
    Spec(fixtures.MOBILITY_PAWNS_31, "d8a49b2a553ac473df7c2aa808818f916ccd2ad59dd0ce4ad92bf10dead5669c", 324,
         {"own_pdi": 0.6, "opp_pdi": 0.2, "own_passed_pawns": 0.5}, (INITIAL, "k7/4P3/8/8/8/8/8/4K3 w - - 0 1", KINGS),
         {chess.WHITE: (9000, 7200, 1000), chess.BLACK: (9000, 1400, 1000)}, (13, 27)),
)
BY_FILE = pytest.mark.parametrize("spec", SPECS, ids=[spec.graph.file for spec in SPECS])


def _session(spec: Spec) -> ort.InferenceSession:
    return ort.InferenceSession((FIXTURES / spec.graph.file).read_bytes(), providers=["CPUExecutionProvider"])


@BY_FILE
def test_the_fixture_is_generated_with_its_pinned_digest(spec: Spec) -> None:
    data = (FIXTURES / spec.graph.file).read_bytes()
    assert (hashlib.sha256(data).hexdigest(), len(data)) == (spec.digest, spec.size)
    assert spec.graph.sha256 == spec.digest
    assert fixtures.build_graph(spec.graph) == data
    assert fixtures.generate()[f"golden/fixtures/{spec.graph.file}"] == data


@BY_FILE
def test_the_graph_is_the_engines_matmul_add_with_output_variable(spec: Spec) -> None:
    model = onnx.load_from_string((FIXTURES / spec.graph.file).read_bytes())
    onnx.checker.check_model(model, full_check=True)
    assert (model.ir_version, [(o.domain, o.version) for o in model.opset_import]) == (8, [("", 13)])
    assert model.graph.name == spec.graph.name
    assert (model.producer_name, model.producer_version, model.doc_string) == ("", "", "")
    assert [(n.name, n.op_type, list(n.input), list(n.output)) for n in model.graph.node] == [
        ("", "MatMul", ["input", "weights"], ["weighted"]), ("", "Add", ["weighted", "bias"], ["variable"])]
    (source,), (sink,) = model.graph.input, model.graph.output
    assert (source.name, sink.name) == ("input", "variable")
    schema = get_schema(spec.graph.schema)
    for value, width in ((source, schema.width), (sink, 1)):
        batch, columns = value.type.tensor_type.shape.dim
        assert not batch.HasField("dim_value") and not batch.HasField("dim_param") and columns.dim_value == width
    inits = {t.name: onnx.numpy_helper.to_array(t) for t in model.graph.initializer}
    weights = np.zeros(schema.width, dtype=np.float32)
    for column, weight in spec.weights.items():
        weights[schema.columns.index(column)] = weight
    assert list(inits) == ["weights", "bias"] and inits["weights"].shape == (schema.width, 1)
    assert inits["weights"].reshape(-1).tobytes() == weights.tobytes()
    assert inits["bias"].tobytes() == np.float32([0.1]).tobytes()


@BY_FILE
@pytest.mark.parametrize("color", [chess.WHITE, chess.BLACK], ids=["white", "black"])
def test_onnxruntime_scores_the_engines_expected_values_single_and_batched(spec: Spec, color: chess.Color) -> None:
    session = _session(spec)
    rows = np.stack([features.extract(spec.graph.schema, features.parse_fen(fen), color)
                     for fen in spec.positions]).astype(np.float32)
    (batch,) = session.run(None, {"input": rows})  # the engine reads output 0 and feeds "input"
    single = [session.run(None, {"input": row[None, :]})[0] for row in rows]
    assert batch.shape == (len(rows), 1)
    assert batch.tobytes() == np.concatenate(single).tobytes()
    scores = [int(value * np.float32(10000)) for value in batch.reshape(-1)]  # (row(0) * ScoreScale).toInt
    assert all(abs(a - b) <= 1 for a, b in zip(scores, spec.expected[color], strict=True)), scores


@BY_FILE
def test_a_narrower_input_is_refused_by_the_runtime_with_both_widths(spec: Spec) -> None:
    session = _session(spec)
    width = get_schema(spec.graph.schema).width
    for narrower in spec.refused_widths:
        with pytest.raises(Exception, match=f"Got: {narrower} Expected: {width}") as caught:
            session.run(None, {"input": np.zeros((1, narrower), dtype=np.float32)})
        assert "input" in str(caught.value)


def test_the_kit_refuses_the_27_wide_graph_by_output_name_as_the_engine_does() -> None:
    value = (FIXTURES / "synthetic_kcp13_value_manifest.json").read_bytes()
    manifest = read_manifest(value, "0.12.0").manifest
    assert manifest is not None
    mobility = dataclasses.replace(manifest, feature_schema=get_schema("kcp-mobility-27-v1"), feature_count=27)
    refusal = check_graph(FIXTURES / fixtures.MOBILITY_27.file, mobility)
    assert refusal is not None
    assert refusal.message == "ONNX model must expose exactly one output named 'output'; found [variable]"


def test_a_package_of_the_27_wide_graph_and_the_value_manifest_is_refused_by_its_digest(tmp_path: Path) -> None:
    # ModelPackageSpec: the legacy named model under the value manifest -> "model SHA-256 mismatch"
    shutil.copyfile(FIXTURES / fixtures.MOBILITY_27.file, tmp_path / MODEL_FILE_NAME)
    shutil.copyfile(FIXTURES / "synthetic_kcp13_value_manifest.json", tmp_path / MANIFEST_FILE_NAME)
    loaded = ModelPackage.load(tmp_path, "0.12.0")
    assert isinstance(loaded, Refusal)
    assert "model SHA-256 mismatch" in loaded.message and fixtures.MOBILITY_27.sha256 in loaded.message
