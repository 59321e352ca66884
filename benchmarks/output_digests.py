"""Every byte ``extract`` and ``enrich-shards`` write, as digests: compare two kit versions run for run.

    python benchmarks/output_digests.py --work /tmp/digests-work --out before.json   # with one kit importable
    python benchmarks/output_digests.py --work /tmp/digests-work --out after.json    # with the other
    python benchmarks/output_digests.py --compare before.json after.json

Not a benchmark of speed: a check that a change to the enrichment pipeline (a refactor, a faster path)
leaves its outputs alone. Each run is a real command in a child process (``python -m contract …``, the
kit found as the child's ``import contract`` finds it: set ``PYTHONPATH`` to choose a checkout). For
every run it records the exit status, the SHA-256 of stdout, stderr's text (paths included: use the
same ``--work`` directory for both versions) and the SHA-256 of every file left in the run's directory.

Runs: ``extract`` file to file for the four pairings of JSONL and Parquet with ``--jobs 1`` and ``2``,
two chunk sizes and a killed-then-resumed run; the streaming forms (``--fen``, stdin, a file to stdout,
to ``--output``); refusals (each message); ``enrich-shards`` for several schemas with ``--jobs 1``/``2``,
a killed-then-resumed run and refused shards; and, with ``--dask``, both Dask examples.
The input rows are the engine's live-recorded positions (``golden/recorded/engine-live/``) plus rows
planted to be refused, written here with pyarrow and ``json`` (not with the kit).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
LIVE = REPO / "golden" / "recorded" / "engine-live" / "engine-vectors-default-seed20261130.jsonl.gz"
TIMEOUT = 1800


def positions() -> list[tuple[str, str]]:
    with gzip.open(LIVE, "rt", encoding="utf-8") as handle:
        return [(doc["fen"], doc["side"]) for doc in map(json.loads, handle)]


def extract_rows(count: int) -> list[Any]:
    """JSONL rows (dicts, or raw lines as ``str``) with planted refusals."""
    found = positions()
    rows: list[Any] = [{"id": f"r{index}" if index % 5 else index, "fen": found[index % len(found)][0],
                        "side": found[index % len(found)][1] if index % 3 else None, "n": index}
                       for index in range(count)]
    rows[7] = {"id": "badfen", "fen": "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"}
    rows[11] = "{not json"
    rows[13] = {"fen": found[0][0]}
    rows[17] = {"id": "badside", "fen": found[0][0], "side": "x"}
    rows[19] = '{"id": "\\ud800", "fen": "' + found[0][0] + '"}'
    rows[23] = ""
    rows[29] = {"id": True, "fen": found[0][0]}
    rows[31] = {"id": "nan", "fen": found[0][0], "x": float("nan")}
    return rows


def write_jsonl(path: Path, rows: list[Any]) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        for row in rows:
            handle.write((row if isinstance(row, str) else json.dumps(row)) + "\n")


def write_parquet(path: Path, count: int, *, int_ids: bool = False) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    found = positions()
    fens = [found[index % len(found)][0] for index in range(count)]
    fens[5] = "garbage"
    sides: list[str | None] = [found[index % len(found)][1] if index % 4 else None for index in range(count)]
    ids: list[Any] = list(range(count)) if int_ids else [f"p{index}" for index in range(count)]
    ids[9] = None
    table = pa.table({
        "id": pa.array(ids, pa.int64() if int_ids else pa.string()),
        "fen": pa.array(fens, pa.string()),
        "side": pa.array(sides, pa.string()),
        "ply": pa.array(range(count), pa.int32()),
        "tags": pa.array([[index, index + 1] for index in range(count)], pa.list_(pa.int16())),
    }).replace_schema_metadata({b"origin": b"digests"})
    pq.write_table(table, path, row_group_size=333)


RAW_TYPES = (("game_id", "string"), ("ply", "int32"), ("fen", "string"), ("dice", "string"), ("side", "string"),
             ("result", "float32"))


def write_raw(path: Path, rows: list[tuple[str, str]], game: str, *, bad: str | None = None) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pa.schema([(name, getattr(pa, kind)()) for name, kind in RAW_TYPES],
                       metadata={b"dicechess_training_schema": b"v0", b"producer": b"digests"})
    data: dict[str, list[Any]] = {
        "game_id": [f"{game}{index // 9}" for index in range(len(rows))],
        "ply": [index % 9 for index in range(len(rows))],
        "fen": [fen for fen, _ in rows],
        "dice": ["PNk" for _ in rows],
        "side": [side for _, side in rows],
        "result": [(0.0, 0.5, 1.0)[index % 3] for index in range(len(rows))],
    }
    if bad == "dice":
        data["dice"][5] = "PNX"
    elif bad == "fen":
        data["fen"][6] = "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
    elif bad == "mismatch":
        data["side"][4] = "b" if data["side"][4] == "w" else "w"
    pq.write_table(pa.table(data, schema=schema), path, row_group_size=50)


class Recorder:
    def __init__(self, work: Path) -> None:
        self.work = work
        self.runs: dict[str, Any] = {}

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env.setdefault("COLUMNS", "80")
        return env

    def run(self, label: str, args: list[str], *, stdin: bytes | None = None, cwd: Path | None = None) -> None:
        started = time.monotonic()
        done = subprocess.run([sys.executable, "-m", "contract", *args], input=stdin, capture_output=True,
                              env=self.env(), cwd=cwd or self.work, timeout=TIMEOUT, check=False)
        self.runs[label] = {
            "exit": done.returncode,
            "stdout": hashlib.sha256(done.stdout).hexdigest(),
            "stdoutBytes": len(done.stdout),
            "stderr": _stable(done.stderr.decode("utf-8", "replace")),
        }
        print(f"{label}: exit {done.returncode} ({time.monotonic() - started:.1f} s)", file=sys.stderr)

    def files(self, label: str, directory: Path) -> None:
        found = {}
        for path in sorted(directory.rglob("*")):
            if path.is_file() and not _killed_leftover(path.name):
                found[str(path.relative_to(self.work))] = hashlib.sha256(path.read_bytes()).hexdigest()
        self.runs.setdefault(label, {})["files"] = found

    def killed_then_resumed(self, label: str, args: list[str], watch: Path, pattern: str, at_least: int) -> None:
        """Start ``args``, SIGKILL it once ``watch`` holds ``at_least`` files matching ``pattern``, rerun with
        ``--resume``."""
        process = subprocess.Popen([sys.executable, "-m", "contract", *args], env=self.env(), cwd=self.work,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + TIMEOUT
        killed = False
        while process.poll() is None and time.monotonic() < deadline:
            if watch.is_dir() and len(list(watch.glob(pattern))) >= at_least:
                os.killpg(process.pid, signal.SIGKILL)
                killed = True
                break
            time.sleep(0.02)
        process.wait()
        print(f"{label}: {'killed' if killed else 'finished before it could be killed'}", file=sys.stderr)
        self.run(label, [*args, "--resume"])


def _killed_leftover(name: str) -> bool:
    """A hidden temporary file a SIGKILL left behind (never read; present or not by the kill's timing)."""
    return name.startswith(".") and ".tmp-" in name


def _stable(text: str) -> str:
    """stderr without what differs from run to run: the rate (``N rows/s``), how far a killed run got
    (``N input rows were done before --resume``), and the order of lines (``--jobs 2`` finishes shards in
    any order)."""
    text = re.sub(r"[0-9][0-9,.]* rows/s", "<rate> rows/s", text)
    text = re.sub(r"[0-9]+ input rows were done before --resume", "<n> input rows were done before --resume", text)
    return "\n".join(sorted(text.splitlines()))


def record(work: Path, dask: bool) -> dict[str, Any]:
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    data = work / "data"
    data.mkdir()
    write_jsonl(data / "rows.jsonl", extract_rows(700))
    write_parquet(data / "rows.parquet", 640)
    write_parquet(data / "ints.parquet", 200, int_ids=True)
    found = positions()
    same_side = [(fen, side) for fen, side in found if fen.split()[1] == side]
    raw = data / "raw"
    raw.mkdir()
    for index in range(4):
        write_raw(raw / f"s{index}.parquet", same_side[index * 110:(index + 1) * 110], f"g{index}-")
    bad = data / "badraw"
    bad.mkdir()
    for index, kind in enumerate(("dice", "fen", "mismatch", None)):
        write_raw(bad / f"b{index}.parquet", same_side[:40], f"b{index}-", bad=kind)
    recorder = Recorder(work)

    pairs = (("jsonl", "rows.jsonl", ".jsonl"), ("parquet", "rows.parquet", ".parquet"))
    for in_name, source, _ in pairs:
        for out_name, _, ext in pairs:
            for jobs in ("1", "2"):
                for schema, chunk in (("kcp-13", "64"), ("material-7-v1", None)):
                    label = f"extract {in_name}->{out_name} {schema} jobs {jobs} chunk {chunk}"
                    out = work / label.replace(" ", "_").replace(">", "")
                    out.mkdir()
                    args = ["extract", "--schema", schema, "--input", str(data / source), "--output",
                            str(out / f"out{ext}"), "--jobs", jobs, "--quiet"]
                    recorder.run(label, args + (["--chunk-size", chunk] if chunk else []))
                    recorder.files(label, out)
            label = f"extract {in_name}->{out_name} resumed"
            out = work / label.replace(" ", "_").replace(">", "")
            out.mkdir()
            recorder.killed_then_resumed(label, ["extract", "--schema", "kcp-13", "--input", str(data / source),
                                                 "--output", str(out / f"out{ext}"), "--chunk-size", "20", "--quiet"],
                                         out / f"out{ext}.parts", "part-*.rows.*", 3)
            recorder.files(label, out)
    out = work / "ints"
    out.mkdir()
    recorder.run("extract int ids parquet->jsonl", ["extract", "--schema", "rich-9-v1", "--input",
                                                    str(data / "ints.parquet"), "--output", str(out / "o.jsonl")])
    recorder.run("extract int ids parquet->parquet", ["extract", "--schema", "rich-9-v1", "--input",
                                                      str(data / "ints.parquet"), "--output", str(out / "o.parquet")])
    recorder.files("extract int ids", out)

    # streams
    recorder.run("stream fen", ["extract", "--schema", "kcp-13", "--fen", found[3][0]])
    recorder.run("stream fen side id", ["extract", "--schema", "rich-9-v1", "--fen", found[3][0], "--side", "b",
                                        "--id", "x"])
    recorder.run("stream bad fen", ["extract", "--schema", "kcp-13", "--fen", "nonsense"])
    recorder.run("stream stdin", ["extract", "--schema", "kcp-13", "--input", "-"],
                 stdin=(data / "rows.jsonl").read_bytes())
    recorder.run("stream jsonl file", ["extract", "--schema", "kcp-13", "--input", str(data / "rows.jsonl")])
    recorder.run("stream parquet file", ["extract", "--schema", "kcp-13", "--input", str(data / "rows.parquet")])
    out = work / "streams"
    out.mkdir()
    recorder.run("stream stdin to parquet", ["extract", "--schema", "kcp-13", "--input", "-", "--output",
                                             str(out / "s.parquet")], stdin=(data / "rows.jsonl").read_bytes())
    recorder.run("stream fen to parquet", ["extract", "--schema", "kcp-13", "--fen", found[3][0], "--output",
                                           str(out / "f.parquet")])
    recorder.run("stream fen to jsonl", ["extract", "--schema", "kcp-13", "--fen", found[3][0], "--output",
                                         str(out / "f.jsonl")])
    recorder.files("streams", out)

    # refusals
    out = work / "refusals"
    out.mkdir()
    (out / "exists.jsonl").write_text("mine\n")
    (out / "text.txt").write_text("{}\n")
    (out / "gz.jsonl").write_bytes(gzip.compress(b'{"id": 1}\n', mtime=0))
    shutil.copy(data / "rows.parquet", out / "pq.jsonl")
    (out / "nofen.parquet").write_bytes((data / "rows.parquet").read_bytes())
    _without_fen(out / "nofen.parquet")
    refusals = {
        "missing input": ["--input", str(out / "none.jsonl"), "--output", str(out / "o.jsonl")],
        "existing output": ["--input", str(data / "rows.jsonl"), "--output", str(out / "exists.jsonl")],
        "unknown extension": ["--input", str(out / "text.txt"), "--output", str(out / "o.jsonl")],
        "bad format": ["--input", str(data / "rows.jsonl"), "--output", str(out / "o.jsonl"), "--format", "csv"],
        "gzip named jsonl": ["--input", str(out / "gz.jsonl"), "--output", str(out / "o2.jsonl")],
        "parquet named jsonl": ["--input", str(out / "pq.jsonl"), "--output", str(out / "o3.jsonl")],
        "no fen column to parquet": ["--input", str(out / "nofen.parquet"), "--output", str(out / "o4.parquet")],
        "no fen column stream": ["--input", str(out / "nofen.parquet")],
        "input is output": ["--input", str(data / "rows.jsonl"), "--output", str(data / "rows.jsonl")],
        "unknown schema": ["--input", str(data / "rows.jsonl"), "--output", str(out / "o5.jsonl"),
                           "--schema", "nope"],
        "jobs without output": ["--input", str(data / "rows.jsonl"), "--jobs", "2"],
    }
    for name, args in refusals.items():
        schema = [] if "--schema" in args else ["--schema", "kcp-13"]
        recorder.run(f"refused {name}", ["extract", *schema, *args, "--quiet"])
    recorder.files("refusals", out)

    # enrich-shards
    for schema in ("kcp-13", "kcp-mobility-27-v1", "kcp-mobility-pawns-31-v1", "material-7-v1", "rich-pdi-11-v1"):
        for jobs in ("1", "2"):
            label = f"shards {schema} jobs {jobs}"
            out = work / label.replace(" ", "_")
            recorder.run(label, ["enrich-shards", str(raw), str(out), "--schema", schema, "--jobs", jobs])
            recorder.files(label, out)
    out = work / "shards_resumed"
    recorder.killed_then_resumed("shards resumed", ["enrich-shards", str(raw), str(out), "--schema", "kcp-13",
                                                    "--jobs", "2", "--quiet"], out, "*.parquet", 2)
    recorder.files("shards resumed", out)
    recorder.run("shards bad", ["enrich-shards", str(bad), str(work / "shards_bad"), "--schema", "kcp-13"])
    recorder.files("shards bad", work / "shards_bad")
    recorder.run("shards engine 0.9.3", ["enrich-shards", str(raw / "s0.parquet"), str(work / "shards_093"),
                                         "--schema", "kcp-mobility-27-v1", "--engine-version", "0.9.3"])
    recorder.files("shards engine 0.9.3", work / "shards_093")
    recorder.run("shards unknown engine", ["enrich-shards", str(raw), str(work / "shards_x"), "--schema", "kcp-13",
                                           "--engine-version", "9.9.9"])
    recorder.run("shards into input", ["enrich-shards", str(raw), str(raw), "--schema", "kcp-13"])
    recorder.run("shards exists", ["enrich-shards", str(raw), str(work / "shards_kcp-13_jobs_1"), "--schema", "kcp-13"])
    if dask:
        example = REPO / "examples" / "dask_enrich.py"
        pq_dir = data / "pq"
        pq_dir.mkdir()
        shutil.copy(data / "rows.parquet", pq_dir / "a.parquet")
        shutil.copy(data / "ints.parquet", pq_dir / "b.parquet")
        for label, args in (("dask extract", ["--schema", "rich-9-v1", str(pq_dir), str(work / "dask_x"),
                                              "--chunk-size", "64"]),
                            ("dask training", ["--training", "--schema", "kcp-13", str(raw), str(work / "dask_t")])):
            done = subprocess.run([sys.executable, str(example), *args, "--workers", "2"], capture_output=True,
                                  env=recorder.env(), cwd=work, timeout=TIMEOUT, check=False)
            recorder.runs[label] = {"exit": done.returncode}
            print(f"{label}: exit {done.returncode}", file=sys.stderr)
        recorder.files("dask extract", work / "dask_x")
        recorder.files("dask training", work / "dask_t")
    return recorder.runs


def _without_fen(path: Path) -> None:
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    pq.write_table(table.drop_columns(["fen"]), path)


def _without_leftovers(runs: dict[str, Any]) -> dict[str, Any]:
    for run in runs.values():
        if "files" in run:
            run["files"] = {name: digest for name, digest in run["files"].items()
                            if not _killed_leftover(Path(name).name)}
    return runs


def compare(before: Path, after: Path) -> int:
    old, new = (_without_leftovers(json.loads(path.read_text())) for path in (before, after))
    differences = 0
    for label in sorted(set(old) | set(new)):
        if old.get(label) != new.get(label):
            differences += 1
            print(f"DIFFERS: {label}\n  before: {json.dumps(old.get(label))}\n  after:  {json.dumps(new.get(label))}")
    files = sum(len(run.get("files", {})) for run in old.values())
    print(f"{len(old)} runs, {files} files compared: {differences} differ")
    return 1 if differences else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, help="scratch directory (deleted and recreated)")
    parser.add_argument("--out", type=Path, help="where the digests go (JSON)")
    parser.add_argument("--dask", action="store_true", help="also run examples/dask_enrich.py (needs [dask])")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        return compare(*args.compare)
    if args.work is None or args.out is None:
        parser.error("--work and --out are needed (or --compare BEFORE AFTER)")
    runs = record(args.work, args.dask)
    args.out.write_text(json.dumps(runs, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
