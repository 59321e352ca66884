"""Speed and peak memory of ``enrich-shards`` end to end, against the number of rows and of shards.

    python benchmarks/shards.py [--schema kcp-13] [--rows 100000] [--shards 1 2] [--jobs 2] [--small 20000]
                                [--repeat 3]

For each configuration it writes raw training shards (schema v0: ``game_id``, ``ply``, ``fen``, ``dice``,
``side``, ``result``, as the training repository's ``write_shard`` lays them out) of ``--rows`` rows each,
runs the real command as a user would,

    python -m contract enrich-shards IN OUT --schema ID --jobs 2 --quiet

and samples the resident set size of the process and all its workers every 10 ms (``/proc``, Linux;
the sampler of ``benchmarks/memory.py``). It prints the features backend the command uses (the native
accelerator when it is installed, else the Python reference; ``DICECHESS_BACKEND=python`` forces the
reference), then per configuration the rows, shards, the median seconds and rows/s over ``--repeat`` runs
end to end (process start to exit, interpreter and worker start-up included), the median CPU seconds the
command and its workers used (user + system, ``getrusage`` of the reaped children: on a machine shared with
other work the wall time follows the load, the CPU time much less) and the largest peak summed RSS of the
process tree, then the
ratio of the largest run's peak to the smallest run's (issue 24: memory independent of the number of
rows and shards; acceptance <= 1.5) and whether the fastest full-size run reaches ``--target`` rows/s
(issue 24: 2,500 for kcp-13 with --jobs 2). Exit 0 when both hold, 1 when not.

Rows come from random legal dice-chess play (``contract.features.play``, fixed seed), 1,000 distinct
positions cycled with their own full-move numbers, so every FEN text differs.
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent
if str(BENCHMARKS) not in sys.path:
    sys.path.insert(0, str(BENCHMARKS))
from memory import DISTINCT_POSITIONS, measure, random_play_fens  # noqa: E402

ACCEPTED_RATIO = 1.5


def write_raw_shard(path: Path, rows: int, fens: list[str], seed: int) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = random.Random(seed)
    schema = pa.schema([("game_id", pa.string()), ("ply", pa.int32()), ("fen", pa.string()), ("dice", pa.string()),
                        ("side", pa.string()), ("result", pa.float32())],
                       metadata={b"dicechess_training_schema": b"v0"})
    fen_texts = [f"{fens[index % len(fens)]} 0 {index + 1}" for index in range(rows)]
    table = pa.table({
        "game_id": [f"s{seed}-g{index // 80}" for index in range(rows)],
        "ply": pa.array([index % 80 for index in range(rows)], pa.int32()),
        "fen": fen_texts,
        "dice": ["".join(rng.choice("PNBRQK") for _ in range(3)) for _ in range(rows)],
        "side": [text.split()[1] for text in fen_texts],
        "result": pa.array([rng.choice((0.0, 0.5, 1.0)) for _ in range(rows)], pa.float32()),
    }, schema=schema)
    pq.write_table(table, path)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="rows/s and peak RSS of `enrich-shards --jobs N`.")
    parser.add_argument("--schema", default="kcp-13")
    parser.add_argument("--rows", type=int, default=100_000, help="rows per shard (default %(default)s)")
    parser.add_argument("--shards", type=int, nargs="+", default=[1, 2], help="shard counts (default 1 2)")
    parser.add_argument("--small", type=int, default=20_000,
                        help="also one shard of this many rows, for the memory ratio (0: none)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--target", type=float, default=2500.0, help="rows/s to reach (default %(default)s)")
    parser.add_argument("--repeat", type=int, default=1, help="runs per configuration; medians are shown")
    args = parser.parse_args(argv)
    import os
    import statistics

    from contract.features import backend

    fens = random_play_fens(DISTINCT_POSITIONS)
    runs = ([(args.small, 1)] if args.small else []) + [(args.rows, count) for count in args.shards]
    print(f"schema {args.schema}, --jobs {args.jobs}, {os.cpu_count()} CPUs, python {sys.version.split()[0]},"
          f" backend {backend.active().describe()}, median of {args.repeat} run(s)")
    print(f"{'rows/shard':>10} {'shards':>6} {'seconds':>8} {'rows/s':>8} {'CPU s':>8} {'peak tree RSS MiB':>18}")
    peaks: list[int] = []
    best = 0.0
    for rows, count in runs:
        with tempfile.TemporaryDirectory(prefix="enrich-shards-bench-") as scratch:
            raw = Path(scratch) / "raw"
            raw.mkdir()
            for index in range(count):
                write_raw_shard(raw / f"shard-{index:03d}.parquet", rows, fens, index)
            timings: list[float] = []
            cpu: list[float] = []
            peak = 0
            for attempt in range(args.repeat):
                command = [sys.executable, "-m", "contract", "enrich-shards", str(raw),
                           str(Path(scratch) / f"out{attempt}"), "--schema", args.schema, "--jobs", str(args.jobs),
                           "--quiet"]
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                seconds, run_peak, _ = measure(command)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
                timings.append(seconds)
                peak = max(peak, run_peak)
        seconds = statistics.median(timings)
        rate = rows * count / seconds
        if rows == args.rows:
            best = max(best, rate)
        peaks.append(peak)
        print(f"{rows:>10,} {count:>6} {seconds:>8.1f} {rate:>8,.0f} {statistics.median(cpu):>8.1f}"
              f" {peak / 1024:>18.1f}", flush=True)
    ratio = max(peaks) / min(peaks)
    flat = ratio <= ACCEPTED_RATIO
    fast = best >= args.target
    verdict = "ok" if flat else "NOT FLAT"
    print(f"peak ratio largest / smallest run: {ratio:.2f} (acceptance <= {ACCEPTED_RATIO}): {verdict}")
    print(f"best full-size median rows/s {best:,.0f} (target {args.target:,.0f}): {'ok' if fast else 'BELOW TARGET'}")
    return 0 if flat and fast else 1


if __name__ == "__main__":
    sys.exit(main())
