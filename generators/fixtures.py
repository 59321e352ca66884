"""Write the model-contract fixtures of spec/contract.md §8.1 under ``golden/fixtures/`` and the example
package ``golden/example-package/``.

The three synthetic kcp-13 graphs (MatMul + Add + Sigmoid, opset 13, IR 8) are built with
``onnx.helper`` in the most direct way, exactly as the engine's ``generate_model_contract_fixtures.py``
builds them, so they are byte-identical to the engine's files; so are the engine's two mobility test
graphs (MatMul + Add, output ``variable``, 27 and 31 wide), built as its ``generate_kcp_mobility_fixtures.py``
builds them. :data:`ENGINE_DIGESTS` pins the SHA-256 each must reproduce, and generation refuses
(``RuntimeError``) rather than write a graph whose digest differs. The six manifests keep the engine's
field order and values; only ``provenance.generator`` names this generator. The parity file has the engine's
``synthetic_kcp13_value_parity.json`` layout plus what format 1.1 adds (``formatVersion``, ``tolerance``: fields
the engine's reader, which reads fields by name, ignores); its feature rows come from the kit's kcp-13 extractor
and its outputs from one batched onnxruntime run on the CPU provider.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import chess
import numpy as np
import onnx
from onnx import TensorProto, helper

from contract import features
from contract.core import formatversion
from contract.core.floattext import float32_text
from contract.core.registry import get as get_schema
from contract.core.strictjson import StrictJsonError
from contract.core.strictjson import parse as parse_json
from generators import probes as probe_source

ROOT = Path(__file__).resolve().parent.parent
FIXTURE_DIR = "golden/fixtures"
EXAMPLE_DIR = "golden/example-package"
GENERATOR = "generators/fixtures.py (dicechess-contract)"

SCHEMA_ID = "kcp-13"
# One weight per kcp-13 column, in column order (§8.1; king_safety_diff 0.0002 since engine 6e9f0c0).
WEIGHTS: tuple[float, ...] = (0.5, 0.3, 0.3, 0.2, 0.15, 0.1, 0.005, 0.02, 0.0002, 2.0, -2.0, 0.5, -0.5)
BIAS = -0.1
OPSET = 13
IR_VERSION = 8
ENGINE_COMPATIBILITY = ">=0.12.0 <1.0.0"
PURPOSE = "engine #78 model-contract test fixture"
# The nine parity rows of §8.1, in the engine's order (ids of golden/probes.json).
PARITY_PROBES: tuple[str, ...] = (
    "start-w", "start-b", "kings-only-w", "knight-up-w", "knight-up-w-twin",
    "rook-king-danger-w", "rook-queen-attack-w", "passed-pawn-w", "sample-mid-b",
)
PARITY_FILE = "synthetic_kcp13_value_parity.json"
FEATURE_SOURCE = "golden/vectors/kcp-13.json (dicechess-contract extractors)"
# The tolerance the parity outputs are compared with (docs/golden.md, "The parity tolerance"), and what it rests on:
# measurements, recorded once by hand, never recomputed here (the file must not change with the installed runtime).
OUTPUT_TOLERANCE = 1e-6
TOLERANCE_REASON = (
    "float32 outputs of one MatMul+Add+Sigmoid graph, all in (0.09, 0.77), where one float32 step is at most "
    "2^-24 (6e-8): 1e-6 allows about 16 steps, room for a last-bit difference between runtimes, providers or "
    "instruction sets, while any change of a weight, a feature or the graph moves an output by far more. Every "
    "runtime measured so far reproduced the recorded outputs exactly (difference 0.0). It is the tolerance of the "
    "engine's Kcp13ParitySpec (JVM onnxruntime vs these outputs); the training service's 1e-5 gate compares an HTTP "
    "service's answers, a looser path, and is not this file's.")
MEASURED_ON: tuple[tuple[str, str, float], ...] = (
    # (runtime that scored the rows, whose recorded outputs it was compared with, max |difference|)
    ("onnxruntime 1.32.0 (Python, CPUExecutionProvider, x86_64; one batch of 9 and 9 single rows)",
     "onnxruntime 1.29.0 (Python, CPUExecutionProvider): the engine's recording, "
     "golden/recorded/manifests/synthetic_kcp13_value_parity.json", 0.0),
    ("onnxruntime 1.32.0 (Python, CPUExecutionProvider, x86_64; one batch of 9 and 9 single rows)",
     "onnxruntime 1.32.0 (Python, CPUExecutionProvider): this file's outputs", 0.0),
)


@dataclass(frozen=True)
class Graph:
    """One synthetic graph: its file name, graph name, tensor names, batch dimension (``None``: a dimension
    with neither a value nor a name), pinned digest, feature schema, weights (column index -> weight, every
    other column 0.0), bias and whether a Sigmoid follows the Add."""

    file: str
    name: str
    input_name: str
    output_name: str
    batch: str | int | None
    sha256: str
    schema: str = SCHEMA_ID
    weights: tuple[tuple[int, float], ...] | None = None  # None: the kcp-13 WEIGHTS
    bias: float = BIAS
    sigmoid: bool = True


VALUE = Graph("synthetic_kcp13_value_test_model.onnx", "synthetic-kcp13-value", "input", "output",
              "batch", "e078ff34038d02b504b1d9a68535f88d6860ef1ce464a9168bc3db5b7950d980")
RENAMED = Graph("synthetic_kcp13_renamed_tensors_test_model.onnx", "synthetic-kcp13-renamed",
                "features", "win_probability", "batch",
                "b368eec5dc8c72330566a75f444de4edaf231650204a53afa934679c40a539da")
STATIC_BATCH = Graph("synthetic_kcp13_static_batch_test_model.onnx", "synthetic-kcp13-static-batch",
                     "input", "output", 1,
                     "b53ff062f3ca32568ecb9e61fa81d6038aae5e37ec78987e2852b9c70f879b9e")
# The engine's two mobility test graphs (its generate_kcp_mobility_fixtures.py @3aef1e4 writes both): MatMul + Add,
# output named `variable`, a batch dimension with no name, bias 0.1, weights 0.6 on own_pdi and 0.2 on opp_pdi
# (and, 31 wide, 0.5 on own_passed_pawns). KcpMobilityOnnxSpec reads both; the 27-wide one is also the "legacy
# named" model of OnnxModelContractSpec and ModelPackageSpec. The engine pins no digest for them (no manifest names
# them): these are the digests its own generator script writes, under every onnx release from 1.13 to 1.23
# (docs/golden.md "Model-contract fixtures").
MOBILITY_27 = Graph("synthetic_kcp_mobility_27_test_model.onnx", "synthetic-kcp-mobility-27", "input",
                    "variable", None, "d0ec7f2134789dd2e71da46ff3b87bd178dcc2218feff5605888150f3ac1671c",
                    schema="kcp-mobility-27-v1", weights=((25, 0.6), (26, 0.2)), bias=0.1, sigmoid=False)
MOBILITY_PAWNS_31 = Graph("synthetic_kcp_mobility_pawns_31_test_model.onnx", "synthetic-kcp-mobility-pawns-31",
                          "input", "variable", None,
                          "d8a49b2a553ac473df7c2aa808818f916ccd2ad59dd0ce4ad92bf10dead5669c",
                          schema="kcp-mobility-pawns-31-v1", weights=((25, 0.6), (26, 0.2), (27, 0.5)), bias=0.1,
                          sigmoid=False)
GRAPHS: tuple[Graph, ...] = (VALUE, RENAMED, STATIC_BATCH, MOBILITY_27, MOBILITY_PAWNS_31)
ENGINE_DIGESTS: dict[str, str] = {g.file: g.sha256 for g in GRAPHS}


@dataclass(frozen=True)
class ManifestFixture:
    """One manifest of §8.1: file name, model id, graph it describes, version and role."""

    file: str
    model_id: str
    graph: Graph
    version: str
    role: str


MANIFESTS: tuple[ManifestFixture, ...] = (
    ManifestFixture("synthetic_kcp13_value_manifest.json", "synthetic-kcp13-value", VALUE,
                    "1.1.0", "position-value"),
    ManifestFixture("synthetic_kcp13_value_legacy_manifest.json", "synthetic-kcp13-value-legacy", VALUE,
                    "1.0.0", "position-value"),
    ManifestFixture("synthetic_kcp13_collapse_manifest.json", "synthetic-kcp13-collapse", VALUE,
                    "1.1.0", "chance-collapse"),
    ManifestFixture("synthetic_kcp13_prerank_manifest.json", "synthetic-kcp13-prerank", VALUE,
                    "1.1.0", "move-prerank"),
    ManifestFixture("synthetic_kcp13_renamed_tensors_manifest.json", "synthetic-kcp13-renamed", RENAMED,
                    "1.1.0", "position-value"),
    ManifestFixture("synthetic_kcp13_static_batch_manifest.json", "synthetic-kcp13-static-batch",
                    STATIC_BATCH, "1.1.0", "position-value"),
)


def build_graph(graph: Graph) -> bytes:
    """Serialize one synthetic graph; refuse if it does not reproduce the engine's digest."""
    width = get_schema(graph.schema).width
    column_weights = [0.0] * width
    for index, weight in graph.weights if graph.weights is not None else enumerate(WEIGHTS):
        column_weights[index] = weight
    weights = helper.make_tensor("weights", TensorProto.FLOAT, [width, 1], column_weights)
    bias = helper.make_tensor("bias", TensorProto.FLOAT, [1], [graph.bias])
    added = "logit" if graph.sigmoid else graph.output_name
    nodes = [
        helper.make_node("MatMul", [graph.input_name, "weights"], ["weighted"]),
        helper.make_node("Add", ["weighted", "bias"], [added]),
    ]
    if graph.sigmoid:
        nodes.append(helper.make_node("Sigmoid", ["logit"], [graph.output_name]))
    body = helper.make_graph(
        nodes,
        graph.name,
        [helper.make_tensor_value_info(graph.input_name, TensorProto.FLOAT, [graph.batch, width])],
        [helper.make_tensor_value_info(graph.output_name, TensorProto.FLOAT, [graph.batch, 1])],
        initializer=[weights, bias],
    )
    model = helper.make_model(body, opset_imports=[helper.make_opsetid("", OPSET)], ir_version=IR_VERSION)
    onnx.checker.check_model(model, full_check=True)
    data: bytes = model.SerializeToString()
    digest = hashlib.sha256(data).hexdigest()
    if digest != graph.sha256:
        raise RuntimeError(
            f"{graph.file}: rebuilt graph has SHA-256 {digest}, the engine's is {graph.sha256} "
            f"(onnx {onnx.__version__}); refusing to write a fixture that differs from the engine's"
        )
    return data


