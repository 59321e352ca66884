"""``engineCompatibility``: does a constraint such as ``">=0.12.0 <1.0.0"`` admit an engine version?

The syntax is ``grammar/engine_compatibility.lark`` (the file other implementations compile); this
module adds what a grammar cannot say and evaluates. The canonical reading is the engine's strict one
(spec/contract.md §3.1-3.3): the host version is parsed first, then blankness, then *every*
comparator is parsed before any is evaluated, then all must hold. It refuses Unicode digits and
whitespace, components above 2147483647, pre-release/build suffixes and a host version with any
surrounding whitespace (a trailing newline included).

>>> evaluate(">=0.12.0 <1.0.0", "0.12.0").ok
True
>>> evaluate(">=0.12", "0.12.0").message
"invalid engineCompatibility '>=0.12'; expected space-separated comparators such as '>=0.12.0 <1.0.0'"
>>> verdict = evaluate(">=0.12.0 <1.0.0", "0.12.0\\n")
>>> str(verdict.outcome), verdict.code
('invalid-engine-version', 'engineCompatibility.engineVersion.syntax')
"""

from __future__ import annotations

import hashlib
import operator
import re
from collections.abc import Callable
from enum import StrEnum
from functools import cache
from typing import TYPE_CHECKING, Final

from contract.core.arguments import not_a_string
from contract.core.checktable import (
    CONTRACT_TABLE,
    PASS,
    Fields,
    first_failure,
    require_codes,
    table_check,
    table_entry,
    table_family,
)
from contract.core.record import Record, attribute
from contract.core.refusal import Refusal
from contract.core.resources import grammar_dir

if TYPE_CHECKING:  # lark is imported when a constraint needs the grammar (see parse_constraint)
    from lark import Lark

GRAMMAR_FILE: Final = "engine_compatibility.lark"
INT_MAX: Final = 2_147_483_647
EDGE_CHARACTERS: Final = "".join(chr(c) for c in range(0x21))  # what the engine's String.trim drops

Version = tuple[int, int, int]


class Outcome(StrEnum):
    SATISFIED = "satisfied"
    EXCLUDED = "excluded"
    BLANK = "blank"
    INVALID_CONSTRAINT = "invalid-constraint"
    INVALID_ENGINE_VERSION = "invalid-engine-version"


class Compatibility(Record):
    outcome: Outcome
    message: str | None  # None exactly when satisfied
    # The check-table code; None exactly when satisfied. Outcome and message determine it, so equality
    # compares those two only.
    code: str | None = attribute(default=None, compare=False)

    @property
    def ok(self) -> bool:
        return self.outcome is Outcome.SATISFIED

    @property
    def refusal(self) -> Refusal | None:
        """The refusal (code, message, field) when not satisfied."""
        if self.code is None or self.message is None:
            return None
        return Refusal(self.message, self.code, table_entry(self.code).field)


_HOST_VERSION: Final = re.compile(r"[0-9]+\.[0-9]+\.[0-9]+", re.ASCII)

_OPERATORS: Final[dict[str, Callable[[Version, Version], bool]]] = {
    "=": operator.eq,
    ">": operator.gt,
    ">=": operator.ge,
    "<": operator.lt,
    "<=": operator.le,
}


@cache
def parser() -> Lark:
    """The LALR parser compiled from the grammar file (built once)."""
    from lark import Lark

    text = (grammar_dir() / GRAMMAR_FILE).read_text(encoding="utf-8")
    return Lark(text, parser="lalr")


# Comparators joined by single spaces, nothing at either end: a subset of the grammar's language (every text it
# matches the grammar accepts, with the same comparators), and the form nearly every manifest writes. Such a
# text is read here without building the parser (importing lark and compiling the grammar cost ~85 ms, most of
# a `compat` run); any other text goes to the grammar, which stays the one authority on what is valid. The
# subset was checked against one grammar text (tests/runtime/test_runtime_compatibility.py compares the two
# readings): a grammar file of another SHA-256 turns this path off, so every text then goes to the grammar.
VERIFIED_GRAMMAR_SHA256: Final = "f3594f664a945755bdd7832f2ed4a38d19f433fda1d121cc450001e7c665331f"
_COMPARATOR: Final = r"(>=|<=|>|<|=)?([0-9]+)\.([0-9]+)\.([0-9]+)"
_CANONICAL: Final = re.compile(f"{_COMPARATOR}(?: {_COMPARATOR})*", re.ASCII)
_ONE_COMPARATOR: Final = re.compile(_COMPARATOR, re.ASCII)


class _Unparsable(Exception):
    pass


def _component(digits: str) -> int | None:
    """An ASCII digit string's value, or None above 2147483647 (any length; leading zeros allowed)."""
    significant = digits.lstrip("0")
    if len(significant) > len(str(INT_MAX)):  # never hand int() a huge string: it has a digit limit
        return None
    value = int(significant or "0")
    return value if value <= INT_MAX else None


