"""A scratch checkout of the kit's corpus (golden/, schema/, generators/) with one feature value changed:
the kcp-13 golden vector of probe start-w, column queen_capture_danger (#12), 0.0 -> 0.5."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Final

from contract.core.resources import data_root

START_W: Final = "features/vectors/kcp-13/start-w"


def checkout_copy(tmp_path: Path, drift: bool = True) -> Path:
    root = tmp_path / "checkout"
    for name in ("golden", "schema", "generators"):
        shutil.copytree(data_root() / name, root / name, ignore=shutil.ignore_patterns("__pycache__"))
    if drift:
        vectors = root / "golden" / "vectors" / "kcp-13.json"
        text = vectors.read_text(encoding="utf-8")
        drifted = text.replace("78.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]", "78.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.5]", 1)
        assert drifted != text
        vectors.write_text(drifted, encoding="utf-8")
    return root
