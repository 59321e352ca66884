"""Which engine version an enriched shard may name: one whose values the kit's vectors are recorded against.

An enriched shard says ``engine_version``: the engine release its values stand for. The kit computes
the values itself, so it names only a release whose own answers for that schema the kit carries in
``golden/recorded/`` and agrees with bit for bit (``golden check`` and ``tests/features/`` compare every
one): the engine's live recording of all seven schemas (engine 0.12.0, :mod:`contract.golden.enginelive`),
and each recorded golden file, by the ``schema`` and ``engineVersion`` it states (kcp-13 and rich-9-v1 at
0.12.0, the mobility schemas at 0.9.3, and any older kcp-13 golden vendored later). The default is the
live recording's release, which covers every schema.

:func:`resolve` turns the asked version into what a run needs, once: the version to stamp and the rule set
of that release (:mod:`contract.features.rules`), which the extractors then use for every row. With
``--engine-recording FILE`` a release the kit does not carry is accepted when FILE is a recording of that
release and schema (the engine goldens format) that agrees with the kit bit for bit under some rule set
(the comparison of ``golden admit``, :mod:`contract.golden.admission`); the run then follows the rule set the
recording shows, and the output names the recording (:data:`RECORDING_KEY`: its file name, SHA-256 and rule
set). Refuses: a version the kit cannot vouch for without a recording, and a FILE that is no recording of
that release and schema (:class:`OptionError`, exit 2); a recording that disagrees with the kit
(:class:`EnrichmentError` naming the first difference: probe, column, both bit patterns; exit 1).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from contract.core import resources
from contract.core.cappedread import read_capped
from contract.core.strictjson import StrictJsonError
from contract.core.strictjson import parse as parse_json
from contract.enrichment.rows import EnrichmentError, OptionError
from contract.features import rules

LIVE_RECORDING_VERSION = "0.12.0"  # golden/recorded/engine-live/README.md: a rebuild of engine 0.12.0
DEFAULT_ENGINE_VERSION = LIVE_RECORDING_VERSION
MAX_GOLDEN_BYTES = 4 << 20
RECORDING_KEY = b"dicechess.engine-recording"  # an additional key: the six keys the training reader checks stay


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


@dataclass(frozen=True)
class Engine:
    """A run's engine release, resolved once: the version stamped, the rule set extracted under (``None``: the
    default release's, which the accelerator implements), and the metadata naming a recording that vouched."""

    version: str
    rules: rules.RuleSet | None
    vouched_by: dict[bytes, bytes]


def rules_of(version: str | None) -> rules.RuleSet | None:
    """The rule set of engine ``version`` (``None``: the default release) for extraction: ``None`` for the
    default release's; a usage error for a version the kit knows no rules of (``extract --engine-version``
    takes any release of ``schema/engine-rules.json``, an admitted one, or ``newest-sources``)."""
    version = DEFAULT_ENGINE_VERSION if version is None else version
    try:
        found = rules.for_engine(version)
    except rules.UnknownEngineError as exc:
        raise OptionError(f"--engine-version {version!r}: {exc}") from None
    return None if found == rules.default_rules() else found


def resolve(schema_id: str, asked: str | None, recording: Path | None = None) -> Engine:
    """The engine release of a run (see the module docstring), or the refusal naming what is wrong."""
    if recording is None:
        version = engine_version(schema_id, asked)
        return Engine(version, rules_of(version), {})
    from contract.golden import admission

    version = DEFAULT_ENGINE_VERSION if asked is None else asked
    try:
        verdict = admission.admit(recording)
        data = read_capped(recording, admission.MAX_BYTES)
    except admission.AdmissionError as exc:
        raise OptionError(f"--engine-recording {exc}") from None  # the message starts with the path
    except OSError as exc:
        raise OptionError(f"--engine-recording {recording}: cannot be read: {exc.strerror or exc}") from None
    recorded = verdict.recording
    if recorded.engine_version != version:
        raise OptionError(f"--engine-recording {recording}: a recording of engine {recorded.engine_version},"
                          f" not of --engine-version {version}")
    if recorded.schema != schema_id:
        raise OptionError(f"--engine-recording {recording}: a recording of schema {recorded.schema},"
                          f" not of --schema {schema_id}")
    if data is None:
        raise OptionError(f"--engine-recording {recording}: larger than {admission.MAX_BYTES} bytes")
    if not verdict.agrees:
        first = verdict.differences[0]
        raise EnrichmentError(f"--engine-recording {recording}: engine {version} disagrees with the kit on"
                              f" {len(verdict.differences)} value(s); first: {first.text()}; nothing written")
    stamp = {"file": recording.name, "sha256": hashlib.sha256(data).hexdigest(), "engineVersion": version,
             "schema": schema_id, "ruleSet": verdict.rule_set.id, "probes": len(recorded.probes),
             "rulesShown": verdict.rules_text()}
    chosen = None if verdict.rule_set == rules.default_rules() else verdict.rule_set
    return Engine(version, chosen, {RECORDING_KEY: json.dumps(stamp, sort_keys=True).encode("utf-8")})
