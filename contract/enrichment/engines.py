"""Which engine version an enriched shard may name: one whose values the kit's vectors are recorded against.

An enriched shard says ``engine_version``: the engine release its values stand for. The kit computes
the values itself, so it names only a release whose own answers for that schema the kit carries in
``golden/recorded/`` and agrees with bit for bit (``golden check`` and ``tests/features/`` compare every
one): the engine's live recording of all seven schemas (engine 0.12.0, :mod:`contract.golden.enginelive`),
and each recorded golden file, by the ``schema`` and ``engineVersion`` it states (kcp-13 and rich-9-v1 at
0.12.0, the mobility schemas at 0.9.3, and any older kcp-13 golden vendored later). The default is the
live recording's release, which covers every schema.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from contract.core import resources
from contract.core.strictjson import StrictJsonError
from contract.core.strictjson import parse as parse_json
from contract.enrichment.rows import OptionError

LIVE_RECORDING_VERSION = "0.12.0"  # golden/recorded/engine-live/README.md: a rebuild of engine 0.12.0
DEFAULT_ENGINE_VERSION = LIVE_RECORDING_VERSION
MAX_GOLDEN_BYTES = 4 << 20


@cache
def _recorded_goldens(root: Path) -> frozenset[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    recorded = root / "recorded"  # the engine's goldens, and releases admitted by golden admit --write
    for path in [*sorted(recorded.glob("*.json")), *sorted(recorded.glob("admitted/*/*.engine-*.json"))]:
        try:
            if path.stat().st_size > MAX_GOLDEN_BYTES:
                continue
            doc = parse_json(path.read_bytes())
        except (OSError, StrictJsonError):
            continue  # not a golden this module can read; golden check reports it
        if isinstance(doc, dict) and isinstance(doc.get("schema"), str) and isinstance(doc.get("engineVersion"), str) \
                and isinstance(doc.get("probes"), list):
            found.add((doc["schema"], doc["engineVersion"]))
    return frozenset(found)


def vouched_versions(schema_id: str) -> list[str]:
    """The engine versions the kit can name for ``schema_id``, oldest first."""
    versions = {LIVE_RECORDING_VERSION} | {
        version for schema, version in _recorded_goldens(resources.golden_dir()) if schema == schema_id}
    return sorted(versions, key=lambda text: tuple(int(part) if part.isdigit() else -1 for part in text.split(".")))


def engine_version(schema_id: str, asked: str | None) -> str:
    """The version to write: ``asked``, or the default; a usage error naming the vouched ones otherwise."""
    version = DEFAULT_ENGINE_VERSION if asked is None else asked
    known = vouched_versions(schema_id)
    if version not in known:
        raise OptionError(f"--engine-version {version!r}: the kit's {schema_id} values are recorded against engine"
                          f" {', '.join(known)} only; it cannot vouch for another release")
    return version
