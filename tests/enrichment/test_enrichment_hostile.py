"""Hostile input to ``extract`` from the review of 2026-12-01 (issue 22: H9, H10, H13).

Each test failed on 7f9a987 (the reviewed commit): a traceback and a stale ``OUT.parts`` for a
lone-surrogate id into Parquet, one chunk of every row for a dictionary-encoded file whatever its
decoded size, a cell of any size read and carried, and a ``list_view`` column refusing the file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from enrichment_data import corpus_rows

from contract.cli import main
from contract.core.strictjson import MAX_BYTES as CELL_LIMIT
from contract.enrichment import DEFAULT_CHUNK_BYTES, Options, enrich_file

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"


def test_a_lone_surrogate_id_is_rejected_into_parquet_output(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """H9: was ``UnicodeEncodeError`` as a traceback, ``OUT.parts`` left, the rerun refused."""
    source = tmp_path / "in.jsonl"
    source.write_text(f'{{"id": "\\ud800", "fen": "{START}"}}\n{{"id": "ok", "fen": "{START}"}}\n')
    out = tmp_path / "out.parquet"
    argv = ["extract", "--schema", "material-7-v1", "--input", str(source), "--output", str(out), "--quiet"]
    assert main(argv) == 1
    assert "Traceback" not in capsys.readouterr().err
    assert pq.read_table(out).column("id").to_pylist() == ["ok"]
    (reject,) = [json.loads(line) for line in (tmp_path / "out.parquet.rejects.jsonl").read_text().splitlines()]
    assert reject["line"] == 1 and reject["error"].startswith("id is not valid Unicode")
    assert not (tmp_path / "out.parquet.parts").exists()
    assert main([*argv, "--overwrite"]) == 1  # a rerun is not refused as "interrupted"

    import io

    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(source.read_bytes())))
    stream_out = tmp_path / "s.parquet"
    assert main(["extract", "--schema", "material-7-v1", "--input", "-", "--output", str(stream_out)]) == 1
    err = capsys.readouterr().err
    assert "extract: line 1 (id '\\ud800'): id is not valid Unicode" in err and "Traceback" not in err
    assert pq.read_table(stream_out).column("id").to_pylist() == ["ok"]


def _dictionary_file(path: Path, rows: int, cell: int) -> Path:
    value = b"\x01" * cell
    pq.write_table(pa.table({
        "id": [f"r{index}" for index in range(rows)], "fen": [START] * rows,
        "payload": pa.array([value] * rows, pa.large_binary()),
    }), path, compression="zstd", row_group_size=rows)
    return path


def test_a_dictionary_encoded_file_is_cut_by_its_decoded_bytes(tmp_path: Path) -> None:
    """H10: the byte budget trusted the metadata, which dictionary encoding makes tiny: 300 rows of one
    900 KB value are a few KB on disk and were one 270 MB chunk; now chunks hold about 16 MiB."""
    source = _dictionary_file(tmp_path / "dict.parquet", 300, 900_000)
    assert source.stat().st_size < 100_000
    summary = enrich_file(Options("material-7-v1", source, tmp_path / "out.parquet"))
    assert (summary.rows, summary.rejected) == (300, 0)
    meta = pq.ParquetFile(tmp_path / "out.parquet").metadata
    groups = [meta.row_group(index).num_rows for index in range(meta.num_row_groups)]
    assert sum(groups) == 300
    assert max(groups) * 900_000 <= DEFAULT_CHUNK_BYTES + 900_000, groups
    assert pq.read_table(tmp_path / "out.parquet").column("payload").to_pylist()[299] == b"\x01" * 900_000


@pytest.mark.parametrize("rows", [1, 40])
def test_a_cell_over_the_limit_refuses_the_file_naming_row_and_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rows: int
) -> None:
    """H10: a cell of any size was decoded and carried (one 1 GiB cell in a 33 KB file: 8.2 GB).
    A cell is capped as a JSONL line is; one row (the metadata shows it) is refused before any read."""
    source = _dictionary_file(tmp_path / "big.parquet", rows, CELL_LIMIT + 1)
    if rows > 1:  # one oversized cell among small ones: found while reading, by its decoded length
        table = pq.read_table(source)
        cells = [b"x"] * rows
        cells[17] = b"\x02" * (CELL_LIMIT + 1)
        table = table.set_column(2, "payload", pa.array(cells, pa.large_binary()))
        pq.write_table(table, source, compression="zstd")
    out = tmp_path / "out.parquet"
    assert main(["extract", "--schema", "material-7-v1", "--input", str(source), "--output", str(out),
                 "--quiet", "--chunk-size", "8"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and f"a cell may hold at most {CELL_LIMIT} bytes" in err
    assert ("row 18 column 'payload'" in err) if rows > 1 else ("column 'payload'" in err)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["big.parquet"]


def test_a_list_view_column_is_read_as_a_list(tmp_path: Path) -> None:
    """H13: Arrow's cast of a list view gave an invalid list, and extract called the file unreadable."""
    rows = corpus_rows(50)
    tags = [None if index % 7 == 3 else list(range(index % 4)) for index in range(50)]
    nested = [{"v": [index, index + 1]} for index in range(50)]
    source = tmp_path / "lv.parquet"
    pq.write_table(pa.table({
        "id": [row["id"] for row in rows], "fen": [row["fen"] for row in rows],
        "tags": pa.array(tags, pa.list_view(pa.int32())),
        "big": pa.array(tags, pa.large_list_view(pa.int64())),
        "nested": pa.array(nested, pa.struct([("v", pa.list_view(pa.int16()))])),
    }), source, row_group_size=20)
    summary = enrich_file(Options("material-7-v1", source, tmp_path / "out.parquet", chunk_size=7))
    assert (summary.rows, summary.rejected) == (50, 0)
    table = pq.read_table(tmp_path / "out.parquet")
    assert table.schema.field("tags").type == pa.list_(pa.int32())
    assert table.schema.field("big").type == pa.large_list(pa.int64())
    assert table.schema.field("nested").type == pa.struct([("v", pa.list_(pa.int16()))])
    assert table.column("tags").to_pylist() == tags
    assert table.column("big").to_pylist() == tags
    assert table.column("nested").to_pylist() == nested


@pytest.mark.skipif(not hasattr(__import__("os"), "mkfifo"), reason="FIFOs are POSIX")
def test_resume_never_waits_on_a_fifo_in_the_parts_directory(tmp_path: Path) -> None:
    """Issue 22 audit: ``--resume`` read ``OUT.parts/state.json`` with ``read_bytes()``: a FIFO there made
    it wait forever for a writer. It is read as a capped regular file now."""
    import os

    from enrichment_data import run_cli, write_jsonl

    source = write_jsonl(tmp_path / "in.jsonl", corpus_rows(20))
    out = tmp_path / "out.jsonl"
    (tmp_path / "out.jsonl.parts").mkdir()
    os.mkfifo(tmp_path / "out.jsonl.parts" / "state.json")
    done = run_cli("extract", "--schema", "material-7-v1", "--input", source, "--output", out, "--resume",
                   timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert f"cannot resume: {tmp_path / 'out.jsonl.parts' / 'state.json'} is unreadable (" in done.stderr
    assert "not a regular file" in done.stderr
