"""``python -m contract.conformance run ... --html FILE``: the matrix and every disagreement as a page."""

from __future__ import annotations

import html
import json
import os
import re
import stat
import struct
import sys
import tempfile
from pathlib import Path

import clamp_scenario
import pytest

from contract.conformance.__main__ import main
from contract.core.resources import golden_dir


def _training_entries() -> dict[str, str]:
    data = json.loads((golden_dir() / "divergences.json").read_text(encoding="utf-8"))
    return {e["case"]: e["reason"] for e in data["divergences"]
            if e["implementation"] == "training" and e.get("mode") in (None, "recorded")}


def test_the_page_lists_every_listed_divergence_with_its_reason(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    page_file = tmp_path / "m.html"
    assert main(["run", "--impl", "training=recorded", "--html", str(page_file)]) == 0
    page = page_file.read_text(encoding="utf-8")
    blocks = re.findall(r'<div class="case (\w+)" data-case-id="([^"]+)" data-implementation="training" '
                        r'data-kind="([^"]+)" data-outcome="\1">(.*?)</details></div>', page, re.S)
    entries = _training_entries()
    assert entries
    assert {case: outcome for outcome, case, _, _ in blocks} == dict.fromkeys(entries, "listed")
    for _, case, kind, facts in blocks:
        assert html.unescape(case).startswith(f"{kind}/")
        reason = re.search(r'<p class="reason"><b>reason</b>: (.*?)</p>', facts)
        assert reason is not None and html.unescape(reason.group(1)) == entries[html.unescape(case)]
        assert "<dt>request</dt>" in facts and "<dt>expected</dt>" in facts and "<dt>got</dt>" in facts
        assert '<table class="stack fields">' in facts  # the compared fields, the differing ones marked
        assert re.search(r'<td class="changed" data-label="got">', facts), facts
    for anchor in re.findall(r'<a href="#([^"]+)">\d+ listed</a>', page):
        assert f'<section id="{anchor}" class="group">' in page
    assert "<dt>implementation training</dt><dd>recorded: answers replayed" in page
    assert '<p class="verdict-pass" id="verdict">PASS' in page
    assert (f'<p class="what-changed">What changed: nothing fails the run. {len(entries)} listed divergences'
            " (known, each with its reason below).</p>") in page
    assert "Known divergences" in capsys.readouterr().out  # the text report is still printed


def test_the_page_names_no_path_of_the_machine(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page_file = tmp_path / "m.html"
    div = tmp_path / "div.json"
    div.write_bytes((golden_dir() / "divergences.json").read_bytes())
    assert main(["run", "--impl", "kit", "--impl", "training=recorded", "--kinds", "tensor-contract",
                 "--divergences", str(div), "--html", str(page_file)]) == 0
    page = page_file.read_text(encoding="utf-8")
    for machine in (str(golden_dir().parent.resolve()), sys.executable, sys.prefix, str(tmp_path),
                    tempfile.gettempdir() + "/", str(Path.home()) + "/"):
        assert machine not in page, machine
    assert "<dt>known-divergences file</dt><dd>div.json</dd>" in page
    assert "<dt>implementation kit</dt><dd>live: python -P -m contract.conformance.adapter</dd>" in page
    assert "&quot;graph&quot;: &quot;golden/" in page  # a tensor case's model, named inside the kit
    capsys.readouterr()


@pytest.mark.parametrize("where", ["directory", "missing-parent"])
def test_an_unwritable_html_target_is_refused_before_anything_runs(
        tmp_path: Path, where: str, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path if where == "directory" else tmp_path / "no" / "m.html"
    assert main(["run", "--impl", "training=recorded", "--html", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: --html {target}: ")
    assert ("is a directory" if where == "directory" else "directory that does not exist") in err
    assert not (tmp_path / "no").exists()


QUICK_RUN = ["run", "--impl", "training=recorded", "--kinds", "engine-compatibility"]


def _refused(arguments: list[str], target: Path, capsys: pytest.CaptureFixture[str]) -> str:
    assert main([*QUICK_RUN, *arguments, "--html", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: --html {target}: "), err
    return err


def test_the_page_never_overwrites_its_own_divergences_file(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    div = tmp_path / "div.json"
    original = (golden_dir() / "divergences.json").read_bytes()
    div.write_bytes(original)
    err = _refused(["--divergences", str(div)], div, capsys)
    assert "is the same file as the known-divergences file" in err
    os.link(div, tmp_path / "hard.json")  # the same file under another name
    err = _refused(["--divergences", str(div)], tmp_path / "hard.json", capsys)
    assert "is the same file as the known-divergences file" in err
    assert div.read_bytes() == original and (tmp_path / "hard.json").read_bytes() == original


def test_the_page_never_overwrites_a_corpus_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus_file = golden_dir() / "conformance" / "engine-compatibility.json"
    before = corpus_file.read_bytes()
    try:
        os.link(corpus_file, tmp_path / "same.html")
    except OSError:
        pytest.skip("the checkout is on another filesystem than the temporary directory")
    err = _refused([], tmp_path / "same.html", capsys)
    assert "is the same file as the corpus file" in err
    assert corpus_file.read_bytes() == before


@pytest.mark.parametrize("node", ["fifo", "symlink", "device"])
def test_a_page_target_that_is_not_a_regular_file_is_refused(
        tmp_path: Path, node: str, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "m.html"
    if node == "fifo":
        os.mkfifo(target)
    elif node == "symlink":
        (tmp_path / "real.html").write_text("kept", encoding="utf-8")
        target.symlink_to(tmp_path / "real.html")
    else:
        if os.geteuid() != 0:
            pytest.skip("making a device node needs root")
        os.mknod(target, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    err = _refused([], target, capsys)
    expected = {"fifo": "is a FIFO (named pipe); the page must be a regular file or absent",
                "symlink": "is a symbolic link", "device": "is a character device; the page must be"}[node]
    assert expected in err
    assert target.is_symlink() if node == "symlink" else not target.is_file()
    assert node != "symlink" or (tmp_path / "real.html").read_text(encoding="utf-8") == "kept"


def _bits(value: float) -> str:
    return "0x" + struct.pack(">f", value).hex()


def _text(value: float) -> str:
    assert value.is_integer(), value  # the clamp's values are whole: Java's Float.toString is "<n>.0"
    return f"{value:.1f}"


@pytest.mark.slow
def test_one_clamped_column_is_named_in_the_summary_and_in_every_case(tmp_path: Path) -> None:
    page_file = tmp_path / "m.html"
    done = clamp_scenario.run_clamped(tmp_path, page_file)
    assert done.returncode == 1, done.stdout + done.stderr
    page = re.sub(r' data-label="[^"]*"', "", page_file.read_text(encoding="utf-8"))
    changes = clamp_scenario.expected_changes()
    schemas, probes = {c.schema for c in changes}, {c.probe for c in changes}
    assert (f'<p class="what-changed">clamped · features, {len(changes)} cases: one column,'
            f" <code>king_safety_diff</code>, in {len(schemas)} schemas, {len(probes)} probes"
            f" ({len(changes)} cells).</p>") in page
    assert f'<p class="verdict-fail" id="verdict">FAIL: {len(changes)} unlisted disagreement(s)' in page
    blocks = re.findall(r'<div class="case unlisted" data-case-id="([^"]+)" data-implementation="clamped"'
                        r' data-kind="features" data-outcome="unlisted">(.*?)</details></div>', page, re.S)
    assert [html.unescape(case) for case, _ in blocks] == [c.case for c in changes]
    for (_, block), change in zip(blocks, changes, strict=True):
        rows = re.findall(r'<tr data-column="([^"]+)">(.*?)</tr>', block)
        assert len(rows) == 1 and rows[0][0] == "king_safety_diff", block
        cells = re.findall(r"<td[^>]*>([^<]*)</td>", rows[0][1])
        assert cells == ["king_safety_diff", "8", _text(change.expected), _bits(change.expected),
                         _text(change.got), _bits(change.got)]
        assert f"probe {change.probe}" in block


def test_a_wide_vector_lists_its_first_differing_columns_by_name_and_counts_the_rest() -> None:
    from contract.conformance.corpus import Case, Expected
    from contract.conformance.matrixpage import COLUMNS_SHOWN, Portable, _case
    from contract.conformance.runner import Result

    columns = json.loads((golden_dir().parent / "schema" / "feature-schemas.json").read_text(encoding="utf-8"))
    raw = next(s for s in columns["schemas"] if s["id"] == "raw-board-768-v1")
    expected = [0.0] * 768
    got: list[object] = [1.0] * 767 + ["x"]  # every column differs; the last is not even a number
    case = Case("features/vectors/raw-board-768-v1/p", "features",
                {"schemaId": "raw-board-768-v1", "fen": "8/8/8/8/8/8/8/8 w - - 0 1", "side": "white"},
                Expected({"vector": expected}), "test")
    block = _case(Result("x", case, "disagree", {"vector": got}, ("vector",)), "unlisted", None,
                  Portable("/nowhere", ()))
    names = re.findall(r'<tr data-column="([^"]+)">', block)
    assert names == raw["columns"][:COLUMNS_SHOWN]
    assert "<caption>768 differing columns</caption>" in block
    assert f"and {768 - COLUMNS_SHOWN} more differing columns" in block


@pytest.mark.parametrize("where", ["golden/conformance/new-page.html", "schema/new-page.html"])
def test_a_page_inside_the_corpus_is_refused_even_before_it_exists(
        where: str, capsys: pytest.CaptureFixture[str]) -> None:
    target = golden_dir().parent / where
    assert not target.exists()
    try:
        err = _refused([], target, capsys)
        assert "which the run reads; write the page elsewhere" in err
        assert not target.exists()
    finally:  # a kit that writes it anyway must not leave it in the checkout
        target.unlink(missing_ok=True)


def test_a_message_disagreement_is_summarised_by_field_and_marked_in_its_table() -> None:
    from contract.conformance.corpus import load_cases
    from contract.conformance.matrixpage import render
    from contract.conformance.runner import Implementation, Run, classify, evaluate
    from contract.core.provenance import Provenance

    cases = load_cases(["engine-compatibility"])
    answers = [{"id": c.id, "status": "ok", **c.expected.fields} for c in cases]
    for answer in answers[:3]:  # three answers with another message, the verdict kept
        answer["message"] = "another text"
    liar = Implementation("liar", "live", ("liar",))
    run = classify(Run([liar], ["engine-compatibility"], evaluate(liar, cases, answers), []))
    page = re.sub(r' data-label="[^"]*"', "", render(run, Provenance("0", None, False, "now"), "div.json"))
    assert ('<p class="what-changed" data-implementation="liar" data-kind="engine-compatibility">'
            "liar · engine-compatibility, 3 cases: the answers differ in message in 3.</p>") in page
    for case in cases[:3]:
        block = page[page.index(f'data-case-id="{html.escape(case.id)}"'):]
        block = block[:block.index("</table>")]
        assert '<tr data-field="message">' in block
        assert re.search(r'<tr data-field="message"><td>message</td><td>[^<]*</td>'
                         r'<td class="changed">&quot;another text&quot;</td></tr>', block), block
        assert re.search(r'<tr data-field="outcome"><td>outcome</td><td>[^<]*</td><td>', block), block


def test_the_headline_counts_changed_listed_answers_and_stale_recordings() -> None:
    """Issue 35's newcomer item: the page's verdict line was silent about stale recordings."""
    from contract.conformance.corpus import Case, Expected
    from contract.conformance.divergences import Divergence
    from contract.conformance.matrixpage import render
    from contract.conformance.recording import StaleRecording
    from contract.conformance.runner import LIVE, Implementation, Run, classify, evaluate
    from contract.core.provenance import collect

    case = Case("engine-compatibility/x", "engine-compatibility", {"constraint": "", "engineVersion": "0.12.0"},
                Expected({"outcome": "blank", "message": "m"}), "test")
    impl = Implementation("standin", LIVE, ("x",))
    results = evaluate(impl, [case], [{"id": case.id, "status": "ok", "outcome": "excluded", "message": "new"}])
    entry = Divergence("standin", case.id, "a reason long enough", None, {"outcome": "excluded", "message": "old"})
    run = classify(Run([impl], ["engine-compatibility"], results, [entry]))
    run.stale_recordings = [StaleRecording("engine", "manifest/y", "recorded for another version")]
    page = render(run, collect(None), "divergences.json")
    assert ('<p class="verdict-fail" id="verdict">FAIL: 1 unlisted disagreement(s), 0 error(s), 1 changed listed'
            " answer(s), 0 stale entr(y/ies), 1 stale recording(s), 0 listed divergence(s).</p>") in page
    assert "listed answer</b> (golden/divergences.json, from" in page
