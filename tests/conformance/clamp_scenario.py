"""The drift scenario of issue 25: the kit's extractor with one feature column clamped, run as an adapter.

The adapter is the kit's own (``contract.conformance.adapter``) with ``contract.features.extract_fen``
patched in its process: ``king_safety_diff`` is clamped to [-1, 1]; the shipped code is not touched. The
script is written to a temporary directory, outside the checkout. :func:`expected_changes` is the
oracle, read from the corpus files themselves (the engine's recordings and the committed vectors), not
from the page or the runner: every case whose ``king_safety_diff`` lies outside [-1, 1], with its
expected value and the clamped one.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
COLUMN = "king_safety_diff"
NAME = "clamped"
ADAPTER = f'''"""The kit's adapter with {COLUMN} clamped to [-1, 1] (a test's drift scenario)."""
import sys

import numpy as np

import contract.features as features
from contract.core.registry import feature_schemas

real = features.extract_fen


def clamped(schema_id, fen, side):
    vector = np.array(real(schema_id, fen, side), dtype=np.float32)
    columns = feature_schemas()[schema_id].columns
    if "{COLUMN}" in columns:
        index = columns.index("{COLUMN}")
        vector[index] = np.clip(vector[index], -1.0, 1.0)
    return vector


features.extract_fen = clamped
from contract.conformance.adapter import main

sys.exit(main())
'''


@dataclass(frozen=True)
class Change:
    case: str
    schema: str
    probe: str
    expected: float
    got: float


def _columns() -> dict[str, list[str]]:
    registry = json.loads((ROOT / "schema" / "feature-schemas.json").read_text(encoding="utf-8"))
    return {entry["id"]: list(entry["columns"]) for entry in registry["schemas"]}


def expected_changes() -> list[Change]:
    """Every feature case the clamp changes, in the runner's order (recorded files first, then vectors)."""
    columns = _columns()
    files = [(f"recorded/{p.stem}", p) for p in sorted((ROOT / "golden" / "recorded").glob("*.engine-*.json"))]
    files += [(f"vectors/{p.stem}", p) for p in sorted((ROOT / "golden" / "vectors").glob("*.json"))]
    changes = []
    for label, path in files:
        document = json.loads(path.read_text(encoding="utf-8"))
        names = columns[document["schema"]]
        if COLUMN not in names:
            continue
        index = names.index(COLUMN)
        for probe in document["probes"]:
            value = np.float32(probe["features"][index])
            clamped = np.clip(value, np.float32(-1.0), np.float32(1.0))
            if clamped != value:
                changes.append(Change(f"features/{label}/{probe['id']}", document["schema"], probe["id"],
                                      float(value), float(clamped)))
    return changes


def run_clamped(directory: Path, page: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """``conformance run --impl clamped=… --kinds features --html PAGE`` from the checkout."""
    adapter = directory / "clamped_adapter.py"
    adapter.write_text(ADAPTER, encoding="utf-8")
    command = [sys.executable, "-m", "contract.conformance", "run", "--impl",
               f"{NAME}={shlex.quote(sys.executable)} {shlex.quote(str(adapter))}",
               "--kinds", "features", "--html", str(page), *extra]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=900, check=False)
