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
from functools import cache
from typing import Any, Final, Generic, TypeVar

from contract.core import formatversion
from contract.core.errors import CheckTableError
from contract.core.record import Record, attribute
from contract.core.resources import schema_dir

S = TypeVar("S")

Fields = Mapping[str, object]
PASS: None = None


class Failure(Record):
    """The first failing check: its code and the message with the fields filled in."""

    code: str
    message: str
    field: str | None = None


class Check(Record, Generic[S]):
    code: str
    test: Callable[[S], Fields | None]
    message: str
    field: str | None = None


class Within(Record, Generic[S]):
    """Run ``checks`` on ``select(subject)``."""

    select: Callable[[S], Any]
    checks: Sequence[Entry[Any]]


class ForEach(Record, Generic[S]):
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
                render(entry.message, fields),
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
# The language-neutral tables: schema/check-table.json and schema/pairjudge-check-table.json

TABLE_FILE: Final = "check-table.json"
PAIRJUDGE_TABLE_FILE: Final = "pairjudge-check-table.json"
# A placeholder ``{name}``, or an escaped brace ``{{`` / ``}}`` (a literal ``{`` / ``}``).
_TOKEN: Final = re.compile(r"\{\{|\}\}|\{([A-Za-z]+)\}")


def _fill(template: str, fields: Mapping[str, object], text: Callable[[object], str]) -> str:
    return _TOKEN.sub(lambda m: m.group(0)[0] if m.group(1) is None else text(fields[m.group(1)]), template)


def render(template: str, fields: Mapping[str, object]) -> str:
    """A message template with every ``{name}`` replaced by ``str(fields[name])``.

    >>> render("{name} must contain exactly one {{text}} placeholder", {"name": "prompt_prefix"})
    'prompt_prefix must contain exactly one {text} placeholder'
    """
    return _fill(template, fields, str)


def _pointer_token(value: object) -> str:
    return str(value).replace("~", "~0").replace("/", "~1")


def render_pointer(template: str, fields: Mapping[str, object]) -> str:
    """A JSON pointer template with every ``{name}`` replaced by its escaped reference token."""
    return _fill(template, fields, _pointer_token)


def placeholders(template: str) -> list[str]:
    """The placeholder names of a template, in order (escaped braces are not placeholders)."""
    return [m.group(1) for m in _TOKEN.finditer(template) if m.group(1) is not None]


def literal_parts(template: str) -> list[str]:
    """The literal text between a template's placeholders, escaped braces unescaped.

    >>> literal_parts("adapter classifier head {name} has shape {shape}, not 3 rows")
    ['adapter classifier head ', ' has shape ', ', not 3 rows']
    """
    parts, start = [""], 0
    for match in _TOKEN.finditer(template):
        parts[-1] += template[start:match.start()]
        if match.group(1) is None:
            parts[-1] += match.group(0)[0]
        else:
            parts.append("")
        start = match.end()
    parts[-1] += template[start:]
    return parts


class TableEntry(Record):
    """One entry as a table file states it: a check, an ``each`` group run per item, or a ``within``
    entry running another family of the same table on one part of the subject."""

    code: str
    kind: str
    message: str
    field: str | None = None
    of: str | None = None
    applies_to: tuple[str, ...] | None = None
    data: Mapping[str, Any] = attribute(default_factory=dict, compare=False, repr=False)
    each: str | None = None
    checks: tuple[TableEntry, ...] = ()
    within: str | None = None
    family: str | None = None


