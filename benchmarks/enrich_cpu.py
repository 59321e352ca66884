"""CPU seconds of the work around the extractor: ``enrich-shards`` and ``extract`` against extraction alone.

    python benchmarks/enrich_cpu.py [--rows 100000] [--python-rows 20000] [--runs 3] [--big]

Issue 37, part 1. One raw kcp-13 training shard (schema v0, laid out as the training repository's
``write_shard`` lays it out: :func:`shards.write_raw_shard`, random legal play, every FEN text distinct) of
``--rows`` rows, and the same rows as JSONL (``{"id", "fen", "side"}``). Then, in the same run, each
measurement a real command in a fresh process, CPU seconds as ``getrusage(RUSAGE_CHILDREN)`` counts them
(user + system of the process and every worker it reaped, interpreter start-up and imports included),
the median of ``--runs`` after one untimed warm-up run of each, runs interleaved so that every command sees
the same load, children started without ``PYTHONDONTWRITEBYTECODE`` (as ``benchmarks/startup.py``):

(a) ``native-extract``: the accelerator's own ``dicechess_native.extract_fens`` over the same FENs and sides
    (read from a text file, in calls of 4,096 rows as the kit makes them), in a fresh interpreter that
    imports nothing else;
(b) ``enrich-shards --jobs 1`` and (c) ``--jobs 2`` over the shard, with the accelerator;
(d) the pure-Python backend (``DICECHESS_BACKEND=python``) over the first ``--python-rows`` rows:
    ``enrich-shards --jobs 1`` against ``python-extract``, its extractor alone (``parse_fen`` then the
    schema's Python extractor, row by row, in a fresh interpreter);
(e) ``extract --input rows.jsonl --output out.parquet --jobs 1`` on both backends, against the same baselines.

It prints each run, the medians, the ratios the issue's acceptance reads (enrich-shards / native-extract
<= 1.5; jobs 2 / jobs 1 <= 1.2; pure Python / its extractor <= 1.2; extract JSONL->Parquet the same) and
the load average before and after. ``--big`` also runs 1,000,000 rows in 10 shards with ``--jobs 2``
and prints rows/s of wall time (acceptance >= 100,000 on a quiet machine: quote the load with it).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent
if str(BENCHMARKS) not in sys.path:
    sys.path.insert(0, str(BENCHMARKS))
from memory import DISTINCT_POSITIONS, random_play_fens  # noqa: E402
from shards import write_raw_shard  # noqa: E402

SCHEMA = "kcp-13"
TIMEOUT = 1800

# the accelerator alone: nothing of the kit is imported
NATIVE_EXTRACT = """
import sys
import dicechess_native as m
code = list(m.EXTRACTORS).index(sys.argv[2])
fens, sides = [], bytearray()
with open(sys.argv[1], encoding="utf-8") as handle:
    for line in handle:
        fen = line.rstrip("\\n")
        fens.append(fen)
        sides.append(ord(fen.split()[1]))
for start in range(0, len(fens), 4096):
    m.extract_fens(code, fens[start:start + 4096], bytes(sides[start:start + 4096]))
"""

# the pure-Python reference's extractor alone, row by row
PYTHON_EXTRACT = """
import sys
from contract.core import registry
from contract.features.dfen import parse_fen
from contract.features.extractors import EXTRACTORS
function = EXTRACTORS[registry.get(sys.argv[2]).engine_extractor]
with open(sys.argv[1], encoding="utf-8") as handle:
    for line in handle:
        position = parse_fen(line.rstrip("\\n"))
        function(position, position.turn, None)
"""


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process tree) of one command, which must exit 0."""
    before, start = _cpu(), time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, timeout=TIMEOUT, check=False)
    wall, cpu = time.perf_counter() - start, _cpu() - before
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)}: exit {done.returncode}\n{done.stderr.decode(errors='replace')}")
    return wall, cpu


