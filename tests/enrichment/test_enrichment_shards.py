"""``enrich-shards``: the training repository's raw shards in, its enriched shards out (issue 24 part 1).

The format is checked with a double of the training reader (``training_reader``), written from what the
real one accepted live; the values against the engine's live recording, bit for bit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from enrichment_data import REPO

from contract.cli import main
from contract.core import registry
from contract.enrichment import EnrichmentError
from contract.enrichment.runs.shardrun import ShardOptions, enrich_shards
from contract.recordings import enginelive

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
from training_reader import BASE, content_digest, read_enriched  # noqa: E402  (needs pyarrow)

KCP_SCHEMAS = ("kcp-13", "kcp-mobility-27-v1", "kcp-mobility-pawns-31-v1")


def live_positions() -> list[enginelive.LivePosition]:
    """The engine's recorded positions whose side is the FEN's side to move (a raw shard's rule)."""
    positions = enginelive.read(REPO / enginelive.VECTORS_FILE)
    return [p for p in positions if p.fen.split()[1] == p.side]


def raw_rows(positions: list[Any], game: str = "g") -> list[dict[str, Any]]:
    return [{"game_id": f"{game}{index // 9}", "ply": index % 9, "fen": p.fen, "dice": "PNK", "side": p.side,
             "result": (0.0, 0.5, 1.0)[index % 3]} for index, p in enumerate(positions)]


def write_raw(path: Path, rows: list[dict[str, Any]], metadata: dict[bytes, bytes] | None = None,
              schema: Any = None) -> Path:
    """A raw shard as the training repository's ``write_shard`` writes one (six typed columns, ``v0``)."""
    schema = schema or pa.schema(list(BASE.items()))
    table = pa.Table.from_pylist(rows, schema=schema) if rows else schema.empty_table()
    pq.write_table(table.replace_schema_metadata(
        {b"dicechess_training_schema": b"v0", **(metadata or {})}), path)
    return path


START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"


def simple_rows(count: int, game: str = "a") -> list[dict[str, Any]]:
    return [{"game_id": game, "ply": ply, "fen": START, "dice": "pnk", "side": "w", "result": 1.0}
            for ply in range(count)]


@pytest.mark.parametrize("schema_id", registry.schema_ids())
def test_the_feature_columns_equal_the_engines_recorded_vectors(tmp_path: Path, schema_id: str) -> None:
    positions = live_positions()
    if schema_id.startswith("kcp"):
        positions = positions[::4]  # the slow extractors: a quarter of the ~980 positions
    (tmp_path / "raw").mkdir()
    write_raw(tmp_path / "raw" / "s.parquet", raw_rows(positions))
    summary = enrich_shards(ShardOptions(schema_id, tmp_path / "raw", tmp_path / "out", quiet=True, chunk_size=97))
    assert summary.refused == [] and summary.rows == len(positions)
    table = read_enriched(tmp_path / "out" / "s.parquet", schema_id, registry.get(schema_id).columns, "0.12.0")
    got = np.stack([table.column(name).to_numpy() for name in registry.get(schema_id).columns], axis=1)
    recorded = np.asarray([p.bits[schema_id] for p in positions], dtype=np.uint32)
    assert np.array_equal(got.view(np.uint32), recorded)


def test_the_enriched_shard_has_the_readers_layout_and_keeps_the_raw_metadata(tmp_path: Path) -> None:
    (tmp_path / "raw").mkdir()
    rows = simple_rows(5)
    rows[2]["fen"] = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3"  # 4 fields: clocks 0 1
    rows[2]["side"] = "b"
    write_raw(tmp_path / "raw" / "x.parquet", rows, {b"producer": b"analytics-export 3"})
    assert main(["enrich-shards", str(tmp_path / "raw"), str(tmp_path / "out"), "--schema", "kcp-13",
                 "--quiet"]) == 0
    path = tmp_path / "out" / "x.parquet"
    table = read_enriched(path, "kcp-13", registry.get("kcp-13").columns, "0.12.0")
    meta = pq.read_schema(path).metadata
    assert meta[b"dicechess_training_schema"] == b"v0-enriched"
    assert meta[b"columns"] == ",".join(registry.get("kcp-13").columns).encode()
    assert meta[b"producer"] == b"analytics-export 3"
    raw = pq.read_table(tmp_path / "raw" / "x.parquet")
    assert table.select(list(BASE)).equals(raw.select(list(BASE)))  # base columns unchanged (dice 'pnk' too)
    explicit = tmp_path / "clocks"
    explicit.mkdir()
    rows[2]["fen"] += " 0 1"
    write_raw(explicit / "x.parquet", rows)
    enrich_shards(ShardOptions("kcp-13", explicit, tmp_path / "out2", quiet=True))
    other = pq.read_table(tmp_path / "out2" / "x.parquet")
    for name in registry.get("kcp-13").columns:
        assert other.column(name).equals(table.column(name))


def _run(*args: str | Path) -> int:
    return main(["enrich-shards", *map(str, args), "--quiet"])


@pytest.mark.parametrize(("change", "message"), [
    (lambda rows: rows[3].update(side="b"), "side/FEN mismatch in game 'a' ply 3 (side 'b', the FEN's active"),
    (lambda rows: rows[4].update(fen="rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"),
     "FEN error in game 'a' ply 4: "),
    (lambda rows: rows[1].update(dice="PNX"), "game 'a' ply 1: dice 'PNX' are not 3 letters from 'PNBRQK'"),
    (lambda rows: rows[2].update(result=0.25), "game 'a' ply 2: result 0.25 is not 0.0, 0.5 or 1.0"),
    (lambda rows: rows[0].update(ply=-1), "game 'a' ply -1: ply -1 is negative"),
    (lambda rows: rows[5].update(fen="  "), "game 'a' ply 5: fen is empty"),
])
def test_a_bad_row_refuses_its_shard_only(tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Any,
                                          message: str) -> None:
    (tmp_path / "raw").mkdir()
    bad = simple_rows(12)
    change(bad)
    write_raw(tmp_path / "raw" / "a.parquet", bad)
    write_raw(tmp_path / "raw" / "b.parquet", simple_rows(3, "b"))
    assert _run(tmp_path / "raw", tmp_path / "out", "--schema", "material-7-v1") == 1
    err = capsys.readouterr().err
    assert f"enrich-shards: {tmp_path / 'raw' / 'a.parquet'}: {message}" in err, err
    assert err.rstrip().endswith("0 kept, 1 refused") and "Traceback" not in err
    assert sorted(path.name for path in (tmp_path / "out").iterdir()) == ["b.parquet"]


@pytest.mark.parametrize(("schema", "metadata", "message"), [
    (pa.schema([(n, t) for n, t in BASE.items() if n != "dice"]), None, "missing column 'dice'"),
    (pa.schema([(n, pa.int64() if n == "ply" else t) for n, t in BASE.items()]), None,
     "column 'ply' has type int64, expected int32"),
    (None, {b"dicechess_training_schema": b"v1"}, "shard schema version 'v1' is not 'v0'"),
])
def test_a_shard_that_is_not_schema_v0_is_refused_naming_the_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], schema: Any, metadata: Any, message: str
) -> None:
    (tmp_path / "raw").mkdir()
    rows = simple_rows(3)
    if schema is not None:
        rows = [{key: value for key, value in row.items() if key in schema.names} for row in rows]
    write_raw(tmp_path / "raw" / "a.parquet", rows, metadata, schema)
    assert _run(tmp_path / "raw" / "a.parquet", tmp_path / "out", "--schema", "kcp-13") == 1
    err = capsys.readouterr().err
    assert f"{tmp_path / 'raw' / 'a.parquet'}: {message}" in err and "Traceback" not in err
    assert list((tmp_path / "out").iterdir()) == []


