"""``validate --as service`` (what the evaluation service would do with a package, spec/contract.md §4.5)
and ``example --path``/``--corpus`` (the bundled example and corpus, wherever the kit is installed)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from contract.cli import main
from contract.core.resources import golden_dir
from contract.model.manifest import read_manifest
from contract.model.service import service_refusal

EXAMPLE = golden_dir() / "example-package"
FIXTURES = golden_dir() / "fixtures"


def _manifest(**changes: object) -> dict[str, object]:
    document: dict[str, object] = json.loads((EXAMPLE / "manifest.json").read_text(encoding="utf-8"))
    document.update(changes)
    return {k: v for k, v in document.items() if v is not None}


@pytest.mark.parametrize(("changes", "code", "message"), [
    ({}, None, None),
    ({"manifestVersion": "1.1.0", "modelRole": "move-prerank", "perspective": "side-to-move", "evaluationProfile": None},
     "service.modelRole",
     "the evaluation service evaluates positions: modelRole must be 'position-value', not 'move-prerank'"),
    ({"manifestVersion": "1.1.0", "modelRole": "position-value", "inputName": "features", "outputName": "value",
      "perspective": "side-to-move"}, "service.manifestVersion",
     "the evaluation service reads only manifestVersion 1.0.0, not 1.1.0, so it cannot mount this package (it "
     "starts without a model)"),
    ({"featureSchema": "kcp-mobility-27-v1", "featureCount": 27, "evaluationProfile": None}, "service.featureSchema",
     "the evaluation service extracts only featureSchema 'kcp-13', not 'kcp-mobility-27-v1'"),
    ({"evaluationProfile": None}, "service.evaluationProfile",
     "the evaluation service requires evaluationProfile 'standard-kcp' for featureSchema 'kcp-13', not none"),
    ({"evaluationProfile": "fast"}, "service.evaluationProfile",
     "the evaluation service requires evaluationProfile 'standard-kcp' for featureSchema 'kcp-13', not 'fast'"),
])
def test_each_rule_of_the_service(changes: dict[str, object], code: str | None, message: str | None) -> None:
    result = read_manifest(json.dumps(_manifest(**changes)), "0.12.0")
    assert result.manifest is not None, result.refusal  # the engine reads every one of them
    refused = service_refusal(result.manifest)
    assert (None if refused is None else (refused.code, refused.message)) == (
        None if code is None else (code, message))


def test_validate_as_service_mounts_the_example(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(EXAMPLE), "--engine-version", "0.12.0", "--as", "service"]) == 0
    assert capsys.readouterr().out.endswith("engine 0.12.0 (the evaluation service would mount it)\n")


@pytest.mark.parametrize(("manifest", "graph", "code"), [
    ("synthetic_kcp13_prerank_manifest.json", "synthetic_kcp13_value_test_model.onnx", "service.modelRole"),
    ("synthetic_kcp13_renamed_tensors_manifest.json", "synthetic_kcp13_renamed_tensors_test_model.onnx",
     "service.manifestVersion"),
])
def test_validate_as_service_refuses_what_the_engine_serves(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            manifest: str, graph: str, code: str) -> None:
    shutil.copy(FIXTURES / manifest, tmp_path / "manifest.json")
    shutil.copy(FIXTURES / graph, tmp_path / "model.onnx")
    assert main(["validate", str(tmp_path), "--engine-version", "0.12.0"]) == 0  # the engine serves it
    capsys.readouterr()
    assert main(["validate", str(tmp_path), "--engine-version", "0.12.0", "--as", "service", "--json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert document["ok"] is False and document["code"] == code
    assert document["message"].startswith(f"{tmp_path / 'manifest.json'}: the evaluation service ")


def test_example_prints_where_the_bundled_package_and_corpus_are(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["example", "--path"]) == 0
    assert main(["example"]) == 0
    assert main(["example", "--corpus"]) == 0
    assert capsys.readouterr().out.splitlines() == [str(EXAMPLE.resolve())] * 2 + [str(golden_dir().resolve())]
