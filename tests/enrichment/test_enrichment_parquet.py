"""Parquet enrichment and the plain table function (needs the [parquet] extra: pyarrow)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from enrichment_data import corpus_rows

import contract
from contract.core import registry
from contract.enrichment import EnrichmentError, Options, enrich_file, enrich_table
from contract.enrichment.runs import pipeline

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def write_parquet(path: Path, rows: list[dict[str, Any]], row_group_size: int = 1000) -> Path:
    table = pa.table({
        "id": pa.array([row["id"] for row in rows], pa.string()),
        "fen": pa.array([row["fen"] for row in rows], pa.string()),
        "side": pa.array([row.get("side") for row in rows], pa.string()),
        "ply": pa.array([row.get("ply", 0) for row in rows], pa.int32()),
    })
    pq.write_table(table, path, row_group_size=row_group_size)
    return path


def test_kcp13_sample_matches_the_recorded_vectors(tmp_path: Path, kcp13_golden: dict[str, Any]) -> None:
    probes = kcp13_golden["probes"]
    source = write_parquet(tmp_path / "probes.parquet", probes, row_group_size=10)
    summary = enrich_file(Options("kcp-13", source, tmp_path / "out.parquet", chunk_size=8))
    assert (summary.rows, summary.rejected) == (27, 0)
    table = pq.read_table(tmp_path / "out.parquet")
    assert table.column_names == ["id", "fen", "side", "ply", "features"]
    assert table.column("id").to_pylist() == [p["id"] for p in probes]
    vectors = np.asarray(table.column("features").to_pylist(), dtype=np.float32)
    recorded = np.asarray([p["features"] for p in probes], dtype=np.float32)
    assert vectors.tobytes() == recorded.tobytes()


def test_schema_metadata_and_row_groups(tmp_path: Path) -> None:
    source = write_parquet(tmp_path / "in.parquet", corpus_rows(250), row_group_size=70)
    enrich_file(Options("rich-9-v1", source, tmp_path / "out.parquet", chunk_size=100))
    handle = pq.ParquetFile(tmp_path / "out.parquet")
    features = handle.schema_arrow.field("features").type
    assert pa.types.is_fixed_size_list(features)
    assert (features.list_size, features.value_type) == (9, pa.float32())
    meta = json.loads(handle.schema_arrow.metadata[b"dicechess.enrichment"])
    assert meta["schema"] == "rich-9-v1"
    assert meta["columns"] == list(registry.get("rich-9-v1").columns)
    assert meta["kitVersion"] == contract.__version__
    sizes = [handle.metadata.row_group(i).num_rows for i in range(handle.metadata.num_row_groups)]
    assert sizes == [100, 100, 50]
    assert (tmp_path / "out.parquet.rejects.jsonl").read_bytes() == b""


def test_rejects_keep_id_row_number_and_error(tmp_path: Path) -> None:
    rows = corpus_rows(30)
    rows[3]["fen"] = "8/8/8/8 w - -"
    rows[17]["side"] = "B"
    rows[25]["side"] = None  # null side: the FEN's side to move
    source = write_parquet(tmp_path / "in.parquet", rows)
    summary = enrich_file(Options("material-7-v1", source, tmp_path / "out.parquet", chunk_size=8))
    rejects = [json.loads(line) for line in (tmp_path / "out.parquet.rejects.jsonl").read_text().splitlines()]
    assert [(r["id"], r["line"]) for r in rejects] == [("row-3", 4), ("row-17", 18)]
    assert "8/8/8/8" in rejects[0]["error"] and "'B'" in rejects[1]["error"]
    assert summary.rows == 28
    ids = pq.read_table(tmp_path / "out.parquet").column("id").to_pylist()
    assert ids == [row["id"] for index, row in enumerate(rows) if index not in (3, 17)]


@pytest.mark.slow
def test_two_workers_and_a_resume_write_the_same_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rows = corpus_rows(900)
    rows[444]["fen"] = "garbage"
    source = write_parquet(tmp_path / "in.parquet", rows, row_group_size=333)
    enrich_file(Options("kcp-13", source, tmp_path / "one.parquet", chunk_size=64))
    enrich_file(Options("kcp-13", source, tmp_path / "two.parquet", chunk_size=64, jobs=2))

    real = pipeline.run_chunk
    calls = {"n": 0}

    def interrupted(task: pipeline.ChunkTask) -> pipeline.ChunkResult:
        if calls["n"] == 4:
            raise KeyboardInterrupt
        calls["n"] += 1
        return real(task)

    with monkeypatch.context() as patch:
        patch.setattr(pipeline, "run_chunk", interrupted)
        with pytest.raises(KeyboardInterrupt):
            enrich_file(Options("kcp-13", source, tmp_path / "resumed.parquet", chunk_size=64))
    assert not (tmp_path / "resumed.parquet").exists()
    summary = enrich_file(Options("kcp-13", source, tmp_path / "resumed.parquet", chunk_size=64, resume=True))
    assert summary.resumed == 4 * 64
    for name in ("two", "resumed"):
        for suffix in ("", ".rejects.jsonl"):
            assert (tmp_path / f"one.parquet{suffix}").read_bytes() == (tmp_path / f"{name}.parquet{suffix}").read_bytes()


def test_inputs_that_cannot_be_enriched_are_refused(tmp_path: Path) -> None:
    not_parquet = tmp_path / "text.parquet"
    not_parquet.write_text("id,fen\n", encoding="utf-8")
    with pytest.raises(EnrichmentError, match="not a readable Parquet file"):
        enrich_file(Options("kcp-13", not_parquet, tmp_path / "out.parquet"))
    no_fen = tmp_path / "nofen.parquet"
    pq.write_table(pa.table({"id": ["a"], "position": ["8/8/8/8/8/8/8/8 w - -"]}), no_fen)
    with pytest.raises(EnrichmentError, match="no 'fen' column"):
        enrich_file(Options("kcp-13", no_fen, tmp_path / "out.parquet"))
    clash = tmp_path / "clash.parquet"
    pq.write_table(pa.table({"id": ["a"], "fen": ["8/8/8/8/8/8/8/8 w - -"], "features": [1.0]}), clash)
    with pytest.raises(EnrichmentError, match="already has a 'features' column"):
        enrich_file(Options("kcp-13", clash, tmp_path / "out.parquet"))
    assert not (tmp_path / "out.parquet").exists()


@pytest.mark.parametrize("output", ["out.jsonl", "out.parquet"])
def test_a_file_that_cannot_be_enriched_is_refused_before_any_parts_exist(tmp_path: Path, output: str) -> None:
    """Was: to JSONL output a Parquet input without 'fen' was found out by the first chunk, after
    OUT.parts/ was created, and left it behind: a rerun was then refused as an interrupted run."""
    no_fen = tmp_path / "nofen.parquet"
    pq.write_table(pa.table({"id": ["a"], "position": ["8/8/8/8/8/8/8/8 w - -"]}), no_fen)
    for _ in range(2):  # the same message again, not "holds the finished chunks of an interrupted run"
        with pytest.raises(EnrichmentError, match=r"^the input has no 'fen' column \(columns: id, position\)$"):
            enrich_file(Options("kcp-13", no_fen, tmp_path / output))
    assert sorted(path.name for path in tmp_path.iterdir()) == ["nofen.parquet"]


def test_enrich_table_is_the_same_function_on_arrow_and_pandas(kcp13_golden: dict[str, Any]) -> None:
    pd = pytest.importorskip("pandas")
    probes = kcp13_golden["probes"]
    rows = [{"id": p["id"], "fen": p["fen"], "side": p["side"]} for p in probes]
    rows.append({"id": "bad", "fen": "x", "side": "w"})
    arrow = enrich_table(pa.Table.from_pylist(rows), "kcp-13")
    frame = pd.DataFrame(rows, index=pd.RangeIndex(100, 100 + len(rows)))
    enriched = enrich_table(frame, "kcp-13")
    assert list(enriched.index) == list(frame.index)
    assert list(enriched.columns) == ["id", "fen", "side", "features", "error"]
    errors = [None if pd.isna(error) else error for error in enriched["error"].tolist()]
    assert errors == arrow.column("error").to_pylist()
    assert errors[:27] == [None] * 27 and "'x'" in errors[27]
    recorded = np.asarray([p["features"] for p in probes], dtype=np.float32)
    from_arrow = np.asarray(arrow.column("features").to_pylist()[:27], dtype=np.float32)
    from_pandas = np.asarray([np.asarray(v) for v in enriched["features"].tolist()[:27]], dtype=np.float32)
    assert from_arrow.tobytes() == recorded.tobytes() == from_pandas.tobytes()
    assert arrow.column("features")[27].as_py() is None


def test_an_empty_table_gives_an_empty_enriched_table(tmp_path: Path) -> None:
    source = write_parquet(tmp_path / "in.parquet", [])
    summary = enrich_file(Options("kcp-13", source, tmp_path / "out.parquet"))
    assert (summary.rows, summary.rejected) == (0, 0)
    table = pq.read_table(tmp_path / "out.parquet")
    assert table.num_rows == 0
    assert table.column_names == ["id", "fen", "side", "ply", "features"]


def test_view_type_columns_are_read_as_plain_types(tmp_path: Path) -> None:
    """Was: ``string_view``/``binary_view`` columns (which the schema check accepted) ended in an
    ``ArrowNotImplementedError`` traceback and left ``OUT.parts`` behind."""
    rows = corpus_rows(30)
    rows[4]["fen"] = "not a fen"
    source = tmp_path / "views.parquet"
    pq.write_table(pa.table({
        "id": pa.array([row["id"] for row in rows], pa.string_view()),
        "fen": pa.array([row["fen"] for row in rows], pa.string_view()),
        "blob": pa.array([str(row["ply"]).encode() for row in rows], pa.binary_view()),
        "tags": pa.array([[row["side"]] for row in rows], pa.list_(pa.string_view())),
    }), source)
    assert pq.read_schema(source).field("fen").type == pa.string_view()
    summary = enrich_file(Options("material-7-v1", source, tmp_path / "out.parquet", chunk_size=8))
    assert (summary.rows, summary.rejected) == (29, 1)
    table = pq.read_table(tmp_path / "out.parquet")
    assert table.schema.field("id").type == pa.string()
    assert table.schema.field("blob").type == pa.binary()
    assert table.schema.field("tags").type == pa.list_(pa.string())
    assert table.column("blob").to_pylist() == [str(row["ply"]).encode() for index, row in enumerate(rows) if index != 4]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["out.parquet", "out.parquet.rejects.jsonl",
                                                                 "views.parquet"]


def test_a_corrupt_parquet_names_the_file_and_leaves_nothing_that_blocks_a_rerun(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Was: "Corrupt snappy compressed data." without the file, and ``OUT.parts`` left so that a plain
    rerun was refused as "interrupted"."""
    from contract.cli import main

    source = write_parquet(tmp_path / "in.parquet", corpus_rows(3000), row_group_size=500)
    data = bytearray(source.read_bytes())
    handle = pq.ParquetFile(source)
    column = handle.metadata.row_group(3).column(1)  # the fen column of the fourth row group
    start = column.data_page_offset
    for offset in range(start + 40, start + column.total_compressed_size - 8):
        data[offset] ^= 0x5A
    broken = tmp_path / "broken.parquet"
    broken.write_bytes(bytes(data))
    argv = ["extract", "--schema", "material-7-v1", "--input", str(broken), "--output", str(tmp_path / "out.parquet"),
            "--chunk-size", "500", "--quiet"]
    for _ in range(2):  # the rerun fails the same way: not "interrupted"
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"extract: {broken}: the Parquet data cannot be read (")
        assert err.endswith("); nothing was written\n") and "Traceback" not in err
        assert sorted(path.name for path in tmp_path.iterdir()) == ["broken.parquet", "in.parquet"]