def write_inputs(directory: Path, rows: int, fens: list[str], stem: str) -> tuple[Path, Path, Path]:
    """A raw shard, the same rows as JSONL and their FENs (one a line) under ``directory``."""
    import pyarrow.parquet as pq

    shard_dir = directory / f"{stem}-raw"
    shard_dir.mkdir()
    shard = shard_dir / "shard-000.parquet"
    write_raw_shard(shard, rows, fens, 0)
    table = pq.read_table(shard, columns=["fen", "side"])
    texts, sides = table.column("fen").to_pylist(), table.column("side").to_pylist()
    fen_file = directory / f"{stem}-fens.txt"
    fen_file.write_text("".join(f"{fen}\n" for fen in texts), encoding="utf-8")
    jsonl = directory / f"{stem}.jsonl"
    with open(jsonl, "w", encoding="utf-8", newline="\n") as handle:
        for index, (fen, side) in enumerate(zip(texts, sides, strict=True)):
            handle.write(json.dumps({"id": f"row-{index}", "fen": fen, "side": side}) + "\n")
    return shard_dir, jsonl, fen_file


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="CPU of enrich-shards / extract against extraction alone.")
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--python-rows", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--big", action="store_true", help="also 1,000,000 rows in 10 shards, --jobs 2")
    parser.add_argument("--skip-python", action="store_true", help="no pure-Python measurements (d, e python)")
    args = parser.parse_args(argv)
    py = sys.executable
    # without PYTHONDONTWRITEBYTECODE (as benchmarks/startup.py): with it set, every start-up compiles the
    # kit's modules again and the CPU figures measure the compiler, not the work
    base_env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    native_env = {**base_env, "DICECHESS_BACKEND": "native"}
    python_env = {**base_env, "DICECHESS_BACKEND": "python"}
    load_before = os.getloadavg()
    print(f"schema {SCHEMA}, {args.rows:,} rows (pure Python {args.python_rows:,}), {os.cpu_count()} CPUs, "
          f"python {sys.version.split()[0]}, median of {args.runs}, load average {load_before[0]:.2f} "
          f"{load_before[1]:.2f} {load_before[2]:.2f}", flush=True)
    fens = random_play_fens(DISTINCT_POSITIONS)
    results: dict[str, list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="enrich-cpu-") as scratch:
        work = Path(scratch)
        raw, jsonl, fen_file = write_inputs(work, args.rows, fens, "big")
        commands: dict[str, tuple[list[str], dict[str, str]]] = {
            "native-extract": ([py, "-c", NATIVE_EXTRACT, str(fen_file), "KcpFeatures"], native_env),
            "enrich-shards --jobs 1": ([py, "-m", "contract", "enrich-shards", str(raw), str(work / "o1"),
                                        "--schema", SCHEMA, "--jobs", "1", "--quiet"], native_env),
            "enrich-shards --jobs 2": ([py, "-m", "contract", "enrich-shards", str(raw), str(work / "o2"),
                                        "--schema", SCHEMA, "--jobs", "2", "--quiet"], native_env),
            "extract jsonl->parquet": ([py, "-m", "contract", "extract", "--schema", SCHEMA, "--input", str(jsonl),
                                        "--output", str(work / "e.parquet"), "--jobs", "1", "--quiet",
                                        "--overwrite"], native_env),
        }
        if not args.skip_python:
            small_raw, small_jsonl, small_fens = write_inputs(work, args.python_rows, fens, "small")
            commands |= {
                "python-extract": ([py, "-c", PYTHON_EXTRACT, str(small_fens), SCHEMA], python_env),
                "python enrich-shards --jobs 1": ([py, "-m", "contract", "enrich-shards", str(small_raw),
                                                   str(work / "p1"), "--schema", SCHEMA, "--jobs", "1", "--quiet"],
                                                  python_env),
                "python extract jsonl->parquet": ([py, "-m", "contract", "extract", "--schema", SCHEMA, "--input",
                                                   str(small_jsonl), "--output", str(work / "pe.parquet"), "--jobs",
                                                   "1", "--quiet", "--overwrite"], python_env),
            }
        print(f"{'run':>3} {'command':32} {'load':>5} {'wall s':>7} {'cpu s':>7}", flush=True)
        # run 0 is an untimed warm-up (bytecode written, files in the page cache), as benchmarks/startup.py
        for run in range(0, args.runs + 1):
            for label, (command, env) in commands.items():
                for output in (work / "o1", work / "o2", work / "p1"):  # enrich-shards refuses a finished output
                    if output.exists():
                        subprocess.run(["rm", "-rf", str(output)], check=True)
                load = os.getloadavg()[0]
                wall, cpu = timed(command, env)
                if run == 0:
                    continue
                results.setdefault(label, []).append((wall, cpu))
                print(f"{run:>3} {label:32} {load:>5.2f} {wall:>7.2f} {cpu:>7.2f}", flush=True)
        cpu = {label: statistics.median(r[1] for r in runs) for label, runs in results.items()}
        wall = {label: statistics.median(r[0] for r in runs) for label, runs in results.items()}
        for label in results:
            print(f"median {label:32} wall {wall[label]:6.2f} s  cpu {cpu[label]:6.2f} s")
        ratios = [("enrich-shards --jobs 1 / native-extract", "enrich-shards --jobs 1", "native-extract", 1.5),
                  ("enrich-shards --jobs 2 / --jobs 1", "enrich-shards --jobs 2", "enrich-shards --jobs 1", 1.2),
                  ("extract jsonl->parquet / native-extract", "extract jsonl->parquet", "native-extract", 1.5),
                  ("python enrich-shards / python-extract", "python enrich-shards --jobs 1", "python-extract", 1.2),
                  ("python extract jsonl->parquet / python-extract", "python extract jsonl->parquet",
                   "python-extract", 1.2)]
        for text, top, bottom, goal in ratios:
            if top in cpu and bottom in cpu:
                ratio = cpu[top] / cpu[bottom]
                print(f"ratio {text:48} {ratio:5.2f} (goal <= {goal}): {'ok' if ratio <= goal else 'NOT MET'}")
        if args.big:
            big = work / "big10"
            big.mkdir()
            for index in range(10):
                write_raw_shard(big / f"shard-{index:03d}.parquet", 100_000, fens, index)
            load = os.getloadavg()[0]
            seconds, cpu_big = timed([py, "-m", "contract", "enrich-shards", str(big), str(work / "big-out"),
                                      "--schema", SCHEMA, "--jobs", "2", "--quiet"], native_env)
            print(f"1,000,000 rows in 10 shards, --jobs 2: load {load:.2f}, wall {seconds:.2f} s = "
                  f"{1_000_000 / seconds:,.0f} rows/s (goal >= 100,000 on a quiet machine), cpu {cpu_big:.2f} s")
    after = os.getloadavg()
    print(f"load average after: {after[0]:.2f} {after[1]:.2f} {after[2]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
