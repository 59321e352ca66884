"""Helpers for the enrichment tests: the recorded kcp-13 probes, rows built from them, the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from contract.core.resources import golden_dir

REPO = Path(__file__).resolve().parents[2]
KCP13_GOLDEN = "kcp-13.engine-0.12.0.json"


def load_golden(name: str = KCP13_GOLDEN) -> dict[str, Any]:
    with open(golden_dir() / "recorded" / name, encoding="utf-8") as handle:
        loaded: dict[str, Any] = json.load(handle)
    return loaded


def corpus_rows(count: int) -> list[dict[str, Any]]:
    """``count`` rows cycling through the 27 recorded probes, with an extra field to carry through."""
    probes = load_golden()["probes"]
    return [
        {"id": f"row-{index}", "fen": probes[index % len(probes)]["fen"],
         "side": probes[index % len(probes)]["side"], "ply": index}
        for index in range(count)
    ]


def write_jsonl(path: Path, rows: Iterable[dict[str, Any] | str]) -> Path:
    """Rows as JSONL; a ``str`` item is written as a raw line (to plant malformed input)."""
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        for row in rows:
            handle.write((row if isinstance(row, str) else json.dumps(row)) + "\n")
    return path


def cli_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    return env


def run_cli(*args: str | Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``python -m contract ARGS`` in a child process, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "contract", *map(str, args)],
        capture_output=True, text=True, env=cli_env(), timeout=timeout, check=False,
    )
