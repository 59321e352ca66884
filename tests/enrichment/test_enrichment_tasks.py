"""``enrich-shards --task I/N`` (issue 37 item 2): N runs fill one output directory, no merge.

Expected bytes come from one ordinary run over the same shards (a different code path: no task split,
the directory locked exclusively); each test failed before ``--task`` existed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from contract.cli import main
from contract.enrichment.runs.shardrun import ShardOptions, enrich_shards

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

RECORDED = Path(__file__).parent / "data" / "training-digests"



def _nine_shards(raw: Path) -> None:
    raw.mkdir()
    source = pq.read_table(RECORDED / "raw" / "part-0.parquet")
    for number in range(9):
        part = source.slice(number * 5, 5)
        pq.write_table(part.replace_schema_metadata(source.schema.metadata), raw / f"s{number}.parquet")


def test_tasks_fill_one_output_directory_as_one_run_does(tmp_path: Path) -> None:
    """Issue 37 item 2: N tasks (run concurrently, in threads here) write disjoint parts of the shards into
    one OUTPUT_DIR; together the same bytes as one run; a task resumes alone."""
    from concurrent.futures import ThreadPoolExecutor

    _nine_shards(tmp_path / "raw")
    enrich_shards(ShardOptions("material-7-v1", tmp_path / "raw", tmp_path / "one", quiet=True))
    expected = {path.name: path.read_bytes() for path in (tmp_path / "one").iterdir()}
    for count in (2, 3, 4):
        out = tmp_path / f"tasks{count}"
        out.mkdir()
        with ThreadPoolExecutor(count) as pool:
            summaries = list(pool.map(lambda index, out=out, count=count: enrich_shards(ShardOptions(
                "material-7-v1", tmp_path / "raw", out, quiet=True, task=(index, count))), range(1, count + 1)))
        names = [name for summary in summaries for name, _ in summary.written]
        assert sorted(names) == sorted(expected) and len(names) == len(set(names))  # each shard by one task
        assert summaries[0].written[0][0] == "s0.parquet" and summaries[1].written[0][0] == "s1.parquet"
        assert {path.name: path.read_bytes() for path in out.glob("*.parquet")} == expected
    (tmp_path / "tasks3" / "s4.parquet").unlink()  # task 2 of 3 (s1, s4, s7) killed before s4 was published
    again = enrich_shards(ShardOptions("material-7-v1", tmp_path / "raw", tmp_path / "tasks3", quiet=True,
                                       task=(2, 3), resume=True))
    assert (again.kept, [name for name, _ in again.written]) == (["s1.parquet", "s7.parquet"], ["s4.parquet"])
    assert {path.name: path.read_bytes() for path in (tmp_path / "tasks3").glob("*.parquet")} == expected


def test_a_whole_run_and_the_same_task_twice_refuse_each_other(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    import fcntl
    import os

    _nine_shards(tmp_path / "raw")
    out = tmp_path / "out"
    out.mkdir()
    argv = ["enrich-shards", str(tmp_path / "raw"), str(out), "--schema", "material-7-v1", "--quiet"]
    held = os.open(out, os.O_RDONLY)
    try:
        fcntl.flock(held, fcntl.LOCK_EX)  # a whole run holds the directory: no task starts
        assert main([*argv, "--task", "1/2"]) == 1
        assert "in use by another enrich-shards run; wait for it to finish (a run without --task" in \
            capsys.readouterr().err
        fcntl.flock(held, fcntl.LOCK_SH)  # a task holds it: no whole run starts, another task does
        task = os.open(out / ".enrich-shards.task-1-of-2.lock", os.O_RDWR | os.O_CREAT)
        fcntl.flock(task, fcntl.LOCK_EX)
        try:
            assert main(argv) == 1
            assert "in use by another enrich-shards run" in capsys.readouterr().err
            assert main([*argv, "--task", "1/2"]) == 1
            assert "task 1/2 is in use by another enrich-shards run" in capsys.readouterr().err
            assert main([*argv, "--task", "2/2"]) == 0
        finally:
            os.close(task)
    finally:
        os.close(held)
    assert sorted(path.name for path in out.glob("*.parquet")) == ["s1.parquet", "s3.parquet", "s5.parquet",
                                                                    "s7.parquet"]
    with pytest.raises(SystemExit) as usage:
        main([*argv, "--task", "3/2"])
    assert usage.value.code == 2