def _comparator(op: str, digits: list[str]) -> tuple[str, Version]:
    parts = [_component(text) for text in digits]
    if parts[0] is None or parts[1] is None or parts[2] is None:
        raise _Unparsable
    return op, (parts[0], parts[1], parts[2])


@cache
def _subset_verified() -> bool:
    """Whether the grammar file is the one the canonical subset was checked against."""
    try:
        data = (grammar_dir() / GRAMMAR_FILE).read_bytes()
    except OSError:
        return False  # the parser then says what is wrong with the file
    return hashlib.sha256(data).hexdigest() == VERIFIED_GRAMMAR_SHA256


def parse_constraint(text: str) -> list[tuple[str, Version]]:
    """Every comparator of a non-blank constraint, as (operator, version); raise if invalid."""
    if _CANONICAL.fullmatch(text) is not None and _subset_verified():
        return [_comparator(match[1] or "=", [match[2], match[3], match[4]])
                for match in _ONE_COMPARATOR.finditer(text)]
    from lark import LarkError, Token, Tree

    try:
        tree = parser().parse(text)
    except LarkError:
        raise _Unparsable from None
    # the grammar makes every child of the start rule a comparator: an optional OP and one version
    return [_comparator(next((str(child) for child in node.children
                              if isinstance(child, Token) and child.type == "OP"), "="),
                        [str(tok) for tok in next(child for child in node.children
                                                  if isinstance(child, Tree)).children])
            for node in tree.children if isinstance(node, Tree)]


class Question(Record, frozen=False):
    """State threaded through the engineCompatibility family of the check table."""

    constraint: str
    engine_version: str
    host: Version | None = None
    comparators: list[tuple[str, Version]] | None = None


def _host(text: str) -> Version | None:
    """The host version; None if it is not MAJOR.MINOR.PATCH of ASCII digits within 0..2147483647."""
    if _HOST_VERSION.fullmatch(text) is None:
        return None
    parts = [_component(p) for p in text.split(".")]
    if parts[0] is None or parts[1] is None or parts[2] is None:
        return None
    return (parts[0], parts[1], parts[2])


def _host_syntax(q: Question) -> Fields | None:
    return {"version": q.engine_version} if _HOST_VERSION.fullmatch(q.engine_version) is None else PASS


def _host_range(q: Question) -> Fields | None:
    host = _host(q.engine_version)
    if host is None:  # the syntax check came first: what fails here is the range
        return {"version": q.engine_version}
    q.host = host
    return PASS


def _blank(q: Question) -> Fields | None:
    return {} if q.constraint.strip(EDGE_CHARACTERS) == "" else PASS


def _grammar(q: Question) -> Fields | None:
    try:
        q.comparators = parse_constraint(q.constraint)
    except _Unparsable:
        return {"constraint": q.constraint}
    return PASS


def _holds(q: Question) -> Fields | None:
    assert q.host is not None and q.comparators is not None
    host = q.host
    if all(_OPERATORS[op](host, bound) for op, bound in q.comparators):
        return PASS
    return {"constraint": q.constraint, "version": q.engine_version}


# What each kind of check in the table's engineCompatibility family tests; the order is the table's.
TESTS: Final = {"hostSyntax": _host_syntax, "hostRange": _host_range, "blank": _blank,
                "grammar": _grammar, "holds": _holds}
IMPLEMENTED: Final = ("engineCompatibility.engineVersion.syntax", "engineCompatibility.engineVersion.range",
                      "engineCompatibility.blank", "engineCompatibility.invalid", "engineCompatibility.excluded")
require_codes(CONTRACT_TABLE, "engineCompatibility", IMPLEMENTED)
CHECKS: Final = tuple(table_check(entry, TESTS[entry.kind]) for entry in table_family("engineCompatibility"))


def engine_version_problem(engine_version: str) -> str | None:
    """Why ``engine_version`` is no host version (the table's message), or None when it is one."""
    host_checks = [check for check in CHECKS if check.test in (_host_syntax, _host_range)]
    failure = first_failure(host_checks, Question("", engine_version))
    return None if failure is None else failure.message


def evaluate(constraint: str, engine_version: str) -> Compatibility:
    """Decide whether ``constraint`` admits ``engine_version``; never raises, whatever the arguments (a
    wrong type is refused as the value it stands for: the host version first, as the engine reads it)."""
    for argument, value, outcome in (("engine_version", engine_version, Outcome.INVALID_ENGINE_VERSION),
                                     ("constraint", constraint, Outcome.INVALID_CONSTRAINT)):
        wrong = not_a_string(argument, value)
        if wrong is not None:
            return Compatibility(outcome, wrong.message, wrong.code)
    failure = first_failure(CHECKS, Question(constraint, engine_version))
    if failure is None:
        return Compatibility(Outcome.SATISFIED, None)
    outcome = Outcome(table_entry(failure.code).data["outcome"])
    return Compatibility(outcome, failure.message, failure.code)
