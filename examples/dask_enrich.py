# mypy: allow-untyped-calls
"""Enrich a directory of Parquet shards with Dask's distributed scheduler.

    python examples/dask_enrich.py --schema kcp-13 IN_DIR OUT_DIR [--workers 4 | --scheduler tcp://host:8786]
                                   [--chunk-size 1000]

Needs the kit with its ``[dask]`` extra. The kit is on no package index: install it from a checkout
(``pip install '.[dask]'``) or from a wheel built there (``pip install 'dist/dicechess_contract-…whl[dask]'``).
Every ``IN_DIR/NAME.parquet``
(with ``id``, ``fen`` and optionally ``side`` columns) becomes ``OUT_DIR/NAME.parquet`` plus
``OUT_DIR/NAME.parquet.rejects.jsonl``, byte for byte what the single-process command writes:

    python -m contract extract --schema kcp-13 --input IN_DIR/NAME.parquet \\
        --output OUT_DIR/NAME.parquet --chunk-size 1000

The extraction step is the kit's plain table function ``contract.enrichment.enrich_table`` run as a
``map_partitions`` step, unchanged; one partition is one shard (``dd.from_map``, so Dask never merges
or splits shards and the output names follow the input names).

With ``--training`` the shards are the training repository's raw shards (schema v0) and every task runs
the kit's ``enrich-shards`` step on one shard, unchanged (``contract.enrichment.runs.shardrun``, one shard per
task, in the worker's process), so ``OUT_DIR/NAME.parquet`` is byte for byte what

    dicechess-contract enrich-shards IN_DIR OUT_DIR --schema kcp-13 [--engine-version V]

writes, and the training reader's ``shard_content_digest`` agrees.

Exit status as for the CLI: 0 when every row of every shard was written, 1 when a row was rejected
(the rejects files say which; with ``--training``: a shard was refused, its message printed), 2 for a
usage error: an unknown schema, an input directory that is missing or holds no ``*.parquet`` shard, checked
before any worker starts, one line on stderr and no traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import dask.dataframe as dd
from dask.base import compute
from dask.delayed import delayed
from dask.distributed import Client, LocalCluster

from contract.core.registry import schema_ids
from contract.enrichment import DEFAULT_CHUNK_SIZE, enrich_table, enriched_meta
from contract.enrichment.runs.shardrun import enrich_one_shard
from contract.enrichment.runs.shards import read_shard, write_shard
from contract.features.extractors import resolve


def enrich_training_shards(
    client: Client, schema_id: str, in_dir: Path, out_dir: Path, engine_version: str | None = None
) -> dict[str, list[str]]:
    """Every raw ``*.parquet`` shard of ``in_dir`` enriched into ``out_dir``, one Dask task per shard."""
    shards = sorted(in_dir.glob("*.parquet"))
    if not shards:
        raise FileNotFoundError(f"{in_dir}: no *.parquet shards")
    out_dir.mkdir(parents=True, exist_ok=True)
    futures = client.map(enrich_one_shard, [schema_id] * len(shards), [str(path) for path in shards],
                         [str(out_dir)] * len(shards), [engine_version] * len(shards), pure=False)
    results = client.gather(futures)
    return {shard.name: list(messages) for shard, messages in zip(shards, results, strict=True)}


def enrich_shards(
    client: Client, schema_id: str, in_dir: Path, out_dir: Path, chunk_size: int = DEFAULT_CHUNK_SIZE
) -> dict[str, int]:
    """Enrich every ``*.parquet`` in ``in_dir`` into ``out_dir``; return the reject count per shard."""
    shards = sorted(in_dir.glob("*.parquet"))
    if not shards:
        raise FileNotFoundError(f"{in_dir}: no *.parquet shards")
    out_dir.mkdir(parents=True, exist_ok=True)
    schema = resolve(schema_id)  # once for the run: the partitions and the writes get the resolved schema
    frames = dd.from_map(read_shard, [str(path) for path in shards])
    enriched = frames.map_partitions(enrich_table, schema, meta=enriched_meta(frames._meta, schema))
    writes = [
        delayed(write_shard)(part, str(shard), str(out_dir / shard.name), schema, chunk_size)
        for part, shard in zip(enriched.to_delayed(), shards, strict=True)
    ]
    counts = compute(*writes, scheduler=client.get)
    return {shard.name: int(count) for shard, count in zip(shards, counts, strict=True)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--schema", required=True, help="feature schema id, e.g. kcp-13")
    parser.add_argument("in_dir", type=Path, help="directory of input *.parquet shards")
    parser.add_argument("out_dir", type=Path, help="directory for the enriched shards")
    parser.add_argument("--chunk-size", type=int, default=DEFAULT_CHUNK_SIZE,
                        help="rows per row group, as the CLI's --chunk-size (default %(default)s)")
    parser.add_argument("--training", action="store_true",
                        help="raw training shards (schema v0) in, enriched training shards out (enrich-shards)")
    parser.add_argument("--engine-version", default=None, help="with --training: as enrich-shards --engine-version")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--scheduler", help="address of a running Dask scheduler")
    where.add_argument("--workers", type=int, default=2, help="local worker processes (default %(default)s)")
    args = parser.parse_args(argv)
    problem = _usage_problem(args)
    if problem is not None:
        print(f"dask_enrich: {problem}", file=sys.stderr)
        return 2
    if args.scheduler:
        with Client(args.scheduler) as client:
            return _run(client, args)
    with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, Client(cluster) as client:
        return _run(client, args)


def _usage_problem(args: argparse.Namespace) -> str | None:
    """Why the arguments cannot be run (exit 2), before a cluster is started; ``None`` when they can."""
    if args.schema not in schema_ids():
        return f"unknown schema {args.schema!r}; known schemas: {', '.join(schema_ids())}"
    if not args.in_dir.is_dir():
        return f"{args.in_dir}: no such directory" if not args.in_dir.exists() else f"{args.in_dir}: not a directory"
    if not any(args.in_dir.glob("*.parquet")):
        return f"{args.in_dir}: no *.parquet shards"
    if args.chunk_size < 1:
        return f"--chunk-size must be at least 1, not {args.chunk_size}"
    return None


def _run(client: Client, args: argparse.Namespace) -> int:
    if args.training:
        refused = enrich_training_shards(client, args.schema, args.in_dir, args.out_dir, args.engine_version)
        for messages in refused.values():
            for message in messages:
                print(f"enrich-shards: {message}", file=sys.stderr)
        return 1 if any(refused.values()) else 0
    counts = enrich_shards(client, args.schema, args.in_dir, args.out_dir, args.chunk_size)
    for name, rejected in counts.items():
        print(f"{name}: {rejected} rejected", file=sys.stderr)
    return 1 if any(counts.values()) else 0  # as the CLI: 1 when a row was rejected


if __name__ == "__main__":
    sys.exit(main())
