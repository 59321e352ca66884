"""The machinery of an ordered check table: entries run in order, the first failure wins.

A :class:`Check` is a stable code, a test and the message template the test's fields fill in. A
test returns ``None`` when the subject passes, or a mapping of template fields when it fails; it
may add warnings to the context but never raises for a bad artifact. :class:`Within` runs a
sub-table on one part of the subject (the ``packer`` object, say), and :class:`ForEach` runs a
sub-table on each item of a sequence in turn, so that checks on the same item interleave exactly
as the reference interleaves them (an earlier file's digest mismatch before a later unsafe path).

A check may also name the field it concerns as a JSON pointer template (``/{name}``); the failure
carries it rendered, each placeholder's value escaped as RFC 6901 requires. The model-package
families take their codes, fields and message templates from ``schema/check-table.json``
(:func:`table_family`), so that every implementation reads the same table; only the tests are code.

>>> check = Check("demo.short", lambda s: {"n": len(s)} if len(s) < 3 else PASS, "only {n} characters",
...               field="/name")
>>> first_failure([check], "ab")
Failure(code='demo.short', message='only 2 characters', field='/name')
>>> first_failure([check], "abc") is None
True
>>> render_pointer("/{name}/{key}", {"name": "provenance", "key": "a/b~c"})
'/provenance/a~1b~0c'
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as attribute
from functools import cache
from typing import Any, Final, Generic, TypeVar

from contract.core.resources import schema_dir

S = TypeVar("S")

Fields = Mapping[str, object]
PASS: None = None


@dataclass(frozen=True)
class Failure:
    """The first failing check: its code and the message with the fields filled in."""

    code: str
    message: str
    field: str | None = None


@dataclass(frozen=True)
class Check(Generic[S]):
    code: str
    test: Callable[[S], Fields | None]
    message: str
    field: str | None = None


@dataclass(frozen=True)
class Within(Generic[S]):
    """Run ``checks`` on ``select(subject)``."""

    select: Callable[[S], Any]
    checks: Sequence[Entry[Any]]


@dataclass(frozen=True)
class ForEach(Generic[S]):
    """Run ``checks`` on each item of ``items(subject)``, one item at a time."""

    items: Callable[[S], Iterable[Any]]
    checks: Sequence[Entry[Any]]


Entry = Check[S] | Within[S] | ForEach[S]


def first_failure(entries: Sequence[Entry[S]], subject: S) -> Failure | None:
    """Run ``entries`` in order on ``subject``; the first failure, or None when all pass."""
    for entry in entries:
        failure: Failure | None
        if isinstance(entry, Check):
            fields = entry.test(subject)
            failure = None if fields is None else Failure(
                entry.code,
                entry.message.format_map(fields),
                None if entry.field is None else render_pointer(entry.field, fields),
            )
        elif isinstance(entry, Within):
            failure = first_failure(entry.checks, entry.select(subject))
        else:
            failure = None
            for item in entry.items(subject):
                failure = first_failure(entry.checks, item)
                if failure is not None:
                    break
        if failure is not None:
            return failure
    return None


def codes(entries: Sequence[Entry[Any]]) -> list[str]:
    """Every check code in table order (sub-tables flattened), for documentation and tests."""
    out: list[str] = []
    for entry in entries:
        if isinstance(entry, Check):
            out.append(entry.code)
        else:
            out.extend(codes(entry.checks))
    return out


# ----------------------------------------------------------------------------------------------
# The language-neutral table: schema/check-table.json

TABLE_FILE: Final = "check-table.json"
_PLACEHOLDER: Final = re.compile(r"\{([A-Za-z]+)\}")


def render(template: str, fields: Mapping[str, object]) -> str:
    """A message template with every ``{name}`` replaced by ``str(fields[name])``."""
    return _PLACEHOLDER.sub(lambda m: str(fields[m.group(1)]), template)


def _pointer_token(value: object) -> str:
    return str(value).replace("~", "~0").replace("/", "~1")


def render_pointer(template: str, fields: Mapping[str, object]) -> str:
    """A JSON pointer template with every ``{name}`` replaced by its escaped reference token."""
    return _PLACEHOLDER.sub(lambda m: _pointer_token(fields[m.group(1)]), template)


def placeholders(template: str) -> list[str]:
    """The placeholder names of a template, in order."""
    return _PLACEHOLDER.findall(template)


@dataclass(frozen=True)
class TableEntry:
    """One check as ``schema/check-table.json`` states it; ``each`` groups run per item."""

    code: str
    kind: str
    message: str
    field: str | None = None
    of: str | None = None
    applies_to: tuple[str, ...] | None = None
    data: Mapping[str, Any] = attribute(default_factory=dict, compare=False, repr=False)
    each: str | None = None
    checks: tuple[TableEntry, ...] = ()


def _entry(raw: Mapping[str, Any]) -> TableEntry:
    if "each" in raw:
        return TableEntry(code="", kind="each", message="", each=raw["each"],
                          checks=tuple(_entry(sub) for sub in raw["checks"]), data=raw)
    applies = raw.get("appliesTo")
    return TableEntry(
        code=raw["code"],
        kind=raw["kind"],
        message=raw.get("message", ""),
        field=raw.get("field"),
        of=raw.get("of"),
        applies_to=None if applies is None else tuple(applies),
        data=raw,
    )


@cache
def table_document() -> dict[str, Any]:
    """``schema/check-table.json`` as parsed JSON (read once)."""
    document: dict[str, Any] = json.loads((schema_dir() / TABLE_FILE).read_text(encoding="utf-8"))
    return document


@cache
def table_family(name: str) -> tuple[TableEntry, ...]:
    """The checks of one family, in the table's order."""
    return tuple(_entry(raw) for raw in table_document()["families"][name]["checks"])


def _flatten(entries: Iterable[TableEntry]) -> Iterable[TableEntry]:
    for entry in entries:
        if entry.each is not None:
            yield from _flatten(entry.checks)
        else:
            yield entry


@cache
def table_entry(code: str) -> TableEntry:
    """The table's entry for ``code`` in whichever family states it (KeyError when none does)."""
    for family in table_document()["families"]:
        for entry in _flatten(table_family(family)):
            if entry.code == code:
                return entry
    raise KeyError(f"check-table.json states no check {code!r}")


def table_check(entry: TableEntry, test: Callable[[S], Fields | None]) -> Check[S]:
    """A :class:`Check` running ``test`` with the entry's code, message and field."""
    return Check(entry.code, test, entry.message, entry.field)
