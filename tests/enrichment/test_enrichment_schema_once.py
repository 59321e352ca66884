"""A run resolves its feature schema once, at its start, not once per chunk or shard (issue 37, part 3).

Each test counts the registry look-ups (calls of ``contract.core.registry.feature_schemas``, which reads
``schema/feature-schemas.json``, and of ``registry.get``; a ``get`` counts once) while a run of many chunks
(and, for ``enrich-shards``, several shards) goes through ``extract``'s file and stream runs,
``enrich-shards`` and the library entry points. The backend binds its native codes through the registry
once per process, before any run: the fixture does that before counting.

With ``--jobs 2`` the chunks are enriched in spawned worker processes, where a test's patch does not
reach: a ``sitecustomize`` module put on the workers' ``PYTHONPATH`` wraps the look-up there and logs
each call with its process and the module that asked. A worker's only look-up is the backend's binding,
once per process; the schema travels to it pickled with each chunk task.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from enrichment_data import corpus_rows, write_jsonl

from contract.core import registry
from contract.enrichment import OptionError, Options, enrich_file, enrich_table, enriched_meta
from contract.enrichment.rows import extract_batch
from contract.enrichment.runs.shardrun import ShardOptions, enrich_one_shard, enrich_shards
from contract.enrichment.runs.stream import StreamOptions, enrich_stream
from contract.features import backend
from contract.features.extractors import resolve

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
from training_reader import BASE  # noqa: E402  (needs pyarrow)

CHUNK = 40
ROWS = corpus_rows(25 * CHUNK + 3)  # 26 chunks
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
BLACK = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3"


@pytest.fixture
def lookups(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The registry look-ups since the fixture started, by function name (``get`` counted once, not also
    as the ``feature_schemas`` it calls)."""
    backend.active()  # binds the accelerator's codes through the registry once per process: not counted
    calls: list[str] = []
    real: Callable[[], dict[str, Any]] = registry.feature_schemas

    def counting() -> dict[str, Any]:
        calls.append("feature_schemas")
        return real()

    def counting_get(schema_id: str) -> Any:
        calls.append(f"get({schema_id})")
        return real()[schema_id]

    monkeypatch.setattr(registry, "feature_schemas", counting)
    monkeypatch.setattr(registry, "get", counting_get)
    return calls


def raw_shards(directory: Path, count: int, rows: int) -> Path:
    """``count`` raw shards (schema v0) of ``rows`` rows each."""
    directory.mkdir()
    for number in range(count):
        table = pa.Table.from_pylist(
            [{"game_id": f"g{number}", "ply": ply, "fen": (START, BLACK)[ply % 2], "dice": "PNK",
              "side": "wb"[ply % 2], "result": 0.5} for ply in range(rows)], schema=pa.schema(list(BASE.items())))
        pq.write_table(table.replace_schema_metadata({b"dicechess_training_schema": b"v0"}),
                       directory / f"shard-{number}.parquet")
    return directory


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_extract_file_run_looks_the_schema_up_once(tmp_path: Path, lookups: list[str], suffix: str) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", ROWS)
    summary = enrich_file(Options("kcp-13", source, tmp_path / f"out{suffix}", chunk_size=CHUNK, quiet=True))
    assert summary.rows == len(ROWS)
    assert lookups == ["feature_schemas"]


def test_extract_parquet_to_parquet_looks_the_schema_up_once(tmp_path: Path, lookups: list[str]) -> None:
    source = tmp_path / "in.parquet"
    pq.write_table(pa.Table.from_pylist(ROWS), source)
    lookups.clear()
    summary = enrich_file(Options("rich-9-v1", source, tmp_path / "out.parquet", chunk_size=CHUNK, quiet=True))
    assert summary.rows == len(ROWS)
    assert lookups == ["feature_schemas"]


def test_extract_stream_looks_the_schema_up_once(tmp_path: Path, lookups: list[str]) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", corpus_rows(2600))  # three chunks of the stream's size
    out = io.BytesIO()
    summary = enrich_stream(StreamOptions("kcp-13", source, stdout=out, errors=io.StringIO()))
    assert summary.rows == 2600 and out.getvalue().count(b"\n") == 2600
    assert lookups == ["feature_schemas"]


def test_enrich_shards_jobs_1_looks_the_schema_up_once(tmp_path: Path, lookups: list[str]) -> None:
    shards = raw_shards(tmp_path / "raw", 3, 5 * CHUNK + 1)
    lookups.clear()
    summary = enrich_shards(ShardOptions("kcp-13", shards, tmp_path / "out", chunk_size=CHUNK, quiet=True))
    assert [count for _name, count in summary.written] == [5 * CHUNK + 1] * 3 and not summary.refused
    assert lookups == ["feature_schemas"]


