"""Which engine rule each kit vector follows, and which recordings back its value: the ``rules`` label.

Every probe of a kit vector file (``golden/vectors/<schema>.json``, golden-vectors format 1.2.0) carries a
``rules`` object computed here from the kit's extractors and the recordings under ``golden/recorded/``:

- ``dependsOn``: the named rules of ``schema/engine-rules.json`` whose value changes this vector (each rule
  flipped alone, the other kept as the file's release has it); empty when every rule set gives the same value;
- ``follows`` (when ``dependsOn`` is not empty): the value of each such rule the file's release follows;
- ``unknown`` (idem): those of them the table does not know for the file's release (its ``unknown``), so the
  kit's value there is its reading of the pre-split sources, not a release's recorded answer;
- ``recordedBy``: every recorder under ``golden/recorded/`` that holds exactly this value, bit for bit, for the
  same schema, FEN and side (under whatever rules the recorder follows); empty = the kit's word alone;
- ``otherRuleSets`` (when ``dependsOn`` is not empty): each other named rule set whose value differs, with
  that value and its recorders.

:func:`text` turns a label into the sentence ``golden check`` and the report print. Nothing here refuses:
the extractors' refusals propagate to the generator, which names the probe.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from contract.features import Position, rules
from contract.features.extractors import extract_under
from contract.recordings.recorded import Recording

Key = tuple[str, str, str]  # schema, FEN, side


def index(records: Iterable[Recording]) -> dict[Key, list[Recording]]:
    """The recordings by schema, FEN and side."""
    found: dict[Key, list[Recording]] = {}
    for record in records:
        found.setdefault((record.schema, record.fen, record.side), []).append(record)
    return found


def _bits(vector: np.ndarray | Sequence[float]) -> tuple[int, ...]:
    return tuple(int(b) for b in np.asarray(vector, dtype=np.float32).view(np.uint32))


def recorders(by_key: Mapping[Key, list[Recording]], key: Key, bits: tuple[int, ...]) -> list[str]:
    """Every recorder holding exactly ``bits`` for ``key``, in recording order."""
    return list(dict.fromkeys(r.recorder for r in by_key.get(key, ()) if r.bits == bits))


def label(schema_id: str, position: Position, fen: str, side: str, vector: Sequence[float], *,
          release: rules.Release, by_key: Mapping[Key, list[Recording]]) -> dict[str, Any]:
    """The ``rules`` object of one kit vector (``vector``, extracted under ``release``'s rules)."""
    colour = side == "w"
    mine = _bits(vector)
    own = release.rules
    ruled = _bits(extract_under(schema_id, position, colour, own))  # the rules' answer, whatever ``vector`` is
    depends = [rule for rule in rules.RULES
               if any(_bits(extract_under(schema_id, position, colour, own.with_rule(rule, value))) != ruled
                      for value in rules.values(rule) if value != own.value(rule))]
    key = (schema_id, fen, side)
    out: dict[str, Any] = {"dependsOn": depends}
    if depends:
        out["follows"] = {rule: own.value(rule) for rule in depends}
        out["unknown"] = [rule for rule in depends if rule in release.unknown]
    out["recordedBy"] = recorders(by_key, key, mine)
    others = []
    for rule_set in rules.table().rule_sets.values() if depends else ():
        if rule_set.id == own.id:
            continue
        theirs = extract_under(schema_id, position, colour, rule_set)
        if _bits(theirs) != ruled:
            others.append({"ruleSet": rule_set.id, "features": [float(v) for v in theirs],
                           "recordedBy": recorders(by_key, key, _bits(theirs))})
    if others:
        out["otherRuleSets"] = others
    return out


def rule_text(found: Mapping[str, Any], release: str) -> str:
    """The rule part of :func:`text`: the rule the value follows and what that leaves unknown."""
    depends = list(found.get("dependsOn", ()))
    if not depends:
        return "the same under every rule set"
    follows = found.get("follows", {})
    parts = ["follows " + ", ".join(f"{rule} {follows.get(rule)}" for rule in depends)]
    unknown = list(found.get("unknown", ()))
    if unknown:
        parts.append(f"not known for {release}: " + "; ".join(
            f"{rule} {' or '.join(rules.values(rule))}" for rule in unknown))
    for other in found.get("otherRuleSets", ()):
        by = ", ".join(other.get("recordedBy", ())) or "no recording"
        parts.append(f"under rule set {other.get('ruleSet')} it differs ({by})")
    return "; ".join(parts)


def text(found: Mapping[str, Any], release: str, twin_of: str | None = None) -> str:
    """One sentence: the rule the value follows, what it leaves unknown, and what backs it."""
    backed = list(found.get("recordedBy", ()))
    backing = ("recorded by " + ", ".join(backed) if backed else
               "no recording: the kit's word alone" + (f" (twin of {twin_of})" if twin_of else ""))
    return f"{rule_text(found, release)}; {backing}"
