"""Engine releases admitted by their recording (``golden admit --write``): ``golden/recorded/admitted/<v>/``.

Each admitted release has a directory holding the recording verbatim and ``provenance.json`` (who recorded
it, when it was admitted, its SHA-256 and the rule set the recording shows). :func:`release` reads that
provenance for :mod:`contract.features.rules`; a directory without a readable provenance is not an admitted
release (``golden check`` reports it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from contract.core import resources

if TYPE_CHECKING:
    from contract.features.rules import Release

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


def release(version: str) -> Release | None:
    """Admitted release ``version`` with the rule set its recording shows, or ``None``."""
    from contract.features import rules

    doc = provenance(version)
    if doc is None or not isinstance(doc.get("ruleSet"), str):
        return None
    unknown = doc.get("unknownRules")
    return rules.Release(version, rules.rule_set(str(doc["ruleSet"])),
                         tuple(str(u) for u in unknown) if isinstance(unknown, list) else (),
                         f"golden/recorded/admitted/{version}/ (golden admit --write)")
