"""``golden admit FILE``: a recording of an engine release (the engine goldens format) against the kit, bit for bit.

The recording's ``engineVersion`` names the release. Its every probe is compared, as float32 bit patterns,
with the kit's vector for the same FEN and side under each rule set of ``schema/engine-rules.json``: a
release the table names is compared under its own rules; one it does not name under every rule set, and
the recording agrees when one rule set matches every value. Where the rule sets give different vectors
(the edge probes of ``golden/probes.tsv``) the recording shows which rules the release follows, rule by rule
(:class:`RuleEvidence`: each named rule flipped alone, and the value the recorded vectors match on the probes
telling that rule's values apart); a rule none of its probes tells apart is not vouched for (the admitted
release lists it as unknown), and a recording covering no telling probe vouches only for the probes it covers.
Refuses (:class:`AdmissionError`, one line) a file that
is no such recording: unreadable, not the goldens format, an unregistered schema or other columns, a FEN the
kit refuses.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from contract.core.cappedread import read_capped
from contract.core.errors import ContractError
from contract.core.registry import feature_schemas
from contract.features import FenError, parse_fen, rules
from contract.features.extractors import extract_under
from contract.recordings.vectorfile import VectorFile, VectorFileError, read

MAX_BYTES = 64 * 1024 * 1024


class AdmissionError(ContractError, ValueError):
    """A file that is no recording of an engine release in the goldens format."""


@dataclass(frozen=True)
class Difference:
    """One differing value: probe, column and both float32 bit patterns."""

    probe: str
    column: str
    recorded: int
    kit: int

    def text(self) -> str:
        return (f"probe {self.probe} column {self.column}: recorded {self.recorded:08x}"
                f" ({float(np.uint32(self.recorded).view(np.float32))!r}), kit {self.kit:08x}"
                f" ({float(np.uint32(self.kit).view(np.float32))!r})")


@dataclass(frozen=True)
class RuleEvidence:
    """What a recording shows of one named rule: the probes telling its values apart and the value it matches."""

    rule: str
    probes: tuple[str, ...]
    shown: str | None  # the value whose vectors the recording holds on every telling probe; None: no such value

    def text(self) -> str:
        if not self.probes:
            values = " and ".join(rules.values(self.rule))
            return f"{self.rule}: none of its probes tells {values} apart (not vouched for)"
        where = f"{len(self.probes)} probe(s): {', '.join(self.probes)}"
        if self.shown is None:
            return f"{self.rule}: matches none of {', '.join(rules.values(self.rule))} on {where}"
        return f"{self.rule} {self.shown} on {where}"


@dataclass(frozen=True)
class Verdict:
    """What the recording shows: the rule set compared under, the differences, the probes telling rules apart."""

    recording: VectorFile
    rule_set: rules.RuleSet
    known_release: bool
    differences: tuple[Difference, ...]
    telling: tuple[str, ...]  # probes whose vectors differ between rule sets
    evidence: tuple[RuleEvidence, ...] = ()  # per named rule (schema/engine-rules.json)

    @property
    def agrees(self) -> bool:
        return not self.differences

    @property
    def uncovered(self) -> list[str]:
        """The named rules none of the recording's probes tells apart: the recording does not vouch for them."""
        return [e.rule for e in self.evidence if not e.probes]

    def rules_text(self) -> str:
        if not self.telling:
            return ("it covers no probe that tells the rule sets apart: it shows no rule set, and vouches only for"
                    f" its {len(self.recording.probes)} probes")
        shown = "shows" if self.agrees else "is closest to"
        per_rule = "; ".join(e.text() for e in self.evidence)
        return (f"it {shown} rule set {self.rule_set.id} ({self.rule_set.describe()}) on"
                f" {len(self.telling)} probe(s) that tell the rule sets apart: {', '.join(self.telling)}"
                + (f"; per rule: {per_rule}" if per_rule else ""))


def load(path: Path) -> VectorFile:
    """The recording at ``path``; :class:`AdmissionError` naming what is wrong."""
    name = str(path)
    try:
        data = read_capped(path, MAX_BYTES)
    except OSError as exc:
        raise AdmissionError(f"{name}: cannot be read: {exc.strerror or exc}") from None
    if data is None:
        raise AdmissionError(f"{name}: larger than {MAX_BYTES} bytes")
    try:
        recording = read(name, data, versioned=False)
    except VectorFileError as exc:
        raise AdmissionError(f"{exc} (not a recording in the engine goldens format)") from None
    schema = feature_schemas().get(recording.schema)
    if schema is None:
        raise AdmissionError(f"{name}: schema {recording.schema!r} is not registered")
    if recording.columns != schema.columns:
        raise AdmissionError(f"{name}: columns differ from the registry's {recording.schema} columns")
    if not recording.probes:
        raise AdmissionError(f"{name}: no probe recorded")
    return recording


