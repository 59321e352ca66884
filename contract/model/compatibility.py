"""``engineCompatibility``: does a constraint such as ``">=0.12.0 <1.0.0"`` admit an engine version?

The syntax is ``grammar/engine_compatibility.lark`` (the file other implementations compile); this
module adds what a grammar cannot say and evaluates. The canonical reading is the engine's strict one
(spec/contract.md §3.1-3.3): the host version is parsed first, then blankness, then *every*
comparator is parsed before any is evaluated, then all must hold. It refuses Unicode digits and
whitespace, components above 2147483647, pre-release/build suffixes and a host version with any
surrounding whitespace (a trailing newline included).

>>> evaluate(">=0.12.0 <1.0.0", "0.12.0").outcome
'satisfied'
>>> evaluate(">=0.12", "0.12.0").message
"invalid engineCompatibility '>=0.12'; expected space-separated comparators such as '>=0.12.0 <1.0.0'"
>>> evaluate(">=0.12.0 <1.0.0", "0.12.0\\n").outcome
'invalid-engine-version'
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Final

from lark import Lark, LarkError, Token, Tree

from contract.core.resources import grammar_dir

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


@dataclass(frozen=True)
class Compatibility:
    outcome: Outcome
    message: str | None  # None exactly when satisfied

    @property
    def ok(self) -> bool:
        return self.outcome is Outcome.SATISFIED


# The engine's exact texts (spec/contract.md §3.3). ModelPackage adds the manifest path prefix.
def _msg_version_syntax(v: str) -> str:
    return f"invalid engine version: invalid semantic version '{v}'; expected MAJOR.MINOR.PATCH"


def _msg_version_range(v: str) -> str:
    return f"invalid engine version: invalid semantic version '{v}'; a component does not fit in an Int"


MSG_BLANK: Final = "engineCompatibility must not be blank"


def _msg_invalid(c: str) -> str:
    return (f"invalid engineCompatibility '{c}'; expected space-separated comparators"
            " such as '>=0.12.0 <1.0.0'")


def _msg_excluded(c: str, v: str) -> str:
    return f"engineCompatibility '{c}' does not include engine version '{v}'"


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
    text = (grammar_dir() / GRAMMAR_FILE).read_text(encoding="utf-8")
    return Lark(text, parser="lalr")


class _Unparsable(Exception):
    pass


def _component(digits: str) -> int | None:
    """An ASCII digit string's value, or None above 2147483647 (any length; leading zeros allowed)."""
    significant = digits.lstrip("0")
    if len(significant) > len(str(INT_MAX)):  # never hand int() a huge string: it has a digit limit
        return None
    value = int(significant or "0")
    return value if value <= INT_MAX else None


def parse_engine_version(text: str) -> Version | str:
    """The host's version, strict ``MAJOR.MINOR.PATCH``; or the refusal message."""
    if _HOST_VERSION.fullmatch(text) is None:
        return _msg_version_syntax(text)
    parts = [_component(p) for p in text.split(".")]
    if parts[0] is None or parts[1] is None or parts[2] is None:
        return _msg_version_range(text)
    return (parts[0], parts[1], parts[2])


def parse_constraint(text: str) -> list[tuple[str, Version]]:
    """Every comparator of a non-blank constraint, as (operator, version); raise if invalid."""
    try:
        tree = parser().parse(text)
    except LarkError:
        raise _Unparsable from None
    comparators: list[tuple[str, Version]] = []
    for node in tree.children:
        if not isinstance(node, Tree):
            continue
        op = "="
        version_node: Tree[Token] | None = None
        for child in node.children:
            if isinstance(child, Token) and child.type == "OP":
                op = str(child)
            elif isinstance(child, Tree):
                version_node = child
        assert version_node is not None  # the grammar requires a version in every comparator
        parts = [_component(str(tok)) for tok in version_node.children]
        if parts[0] is None or parts[1] is None or parts[2] is None:
            raise _Unparsable
        comparators.append((op, (parts[0], parts[1], parts[2])))
    return comparators


def evaluate(constraint: str, engine_version: str) -> Compatibility:
    """Decide whether ``constraint`` admits ``engine_version``; never raises for string input."""
    host = parse_engine_version(engine_version)
    if isinstance(host, str):
        return Compatibility(Outcome.INVALID_ENGINE_VERSION, host)
    if constraint.strip(EDGE_CHARACTERS) == "":
        return Compatibility(Outcome.BLANK, MSG_BLANK)
    try:
        comparators = parse_constraint(constraint)
    except _Unparsable:
        return Compatibility(Outcome.INVALID_CONSTRAINT, _msg_invalid(constraint))
    if all(_OPERATORS[op](host, bound) for op, bound in comparators):
        return Compatibility(Outcome.SATISFIED, None)
    return Compatibility(Outcome.EXCLUDED, _msg_excluded(constraint, engine_version))
