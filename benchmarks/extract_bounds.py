"""Peak memory of ``extract`` on inputs whose decoded size is far larger than the file: is it bounded?

    python benchmarks/extract_bounds.py [--jobs 2] [--only NAME ...]

Each input is built in a temporary directory, then the real command runs as a user would,

    python -m contract extract --schema material-7-v1 --input IN --output OUT --jobs N --quiet

while the peak resident set size of its whole process tree (main process and workers, sampled every
50 ms from /proc) is recorded. Every input decodes to hundreds of megabytes or more from a file of a few
kilobytes (dictionary encoding, shared prefixes, run lengths, compression), or is a JSONL file of wide
rows; the kit either reads it in bounded pieces or refuses it before decoding, naming the limit.

The limits that bound it (docs/enrichment.md, "Workers and memory"): chunks of at most 16 MiB of
decoded input plus one row (``DEFAULT_CHUNK_BYTES``; at most ``2 x jobs + 1`` chunks in memory), a cell
of at most 1 MiB (``budget.CELL_LIMIT``), and, for Parquet, at most 512 MiB held by Arrow at once
(``batchplan.READ_LIMIT``, ``pages.PAGE_LIMIT``) and a footer of at most 64 MiB. Acceptance printed
at the end: every peak under 1.5 GiB for ``--jobs 2`` (three Python processes with numpy and pyarrow,
about 100 MiB each at rest, plus those limits), whatever the decoded size.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from memory import _status_kib, tree_pids

REPO = Path(__file__).resolve().parents[1]
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
ACCEPTED_MIB = 1536
SAMPLE_SECONDS = 0.05


def _table(rows: int, **columns: object) -> object:
    import pyarrow as pa

    return pa.table({"id": [f"r{index}" for index in range(rows)], "fen": [START] * rows, **columns})


def review_dictionary_bomb(path: Path, scale: int) -> int:
    """The review's 19_extract_parquet_dictionary_bomb.py: 300 identical 10 MiB FENs, dictionary-encoded."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    fen = START + " " + "0" * (10 << 20) + "x"
    pq.write_table(pa.table({"id": [f"r{i}" for i in range(300)], "fen": pa.array([fen] * 300, pa.large_string())}),
                   path, compression="zstd", row_group_size=300)
    return 300 * len(fen)


def nested_dictionary_bomb(path: Path, scale: int) -> int:
    """20 rows, each a list of 100 identical 900 KB texts (dictionary-encoded leaves)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    value = "y" * (900 << 10)
    pq.write_table(_table(20, tags=pa.array([[value] * 100] * 20, pa.list_(pa.string()))), path, compression="zstd")
    return 20 * 100 * len(value)


def nested_wide_rows(path: Path, scale: int) -> int:
    """600 rows (x scale), each a struct holding a list with one 900 KB binary value (within the cell limit)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = 600 * scale
    value = b"\x01" * 900_000
    nested = pa.array([{"blob": [value]}] * rows, pa.struct([("blob", pa.list_(pa.large_binary()))]))
    pq.write_table(_table(rows, nested=nested), path, compression="zstd", row_group_size=rows)
    return rows * len(value)


def delta_prefix_bomb(path: Path, scale: int) -> int:
    """2,000 rows (x scale) of one 900 KB text in DELTA_BYTE_ARRAY (each value shares the previous one's
    prefix)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = 2000 * scale
    value = "d" * (900 << 10)
    pq.write_table(_table(rows, notes=pa.array([value] * rows, pa.string())), path, compression="zstd",
                   use_dictionary=False, column_encoding={"notes": "DELTA_BYTE_ARRAY"})
    return rows * len(value)


def run_length_lists(path: Path, scale: int) -> int:
    """2,000 rows (x scale), each a list of 80,000 zero int64 (run-length encoded: a few KB; 1.2 GiB
    decoded)."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows, width = 2000 * scale, 80_000
    values = pa.array(np.zeros(rows * width, dtype=np.int64))
    offsets = pa.array(np.arange(0, rows * width + 1, width, dtype=np.int32))
    pq.write_table(_table(rows, x=pa.ListArray.from_arrays(offsets, values)), path, compression="zstd")
    return rows * width * 8


