"""``python -m contract bench [--schema kcp-13] [--repeat N] [--json] [--engine-version V]``: time extraction
on the 27 golden probes beside the engine's recorded medians (``golden/recorded/benchmark/extraction-cost-0.9.3.json``),
or, with ``--engine-version``, beside the live engine's medians measured in the same run on this machine
(``adapters/jvm``, after JIT warm-up; :mod:`contract.conformance.engine_bench`), falling back to the
recorded ones, with the reason, when no live engine can be had.

Each sample extracts from a freshly parsed position (so nothing is memoised between samples); parsing is
timed separately and is not part of the kit median, as the engine's figures time the extractor on a
parsed state. Every vector is also compared bit for bit with the recorded golden of that schema when one
exists. A benchmark, not a test: the exit code is 0 unless a vector disagrees with its golden.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import gc
import json
import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from contract.cli import throughput
from contract.cli.jsonoutput import OUTPUT_VERSION
from contract.core.consoletext import console_json, console_text
from contract.core.exitcodes import EXIT_OK, EXIT_REFUSED, EXIT_USAGE
from contract.core.resources import golden_dir
from contract.features import backend
from contract.features.dfen import parse_fen, side_from_text
from contract.features.extractors import UnknownSchemaError, extract, schema

ENGINE_BENCHMARK = Path("recorded") / "benchmark" / "extraction-cost-0.9.3.json"
PROBES_GOLDEN = Path("recorded") / "kcp-13.engine-0.12.0.json"
RATIO_LIMIT = 3.0
ENGINE_WARMUP = 200  # rounds over every probe before the engine is timed (JIT compilation)


@dataclass
class ProbeTiming:
    id: str
    kit_median_ms: float
    engine_median_ms: float | None
    ratio: float | None
    parse_median_ms: float
    golden_match: bool | None


def _probe_json(row: ProbeTiming) -> dict[str, Any]:
    return {"id": row.id, "kitMedianMs": row.kit_median_ms, "engineMedianMs": row.engine_median_ms,
            "ratio": row.ratio, "parseMedianMs": row.parse_median_ms, "goldenMatch": row.golden_match}


def _recorded_goldens(schema_id: str) -> dict[str, np.ndarray]:
    out: dict[str, np.ndarray] = {}
    for path in sorted((golden_dir() / "recorded").glob(f"{schema_id}.engine-*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("schema") != schema_id:
            continue
        for probe in data["probes"]:
            out[probe["id"]] = np.array(probe["features"], dtype=np.float64).astype(np.float32)
    return out


def _engine_medians(schema_id: str) -> dict[str, float]:
    data = json.loads((golden_dir() / ENGINE_BENCHMARK).read_text(encoding="utf-8"))
    out: dict[str, float] = {}
    for probe_id, probe in data["probes"].items():
        for entry in probe["schemas"].values():
            if entry["schema_id"] == schema_id:
                out[probe_id] = entry["median_us"] / 1000.0
    return out


def probes() -> list[dict[str, Any]]:
    data = json.loads((golden_dir() / PROBES_GOLDEN).read_text(encoding="utf-8"))
    return list(data["probes"])


RECORDED_ENGINE = "recorded medians: engine 0.9.3 on another machine (golden/" + ENGINE_BENCHMARK.as_posix() + ")"


def run_bench(schema_id: str, repeat: int, warmup: int = 3, clock_name: str = "wall",
              live_engine: tuple[dict[str, float], str] | None = None) -> dict[str, Any]:
    schema(schema_id)
    goldens = _recorded_goldens(schema_id)
    engine, engine_source = live_engine if live_engine is not None else (_engine_medians(schema_id), RECORDED_ENGINE)
    rows: list[ProbeTiming] = []
    clock = time.perf_counter_ns if clock_name == "wall" else time.process_time_ns
    gc.collect()
    for probe in probes():
        fen, color = probe["fen"], side_from_text(probe["side"])
        samples, parse_samples = [], []
        vector = None
        for i in range(warmup + repeat):
            t0 = clock()
            position = parse_fen(fen)
            t1 = clock()
            vector = extract(schema_id, position, color)
            t2 = clock()
            if i >= warmup:
                parse_samples.append(t1 - t0)
                samples.append(t2 - t1)
        kit = statistics.median(samples) / 1e6
        golden = goldens.get(probe["id"])
        match = None if golden is None or vector is None else vector.tobytes() == golden.tobytes()
        engine_ms = engine.get(probe["id"])
        rows.append(ProbeTiming(probe["id"], kit, engine_ms, kit / engine_ms if engine_ms else None,
                                statistics.median(parse_samples) / 1e6, match))
    total_kit = sum(r.kit_median_ms for r in rows)
    engine_values = [r.engine_median_ms for r in rows if r.engine_median_ms is not None]
    total_engine = sum(engine_values) if len(engine_values) == len(rows) else None
    ratios = [r.ratio for r in rows if r.ratio is not None]
    max_ratio = max(ratios) if ratios else None
    return {
        "schema": schema_id,
        "repeat": repeat,
        "warmup": warmup,
        "clock": clock_name,
        "date": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine": {
            "platform": platform.platform(),
            "processor": platform.machine(),
            "cpus": os.cpu_count(),
            "python": platform.python_implementation() + " " + platform.python_version(),
        },
        "engineSource": engine_source,
        "backend": backend.active().describe(),
        "probes": [_probe_json(r) for r in rows],
        "totalKitMs": total_kit,
        "totalEngineMs": total_engine,
        "totalParseMs": sum(r.parse_median_ms for r in rows),
        "maxRatio": max_ratio,
        "probesOverRatioLimit": [r.id for r in rows if r.ratio is not None and r.ratio > RATIO_LIMIT],
        "goalMet": (total_engine is not None and total_kit <= total_engine and max_ratio is not None
                     and max_ratio <= RATIO_LIMIT),
        "goldenMismatches": [r.id for r in rows if r.golden_match is False],
    }


def format_report(report: dict[str, Any]) -> str:
    lines = [f"schema {report['schema']}: median of {report['repeat']} extractions per probe, "
             f"{report['clock']} clock ({report['date']}, {report['machine']['python']}, "
             f"{report['machine']['cpus']} cpus)",
             f"engine: {report['engineSource']}",
             f"backend: {report['backend']}",
             f"{'probe':28s} {'kit ms':>9s} {'engine ms':>10s} {'ratio':>7s}"]
    for row in report["probes"]:
        engine = f"{row['engineMedianMs']:10.3f}" if row["engineMedianMs"] is not None else f"{'n/a':>10s}"
        ratio = f"{row['ratio']:7.2f}" if row["ratio"] is not None else f"{'n/a':>7s}"
        flag = "" if row["goldenMatch"] is not False else "  GOLDEN MISMATCH"
        lines.append(f"{row['id']:28s} {row['kitMedianMs']:9.3f} {engine} {ratio}{flag}")
    total_engine = report["totalEngineMs"]
    engine_total = f"{total_engine:10.3f}" if total_engine is not None else f"{'n/a':>10s}"
    lines.append(f"{'total (sum of medians)':28s} {report['totalKitMs']:9.3f} {engine_total}")
    if report["maxRatio"] is not None:
        lines.append(f"max ratio {report['maxRatio']:.2f}")
    lines.append(f"parsing (not included above): {report['totalParseMs']:.2f} ms in total")
    if report["totalEngineMs"] is not None:
        lines.append("goal (total <= engine, every probe <= 3x its median): "
                     + ("met" if report["goalMet"] else
                        f"NOT met; over 3x: {', '.join(report['probesOverRatioLimit']) or 'none'}"))
    return "\n".join(line for line in lines if line)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "bench",
        help="time feature extraction on the golden probes against the engine's recorded medians",
        description="Time extraction of the 27 golden probes and compare with the engine's recorded medians.",
    )
    parser.add_argument("--schema", default="kcp-13", metavar="ID", help="feature schema (default kcp-13)")
    parser.add_argument("--repeat", type=int, default=50, metavar="N", help="timed extractions per probe")
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
    parser.add_argument("--engine-version", metavar="VERSION", default=None,
                        help="also time the live engine VERSION (adapters/jvm) on the same probes in this run")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="wall (perf_counter, default) or cpu (process time: steadier on a busy machine)")
    parser.add_argument("--throughput", action="store_true",
                        help="rows per second of every schema on both backends (the python reference and the native "
                             "accelerator) beside the engine's figures recorded on this kind of machine")
    parser.add_argument("--positions", type=int, default=2000, metavar="N",
                        help="--throughput: random positions of the engine's recording to time (at most 2,000)")
    parser.add_argument("--runs", type=int, default=3, metavar="N", help="--throughput: interleaved runs (median)")
    parser.add_argument("--batch", type=int, default=2000, metavar="N",
                        help="--throughput: rows per native call in the end-to-end figure")
    parser.set_defaults(handler=run)


def _live_engine(schema_id: str, version: str, repeat: int) -> tuple[dict[str, float], str] | None:
    """The live engine's medians for the probes, or None (the recorded ones are used; the reason goes to stderr)."""
    from contract.conformance import engine_bench, engine_build

    engine_build.check_version(version)
    medians, source = engine_bench.engine_medians(schema_id, probes(), version, repeat=repeat, warmup=ENGINE_WARMUP)
    if medians is None:
        print(f"bench: engine: recorded medians ({source})", file=sys.stderr)
        return None
    return medians, source


