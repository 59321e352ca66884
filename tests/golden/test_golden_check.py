"""``python -m contract.golden check`` and ``regenerate``: pass on the committed corpus, fail readably."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from golden_testkit import ROOT, copy_checkout, edit_vector, run_golden, snapshot

import generators.probes as probe_generator
from contract import features
from contract.cli.golden import main
from contract.recordings.recorded import FILE_LIMIT


def test_check_passes_on_the_committed_corpus(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--root", str(ROOT), "--quiet", "check"]) == 0
    out = capsys.readouterr().out
    assert "golden check passed" in out
    assert "agree bit for bit" in out
    # a kit vector is engine-recorded when a recording holds its value (same schema, FEN, side), under whatever
    # rules; the 26 kit-only ones are labelled (test_golden_rule_labels.py checks each label against the recordings)
    assert ("recorded: 814 of 840 kit vectors (probe x schema) are engine-recorded (engine 0.12.0: 58; "
            "engine 0.12.0 (rebuild, recorded live 2026-12-01): 798; engine 0.9.1: 58; engine 0.9.2: 25; "
            "engine 0.9.3: 87; engine-newest (newest public sources, rebuilt; not a release): 804); 26 kit-only") in out
    assert "rules: 820 of 840 kit vectors are the same under every rule set; 20 (4 probes) follow a named rule:" in out
    assert ("rules: 14872 recorded vectors compared under rule set newest-sources (castling per-side, en passant "
            "onto-empty): engine-newest/edge-cases.jsonl 6 positions; engine-newest/engine-vectors-default-seed2026"
            "1130.jsonl.gz 2114 positions; engine-newest/probe-pairs-vectors.jsonl 16 positions") in out
    assert "15914 recorded vectors from 14 corpora agree bit for bit" in out  # + rich-9 0.9.1 (27), probe pairs (16 + 16)


@pytest.mark.slow
def test_check_run_as_a_command_from_the_checkout_passes() -> None:
    result = run_golden(ROOT, "check", quiet=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "vectors (probes x 7 schemas)" in result.stderr  # progress goes to stderr
    assert "golden check passed" in result.stdout


@pytest.mark.slow
def test_a_hand_edited_vector_fails_check_with_a_cell_table(tmp_path: Path) -> None:
    root = copy_checkout(tmp_path / "repo")
    edit_vector(root, "kcp-13", "rook-king-danger-w", "-13.0, -2000.0", "-12.0, -2000.0")
    result = run_golden(root, "check")
    assert result.returncode == 1
    out = result.stdout
    assert "FAIL golden/vectors/kcp-13.json: the committed file differs" in out
    row = next(line for line in out.splitlines() if "rook-king-danger-w " in line)
    assert row.split() == ["kcp-13", "rook-king-danger-w", "mobility_diff", "-12.0", "-13.0"]
    assert "golden check FAILED" in out


@pytest.mark.slow
def test_a_changed_extractor_fails_check_against_corpus_and_recordings(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    real = features.extract

    def off_by_one(schema_id: str, position: features.Position, color: object,
                engine_version: str | None = None) -> np.ndarray:
        if engine_version is not None:  # another release's rules: left as they are
            return real(schema_id, position, color, engine_version=engine_version)
        vector = real(schema_id, position, color).copy()
        if schema_id == "kcp-13" and vector[6] == 78.0:  # total_material 78: the start position
            vector[7] += np.float32(1.0)  # mobility_diff
        return vector

    monkeypatch.setattr(features, "extract", off_by_one)
    assert main(["--root", str(ROOT), "--quiet", "check"]) == 1
    out = capsys.readouterr().out
    assert "FAIL golden/vectors/kcp-13.json" in out
    cell = next(line for line in out.splitlines() if line.split()[:3] == ["kcp-13", "start-w", "mobility_diff"])
    assert cell.split()[3:] == ["0.0", "1.0"]
    assert "FAIL golden/fixtures/synthetic_kcp13_value_parity.json" in out
    assert "cells disagree with a recorded corpus" in out
    rows = [line.split() for line in out.splitlines() if line.startswith("  kcp-13 (")]
    # the released engine's golden and the live recording both name the cell
    assert ["kcp-13", "(kcp-13.engine-0.12.0.json)", "start-w", "mobility_diff", "0.0", "1.0"] in rows
    assert ["kcp-13", "(engine-vectors-default-seed20261130.jsonl.gz)", "start-w", "mobility_diff", "0.0",
            "1.0"] in rows


@pytest.mark.slow
def test_regenerate_twice_leaves_every_file_byte_identical(tmp_path: Path) -> None:
    root = copy_checkout(tmp_path / "repo")
    before = snapshot(root)
    for _ in range(2):
        result = run_golden(root, "regenerate")
        assert result.returncode == 0, result.stdout + result.stderr
        assert "0 written" in result.stdout
        assert snapshot(root) == before
    assert not [p for p in root.rglob("*") if ".tmp-" in p.name]


@pytest.mark.slow
def test_drift_is_refused_with_a_table_unless_accepted_with_a_reason(tmp_path: Path) -> None:
    root = copy_checkout(tmp_path / "repo")
    edit_vector(root, "rich-9-v1", "knight-up-w", "75.0, 1.0", "74.0, 1.0")
    edited = snapshot(root)
    result = run_golden(root, "regenerate")
    assert result.returncode == 1
    assert "refused: 1 cell(s) of existing probes would change; nothing was written." in result.stdout
    rows = [line.split() for line in result.stdout.splitlines() if "knight-up-w" in line]
    assert rows == [["rich-9-v1", "knight-up-w", "total_material", "74.0", "75.0"]]
    assert snapshot(root) == edited
    # the same drift, accepted: written, with the reason and the cells in the drift log
    result = run_golden(root, "regenerate", "--accept-drift", "extractor fix #12: material total")
    assert result.returncode == 0, result.stdout + result.stderr
    log = (root / "golden" / "drift-log.json").read_text(encoding="utf-8")
    assert '"reason": "extractor fix #12: material total"' in log
    assert '"probe": "knight-up-w"' in log and '"old": 74.0' in log and '"new": 75.0' in log
    assert run_golden(root, "check").returncode == 0


def test_a_blank_drift_reason_is_a_usage_error(tmp_path: Path) -> None:
    result = run_golden(ROOT, "regenerate", "--accept-drift", "  ")
    assert result.returncode == 2
    assert "--accept-drift needs a non-blank REASON" in result.stderr


@pytest.mark.slow
def test_a_new_probe_needs_no_flag(tmp_path: Path) -> None:
    root = copy_checkout(tmp_path / "repo")
    source = root / "generators" / "probes.py"
    text = source.read_text(encoding="utf-8")
    text = text.replace("    *_FILL_PROBES,\n", '    KitProbe("extra-rook-w", "4k3/8/8/8/8/8/8/R3K3 w Q -", ("test",), '
                        '"added by a test"),\n    *_FILL_PROBES,\n')
    source.write_text(text, encoding="utf-8")
    result = run_golden(root, "regenerate")
    assert result.returncode == 0, result.stdout + result.stderr
    probes = (root / "golden" / "probes.json").read_text(encoding="utf-8")
    assert '"id": "extra-rook-w"' in probes and '"id": "extra-rook-w-twin"' in probes
    result = run_golden(root, "check")
    assert result.returncode == 0, result.stdout
    # no engine recorded the new probe: its vectors are reported kit-only (a note, not a failure)
    assert "recorded: 814 of 854 kit vectors (probe x schema) are engine-recorded" in result.stdout
    assert "; 40 kit-only" in result.stdout
    assert ("  kit-only: all 7 schemas extra-rook-w (the same under every rule set; no recording: the kit's word"
            " alone)") in result.stdout


@pytest.mark.slow
def test_a_stale_generated_file_fails_check(tmp_path: Path) -> None:
    root = copy_checkout(tmp_path / "repo")
    (root / "golden" / "vectors" / "old-schema-v0.json").write_text("{}\n", encoding="utf-8")
    result = run_golden(root, "check")
    assert result.returncode == 1
    assert "FAIL golden/vectors/old-schema-v0.json: no generator produces this file any more" in result.stdout


@pytest.mark.slow
def test_a_missing_committed_file_fails_check(tmp_path: Path) -> None:
    root = copy_checkout(tmp_path / "repo")
    (root / "golden" / "fixtures" / "synthetic_kcp13_value_test_model.onnx").unlink()
    result = run_golden(root, "check")
    assert result.returncode == 1
    assert "FAIL golden/fixtures/synthetic_kcp13_value_test_model.onnx: missing" in result.stdout


def test_a_failing_generator_is_named_without_a_traceback(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    bad = probe_generator.KitProbe("bad-fen-w", "4k3/8/8/8/8/8/8/4K3 x - -", ("test",), "bad side")
    monkeypatch.setattr(probe_generator, "KIT_PROBES", (*probe_generator.KIT_PROBES, bad))
    assert main(["--root", str(ROOT), "--quiet", "check"]) == 1
    err = capsys.readouterr().err
    assert "generator generators.probes failed: FenError: bad FEN side 'x'" in err
    assert "Traceback" not in err


def test_a_directory_that_is_not_a_checkout_is_refused(tmp_path: Path) -> None:
    result = run_golden(ROOT, "--root", str(tmp_path), "check")
    assert result.returncode == 2
    assert "is not a dicechess-contract checkout: it has no golden/ and generators/" in result.stderr
    late = run_golden(ROOT, "check", "--root", str(tmp_path))  # options also after the subcommand
    assert late.returncode == 2 and late.stderr == result.stderr
    missing = run_golden(ROOT, "--root", str(tmp_path / "nowhere"), "check")
    assert missing.returncode == 2
    assert "no such directory" in missing.stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")
def test_a_fifo_or_a_huge_file_in_the_corpus_is_one_line_not_a_hang(tmp_path: Path) -> None:
    """Issue 22 audit: a FIFO named like a recording (golden/recorded/*.json) made `golden check` wait
    forever for a writer (killed at 60 s); an oversized file was read whole. Now a corpus file is read
    only if it is a regular file, up to a cap."""
    root = copy_checkout(tmp_path / "kit")
    fifo = root / "golden" / "recorded" / "zz.json"
    os.mkfifo(fifo)
    done = run_golden(root, "check", timeout=180)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr[-800:]
    assert done.stderr.strip().endswith("golden/recorded/zz.json: not a regular file"), done.stderr[-800:]
    assert "[Errno" not in done.stderr
    fifo.unlink()
    with open(fifo, "wb") as handle:
        handle.truncate(FILE_LIMIT + 1)  # sparse
    done = run_golden(root, "check")
    assert done.returncode == 1 and done.stderr.strip().endswith(
        f"golden/recorded/zz.json: larger than {FILE_LIMIT} bytes (a recording is read whole)"), done.stderr[-800:]
