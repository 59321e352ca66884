"""Hostile input to the bulk path (``extract --input FILE --output FILE``, ``enrich_table``): refused with
one message before any work, or rejected row by row — never a traceback, never a half-written or
mismatched set of files (review of 2026-11-29; each test names the defect it pins)."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from enrichment_data import cli_env, corpus_rows, write_jsonl

from contract.cli import main
from contract.core.oserrors import os_error_text
from contract.enrichment import EnrichmentError, Options, enrich_file, enrich_table
from contract.enrichment.formats import jsonl
from contract.enrichment.formats.jsonl import MAX_LINE_BYTES
from contract.features import UnknownSchemaError

KINGS = "4k3/8/8/8/8/8/4r3/4K3 w - -"
# kcp-13 of KINGS for White as recorded (tests/features/test_cli.py, README)
KINGS_KCP13 = [0.0, 0.0, 0.0, -1.0, 0.0, -5.0, 5.0, -13.0, -2000.0, 0.0, 0.4212963, 0.0, 0.0]


def names(directory: Path) -> list[str]:
    return sorted(path.name for path in directory.iterdir())


def test_lone_surrogates_in_a_rejected_row_give_a_valid_rejects_line(tmp_path: Path) -> None:
    """Was: UnicodeEncodeError traceback (an id or FEN with a ``\\ud800`` escape, rejects written with
    ensure_ascii=False), the run dead and its parts left behind."""
    source = write_jsonl(tmp_path / "in.jsonl", [
        '{"id": "lone\\ud800", "fen": "bad"}',
        '{"id": "ok", "fen": "8/8/8/8/8/8/8/8 \\udcff - -"}',
        {"id": "fine", "fen": KINGS},
    ])
    output = tmp_path / "out.jsonl"
    assert main(["extract", "--schema", "kcp-13", "--input", str(source), "--output", str(output), "--quiet"]) == 1
    rejects = [json.loads(line) for line in (tmp_path / "out.jsonl.rejects.jsonl").read_bytes().decode("utf-8")
               .splitlines()]
    assert [(r["id"], r["line"]) for r in rejects] == [("lone\ud800", 1), ("ok", 2)]
    assert rejects[1]["error"] == "bad FEN side '\\udcff': expected 'w' or 'b'"
    assert [json.loads(line)["features"] for line in output.read_text().splitlines()] == [KINGS_KCP13]
    assert names(tmp_path) == ["in.jsonl", "out.jsonl", "out.jsonl.meta.json", "out.jsonl.rejects.jsonl"]


def test_an_over_long_line_is_rejected_and_its_neighbours_kept(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_bytes(b'{"id": "a", "fen": "' + KINGS.encode() + b'"}\n'
                       + b"[" * (3 * MAX_LINE_BYTES)  # no newline: read in bounded blocks and skipped
                       + b'\n{"id": "b", "fen": "' + KINGS.encode() + b'"}')
    output = tmp_path / "out.jsonl"
    summary = enrich_file(Options("kcp-13", source, output, chunk_size=1, quiet=True))
    assert (summary.rows, summary.rejected) == (2, 1)
    assert [json.loads(line)["id"] for line in output.read_text().splitlines()] == ["a", "b"]
    assert json.loads((tmp_path / "out.jsonl.rejects.jsonl").read_text()) == {
        "id": None, "line": 2, "error": f"line longer than {MAX_LINE_BYTES} bytes (not read)"}


@pytest.mark.parametrize(("output", "rejects", "message"), [
    ("dir.jsonl", None, "{tmp}/dir.jsonl: is a directory; the output must be a regular file or absent (to send rows to a device or a pipe, leave out --output and redirect stdout)"),
    ("out.jsonl", "dir.jsonl", "{tmp}/dir.jsonl: is a directory; the rejects file must be a regular file or absent (to send rows to a device or a pipe, leave out --output and redirect stdout)"),
    ("out.jsonl", "missing/r.jsonl", "{tmp}/missing: the rejects file's directory does not exist"),
])
def test_unusable_output_paths_are_refused_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], output: str, rejects: str | None, message: str
) -> None:
    """Was: every chunk extracted, then ``[Errno 21] Is a directory: '.dir.jsonl.tmp-…' -> …`` with the
    new rejects and sidecar already renamed beside no output, a temporary file and the parts left."""
    source = write_jsonl(tmp_path / "in.jsonl", [{"id": "a", "fen": KINGS}])
    (tmp_path / "dir.jsonl").mkdir()
    argv = ["extract", "--schema", "kcp-13", "--input", str(source), "--output", str(tmp_path / output)]
    if rejects is not None:
        argv += ["--rejects", str(tmp_path / rejects)]
    assert main(argv) == 1
    assert capsys.readouterr().err == f"extract: {message.format(tmp=tmp_path)}\n"
    assert names(tmp_path) == ["dir.jsonl", "in.jsonl"]


def test_a_failure_while_assembling_leaves_every_previous_file_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Was: the rejects file and sidecar renamed into place before the output was written, so a full
    disk left the old output beside the new rejects; the temporary output stayed behind."""
    source = write_jsonl(tmp_path / "in.jsonl", [{"id": "a", "fen": KINGS}, {"id": "b", "fen": "bad"}])
    output = tmp_path / "out.jsonl"
    previous = {"out.jsonl": "old rows\n", "out.jsonl.rejects.jsonl": "old rejects\n",
                "out.jsonl.meta.json": "old meta\n"}
    for name, text in previous.items():
        (tmp_path / name).write_text(text)

    def disk_full(source: object, sink: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(jsonl, "copy_counting_lines", disk_full)
    assert main(["extract", "--schema", "kcp-13", "--input", str(source), "--output", str(output), "--quiet",
                 "--overwrite"]) == 1
    assert capsys.readouterr().err == f"extract: {output}: cannot be written (No space left on device)\n"
    assert {name: (tmp_path / name).read_text() for name in previous} == previous
    assert names(tmp_path) == sorted([*previous, "in.jsonl", "out.jsonl.parts"])  # parts kept for --resume
    monkeypatch.undo()
    assert main(["extract", "--schema", "kcp-13", "--input", str(source), "--output", str(output), "--quiet",
                 "--resume"]) == 1
    assert [json.loads(line)["id"] for line in output.read_text().splitlines()] == ["a"]
    assert names(tmp_path) == sorted([*previous, "in.jsonl"])


def test_os_errors_read_as_path_and_reason() -> None:
    assert os_error_text(FileNotFoundError(2, "No such file or directory", "/x/y")) == \
        "/x/y: No such file or directory"
    assert os_error_text(IsADirectoryError(21, "Is a directory", "/a", None, "/b")) == "/a -> /b: Is a directory"
    assert os_error_text(OSError(errno.ENOSPC, "No space left on device")) == "No space left on device"


def test_a_compressed_or_parquet_file_named_jsonl_is_refused_as_a_whole(tmp_path: Path) -> None:
    """Was: one "not UTF-8" reject per line of binary data, exit 1 with an empty output."""
    for head, kind in ((b"\x1f\x8b\x08", "gzip-compressed"), (b"PAR1", "a Parquet file")):
        source = tmp_path / "in.jsonl"
        source.write_bytes(head + bytes(range(256)) * 8)
        with pytest.raises(EnrichmentError, match=f"not JSONL text: this is {kind}"):
            enrich_file(Options("kcp-13", source, tmp_path / "out.jsonl"))
        assert names(tmp_path) == ["in.jsonl"]


# -- Parquet and enrich_table ------------------------------------------------------------------------------
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


@pytest.mark.parametrize(("columns", "message"), [
    ({"id": pa.array([1.5]), "fen": pa.array([KINGS])}, "column 'id' has type double; expected strings or integers"),
    ({"id": pa.array(["a"]), "fen": pa.array([1])}, "column 'fen' has type int64; expected strings"),
    ({"id": pa.array(["a"]), "fen": pa.array([KINGS.encode()])}, "column 'fen' has type binary; expected strings"),
    ({"id": pa.array(["a"]), "fen": pa.array([KINGS]), "side": pa.array([True])},
     "column 'side' has type bool; expected strings 'w'/'b' (or nulls)"),
])
def test_a_column_of_the_wrong_type_refuses_the_file(tmp_path: Path, columns: dict[str, object], message: str) -> None:
    """Was: every row rejected, one rejects line each, for what is one schema mistake."""
    source = tmp_path / "in.parquet"
    pq.write_table(pa.table(columns), source)
    with pytest.raises(EnrichmentError) as info:
        enrich_file(Options("kcp-13", source, tmp_path / "out.parquet"))
    assert str(info.value) == message
    with pytest.raises(EnrichmentError, match="^" + message.replace("(", r"\(").replace(")", r"\)") + "$"):
        enrich_table(pa.table(columns), "kcp-13")
    assert names(tmp_path) == ["in.parquet"]


def test_a_duplicate_column_refuses_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Was: ``KeyError: 'Field "fen" exists 2 times in schema'`` traceback, and the parts left behind."""
    source = tmp_path / "in.parquet"
    pq.write_table(pa.Table.from_arrays([pa.array(["a"]), pa.array([KINGS]), pa.array([KINGS])],
                                        names=["id", "fen", "fen"]), source)
    assert main(["extract", "--schema", "kcp-13", "--input", str(source), "--output",
                 str(tmp_path / "out.parquet")]) == 1
    assert capsys.readouterr().err == "extract: the input has two columns named 'fen'; rename one first\n"
    assert names(tmp_path) == ["in.parquet"]


def test_accepted_column_types_and_nulls_still_go_row_by_row(tmp_path: Path) -> None:
    table = pa.table({
        "id": pa.array([1, 2, None], pa.uint64()),
        "fen": pa.array([KINGS, None, KINGS]).dictionary_encode(),
        "side": pa.array([None, None, None], pa.null()),
    })
    enriched = enrich_table(table, "kcp-13")
    assert enriched.column("error").to_pylist() == [None, "row has no 'fen' string", "row has no 'id'"]
    assert enriched.column("features").to_pylist()[0] == pytest.approx(KINGS_KCP13)


def test_enrich_table_names_the_known_schemas() -> None:
    """Was: a bare ``KeyError: 'kcp-14'``."""
    with pytest.raises(UnknownSchemaError, match="unknown featureSchema 'kcp-14'; known schemas: kcp-13, "):
        enrich_table(pa.table({"id": ["a"], "fen": [KINGS]}), "kcp-14")


def test_pandas_numpy_scalars_are_values_and_float_ids_get_a_hint() -> None:
    """Was: ``np.int64(1)`` in an object column refused as an id; a float id (what pandas makes of an
    integer column with a missing value) refused with no clue why the ids are floats."""
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"id": pd.Series([np.int64(7), "x"], dtype=object), "fen": [KINGS, KINGS]})
    enriched = enrich_table(frame, "kcp-13")
    assert enriched["error"].isna().tolist() == [True, True]
    assert list(enriched["features"].iloc[0]) == pytest.approx(KINGS_KCP13)
    floats = pd.DataFrame({"id": [1, None], "fen": [KINGS, KINGS]})
    errors = enrich_table(floats, "kcp-13")["error"].tolist()
    assert errors[0] == "'id' must be a string or an integer, not 1.0; pandas turns an integer column" \
        " with missing values into floats: give 'id' the nullable dtype 'Int64' (or strings)"
    assert errors[1] == "row has no 'id'"


def test_a_parts_directory_killed_before_its_state_was_written_is_started_afresh(tmp_path: Path) -> None:
    """Was: refused as "holds the finished chunks of an interrupted run" (and with --resume as an
    unreadable state.json) although nothing had been done."""
    source = write_jsonl(tmp_path / "in.jsonl", [{"id": "a", "fen": KINGS}])
    parts = tmp_path / "out.jsonl.parts"
    parts.mkdir()
    (parts / ".state.json.tmp-0123456789ab").write_text("{")
    for resume in (False, True):
        summary = enrich_file(Options("kcp-13", source, tmp_path / "out.jsonl", resume=resume, quiet=True))
        assert (summary.rows, summary.rejected) == (1, 0)
        assert not parts.exists()
        parts.mkdir()


def test_sigterm_stops_a_run_as_ctrl_c_does(tmp_path: Path) -> None:
    """Was: SIGTERM (a scheduler preempting the job) ended the process on the spot; now the finished
    chunks are kept, one message names --resume, exit 130, and the resumed run completes."""
    source = write_jsonl(tmp_path / "in.jsonl", corpus_rows(400))
    output = tmp_path / "out.jsonl"
    argv = ["--schema", "kcp-13", "--input", str(source), "--output", str(output), "--chunk-size", "10", "--quiet"]
    child = subprocess.Popen([sys.executable, "-m", "contract", "extract", *argv], env=cli_env(),
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not list((tmp_path / "out.jsonl.parts").glob("part-*.rows.jsonl")):
            assert child.poll() is None and time.monotonic() < deadline
            time.sleep(0.002)
        child.send_signal(signal.SIGTERM)
        _, stderr = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 130, stderr
    assert stderr == (f"extract: interrupted; finished chunks are kept in {tmp_path / 'out.jsonl.parts'}:"
                      " rerun with --resume to continue\n")
    assert names(tmp_path) == ["in.jsonl", "out.jsonl.parts"]
    summary = enrich_file(Options("kcp-13", source, output, chunk_size=10, resume=True, quiet=True))
    assert summary.rows + summary.rejected == 400 and summary.resumed > 0


def test_a_pipe_as_bulk_input_says_how_to_read_it(tmp_path: Path) -> None:
    """Was: "no such input file" for a FIFO or a directory that exists."""
    fifo = tmp_path / "rows.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(EnrichmentError, match=r"rows.jsonl: not a regular file; to read a pipe or stdin use --input -"):
        enrich_file(Options("kcp-13", fifo, tmp_path / "out.jsonl"))
    assert names(tmp_path) == ["rows.jsonl"]
