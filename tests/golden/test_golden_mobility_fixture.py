"""The engine's kcp-mobility-27-v1 test graph, ``golden/fixtures/synthetic_kcp_mobility_27_test_model.onnx``.

The engine's specs read it (``KcpMobilityOnnxSpec``; as its "legacy named" model ``OnnxModelContractSpec`` and
``ModelPackageSpec``); the expectations below are theirs (engine test sources @3aef1e4): output
10000 * (0.1 + 0.6 own_pdi + 0.2 opp_pdi) within 1, batch = single, a 13-wide input refused with
"Got: 13 Expected: 27", and the output named ``variable`` refused by name.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json

import chess
import numpy as np
import onnx
import onnxruntime as ort
import pytest
from golden_testkit import ROOT

from contract import features
from contract.core.registry import get as get_schema
from contract.model.manifest import read_manifest
from contract.model.tensors import check_graph
from generators import fixtures

MODEL = ROOT / "golden" / "fixtures" / "synthetic_kcp_mobility_27_test_model.onnx"
DIGEST = "d0ec7f2134789dd2e71da46ff3b87bd178dcc2218feff5605888150f3ac1671c"
# KcpMobilityOnnxSpec's three positions and its expected integer scores for each side.
POSITIONS = ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "4k3/pp6/8/8/3Q4/8/PP6/R3K3 b - - 0 1",
             "4k3/8/8/8/8/8/8/4K3 w - - 0 1")
EXPECTED = {chess.WHITE: (9000, 5000, 1000), chess.BLACK: (9000, 3400, 1000)}


def test_the_fixture_is_generated_with_its_pinned_digest() -> None:
    data = MODEL.read_bytes()
    assert hashlib.sha256(data).hexdigest() == DIGEST == fixtures.MOBILITY_27.sha256
    assert fixtures.build_graph(fixtures.MOBILITY_27) == data
    assert f"golden/fixtures/{MODEL.name}" in fixtures.generate()


def test_the_graph_is_the_engines_matmul_add_with_output_variable() -> None:
    model = onnx.load_from_string(MODEL.read_bytes())
    onnx.checker.check_model(model, full_check=True)
    assert (model.ir_version, [(o.domain, o.version) for o in model.opset_import]) == (8, [("", 13)])
    assert model.graph.name == "synthetic-kcp-mobility-27"
    assert [(n.op_type, list(n.input), list(n.output)) for n in model.graph.node] == [
        ("MatMul", ["input", "weights"], ["weighted"]), ("Add", ["weighted", "bias"], ["variable"])]
    (source,), (sink,) = model.graph.input, model.graph.output
    assert (source.name, sink.name) == ("input", "variable")
    batch, width = source.type.tensor_type.shape.dim
    assert not batch.HasField("dim_value") and not batch.HasField("dim_param") and width.dim_value == 27
    inits = {t.name: onnx.numpy_helper.to_array(t) for t in model.graph.initializer}
    weights = np.zeros(27, dtype=np.float32)
    weights[get_schema("kcp-mobility-27-v1").columns.index("own_pdi")] = 0.6
    weights[get_schema("kcp-mobility-27-v1").columns.index("opp_pdi")] = 0.2
    assert inits["weights"].reshape(-1).tolist() == weights.tolist()
    assert inits["bias"].tolist() == [np.float32(0.1)]


@pytest.mark.parametrize("color", [chess.WHITE, chess.BLACK])
def test_onnxruntime_scores_the_engines_expected_values_single_and_batched(color: chess.Color) -> None:
    session = ort.InferenceSession(MODEL.read_bytes(), providers=["CPUExecutionProvider"])
    rows = np.stack([features.extract("kcp-mobility-27-v1", features.parse_fen(fen), color) for fen in POSITIONS])
    (batch,) = session.run(["variable"], {"input": rows.astype(np.float32)})
    single = [session.run(["variable"], {"input": row[None, :].astype(np.float32)})[0][0, 0] for row in rows]
    assert batch.reshape(-1).tolist() == [float(s) for s in single]
    scores = [int(value * 10000) for value in batch.reshape(-1)]
    assert all(abs(a - b) <= 1 for a, b in zip(scores, EXPECTED[color], strict=True)), scores


def test_a_13_wide_input_is_refused_by_the_runtime_with_both_widths() -> None:
    session = ort.InferenceSession(MODEL.read_bytes(), providers=["CPUExecutionProvider"])
    with pytest.raises(Exception, match="Got: 13 Expected: 27") as caught:
        session.run(["variable"], {"input": np.zeros((1, 13), dtype=np.float32)})
    assert "input" in str(caught.value)


def test_the_kit_refuses_it_by_output_name_as_the_engine_does() -> None:
    value = (ROOT / "golden" / "fixtures" / "synthetic_kcp13_value_manifest.json").read_bytes()
    manifest = read_manifest(value, "0.12.0").manifest
    assert manifest is not None
    mobility = dataclasses.replace(manifest, feature_schema=get_schema("kcp-mobility-27-v1"), feature_count=27)
    refusal = check_graph(MODEL, mobility)
    assert refusal is not None
    assert refusal.message == "ONNX model must expose exactly one output named 'output'; found [variable]"
    assert json.loads(value)["modelSha256"] != DIGEST  # ModelPackageSpec: the value manifest describes other bytes
