"""Helpers for the check-data tests: raw shards of the engine's recorded positions, enriched by the kit's own
``enrich-shards`` (the data check-data reads), the CLI run in-process, the example package."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from contract.cli import main
from contract.core.resources import schema_dir
from contract.recordings import enginelive

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "golden" / "example-package"
sys.path.insert(0, str(REPO / "tests" / "enrichment"))  # the training reader's double lives there

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

BASE = {"game_id": pa.string(), "ply": pa.int32(), "fen": pa.string(), "dice": pa.string(),
        "side": pa.string(), "result": pa.float32()}


def live_positions(count: int | None = None) -> list[enginelive.LivePosition]:
    """The engine's recorded positions whose side is the FEN's side to move (a raw shard's rule)."""
    positions = [p for p in enginelive.read(REPO / enginelive.VECTORS_FILE) if p.fen.split()[1] == p.side]
    return positions if count is None else positions[:count]


def write_raw(path: Path, positions: list[enginelive.LivePosition], game: str = "g") -> Path:
    rows = [{"game_id": f"{game}{index // 9}", "ply": index % 9, "fen": p.fen, "dice": "PNK", "side": p.side,
             "result": (0.0, 0.5, 1.0)[index % 3]} for index, p in enumerate(positions)]
    table = pa.Table.from_pylist(rows, schema=pa.schema(list(BASE.items())))
    pq.write_table(table.replace_schema_metadata({b"dicechess_training_schema": b"v0"}), path)
    return path


def enriched(tmp: Path, schema_id: str = "kcp-13", count: int = 60, shards: int = 2,
             engine: str | None = None) -> Path:
    """``shards`` raw shards of the recorded positions enriched by ``enrich-shards`` into ``tmp/OUT``."""
    raw, out = tmp / "raw", tmp / f"out-{schema_id}"
    raw.mkdir(exist_ok=True)
    positions = live_positions(count * shards)
    for index in range(shards):
        write_raw(raw / f"part-{index}.parquet", positions[index * count:(index + 1) * count], game=f"s{index}g")
    extra = [] if engine is None else ["--engine-version", engine]
    assert main(["enrich-shards", str(raw), str(out), "--schema", schema_id, "--quiet", *extra]) == 0
    return out


def check(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    """``check-data ARGS`` in this process: exit code, stdout, stderr."""
    capsys.readouterr()
    try:
        code = main(["check-data", *map(str, args)])
    except SystemExit as exc:  # argparse's usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def output_schema() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((schema_dir() / "output-check-data-1.schema.json").read_text("utf-8"))
    return loaded
