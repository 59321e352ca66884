"""``python -m contract.conformance run ... --html FILE``: the matrix and every disagreement as a page."""

from __future__ import annotations

import html
import json
import os
import re
import stat
from pathlib import Path

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
                        r'data-outcome="\1"><dl>(.*?)</dl></div>', page, re.S)
    entries = _training_entries()
    assert entries
    assert {case: outcome for outcome, case, _ in blocks} == dict.fromkeys(entries, "listed")
    for _, case, facts in blocks:
        reason = re.search(r"<dt>reason</dt><dd>(.*?)</dd>", facts)
        assert reason is not None and html.unescape(reason.group(1)) == entries[html.unescape(case)]
        assert "<dt>request</dt>" in facts and "<dt>expected</dt>" in facts and "<dt>got</dt>" in facts
    for anchor in re.findall(r'<a href="#([^"]+)">\d+ listed</a>', page):
        assert f'<section id="{anchor}" class="group">' in page
    assert "<dt>implementation training</dt><dd>recorded: answers replayed" in page
    assert '<p class="verdict-pass" id="verdict">PASS' in page
    assert "Known divergences" in capsys.readouterr().out  # the text report is still printed


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
