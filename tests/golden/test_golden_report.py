"""``python -m contract.golden report``: one block per probe, SVG boards, drift and disagreement highlighted.

What the page does in a browser (search, URL filters, problems only) is tested in tests/browser/.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

import numpy as np
import pytest
from golden_testkit import ROOT, copy_checkout, edit_vector, run_golden

import contract
from contract import features
from contract.cli.golden import main


def _unlabelled(page: str) -> str:
    """The page without the phone layout's cell labels (``data-label``), to compare rows as text."""
    return re.sub(r' data-label="[^"]*"', "", page)


def _probe_ids() -> list[str]:
    return [p["id"] for p in json.loads((ROOT / "golden" / "probes.json").read_text(encoding="utf-8"))["probes"]]


@pytest.mark.slow
def test_report_draws_every_probe_with_its_board(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1780000000")
    out = tmp_path / "report"
    assert main(["--root", str(ROOT), "--quiet", "report", "--output", str(out)]) == 0
    page = (out / "index.html").read_text(encoding="utf-8")
    ids = _probe_ids()
    assert page.count('<svg class="board"') == len(ids)
    assert re.findall(r'<section class="probe" id="([^"]+)" data-probe-id="([^"]+)"', page) == [(i, i) for i in ids]
    assert 'class="drift"' not in page and 'class="disagree"' not in page
    assert "wrote" in capsys.readouterr().out
    again = tmp_path / "again"
    assert main(["--root", str(ROOT), "--quiet", "report", "--output", str(again)]) == 0
    assert (again / "index.html").read_bytes() == (out / "index.html").read_bytes()


def test_report_is_small_self_contained_and_defines_each_id_once(tmp_path: Path) -> None:
    out = tmp_path / "report"
    assert main(["--root", str(ROOT), "--quiet", "report", "--output", str(out)]) == 0
    data = (out / "index.html").read_bytes()
    assert len(data) <= 1_500_000, f"{len(data)} bytes"
    page = data.decode("utf-8")
    ids = re.findall(r'\sid="([^"]+)"', page)
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    assert page.count('id="white-knight"') == 1 and page.count('id="black-king"') == 1
    assert not re.search(r'(?:src|href)="(?:https?:)?//', page), "the page must load nothing from a network"
    assert "<link" not in page and "<script src" not in page
    # what recorded each probe's vector of each schema (every one by the rebuild, 54 also by the 0.9.3 release)
    recorders = re.findall(r'data-schema="([^"]+)" data-recorded-by="([^"]+)" data-rules="([^"]+)"', page)
    assert len(recorders) == 840
    assert sum("engine 0.12.0 (rebuild, recorded live 2026-12-01)" in r for _, r, _rule in recorders) == 798
    assert sum(r.startswith("engine 0.9.3, ") for _, r, _rule in recorders) == 58  # by FEN and side, any id
    assert "<dt>engine-recorded vectors</dt><dd>814 of 840 (26 kit-only)</dd>" in page
    # which rule each vector follows: in its caption and data-rules
    ruled = [(schema, rule) for schema, _r, rule in recorders if rule != "the same under every rule set"]
    assert len(ruled) == 20
    assert ("kcp-13", "follows castling per-king; not known for 0.12.0: castling per-king or per-side; under rule set"
            " newest-sources it differs (engine-newest (newest public sources, rebuilt; not a release))") in ruled
    assert "<dt>vectors following a named rule</dt><dd>20 of 840" in page


def test_report_header_gives_its_provenance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1780000000")
    out = tmp_path / "report"
    assert main(["--root", str(ROOT), "--quiet", "report", "--output", str(out)]) == 0
    page = (out / "index.html").read_text(encoding="utf-8")
    header = page[page.index('<dl class="provenance"'):page.index("</dl>")]
    facts = dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]*)</dd>", header))
    assert facts["kit version"] == contract.__version__
    assert facts["written"] == "2026-05-28T20:26:40Z"
    engine = json.loads((ROOT / "golden" / "recorded" / "kcp-13.engine-0.12.0.json").read_text(encoding="utf-8"))
    assert facts["engine version reproduced"] == f"{engine['engineVersion']} (all 7 schemas)"
    assert facts["probes"] == str(len(_probe_ids()))
    assert facts["drifted cells"].startswith("0 ") and facts["disagreeing cells"].startswith("0 ")
    if (ROOT / ".git").exists():
        assert re.fullmatch(r"[0-9a-f]{40}( with uncommitted changes)?", facts["commit"]), facts["commit"]


@pytest.mark.slow
def test_report_highlights_a_drifted_cell(tmp_path: Path) -> None:
    root = copy_checkout(tmp_path / "repo")
    edit_vector(root, "kcp-13", "rook-king-danger-w", "-13.0, -2000.0", "-12.0, -2000.0")
    result = run_golden(root, "report", "--output", str(tmp_path / "out"))
    assert result.returncode == 0, result.stdout + result.stderr
    page = _unlabelled((tmp_path / "out" / "index.html").read_text(encoding="utf-8"))
    assert page.count('<td class="drift"') == 1
    assert 'Probes with highlighted cells: <a href="#rook-king-danger-w">rook-king-danger-w</a>.' in page
    assert '<td class="drift" title="committed -12.0">-13.0<span class="other">was -12.0</span></td>' in page
    assert 'data-probe-id="rook-king-danger-w" data-tags="king-capture perspective" data-problems="drift"' in page
    assert ('<tr class="drift" data-schema="kcp-13"><td>kcp-13</td><td>mobility_diff</td>'
            '<td>drift: committed → regenerated</td><td class="num">-12.0</td><td class="num">0xc1400000</td>'
            '<td class="num">-13.0</td><td class="num">0xc1500000</td></tr>') in page
    assert "<dt>commit</dt><dd>not known (not a git checkout)</dd>" in page
    assert ('<p class="what-changed">Drift against the committed corpus: one column, <code>mobility_diff</code>,'
            " in 1 schema, 1 probe (1 cell).</p>") in page
    summary = page[page.index('<div class="summary" id="summary">'):page.index('<form id="filters"')]
    assert re.findall(r'<td class="num[^"]*">([^<]*)</td>', summary) == ["1", "-12.0", "0xc1400000", "-13.0",
                                                                         "0xc1500000"]


