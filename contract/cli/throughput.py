"""``python -m contract bench --throughput``: rows per second of every schema on both feature backends,
beside the engine's figures recorded on this kind of machine (golden/recorded/engine-live/README.md).

Measured as the engine's figures were (that README, "Speed on this kind of machine"): the 2,000 random
midgame positions of the recorded differential (the same positions), extraction on parsed positions,
one thread, medians of interleaved runs (each run times every schema on each backend in turn):

* ``python``: the reference extractors on freshly parsed :class:`~contract.features.position.Position`
  objects (nothing memoised between runs);
* ``native``: the accelerator on positions it parsed beforehand (``ParsedBatch.extract``);
* ``native end to end``: FEN text in, float32 ``[n, width]`` array out, in batches of ``--batch`` rows.

A benchmark, not a test: the exit code is 0 unless the two backends' vectors differ.
"""

from __future__ import annotations

import datetime as _dt
import os
import platform
import re
import statistics
import time
from collections.abc import Callable
from typing import Any, cast

import numpy as np

from contract.core import registry
from contract.core.resources import golden_dir
from contract.features import backend
from contract.features.dfen import parse_fen
from contract.features.extractors import EXTRACTORS
from contract.recordings import enginelive

ENGINE_README = "golden/recorded/engine-live/README.md"
ENGINE_FIGURE = re.compile(r"([a-z0-9-]+) kit ([0-9,]+)\s+/\s+engine ([0-9,]+)")
SOURCE = ("engine 0.12.0 (rebuild), recorded live 2026-12-01 on this kind of machine, 2,000 random midgame "
          f"positions, medians of 3 interleaved runs ({ENGINE_README})")


def engine_figures() -> dict[str, int]:
    """Rows per second per core the engine reached, by schema id, as its recording's README states them."""
    text = (golden_dir() / "recorded" / "engine-live" / "README.md").read_text(encoding="utf-8")
    return {schema_id: int(engine.replace(",", "")) for schema_id, _kit, engine in ENGINE_FIGURE.findall(text)
            if schema_id in registry.feature_schemas()}


def recorded_positions(count: int) -> list[tuple[str, str]]:
    """(FEN, side) of the first ``count`` random positions of the engine's recording (at most 2,000)."""
    path = golden_dir() / "recorded" / "engine-live" / "engine-vectors-default-seed20261130.jsonl.gz"
    rows = [(p.fen, p.side) for p in enginelive.read(path) if p.probe_id is None]
    return rows[:count]


def _timed(clock: Callable[[], int], work: Callable[[], object]) -> tuple[float, object]:
    start = clock()
    result = work()
    return (clock() - start) / 1e9, result


def _python_run(function: Callable[..., object], rows: list[tuple[str, str]]) -> Callable[[], object]:
    positions = [parse_fen(fen) for fen, _side in rows]  # fresh objects: nothing memoised between runs
    return lambda: [function(p, side == "w") for p, (_fen, side) in zip(positions, rows, strict=True)]


def _native_run(parsed: Any, code: int, sides: bytes, out: np.ndarray) -> Callable[[], object]:
    return lambda: parsed.extract(code, sides, out)


def _end_to_end_run(native: Any, code: int, fens: list[str], sides: bytes, batch: int) -> Callable[[], object]:
    return lambda: [native.extract_fens(code, fens[i:i + batch], sides[i:i + batch])
                    for i in range(0, len(fens), batch)]


