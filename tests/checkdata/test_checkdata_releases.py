"""``check-data`` recomputes each file's rows under the rule set of the release the file names: a shard that
``enrich-shards --engine-recording`` vouched for a release the kit does not carry (its stamp names the rule set
the recording showed) holds; told another rule set, the two-kings castle differs exactly where the engine's
recorded answers differ (``golden/recorded/engine-newest/edge-cases.jsonl``: ``newest`` the engine rebuilt from
its newest sources, ``kit`` engine-live's rules, 0.12.0's)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from checkdata_data import BASE, EXAMPLE, REPO, check, pa, pq

from contract.cli import main
from contract.core import registry

EDGE = REPO / "golden" / "recorded" / "engine-newest" / "edge-cases.jsonl"
SCHEMA = "kcp-13"
TWO_KINGS = "4k3/8/8/8/8/8/8/K3K2R w K - 0 1"
STAMP = b"dicechess.engine-recording"


def _edges() -> list[dict[str, Any]]:
    return [json.loads(line) for line in EDGE.read_text("utf-8").splitlines() if line.strip()]


def _bits(text: str) -> list[int]:
    return [int(text[i:i + 8], 16) for i in range(0, len(text), 8)]


def _recording(path: Path) -> Path:
    """A goldens-format recording of "0.14.0" made of the newest sources' recorded values."""
    probes = []
    for edge in _edges():
        text = edge["newest"][SCHEMA]
        if all(c in "0123456789abcdef" for c in text):
            values = [float(np.uint32(bits).view(np.float32)) for bits in _bits(text)]
            probes.append({"id": edge["label"].split()[1], "fen": edge["fen"], "side": edge["side"],
                           "features": values})
    path.write_text(json.dumps({"schema": SCHEMA, "perspective": "side-to-move", "engineVersion": "0.14.0",
                                "columns": list(registry.get(SCHEMA).columns), "probes": probes}), "utf-8")
    return path


@pytest.fixture
def vouched(tmp_path: Path) -> Path:
    raw = tmp_path / "raw"
    raw.mkdir()
    rows = [{"game_id": "g", "ply": 0, "fen": TWO_KINGS, "dice": "PNK", "side": "w", "result": 1.0}]
    pq.write_table(pa.Table.from_pylist(rows, schema=pa.schema(list(BASE.items()))).replace_schema_metadata(
        {b"dicechess_training_schema": b"v0"}), raw / "a.parquet")
    assert main(["enrich-shards", str(raw), str(tmp_path / "out"), "--schema", SCHEMA, "--quiet",
                 "--engine-version", "0.14.0", "--engine-recording", str(_recording(tmp_path / "rec.json"))]) == 0
    return tmp_path / "out" / "a.parquet"


def _restamped(shard: Path, target: Path, stamp: dict[str, Any] | None) -> Path:
    table = pq.read_table(shard)
    meta = {key: value for key, value in table.schema.metadata.items() if key != STAMP}
    if stamp is not None:
        meta[STAMP] = json.dumps(stamp).encode()
    pq.write_table(table.replace_schema_metadata(meta), target)
    return target


def test_a_vouched_release_is_recomputed_under_the_rule_set_its_recording_showed(
        vouched: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = check(capsys, EXAMPLE, vouched, "--recompute", "all")
    assert code == 0, err
    assert "engine 0.14.0; 1 of 1 rows recomputed" in err
    # without its stamp the kit knows no rules of 0.14.0: nothing to recompute with
    bare = _restamped(vouched, tmp_path / "bare.parquet", None)
    code, _, err = check(capsys, EXAMPLE, bare)
    assert code == 1
    assert "engine release '0.14.0': its rows cannot be recomputed" in err
    assert check(capsys, EXAMPLE, bare, "--recompute", "0")[0] == 0


def test_under_another_rule_set_the_two_kings_castle_differs_as_the_engines_recordings_do(
        vouched: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stamp = json.loads(pq.read_schema(vouched).metadata[STAMP])
    assert stamp["ruleSet"] == "newest-sources"
    told = _restamped(vouched, tmp_path / "told.parquet", {**stamp, "ruleSet": "engine-0.12.0"})
    (edge,) = [e for e in _edges() if e["label"] == "edge two-kings-castle-w"]
    newest, kit = _bits(edge["newest"][SCHEMA]), _bits(edge["kit"][SCHEMA])
    differing = [(registry.get(SCHEMA).columns[i], f"0x{a:08x}", f"0x{b:08x}")
                 for i, (a, b) in enumerate(zip(newest, kit, strict=True)) if a != b]
    assert differing  # the recorded answers differ on this position
    code, text, _ = check(capsys, EXAMPLE, told, "--recompute", "all", "--json")
    assert code == 1
    found = [(f["column"], f["stored"], f["recomputed"]) for f in json.loads(text)["files"][0]["findings"]]
    assert found == differing
