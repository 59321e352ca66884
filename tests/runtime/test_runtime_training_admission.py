"""The training repository's package: ``model-card.md`` written by ``package build``, ``validate --as
training`` against the admission's recorded answers, and the build-path metadata warning.

The admission's answers were recorded live (``recorded/training-admission.json``: which files and commits
ran, the graphs, the kit's arguments); this test rebuilds the same packages with the kit and compares the
kit's verdicts and words with them.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from onnx import helper
from training_graphs import GIVEN_CARD, RECIPES, STACK_TRACE, value_graph

from contract.cli import main
from contract.core.refusal import Refusal
from contract.core.resources import schema_dir
from contract.model.builder import PackageSpec, build_package
from contract.model.buildpaths import build_paths
from contract.model.modelcard import CARD_LIMIT

RECORDED = json.loads((Path(__file__).parent / "recorded" / "training-admission.json").read_text(encoding="utf-8"))
OBSERVATIONS = {entry["case"]: entry for entry in RECORDED["observations"]}


def _json(capsys: pytest.CaptureFixture[str], schema: str, *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(list(argv))
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    validator = Draft202012Validator(json.loads((schema_dir() / f"{schema}.schema.json").read_text(encoding="utf-8")))
    assert [error.message for error in validator.iter_errors(document)] == [], document
    return code, document


def _spec(model: Path, **extra: Any) -> PackageSpec:
    return PackageSpec(model=model, schema_id="kcp-13", role="position-value",
                       engine_compatibility=">=0.9.0 <1.0.0", model_id="m-1", **extra)


def _files(directory: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(directory.iterdir())}


# --- model-card.md -------------------------------------------------------------------------------------------

def test_two_builds_of_the_same_input_are_byte_identical(tmp_path: Path) -> None:
    model = tmp_path / "m.onnx"
    model.write_bytes(value_graph(13))
    extra = {"calibration_temperature": 1.5, "provenance": {"seed": "5", "data": "rows-v1"}}
    first = build_package(_spec(model, **extra), tmp_path / "first")
    second = build_package(_spec(model, **extra), tmp_path / "second")
    assert not isinstance(first, Refusal) and not isinstance(second, Refusal)
    assert _files(tmp_path / "first") == _files(tmp_path / "second")
    assert sorted(_files(tmp_path / "first")) == ["manifest.json", "model-card.md", "model.onnx"]


def test_the_generated_card_says_what_the_manifest_says_and_the_digest_covers_the_model_alone(tmp_path: Path) -> None:
    model = tmp_path / "m.onnx"
    model.write_bytes(value_graph(13, names=("features", "value")))
    spec = PackageSpec(model=model, schema_id="kcp-13", role="chance-collapse", engine_compatibility=">=0.12.0 <1.0.0",
                       model_id="a|b`c\nd", calibration_temperature=2.0, provenance={"seed": "7"})
    package = build_package(spec, tmp_path / "pkg")
    assert not isinstance(package, Refusal)
    card = (tmp_path / "pkg" / "model-card.md").read_text(encoding="utf-8")
    for text in ("# Model card: a\\|b\\`c\\nd", "| Role | chance-collapse |", "| Feature schema | kcp-13 |",
                 "| Width (features per row) | 13 |", "| Input tensor | features [batch,13] FLOAT |",
                 "| Output tensor | value [batch,1] FLOAT |", "| Engine compatibility | >=0.12.0 <1.0.0 |",
                 "| temperature | 2.0 |", "| seed | 7 |", "Columns, in order: p_diff, n_diff,",
                 f"| Model SHA-256 (model.onnx) | {hashlib.sha256(model.read_bytes()).hexdigest()} |"):
        assert text in card, text
    assert all(line.count("|") - line.count("\\|") in (0, 3) for line in card.splitlines())  # no cell broken
    manifest = json.loads((tmp_path / "pkg" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["modelSha256"] == hashlib.sha256((tmp_path / "pkg" / "model.onnx").read_bytes()).hexdigest()


def test_a_given_card_is_published_byte_for_byte_and_changes_nothing_else(tmp_path: Path) -> None:
    model, card = tmp_path / "m.onnx", tmp_path / "card.md"
    model.write_bytes(value_graph(13))
    card.write_bytes("# Évaluateur\r\n\nno trailing newline".encode())
    assert not isinstance(build_package(_spec(model, model_card=card), tmp_path / "given"), Refusal)
    assert not isinstance(build_package(_spec(model), tmp_path / "generated"), Refusal)
    given, generated = _files(tmp_path / "given"), _files(tmp_path / "generated")
    assert given["model-card.md"] == card.read_bytes()
    assert given["manifest.json"] == generated["manifest.json"] and given["model.onnx"] == generated["model.onnx"]


@pytest.mark.parametrize(("make", "expected"), [
    (lambda p: None, "cannot read the model card {card}: No such file or directory"),
    (lambda p: p.mkdir(), "cannot read the model card {card}: not a regular file"),
    (lambda p: p.write_bytes(b"x" * (CARD_LIMIT + 1)), f"the model card {{card}} is larger than {CARD_LIMIT} bytes"),
    (lambda p: p.write_bytes(b"# ok\n\xff"), "the model card {card} is not UTF-8 text (byte 5)"),
    (os.mkfifo, "cannot read the model card {card}: not a regular file"),
])
def test_a_card_that_cannot_be_the_card_is_refused_before_anything_is_staged(
        tmp_path: Path, make: Any, expected: str) -> None:
    model, card = tmp_path / "m.onnx", tmp_path / "card.md"
    model.write_bytes(value_graph(13))
    make(card)
    result = build_package(_spec(model, model_card=card), tmp_path / "out" / "pkg")
    assert isinstance(result, Refusal)
    assert result.message == f"refusing to publish {tmp_path / 'out' / 'pkg'}: " + expected.format(card=card)
    assert not (tmp_path / "out").exists()  # nothing staged, not even the parent


def test_package_build_cli_takes_model_card_and_reports_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model, card = tmp_path / "m.onnx", tmp_path / "card.md"
    model.write_bytes(value_graph(13))
    card.write_text(GIVEN_CARD, encoding="utf-8")
    base = ["package", "build", "--model", str(model), "--schema", "kcp-13", "--role", "position-value",
            "--engine-compatibility", ">=0.9.0 <1.0.0", "--model-id", "m-1", "--json"]
    code, document = _json(capsys, "output-package-build-1", *base, "--out", str(tmp_path / "a"), "--model-card", str(card))
    assert (code, document["modelCard"], document["warnings"]) == (0, "given", [])
    code, document = _json(capsys, "output-package-build-1", *base, "--out", str(tmp_path / "b"))
    assert (code, document["modelCard"]) == (0, "generated")


# --- validate --as training against the recorded admission ----------------------------------------------------

@pytest.mark.parametrize("case", sorted(OBSERVATIONS))
def test_validate_as_training_answers_as_the_admission_did(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str) -> None:
    observed = OBSERVATIONS[case]
    graph = RECIPES[case]()
    assert hashlib.sha256(graph).hexdigest() == observed["modelSha256"]  # the same input the admission saw
    (tmp_path / f"{case}.onnx").write_bytes(graph)
    (tmp_path / "given-card.md").write_text(GIVEN_CARD, encoding="utf-8")
    arguments = [argument.replace("WORK", str(tmp_path)) for argument in observed["kitArguments"]]
    assert main(["package", *arguments]) == 0
    capsys.readouterr()
    package = tmp_path / case
    if observed.get("afterBuild") == "model-card.md deleted":
        (package / "model-card.md").unlink()
    code, document = _json(capsys, "output-validate-1", "validate", str(package), "--engine-version", "0.12.0",
                           "--as", "training", "--json")
    if observed["admitted"]:
        assert (code, document["ok"]) == (0, True), document
    else:
        assert (code, document["ok"]) == (1, False)
        assert document["code"].startswith("training."), document
        assert document["message"].endswith(observed["refusal"].splitlines()[0]), (document, observed["refusal"])


def test_the_engine_serves_every_recorded_package_so_only_the_training_family_refuses(tmp_path: Path) -> None:
    for case in OBSERVATIONS:  # the recorded packages are all engine-valid
        (tmp_path / f"{case}.onnx").write_bytes(RECIPES[case]())
    (tmp_path / "given-card.md").write_text(GIVEN_CARD, encoding="utf-8")
    for case, observed in OBSERVATIONS.items():
        assert main(["package", *[a.replace("WORK", str(tmp_path)) for a in observed["kitArguments"]]]) == 0
        assert main(["validate", str(tmp_path / case), "--engine-version", "0.12.0"]) == 0


def test_as_training_needs_a_package_directory(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["validate", "--model", "m.onnx", "--manifest", "manifest.json", "--engine-version", "0.12.0",
              "--as", "training"])
    assert raised.value.code == 2


# --- build-path metadata ---------------------------------------------------------------------------------------

def _with_metadata(where: str, key: str, text: str) -> bytes:
    from onnx import ModelProto

    model = ModelProto.FromString(value_graph(13))
    holder = {"model": model, "graph": model.graph, "node": model.graph.node[0]}[where]
    if key == "doc_string":
        holder.doc_string = text
    else:
        helper.set_metadata_props(holder, {key: text}) if where != "node" else holder.metadata_props.add(
            key=key, value=text)
    data: bytes = model.SerializeToString()
    return data


@pytest.mark.parametrize("metadata", [
    ("node", "pkg.torch.onnx.stack_trace", STACK_TRACE, "node"),
    ("model", "source", "/srv/build/checkout/model.py", "model"),
    ("graph", "origin", "exported from C:\\Users\\me\\model.py", "graph 'g'"),
    ("graph", "doc_string", "weights read from '/data/run-7/weights.pt'", "graph 'g'"),
    ("model", "doc_string", "see \\\\fileserver\\share\\m.py", "model"),
])
def test_an_absolute_path_in_graph_metadata_is_a_warning_naming_the_key(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], metadata: tuple[str, str, str, str]) -> None:
    where, key, text, place = metadata
    model = tmp_path / "m.onnx"
    model.write_bytes(_with_metadata(where, key, text))
    base = ["package", "build", "--model", str(model), "--schema", "kcp-13", "--role", "position-value",
            "--engine-compatibility", ">=0.9.0 <1.0.0", "--model-id", "m-1", "--out", str(tmp_path / "pkg")]
    assert main(base) == 0  # published: a warning, not a refusal
    err = capsys.readouterr().err
    assert f"WARNING: the ONNX graph's {place} metadata '{key}' holds an absolute path (" in err, err
    code, document = _json(capsys, "output-validate-1", "validate", str(tmp_path / "pkg"), "--engine-version", "0.12.0",
                           "--json")
    assert code == 0 and len(document["warnings"]) == 1 and f"metadata '{key}'" in document["warnings"][0]
    assert main(["validate", str(tmp_path / "pkg"), "--engine-version", "0.12.0", "--as", "training"]) == 0
    assert f"metadata '{key}'" in capsys.readouterr().err


@pytest.mark.parametrize("text", ["relative/path/model.py", "https://example.org/a/b", "x / y", "1/2",
                                  "input/0", "ratio=3/4", ""])
def test_text_without_an_absolute_path_gives_no_warning(text: str) -> None:
    assert build_paths(_with_metadata("node", "note", text)) == []
    assert build_paths(_with_metadata("model", "doc_string", text)) == []


def test_one_warning_per_key_with_the_number_of_nodes() -> None:
    from onnx import ModelProto

    model = ModelProto.FromString(value_graph(13, stack_trace=STACK_TRACE))
    node = model.graph.node.add()
    node.CopyFrom(model.graph.node[0])
    found = build_paths(model.SerializeToString())
    assert [(f.place, f.key, f.count) for f in found] == [("node", "pkg.torch.onnx.stack_trace", 2)]
    assert "node (2 of them)" in found[0].warning()
    assert "/home/builder/dicechess-training/src/model.py" in found[0].warning()


@pytest.mark.parametrize("name", ["card\x00.md", "card\udcff.md", "c" * 300 + ".md"])
def test_a_card_path_no_file_can_have_is_a_refusal_not_a_traceback(tmp_path: Path, name: str) -> None:
    model = tmp_path / "m.onnx"
    model.write_bytes(value_graph(13))
    result = build_package(_spec(model, model_card=tmp_path / name), tmp_path / "pkg")
    assert isinstance(result, Refusal) and result.code in {"builder.os.fileError", "builder.modelCard.unreadable"}
    assert result.message.startswith(f"refusing to publish {tmp_path / 'pkg'}: ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.onnx"]