def _entry(raw: Mapping[str, Any]) -> TableEntry:
    if "each" in raw:
        return TableEntry(code="", kind="each", message="", each=raw["each"],
                          checks=tuple(_entry(sub) for sub in raw["checks"]), data=raw)
    if "within" in raw:
        return TableEntry(code="", kind="within", message="", within=raw["within"], family=raw["family"], data=raw)
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
def _document(file: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((schema_dir() / file).read_text(encoding="utf-8"))
    formatversion.check(f"schema/{file}", document, file.removesuffix(".json"))
    return document


@cache
def _family(file: str, name: str) -> tuple[TableEntry, ...]:
    return tuple(_entry(raw) for raw in _document(file)["families"][name]["checks"])


def _flatten(entries: Iterable[TableEntry]) -> Iterable[TableEntry]:
    for entry in entries:
        if entry.each is not None:
            yield from _flatten(entry.checks)
        elif entry.within is None:
            yield entry


@cache
def _codes(file: str) -> dict[str, TableEntry]:
    return {entry.code: entry for family in _document(file)["families"] for entry in _flatten(_family(file, family))}


class Table(Record):
    """One table file under ``schema/`` (all share ``check-table.schema.json``); codes are unique in it."""

    file: str

    def document(self) -> dict[str, Any]:
        """The file as parsed JSON (read once)."""
        return _document(self.file)

    def family(self, name: str) -> tuple[TableEntry, ...]:
        """The entries of one family, in the table's order."""
        return _family(self.file, name)

    def entries(self) -> tuple[TableEntry, ...]:
        """Every check and text of the table, groups flattened, in file order."""
        return tuple(_codes(self.file).values())

    def entry(self, code: str) -> TableEntry:
        """The entry for ``code`` in whichever family states it (KeyError when none does)."""
        found = _codes(self.file).get(code)
        if found is None:
            raise KeyError(f"{self.file} states no check {code!r}")
        return found

    def text(self, code: str, /, **fields: object) -> str:
        """The message of ``code`` with ``fields`` filled in (for a refusal detail, a warning, an error)."""
        return render(self.entry(code).message, fields)

    def checks(
        self,
        family: str,
        tests: Mapping[str, Callable[[Any], Fields | None]],
        parts: Mapping[str, Callable[[Any], Any]],
    ) -> tuple[Entry[Any], ...]:
        """The family as runnable entries: each check with ``tests[code]``, each ``each`` group as a
        :class:`ForEach` over ``parts[each]``, each ``within`` as a :class:`Within` on ``parts[within]``
        running the named family. A table code without a test, or a test without a code, is an error."""
        used: set[str] = set()
        built = self._bind_all(self.family(family), tests, parts, used)
        unused = sorted(set(tests) - used)
        if unused:
            raise KeyError(f"{self.file} family {family!r} has no check {unused[0]!r}")
        return built

    def _bind_all(
        self,
        entries: Iterable[TableEntry],
        tests: Mapping[str, Callable[[Any], Fields | None]],
        parts: Mapping[str, Callable[[Any], Any]],
        used: set[str],
    ) -> tuple[Entry[Any], ...]:
        out: list[Entry[Any]] = []
        for entry in entries:
            if entry.each is not None:
                out.append(ForEach(parts[entry.each], self._bind_all(entry.checks, tests, parts, used)))
            elif entry.within is not None:
                assert entry.family is not None
                out.append(Within(parts[entry.within], self._bind_all(self.family(entry.family), tests, parts, used)))
            elif entry.code not in tests:
                raise KeyError(f"{self.file}: no test for the check {entry.code!r}")
            else:
                used.add(entry.code)
                out.append(Check(entry.code, tests[entry.code], entry.message, entry.field))
        return tuple(out)


def require_codes(table: Table, family: str, implemented: Iterable[str]) -> None:
    """Raise :class:`CheckTableError` unless every code in ``implemented`` is a check of ``family``.

    A family interpreted by kind (the manifest's, engineCompatibility's) would otherwise lose a check
    without a word when its entry is deleted: the interpreter states which checks it implements."""
    stated = {entry.code for entry in _flatten(table.family(family))}
    missing = [code for code in implemented if code not in stated]
    if missing:
        raise CheckTableError(f"schema/{table.file}: the {family} family lacks the check {missing[0]!r} "
                              f"({len(missing)} missing): the table is edited or stale, and nothing is "
                              "served without it")


CONTRACT_TABLE: Final = Table(TABLE_FILE)
PAIRJUDGE_TABLE: Final = Table(PAIRJUDGE_TABLE_FILE)


def table_document() -> dict[str, Any]:
    """``schema/check-table.json`` as parsed JSON (read once)."""
    return CONTRACT_TABLE.document()


def table_family(name: str) -> tuple[TableEntry, ...]:
    """The checks of one family of ``schema/check-table.json``, in the table's order."""
    return CONTRACT_TABLE.family(name)


def table_entry(code: str) -> TableEntry:
    """The entry for ``code`` in ``schema/check-table.json`` (KeyError when no family states it)."""
    return CONTRACT_TABLE.entry(code)


def table_check(entry: TableEntry, test: Callable[[S], Fields | None]) -> Check[S]:
    """A :class:`Check` running ``test`` with the entry's code, message and field."""
    return Check(entry.code, test, entry.message, entry.field)