def test_report_highlights_a_disagreement_with_a_recording(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = features.extract

    def changed(schema_id: str, position: features.Position, color: object,
                engine_version: str | None = None) -> np.ndarray:
        if engine_version is not None:  # another release's rules: left as they are
            return real(schema_id, position, color, engine_version=engine_version)
        vector = real(schema_id, position, color).copy()
        if schema_id == "rich-9-v1" and vector[6] == 75.0:  # the knight-up placement
            vector[6] = np.float32(76.0)
        return vector

    monkeypatch.setattr(features, "extract", changed)
    out = tmp_path / "report"
    assert main(["--root", str(ROOT), "--quiet", "report", "--output", str(out)]) == 0
    page = _unlabelled((out / "index.html").read_text(encoding="utf-8"))
    assert '<td class="disagree" title="recorded 75.0">76.0<span class="other">recorded 75.0</span></td>' in page
    assert ('<td>disagreement: recorded (rich-9-v1.engine-0.12.0.json) → kit</td><td class="num">75.0</td>'
            '<td class="num">0x42960000</td><td class="num">76.0</td><td class="num">0x42980000</td>') in page
    assert ('<p class="what-changed">Disagreement with the recorded corpora: one column, <code>total_material</code>,'
            " in 1 schema, ") in page


def test_report_shows_a_disagreement_with_the_live_recording_where_no_golden_recorded(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = features.extract

    def changed(schema_id: str, position: features.Position, color: object,
                engine_version: str | None = None) -> np.ndarray:
        if engine_version is not None:  # another release's rules: left as they are
            return real(schema_id, position, color, engine_version=engine_version)
        vector = real(schema_id, position, color).copy()
        if schema_id == "material-7-v1" and vector[6] == 78.0:  # total_material of the start position
            vector[6] = np.float32(79.0)
        return vector

    monkeypatch.setattr(features, "extract", changed)
    out = tmp_path / "report"
    assert main(["--root", str(ROOT), "--quiet", "report", "--output", str(out)]) == 0
    page = (out / "index.html").read_text(encoding="utf-8")
    start = page[page.index('<section class="probe" id="start-w"'):]
    start = start[:start.index("</section>")]
    row = start[start.index('<tr class="disagree" data-schema="material-7-v1">'):]
    cells = re.findall(r"<td[^>]*>([^<]*)</td>", row[:row.index("</tr>")])
    assert cells == ["material-7-v1", "total_material",
                     "disagreement: recorded (engine-vectors-default-seed20261130.jsonl.gz) → kit",
                     "78.0", "0x429c0000", "79.0", "0x429e0000"]
    assert re.search(r'<td class="disagree" title="recorded 78.0">79.0<span class="other">recorded 78.0</span>', start)
    assert 'data-problems="drift disagree"' in start


def test_report_refuses_an_output_that_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "file"
    target.write_text("x", encoding="utf-8")
    assert main(["--root", str(ROOT), "--quiet", "report", "--output", str(target)]) == 1
    assert "exists and is not a directory" in capsys.readouterr().err
    assert target.read_text(encoding="utf-8") == "x"


@pytest.mark.parametrize("node", ["fifo", "symlink", "device", "corpus-file"])
def test_report_refuses_an_index_html_that_is_not_a_regular_file_of_its_own(
        tmp_path: Path, node: str, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rep"
    out.mkdir()
    target = out / "index.html"
    corpus_file = ROOT / "golden" / "probes.json"
    before = corpus_file.read_bytes()
    if node == "fifo":
        os.mkfifo(target)
    elif node == "symlink":
        target.symlink_to(tmp_path / "elsewhere.html")
    elif node == "device":
        if os.geteuid() != 0:
            pytest.skip("making a device node needs root")
        os.mknod(target, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    else:
        try:
            os.link(corpus_file, target)
        except OSError:
            pytest.skip("the checkout is on another filesystem than the temporary directory")
    assert main(["--root", str(ROOT), "--quiet", "report", "--output", str(out)]) == 1
    err = capsys.readouterr().err
    expected = {"fifo": "is a FIFO (named pipe); the report page must be a regular file or absent",
                "symlink": "is a symbolic link", "device": "is a character device",
                "corpus-file": "is the same file as the corpus file"}[node]
    assert f"{target}: {expected}" in err, err
    assert target.is_symlink() if node == "symlink" else (node == "corpus-file") == target.is_file()
    assert corpus_file.read_bytes() == before


def test_report_refuses_an_output_inside_the_corpus(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = copy_checkout(tmp_path / "repo")
    result = run_golden(root, "report", "--output", str(root / "golden" / "report"))
    assert result.returncode == 1, result.stdout + result.stderr
    assert "is inside the corpus's golden/ directory" in result.stderr
    assert not (root / "golden" / "report").exists()
