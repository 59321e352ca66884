"""examples/dask_enrich.py on a LocalCluster gives the bytes of the single-process command.

Needs the [dask] extra (dask[distributed], pandas, pyarrow).
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest
from enrichment_data import REPO, corpus_rows, run_cli

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pytest.importorskip("pandas")
pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")


def load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("dask_enrich", REPO / "examples" / "dask_enrich.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["dask_enrich"] = module
    spec.loader.exec_module(module)
    return module


def write_shards(directory: Path) -> list[Path]:
    directory.mkdir()
    shards = []
    for shard, count in enumerate((230, 170, 301)):
        rows = corpus_rows(count + shard)[shard:]
        ids = [f"s{shard}-{row['id']}" for row in rows]
        fens = [row["fen"] for row in rows]
        if shard == 1:
            fens[42] = "rnbqkbnr/pppppppp/8/8 w KQkq -"  # rejected in the Dask run and the CLI run alike
        table = pa.table({
            "id": pa.array(ids, pa.string()),
            "fen": pa.array(fens, pa.string()),
            "side": pa.array([row["side"] for row in rows], pa.string()),
            "ply": pa.array([row["ply"] for row in rows], pa.int64()),
        })
        path = directory / f"shard-{shard:03d}.parquet"
        pq.write_table(table, path, row_group_size=100)
        shards.append(path)
    return shards


@pytest.mark.slow
def test_dask_local_cluster_writes_the_same_bytes_as_the_cli(tmp_path: Path) -> None:
    example = load_example()
    shards = write_shards(tmp_path / "in")
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                 dashboard_address=":0") as cluster,
        distributed.Client(cluster) as client,
    ):
        counts = example.enrich_shards(client, "kcp-13", tmp_path / "in", tmp_path / "dask", chunk_size=64)
        # the command exits as the CLI does: 1 when a row was rejected (was 0), 0 when none was
        for directory, expected in (("in", 1), ("clean", 0)):
            if directory == "clean":
                (tmp_path / "clean").mkdir()
                shutil.copy(shards[0], tmp_path / "clean" / shards[0].name)
            argv = ["--schema", "kcp-13", str(tmp_path / directory), str(tmp_path / f"{directory}-out"),
                    "--chunk-size", "64", "--scheduler", cluster.scheduler_address]
            assert example.main(argv) == expected
    assert counts == {"shard-000.parquet": 0, "shard-001.parquet": 1, "shard-002.parquet": 0}
    (tmp_path / "cli").mkdir()
    for shard in shards:
        done = run_cli("extract", "--schema", "kcp-13", "--input", shard, "--output", tmp_path / "cli" / shard.name,
                       "--chunk-size", "64", "--quiet")
        assert done.returncode == (1 if counts[shard.name] else 0), done.stderr  # 1: a row was rejected
        for suffix in ("", ".rejects.jsonl"):
            cli_bytes = (tmp_path / "cli" / f"{shard.name}{suffix}").read_bytes()
            assert cli_bytes == (tmp_path / "dask" / f"{shard.name}{suffix}").read_bytes(), shard.name + suffix
    assert pq.read_table(tmp_path / "dask" / "shard-001.parquet").num_rows == 169


@pytest.mark.slow
def test_dask_training_shards_are_the_bytes_of_enrich_shards(tmp_path: Path) -> None:
    """issue 24: enrich-shards runs unchanged as a Dask step, one task per raw training shard."""
    from test_enrichment_shards import live_positions, raw_rows, write_raw

    example = load_example()
    (tmp_path / "raw").mkdir()
    positions = live_positions()[:120]
    for index in range(3):
        write_raw(tmp_path / "raw" / f"s{index}.parquet", raw_rows(positions[index::3], f"g{index}-"))
    assert run_cli("enrich-shards", tmp_path / "raw", tmp_path / "cli", "--schema", "kcp-13").returncode == 0
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                 dashboard_address=":0") as cluster,
        distributed.Client(cluster) as client,
    ):
        refused = example.enrich_training_shards(client, "kcp-13", tmp_path / "raw", tmp_path / "dask")
    assert refused == {f"s{index}.parquet": [] for index in range(3)}
    for index in range(3):
        name = f"s{index}.parquet"
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes()


@pytest.mark.parametrize(("make", "args", "message"), [
    ("missing", ["--schema", "kcp-13"], "IN: no such directory"),
    ("empty", ["--schema", "kcp-13"], "IN: no *.parquet shards"),
    ("file", ["--schema", "kcp-13"], "IN: not a directory"),
    ("empty", ["--schema", "nope"], "unknown schema 'nope'; known schemas: "),
])
def test_usage_errors_exit_2_with_one_line_before_any_worker_starts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], make: str, args: list[str], message: str) -> None:
    in_dir = tmp_path / "IN"
    if make == "empty":
        in_dir.mkdir()
    elif make == "file":
        in_dir.write_text("", encoding="utf-8")
    code = load_example().main([*args, str(in_dir), str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("dask_enrich: ")
    assert err.removeprefix("dask_enrich: ").replace(str(in_dir), "IN").startswith(message), err
    assert not (tmp_path / "out").exists()
