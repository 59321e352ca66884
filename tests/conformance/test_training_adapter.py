"""The training adapter against the test double of the training contract modules.

The double (``training_double/``) keeps what broke the first adapter when it ran live against the real
fortemate/dicechess-training modules: a path argument for the graph check, a dict assumption in
``validate_manifest``, a silent ``False`` from ``engine_compatible``, the ONNX checker and opset ceiling
before the tensor checks, and a second module (``prerank``) for rich-9-v1. These tests fail when the
adapter would break live: an ``error`` answer anywhere, a live divergence entry that no longer holds,
or a behaviour the double (and so the real module) does not have.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import onnx
import pytest

from contract.conformance import divergences
from contract.conformance.corpus import VERDICT_COLUMNS, VERDICTS_FILE, load_cases
from contract.conformance.report import as_text
from contract.conformance.runner import LIVE, AdapterFailure, Implementation, Run, resolve, run
from contract.core.resources import data_root, golden_dir

DOUBLE = Path(__file__).with_name("training_double")
KINDS = ["engine-compatibility", "manifest", "tensor-contract"]


@pytest.fixture
def double() -> Iterator[tuple[ModuleType, ModuleType]]:
    sys.path.insert(0, str(DOUBLE))
    try:
        yield (importlib.import_module("dicechess_training.contracts.kcp13"),
               importlib.import_module("dicechess_training.contracts.prerank"))
    finally:
        sys.path.remove(str(DOUBLE))
        for name in [n for n in sys.modules if n.startswith("dicechess_training")]:
            del sys.modules[name]


@pytest.fixture(scope="module")
def live_run() -> Run:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPATH", f"{DOUBLE}{os.pathsep}{data_root()}")
        patch.setenv("DICECHESS_CONFORMANCE_TRAINING", f"{sys.executable} -m contract.conformance.training_adapter")
        training = resolve("training")
        assert training.mode == LIVE
        return run([training], load_cases(KINDS), KINDS, divergences.load())


# --- the double has the real module's shape -------------------------------------------------------


def test_the_double_takes_a_path_not_a_loaded_graph(double: tuple[ModuleType, ModuleType]) -> None:
    kcp13, _ = double
    graph = golden_dir() / "fixtures" / "synthetic_kcp13_value_test_model.onnx"
    kcp13.validate_onnx_contract(graph)
    kcp13.validate_onnx_contract(str(graph))
    with pytest.raises(OSError):
        kcp13.validate_onnx_contract(onnx.load(str(graph)))


@pytest.mark.parametrize("document", [[], "1.1.0", None])
def test_the_double_assumes_a_dict(double: tuple[ModuleType, ModuleType], document: object) -> None:
    with pytest.raises(AttributeError):
        double[0].validate_manifest(document, "0.12.0")


def test_the_double_excludes_silently(double: tuple[ModuleType, ModuleType]) -> None:
    kcp13, _ = double
    assert kcp13.engine_compatible(">=0.4.0 <0.5.0", "0.12.0") is False
    with pytest.raises(kcp13.ContractError, match=re.escape("does not include engine version '0.12.0'")):
        kcp13.validate_manifest({"manifestVersion": "1.0.0", "modelId": "m", "modelSha256": "0" * 64,
                                 "featureSchema": "kcp-13", "featureCount": 13,
                                 "evaluationProfile": "standard-kcp", "engineCompatibility": "<0.5.0"}, "0.12.0")


def test_the_double_checks_the_graph_and_its_opset_first(double: tuple[ModuleType, ModuleType],
                                                         tmp_path: Path) -> None:
    kcp13, _ = double
    model = onnx.load(str(golden_dir() / "fixtures" / "synthetic_kcp13_value_test_model.onnx"))
    model.opset_import[0].version = 19
    too_new = tmp_path / "opset19.onnx"
    onnx.save(model, str(too_new))
    with pytest.raises(kcp13.ContractError, match=r"^ONNX default-domain opset 19 exceeds the maximum 18$"):
        kcp13.validate_onnx_contract(too_new)
    model.graph.node[0].input[0] = "nobody-makes-this"
    broken = tmp_path / "broken.onnx"
    onnx.save(model, str(broken))
    with pytest.raises(kcp13.ContractError, match=r"^ONNX model is not a valid graph: "):
        kcp13.validate_onnx_contract(broken)


def test_the_prerank_double_reads_rich_9_for_move_prerank_only(double: tuple[ModuleType, ModuleType]) -> None:
    _, prerank = double
    assert prerank.feature_count("0.12.0") == 9
    with pytest.raises(prerank.ContractError, match=re.escape("no committed golden corpus for engine '9.9.9'")):
        prerank.feature_count("9.9.9")
    with pytest.raises(prerank.ContractError, match="cannot serve as 'move-prerank'"):
        prerank.validate_manifest({"manifestVersion": "1.1.0", "modelRole": "position-value"}, "0.12.0")


# --- the adapter over every case ------------------------------------------------------------------


def test_no_case_is_an_error_and_every_live_entry_holds(live_run: Run) -> None:
    assert not live_run.errors, as_text(live_run)
    assert live_run.ok, as_text(live_run)
    assert len(live_run.results) == len(load_cases(KINDS))


def test_the_recorded_python_outcomes_come_back_through_the_adapter(live_run: Run) -> None:
    recorded = [r for r in live_run.results if r.case.kind == "engine-compatibility" and "training" in r.case.recorded]
    verdicts = json.loads((golden_dir() / VERDICTS_FILE).read_text(encoding="utf-8"))["cases"]
    assert len(recorded) == sum(1 for row in verdicts if row[VERDICT_COLUMNS["training"]] != "unknown") > 0
    for result in recorded:
        assert result.got["outcome"] == result.case.recorded["training"].fields["outcome"], result.case.id


def _got(live_run: Run, case_id: str) -> dict[str, object]:
    return next(r.got for r in live_run.results if r.case.id == case_id)


def test_an_excluded_range_gets_the_text_validate_manifest_raises(live_run: Run) -> None:
    got = _got(live_run, "engine-compatibility/recorded-20")  # '>=0.4.0 <0.9.0' at 0.9.2
    assert got == {"id": "engine-compatibility/recorded-20", "status": "ok", "outcome": "excluded",
                   "message": "engineCompatibility '>=0.4.0 <0.9.0' does not include engine version '0.9.2'"}


def test_json_errors_carry_the_canonical_prefix(live_run: Run) -> None:
    got = _got(live_run, "manifest/json-truncated")
    assert got["verdict"] == "refused" and str(got["message"]).startswith("not valid JSON: ")


def test_a_manifest_that_is_not_an_object_is_outside_the_modules_signature(live_run: Run) -> None:
    for kind in ("array", "string", "null"):
        got = _got(live_run, f"manifest/json-not-object-{kind}")
        assert got["status"] == "unsupported" and "takes a dict" in str(got["message"])


def test_rich_9_cases_are_asked_of_the_prerank_module(live_run: Run) -> None:
    got = _got(live_run, "manifest/schema-rich-9")
    assert got["message"] == "modelRole 'position-value' cannot serve as 'move-prerank'"


def test_tensor_cases_are_answered_from_the_graph_file(live_run: Run) -> None:
    tensors = [r for r in live_run.results if r.case.kind == "tensor-contract"]
    assert tensors and all(r.got["status"] == "ok" for r in tensors)
    assert _got(live_run, "tensor-contract/input-dtype")["message"] == "input 'input' must have FLOAT dtype"


def test_the_adapter_says_why_it_cannot_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", str(data_root()))
    if importlib.util.find_spec("dicechess_training") is not None:
        pytest.skip("dicechess_training is installed here: the adapter can start")
    command = (sys.executable, "-m", "contract.conformance.training_adapter")
    with pytest.raises(AdapterFailure, match=re.escape("cannot import dicechess_training.contracts.kcp13")):
        run([Implementation("training", LIVE, command)], load_cases(["engine-compatibility"]),
            ["engine-compatibility"], [])