def measure(count: int, runs: int, batch: int, clock_name: str = "wall") -> dict[str, Any]:
    """The throughput report (see the module docstring)."""
    rows = recorded_positions(count)
    fens = [fen for fen, _side in rows]
    sides = "".join(side for _fen, side in rows).encode()
    active = backend.active()
    native = active.module if active.name == "native" else None
    clock = time.perf_counter_ns if clock_name == "wall" else time.process_time_ns
    samples: dict[str, dict[str, list[float]]] = {}
    mismatches: list[str] = []
    parsed = native.parse_fens(fens) if native is not None else None
    for _run in range(runs):
        for entry in registry.feature_schemas().values():
            cell = samples.setdefault(entry.id, {"python": [], "native": [], "nativeEndToEnd": []})
            seconds, python = _timed(clock, _python_run(EXTRACTORS[entry.engine_extractor], rows))
            cell["python"].append(len(rows) / seconds)
            code = active.code(entry.id)
            if native is None or code is None:
                continue
            out = np.zeros((len(rows), entry.width), dtype=np.float32)  # reused, as a bulk caller would
            _native_run(parsed, code, sides, out)()  # untimed: the buffer's pages are mapped before timing
            seconds, values = _timed(clock, _native_run(parsed, code, sides, out))
            cell["native"].append(len(rows) / seconds)
            seconds, _ = _timed(clock, _end_to_end_run(native, code, fens, sides, batch))
            cell["nativeEndToEnd"].append(len(rows) / seconds)
            reference = np.array([np.asarray(v, dtype=np.float32) for v in cast(list[Any], python)])
            if np.asarray(values).view(np.uint32).tobytes() != reference.view(np.uint32).tobytes():
                mismatches.append(entry.id)
    engine = engine_figures()
    table: list[dict[str, Any]] = []
    for schema_id, cell in samples.items():
        median = {k: (statistics.median(v) if v else None) for k, v in cell.items()}
        figure = engine.get(schema_id)
        python_rate = median["python"] or 0.0
        table.append({"schema": schema_id, "pythonRowsPerSecond": median["python"],
                    "nativeRowsPerSecond": median["native"], "nativeEndToEndRowsPerSecond": median["nativeEndToEnd"],
                    "engineRowsPerSecond": figure,
                    "nativeOverEngine": None if figure is None or not median["native"] else median["native"] / figure,
                    "pythonOverEngine": None if figure is None else python_rate / figure})
    return {
        "mode": "throughput",
        "positions": len(rows),
        "runs": runs,
        "batch": batch,
        "clock": clock_name,
        "date": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine": {"platform": platform.platform(), "processor": platform.machine(), "cpus": os.cpu_count(),
                    "python": platform.python_implementation() + " " + platform.python_version()},
        "backend": active.describe(),
        "engineSource": SOURCE,
        "schemas": sorted(table, key=lambda r: registry.schema_ids().index(r["schema"])),
        "mismatches": sorted(set(mismatches)),
    }


def _rate(value: float | None) -> str:
    return f"{value:12,.0f}" if value is not None else f"{'n/a':>12s}"


def format_throughput(report: dict[str, Any]) -> str:
    lines = [f"rows per second, one thread, {report['positions']:,} random midgame positions, median of "
             f"{report['runs']} interleaved runs, {report['clock']} clock ({report['date']}, "
             f"{report['machine']['python']}, {report['machine']['cpus']} cpus)",
             f"backend in use: {report['backend']}",
             f"engine: {report['engineSource']}",
             f"{'schema':26s} {'python':>12s} {'native':>12s} {'native e2e':>12s} {'engine':>12s} {'native/eng':>10s}"]
    for row in report["schemas"]:
        ratio = f"{row['nativeOverEngine']:10.1f}" if row["nativeOverEngine"] is not None else f"{'n/a':>10s}"
        lines.append(f"{row['schema']:26s} {_rate(row['pythonRowsPerSecond'])} {_rate(row['nativeRowsPerSecond'])} "
                     f"{_rate(row['nativeEndToEndRowsPerSecond'])} {_rate(row['engineRowsPerSecond'])} {ratio}")
    lines.append("python and native: extraction on parsed positions; native e2e: FEN text in, array out, "
                 f"batches of {report['batch']:,}")
    if report["mismatches"]:
        lines.append("BACKENDS DIFFER on: " + ", ".join(report["mismatches"]))
    return "\n".join(lines)
