"""``conformance diff OLD.json NEW.json`` (issue 35): which cases changed between two runs.

The two runs are real ``conformance run --json`` outputs: the kit's answers against its own corpus, and
against a scratch checkout whose kcp-13 golden vector for start-w has column queen_capture_danger (#12)
changed from 0.0 to 0.5 — the kit's answer (0.0, bits 0x00000000) now disagrees with it (0.5, bits
0x3f000000)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from scratch_checkout import START_W, checkout_copy

from contract.cli import main as kit_main
from contract.conformance import corpusroot
from contract.core.resources import schema_dir

RUN = ["conformance", "run", "--impl", "kit", "--kinds", "features", "--json"]


@pytest.fixture(autouse=True)
def _installed_corpus_afterwards() -> object:
    yield
    corpusroot.use(None)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The kit's answers to every features case: against its own corpus, then against the scratch checkout."""
    tmp_path = tmp_path_factory.mktemp("runs")
    empty = tmp_path / "elsewhere"
    empty.mkdir()
    outputs = []
    for where, name in ((empty, "old.json"), (checkout_copy(tmp_path), "new.json")):
        with pytest.MonkeyPatch.context() as patch:
            patch.chdir(where)
            done = subprocess.run([sys.executable, "-P", "-m", "contract.conformance", *RUN[1:]], capture_output=True,
                                  text=True, timeout=600, check=False)
        assert done.returncode == (0 if name == "old.json" else 1), done.stderr
        (tmp_path / name).write_text(done.stdout, encoding="utf-8")
        outputs.append(tmp_path / name)
    return outputs[0], outputs[1]


def _schema(name: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads((schema_dir() / name).read_text(encoding="utf-8")))


def test_a_changed_column_is_a_regression_naming_case_column_and_both_bit_patterns(
        runs: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    old, new = runs
    for run in runs:  # the inputs are what `conformance run --json` prints
        assert not list(_schema("output-conformance-run-1.schema.json").iter_errors(json.loads(run.read_text())))
    assert kit_main(["conformance", "diff", str(old), str(new)]) == 1
    out = capsys.readouterr().out
    assert "kit · features: 1 regressed" in out
    assert f"  regressed      {START_W}: agree -> unlisted" in out
    assert ("      column queen_capture_danger (#12): new expected 0.5 0x3f000000 -> new got 0.0 0x00000000"
            in out)
    assert out.rstrip().endswith("REGRESSED: 1 regressed, 0 fixed, 0 changed answer, 0 added, 0 removed.")


def test_the_json_output_validates_and_names_the_cells(runs: tuple[Path, Path],
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    old, new = runs
    assert kit_main(["conformance", "diff", str(old), str(new), "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert not list(_schema("output-conformance-diff-1.schema.json").iter_errors(report))
    assert report["outputVersion"] == 1 and report["ok"] is False and report["counts"]["regressed"] == 1
    [change] = report["changes"]
    assert (change["implementation"], change["case"], change["change"]) == ("kit", START_W, "regressed")
    assert change["cells"] == [{"column": "queen_capture_danger", "index": 12, "old": "0.5", "oldBits": "0x3f000000",
                                "new": "0.0", "newBits": "0x00000000"}]
    # the other way round it is a fix
    assert kit_main(["conformance", "diff", str(new), str(old), "--json"]) == 0
    back = json.loads(capsys.readouterr().out)
    assert back["ok"] and back["counts"]["fixed"] == 1 and back["changes"][0]["cellSides"] == ["old expected", "old got"]


def test_identical_runs_give_exit_0(runs: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    old, _ = runs
    assert kit_main(["conformance", "diff", str(old), str(old), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] and report["changes"] == [] and not list(
        _schema("output-conformance-diff-1.schema.json").iter_errors(report))


def test_the_page_escapes_and_names_the_change(runs: tuple[Path, Path], tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    old, new = runs
    page = tmp_path / "diff.html"
    assert kit_main(["conformance", "diff", str(old), str(new), "--html", str(page)]) == 1
    html = page.read_text(encoding="utf-8")
    assert f'<div class="case regressed" data-case-id="{START_W}" data-implementation="kit"' in html
    assert '<tr data-column="queen_capture_danger">' in html and "0x3f000000" in html and "0x00000000" in html
    assert str(tmp_path) not in html  # files by name only
    capsys.readouterr()


def test_added_and_removed_cases_and_another_answer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Hand-edited copies of one real run: a case dropped, an implementation's answer digest changed."""
    base = tmp_path / "base.json"
    kit_main(["conformance", "run", "--impl", "service=recorded", "--kinds", "manifest", "--json"])
    base.write_text(capsys.readouterr().out, encoding="utf-8")
    run = json.loads(base.read_text())
    first, second = run["results"][0], run["results"][1]
    run["results"] = run["results"][1:]
    second["answer"] = "0" * 16
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(run), encoding="utf-8")
    assert kit_main(["conformance", "diff", str(base), str(edited)]) == 0
    out = capsys.readouterr().out
    assert f"  removed        {first['case']}: {first['outcome']} -> absent" in out
    assert f"  changed answer {second['case']}: {second['outcome']} -> {second['outcome']}" in out


@pytest.mark.parametrize(("content", "code", "message"), [
    (None, 2, "no such file"),
    ("{}", 1, "not a `conformance run --json` output (output-conformance-run-1.schema.json, at (top):"),
    ("{\"a\": 1, \"a\": 2}", 1, "duplicate"),
])
def test_unusable_inputs_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None,
                                      code: int, message: str) -> None:
    bad = tmp_path / "bad.json"
    if content is not None:
        bad.write_text(content, encoding="utf-8")
    assert kit_main(["conformance", "diff", str(bad), str(bad)]) == code
    err = capsys.readouterr().err
    assert err.startswith(f"error: {bad}: ") and message in err and len(err.splitlines()) == 1


def test_a_page_target_that_is_an_input_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "run.json"
    run.write_text("{}", encoding="utf-8")
    assert kit_main(["conformance", "diff", str(run), str(run), "--html", str(run)]) == 2
    assert capsys.readouterr().err.startswith(f"error: --html {run}: ")
    assert run.read_text() == "{}"
