"""Hostile shards from the review of 2026-12-04 (issue 32: H1, L3, L4, L6).

Each test failed on a8a2603: a ``UnicodeDecodeError`` traceback (and the good shard of the run not written)
for a text cell that is not UTF-8; metadata that is not UTF-8 carried into the output; ``--resume`` keeping
an output made from other input bytes; Arrow's ``[errno 28]`` text in the disk-full message.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from contract.cli import main
from contract.core.oserrors import os_error_reason
from contract.enrichment.parquet import parquetfile
from contract.enrichment.runs.shardrun import ShardOptions, enrich_shards

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
from training_reader import BASE  # noqa: E402  (needs pyarrow)

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
EMPTY = "4k3/8/8/8/8/8/8/4K3 w - -"


def strings(values: list[bytes]) -> Any:
    """A ``string`` array holding exactly these bytes (Arrow does not check them, nor does Parquet)."""
    offsets = np.cumsum([0] + [len(value) for value in values]).astype(np.int32)
    return pa.Array.from_buffers(pa.string(), len(values), [None, pa.py_buffer(offsets.tobytes()),
                                                             pa.py_buffer(b"".join(values))])


def raw_shard(path: Path, rows: int = 4, *, bad: str | None = None, fen: str = START,
              metadata: dict[bytes, bytes] | None = None) -> Path:
    """A raw shard; with ``bad``, row 1 of that text column starts with the byte 0xff."""
    columns: dict[str, Any] = {
        "game_id": ["g"] * rows, "ply": pa.array(range(rows), pa.int32()), "fen": [fen] * rows,
        "dice": ["PNK"] * rows, "side": ["w"] * rows, "result": pa.array([1.0] * rows, pa.float32())}
    if bad is not None:
        cells = [str(value).encode() for value in columns[bad]]
        cells[1] = b"\xff" + cells[1]
        columns[bad] = strings(cells)
    table = pa.table(columns, schema=pa.schema(list(BASE.items())))
    pq.write_table(table.replace_schema_metadata({b"dicechess_training_schema": b"v0", **(metadata or {})}), path)
    return path


@pytest.mark.parametrize(("column", "jobs"), [("game_id", 1), ("fen", 1), ("dice", 1), ("side", 1), ("fen", 2)])
def test_a_text_cell_that_is_not_utf8_refuses_its_shard_only(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            column: str, jobs: int) -> None:
    """H1: was a UnicodeDecodeError traceback ending the run, the good shard not written."""
    (tmp_path / "raw").mkdir()
    raw_shard(tmp_path / "raw" / "a.parquet", bad=column)
    raw_shard(tmp_path / "raw" / "b.parquet")
    argv = ["enrich-shards", str(tmp_path / "raw"), str(tmp_path / "out"), "--schema", "material-7-v1",
            "--quiet", "--jobs", str(jobs)]
    assert main(argv) == 1
    err = capsys.readouterr().err
    game = "'\\\\xffg'" if column == "game_id" else "'g'"
    line = (f"enrich-shards: {tmp_path / 'raw' / 'a.parquet'}: game {game} ply 1: {column} is not UTF-8"
            " (byte 0xff at offset 0 of b'\\xff")
    assert line in err, err
    # 3 lines: the warning that the training reader refuses material-7-v1 shards, the refusal, the summary
    assert err.startswith("enrich-shards: warning: the shards are written, but the training repository's reader")
    assert "Traceback" not in err and err.count("\n") == 3 and "that shard was not written" in err
    assert sorted(path.name for path in (tmp_path / "out").iterdir()) == ["b.parquet"]


@pytest.mark.parametrize("column", ["id", "fen"])
def test_extract_rejects_a_row_whose_id_or_fen_is_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                          column: str) -> None:
    """H1 for ``extract``: the row is rejected (as a lone-surrogate id is), the others written."""
    cells = {"id": [b"a", b"b", b"c"], "fen": [START.encode()] * 3}
    cells[column][1] = b"\xff" + cells[column][1]
    source = tmp_path / "in.parquet"
    pq.write_table(pa.table({name: strings(values) for name, values in cells.items()}), source)
    out = tmp_path / "out.parquet"
    assert main(["extract", "--schema", "material-7-v1", "--input", str(source), "--output", str(out), "--quiet"]) == 1
    assert "Traceback" not in capsys.readouterr().err
    assert pq.read_table(out).column("id").to_pylist() == ["a", "c"]
    (reject,) = [json.loads(line) for line in (tmp_path / "out.parquet.rejects.jsonl").read_text().splitlines()]
    assert reject["line"] == 2 and reject["error"].startswith(f"{column} is not UTF-8 (byte 0xff at offset 0")
    assert reject["id"] == ("\\xffb" if column == "id" else "b")


@pytest.mark.parametrize(("metadata", "message"), [
    ({b"producer\xff": b"x"}, "schema metadata key b'producer\\xff' is not UTF-8"),
    ({b"producer": b"x\xfe"}, "the schema metadata value of key 'producer' is not UTF-8"),
])
def test_metadata_that_is_not_utf8_refuses_the_shard(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                     metadata: dict[bytes, bytes], message: str) -> None:
    """L3: was carried into the output (exit 0), which the training reader cannot read."""
    (tmp_path / "raw").mkdir()
    raw_shard(tmp_path / "raw" / "a.parquet", metadata=metadata)
    raw_shard(tmp_path / "raw" / "b.parquet")
    assert main(["enrich-shards", str(tmp_path / "raw"), str(tmp_path / "out"), "--schema", "material-7-v1",
                 "--quiet"]) == 1
    err = capsys.readouterr().err
    assert f"enrich-shards: {tmp_path / 'raw' / 'a.parquet'}: {message}" in err, err
    assert sorted(path.name for path in (tmp_path / "out").iterdir()) == ["b.parquet"]


def test_resume_writes_again_an_output_whose_input_changed(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """L4: an input rewritten with other positions (same row count) kept its old output on --resume."""
    (tmp_path / "raw").mkdir()
    raw_shard(tmp_path / "raw" / "a.parquet")
    raw_shard(tmp_path / "raw" / "b.parquet")
    argv = ["enrich-shards", str(tmp_path / "raw"), str(tmp_path / "out"), "--schema", "material-7-v1"]
    assert main(argv) == 0
    kept = (tmp_path / "out" / "b.parquet").read_bytes()
    raw_shard(tmp_path / "raw" / "a.parquet", fen=EMPTY)
    capsys.readouterr()
    assert main([*argv, "--resume"]) == 0
    err = capsys.readouterr().err
    assert "a.parquet: written again (its input is not the one the existing output was made from)" in err
    assert "b.parquet: kept (finished before --resume)" in err
    assert pq.read_table(tmp_path / "out" / "a.parquet").column("fen").to_pylist() == [EMPTY] * 4
    assert (tmp_path / "out" / "b.parquet").read_bytes() == kept


def test_a_full_disk_refuses_the_shard_with_the_systems_words(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """L6: the text was Arrow's ``Error writing bytes to file. Detail: [errno 28] …``. (The reproducer
    17 shows it on a real full tmpfs; here Arrow's exception is raised by the writer of one shard.)"""
    (tmp_path / "raw").mkdir()
    raw_shard(tmp_path / "raw" / "a.parquet")
    raw_shard(tmp_path / "raw" / "b.parquet")
    original = parquetfile.ParquetOutput.write
    out = tmp_path / "out"

    def write(self: Any, rows: Any) -> None:
        if self.path.name == "a.parquet":
            raise OSError("Error writing bytes to file. Detail: [errno 28] No space left on device")
        original(self, rows)

    monkeypatch.setattr(parquetfile.ParquetOutput, "write", write)
    summary = enrich_shards(ShardOptions("material-7-v1", tmp_path / "raw", out, quiet=True))
    assert summary.refused == [f"{out / 'a.parquet'}: cannot be written (No space left on device);"
                               " that shard was not written"]
    assert sorted(path.name for path in out.iterdir()) == ["b.parquet"]
    assert os_error_reason(OSError("Detail: [errno 28] No space left on device")) == "No space left on device"