def test_enrich_one_shard_looks_the_schema_up_once(tmp_path: Path, lookups: list[str]) -> None:
    shards = raw_shards(tmp_path / "raw", 1, 3 * CHUNK)
    lookups.clear()
    assert enrich_one_shard("kcp-mobility-27-v1", str(shards / "shard-0.parquet"), str(tmp_path / "out")) == []
    assert lookups == ["feature_schemas"]


SITECUSTOMIZE = '''
import os, sys
from contract.core import registry

_LOG = os.environ["SCHEMA_ONCE_LOG"]
_real = registry.feature_schemas


def _write(text):
    with open(_LOG, "a", encoding="utf-8") as handle:
        handle.write(f"{os.getpid()} {text}\\n")


def feature_schemas():
    frame = sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__") == "contract.core.registry":
        frame = frame.f_back
    _write("lookup " + (frame.f_globals.get("__name__", "?") if frame is not None else "?"))
    return _real()


registry.feature_schemas = feature_schemas
_write("started")
'''


def test_enrich_shards_jobs_2_workers_do_not_look_the_schema_up(tmp_path: Path, lookups: list[str],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    log = tmp_path / "lookups.log"
    log.touch()
    monkeypatch.setenv("SCHEMA_ONCE_LOG", str(log))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(hook), *sys.path])))
    shards = raw_shards(tmp_path / "raw", 3, 6 * CHUNK)
    lookups.clear()
    summary = enrich_shards(ShardOptions("kcp-13", shards, tmp_path / "out", chunk_size=CHUNK, jobs=2, quiet=True))
    assert len(summary.written) == 3 and not summary.refused
    assert lookups == ["feature_schemas"]  # the main process: the run's one look-up
    lines = [line.split(" ", 2) for line in log.read_text(encoding="utf-8").splitlines()]
    workers = {pid for pid, what, *_ in lines if what == "started"}
    assert workers and str(os.getpid()) not in workers  # the hook ran in the workers (and only there)
    asked = [(pid, who[0]) for pid, what, *who in lines if what == "lookup"]
    assert [who for _pid, who in asked if who != "contract.features.backend"] == []  # no schema look-up
    assert len(asked) == len({pid for pid, _who in asked}) <= len(workers)  # the binding: once per worker


def test_enrich_table_looks_the_schema_up_once(lookups: list[str]) -> None:
    enriched = enrich_table(pa.Table.from_pylist(ROWS), "kcp-13")
    assert enriched.num_rows == len(ROWS) and enriched.column("error").null_count == len(ROWS)
    assert lookups == ["feature_schemas"]


def test_enrich_table_and_its_meta_over_pandas_look_the_schema_up_once_each(lookups: list[str]) -> None:
    pytest.importorskip("pandas")
    frame = pa.Table.from_pylist(ROWS).to_pandas()
    assert enrich_table(frame, "rich-9-v1")["error"].isna().all()
    assert lookups == ["feature_schemas"]
    assert list(enriched_meta(frame, "rich-9-v1").columns)[-2:] == ["features", "error"]
    assert lookups == ["feature_schemas"] * 2


def test_a_resolved_schema_is_taken_in_place_of_the_id_without_a_look_up(lookups: list[str]) -> None:
    resolved = resolve("kcp-13")
    lookups.clear()
    table = pa.Table.from_pylist(ROWS)
    for start in range(0, len(ROWS), CHUNK):  # a caller's partitions, each handed the resolved schema
        enriched = enrich_table(table.slice(start, CHUNK), resolved)
        assert enriched.column("features").type == pa.list_(pa.float32(), 13)
    batch = extract_batch(resolved, ROWS[:CHUNK])
    assert batch.vectors.shape == (CHUNK, 13)
    assert lookups == []


def test_an_unknown_schema_is_still_refused_at_the_start_with_its_message(tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "in.jsonl", ROWS[:3])
    known = ", ".join(registry.schema_ids())
    with pytest.raises(OptionError) as refused:
        enrich_file(Options("kcp-14", source, tmp_path / "out.jsonl", quiet=True))
    assert str(refused.value) == f"unknown feature schema 'kcp-14'; known: {known}"
    with pytest.raises(OptionError) as refused:
        enrich_shards(ShardOptions("kcp-14", tmp_path / "missing", tmp_path / "out", quiet=True))
    assert str(refused.value) == f"unknown feature schema 'kcp-14'; known: {known}"
    assert not (tmp_path / "out").exists() and not (tmp_path / "out.jsonl").exists()

