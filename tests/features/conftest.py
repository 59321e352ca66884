"""Shared data for the feature tests: the vendored engine recordings under golden/recorded/."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

RECORDED = Path(__file__).resolve().parents[2] / "golden" / "recorded"

GOLDEN_FILES = (
    "kcp-13.engine-0.12.0.json",
    "rich-9-v1.engine-0.12.0.json",
    "kcp-mobility-27-v1.engine-0.9.3.json",
    "kcp-mobility-pawns-31-v1.engine-0.9.3.json",
)


def load_json(*parts: str) -> Any:
    return json.loads(RECORDED.joinpath(*parts).read_text(encoding="utf-8"))


def golden_vectors() -> list[tuple[str, str, str, str, np.ndarray]]:
    """(schema, probe id, fen, side, recorded float32 vector) for every recorded vector."""
    out = []
    for name in GOLDEN_FILES:
        data = load_json(name)
        for probe in data["probes"]:
            vector = np.array(probe["features"], dtype=np.float64).astype(np.float32)
            out.append((data["schema"], probe["id"], probe["fen"], probe["side"], vector))
    return out


def golden_probes() -> list[dict[str, Any]]:
    return list(load_json(GOLDEN_FILES[0])["probes"])


@pytest.fixture(scope="session")
def probes() -> list[dict[str, Any]]:
    return golden_probes()
