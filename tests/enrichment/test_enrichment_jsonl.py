"""Bulk JSONL enrichment: recorded values, rejects, metadata, worker pool, resume, refusals."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from enrichment_data import KCP13_GOLDEN, corpus_rows, run_cli, write_jsonl

import contract
from contract.core import registry
from contract.core.resources import golden_dir
from contract.enrichment import EnrichmentError, Options, enrich_file
from contract.enrichment.rows import OptionError
from contract.enrichment.runs import pipeline
from contract.enrichment.runs.progress import Progress

KINGS_FEN = "4k3/8/8/8/8/8/4r3/4K3 w - -"


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_kcp13_sample_prints_the_recorded_numbers(tmp_path: Path, kcp13_golden: dict[str, Any]) -> None:
    probes = kcp13_golden["probes"]
    source = write_jsonl(tmp_path / "probes.jsonl",
                         [{"id": p["id"], "fen": p["fen"], "side": p["side"]} for p in probes])
    summary = enrich_file(Options("kcp-13", source, tmp_path / "out.jsonl", chunk_size=5))
    assert (summary.rows, summary.rejected) == (len(probes), 0)
    # The recorded file prints each vector with Java Float.toString; the output must show the same text.
    recorded_text = (golden_dir() / "recorded" / KCP13_GOLDEN).read_text(encoding="utf-8")
    recorded_vectors = re.findall(r'"features": (\[[^\]]*\])', recorded_text)
    lines = (tmp_path / "out.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == len(recorded_vectors) == len(probes)
    for line, probe, vector_text in zip(lines, probes, recorded_vectors, strict=True):
        assert line == f'{{"id": {json.dumps(probe["id"])}, "schema": "kcp-13", "features": {vector_text}}}'
        row = json.loads(line)
        assert np.array_equal(np.asarray(row["features"], dtype=np.float32),
                              np.asarray(probe["features"], dtype=np.float32))


def test_file_output_is_what_extract_prints_to_stdout(tmp_path: Path) -> None:
    rows: list[Any] = corpus_rows(60)
    rows[5] = {"id": "bad", "fen": "8/8 w - -"}
    source = write_jsonl(tmp_path / "in.jsonl", rows)
    to_stdout = run_cli("extract", "--schema", "rich-9-v1", "--input", source)
    to_file = run_cli("extract", "--schema", "rich-9-v1", "--input", source, "--output", tmp_path / "out.jsonl",
                      "--jobs", "2", "--chunk-size", "7")
    assert to_stdout.returncode == to_file.returncode == 1  # one row refused
    assert (tmp_path / "out.jsonl").read_text(encoding="utf-8") == to_stdout.stdout
    assert "wrote 59 rows" in to_file.stderr and "1 rejected" in to_file.stderr
    (reject,) = read_jsonl(tmp_path / "out.jsonl.rejects.jsonl")
    assert (reject["id"], reject["line"]) == ("bad", 6)
    assert reject["error"] in to_stdout.stderr  # the same message, from the same row rules


def test_side_defaults_to_the_fen_side_to_move(tmp_path: Path, kcp13_golden: dict[str, Any]) -> None:
    probes = kcp13_golden["probes"]
    source = write_jsonl(tmp_path / "in.jsonl", [{"id": p["id"], "fen": p["fen"]} for p in probes])
    enrich_file(Options("kcp-13", source, tmp_path / "out.jsonl"))
    for row, probe in zip(read_jsonl(tmp_path / "out.jsonl"), probes, strict=True):
        assert np.array_equal(np.asarray(row["features"], dtype=np.float32),
                              np.asarray(probe["features"], dtype=np.float32)), probe["id"]


def test_metadata_sidecar_names_schema_columns_and_kit_version(tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", corpus_rows(3))
    enrich_file(Options("rich-9-v1", source, tmp_path / "out.jsonl"))
    meta = json.loads((tmp_path / "out.jsonl.meta.json").read_text(encoding="utf-8"))
    assert meta["schema"] == "rich-9-v1"
    assert meta["columns"] == list(registry.get("rich-9-v1").columns)
    assert meta["width"] == 9
    assert meta["kitVersion"] == contract.__version__
    assert meta["featuresField"] == "features"
    assert all(len(row["features"]) == 9 for row in read_jsonl(tmp_path / "out.jsonl"))


def test_failed_rows_go_to_the_rejects_file_with_line_and_error(tmp_path: Path) -> None:
    good = corpus_rows(6)
    lines: list[Any] = [
        good[0],                                                      # line 1
        "{not json",                                                  # line 2
        "[1, 2]",                                                     # line 3
        {"fen": good[1]["fen"]},                                      # line 4: no id
        {"id": "no-fen"},                                             # line 5
        {"id": "bad-fen", "fen": "rnbqkbnr/pppppppp w KQkq -"},       # line 6
        {"id": "bad-side", "fen": good[2]["fen"], "side": "white"},   # line 7
        good[1],                                                      # line 8
        "",                                                           # line 9: blank, skipped
        '{"id": "dup", "id": "dup2", "fen": "8/8/8/8/8/8/8/8 w - -"}',  # line 10
        {"id": 7, "fen": good[4]["fen"], "side": None},               # line 11: int id, null side
        {"id": True, "fen": good[5]["fen"]},                          # line 12: bool id
        '{"id": "nan", "fen": NaN}',                                  # line 13
    ]
    source = write_jsonl(tmp_path / "in.jsonl", lines)
    summary = enrich_file(Options("material-7-v1", source, tmp_path / "out.jsonl", chunk_size=4))
    rejects = read_jsonl(tmp_path / "out.jsonl.rejects.jsonl")
    assert [(r["id"], r["line"]) for r in rejects] == [
        (None, 2), (None, 3), (None, 4), ("no-fen", 5), ("bad-fen", 6), ("bad-side", 7),
        (None, 10), (None, 12), (None, 13),
    ]
    errors = {r["line"]: r["error"] for r in rejects}
    assert errors[2].startswith("not valid JSON")
    assert "not an object" in errors[3]
    assert "'id'" in errors[4]
    assert "'fen'" in errors[5]
    assert "rnbqkbnr/pppppppp" in errors[6]
    assert "'white'" in errors[7]
    assert "duplicate key" in errors[10]
    assert "True" in errors[12]
    assert "NaN" in errors[13]
    written = read_jsonl(tmp_path / "out.jsonl")
    assert [row["id"] for row in written] == ["row-0", "row-1", 7]
    assert (summary.rows, summary.rejected) == (3, 9)


def test_two_workers_write_the_same_bytes_as_one(tmp_path: Path) -> None:
    rows: list[Any] = corpus_rows(1500)
    rows[123] = {"id": "broken", "fen": "not a fen"}
    source = write_jsonl(tmp_path / "in.jsonl", rows)
    one = enrich_file(Options("material-7-v1", source, tmp_path / "one.jsonl", chunk_size=100))
    two = enrich_file(Options("material-7-v1", source, tmp_path / "two.jsonl", chunk_size=100, jobs=2))
    assert (one.rows, one.rejected) == (two.rows, two.rejected) == (1499, 1)
    for suffix in ("", ".rejects.jsonl", ".meta.json"):
        assert (tmp_path / f"one.jsonl{suffix}").read_bytes() == (tmp_path / f"two.jsonl{suffix}").read_bytes()
    assert not (tmp_path / "two.jsonl.parts").exists()


class Interrupt(Exception):
    pass


def interrupt_after(monkeypatch: pytest.MonkeyPatch, chunks: int) -> None:
    """Make ``run_chunk`` finish ``chunks`` chunks and then fail, as a kill between chunks would."""
    real = pipeline.run_chunk
    calls = {"n": 0}

    def flaky(task: pipeline.ChunkTask) -> pipeline.ChunkResult:
        if calls["n"] == chunks:
            raise Interrupt
        calls["n"] += 1
        return real(task)

    monkeypatch.setattr(pipeline, "run_chunk", flaky)


def test_resume_after_an_interruption_gives_identical_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rows: list[Any] = corpus_rows(700)
    rows[250] = "{broken"
    source = write_jsonl(tmp_path / "in.jsonl", rows)
    enrich_file(Options("kcp-13", source, tmp_path / "whole.jsonl", chunk_size=64))

    output = tmp_path / "out.jsonl"
    output.write_text("previous output\n", encoding="utf-8")
    with monkeypatch.context() as patch:
        interrupt_after(patch, 5)
        with pytest.raises(Interrupt):
            enrich_file(Options("kcp-13", source, output, chunk_size=64, overwrite=True))
    parts = tmp_path / "out.jsonl.parts"
    assert len(list(parts.glob("part-*.rows.jsonl"))) == 5
    assert output.read_text(encoding="utf-8") == "previous output\n"  # nothing half-written
    (parts / ".part-00000005.rows.jsonl.tmp-0123456789ab").write_bytes(b'{"id": "half')  # a kill mid-write

    with pytest.raises(EnrichmentError, match="--resume"):
        enrich_file(Options("kcp-13", source, output, chunk_size=64))
    with pytest.raises(EnrichmentError, match="chunkSize"):
        enrich_file(Options("kcp-13", source, output, chunk_size=32, resume=True))
    with pytest.raises(EnrichmentError, match="schema"):
        enrich_file(Options("rich-9-v1", source, output, chunk_size=64, resume=True))

    summary = enrich_file(Options("kcp-13", source, output, chunk_size=64, resume=True, jobs=2))
    assert summary.resumed == 5 * 64
    assert (summary.rows, summary.rejected) == (699, 1)
    for suffix in ("", ".rejects.jsonl", ".meta.json"):
        assert (tmp_path / f"whole.jsonl{suffix}").read_bytes() == (tmp_path / f"out.jsonl{suffix}").read_bytes()
    assert not parts.exists()


def test_resume_refuses_a_changed_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", corpus_rows(50))
    with monkeypatch.context() as patch:
        interrupt_after(patch, 1)
        with pytest.raises(Interrupt):
            enrich_file(Options("material-7-v1", source, tmp_path / "out.jsonl", chunk_size=10))
    write_jsonl(source, corpus_rows(51))
    with pytest.raises(EnrichmentError, match="input"):
        enrich_file(Options("material-7-v1", source, tmp_path / "out.jsonl", chunk_size=10, resume=True))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"schema_id": "no-such-schema"}, "unknown feature schema 'no-such-schema'"),
        ({"jobs": 0}, "--jobs must be at least 1"),
        ({"chunk_size": 0}, "--chunk-size must be at least 1"),
        ({"output_name": "out.csv"}, "cannot tell the format"),
        ({"format": "csv"}, "unknown format 'csv'"),
    ],
)
def test_usage_errors_are_refused_before_any_work(tmp_path: Path, change: dict[str, Any], message: str) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", corpus_rows(3))
    output = tmp_path / change.pop("output_name", "out.jsonl")
    options: dict[str, Any] = {"schema_id": "kcp-13", "input": source, "output": output} | change
    with pytest.raises(OptionError, match=re.escape(message)):
        enrich_file(Options(**options))
    assert list(tmp_path.iterdir()) == [source]


def test_missing_input_and_input_as_output_are_refused(tmp_path: Path) -> None:
    with pytest.raises(EnrichmentError, match="no such input file"):
        enrich_file(Options("kcp-13", tmp_path / "absent.jsonl", tmp_path / "out.jsonl"))
    source = write_jsonl(tmp_path / "in.jsonl", corpus_rows(3))
    with pytest.raises(EnrichmentError, match="the output is the same file as the input"):
        enrich_file(Options("kcp-13", source, source))
    assert source.read_text(encoding="utf-8").count("\n") == 3


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_shows_rows_per_second_on_a_terminal_only(tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", corpus_rows(40))
    terminal = FakeTerminal()
    enrich_file(Options("material-7-v1", source, tmp_path / "a.jsonl", chunk_size=10, stderr=terminal))
    assert re.search(r"100\.0% 40 rows [0-9,]+ rows/s", terminal.getvalue())
    quiet = FakeTerminal()
    enrich_file(Options("material-7-v1", source, tmp_path / "b.jsonl", chunk_size=10, stderr=quiet, quiet=True))
    assert quiet.getvalue() == ""
    pipe = io.StringIO()
    enrich_file(Options("material-7-v1", source, tmp_path / "c.jsonl", chunk_size=10, stderr=pipe))
    assert pipe.getvalue() == ""


def test_jsonl_output_does_not_depend_on_the_chunk_size(tmp_path: Path) -> None:
    rows: list[Any] = corpus_rows(120)
    rows[0] = "not json"
    rows[77] = {"id": "é-unicode", "fen": "bad"}
    source = write_jsonl(tmp_path / "in.jsonl", rows)
    outputs = []
    for chunk_size in (1, 7, 120, 1000):
        output = tmp_path / f"out-{chunk_size}.jsonl"
        enrich_file(Options("material-7-v1", source, output, chunk_size=chunk_size))
        outputs.append((output.read_bytes(), (tmp_path / f"out-{chunk_size}.jsonl.rejects.jsonl").read_bytes()))
    assert all(pair == outputs[0] for pair in outputs)
    assert outputs[0][1].decode("utf-8").splitlines()[1].startswith('{"id":"é-unicode","line":78,')


def test_an_empty_input_gives_an_empty_output(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_text("\n\n", encoding="utf-8")
    summary = enrich_file(Options("kcp-13", source, tmp_path / "out.jsonl", jobs=2))
    assert (summary.rows, summary.rejected) == (0, 0)
    assert (tmp_path / "out.jsonl").read_bytes() == b""
    assert (tmp_path / "out.jsonl.rejects.jsonl").read_bytes() == b""
    assert json.loads((tmp_path / "out.jsonl.meta.json").read_text(encoding="utf-8"))["schema"] == "kcp-13"


@pytest.mark.parametrize("width", [20, 40, 60, 100])
def test_progress_line_fits_the_terminal_and_shows_an_eta(width: int) -> None:
    """Was: no ETA, and a line wider than a narrow terminal wrapped onto a new line at every redraw."""
    progress = Progress(FakeTerminal(), quiet=False)
    progress.add(500, 3, 0.25)
    line = progress.line(progress._start + 10.0, width)
    assert len(line) <= width - 1
    if width == 100:
        assert re.fullmatch(r"extract: \[#{6}\.{18}\]  25\.0% 500 rows 50 rows/s ETA 00:30 3 rejected", line), line
    if width == 60:  # no room for the bar: the rest is kept whole
        assert line == "extract:  25.0% 500 rows 50 rows/s ETA 00:30 3 rejected"
    if width == 40:
        assert line == "extract:  25.0% 500 rows 50 rows/s ETA…"


def test_progress_eta_counts_only_this_runs_work() -> None:
    """Chunks skipped by --resume are not work done at this run's rate."""
    progress = Progress(FakeTerminal(), quiet=False)
    progress.add(600, 0, 0.6, resumed=True)
    progress.add(100, 0, 0.7)
    assert progress.line(progress._start + 10.0, 200).endswith("700 rows (600 resumed) 10 rows/s ETA 00:30")