def _kit_bits(recording: VectorFile, rule_set: rules.RuleSet) -> dict[str, tuple[int, ...]]:
    out: dict[str, tuple[int, ...]] = {}
    for probe in recording.probes.values():
        if probe.side not in ("w", "b"):
            raise AdmissionError(f"{recording.name}: probe {probe.id}: side {probe.side!r} is not 'w' or 'b'")
        try:
            position = parse_fen(probe.fen)
        except FenError as exc:
            raise AdmissionError(f"{recording.name}: probe {probe.id}: the kit refuses its FEN: {exc}") from None
        vector = extract_under(recording.schema, position, probe.side, rule_set)
        out[probe.id] = tuple(int(v) for v in np.asarray(vector, dtype=np.float32).view(np.uint32))
    return out


def _evidence(recording: VectorFile, chosen: rules.RuleSet,
              answers: dict[str, dict[str, tuple[int, ...]]]) -> tuple[RuleEvidence, ...]:
    """Per named rule: flip it alone in ``chosen``; the probes whose vectors change tell its values apart, and
    the value whose vectors the recording holds on all of them is the one it shows."""
    found = []
    for rule in rules.RULES:
        kit = {}
        for value in rules.values(rule):
            rule_set = chosen.with_rule(rule, value)
            if rule_set.id not in answers:
                answers[rule_set.id] = _kit_bits(recording, rule_set)
            kit[value] = answers[rule_set.id]
        telling = tuple(p for p in recording.probes if len({bits[p] for bits in kit.values()}) > 1)
        matching = [value for value, bits in kit.items()
                    if all(bits[p] == recording.probes[p].bits() for p in telling)]
        found.append(RuleEvidence(rule, telling, matching[0] if telling and len(matching) == 1 else None))
    return tuple(found)


def _differences(recording: VectorFile, kit: dict[str, tuple[int, ...]]) -> tuple[Difference, ...]:
    found = []
    for probe in recording.probes.values():
        for column, recorded, mine in zip(recording.columns, probe.bits(), kit[probe.id], strict=True):
            if recorded != mine:
                found.append(Difference(probe.id, column, recorded, mine))
    return tuple(found)


def store(path: Path, verdict: Verdict, root: Path, recorded_by: str, when: str) -> Path:
    """Store the agreeing recording verbatim under ``golden/recorded/admitted/<v>/`` with ``provenance.json``
    (who recorded it, its SHA-256, the rule set it shows); the kit vouches for that release from then on."""
    import hashlib
    import json

    from contract.core.stagedfile import write_atomic
    from contract.features import admitted

    if not verdict.agrees:
        raise AdmissionError(f"{path}: not stored: it disagrees with the kit")
    data = read_capped(path, MAX_BYTES)
    if data is None:
        raise AdmissionError(f"{path}: larger than {MAX_BYTES} bytes")
    version = verdict.recording.engine_version
    target = admitted.directory(version, root / "golden")
    target.mkdir(parents=True, exist_ok=True)
    stored = target / f"{verdict.recording.schema}.engine-{version}.json"
    write_atomic(stored, data)
    table_unknown = [] if not verdict.known_release else list(rules.release(version).unknown)
    shown = {e.rule for e in verdict.evidence if e.shown is not None}
    provenance = {
        "engineVersion": version,
        "schema": verdict.recording.schema,
        "file": stored.name,
        "sha256": hashlib.sha256(data).hexdigest(),
        "recordedBy": recorded_by,
        "admitted": when,
        "ruleSet": verdict.rule_set.id,
        # a rule stays unknown unless the recording shows it on a probe telling its values apart
        "unknownRules": [r for r in rules.RULES if r in table_unknown or r in verdict.uncovered
                         or r not in shown],
        "rulesShown": verdict.rules_text(),
        "probes": len(verdict.recording.probes),
    }
    write_atomic(target / admitted.PROVENANCE, json.dumps(provenance, indent=2) + "\n")
    return stored


def admit(path: Path) -> Verdict:
    """Compare the recording at ``path`` with the kit's vectors for its release."""
    recording = load(path)
    known = recording.engine_version in rules.table().releases
    candidates = list(rules.table().rule_sets.values())
    answers = {rule_set.id: _kit_bits(recording, rule_set) for rule_set in candidates}
    telling = tuple(probe for probe in recording.probes
                    if len({answer[probe] for answer in answers.values()}) > 1)
    if known:
        chosen = rules.for_engine(recording.engine_version)
        return Verdict(recording, chosen, True, _differences(recording, answers[chosen.id]), telling,
                       _evidence(recording, chosen, answers))
    verdicts = [Verdict(recording, rule_set, False, _differences(recording, answers[rule_set.id]), telling)
                for rule_set in candidates]
    best = min(verdicts, key=lambda verdict: len(verdict.differences))
    return Verdict(recording, best.rule_set, False, best.differences, telling,
                   _evidence(recording, best.rule_set, answers))
