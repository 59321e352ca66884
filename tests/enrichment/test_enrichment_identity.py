"""Shard identity (issue 33 item 4): the kit's ``shard_content_digest`` equals the training repository's.

The expected digests were returned by the training repository's own ``shard_content_digest``, run live on
the kit's outputs of the recorded raw shards (``data/training-digests/README.md``); the kit never wrote them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from contract.cli import main
from contract.core.resources import schema_dir
from contract.enrichment import EnrichmentError, shard_content_digest
from contract.enrichment.runs.shardrun import ShardOptions, enrich_shards

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

RECORDED = Path(__file__).parent / "data" / "training-digests"


def recorded() -> dict[str, str]:
    document: dict[str, Any] = json.loads((RECORDED / "digests.json").read_text(encoding="utf-8"))
    digests: dict[str, str] = document["shardContentDigest"]
    return digests


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_kits_digest_equals_the_training_functions_recorded_live(tmp_path: Path, jobs: int) -> None:
    summary = enrich_shards(ShardOptions("kcp-13", RECORDED / "raw", tmp_path / "out", engine_version="0.12.0",
                                         jobs=jobs, quiet=True, chunk_size=17))
    assert summary.refused == []
    got = {path.name: shard_content_digest(path) for path in sorted((tmp_path / "out").iterdir())}
    assert got == recorded()


def test_the_digest_does_not_depend_on_the_writers_layout(tmp_path: Path) -> None:
    """Rows in another order, other row groups, another compression: the same digest (its purpose)."""
    enrich_shards(ShardOptions("kcp-13", RECORDED / "raw", tmp_path / "out", engine_version="0.12.0", quiet=True))
    table = pq.read_table(tmp_path / "out" / "part-1.parquet")
    shuffled = table.take(pa.array(list(reversed(range(table.num_rows)))))
    pq.write_table(shuffled, tmp_path / "other.parquet", row_group_size=7, compression="zstd")
    assert shard_content_digest(tmp_path / "other.parquet") == recorded()["part-1.parquet"]
    changed = shuffled.set_column(1, "ply", pa.array([0] * table.num_rows, pa.int32()))
    pq.write_table(changed, tmp_path / "changed.parquet")
    assert shard_content_digest(tmp_path / "changed.parquet") != recorded()["part-1.parquet"]


def test_a_file_that_is_no_enriched_shard_is_refused_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "x.parquet").write_bytes(b"not parquet")
    with pytest.raises(EnrichmentError, match=r"x\.parquet: not a readable Parquet file"):
        shard_content_digest(tmp_path / "x.parquet")
    pq.write_table(pa.table({"fen": ["x"]}), tmp_path / "y.parquet")
    with pytest.raises(EnrichmentError, match=r"y\.parquet: no 'game_id' column"):
        shard_content_digest(tmp_path / "y.parquet")


def test_enrich_shards_json_names_each_shards_digest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(json.loads((schema_dir() / "output-enrich-shards-1.schema.json").read_text()))
    raw = tmp_path / "raw"
    shutil.copytree(RECORDED / "raw", raw)
    argv = ["enrich-shards", str(raw), str(tmp_path / "out"), "--schema", "kcp-13", "--engine-version", "0.12.0"]
    assert main([*argv, "--json"]) == 0
    captured = capsys.readouterr()
    document = json.loads(captured.out)
    assert list(validator.iter_errors(document)) == []
    assert document["outputVersion"] == 1 and document["ok"] is True
    assert {shard["name"]: shard["shardContentDigest"] for shard in document["shards"]} == recorded()
    assert f"part-0.parquet: shard_content_digest {recorded()['part-0.parquet']}" in captured.err
    (tmp_path / "out" / "part-2.parquet").unlink()
    assert main([*argv, "--json", "--resume", "--quiet"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert [(shard["name"], shard["status"]) for shard in document["shards"]] == [
        ("part-0.parquet", "kept"), ("part-1.parquet", "kept"), ("part-2.parquet", "written")]
    assert {shard["name"]: shard["shardContentDigest"] for shard in document["shards"]} == recorded()
    assert main([*argv, "--json"]) == 1  # the outputs exist: the run is refused, and says so in the object
    document = json.loads(capsys.readouterr().out)
    assert list(validator.iter_errors(document)) == []
    assert document["ok"] is False and "the output exists" in document["message"]



def test_a_quiet_run_without_json_reads_no_output_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """The digests are shown per shard, or in the --json object: a --quiet run shows neither, so it does not read
    its shards back to hash them (a second read of every output); with --json it still does."""
    from contract.cli import enrich_shards as command

    read_back: list[str] = []
    real = command.shard_content_digest

    def counted(path: Path | str) -> str:
        read_back.append(Path(path).name)
        return real(path)

    monkeypatch.setattr(command, "shard_content_digest", counted)
    raw = tmp_path / "raw"
    shutil.copytree(RECORDED / "raw", raw)
    argv = ["enrich-shards", str(raw), str(tmp_path / "out"), "--schema", "kcp-13", "--engine-version", "0.12.0"]
    assert main([*argv, "--quiet"]) == 0
    assert read_back == [] and capsys.readouterr().err == ""
    assert main([*argv, "--quiet", "--json", "--resume"]) == 0
    assert sorted(read_back) == sorted(recorded())
    assert {s["name"]: s["shardContentDigest"] for s in json.loads(capsys.readouterr().out)["shards"]} == recorded()
