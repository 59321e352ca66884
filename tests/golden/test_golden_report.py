"""``python -m contract.golden report``: one row per probe, SVG boards, drift and disagreement highlighted."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from golden_testkit import ROOT, copy_checkout, edit_vector, run_golden

from contract import features
from contract.golden.cli import main


def _probe_ids() -> list[str]:
    return [p["id"] for p in json.loads((ROOT / "golden" / "probes.json").read_text(encoding="utf-8"))["probes"]]


def test_report_draws_every_probe_with_its_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report"
    assert main(["--root", str(ROOT), "--quiet", "report", "--output", str(out)]) == 0
    page = (out / "index.html").read_text(encoding="utf-8")
    ids = _probe_ids()
    assert page.count("<svg") == len(ids)
    assert re.findall(r'<tr id="([^"]+)">', page) == ids
    assert 'class="drift"' not in page and 'class="disagree"' not in page
    assert "0 cells differ from the committed corpus" in page
    assert "wrote" in capsys.readouterr().out
    again = tmp_path / "again"
    assert main(["--root", str(ROOT), "--quiet", "report", "--output", str(again)]) == 0
    assert (again / "index.html").read_bytes() == (out / "index.html").read_bytes()


def test_report_highlights_a_drifted_cell(tmp_path: Path) -> None:
    root = copy_checkout(tmp_path / "repo")
    edit_vector(root, "kcp-13", "rook-king-danger-w", "-13.0, -2000.0", "-12.0, -2000.0")
    result = run_golden(root, "report", "--output", str(tmp_path / "out"))
    assert result.returncode == 0, result.stdout + result.stderr
    page = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert page.count('class="drift"') == 1
    assert 'Probes with highlighted cells: <a href="#rook-king-danger-w">rook-king-danger-w</a>.' in page
    assert '<td class="drift" title="committed -12.0">-13.0<span class="other">was -12.0</span></td>' in page


def test_report_highlights_a_disagreement_with_a_recording(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = features.extract

    def changed(schema_id: str, position: features.Position, color: object) -> np.ndarray:
        vector = real(schema_id, position, color).copy()
        if schema_id == "rich-9-v1" and vector[6] == 75.0:  # the knight-up placement
            vector[6] = np.float32(76.0)
        return vector

    monkeypatch.setattr(features, "extract", changed)
    out = tmp_path / "report"
    assert main(["--root", str(ROOT), "--quiet", "report", "--output", str(out)]) == 0
    page = (out / "index.html").read_text(encoding="utf-8")
    assert '<td class="disagree" title="recorded 75.0">76.0<span class="other">recorded 75.0</span></td>' in page


def test_report_refuses_an_output_that_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "file"
    target.write_text("x", encoding="utf-8")
    assert main(["--root", str(ROOT), "--quiet", "report", "--output", str(target)]) == 1
    assert "exists and is not a directory" in capsys.readouterr().err
    assert target.read_text(encoding="utf-8") == "x"