def test_outputs_are_never_clobbered_and_never_beside_the_input(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "raw").mkdir()
    write_raw(tmp_path / "raw" / "a.parquet", simple_rows(3))
    assert _run(tmp_path / "raw", tmp_path / "raw", "--schema", "kcp-13") == 1
    assert "the output directory is the input directory" in capsys.readouterr().err
    assert _run(tmp_path / "raw" / "a.parquet", tmp_path / "raw", "--schema", "kcp-13") == 1
    assert "the output directory is the input directory" in capsys.readouterr().err
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "a.parquet").write_bytes(b"mine")
    assert _run(tmp_path / "raw", tmp_path / "out", "--schema", "kcp-13") == 1
    assert "a.parquet: the output exists; pass --overwrite" in capsys.readouterr().err
    assert _run(tmp_path / "raw", tmp_path / "out", "--schema", "kcp-13", "--resume") == 1
    assert "exists but is not this run's finished shard (it is not a readable Parquet file" in capsys.readouterr().err
    assert (tmp_path / "out" / "a.parquet").read_bytes() == b"mine"
    assert _run(tmp_path / "raw", tmp_path / "out", "--schema", "kcp-13", "--overwrite") == 0
    read_enriched(tmp_path / "out" / "a.parquet", "kcp-13", registry.get("kcp-13").columns, None)