@pytest.mark.slow
def test_chunks_are_bounded_in_bytes_as_well_as_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Was: a chunk was always --chunk-size rows, so 2,000 rows of ~1 MB peaked at 6.7 GiB with --jobs 2."""
    wide = "x" * (400 << 10)
    rows = [{"id": f"r{index}", "fen": KINGS_FEN, "note": wide} for index in range(70)]
    source = write_jsonl(tmp_path / "in.jsonl", rows)
    sizes: list[tuple[int, int]] = []
    real = pipeline.run_chunk

    def measured(task: pipeline.ChunkTask) -> pipeline.ChunkResult:
        sizes.append((len(task.payload), sum(len(raw) for _, raw in task.payload)))
        return real(task)

    monkeypatch.setattr(pipeline, "run_chunk", measured)
    summary = enrich_file(Options("material-7-v1", source, tmp_path / "out.jsonl", quiet=True))
    assert (summary.rows, summary.rejected) == (70, 0)
    line = len(json.dumps(rows[0])) + 1
    budget = pipeline.DEFAULT_CHUNK_BYTES
    assert all(held < budget + line for _, held in sizes), sizes
    assert sum(count for count, _ in sizes) == 70 and len(sizes) > 1
    small = enrich_file(Options("material-7-v1", source, tmp_path / "small.jsonl", quiet=True,
                                chunk_bytes=1 << 20))
    assert small.rows == 70
    assert (tmp_path / "small.jsonl").read_bytes() == (tmp_path / "out.jsonl").read_bytes()
