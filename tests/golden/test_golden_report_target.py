"""``golden report --output``: a name ending in ``.html`` is the page file (as ``conformance run --html
FILE``), any other name, or an existing directory, a directory for ``index.html`` (issue #35, newcomer
item: ``--output x.html`` created a directory named x.html)."""

from __future__ import annotations

from pathlib import Path

import pytest
from golden_testkit import ROOT

from contract.cli.golden import main


def test_an_output_ending_in_html_is_the_page_file_unless_a_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "reports" / "corpus.HTML"
    assert main(["--root", str(ROOT), "--quiet", "report", "--output", str(page)]) == 0
    assert page.is_file() and page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert sorted(p.name for p in page.parent.iterdir()) == ["corpus.HTML"]  # no directory, no temporary left
    assert f"wrote {page} (" in capsys.readouterr().out
    older = tmp_path / "x.html"  # an existing directory named *.html stays a directory (one report run less)
    older.mkdir()  # what --output x.html made before
    assert main(["--root", str(ROOT), "--quiet", "report", "--output", str(older)]) == 0
    assert (older / "index.html").is_file()