def _provenance() -> dict[str, str]:
    return {"generator": GENERATOR, "purpose": PURPOSE, "trained": "false"}


def manifest(fixture: ManifestFixture) -> dict[str, Any]:
    """The manifest in the engine's field order (1.0.0 adds evaluationProfile; 1.1.0 the role fields)."""
    doc: dict[str, Any] = {
        "manifestVersion": fixture.version,
        "modelId": fixture.model_id,
        "modelSha256": fixture.graph.sha256,
        "featureSchema": SCHEMA_ID,
        "featureCount": get_schema(SCHEMA_ID).width,
        "engineCompatibility": ENGINE_COMPATIBILITY,
        "calibration": {"temperature": 1.0},
        "provenance": _provenance(),
    }
    if fixture.version == "1.0.0":
        doc["evaluationProfile"] = "standard-kcp"
    else:
        doc["modelRole"] = fixture.role
        doc["inputName"] = fixture.graph.input_name
        doc["outputName"] = fixture.graph.output_name
        doc["perspective"] = "side-to-move"
    return doc


def example_manifest() -> dict[str, Any]:
    """The example package: a 1.0.0 kcp-13 value package, the one format every reader accepts."""
    return {
        "manifestVersion": "1.0.0",
        "modelId": "dicechess-contract-example-kcp13-value",
        "modelSha256": VALUE.sha256,
        "featureSchema": SCHEMA_ID,
        "featureCount": get_schema(SCHEMA_ID).width,
        "engineCompatibility": ENGINE_COMPATIBILITY,
        "evaluationProfile": "standard-kcp",
        "calibration": {"temperature": 1.0},
        "provenance": {
            "generator": GENERATOR,
            "purpose": "example package: the synthetic kcp-13 value graph of spec/contract.md 8.1",
            "trained": "false",
        },
    }