def test_wide_rows_make_smaller_chunks_and_dask_cuts_the_same_row_groups(tmp_path: Path) -> None:
    """Was: a chunk was always --chunk-size rows whatever their size (2,000 rows of ~1 MB peaked at 6.7 GiB)."""
    from contract.enrichment import DEFAULT_CHUNK_BYTES
    from contract.enrichment.parquet import parquetfile
    from contract.enrichment.runs.shards import write_shard

    rows = corpus_rows(120)
    payload = bytes(range(256)) * (1 << 10)  # 256 KiB per row, not compressible to nothing
    source = tmp_path / "wide.parquet"
    pq.write_table(pa.table({
        "id": [row["id"] for row in rows], "fen": [row["fen"] for row in rows],
        "payload": pa.array([payload[index:] + payload[:index] for index in range(120)], pa.binary()),
    }), source, row_group_size=60, compression="none")
    per_chunk = parquetfile.rows_per_chunk(source, 1000, DEFAULT_CHUNK_BYTES)
    assert per_chunk < 1000 and per_chunk * len(payload) <= DEFAULT_CHUNK_BYTES
    summary = enrich_file(Options("material-7-v1", source, tmp_path / "out.parquet"))
    assert (summary.rows, summary.rejected) == (120, 0)
    out = pq.ParquetFile(tmp_path / "out.parquet").metadata
    groups = [out.row_group(index).num_rows for index in range(out.num_row_groups)]
    assert max(groups) == per_chunk and sum(groups) == 120
    enriched = enrich_table(parquetfile.read_plain_table(source), "material-7-v1")
    write_shard(enriched, source, tmp_path / "dask.parquet", "material-7-v1", 1000)
    assert (tmp_path / "dask.parquet").read_bytes() == (tmp_path / "out.parquet").read_bytes()