def page_bomb(path: Path, scale: int) -> int:
    """1,000 texts of 600 KB (each within the cell limit), plainly encoded: pyarrow writes them as one
    600 MB page (it checks the page size every 1,024 values), a few KB of zstd that Arrow would
    decompress whole."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    value = "p" * 600_000
    pq.write_table(_table(1000, notes=pa.array([value] * 1000, pa.large_string())), path, compression="zstd",
                   use_dictionary=False)
    return 1000 * len(value)


def wide_jsonl(path: Path, scale: int) -> int:
    """2,000 JSONL rows of 900 KB (the review's r08_wide_rows_memory.sh)."""
    with open(path, "w", encoding="utf-8") as handle:
        for index in range(2000):
            handle.write(json.dumps({"id": "i" * 900_000 + str(index), "fen": START}) + "\n")
    return path.stat().st_size


INPUTS: dict[str, tuple[str, Callable[[Path, int], int]]] = {
    "dictionary-bomb": ("parquet", review_dictionary_bomb),
    "nested-dictionary-bomb": ("parquet", nested_dictionary_bomb),
    "nested-wide-rows": ("parquet", nested_wide_rows),
    "delta-prefix": ("parquet", delta_prefix_bomb),
    "run-length-lists": ("parquet", run_length_lists),
    "page-bomb": ("parquet", page_bomb),
    "wide-jsonl": ("jsonl", wide_jsonl),
}


def measure(command: list[str]) -> tuple[float, int, int, str]:
    """(seconds, peak summed RSS of the process tree in KiB, exit status, last line of stderr)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    started = time.perf_counter()
    child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    peak = 0
    while child.poll() is None:
        peak = max(peak, sum(_status_kib(pid)[0] for pid in tree_pids(child.pid)))
        time.sleep(SAMPLE_SECONDS)
    _, errors = child.communicate()
    lines = errors.strip().splitlines()
    return time.perf_counter() - started, peak, child.returncode, lines[-1] if lines else ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", nargs="+", choices=sorted(INPUTS), default=None)
    parser.add_argument("--scale", type=int, default=1,
                        help="rows times this for the accepted Parquet inputs (is the peak flat in the rows?)")
    args = parser.parse_args()
    if not Path("/proc/self/status").exists():
        raise SystemExit("this benchmark reads /proc (Linux)")
    print(f"extract --schema material-7-v1 --jobs {args.jobs}, {os.cpu_count()} CPUs, python {sys.version.split()[0]}")
    print(f"{'input':<24} {'file bytes':>12} {'decoded MiB':>12} {'seconds':>8} {'peak tree RSS MiB':>18}"
          " exit  message")
    worst = 0
    with tempfile.TemporaryDirectory(prefix="contract-bounds-") as scratch:
        for name in args.only or list(INPUTS):
            fmt, build = INPUTS[name]
            source = Path(scratch) / f"{name}.{fmt}"
            decoded = build(source, args.scale)
            command = [sys.executable, "-m", "contract", "extract", "--schema", "material-7-v1", "--input",
                       str(source), "--output", str(Path(scratch) / f"out-{name}.{fmt}"), "--jobs", str(args.jobs),
                       "--quiet"]
            seconds, peak, code, line = measure(command)
            worst = max(worst, peak)
            shown = line.replace(str(source), name)[:110]
            print(f"{name:<24} {source.stat().st_size:>12,} {decoded / 2**20:>12,.0f} {seconds:>8.1f}"
                  f" {peak / 1024:>18.1f} {code:>4}  {shown}", flush=True)
            for leftover in Path(scratch).iterdir():
                if leftover.is_file():
                    leftover.unlink()
    verdict = "ok" if worst / 1024 < ACCEPTED_MIB else "OVER"
    print(f"largest peak {worst / 1024:.1f} MiB (acceptance < {ACCEPTED_MIB} MiB): {verdict}")
    return 0 if verdict == "ok" else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONDONTWRITEBYTECODE", "1")
    sys.exit(main())
