"""Engine releases admitted by their recording (``golden admit --write``): ``golden/recorded/admitted/<v>/``.

Each admitted release has a directory holding the recording verbatim and ``provenance.json`` (who recorded
it, when it was admitted, its SHA-256 and the rule set the recording shows). :mod:`contract.features.rules` reads
that provenance to know an admitted release's rule set; a directory without a readable provenance is not an
admitted release (``golden check`` reports it). It imports nothing but the kit's resources, so the rules, the
recording readers and the golden package can all read it without a cycle.
"""

from __future__ import annotations

import json
from pathlib import Path

from contract.core import resources

ADMITTED_DIR = "recorded/admitted"
PROVENANCE = "provenance.json"
MAX_BYTES = 1 << 20


def directory(version: str, root: Path | None = None) -> Path:
    """Where release ``version``'s admitted recording lives."""
    return (resources.golden_dir() if root is None else root) / ADMITTED_DIR / version


def provenance(version: str, root: Path | None = None) -> dict[str, object] | None:
    """The provenance of admitted release ``version``, or ``None`` when it was not admitted."""
    path = directory(version, root) / PROVENANCE
    try:
        if not path.is_file() or path.stat().st_size > MAX_BYTES:
            return None
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) and doc.get("engineVersion") == version else None


def versions(root: Path | None = None) -> list[str]:
    """Every admitted release."""
    base = (resources.golden_dir() if root is None else root) / ADMITTED_DIR
    if not base.is_dir():
        return []
    return sorted(p.name for p in base.iterdir() if provenance(p.name, root) is not None)
