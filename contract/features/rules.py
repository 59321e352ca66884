"""The rules an engine release's move generator follows, where releases differ (``schema/engine-rules.json``).

Engine releases differ in two named rules: ``castling`` (``per-king``: castles generated once per king
piece; ``per-side``: once per side) and ``enPassant`` (``onto-any``: onto the target square whether or not
it is occupied; ``onto-empty``: only onto an empty target, which only an en-passant capture drops). A
:class:`RuleSet` is one choice of both; the move generator takes it as a parameter. :func:`for_engine`
maps an engine version (or the newest public sources, ``newest-sources``) to its rule set, and says which
rules the kit does not know for that release (:attr:`Release.unknown`). Refuses (:class:`UnknownEngineError`,
one line) an engine version the table does not list.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache

from contract.core import formatversion
from contract.core.errors import ContractError
from contract.core.resources import schema_dir
from contract.features.admitted import provenance as admitted_provenance

RULES_FILE = "engine-rules.json"
RULES = ("castling", "enPassant")  # the named rules of the table, in its order
NEWEST_SOURCES = "newest-sources"


class UnknownEngineError(ContractError, ValueError):
    """An engine version whose rules the kit's table does not name."""


@dataclass(frozen=True)
class RuleSet:
    """One choice of each rule that differs between engine releases."""

    id: str
    castling: str  # "per-king" | "per-side"
    en_passant: str  # "onto-any" | "onto-empty"
    native: bool  # the accelerator implements this set

    @property
    def castle_per_king(self) -> bool:
        return self.castling == "per-king"

    @property
    def ep_onto_any(self) -> bool:
        return self.en_passant == "onto-any"

    def describe(self) -> str:
        """``castling per-king, en passant onto-any``."""
        return f"castling {self.castling}, en passant {self.en_passant}"

    def value(self, rule: str) -> str:
        """This set's value of ``rule`` (a name of :data:`RULES`)."""
        if rule not in RULES:
            raise UnknownEngineError(f"unknown rule {rule!r} (known: {', '.join(RULES)})")
        return self.castling if rule == "castling" else self.en_passant

    def with_rule(self, rule: str, value: str) -> RuleSet:
        """This set with ``rule`` taking ``value`` (a set the table need not name: it tells rules apart)."""
        castling, en_passant = (value, self.en_passant) if rule == "castling" else (self.castling, value)
        if self.value(rule) == value:
            return self
        named = [s for s in table().rule_sets.values() if (s.castling, s.en_passant) == (castling, en_passant)]
        if named:
            return named[0]
        return RuleSet(f"castling {castling}, en passant {en_passant}", castling, en_passant, False)


@dataclass(frozen=True)
class Release:
    """An engine release (or the newest sources) and its rule set; ``unknown`` lists rules not known for it."""

    version: str
    rules: RuleSet
    unknown: tuple[str, ...]
    evidence: str


@dataclass(frozen=True)
class Table:
    rule_sets: dict[str, RuleSet]
    releases: dict[str, Release]
    default_release: str
    values: dict[str, tuple[str, ...]]  # rule -> its values, in the table's order


@cache
def table() -> Table:
    """The table of ``schema/engine-rules.json``."""
    raw = json.loads((schema_dir() / RULES_FILE).read_text(encoding="utf-8"))
    formatversion.check(f"schema/{RULES_FILE}", raw, "engine-rules")
    sets = {entry["id"]: RuleSet(entry["id"], entry["castling"], entry["enPassant"], entry["native"])
            for entry in raw["ruleSets"]}
    releases: dict[str, Release] = {}
    for entry in [*raw["releases"], *({**s, "version": s["id"], "unknown": []} for s in raw["sources"])]:
        if entry["ruleSet"] not in sets:
            raise RuntimeError(f"{RULES_FILE}: {entry['version']} names an unknown rule set {entry['ruleSet']!r}")
        releases[entry["version"]] = Release(entry["version"], sets[entry["ruleSet"]], tuple(entry["unknown"]),
                                             entry["evidence"])
    if raw["defaultRelease"] not in releases:
        raise RuntimeError(f"{RULES_FILE}: defaultRelease {raw['defaultRelease']!r} is not listed")
    values = {rule: tuple(raw["rules"][rule]) for rule in RULES}
    return Table(sets, releases, raw["defaultRelease"], values)


def default_release() -> str:
    """The kit's default engine release (``0.12.0``)."""
    return table().default_release


def default_rules() -> RuleSet:
    return table().releases[default_release()].rules


def rule_set(rule_set_id: str) -> RuleSet:
    """The rule set named ``rule_set_id``."""
    sets = table().rule_sets
    if rule_set_id not in sets:
        raise UnknownEngineError(f"unknown rule set {rule_set_id!r} (known: {', '.join(sets)})")
    return sets[rule_set_id]


def _admitted(version: str) -> Release | None:
    """Admitted release ``version`` with the rule set its recording shows, or ``None``."""
    doc = admitted_provenance(version)
    if doc is None or not isinstance(doc.get("ruleSet"), str):
        return None
    unknown = doc.get("unknownRules")
    return Release(version, rule_set(str(doc["ruleSet"])),
                   tuple(str(u) for u in unknown) if isinstance(unknown, list) else (),
                   f"golden/recorded/admitted/{version}/ (golden admit --write)")


def release(version: str | None) -> Release:
    """The release ``version`` (``None`` = the default), or :class:`UnknownEngineError` naming the known ones."""
    releases = table().releases
    wanted = default_release() if version is None else version
    if wanted not in releases:
        found = _admitted(wanted)  # an admitted release (golden admit --write) names its rule set
        if found is not None:
            return found
        raise UnknownEngineError(f"engine version {wanted!r}: the kit knows the rules of {', '.join(releases)} only"
                                 " (golden admit --write adds a release by its recording)")
    return releases[wanted]


def for_engine(version: str | None) -> RuleSet:
    """The rule set of engine ``version`` (``None`` = the kit's default release)."""
    return release(version).rules


def values(rule: str) -> tuple[str, ...]:
    """Every value of ``rule`` the table names (``per-king``, ``per-side`` for ``castling``)."""
    if rule not in RULES:
        raise UnknownEngineError(f"unknown rule {rule!r} (known: {', '.join(RULES)})")
    return table().values[rule]


def version_following(rule_set_id: str) -> str:
    """A version in the table that follows rule set ``rule_set_id`` (extraction needs only its rules)."""
    for version, entry in table().releases.items():
        if entry.rules.id == rule_set_id:
            return version
    raise UnknownEngineError(f"no release in schema/{RULES_FILE} follows rule set {rule_set_id!r}")