def run(args: argparse.Namespace) -> int:
    if args.repeat < 1:
        print("bench: --repeat must be at least 1", file=sys.stderr)
        return EXIT_USAGE
    live: tuple[dict[str, float], str] | None = None
    try:
        backend.active()
    except backend.BackendError as exc:
        print(console_text(f"bench: {exc}"), file=sys.stderr)
        return EXIT_USAGE
    if args.throughput:
        return _throughput(args)
    try:
        schema(args.schema)
        if args.engine_version is not None:
            live = _live_engine(args.schema, args.engine_version, args.repeat)
        report = run_bench(args.schema, args.repeat, clock_name=args.clock, live_engine=live)
    except (UnknownSchemaError, ValueError) as exc:
        print(console_text(f"bench: {exc}"), file=sys.stderr)
        return EXIT_USAGE
    print(console_json({"outputVersion": OUTPUT_VERSION, **report}, indent=2) if args.json else format_report(report))
    return EXIT_REFUSED if report["goldenMismatches"] else EXIT_OK


def _throughput(args: argparse.Namespace) -> int:
    if not 1 <= args.positions <= 2000 or args.runs < 1 or args.batch < 1:
        print("bench: --positions must be 1 to 2000, --runs and --batch at least 1", file=sys.stderr)
        return EXIT_USAGE
    report = throughput.measure(args.positions, args.runs, args.batch, args.clock)
    print(console_json({"outputVersion": OUTPUT_VERSION, **report}, indent=2) if args.json
          else throughput.format_throughput(report))
    return EXIT_REFUSED if report["mismatches"] else EXIT_OK