def test_resume_keeps_finished_shards_and_writes_the_rest(tmp_path: Path) -> None:
    (tmp_path / "raw").mkdir()
    for name in "abc":
        write_raw(tmp_path / "raw" / f"{name}.parquet", simple_rows(4, name))
    first = enrich_shards(ShardOptions("rich-9-v1", tmp_path / "raw", tmp_path / "out", quiet=True))
    digests = {path.name: content_digest(path) for path in (tmp_path / "out").iterdir()}
    (tmp_path / "out" / "b.parquet").unlink()
    kept = (tmp_path / "out" / "a.parquet").stat().st_mtime_ns
    again = enrich_shards(ShardOptions("rich-9-v1", tmp_path / "raw", tmp_path / "out", quiet=True, resume=True))
    assert [name for name, _ in first.written] == ["a.parquet", "b.parquet", "c.parquet"]
    assert (again.kept, [name for name, _ in again.written]) == (["a.parquet", "c.parquet"], ["b.parquet"])
    assert (tmp_path / "out" / "a.parquet").stat().st_mtime_ns == kept
    assert {path.name: content_digest(path) for path in (tmp_path / "out").iterdir()} == digests
    enrich_shards(ShardOptions("kcp-mobility-27-v1", tmp_path / "raw", tmp_path / "m", quiet=True))
    with pytest.raises(EnrichmentError, match=r"its engine_version is '0\.12\.0', not '0\.9\.3'"):
        enrich_shards(ShardOptions("kcp-mobility-27-v1", tmp_path / "raw", tmp_path / "m", quiet=True,
                                   engine_version="0.9.3", resume=True))


def test_the_engine_version_is_one_the_kit_is_recorded_against(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "raw").mkdir()
    write_raw(tmp_path / "raw" / "a.parquet", simple_rows(2))
    assert _run(tmp_path / "raw", tmp_path / "out", "--schema", "kcp-13", "--engine-version", "0.13.0") == 2
    assert "--engine-version '0.13.0': the kit's kcp-13 values are recorded against engine" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
    assert _run(tmp_path / "raw", tmp_path / "out", "--schema", "kcp-mobility-pawns-31-v1",
                "--engine-version", "0.9.3") == 0
    assert pq.read_schema(tmp_path / "out" / "a.parquet").metadata[b"engine_version"] == b"0.9.3"
    assert _run(tmp_path / "raw", tmp_path / "o2", "--schema", "nope") == 2


@pytest.mark.slow
def test_jobs_do_not_change_a_byte(tmp_path: Path) -> None:
    (tmp_path / "raw").mkdir()
    positions = live_positions()[:300]
    for index in range(3):
        write_raw(tmp_path / "raw" / f"s{index}.parquet", raw_rows(positions[index::3], f"g{index}-"))
    for jobs in (1, 2):
        enrich_shards(ShardOptions("kcp-13", tmp_path / "raw", tmp_path / f"j{jobs}", jobs=jobs, quiet=True,
                                   chunk_size=37))
    for index in range(3):
        name = f"s{index}.parquet"
        assert (tmp_path / "j1" / name).read_bytes() == (tmp_path / "j2" / name).read_bytes()


def test_a_killed_runs_temporary_files_are_removed_by_the_next_run(tmp_path: Path) -> None:
    """Issue 22 audit: SIGKILL while a shard is written leaves its hidden temporary sibling, which every
    later run (``--resume`` too) left in OUTPUT_DIR for good. The next run, holding the directory's lock,
    removes those of its shards; any other file stays."""
    (tmp_path / "raw").mkdir()
    write_raw(tmp_path / "raw" / "s.parquet", simple_rows(4))
    out = tmp_path / "out"
    out.mkdir()
    (out / ".s.parquet.tmp-0123456789ab").write_bytes(b"half a shard")
    (out / ".other.parquet.tmp-0123456789ab").write_bytes(b"not one of this run's shards")
    (out / ".s.parquet.tmp-notours").write_bytes(b"not a kit temporary name")
    summary = enrich_shards(ShardOptions("material-7-v1", tmp_path / "raw", out, quiet=True))
    assert summary.refused == [] and summary.rows == 4
    assert sorted(path.name for path in out.iterdir()) == [
        ".other.parquet.tmp-0123456789ab", ".s.parquet.tmp-notours", "s.parquet"]


@pytest.mark.parametrize("kind", ["directory", "fifo"])
def test_an_entry_named_like_a_shard_that_is_no_file_is_refused_not_skipped(tmp_path: Path, kind: str) -> None:
    """Issue 22 audit: a directory (Spark writes ``x.parquet/`` of part files) or a FIFO named ``*.parquet``
    in INPUT was skipped without a word, its rows missing from the output."""
    import os

    (tmp_path / "raw").mkdir()
    write_raw(tmp_path / "raw" / "a.parquet", simple_rows(3))
    odd = tmp_path / "raw" / "b.parquet"
    if kind == "directory":
        odd.mkdir()
        write_raw(odd / "part-0.parquet", simple_rows(2))
    else:
        if not hasattr(os, "mkfifo"):
            pytest.skip("FIFOs are POSIX")
        os.mkfifo(odd)
    with pytest.raises(EnrichmentError, match=f"^{odd}: named like a shard but not a regular file"):
        enrich_shards(ShardOptions("material-7-v1", tmp_path / "raw", tmp_path / "out", quiet=True))
    assert not (tmp_path / "out").exists()
    if kind == "directory":  # the directory itself is a valid INPUT
        summary = enrich_shards(ShardOptions("material-7-v1", odd, tmp_path / "out", quiet=True))
        assert summary.refused == [] and summary.rows == 2