def engine_json(value: Any) -> bytes:
    """The engine generator's text: two-space indent, insertion order, trailing newline."""
    return (json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8")


def _feature_rows() -> list[tuple[dict[str, Any], list[float]]]:
    by_id = {probe["id"]: probe for probe in probe_source.probes()}
    rows = []
    for probe_id in PARITY_PROBES:
        probe = by_id[probe_id]
        color = chess.WHITE if probe["side"] == "w" else chess.BLACK
        vector = features.extract(SCHEMA_ID, features.parse_fen(probe["fen"]), color)
        rows.append((probe, [float(float32_text(v)) for v in vector]))
    return rows


def _score(rows: list[list[float]]) -> tuple[list[float], str]:
    import onnxruntime as ort

    session = ort.InferenceSession(build_graph(VALUE), providers=["CPUExecutionProvider"])
    batch = np.asarray(rows, dtype=np.float32)
    (scores,) = session.run([VALUE.output_name], {VALUE.input_name: batch})
    outputs = [float(np.float32(score)) for score in np.asarray(scores, dtype=np.float32).reshape(-1)]
    return outputs, f"onnxruntime {ort.__version__} (Python, CPUExecutionProvider)"


def _committed_runtime(outputs: list[float]) -> str | None:
    """The runtime named by the committed parity file, if it recorded these very outputs.

    The outputs, not the installed onnxruntime release, are the data: a newer release that reproduces
    them bit for bit leaves the file unchanged (and ``check`` clean).
    """
    path = ROOT / FIXTURE_DIR / PARITY_FILE
    try:
        old = parse_json(path.read_bytes())
        old_outputs = [probe["output"] for probe in old["probes"]]
        runtime = old["runtime"]
    except (OSError, StrictJsonError, KeyError, TypeError):
        return None
    if not isinstance(runtime, str) or len(old_outputs) != len(outputs):
        return None
    same = all(np.float32(a).tobytes() == np.float32(b).tobytes() for a, b in zip(old_outputs, outputs,
                                                                                strict=True))
    return runtime if same else None


def tolerance() -> dict[str, Any]:
    """The parity file's ``tolerance`` (format 1.1): per compared value, its tolerance, reason, measurements."""
    return {"output": {
        "absolute": OUTPUT_TOLERANCE,
        "reason": TOLERANCE_REASON,
        "measuredOn": [{"runtime": runtime, "comparedWith": against, "maxAbsoluteDifference": difference}
                       for runtime, against, difference in MEASURED_ON],
    }}


def parity() -> dict[str, Any]:
    """The parity file, field for field in the engine's order."""
    rows = _feature_rows()
    outputs, runtime = _score([vector for _, vector in rows])
    return {
        "formatVersion": formatversion.current("parity"),
        "schema": SCHEMA_ID,
        "perspective": "side-to-move",
        "model": VALUE.file,
        "modelSha256": VALUE.sha256,
        "generator": GENERATOR,
        "runtime": _committed_runtime(outputs) or runtime,
        "tolerance": tolerance(),
        "featureSource": FEATURE_SOURCE,
        "columns": list(get_schema(SCHEMA_ID).columns),
        "probes": [
            {"id": probe["id"], "fen": probe["fen"], "side": probe["side"], "features": vector,
             "output": output}
            for (probe, vector), output in zip(rows, outputs, strict=True)
        ],
    }


def generate() -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    graphs = {graph.file: build_graph(graph) for graph in GRAPHS}
    for name, data in graphs.items():
        files[f"{FIXTURE_DIR}/{name}"] = data
    for fixture in MANIFESTS:
        files[f"{FIXTURE_DIR}/{fixture.file}"] = engine_json(manifest(fixture))
    files[f"{FIXTURE_DIR}/{PARITY_FILE}"] = engine_json(parity())
    files[f"{EXAMPLE_DIR}/model.onnx"] = graphs[VALUE.file]
    files[f"{EXAMPLE_DIR}/manifest.json"] = engine_json(example_manifest())
    return files
