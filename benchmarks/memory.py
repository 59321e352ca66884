"""Peak memory of bulk extraction: is it flat in the number of rows?

    python benchmarks/memory.py [--schema kcp-13] [--rows 10000 100000] [--jobs 2] [--format jsonl|parquet]
                                [--row-bytes N]

For each row count it writes an input file, runs the real command as a user would,

    python -m contract extract --schema ID --input IN --output OUT --jobs 2 --quiet

and samples the resident set size (RSS) of that process *and all its workers* every 10 ms from
``/proc`` (Linux). It prints, per run, the peak of the summed RSS of the process tree, the largest
single-process high-water mark (``VmHWM``), the time and the rows/s; then the ratio of the largest
run's peak to the smallest run's peak. Issue 7's acceptance is a ratio of at most 1.5 between 100,000
and 10,000 rows; the exit status is 0 when it holds, 1 when not.

Rows come from random legal dice-chess play (``contract.features.play``, fixed seed): 1,000 distinct
positions, cycled; each row's FEN gets its own full-move number, so every row is a distinct FEN text
(the full-move field never changes a feature) and no per-FEN cache can make large runs look flat.

``--row-bytes N`` gives every row an extra ``payload`` column of N random bytes (hex text for JSONL,
binary for Parquet; carried through to Parquet output), to show that memory is bounded in bytes as
well as rows: e.g. ``--format parquet --rows 250 1000 --row-bytes 1000000``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # run from a checkout without installing the kit
    sys.path.insert(0, str(REPO))
DISTINCT_POSITIONS = 1000
SAMPLE_SECONDS = 0.01
ACCEPTED_RATIO = 1.5


def random_play_fens(count: int, seed: int = 7) -> list[str]:
    """``count`` distinct 4-field FENs reached by random legal play from the start position."""
    from contract.features import parse_fen, to_fen
    from contract.features.play import random_game

    start = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    rng = random.Random(seed)
    seen: dict[str, None] = {}
    while len(seen) < count:
        for position in random_game(start, 80, rng):
            seen.setdefault(" ".join(to_fen(position).split()[:4]), None)
    return list(seen)[:count]


def write_input(path: Path, rows: int, fmt: str, fens: list[str], row_bytes: int = 0) -> None:
    def fen(index: int) -> str:
        return f"{fens[index % len(fens)]} 0 {index + 1}"

    if fmt == "jsonl":
        with open(path, "w", encoding="utf-8", newline="\n") as handle:
            for index in range(rows):
                row: dict[str, object] = {"id": f"row-{index}", "fen": fen(index), "ply": index % 80}
                if row_bytes:
                    row["payload"] = os.urandom(row_bytes // 2).hex()
                handle.write(json.dumps(row) + "\n")
        return
    import pyarrow as pa
    import pyarrow.parquet as pq

    fields = [("id", pa.string()), ("fen", pa.string()), ("ply", pa.int32())]
    if row_bytes:
        fields.append(("payload", pa.binary()))
    step = 50_000 if not row_bytes else max(1, (64 << 20) // row_bytes)  # ~64 MiB per write
    with pq.ParquetWriter(path, pa.schema(fields)) as out:
        for start in range(0, rows, step):
            span = range(start, min(rows, start + step))
            columns = {
                "id": pa.array([f"row-{i}" for i in span], pa.string()),
                "fen": pa.array([fen(i) for i in span], pa.string()),
                "ply": pa.array([i % 80 for i in span], pa.int32()),
            }
            if row_bytes:
                columns["payload"] = pa.array([os.urandom(row_bytes) for _ in span], pa.binary())
            out.write_table(pa.table(columns))


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as handle:
                parent = int(handle.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        tree.setdefault(parent, []).append(int(entry))
    return tree


def _status_kib(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) of ``pid`` in KiB, or zeros if it is gone."""
    rss = hwm = 0
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
                elif line.startswith("VmHWM:"):
                    hwm = int(line.split()[1])
    except OSError:
        pass
    return rss, hwm


def tree_pids(root: int) -> list[int]:
    """``root`` and every process descending from it, now."""
    tree = _children()
    pids, frontier = [root], [root]
    while frontier:
        frontier = [kid for pid in frontier for kid in tree.get(pid, [])]
        pids.extend(frontier)
    return pids


def measure(command: list[str]) -> tuple[float, int, int]:
    """Run ``command``; return (seconds, peak summed RSS of its tree, largest VmHWM), sizes in KiB."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    started = time.perf_counter()
    child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    peak_tree = 0
    peak_single = 0
    while child.poll() is None:
        total = 0
        for pid in tree_pids(child.pid):
            rss, hwm = _status_kib(pid)
            total += rss
            peak_single = max(peak_single, hwm)
        peak_tree = max(peak_tree, total)
        time.sleep(SAMPLE_SECONDS)
    seconds = time.perf_counter() - started
    _, errors = child.communicate()
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {child.returncode}:\n{errors}")
    return seconds, peak_tree, peak_single


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Peak RSS of `extract --jobs N` against the number of rows.")
    parser.add_argument("--schema", default="kcp-13")
    parser.add_argument("--rows", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--chunk-size", type=int, default=None)
    parser.add_argument("--format", choices=("jsonl", "parquet"), default="jsonl")
    parser.add_argument("--row-bytes", type=int, default=0, help="an extra payload of N bytes per row")
    args = parser.parse_args(argv)
    if not Path("/proc/self/status").exists():
        raise SystemExit("this benchmark reads /proc (Linux)")
    fens = random_play_fens(DISTINCT_POSITIONS)
    wide = f", {args.row_bytes:,} payload bytes per row" if args.row_bytes else ""
    print(f"schema {args.schema}, --jobs {args.jobs}, format {args.format}{wide}, {os.cpu_count()} CPUs,"
          f" python {sys.version.split()[0]}")
    print(f"{'rows':>9} {'seconds':>8} {'rows/s':>8} {'peak tree RSS MiB':>18} {'max VmHWM MiB':>14}")
    peaks: list[int] = []
    with tempfile.TemporaryDirectory(prefix="contract-memory-") as scratch:
        for rows in args.rows:
            source = Path(scratch) / f"in-{rows}.{args.format}"
            output = Path(scratch) / f"out-{rows}.{args.format}"
            write_input(source, rows, args.format, fens, args.row_bytes)
            command = [sys.executable, "-m", "contract", "extract", "--schema", args.schema, "--input", str(source),
                       "--output", str(output), "--jobs", str(args.jobs), "--quiet"]
            if args.chunk_size:
                command += ["--chunk-size", str(args.chunk_size)]
            seconds, tree, single = measure(command)
            peaks.append(tree)
            print(f"{rows:>9,} {seconds:>8.1f} {rows / seconds:>8,.0f} {tree / 1024:>18.1f} {single / 1024:>14.1f}")
            source.unlink()
            output.unlink()
    ratio = peaks[-1] / peaks[0]
    verdict = "ok" if ratio <= ACCEPTED_RATIO else "NOT FLAT"
    print(f"peak ratio {args.rows[-1]:,} / {args.rows[0]:,} rows: {ratio:.2f}"
          f" (acceptance <= {ACCEPTED_RATIO}): {verdict}")
    return 0 if ratio <= ACCEPTED_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
