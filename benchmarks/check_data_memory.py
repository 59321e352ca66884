"""Peak memory of ``check-data --recompute 1000`` on enriched shards of 100,000 and 1,000,000 rows: does it follow
the rows? (issue 34 part 1: bounded memory)

    python benchmarks/check_data_memory.py [--rows 100000 1000000] [--recompute 1000]

It enriches the engine's recorded positions (the live recording's 975 whose side is the FEN's side to move)
with the kit's own ``enrich-shards`` once, then tiles that enriched shard to each row count (the same rows
repeated, so every value is still the kit's and ``check-data`` exits 0; row groups of 2,000 rows as
``enrich-shards`` writes them), and runs the real command as a user would,

    python -m contract check-data golden/example-package SHARD --recompute 1000

in a child process, timed, and reads the child's peak RSS (``ru_maxrss`` of ``RUSAGE_CHILDREN``, measured
in a fresh wrapper process per run so one run's peak never counts for another; Linux/macOS). It prints
rows, file size, seconds, peak RSS, then the ratio of the largest to the smallest peak; exit 0 when every
run exits 0 and the ratio is at most 1.5, else 1.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run from a checkout without installing the kit
    sys.path.insert(0, str(REPO))

import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

from contract.cli import main  # noqa: E402
from contract.recordings import enginelive  # noqa: E402

EXAMPLE = REPO / "golden" / "example-package"
ROW_GROUP = 2000
ACCEPTANCE = 1.5
MEASURE = ("import resource, subprocess, sys; code = subprocess.call(sys.argv[1:]);"
           " print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, code)")


def enriched_base(work: Path) -> pa.Table:
    """The recorded positions as a raw shard, enriched by ``enrich-shards`` (kcp-13, engine 0.12.0)."""
    positions = [p for p in enginelive.read(REPO / enginelive.VECTORS_FILE) if p.fen.split()[1] == p.side]
    schema = pa.schema([("game_id", pa.string()), ("ply", pa.int32()), ("fen", pa.string()), ("dice", pa.string()),
                        ("side", pa.string()), ("result", pa.float32())])
    rows = [{"game_id": f"g{index // 9}", "ply": index % 9, "fen": p.fen, "dice": "PNK", "side": p.side,
             "result": (0.0, 0.5, 1.0)[index % 3]} for index, p in enumerate(positions)]
    raw, out = work / "raw", work / "enriched"
    raw.mkdir()
    pq.write_table(pa.Table.from_pylist(rows, schema=schema).replace_schema_metadata(
        {b"dicechess_training_schema": b"v0"}), raw / "base.parquet")
    if main(["enrich-shards", str(raw), str(out), "--schema", "kcp-13", "--quiet"]) != 0:
        raise SystemExit("enrich-shards failed")
    return pq.read_table(out / "base.parquet")


def tiled(base: pa.Table, rows: int, path: Path) -> Path:
    """``rows`` rows of ``base`` repeated, written in row groups of :data:`ROW_GROUP` with its metadata."""
    with pq.ParquetWriter(path, base.schema, compression="zstd") as writer:
        written = 0
        while written < rows:
            piece = base.slice(0, min(base.num_rows, rows - written))
            writer.write_table(piece, row_group_size=ROW_GROUP)
            written += piece.num_rows
    return path


def measure(shard: Path, recompute: str) -> tuple[float, float, int]:
    """Seconds, peak RSS of the check-data child in MiB, its exit code."""
    command = [sys.executable, "-m", "contract", "check-data", str(EXAMPLE), str(shard), "--recompute", recompute]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-c", MEASURE, *command], capture_output=True, text=True, env=env,
                          timeout=3600, check=True)
    seconds = time.monotonic() - start
    peak, code = done.stdout.split()
    scale = 1024 * 1024 if platform.system() == "Darwin" else 1024  # ru_maxrss: bytes on macOS, KiB on Linux
    return seconds, int(peak) / scale, int(code)


def main_benchmark() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[100_000, 1_000_000])
    parser.add_argument("--recompute", default="1000")
    args = parser.parse_args()
    print(f"check-data --recompute {args.recompute}, kcp-13 enriched shards, {os.cpu_count()} CPUs,"
          f" python {platform.python_version()}, pyarrow {pa.__version__}")
    print(f"{'rows':>10} {'file MiB':>9} {'seconds':>8} {'peak RSS MiB':>13} exit")
    peaks: list[float] = []
    failed = False
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        base = enriched_base(work)
        for rows in args.rows:
            shard = tiled(base, rows, work / f"shard-{rows}.parquet")
            seconds, peak, code = measure(shard, args.recompute)
            peaks.append(peak)
            failed |= code != 0
            print(f"{rows:>10,} {shard.stat().st_size / 2**20:>9.1f} {seconds:>8.1f} {peak:>13.1f} {code:>4}")
            shard.unlink()
    ratio = max(peaks) / min(peaks)
    verdict = "ok" if ratio <= ACCEPTANCE and not failed else "NOT FLAT" if ratio > ACCEPTANCE else "FAILED"
    print(f"peak ratio largest / smallest: {ratio:.2f} (acceptance <= {ACCEPTANCE}): {verdict}")
    return 0 if verdict == "ok" else 1


if __name__ == "__main__":
    sys.exit(main_benchmark())
