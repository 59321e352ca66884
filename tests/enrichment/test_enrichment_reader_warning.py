"""``enrich-shards --schema ID`` for a schema the training repository's reader refuses says so (issue #35,
newcomer item: rich-9-v1 shards were written without a word). The reader's list is the spec's
(../shared/spec/training-shards.md: a schema it has a contract module for), written here, not taken from the kit."""

from __future__ import annotations

from pathlib import Path

import pytest

from contract.cli import main
from contract.core import registry

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
from training_reader import BASE  # noqa: E402  (needs pyarrow)

READER_SCHEMAS = ("kcp-13", "kcp-mobility-27-v1", "kcp-mobility-pawns-31-v1")  # spec: training-shards.md
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


@pytest.mark.parametrize("schema_id", registry.schema_ids())
def test_a_schema_the_training_reader_refuses_is_named_in_a_warning(
        tmp_path: Path, schema_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    raw = tmp_path / "raw"
    raw.mkdir()
    rows = [{"game_id": "a", "ply": 0, "fen": START, "dice": "pnk", "side": "w", "result": 1.0}]
    table = pa.Table.from_pylist(rows, schema=pa.schema(list(BASE.items())))
    pq.write_table(table.replace_schema_metadata({b"dicechess_training_schema": b"v0"}), raw / "x.parquet")
    assert main(["enrich-shards", str(raw), str(tmp_path / "out"), "--schema", schema_id, "--quiet"]) == 0
    assert (tmp_path / "out" / "x.parquet").is_file()  # written all the same
    warnings = [line for line in capsys.readouterr().err.splitlines() if "warning:" in line]
    if schema_id in READER_SCHEMAS:
        assert warnings == []
    else:
        assert warnings == [
            "enrich-shards: warning: the shards are written, but the training repository's reader"
            " (read_enriched_shard) accepts only kcp-13, kcp-mobility-27-v1 and kcp-mobility-pawns-31-v1:"
            f" it will refuse these {schema_id} shards"]


def test_the_warning_needs_a_schema_id_the_kit_knows(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["enrich-shards", str(tmp_path), str(tmp_path / "out"), "--schema", "no-such-schema"]) == 2
    assert "warning" not in capsys.readouterr().err
