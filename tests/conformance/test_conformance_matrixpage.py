"""``python -m contract.conformance run ... --html FILE``: the matrix and every disagreement as a page."""

from __future__ import annotations

import html
import json
import re
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
