"""Rows per second of bulk extraction, end to end, as a user runs it:

    python benchmarks/extract_speed.py [--schema kcp-13] [--rows 100000] [--jobs 2] [--runs 3]
                                       [--formats jsonl:jsonl jsonl:parquet]

Rows are the 2,000 random midgame positions of the engine's recording (the positions of ``bench
--throughput`` and of the engine's own figures), cycled, each ``{"id", "fen", "side"}``. For each run and
each input:output format pair in turn (interleaved, so that every pair sees the same load) it runs the
real command in a fresh process,

    python -m contract extract --schema ID --input IN --output OUT --jobs N --quiet

and reports the wall time, the CPU time of the whole process tree (user + system, workers included), the
peak summed RSS of the tree (sampled from ``/proc`` as ``benchmarks/memory.py`` does), rows per second of
wall time and rows per CPU-second, with the load average before each run; then the medians. Every run of a
pair must write the same output bytes. On a machine shared with other jobs the wall figure measures the
share the machine gave the run; the CPU figure does not depend on it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import statistics
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from memory import measure

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run from a checkout without installing the kit
    sys.path.insert(0, str(REPO))


def write_rows(path: Path, rows: int, fmt: str) -> None:
    """``rows`` rows of the recording's random positions, cycled, as JSONL or Parquet."""
    from contract.cli.throughput import recorded_positions

    positions = recorded_positions(2000)
    ids = [f"row-{index}" for index in range(rows)]
    fens = [positions[index % len(positions)][0] for index in range(rows)]
    sides = [positions[index % len(positions)][1] for index in range(rows)]
    if fmt == "jsonl":
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            for row in zip(ids, fens, sides, strict=True):
                handle.write(json.dumps(dict(zip(("id", "fen", "side"), row, strict=True))) + "\n")
        return
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"id": ids, "fen": fens, "side": sides}), path)


def _cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _digest(path: Path) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()[:16]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Rows per second of `extract --jobs N`, end to end.")
    parser.add_argument("--schema", default="kcp-13")
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--formats", nargs="+", default=["jsonl:jsonl"],
                        help="input:output pairs, e.g. jsonl:jsonl jsonl:parquet parquet:parquet")
    args = parser.parse_args(argv)
    pairs = [tuple(pair.split(":")) for pair in args.formats]
    if any(len(pair) != 2 or not set(pair) <= {"jsonl", "parquet"} for pair in pairs):
        raise SystemExit("--formats takes pairs such as jsonl:jsonl or jsonl:parquet")
    print(f"schema {args.schema}, {args.rows:,} rows, --jobs {args.jobs}, {os.cpu_count()} CPUs, "
          f"python {sys.version.split()[0]}, backend {os.environ.get('DICECHESS_BACKEND') or 'default'}")
    print(f"{'run':>3} {'formats':15} {'load':>5} {'wall s':>7} {'cpu s':>6} {'rows/s':>8} {'rows/cpu-s':>10} "
          f"{'peak MiB':>8} digest")
    results: dict[tuple[str, ...], list[tuple[float, float, int]]] = {pair: [] for pair in pairs}
    digests: dict[tuple[str, ...], set[str]] = {pair: set() for pair in pairs}
    with tempfile.TemporaryDirectory(prefix="contract-extract-speed-") as scratch:
        sources = {}
        for fmt in sorted({pair[0] for pair in pairs}):
            sources[fmt] = Path(scratch) / f"in.{fmt}"
            write_rows(sources[fmt], args.rows, fmt)
        for run in range(1, args.runs + 1):
            for pair in pairs:
                output = Path(scratch) / f"out.{pair[1]}"
                command = [sys.executable, "-m", "contract", "extract", "--schema", args.schema, "--input",
                           str(sources[pair[0]]), "--output", str(output), "--jobs", str(args.jobs), "--quiet",
                           "--overwrite"]
                load = os.getloadavg()[0]
                before = _cpu_of_children()
                seconds, tree, _single = measure(command)
                cpu = _cpu_of_children() - before
                digest = _digest(output)
                digests[pair].add(digest)
                results[pair].append((seconds, cpu, tree))
                print(f"{run:>3} {':'.join(pair):15} {load:>5.1f} {seconds:>7.2f} {cpu:>6.2f} "
                      f"{args.rows / seconds:>8,.0f} {args.rows / cpu:>10,.0f} {tree / 1024:>8.1f} {digest}")
    for pair, runs in results.items():
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        peak = max(r[2] for r in runs) / 1024
        print(f"median {':'.join(pair):15} wall {wall:.2f} s = {args.rows / wall:,.0f} rows/s; cpu {cpu:.2f} s = "
              f"{args.rows / cpu:,.0f} rows per cpu-second; peak tree RSS {peak:.1f} MiB")
    differ = [":".join(pair) for pair, found in digests.items() if len(found) > 1]
    if differ:
        print("OUTPUTS DIFFER between runs of: " + ", ".join(differ))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
